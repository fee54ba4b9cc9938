"""Union Pacific: board, placement rules, payouts, share deck and the game engine.

``new_game(players, seed, **options)`` starts a game; ``load_game(save)`` replays a saved
one. Everything that changes during play is ``game.state`` (a ``UPState``); the rules are
plain functions over the board and that state. The engine never imports widgets; the teaching
layer asks it what is legal and why.
"""

from __future__ import annotations

from typing import Any

from railkit.errors import SaveFileError
from railkit.unionpacific.actions import (
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
    registry,
)
from railkit.unionpacific.board import GENERAL, TRACK_TYPES, Board, City, Company, Section, load_board
from railkit.unionpacific.game import OPTION_DEFAULTS, UP_SHARES, UnionPacificGame, invest_choices, new_game
from railkit.unionpacific.payouts import (
    UP_TABLE,
    PayoutExplanation,
    company_payout,
    company_value,
    explain_company_payout,
    explain_union_pacific_payout,
    union_pacific_payout,
)
from railkit.unionpacific.placement import (
    Check,
    PlacementExplanation,
    explain_placement,
    legal_sections,
    placement_error,
    reachable_cities,
)
from railkit.unionpacific.sharedeck import DIVIDEND, Pile, build_share_deck, deck_layout
from railkit.unionpacific.state import IMAGINARY, UP, PayoutRecord, UPState


def load_game(save: str | bytes | dict[str, Any]) -> UnionPacificGame:
    """Rebuild a saved game (JSON text or the dict of ``to_dict``) by replaying its log.

    Any problem — broken JSON, wrong game, bad options, a move that no longer replays — is
    a ``SaveFileError`` saying in words what is wrong.
    """
    return UnionPacificGame.load(save)


__all__ = [
    "registry", "Board", "Build", "Check", "ChooseFirstShare", "City", "Company", "DIVIDEND",
    "DiscardUnusable", "DrawShare", "EndTurn", "ExchangeForUP", "GENERAL", "IMAGINARY", "Invest",
    "OPTION_DEFAULTS", "Pass", "PayoutExplanation", "PayoutRecord", "Pile", "PlacementExplanation",
    "SaveFileError", "Section", "TRACK_TYPES", "UP", "UPState", "UP_SHARES", "UP_TABLE", "UnionPacificGame",
    "build_share_deck", "company_payout", "company_value", "deck_layout", "explain_company_payout",
    "explain_placement", "explain_union_pacific_payout", "invest_choices", "legal_sections",
    "load_board", "load_game", "new_game", "placement_error", "reachable_cities",
    "union_pacific_payout",
]
