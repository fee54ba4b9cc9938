"""Players a learner might write first, kept as ladder rungs below the heuristic player (``package.module:Name``
names them on the ladder's command line: ``railkit.lab.examples:never_bid``).

* ``never_bid`` (Kap bis Kairo): every bid 0, everything else as the heuristic player. A bid is paid by everyone,
  winner or not (KK-A3), so never bidding looks thrifty; but the highest bid chooses first (KK-A4), and a player
  who never bids takes whatever card is left, last. Against three heuristic players it won 1.5 % of 200
  seat-rotated games (parity 25 %): a rung between the random player and the heuristic one
  (docs/benchmarks.md, "Ladders and goals").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from railkit.capecairo.actions import Bid
from railkit.capecairo.bots import HeuristicBot
from railkit.capecairo.views import KKView

__all__ = ["NeverBid", "never_bid"]


class NeverBid:
    """Kap bis Kairo: bids 0 in every auction (KK-A2 allows it), takes cards and builds as the heuristic player."""

    def __init__(self, seed: int = 0) -> None:
        self.heuristic = HeuristicBot(seed)

    def choose(self, view: KKView, legal: Sequence[Any]) -> Any:
        if view.phase == "bid":
            return min((a for a in legal if isinstance(a, Bid)), key=lambda bid: bid.amount)
        return self.heuristic.choose(view, legal)


never_bid = NeverBid  # the ladder's name for it: railkit.lab.examples:never_bid
