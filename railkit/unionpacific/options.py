"""Game options of Union Pacific: which variant rules are in play (UP-S7, UP-V1..V4, UP-B3-FI, UP-D13).

Options are plain JSON values so a save file can carry them. One convention, as everywhere
in railkit: a value of the wrong type (``"yes"`` for a switch, a number for the deck) is a
``TypeError``; a value of the right type that no rule allows (``deck="german"``) or an
unknown option is a ``RuleError`` naming the rule and the valid choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from railkit.errors import RuleError
from railkit.messages import N_, Message
from railkit.unionpacific.sharedeck import DECK_OPTIONS
from railkit.words import plural

__all__ = ["OPTION_DEFAULTS", "UPOptions", "check_options"]

OPTION_DEFAULTS: dict[str, Any] = {
    "deck": "standard",  # UP-S7 / UP-S7-FI ("finnish") / UP-V1 ("dividend_cards")
    "safe_round": False,  # UP-V2
    "direct_up_draw": True,  # UP-B3 first edition; False = UP-B3-FI
    "countable_deck": False,  # UP-V3
    "removed_to_bottom": False,  # UP-V4
    "public_money": True,  # UP-D13
    "board": None,  # path of a board file; None = the shipped board
}


@dataclass(frozen=True, slots=True, kw_only=True)
class UPOptions:
    """A game's options, checked, as a view shows them (``UPView.options``); the fields are ``OPTION_DEFAULTS``'
    names in the same order, so its JSON is the options' dict."""

    deck: str  # UP-S7 / UP-S7-FI / UP-V1
    safe_round: bool  # UP-V2
    direct_up_draw: bool  # UP-B3; False = UP-B3-FI
    countable_deck: bool  # UP-V3
    removed_to_bottom: bool  # UP-V4
    public_money: bool  # UP-D13
    board: str | None  # the board file's path; None = the shipped board

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> UPOptions:
        """The options ``check_options`` gave (every name present), typed."""
        return cls(**{f.name: options[f.name] for f in fields(cls)})


_BOOL_OPTION_RULE = {
    "safe_round": "UP-V2",
    "direct_up_draw": "UP-B3-FI",
    "countable_deck": "UP-V3",
    "removed_to_bottom": "UP-V4",
    "public_money": "UP-D13",
}


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """All options with defaults filled in: ``TypeError`` for a wrong type, ``RuleError`` otherwise."""
    unknown = sorted(str(k)[:40] for k in set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise RuleError("UP-V", f"unknown {plural(len(unknown), 'option')} {', '.join(unknown[:5])}; "
                                f"the options are {', '.join(OPTION_DEFAULTS)}")
    out = {**OPTION_DEFAULTS, **options}
    if not isinstance(out["deck"], str):
        raise TypeError(Message(N_("option deck must be text (one of {choices}), not {found}"),
                                {"choices": ", ".join(DECK_OPTIONS), "found": type(out["deck"]).__name__}))
    if out["deck"] not in DECK_OPTIONS:
        raise RuleError("UP-S7", Message(N_("deck must be one of {choices}, not {found}"),
                                         {"choices": ", ".join(DECK_OPTIONS), "found": _shown(out["deck"])}))
    for name, rule in _BOOL_OPTION_RULE.items():
        if not isinstance(out[name], bool):
            raise TypeError(Message(N_("option {name} ({rule}) must be true or false, not {found}"),
                                    {"name": name, "rule": rule, "found": _shown(out[name])}))
    if out["board"] is not None and not isinstance(out["board"], str):
        raise TypeError(Message(N_("option board must be a file path (text) or None, not {found}"),
                                {"found": type(out["board"]).__name__}))
    return out
