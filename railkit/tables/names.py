"""Seat names compared as a reader compares them: "Ann", "ANN" and "Ann" typed with a combining accent are one
name at a table (Unicode NFC, then case folded). Every comparison of learners' names in the table server goes
through ``name_key``, so a later change of the rule (say, stored names normalised) is made in one place.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from railkit.game import MAX_NAME_LENGTH

__all__ = ["name_key", "same_name", "suggest_name"]


def name_key(name: str) -> str:
    """What two names must share to be the same name: NFC, case folded, spaces tidied."""
    return unicodedata.normalize("NFC", " ".join(name.split())).casefold()


def same_name(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)


def suggest_name(name: str, taken: Iterable[str]) -> str:
    """A free name close to ``name``: "Ann 2", "Ann 3", ... (shortened to fit ``MAX_NAME_LENGTH``)."""
    used = {name_key(t) for t in taken}
    base = " ".join(name.split())
    for n in range(2, 100):
        suffix = f" {n}"
        candidate = base[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in used:
            return candidate
    return base[: MAX_NAME_LENGTH - 4].rstrip() + " 100"
