"""Words both data-file checkers share (the board, UP-C1..C4; the deck, KK-C2..C4), as ``Message``s.

A broken board or deck file is a ``DataError(path, item, problem)``; its ``item`` and ``problem`` are
``railkit.messages.Message``s (still the English text as a ``str``), so the command line prints them as
before and a lesson shows them in the learner's language. JSON key paths such as ``track_deck`` or
``cities[3]`` and the values found in the file stay as they are: the club types exactly those.
"""

from __future__ import annotations

import json

from railkit.messages import N_, Message

__all__ = ["FILE", "TOP_LEVEL", "json_problem", "ordinal"]

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
