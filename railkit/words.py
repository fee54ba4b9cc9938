"""Correct English for the engines' sentences: plurals, articles and lists of names.

The engines may not import the teaching layer, so the few grammar helpers their explanations
need live here. ``count(1, "pound")`` is "1 pound", ``count(2, "pound")`` "2 pounds";
``a("river card")`` is "a river card", ``a("event")`` "an event"; ``names(["Ann", "Ben"])`` is
"Ann and Ben"; ``every(["Ann", "Ben"])`` is "both" and with three "all". City and company
names never take an article: write "on El Paso–Denver", not "a El Paso".
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["a", "count", "every", "names", "plural"]

_IRREGULAR = {"company": "companies", "is": "are", "has": "have", "was": "were", "this": "these"}
# Words that start with a vowel letter but a consonant sound, and the reverse.
_CONSONANT_SOUND = ("uni", "use", "one", "eu")
_VOWEL_SOUND = ("hour", "honest")


def plural(n: int, one: str, many: str | None = None) -> str:
    """``one`` when ``n`` is 1, else ``many`` (default: the regular English plural)."""
    if n == 1:
        return one
    if many is not None:
        return many
    if one in _IRREGULAR:
        return _IRREGULAR[one]
    if one.endswith(("s", "x", "ch", "sh")):
        return one + "es"
    return one + "s"


def count(n: int, one: str, many: str | None = None) -> str:
    """``"1 pound"``, ``"3 pounds"``, ``"0 spaces"``."""
    return f"{n} {plural(n, one, many)}"


def a(phrase: str) -> str:
    """``phrase`` with its indefinite article: "a plains card", "an open space"."""
    low = phrase.lower()
    vowel = low[:1] in ("a", "e", "i", "o", "u") and not low.startswith(_CONSONANT_SOUND)
    vowel = vowel or low.startswith(_VOWEL_SOUND)
    return f"{'an' if vowel else 'a'} {phrase}"


def names(items: Sequence[str], conjunction: str = "and") -> str:
    """"Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    items = list(items)
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def every(items: Sequence[str]) -> str:
    """The word that goes with a group acting together: "both" for two, "all" for more."""
    return "both" if len(items) == 2 else "all"
