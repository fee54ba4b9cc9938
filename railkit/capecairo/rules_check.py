"""Who acts now, which actions are legal, and why not (each refusal names its rule ID).

Nothing here changes the game: ``check`` only reads, so a refused action leaves the state as
it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from railkit.capecairo.actions import Action, Bid, Build, Choose, Pass
from railkit.capecairo.brief import brief
from railkit.capecairo.deck import Card
from railkit.capecairo.state import KKState, KKTable
from railkit.errors import NotYourTurnError, RuleError
from railkit.words import count, plural

TRACK_PRICE = 10  # KK-B2 (4)


@dataclass(frozen=True, slots=True)
class BuildNumbers:
    """The four track sources of KK-B2 for one player, right now."""

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
        return max(0, self.need - self.free)

    @property
    def min_buy(self) -> int:
        return max(0, self.missing - self.bonus)

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
        return range(self.min_buy, min(self.missing, self.money // TRACK_PRICE) + 1)

    def bonus_spent(self, buy: int) -> int:
        return min(self.bonus, max(0, self.missing - buy))

    def resolve_buy(self, buy: int | None) -> int:
        return self.min_buy if buy is None else buy


def build_numbers(table: KKTable, state: KKState, player: str) -> BuildNumbers:
    cards = table.cards
    queue = state.queues[player]
    card = cards[queue[0]] if queue else None
    return BuildNumbers(
        player=player,
        card=card,
        need=card.requirement if card else 0,
        flipped=sum(cards[c].tracks for c in state.flipped),
        own=sum(cards[c].tracks for c in queue),
        bonus=len(state.bonus[player]),
        money=state.money[player],
    )


def current_player(table: KKTable, state: KKState) -> str | None:
    """Who acts next; during the sealed bids the first player who has not bid yet."""
    if state.phase == "bid":
        return next(p for p in table.players if p not in state.bids)
    if state.phase == "choose":
        return state.choosers[0]
    return state.turn if state.phase == "build" else None


def players_to_act(table: KKTable, state: KKState) -> tuple[str, ...]:
    if state.phase == "bid":  # sealed bids are simultaneous (KK-A2)
        return tuple(p for p in table.players if p not in state.bids)
    player = current_player(table, state)
    return () if player is None else (player,)


def check(table: KKTable, state: KKState, action: Any) -> None:
    checker = _CHECKS.get(type(action))
    if checker is None:
        raise RuleError("KK", f"{brief(action)} is not a Vom Kap bis Kairo action; use Bid, Choose, Build or Pass")
    player = action.player
    if not isinstance(player, str) or player not in state.money:
        raise RuleError("KK-S1", f"{brief(player)} is not playing; the players are {', '.join(table.players)}")
    checker(table, state, action)


def _check_bid(table: KKTable, state: KKState, action: Bid) -> None:
    player, amount = action.player, action.amount
    if state.phase != "bid":
        raise RuleError("KK-A2", f"no auction is taking bids now ({phase_words(state)})")
    if player in state.bids:
        raise RuleError("KK-A2", f"{player} has already handed in a sealed bid; each player bids once per auction")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise RuleError("KK-A2", f"a bid is a whole number of pounds, not {brief(amount)}")
    if amount < 0:
        raise RuleError("KK-A2", f"a bid cannot be negative ({brief(amount)}); bid 0 or more")
    money = state.money[player]
    if amount > money:
        raise RuleError("KK-A2", f"{player} has only {count(money, 'pound')} and cannot bid {brief(amount)} "
                                 "(money never goes below 0, KK-C5)")


def _check_choose(table: KKTable, state: KKState, action: Choose) -> None:
    if state.phase != "choose":
        raise RuleError("KK-A4", f"no card is being chosen now ({phase_words(state)})")
    if action.player != state.choosers[0]:
        raise NotYourTurnError("KK-A4", f"{state.choosers[0]} chooses now, not {action.player}; "
                                        f"the order is {', '.join(state.choosers)}")
    if action.card_id not in state.offer:
        raise RuleError("KK-A4", f"{brief(action.card_id)} is not on offer; choose one of {', '.join(state.offer)}")


def _check_turn(state: KKState, player: str) -> None:
    if state.phase != "build":
        raise RuleError("KK-B1", f"building starts after the auction ({phase_words(state)})")
    if player != state.turn:
        raise NotYourTurnError("KK-B3", f"it is {state.turn}'s turn to build or pass, not {player}'s")


def _check_build(table: KKTable, state: KKState, action: Build) -> None:
    _check_turn(state, action.player)
    nums = build_numbers(table, state, action.player)
    if nums.card is None:
        raise RuleError("KK-B2", f"{action.player} has no terrain in front of the train; pass instead")
    buy = action.buy
    if buy is not None and (isinstance(buy, bool) or not isinstance(buy, int) or buy < 0):
        raise RuleError("KK-B2", f"the number of pieces to buy is a whole number, 0 or more, not {brief(buy)}")
    buy = nums.resolve_buy(buy)
    have = nums.free + nums.bonus
    if buy < nums.min_buy:
        raise RuleError(
            "KK-B2",
            f"crossing {nums.card} needs {nums.need} tracks; "
            f"{count(have, 'track')} {plural(have, 'is')} available without buying, "
            f"so buy at least {count(nums.min_buy, 'track piece')}, or pass",
        )
    if buy > nums.missing:
        if nums.missing == 0:
            raise RuleError("KK-B2", "no track piece is missing; buy none")
        missing = f"{count(nums.missing, 'track piece')} {plural(nums.missing, 'is')}"
        raise RuleError("KK-B2", f"only {missing} missing; buy at most that many")
    if TRACK_PRICE * buy > nums.money:
        raise RuleError(
            "KK-B2",
            f"buying {count(buy, 'track piece')} costs {count(TRACK_PRICE * buy, 'pound')} "
            f"but {action.player} has {count(nums.money, 'pound')}; "
            "money never goes below 0 (KK-C5), so pass",
        )


def _check_pass(table: KKTable, state: KKState, action: Pass) -> None:
    _check_turn(state, action.player)


_CHECKS: dict[type, Callable[[KKTable, KKState, Any], None]] = {
    Bid: _check_bid, Choose: _check_choose, Build: _check_build, Pass: _check_pass,
}


def legal_actions(table: KKTable, state: KKState, player: str | None = None) -> list[Action]:
    if state.phase == "over":
        return []
    if player is None:
        player = current_player(table, state)
    if player is None or player not in state.money:
        return []
    if state.phase == "bid":
        if player in state.bids:
            return []
        return [Bid(player, amount) for amount in range(state.money[player] + 1)]
    if state.phase == "choose":
        return [Choose(player, c) for c in state.offer] if player == state.choosers[0] else []
    if player != state.turn:
        return []
    actions: list[Action] = [Pass(player)]
    actions.extend(Build(player, buy) for buy in build_numbers(table, state, player).buy_options())
    return actions


def phase_words(state: KKState) -> str:
    if state.phase == "bid":
        return "the auction is waiting for sealed bids"
    if state.phase == "choose":
        return f"{state.choosers[0]} is choosing a card"
    if state.phase == "build":
        return f"it is {state.turn}'s turn to build or pass"
    return "the game is over"

