"""Words both data-file checkers share (the board, UP-C1..C4; the deck, KK-C2..C4), as ``Message``s.

A broken board or deck file is a ``DataError(path, item, problem)``; its ``item`` and ``problem`` are
``railkit.messages.Message``s (still the English text as a ``str``), so the command line prints them as
before and a lesson shows them in the learner's language. JSON key paths such as ``track_deck`` or
``cities[3]`` and the values found in the file stay as they are: the club types exactly those.
"""

from __future__ import annotations

import json
from typing import Any

from railkit.messages import N_, Grouped, Message, nmessage

__all__ = ["FILE", "MAX_NAME_LENGTH", "TOP_LEVEL", "DuplicateKeyError", "duplicate_key_problem", "json_problem",
           "name_problem", "ordinal", "unique_keys"]

MAX_NAME_LENGTH = 40  # characters in any name or key a board or deck file gives (a city, a company, a section id)

FILE = Message("file")  # the item of a problem with the file as a whole
TOP_LEVEL = Message("top level")

# What Python's json module says (json.decoder), word for word: the English stays Python's own.
JSON_REASONS = frozenset({
    N_("Expecting value"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ':' delimiter"),
    N_("Expecting ',' delimiter"),
    N_("Extra data"),
    N_("Unterminated string starting at"),
    N_("Invalid control character at"),
    N_("Invalid \\escape"),
    N_("Invalid \\uXXXX escape"),
    N_("Illegal trailing comma before end of object"),
    N_("Illegal trailing comma before end of array"),
})


def json_problem(exc: json.JSONDecodeError) -> Message:
    """“not valid JSON: …” with Python's reason, which the catalog translates when it knows it."""
    reason: Message | str = Message(exc.msg) if exc.msg in JSON_REASONS else exc.msg
    return Message(N_("not valid JSON: {reason}"), {"reason": reason})


def ordinal(n: int) -> Message:
    """“1st”, “2nd”, “3rd”, “4th” … as a message (“1.” in Finnish and Hungarian)."""
    if 10 <= n % 100 <= 20:
        return Message(N_("{n}th"), {"n": n})
    return Message({1: N_("{n}st"), 2: N_("{n}nd"), 3: N_("{n}rd")}.get(n % 10, N_("{n}th")), {"n": n})


def name_problem(field: str, value: str) -> Message | None:
    """What is wrong with a name or key of a data file (``field`` names it, e.g. ``'name'``), or ``None``:
    a name is at most ``MAX_NAME_LENGTH`` printable characters (no control or invisible characters)."""
    if len(value) > MAX_NAME_LENGTH:
        return nmessage("field {field} is {n} character long; a name is at most {most}",
                        "field {field} is {n} characters long; a name is at most {most}", len(value),
                        {"field": field, "n": Grouped(len(value)), "most": MAX_NAME_LENGTH})
    for position, ch in enumerate(value, 1):
        if not ch.isprintable():
            return Message(N_("field {field} holds the control or invisible character {code} at position {at}; "
                              "use printable characters only"),
                           {"field": field, "code": f"U+{ord(ch):04X}", "at": position})
    return None


class DuplicateKeyError(ValueError):
    """A JSON object of a data file or save that names one key twice (JSON would keep the last silently)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads(..., object_pairs_hook=unique_keys)``: an object, or ``DuplicateKeyError`` for a key
    given twice (``"format": "junk", "format": …`` must not pass as the second)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKeyError(key)
        out[key] = value
    return out


def duplicate_key_problem(exc: DuplicateKeyError) -> Message:
    """“the key 'format' appears twice in one object …”: the key cut short when it is long."""
    key = repr(exc.key)
    shown = key if len(key) <= MAX_NAME_LENGTH else key[: MAX_NAME_LENGTH - 1] + "…"
    return Message(N_("the key {key} appears twice in one object; write each key once"), {"key": shown})
