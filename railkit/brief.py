"""Showing a value from outside (a save, a data file, a caller) inside a message, safely.

Every engine message that quotes a value it was given goes through ``brief``: the text stays
short, and a number of any size is described rather than printed (Python refuses to print an
``int`` of more than 4,300 digits, and a long one would fill the page).
"""

from __future__ import annotations

from railkit.messages import Grouped, Message

__all__ = ["brief"]

LIMIT = 40  # characters of a value shown in a message


def brief(value: object, limit: int = LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters; a huge whole number becomes "a number of N digits"."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        digits = int(value.bit_length() * 0.30103) + 1
        return Message("a number of about {digits} digits", {"digits": Grouped(digits)})
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 1] + "…"
