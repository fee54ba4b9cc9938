"""The class tables' wire: everything the table server (``railkit.tables``, ``railkit.classroom``) and a lesson's
kernel (``railkit.ui``'s table client, records and teacher's page) both write and read, kept in one place so the two
sides cannot drift apart. Nothing here knows a game, a table or a widget.

* the table codes (``CODE_ALPHABET``, ``CODE_LENGTH``, ``new_code``, ``table_code``) and the headers that carry a key;
* the WebSocket close codes the server ends a connection with, and what a client does after each;
* the messages, typed (``Hello``, ``Act``, ``HelpRequest``, ``Ping`` from a client; ``State``, ``ErrorMessage``,
  ``HelpAnswer``, ``Pong`` from the server), made by one function each and written as JSON by ``encode``;
* reading a client's message, bounded (``parse_object``, ``parse_message``, ``act_fields``, ``whole_number``),
  refused with ``ProtocolError``;
* the engines' sentences as JSON (``message_json`` on the server, ``message_from_json`` in the kernel);
* the state deltas, one pair: ``state_delta`` (the server: only what a connection lacks) and ``merge_state``
  (the kernel: the whole state again), with the narrative window ``NARRATIVE_KEPT`` they share.

Client -> server (JSON text frames, at most ``MAX_MESSAGE_BYTES``):

* ``{"type": "hello", "token": SEAT_TOKEN}`` first; without a token the client watches as a spectator.
* ``{"type": "act", "seq": N, "action": {...}}``: ``seq`` is the log length the client saw; an
  action sent from an older position is refused (``stale``) so no one acts on a game they have not seen.
* ``{"type": "help"}``: the lessons' help for the client's own seat (seats only).
* ``{"type": "ping"}``.

Server -> client:

* ``{"type": "state", "table", "game", "seat", "seq", "view", "log_from", "log", "legal", "narrative_from",
  "narrative", "narrative_length", "seats", "away", "stand_ins", "is_over", "chosen_deal"}`` after the hello and after
  every change (one per accepted action, the computer players' moves included, and when a seat's learner connects or
  leaves). ``seats`` says who holds each seat (``open``, ``human``, ``bot``); ``away`` lists the learners' seats with
  no live connection; ``stand_ins`` names the seats where a computer player sits in for a learner, with who put it
  there (``teacher``, ``creator``, or ``""`` when this server process no longer knows). To keep each change small, a
  connection is sent only what it lacks (``state_delta``): ``log`` holds the log from position ``log_from`` on (a
  reveal sends again from the first move it made public), ``narrative`` the engine's sentences from
  ``narrative_from`` on (at most the latest ``NARRATIVE_KEPT``), and ``legal_same: true`` replaces ``legal`` when the
  seat's moves are those of its previous state. The first state of a connection holds everything; ``merge_state``
  makes a state whole again. The log is each seat's as the engine lets it read it (``Game.seat_action``).
  ``chosen_deal`` is true at a table whose creator chose the deal (a seed or a stacked deck, allowed only by a
  server started with ``--chosen-deals``, for tests and demonstrations): everyone at it is told. The first state of
  a finished game on a connection also holds ``replay`` (``railkit.tables.table.Table.replay_for``): the game as
  everyone saw it, move by move, and for a seat the review of its own moves; never the deal or a card someone hid.
* ``{"type": "error", "error": CODE, "rule": RULE_ID|null, "message": WORDS, "seq": N}``: the message
  changed nothing; ``rule`` names the game rule (``RuleError``) or the table limit (``TABLES-*``). Some errors
  carry what a client needs to word them itself (``ProtocolError.details``): ``name_taken`` the ``names`` in use
  and a ``suggestion``, ``seat_connected`` the ``seconds`` a learner must have been away; a rule's refusal its
  ``words`` (``message_json``). The HTTP endpoints answer a refusal with the same object.
* ``{"type": "help", "table", "seat", "seq", "explain": {...}}`` to the seat that asked only: the engine's
  explanations of its choices (Kap bis Kairo's count of the next crossing), empty unless the seat is to act
  (``railkit.tables.games``, "Help for a seat").
* ``{"type": "pong"}``.

A connection the server ends is closed with one of the ``CLOSE_*`` codes below.

Over HTTP, beside the socket (``railkit.tables.server``): once the game is over, a seat's own decisions for the
search review, ``POST /api/tables/{code}/decisions`` ``{"token": SEAT_TOKEN, "seat"?}`` -> ``{"table", "game",
"seat", "seq", "complete", "total", "decisions": [{"move", "view", "legal", "made"}]}``: each move of the seat's where
it had more than one legal move, its own view then (as a state's ``view``), its legal moves and the move it made
(as a state's ``legal``), never another seat's (``railkit.tables.decisions``). Refused with the error object above:
no token or another seat named ``not_your_seat`` and a game not over ``not_over`` (TABLES-REVIEW), a token of no
seat ``bad_token`` (TABLES-TOKEN).
"""

