"""Which actions are legal now, and why not (each refusal names its rule ID).

Nothing here changes the game: ``check`` only reads, so a refused action leaves the state as
it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from railkit.capecairo.actions import Bid, Build, Choose, Pass
from railkit.capecairo.deck import Card
from railkit.errors import NotYourTurnError, RuleError

if TYPE_CHECKING:
    from railkit.capecairo.game import CapeToCairoGame

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


def build_numbers(game: CapeToCairoGame, player: str) -> BuildNumbers:
    cards = game.cards
    queue = game.queues[player]
    card = cards[queue[0]] if queue else None
    return BuildNumbers(
        player=player,
        card=card,
        need=card.requirement if card else 0,
        flipped=sum(cards[c].tracks for c in game.flipped),
        own=sum(cards[c].tracks for c in queue),
        bonus=len(game.bonus[player]),
        money=game.money[player],
    )


def check(game: CapeToCairoGame, action: Any) -> None:
    kind = type(action)
    if kind not in _CHECKS:
        raise RuleError("KK", f"{action!r} is not a Vom Kap bis Kairo action; use Bid, Choose, Build or Pass")
    if action.player not in game.money:
        raise RuleError("KK-S1", f"{action.player!r} is not playing; the players are {', '.join(game.players)}")
    _CHECKS[kind](game, action)


def _check_bid(game: CapeToCairoGame, action: Bid) -> None:
    player, amount = action.player, action.amount
    if game.phase != "bid":
        raise RuleError("KK-A2", f"no auction is taking bids now ({_phase_words(game)})")
    if player in game.bids:
        raise RuleError("KK-A2", f"{player} has already handed in a sealed bid; each player bids once per auction")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise RuleError("KK-A2", f"a bid is a whole number of pounds, not {amount!r}")
    if amount < 0:
        raise RuleError("KK-A2", f"a bid cannot be negative ({amount}); bid 0 or more")
    money = game.money[player]
    if amount > money:
        raise RuleError("KK-A2", f"{player} has only {money} pounds and cannot bid {amount} (money never goes below 0, KK-C5)")


def _check_choose(game: CapeToCairoGame, action: Choose) -> None:
    if game.phase != "choose":
        raise RuleError("KK-A4", f"no card is being chosen now ({_phase_words(game)})")
    if action.player != game.choosers[0]:
        raise NotYourTurnError("KK-A4", f"{game.choosers[0]} chooses now, not {action.player}; the order is {', '.join(game.choosers)}")
    if action.card_id not in game.offer:
        raise RuleError("KK-A4", f"{action.card_id!r} is not on offer; choose one of {', '.join(game.offer)}")


def _check_turn(game: CapeToCairoGame, player: str) -> None:
    if game.phase != "build":
        raise RuleError("KK-B1", f"building starts after the auction ({_phase_words(game)})")
    if player != game.turn:
        raise NotYourTurnError("KK-B3", f"it is {game.turn}'s turn to build or pass, not {player}'s")


def _check_build(game: CapeToCairoGame, action: Build) -> None:
    _check_turn(game, action.player)
    nums = build_numbers(game, action.player)
    if nums.card is None:
        raise RuleError("KK-B2", f"{action.player} has no terrain in front of the train; pass instead")
    buy = action.buy
    if buy is not None and (isinstance(buy, bool) or not isinstance(buy, int) or buy < 0):
        raise RuleError("KK-B2", f"the number of pieces to buy is a whole number, 0 or more, not {buy!r}")
    buy = nums.resolve_buy(buy)
    have = nums.free + nums.bonus
    if buy < nums.min_buy:
        raise RuleError(
            "KK-B2",
            f"crossing {nums.card} needs {nums.need} tracks; {have} are available without buying, "
            f"so buy at least {nums.min_buy}, or pass",
        )
    if buy > nums.missing:
        raise RuleError("KK-B2", f"only {nums.missing} pieces are missing; buy at most that many")
    if TRACK_PRICE * buy > nums.money:
        raise RuleError(
            "KK-B2",
            f"buying {buy} pieces costs {TRACK_PRICE * buy} pounds but {action.player} has {nums.money}; "
            "money never goes below 0 (KK-C5), so pass",
        )


def _check_pass(game: CapeToCairoGame, action: Pass) -> None:
    _check_turn(game, action.player)


_CHECKS: dict[type, Any] = {Bid: _check_bid, Choose: _check_choose, Build: _check_build, Pass: _check_pass}


def legal_actions(game: CapeToCairoGame, player: str | None = None) -> list[Any]:
    if game.phase == "over":
        return []
    if player is None:
        player = game.current_player
    if game.phase == "bid":
        if player in game.bids or player not in game.money:
            return []
        return [Bid(player, amount) for amount in range(game.money[player] + 1)]
    if game.phase == "choose":
        return [Choose(player, c) for c in game.offer] if player == game.choosers[0] else []
    if player != game.turn:
        return []
    actions: list[Any] = [Pass(player)]
    actions.extend(Build(player, buy) for buy in build_numbers(game, player).buy_options())
    return actions


def _phase_words(game: CapeToCairoGame) -> str:
    if game.phase == "bid":
        return "the auction is waiting for sealed bids"
    if game.phase == "choose":
        return f"{game.choosers[0]} is choosing a card"
    if game.phase == "build":
        return f"it is {game.turn}'s turn to build or pass"
    return "the game is over"
