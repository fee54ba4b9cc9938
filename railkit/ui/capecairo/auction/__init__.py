"""The Vom Kap bis Kairo auction lesson (``notebooks/kk_auction.ipynb``, KK-A1..KK-A7): ``KkAuctionApp``."""

from railkit.ui.capecairo.auction.app import KkAuctionApp

__all__ = ["KkAuctionApp"]