from __future__ import annotations

import json
import secrets
import unicodedata
from collections.abc import Sequence
from typing import Any, Literal, NotRequired, TypedDict, cast

from railkit.messages import Fixed, Grouped, Message

__all__ = ["CLOSE_BEHIND", "CLOSE_CLOSED", "CLOSE_FINAL", "CLOSE_REFUSED", "CLOSE_REPLACED", "CLOSE_WORDS",
           "CODE_ALPHABET", "CODE_LENGTH", "ERROR_FIELDS", "FORGET_WORDS", "LEARNER_KEY_HEADER", "MAX_MESSAGE_BYTES",
           "NARRATIVE_KEPT", "TEACHER_KEY_HEADER", "Act", "ErrorMessage", "Hello", "HelpAnswer", "HelpRequest",
           "Ping", "Pong", "ProtocolError", "State", "StateDelta", "act", "act_fields", "encode", "error_details",
           "error_message", "hello", "help_request", "is_table_code", "merge_state", "message_from_json",
           "message_json", "new_code", "parse_message", "parse_object", "ping", "pong", "state_delta", "table_code",
           "whole_number"]

MAX_MESSAGE_BYTES = 16 * 1024  # a client's message or request body: a move is under 300 bytes
CODE_LENGTH = 6
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed without doubt
NARRATIVE_KEPT = 24  # the engine's latest sentences a state holds (a payout is about 12)

TEACHER_KEY_HEADER = "X-Railkit-Teacher-Key"
LEARNER_KEY_HEADER = "X-Railkit-Learner-Key"
# What the teacher sends to confirm the two requests that cannot be undone (``{"confirm": ...}``):
FORGET_WORDS = "forget this class"
CLOSE_WORDS = "close this table"

# How the server ends a table's WebSocket (after an ``error`` message saying why, where it can):
CLOSE_REFUSED = 4400  # the hello was refused (no such table, a bad token, too many connections): do not retry
CLOSE_CLOSED = 4404  # the teacher closed the table: do not retry
CLOSE_BEHIND = 4408  # the connection fell too far behind (it did not read): reconnect at once, take the whole state
CLOSE_REPLACED = 4409  # newer pages opened the same seat: this one stops (the newest ones play on)
CLOSE_FINAL = (CLOSE_REFUSED, CLOSE_CLOSED, CLOSE_REPLACED)  # the server's "do not come back"


# -- the messages ---------------------------------------------------------------------------------------------
class Hello(TypedDict):
    type: Literal["hello"]
    token: NotRequired[str]  # a seat's token; none: a spectator


class Act(TypedDict):
    type: Literal["act"]
    seq: int  # the log length the client saw
    action: dict[str, Any]  # the move as its game's registry writes it


class HelpRequest(TypedDict):
    type: Literal["help"]


class Ping(TypedDict):
    type: Literal["ping"]


class Pong(TypedDict):
    type: Literal["pong"]


class StateDelta(TypedDict):
    """The part of a state that says what it leaves out (``state_delta``); ``merge_state`` takes it away again."""

    log_from: int
    log: list[Any]
    narrative_from: int
    narrative: list[Any]
    narrative_length: int
    legal: NotRequired[list[Any]]
    legal_same: NotRequired[bool]


class State(StateDelta):
    type: Literal["state"]
    table: str
    game: str
    seat: str | None
    seq: int
    view: dict[str, Any]
    seats: dict[str, str]
    away: list[str]
    stand_ins: dict[str, str]
    is_over: bool
    chosen_deal: bool
    replay: NotRequired[dict[str, Any]]


class ErrorMessage(TypedDict):
    """A refusal; the details a client words itself (``names``, ``suggestion``, ``seconds``, ``words``) beside."""

    type: Literal["error"]
    error: str
    rule: str | None
    message: str
    seq: int | None


