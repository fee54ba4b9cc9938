"""The Union Pacific dividends lesson (``notebooks/up_dividends.ipynb``, UP-D2..UP-D11): ``DividendsApp``."""

from railkit.ui.unionpacific.dividends.app import DividendsApp

__all__ = ["DividendsApp"]
