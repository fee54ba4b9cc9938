"""Who acts now, which actions are legal, and why not (each refusal names its rule ID).

Nothing here changes the game: ``check`` only reads, so a refused action leaves the state as
it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from railkit.brief import brief
from railkit.capecairo.actions import Bid, Build, Choose, KKAction, Pass
from railkit.capecairo.deck import Card
from railkit.capecairo.phrases import card_words, pounds, track_pieces, tracks
from railkit.capecairo.state import KKState, KKTable
from railkit.errors import RuleError
from railkit.messages import Message, addressed, nmessage

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{player} has already handed in a sealed bid; each player bids once per auction",
          "you have already handed in a sealed bid; each player bids once per auction")
addressed("{player} has only {money} and cannot bid {amount} (money never goes below 0, KK-C5)",
          "you have only {money} and cannot bid {amount} (money never goes below 0, KK-C5)")
addressed("{player} has no terrain in front of the train; pass instead",
          "you have no terrain in front of your train; pass instead")
addressed("buying {pieces} costs {cost} but {player} has {money}; money never goes below 0 (KK-C5), so "
           "pass",
          "buying {pieces} costs {cost} but you have {money}; money never goes below 0 (KK-C5), so pass")
addressed("{player} is choosing a card",
          "you are choosing a card")
addressed("it is {player}'s turn to build or pass",
          "it is your turn to build or pass")

TRACK_PRICE = 10  # KK-B2 (4)


class BuildNumbers(NamedTuple):
    """The four track sources of KK-B2 for one player, right now. (A named tuple: it is made for every
    building turn, and a tuple is the cheapest immutable record to make.)"""

    player: str
    card: Card | None  # the next terrain in front of the train
    need: int  # KK-C3 requirement of that terrain
    flipped: int  # KK-B2 (1): pieces on the cards turned up this building round
    own: int  # KK-B2 (2): pieces on all of the player's uncrossed cards
    bonus: int  # KK-B2 (3): bonus tracks held
    money: int

    @property
    def free(self) -> int:
        return self.flipped + self.own

    @property
    def missing(self) -> int:
        """Pieces still needed after the free sources: paid by bonus tracks or bought."""
        return max(0, self.need - self.flipped - self.own)

    @property
    def min_buy(self) -> int:
        return max(0, self.need - self.flipped - self.own - self.bonus)

    @property
    def cost(self) -> int:
        return TRACK_PRICE * self.min_buy

    @property
    def can_afford(self) -> bool:
        return self.card is not None and self.cost <= self.money  # KK-C5: never below 0

    def buy_options(self) -> range:
        """Every legal purchase: the fewest, up to all missing pieces (keeping bonus tracks)."""
        if self.card is None:
            return range(0)
        missing = self.need - self.flipped - self.own
        if missing <= 0:
            return range(0, min(0, self.money // TRACK_PRICE) + 1)
        return range(max(0, missing - self.bonus), min(missing, self.money // TRACK_PRICE) + 1)

    def bonus_spent(self, buy: int) -> int:
        return min(self.bonus, max(0, self.missing - buy))

    def resolve_buy(self, buy: int | None) -> int:
        return self.min_buy if buy is None else buy


def build_numbers(table: KKTable, state: KKState, player: str) -> BuildNumbers:
    cards = table.cards
    queue = state.queues[player]
    flipped = own = 0
    for c in state.flipped:
        flipped += cards[c].tracks
    if queue:
        card: Card | None = cards[queue[0]]
        for c in queue:
            own += cards[c].tracks
    else:
        card = None
    return _new_numbers(BuildNumbers, (player, card, card.requirement if card else 0, flipped, own,
                                       len(state.bonus[player]), state.money[player]))


_new_numbers = tuple.__new__  # the named tuple made straight from its fields, without its keyword-checking __new__


def current_player(table: KKTable, state: KKState) -> str | None:
    """Who acts next; during the sealed bids the first player who has not bid yet."""
    if state.phase == "bid":
        return next(p for p in table.players if p not in state.bids)
    if state.phase == "choose":
        return state.choosers[0]
    return state.turn if state.phase == "build" else None


def players_to_act(table: KKTable, state: KKState) -> tuple[str, ...]:
    phase = state.phase
    if phase == "build":  # asked before every move: the commonest case first
        return () if state.turn is None else (state.turn,)
    if phase == "bid":  # sealed bids are simultaneous (KK-A2)
        return tuple([p for p in table.players if p not in state.bids])
    player = current_player(table, state)
    return () if player is None else (player,)


def check(table: KKTable, state: KKState, action: KKAction) -> None:
    """Raise ``RuleError`` if ``action`` breaks a rule of this game now. ``Game.check`` has already made
    sure the game is not over, the action is one of this game's by a player at the table and, outside the
    sealed bids, in turn."""
    _CHECKS[type(action)](table, state, action)


def _check_bid(table: KKTable, state: KKState, action: Bid) -> None:
    player, amount = action.player, action.amount
    if state.phase != "bid":
        raise RuleError("KK-A2", Message("no auction is taking bids now ({phase})", {"phase": phase_words(state)}))
    if player in state.bids:
        raise RuleError("KK-A2", Message("{player} has already handed in a sealed bid; each player bids once per auction",
                                         {"player": player}))
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise RuleError("KK-A2", Message("a bid is a whole number of pounds, not {amount}", {"amount": brief(amount)}))
    if amount < 0:
        raise RuleError("KK-A2", Message("a bid cannot be negative ({amount}); bid 0 or more", {"amount": brief(amount)}))
    money = state.money[player]
    if amount > money:
        raise RuleError("KK-A2", Message("{player} has only {money} and cannot bid {amount} (money never goes below 0, "
                                         "KK-C5)", {"player": player, "money": pounds(money), "amount": brief(amount)}))


def _check_choose(table: KKTable, state: KKState, action: Choose) -> None:
    if state.phase != "choose":
        raise RuleError("KK-A4", Message("no card is being chosen now ({phase})", {"phase": phase_words(state)}))
    if action.card_id not in state.offer:
        raise RuleError("KK-A4", Message("{card} is not on offer; choose one of {offer}",
                                         {"card": brief(action.card_id), "offer": ", ".join(state.offer)}))


def _check_turn(state: KKState, player: str) -> None:
    if state.phase != "build":
        raise RuleError("KK-B1", Message("building starts after the auction ({phase})", {"phase": phase_words(state)}))


def _check_build(table: KKTable, state: KKState, action: Build) -> None:
    _check_turn(state, action.player)
    nums = build_numbers(table, state, action.player)
    if nums.card is None:
        raise RuleError("KK-B2", Message("{player} has no terrain in front of the train; pass instead",
                                         {"player": action.player}))
    buy = action.buy
    if buy is not None and (isinstance(buy, bool) or not isinstance(buy, int) or buy < 0):
        raise RuleError("KK-B2", Message("the number of pieces to buy is a whole number, 0 or more, not {buy}",
                                         {"buy": brief(buy)}))
    buy = nums.resolve_buy(buy)
    have = nums.free + nums.bonus
    if buy < nums.min_buy:
        raise RuleError("KK-B2", nmessage(
            "crossing {card} needs {need} tracks; {have} is available without buying, so buy at least {pieces}, or pass",
            "crossing {card} needs {need} tracks; {have} are available without buying, so buy at least {pieces}, "
            "or pass", have, {"card": card_words(nums.card), "need": nums.need, "have": tracks(have),
                              "pieces": track_pieces(nums.min_buy)}))
    if buy > nums.missing:
        if nums.missing == 0:
            raise RuleError("KK-B2", Message("no track piece is missing; buy none"))
        raise RuleError("KK-B2", nmessage("only {n} track piece is missing; buy at most that many",
                                          "only {n} track pieces are missing; buy at most that many", nums.missing))
    if TRACK_PRICE * buy > nums.money:
        raise RuleError("KK-B2", Message(
            "buying {pieces} costs {cost} but {player} has {money}; money never goes below 0 (KK-C5), so pass",
            {"pieces": track_pieces(buy), "cost": pounds(TRACK_PRICE * buy), "player": action.player,
             "money": pounds(nums.money)}))


def _check_pass(table: KKTable, state: KKState, action: Pass) -> None:
    _check_turn(state, action.player)


_CHECKS: dict[type, Callable[[KKTable, KKState, Any], None]] = {
    Bid: _check_bid, Choose: _check_choose, Build: _check_build, Pass: _check_pass,
}


def phase_words(state: KKState) -> Message:
    if state.phase == "bid":
        return Message("the auction is waiting for sealed bids")
    if state.phase == "choose":
        return Message("{player} is choosing a card", {"player": state.choosers[0]})
    if state.phase == "build":
        return Message("it is {player}'s turn to build or pass", {"player": str(state.turn)})
    return Message("the game is over")