ERROR_FIELDS = ("type", "error", "rule", "message", "seq", "words")  # an error's own fields; the rest are details


def error_details(found: dict[str, Any]) -> dict[str, Any]:
    """What an error carries beside its own fields (``ERROR_FIELDS``): the names in use, a suggestion, seconds."""
    return {k: v for k, v in found.items() if k not in ERROR_FIELDS}


class HelpAnswer(TypedDict):
    type: Literal["help"]
    table: str
    seat: str
    seq: int
    explain: dict[str, Any]


def hello(token: str | None) -> Hello:
    return {"type": "hello", "token": token} if token else {"type": "hello"}


def act(seq: int, action: dict[str, Any]) -> Act:
    return {"type": "act", "seq": seq, "action": action}


def help_request() -> HelpRequest:
    return {"type": "help"}


def ping() -> Ping:
    return {"type": "ping"}


def pong() -> Pong:
    return {"type": "pong"}


def error_message(code: str, rule: str | None, message: str, seq: int | None = None, **details: Any) -> ErrorMessage:
    return cast(ErrorMessage, {"type": "error", "error": code, "rule": rule, "message": str(message), "seq": seq,
                               **details})


def encode(message: Any) -> str:
    """A message as the JSON text it travels as (UTF-8 as it is: a name stays readable and short)."""
    return json.dumps(message, ensure_ascii=False)


# -- reading a client's message ---------------------------------------------------------------------------------
class ProtocolError(Exception):
    """A message the table refuses; ``code`` and ``rule`` go to the client with the words, and ``details`` (plain
    JSON: the names in use, a suggestion, seconds to wait) beside them, for a client that words it itself."""

    def __init__(self, code: str, rule: str | None, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message
        self.details = details


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


def whole_number(raw: str, name: str, lo: int, hi: int, rule: str) -> int:
    """A query parameter that must be a whole number from ``lo`` to ``hi``, written in the digits 0-9 only (no sign,
    no superscript "²", no other script's digits); ``ProtocolError`` naming ``rule`` otherwise."""
    if not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(hi)) or not lo <= int(raw) <= hi:
        raise ProtocolError("bad_message", rule, f"\"{name}\" is a whole number from {lo} to {hi}, in the digits 0-9")
    return int(raw)


# -- table codes --------------------------------------------------------------------------------------------------
def new_code() -> str:
    """A fresh table code, drawn from ``CODE_ALPHABET``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def table_code(code: str) -> str:
    """A table's code as typed (any Unicode form, any case, spaces around) as the server draws it."""
    return unicodedata.normalize("NFC", code).strip().upper()[:12]


def is_table_code(code: str) -> bool:
    """Could ``code`` be a table's code (``CODE_LENGTH`` of the letters and digits the server draws them from)?"""
    return len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code)


# -- the engines' sentences ---------------------------------------------------------------------------------------
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


# -- the state deltas: one pair, the server's half and the kernel's ------------------------------------------------
def state_delta(log_from: int, log: list[Any], narrative: Sequence[Any], narrative_from: int,
                legal: list[Any], legal_same: bool) -> StateDelta:
    """What a state holds of the log, the narrative and the legal moves for a connection that has the log up to
    ``log_from`` (``log`` is the log from there on), the ``narrative`` up to ``narrative_from`` (of the whole
    ``narrative``: at most its latest ``NARRATIVE_KEPT`` go) and, when ``legal_same``, these same ``legal`` moves.
    ``merge_state`` is its inverse."""
    narrative_from = max(narrative_from, len(narrative) - NARRATIVE_KEPT, 0)
    delta: StateDelta = {"log_from": log_from, "log": log, "narrative_from": narrative_from,
                         "narrative": list(narrative[narrative_from:]), "narrative_length": len(narrative)}
    if legal_same and legal:
        delta["legal_same"] = True
    else:
        delta["legal"] = legal
    return delta


def merge_state(previous: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any]:
    """A state as the server sent it (``state_delta``) made whole with the ``previous`` state of the same connection
    (None for the first): the log from ``log_from`` on and the narrative from ``narrative_from`` on are only what the
    connection had not got yet; ``legal_same`` stands for the same moves again; a finished game's ``replay`` comes
    once per connection. The result holds the whole log and the narrative's latest ``NARRATIVE_KEPT`` sentences."""
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
