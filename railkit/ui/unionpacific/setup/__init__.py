"""The Union Pacific setup lesson (``notebooks/up_setup.ipynb``, UP-S1..UP-S8, UP-S7-FI, UP-V1, UP-V2): ``SetupApp``."""

from railkit.ui.unionpacific.setup.app import SetupApp

__all__ = ["SetupApp"]
