"""Game options of Union Pacific: which variant rules are in play (UP-S7, UP-V1..V4, UP-B3-FI, UP-D13).

Options are plain JSON values so a save file can carry them; anything unknown or of the
wrong type is refused with a ``RuleError`` that names the valid choices.
"""

from __future__ import annotations

from typing import Any

from railkit.errors import RuleError
from railkit.unionpacific.sharedeck import DECK_OPTIONS

__all__ = ["OPTION_DEFAULTS", "validate_options"]

OPTION_DEFAULTS: dict[str, Any] = {
    "deck": "standard",  # UP-S7 / UP-S7-FI ("finnish") / UP-V1 ("dividend_cards")
    "safe_round": False,  # UP-V2
    "direct_up_draw": True,  # UP-B3 first edition; False = UP-B3-FI
    "countable_deck": False,  # UP-V3
    "removed_to_bottom": False,  # UP-V4
    "public_money": True,  # UP-D13
    "board": None,  # path of a board file; None = the shipped board
}
_BOOL_OPTION_RULE = {
    "safe_round": "UP-V2",
    "direct_up_draw": "UP-B3-FI",
    "countable_deck": "UP-V3",
    "removed_to_bottom": "UP-V4",
    "public_money": "UP-D13",
}


def validate_options(options: dict[str, Any]) -> dict[str, Any]:
    """All options with defaults filled in; anything unknown or mistyped is a ``RuleError``."""
    unknown = sorted(set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise RuleError("UP-V", f"unknown option(s) {unknown}; valid options: {', '.join(OPTION_DEFAULTS)}")
    out = {**OPTION_DEFAULTS, **options}
    if out["deck"] not in DECK_OPTIONS:
        raise RuleError("UP-S7", f"deck must be one of {', '.join(DECK_OPTIONS)}, not {out['deck']!r}")
    for name, rule in _BOOL_OPTION_RULE.items():
        if not isinstance(out[name], bool):
            raise RuleError(rule, f"option {name} must be true or false, not {out[name]!r}")
    if out["board"] is not None and not isinstance(out["board"], str):
        raise RuleError("UP-C3", f"option board must be a file path (text) or None, not {out['board']!r}")
    return out
