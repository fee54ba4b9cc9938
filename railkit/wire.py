"""The class tables' wire: what the table server (``railkit.tables``) and a lesson's kernel (``railkit.ui.table_link``)
both write and read, kept in one place so the two sides cannot drift apart.

* the table codes (``CODE_ALPHABET``, ``CODE_LENGTH``, ``table_code``) and the headers that carry a key;
* the WebSocket close codes the server ends a connection with, and what a client does after each;
* the engines' sentences as JSON (``message_json`` on the server, ``message_from_json`` in the kernel);
* the state deltas: a state carries only what its connection lacks, ``merge_state`` makes it whole again.

The messages themselves are described in ``railkit.tables.protocol``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from railkit.messages import Fixed, Grouped, Message

__all__ = ["CLOSE_BEHIND", "CLOSE_CLOSED", "CLOSE_REFUSED", "CLOSE_REPLACED", "CODE_ALPHABET", "CODE_LENGTH",
           "LEARNER_KEY_HEADER", "MAX_MESSAGE_BYTES", "NARRATIVE_KEPT", "TEACHER_KEY_HEADER", "is_table_code",
           "merge_state", "message_from_json", "message_json", "table_code"]

MAX_MESSAGE_BYTES = 16 * 1024  # a client's message or request body: a move is under 300 bytes
CODE_LENGTH = 6
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed without doubt
NARRATIVE_KEPT = 24  # the engine's latest sentences a state holds (a payout is about 12)

TEACHER_KEY_HEADER = "X-Railkit-Teacher-Key"
LEARNER_KEY_HEADER = "X-Railkit-Learner-Key"

# How the server ends a table's WebSocket (after an ``error`` message saying why, where it can):
CLOSE_REFUSED = 4400  # the hello was refused (no such table, a bad token, too many connections): do not retry
CLOSE_CLOSED = 4404  # the teacher closed the table: do not retry
CLOSE_BEHIND = 4408  # the connection fell too far behind (it did not read): reconnect at once, take the whole state
CLOSE_REPLACED = 4409  # newer pages opened the same seat: this one stops (the newest ones play on)


def table_code(code: str) -> str:
    """A table's code as typed (any Unicode form, any case, spaces around) as the server draws it."""
    return unicodedata.normalize("NFC", code).strip().upper()[:12]


def is_table_code(code: str) -> bool:
    """Could ``code`` be a table's code (``CODE_LENGTH`` of the letters and digits the server draws them from)?"""
    return len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code)


def message_json(value: object) -> Any:
    """An engine sentence as JSON its reader can translate: a ``Message`` keeps its msgid and parameters."""
    if isinstance(value, Message):
        out: dict[str, Any] = {"msgid": value.msgid, "params": {k: message_json(v) for k, v in value.params.items()}}
        if value.plural is not None:
            out["plural"], out["n"] = value.plural, value.n
        if value.context is not None:
            out["context"] = value.context
        return out
    if isinstance(value, Fixed):
        return {"fixed": value.value, "places": value.places}
    if isinstance(value, Grouped):
        return {"grouped": value.value}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return str(value)


def message_from_json(value: Any) -> Any:
    """``message_json``'s JSON as a ``Message`` again (a plain value stays as it is)."""
    if isinstance(value, dict):
        if "fixed" in value:
            return Fixed(float(value["fixed"]), int(value.get("places", 2)))
        if "grouped" in value:
            return Grouped(int(value["grouped"]))
        params = {str(k): message_from_json(v) for k, v in dict(value.get("params", {})).items()}
        plural = value.get("plural")
        if plural is not None:
            return Message(str(value.get("msgid", "")), params, plural=str(plural), n=int(value.get("n") or 0),
                           context=value.get("context"))
        return Message(str(value.get("msgid", "")), params, context=value.get("context"))
    return value


def merge_state(previous: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any]:
    """A state as the server sent it made whole with the ``previous`` state of the same connection (None for the
    first): the log from ``log_from`` on and the narrative from ``narrative_from`` on are only what the connection
    had not got yet; ``legal_same`` stands for the same moves again; a finished game's ``replay`` comes once per
    connection. The result holds the whole log and the narrative's latest ``NARRATIVE_KEPT`` sentences."""
    state = dict(message)
    log_from = int(state.pop("log_from", 0) or 0)
    narrative_from = int(state.pop("narrative_from", 0) or 0)
    if state.pop("legal_same", False):  # the same moves as in the previous state
        state["legal"] = list(previous["legal"]) if previous is not None else []
    old_log = list(previous["log"]) if previous is not None else []
    state["log"] = old_log[:log_from] + list(state.get("log", []))
    total = int(state.get("narrative_length", 0))
    if previous is not None and narrative_from > 0:
        old = list(previous.get("narrative", []))
        old_first = int(previous.get("narrative_length", 0)) - len(old)
        kept = old[max(0, narrative_from - NARRATIVE_KEPT - old_first):max(0, narrative_from - old_first)]
        state["narrative"] = (kept + list(state.get("narrative", [])))[-NARRATIVE_KEPT:]
    else:
        state["narrative"] = list(state.get("narrative", []))[-NARRATIVE_KEPT:]
    state["narrative_length"] = total
    if state.get("is_over") and "replay" not in state and previous is not None and "replay" in previous:
        state["replay"] = previous["replay"]  # sent once, with the connection's first state of the finished game
    return state
