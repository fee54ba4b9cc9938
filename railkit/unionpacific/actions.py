"""The Union Pacific actions: small frozen dataclasses, serialized through one registry.

Track cards are track-type strings (``"general"`` is the wild card, UP-C4); share cards
are company keys or ``"UP"``. Every action names the ``player`` taking it, so the log
alone says who did what.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from railkit.actions import ActionRegistry

__all__ = [
    "registry",
    "Build",
    "ChooseFirstShare",
    "DiscardUnusable",
    "DrawShare",
    "EndTurn",
    "ExchangeForUP",
    "Invest",
    "Pass",
    "UPAction",
]

registry: ActionRegistry[UPAction] = ActionRegistry("union_pacific")


@registry.register("choose_first_share")
@dataclass(frozen=True, slots=True)
class ChooseFirstShare:
    """UP-S5: pick one share of the five in hand as the first share on the table.
    Simultaneous: the choices stay hidden until every player has chosen."""

    player: str
    card: str


@registry.register("discard_unusable")
@dataclass(frozen=True, slots=True)
class DiscardUnusable:
    """UP-T2: before acting, throw away one track card no empty space can take; draw another."""

    player: str
    card: str


@registry.register("build")
@dataclass(frozen=True, slots=True)
class Build:
    """UP-B1/B2: play ``card`` and put a ``company`` train on ``section``."""

    player: str
    card: str
    company: str
    section: str


@registry.register("draw_share")
@dataclass(frozen=True, slots=True)
class DrawShare:
    """UP-B3: take a share after building. ``source`` is ``"display:0"`` .. ``"display:3"``,
    ``"deck"`` (the top card) or ``"up"`` (the UP stack; not with UP-B3-FI)."""

    player: str
    source: str


@registry.register("exchange_for_up")
@dataclass(frozen=True, slots=True)
class ExchangeForUP:
    """UP-B4: swap one share in hand for a UP share from the stack; then the turn ends."""

    player: str
    card: str


@registry.register("end_turn")
@dataclass(frozen=True, slots=True)
class EndTurn:
    """UP-B6: end a build turn without the optional UP-B4 exchange."""

    player: str


@registry.register("invest")
@dataclass(frozen=True, slots=True)
class Invest:
    """UP-I1..I3: lay ``cards`` on the table (any number of one company, or one each of two
    companies) and discard the track card ``discard``."""

    player: str
    cards: tuple[str, ...]
    discard: str


@registry.register("pass")
@dataclass(frozen=True, slots=True)
class Pass:
    """UP-T4 (DECISION): with no legal placement and no share in hand, discard a track card."""

    player: str
    discard: str


UPAction = Union[ChooseFirstShare, DiscardUnusable, Build, DrawShare, ExchangeForUP, EndTurn, Invest, Pass]
"""Any Union Pacific action."""
