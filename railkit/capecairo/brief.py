"""Showing a value from outside (a save, a deck file, a caller) inside a message, safely."""

from __future__ import annotations

__all__ = ["brief"]


def brief(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters; a number of any size is described, not
    printed (Python refuses to print one of more than 4,300 digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 1] + "…"
