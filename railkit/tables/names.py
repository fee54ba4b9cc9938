"""Names as a reader reads them. Every name that enters the table server (a table's seats, a join, a rename, a
record's learner, a hub user) is stored in Unicode NFC with its spaces tidied (``normal_name``): "José" typed with
a combining accent is stored as the one character "é", as the engines keep it. Two names are compared as a reader
compares them (``name_key``: NFC, then case folded): "Ann", "ANN" and "ann" are one name at a table and one learner
in the records. Every comparison of learners' names in the table server goes through ``name_key``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from railkit.game import MAX_NAME_LENGTH

__all__ = ["name_key", "normal_name", "same_name", "suggest_name"]


def normal_name(name: str) -> str:
    """A name as it is stored: NFC, spaces tidied (runs of white space one space, none at either end)."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


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
