"""The Vom Kap bis Kairo play lesson (``notebooks/kk_play.ipynb``; KK-S, KK-A, KK-B, KK-R, KK-E): ``KkPlayApp``."""

from railkit.ui.capecairo.play.app import KkPlayApp
from railkit.ui.capecairo.play.build import NO_BUILD

__all__ = ["NO_BUILD", "KkPlayApp"]
