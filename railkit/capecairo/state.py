"""What a Vom Kap bis Kairo game is made of: the fixed ``KKTable`` and the mutable ``KKState``.

The rule modules are functions over these two: ``checks`` reads them, ``perform`` changes
the state, ``views`` and ``explain`` describe them. The ``KKTable`` (seating, colours, the cards,
the options) never changes during a game, so copies of a game share it; only the ``KKState``
is copied.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict

from railkit.capecairo.deck import Card
from railkit.copying import copy_state
from railkit.messages import realize

__all__ = ["AuctionRecord", "KKGameLike", "KKState", "KKTable"]


class AuctionRecord(TypedDict):
    """A finished auction, public once all bids are in (KK-A2..A5)."""

    number: int
    offer: list[str]  # card ids on sale (KK-A1)
    bids: dict[str, int]  # in seating order; paid by everyone (KK-A3)
    order: list[str]  # choosing order (KK-A4, KK-A5)
    tie_break_cards: list[str]  # drawn to settle ties, then discarded (KK-A5)
    steps: list[str]  # how the order was settled, in words


@dataclass(frozen=True, slots=True)
class KKTable:
    """What never changes during a game. ``cards`` is shared by every game using that deck file."""

    players: tuple[str, ...]
    cards: Mapping[str, Card]
    colours: Mapping[str, str]  # KK-C1
    seat: Mapping[str, int]  # a player's place in seating order
    win_crossings: int  # KK-E1
    river_bonus_for_builder: bool  # KK-R1 DECISION

    def left_of(self, player: str) -> str:
        """The next player in seating order: the turn passes to the left (KK-B3)."""
        return self.players[(self.seat[player] + 1) % len(self.players)]

    def __copy__(self) -> KKTable:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> KKTable:
        return self  # immutable: copies of a game share their table


@dataclass(slots=True)
class KKState:
    """Everything that changes during a game. Card piles are lists of card ids; a pile's top
    is the end of its list."""

    rng: random.Random = field(compare=False, repr=False)  # reshuffles the deck (KK-B7)
    deck: list[str]  # face down (KK-S1)
    money: dict[str, int]  # KK-C5
    queues: dict[str, list[str]]  # uncrossed cards in front of each train, in order (KK-A6)
    crossed: dict[str, list[str]]
    bonus: dict[str, list[str]]  # face-down bonus tracks (KK-R2)
    discard: list[str] = field(default_factory=list)
    flipped: list[str] = field(default_factory=list)  # turned up in this building round (KK-B1, KK-B3)
    offer: list[str] = field(default_factory=list)  # on sale in the auction (KK-A1)
    phase: str = "bid"  # bid | choose | build | over
    bids: dict[str, int] = field(default_factory=dict)  # sealed, hidden until all are in (KK-A2)
    choosers: list[str] = field(default_factory=list)  # who still chooses, in order (KK-A4)
    auction_no: int = 0
    last_auction: AuctionRecord | None = None
    auction_winner: str | None = None
    turn: str | None = None  # whose building turn it is
    turn_flipped: bool = False  # whether a card was turned up at the start of this turn
    idle_passes: int = 0  # passes in a row on turns with no card to turn up (KK-B8)
    last_builder: str | None = None
    reshuffles: int = 0
    end_reason: str | None = None  # the rule that ended the game (KK-E1 or KK-B8)
    winners: tuple[str, ...] = ()

    @classmethod
    def new(cls, players: tuple[str, ...], deck: list[str], money: int, rng: random.Random) -> KKState:
        return cls(rng=rng, deck=deck, money=dict.fromkeys(players, money),
                   queues={p: [] for p in players}, crossed={p: [] for p in players},
                   bonus={p: [] for p in players})

    def copy(self) -> KKState:
        """An independent copy, field by field (``railkit.copying``): every container is copied, so the
        copy shares nothing mutable; immutable values (payout records, cards, text) are shared."""
        return copy_state(self)


def copy_record(record: AuctionRecord) -> AuctionRecord:
    return AuctionRecord(number=record["number"], offer=list(record["offer"]), bids=dict(record["bids"]),
                         order=list(record["order"]), tie_break_cards=list(record["tie_break_cards"]),
                         steps=[realize(step) for step in record["steps"]])


class KKGameLike(Protocol):
    """What the explanations need of a game (so they need not import the game module)."""

    @property
    def table(self) -> KKTable: ...

    @property
    def state(self) -> KKState: ...

    @property
    def current_player(self) -> str | None: ...
