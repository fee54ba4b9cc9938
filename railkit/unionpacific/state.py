"""The whole changing state of a Union Pacific game, in one place (``UPState``).

Everything that moves during play lives in ``UPState``: hands, piles, the display, the share
deck, tables, money, payouts, the imaginary shareholder, the step of play, whose turn it is,
the trains on the board (``Network``) and the random generator. The board is not state: it
never changes and is shared by every copy of a game. The rule modules (``checks``,
``moves``, ``perform``, ``dividends``, ``views``) are plain functions over
``(board, state)``; ``UnionPacificGame`` only ties them together.

``UPState.copy()`` is a fast, independent copy (the board index is shared).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from railkit.copying import copy_state
from railkit.messages import N_, seat_name
from railkit.unionpacific.board import Board
from railkit.unionpacific.network import Network
from railkit.unionpacific.payouts import PayoutExplanation
from railkit.unionpacific.phrases import shares_message

__all__ = [
    "DISPLAY",
    "DISPLAY_SOURCES",
    "HAND_SHARES",
    "HAND_TRACK",
    "IMAGINARY",
    "PayoutRecord",
    "STEPS",
    "UP",
    "UPState",
    "UP_SHARES",
    "card_name",
    "shares_words",
]

UP = "UP"  # a Union Pacific share card
IMAGINARY = seat_name(N_("Imaginary third player"))  # UP-2P2: a seat of its own, translated in messages
UP_SHARES = 20  # UP-C1
HAND_TRACK = 3  # UP-S2
HAND_SHARES = 4  # UP-S4
DISPLAY = 4  # UP-S6
DISPLAY_SOURCES = tuple(f"display:{i}" for i in range(DISPLAY))  # UP-B3: the display slots
# The steps of play: UP-S5 (everyone at once), then per turn UP-T2/T3, UP-B3, UP-B4; "over".
STEPS = ("first_share", "action", "draw", "exchange", "over")


@lru_cache(maxsize=8)
def _card_names(board: Board) -> dict[str, str]:
    names = {c.key: c.name for c in board.companies}
    names[UP] = "Union Pacific"
    return names


def card_name(board: Board, card: str | None) -> str:
    """How a share card is named in sentences: the company's name, "Union Pacific", "(empty)"."""
    if card is None:
        return "(empty)"
    if isinstance(card, str):
        return _card_names(board).get(card, card)
    return str(card)


def shares_words(board: Board, cards: Sequence[str], role: str = "") -> object:
    """ "2 shares of Denver Midland and 1 share of Union Pacific" (in the order first met), a Message (``role``
    "object": the object of a verb, ``railkit.unionpacific.phrases``)."""
    return shares_message([(cards.count(k), card_name(board, k)) for k in dict.fromkeys(cards)], role)


@dataclass(frozen=True)
class PayoutRecord:
    """One payout: what each company was worth, who held what and who received what."""

    number: int
    drawer: str | None
    reason: str
    values: Mapping[str, int]  # company key -> value (UP-D2)
    holdings: Mapping[str, Mapping[str, int]]  # company key or UP -> {holder: table shares}
    amounts: Mapping[str, int]  # holder -> money received this payout
    explanations: tuple[PayoutExplanation[str], ...]  # companies with shareholders, then UP

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "drawer": self.drawer,
            "reason": self.reason,
            "values": dict(self.values),
            "holdings": {k: dict(v) for k, v in self.holdings.items()},
            "amounts": dict(self.amounts),
        }

    def __str__(self) -> str:
        return "\n\n".join(str(e) for e in self.explanations)

    def __repr__(self) -> str:
        paid = ", ".join(f"{h} {m}" for h, m in self.amounts.items())
        by = f" drawn by {self.drawer}" if self.drawer else ""
        return f"<PayoutRecord {self.number} ({self.reason}{by}): {paid}>"


@dataclass(eq=False, slots=True)
class UPState:
    """Everything that changes during a game of Union Pacific (see the module docstring).

    Counts of cards are dicts ``card -> count`` (no zero entries); piles are lists whose
    last item is the top of the track pile, and whose first item is the top of the share deck.
    """

    players: tuple[str, ...]  # seat order (UP-S8); fixed for the game
    options: dict[str, Any]  # the game's options; fixed for the game
    max_payouts: int  # 4, or 3 with two players (UP-D12, UP-2P1)
    rng: random.Random  # the game's only source of chance (track reshuffles during play)
    net: Network  # trains on the board and in the supply
    track_hand: dict[str, dict[str, int]]
    track_pile: list[str]  # top = last
    track_discards: list[str]
    share_hand: dict[str, dict[str, int]]
    up_stack: int
    display: list[str | None]  # UP-S6: four slots; None = empty (the deck ran out)
    deck: list[str]  # index 0 = top
    reserve: list[str]  # UP-V2 safe-round cards not yet put back
    box: list[str]  # cards out of the game (UP-B4, UP-B5, UP-D1)
    table: dict[str, dict[str, int]]
    money: dict[str, int]
    payouts: list[PayoutRecord]
    imaginary: dict[str, int] | None = None  # UP-2P2, once formed
    under_deck: int = 0  # UP-V4: removed cards at the bottom of the deck (never the imaginary player's)
    dividends_drawn: int = 0
    pending_payouts: int = 0
    share_draws: int = 0  # cards that have left the share deck (public when counted, UP-V3)
    first_choices: dict[str, str] = field(default_factory=dict)  # UP-S5, hidden until all have chosen
    step: str = "first_share"  # one of STEPS
    turn_index: int = 0  # seat of the player whose turn it is
    turn_number: int = 0
    t2_used: bool = False  # UP-T2 swap made this turn
    is_over: bool = False
    end_reason: str | None = None  # the rule that ended the game (UP-D12; UP-2P1 with two players)
    # Public: the shares everyone saw go into each hand and not seen to leave it (``perform.known_*``). A share
    # is seen going in when it comes from the UP stack (UP-S3, UP-B3, UP-B4) or the display (UP-B3), and
    # leaving when laid on the table (UP-S5, UP-I1); a UP-B4 exchange hides which card left.
    known_shares: dict[str, dict[str, int]] = field(default_factory=dict)

    # -- who acts ------------------------------------------------------------------------
    def current_player(self) -> str | None:
        if self.is_over:
            return None
        if self.step == "first_share":
            for p in self.players:
                if p not in self.first_choices:
                    return p
        return self.players[self.turn_index]

    def players_to_act(self) -> tuple[str, ...]:
        if self.is_over:
            return ()
        if self.step == "first_share":
            return tuple(p for p in self.players if p not in self.first_choices)
        return (self.players[self.turn_index],)

    @property
    def phase(self) -> str:
        return "over" if self.is_over else self.step

    def draw_sources(self) -> list[str]:
        """Where a share may be drawn from now (UP-B3, UP-B3-FI)."""
        out = [src for src, card in zip(DISPLAY_SOURCES, self.display, strict=True) if card is not None]
        if self.deck:
            out.append("deck")
        if self.up_stack and self.options["direct_up_draw"]:
            out.append("up")
        return out

    # -- copying -------------------------------------------------------------------------
    def copy(self) -> UPState:
        """An independent copy, field by field (``railkit.copying``): every container is copied, so the
        copy shares nothing mutable; immutable values (payout records, cards, text) are shared."""
        return copy_state(self)
