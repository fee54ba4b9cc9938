"""The messages between a table and its clients, their bounds and the error words.

Client -> server (JSON text frames, at most ``MAX_MESSAGE_BYTES``):

* ``{"type": "hello", "token": SEAT_TOKEN}`` first; without a token the client watches as a spectator.
* ``{"type": "act", "seq": N, "action": {...}}``: ``seq`` is the log length the client saw; an
  action sent from an older position is refused (``stale``) so no one acts on a game they have not seen.
* ``{"type": "help", "hint": true|false}``: the lessons' help for the client's own seat (seats only).
* ``{"type": "ping"}``.

Server -> client:

* ``{"type": "state", "table", "game", "seat", "seq", "view", "log_from", "log", "legal", "narrative_from",
  "narrative", "narrative_length", "seats", "away", "stand_ins", "is_over", "chosen_deal"}`` after the hello and after
  every change
  (one per accepted action, the computer players' moves included, and when a seat's learner connects or leaves).
  ``seats`` says who holds each seat (``open``, ``human``, ``bot``); ``away`` lists the learners' seats with no live
  connection; ``stand_ins`` names the seats where a computer player sits in for a learner, with who put it there
  (``teacher``, ``creator``, or ``""`` when this server process no longer knows). To keep each change small, a
  connection is sent only what it lacks: ``log`` holds the log from position ``log_from`` on (a reveal sends
  again from the first move it made public), ``narrative`` the engine's sentences from ``narrative_from`` on (at
  most the latest 24), and ``legal_same: true`` replaces ``legal`` when the seat's moves are those of its previous
  state. The first state of a connection holds everything. ``railkit.wire.merge_state`` makes a state whole again.
  The log is each seat's as the engine lets it read it (``Game.seat_action``). ``chosen_deal`` is true at a table
  whose creator chose the deal (a seed or a stacked deck, allowed only by a server started with ``--chosen-deals``,
  for tests and demonstrations): everyone at it is told. The first state of a finished game on a connection also
  holds ``replay`` (``railkit.tables.table.Table.replay_for``): the game as everyone saw it, move by move, and for a
  seat the review of its own moves; never the deal or a card someone hid.
* ``{"type": "error", "error": CODE, "rule": RULE_ID|null, "message": WORDS, "seq": N}``: the message
  changed nothing; ``rule`` names the game rule (``RuleError``) or the table limit (``TABLES-*``). Some errors
  carry what a client needs to word them itself (``ProtocolError.details``): ``name_taken`` the ``names`` in use
  and a ``suggestion``, ``seat_connected`` the ``seconds`` a learner must have been away.
* ``{"type": "help", "table", "seat", "seq", "explain": {...}, "hint": ACTION|null}`` to the seat that asked
  only: the engine's explanations of its choices and (if asked) the heuristic player's move, both empty
  unless the seat is to act (``railkit.tables.games``, "Help for a seat").
* ``{"type": "pong"}``.

A connection the server ends is closed with one of ``railkit.wire``'s codes: ``CLOSE_REFUSED`` (4400, after an
error: the hello was refused), ``CLOSE_CLOSED`` (4404, the teacher closed the table), ``CLOSE_BEHIND`` (4408, it fell
behind: connect again at once and take the whole state), ``CLOSE_REPLACED`` (4409, newer pages opened the same seat).
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from railkit.wire import CODE_ALPHABET, CODE_LENGTH, MAX_MESSAGE_BYTES

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "Limits", "MAX_MESSAGE_BYTES", "ProtocolError", "RateLimiter",
           "act_fields", "error", "new_code", "parse_message", "parse_object", "whole_number"]


@dataclass(frozen=True)
class Limits:
    """The server's limits; each error that enforces one names it (``TABLES-...``)."""

    max_tables: int = 200  # TABLES-COUNT: tables held by one server
    actions_per_second: float = 20.0  # TABLES-RATE: messages per second per connection (a burst of twice that)
    # Seats first: a learner with their seat's token always gets in; a seat's oldest connections give way to its
    # newest beyond ``connections_per_seat`` (a reload is never refused). Spectators have caps of their own
    # (TABLES-WATCHERS): per table, and per client (the hub user, else the address) at one table.
    connections_per_seat: int = 4
    spectators_per_table: int = 48
    spectators_per_client: int = 16
    # A connection's outbox (``railkit.tables.connection``): beyond this it has fallen behind and is closed (4408).
    outbox_messages: int = 64
    outbox_bytes: int = 2 * 1024 * 1024
    # TABLES-DEAL: may a table's creator choose its deal (a seed, a stacked deck)? Only for tests and demonstrations
    # (``--chosen-deals``); such a table says so to everyone at it.
    chosen_deals: bool = False
    # TABLES-STAND-IN: the table's creator may put a computer player in a learner's seat only once that learner
    # has had no connection for this long (a reload or a lost Wi-Fi is back well within it); the teacher may at once.
    stand_in_after: float = 60.0


class ProtocolError(Exception):
    """A message the table refuses; ``code`` and ``rule`` go to the client with the words, and ``details`` (plain
    JSON: the names in use, a suggestion, seconds to wait) beside them, for a client that words it itself."""

    def __init__(self, code: str, rule: str | None, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message
        self.details = details


def error(code: str, rule: str | None, message: str, seq: int | None = None, **details: Any) -> dict[str, Any]:
    return {"type": "error", "error": code, "rule": rule, "message": str(message), "seq": seq, **details}


def whole_number(raw: str, name: str, lo: int, hi: int, rule: str) -> int:
    """A query parameter that must be a whole number from ``lo`` to ``hi``, written in the digits 0-9 only (no sign,
    no superscript "²", no other script's digits); ``ProtocolError`` naming ``rule`` otherwise."""
    if not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(hi)) or not lo <= int(raw) <= hi:
        raise ProtocolError("bad_message", rule, f"\"{name}\" is a whole number from {lo} to {hi}, in the digits 0-9")
    return int(raw)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def parse_object(text: str | bytes) -> dict[str, Any]:
    """The JSON object of a request or message, bounded; ``ProtocolError`` otherwise."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_big", "TABLES-SIZE", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes; "
                                                      "send one move at a time")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_message", "TABLES-JSON", "the message is not JSON text; send a JSON object "
                                                          "such as {\"type\": \"act\", ...}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "TABLES-JSON", "send one JSON object")
    return data


def parse_message(text: str | bytes) -> dict[str, Any]:
    """The JSON object of one WebSocket message: it has a ``type``."""
    data = parse_object(text)
    if not isinstance(data.get("type"), str):
        raise ProtocolError("bad_message", "TABLES-JSON", "a message is a JSON object with a \"type\" "
                                                          "(hello, act, help or ping)")
    return data


def act_fields(data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """``seq`` and ``action`` of an ``act`` message, checked for type."""
    seq, action = data.get("seq"), data.get("action")
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise ProtocolError("bad_message", "TABLES-SEQ", "an act message needs \"seq\": the number of moves "
                                                         "in the log you last saw")
    if not isinstance(action, dict):
        raise ProtocolError("bad_message", "TABLES-JSON", "an act message needs \"action\": a move as a JSON "
                                                          "object")
    return seq, action


class RateLimiter:
    """A token bucket: ``rate`` messages per second, bursts of ``burst`` (default ``2 * rate``)."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = rate
        self.capacity = 2 * rate if burst is None else burst
        self.tokens = self.capacity
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
