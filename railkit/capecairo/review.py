"""After a game: the learner's moves that the heuristic player judged weak, with the reason in words
and rule IDs. Widget-free: the lessons show the list.

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

from railkit.brief import brief
from railkit.capecairo.actions import Bid, Build, Choose, KKAction, Pass
from railkit.capecairo.bots import HeuristicBot
from railkit.capecairo.checks import TRACK_PRICE
from railkit.capecairo.deck import Card
from railkit.capecairo.game import CapeToCairoGame
from railkit.capecairo.phrases import pounds, terrain_word, track_pieces
from railkit.messages import Message

__all__ = ["WeakMove", "review_moves", "weak_move_reason"]

BID_MARGIN = 10  # pounds above the heuristic player's bid before a bid counts as weak
CARD_MARGIN = 6.0  # card-value points below the best card on offer
BUILD_LOSS = 15  # pounds lost on one crossing (pieces bought minus the coin received)


@dataclass(frozen=True)
class WeakMove:
    """One move of the learner, its number in the game log (1-based) and why it was weak."""

    move: int
    action: KKAction
    reason: Message

    def __str__(self) -> str:
        return self.words

    @property
    def words(self) -> Message:
        """"Move 12: …" as a message (the lesson renders it in the learner's language)."""
        return Message("Move {move}: {reason}", {"move": self.move, "reason": self.reason})


def review_moves(game: CapeToCairoGame, player: str) -> list[WeakMove]:
    """``player``'s weak moves in ``game`` (finished or not), in the order they were made."""
    if player not in game.players:
        raise ValueError(Message("{player} does not play in this game", {"player": brief(player)}))
    judge = HeuristicBot(seed=0)
    replay = game.replay(0)
    weak: list[WeakMove] = []
    for number, action in enumerate(game.log, 1):
        if action.player == player:
            reason = weak_move_reason(replay, judge, action)
            if reason:
                weak.append(WeakMove(number, action, reason))
        replay.apply(action)
    return weak


def weak_move_reason(game: CapeToCairoGame, judge: HeuristicBot, action: KKAction) -> Message | None:
    """Why ``action``, about to be played in ``game`` (the position before it), is weak by ``judge``'s rules of
    thumb, in words with rule IDs; ``None`` when it is not clearly weak (the module docstring lists the cases).
    The search review (``railkit.lab.review``) borrows these words for its own verdicts."""
    p = action.player
    if isinstance(action, Bid):
        money = game._state.money[p]
        if action.amount >= money // 5 + BID_MARGIN:  # the heuristic player never bids above a fifth
            return Message("a bid of {bid} out of your {money}: every player pays their bid, won or lost (KK-A3), "
                           "so money spent on bids is missing later for track pieces (KK-B2); the computer players "
                           "never bid more than a fifth of their money (KK-A2).",
                           {"bid": pounds(action.amount), "money": money})
    elif isinstance(action, Choose):
        value = {c: judge.card_value(game, p, game.table.cards[c]) for c in game._state.offer}
        best = max(value, key=lambda c: value[c])
        if value[action.card_id] <= value[best] - CARD_MARGIN:
            took, better = game.table.cards[action.card_id], game.table.cards[best]
            return Message("you took {took} while {better} was on offer: track pieces on your cards help every "
                           "later crossing (KK-B2) and easier terrain needs fewer tracks (KK-C3).",
                           {"took": _card(took), "better": _card(better)})
    elif isinstance(action, Build):
        nums = game.build_numbers(p)
        bought = min(action.buy or 0, nums.min_buy)  # pieces beyond the fewest are kept as bonus tracks
        wins = len(game._state.crossed[p]) + 1 >= game.table.win_crossings
        coin = nums.card.coin if nums.card is not None else 0
        loss = TRACK_PRICE * bought - coin
        if not wins and loss >= BUILD_LOSS:
            return Message("you bought {pieces} for {cost} pounds to cross a terrain paying {coin} (a loss of "
                           "{loss}); waiting for more pieces to be turned up makes crossing cheaper (KK-B2, KK-B3, "
                           "KK-B4).", {"pieces": track_pieces(bought, "object"), "cost": TRACK_PRICE * bought,
                                       "coin": pounds(coin, "object"), "loss": loss})
    elif isinstance(action, Pass):
        nums = game.build_numbers(p)
        if nums.card is not None and nums.can_afford:
            if len(game._state.crossed[p]) + 1 >= game.table.win_crossings:
                return Message("you passed although crossing your next terrain would have won the game (KK-E1, KK-B2).")
            if nums.min_buy == 0:
                return Message("you passed although your next terrain could be crossed without buying anything, "
                               "earning its coin of {coin} (KK-B2, KK-B4).", {"coin": pounds(nums.card.coin, "object")})
    return None


def _card(card: Card) -> Message:
    """"R01 (river, needs 10, 2 track pieces, coin 4)" for the review."""
    return Message("{id} ({terrain}, needs {need}, {pieces}, coin {coin})",
                   {"id": card.id, "terrain": terrain_word(card.terrain), "need": card.requirement,
                    "pieces": track_pieces(card.tracks), "coin": card.coin})
