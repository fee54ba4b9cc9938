"""Players a learner might write first, kept as ladder rungs below the heuristic player (``package.module:Name``
names them on the ladder's command line: ``railkit.lab.examples:never_bid``).

* ``never_bid`` (Kap bis Kairo): every bid 0, everything else as the heuristic player. A bid is paid by everyone,
  winner or not (KK-A3), so never bidding looks thrifty; but the highest bid chooses first (KK-A4), and a player
  who never bids takes whatever card is left, last. Against three heuristic players it won 1.5 % of 200
  seat-rotated games (parity 25 %): a rung between the random player and the heuristic one
  (docs/benchmarks.md, "Ladders and goals").
* ``one_share_at_a_time`` (Union Pacific): lays one share where the heuristic player would lay several, keeping
  the rest hidden in hand. Each investment costs a whole turn (UP-I3: no train, no share drawn) and only shares
  on the table are paid (UP-I4), so the cautious player ends with shares that never count. Against three
  heuristic players it won none of 40 seat-rotated games with 19 % of the points (parity 25 %; a random player
  gets ~15 %): a rung between the random player and the heuristic one.
* ``never_invest`` (Union Pacific): keeps every share in hand, building instead when the heuristic player would
  invest. It forgets UP-I4 (only shares on the table are paid) and ends with next to nothing: 1 % of the points
  in 40 games against three heuristic players, below even the random player, which invests by chance.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from railkit.capecairo.actions import Bid
from railkit.capecairo.bots import HeuristicBot
from railkit.capecairo.views import KKView
from railkit.unionpacific.actions import Invest
from railkit.unionpacific.bots import HeuristicBot as UPHeuristicBot
from railkit.unionpacific.views import UPView

__all__ = ["NeverBid", "NeverInvest", "OneShareAtATime", "never_bid", "never_invest", "one_share_at_a_time"]


class NeverBid:
    """Kap bis Kairo: bids 0 in every auction (KK-A2 allows it), takes cards and builds as the heuristic player."""

    def __init__(self, seed: int = 0) -> None:
        self.heuristic = HeuristicBot(seed)

    def choose(self, view: KKView, legal: Sequence[Any]) -> Any:
        if view.phase == "bid":
            return min((a for a in legal if isinstance(a, Bid)), key=lambda bid: bid.amount)
        return self.heuristic.choose(view, legal)


never_bid = NeverBid  # the ladder's name for it: railkit.lab.examples:never_bid


class OneShareAtATime:
    """Union Pacific: invests when the heuristic player would, but only the first of the shares it would lay
    (UP-I1 allows one); everything else as the heuristic player."""

    def __init__(self, seed: int = 0) -> None:
        self.heuristic = UPHeuristicBot(seed)

    def choose(self, view: UPView, legal: Sequence[Any]) -> Any:
        action = self.heuristic.choose(view, legal)
        if isinstance(action, Invest) and len(action.cards) > 1:
            return next((a for a in legal if isinstance(a, Invest) and a.cards == action.cards[:1]
                         and a.discard == action.discard), action)
        return action


one_share_at_a_time = OneShareAtATime  # railkit.lab.examples:one_share_at_a_time


class NeverInvest:
    """Union Pacific: never lays a share on the table (UP-I1) while any other move is legal; where the heuristic
    player would invest it takes the heuristic's best other move, otherwise it plays as the heuristic player."""

    def __init__(self, seed: int = 0) -> None:
        self.heuristic = UPHeuristicBot(seed)

    def choose(self, view: UPView, legal: Sequence[Any]) -> Any:
        action = self.heuristic.choose(view, legal)
        if not isinstance(action, Invest):
            return action
        others = [(a, worth) for a, worth in self.heuristic.scores(view, legal) if not isinstance(a, Invest)]
        return max(others, key=lambda pair: pair[1])[0] if others else action


never_invest = NeverInvest  # railkit.lab.examples:never_invest
