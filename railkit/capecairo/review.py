"""After a game: the learner's moves that the heuristic player judged weak, with the reason in words
and rule IDs (issue 9, item 9). Widget-free: the lessons show the list.

The game is replayed from its log; before each of ``player``'s moves the position is judged by the
same rules of thumb ``HeuristicBot`` plays by (its card values and build test). A move is listed only
when the difference is clear, so a learner who plays sensibly but differently is not told off:

* a bid well above a fifth of the money, which the heuristic player never bids (every bid is
  paid, won or lost, KK-A3);
* a card taken that the heuristic player values much lower than the best one on offer (KK-A6, KK-B2);
* a build paying much more for track pieces than the crossed terrain's coin returns (KK-B2, KK-B4);
* a pass when the next terrain could be crossed for nothing, or when crossing it won the game (KK-E1).
"""

from __future__ import annotations

from dataclasses import dataclass

from railkit.capecairo.actions import Action, Bid, Build, Choose, Pass
from railkit.capecairo.bots import HeuristicBot
from railkit.capecairo.game import CapeToCairoGame
from railkit.capecairo.rules_check import TRACK_PRICE
from railkit.words import count

BID_MARGIN = 10  # pounds above the heuristic player's bid before a bid counts as weak
CARD_MARGIN = 6.0  # card-value points below the best card on offer
BUILD_LOSS = 15  # pounds lost on one crossing (pieces bought minus the coin received)


@dataclass(frozen=True)
class WeakMove:
    """One move of the learner, its number in the game log (1-based) and why it was weak."""

    move: int
    action: Action
    reason: str

    def __str__(self) -> str:
        return f"Move {self.move}: {self.reason}"


def review_moves(game: CapeToCairoGame, player: str) -> list[WeakMove]:
    """``player``'s weak moves in ``game`` (finished or not), in the order they were made."""
    if player not in game.players:
        raise ValueError(f"{player!r} does not play in this game")
    judge = HeuristicBot(seed=0)
    replay = game.replay(0)
    weak: list[WeakMove] = []
    for number, action in enumerate(game.log, 1):
        if action.player == player:
            reason = _judge(replay, judge, action)
            if reason:
                weak.append(WeakMove(number, action, reason))
        replay.apply(action)
    return weak


def _judge(game: CapeToCairoGame, judge: HeuristicBot, action: Action) -> str:
    p = action.player
    if isinstance(action, Bid):
        money = game.money[p]
        if action.amount >= money // 5 + BID_MARGIN:  # the heuristic player never bids above a fifth
            return (f"a bid of {count(action.amount, 'pound')} out of your {money}: every player pays their "
                    f"bid, won or lost (KK-A3), so money spent on bids is missing later for track pieces "
                    f"(KK-B2); the computer players never bid more than a fifth of their money (KK-A2).")
    elif isinstance(action, Choose):
        value = {c: judge.card_value(game, p, game.cards[c]) for c in game.offer}
        best = max(value, key=lambda c: value[c])
        if value[action.card_id] <= value[best] - CARD_MARGIN:
            took, better = game.cards[action.card_id], game.cards[best]
            return (f"you took {action.card_id} ({took.terrain}, needs {took.requirement}, "
                    f"{count(took.tracks, 'track piece')}, coin {took.coin}) while {best} ({better.terrain}, "
                    f"needs {better.requirement}, {count(better.tracks, 'track piece')}, coin {better.coin}) "
                    f"was on offer: track pieces on your cards help every later crossing (KK-B2) and easier "
                    f"terrain needs fewer tracks (KK-C3).")
    elif isinstance(action, Build):
        nums = game.build_numbers(p)
        bought = min(action.buy or 0, nums.min_buy)  # pieces beyond the fewest are kept as bonus tracks
        wins = len(game.crossed[p]) + 1 >= game.table.win_crossings
        coin = nums.card.coin if nums.card is not None else 0
        loss = TRACK_PRICE * bought - coin
        if not wins and loss >= BUILD_LOSS:
            return (f"you bought {count(bought, 'track piece')} for {TRACK_PRICE * bought} pounds to cross a "
                    f"terrain paying {count(coin, 'pound')} (a loss of {loss}); waiting for more pieces to be "
                    f"turned up makes crossing cheaper (KK-B2, KK-B3, KK-B4).")
    elif isinstance(action, Pass):
        nums = game.build_numbers(p)
        if nums.card is not None and nums.can_afford:
            if len(game.crossed[p]) + 1 >= game.table.win_crossings:
                return "you passed although crossing your next terrain would have won the game (KK-E1, KK-B2)."
            if nums.min_buy == 0:
                return (f"you passed although your next terrain could be crossed without buying anything, "
                        f"earning its coin of {count(nums.card.coin, 'pound')} (KK-B2, KK-B4).")
    return ""
