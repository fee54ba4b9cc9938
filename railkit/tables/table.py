"""One table in memory: the replay of its stored log, its seats, and what each seat may see.

Every change goes through ``act`` (a learner's move) or ``run_bots`` (the computer players); both
append to the database before anyone is told, and if the database refuses (another writer was
first, or it is down) the table is rebuilt from the database, so memory never runs ahead of the log.
The server holds ``lock`` around each change: two moves that arrive together are taken one at a time,
and the second, made from a position that no longer exists, is refused as out of date.

A table also knows, for this server process, which learners' seats have a live connection and since when the
others have been away (``connected``, ``left``, ``away_seconds``), and who put a computer player in a learner's
seat (``stand_ins``): the seats' pages are told both.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from railkit.errors import RuleError
from railkit.game import Game
from railkit.messages import Fixed, Grouped, Message
from railkit.tables.games import GAMES, GameKind
from railkit.tables.names import same_name, suggest_name
from railkit.tables.protocol import ProtocolError
from railkit.tables.store import Conflict, SeatRow, Store, TableRow, token_hash

__all__ = ["Entry", "MAX_BOT_MOVES", "Table"]

log = logging.getLogger(__name__)
NARRATIVE_SENT = 24  # the engine's latest sentences in each state: enough for any one change (a payout is ~12)
MAX_BOT_MOVES = 2000  # per change: a whole six-seat game of computer players takes about 400


@dataclass
class Entry:
    """One logged action; ``public`` once every seat may see all of it."""

    seat: str
    action: dict[str, Any]
    public: bool


class Table:
    """A shared game: seats, the log (with what is still sealed) and the live game."""

    def __init__(self, row: TableRow) -> None:
        self.id = row.id
        self.code = row.code
        self.kind: GameKind = GAMES[row.game]
        self.creator_hash = row.creator_hash
        self.seats: dict[str, SeatRow] = _in_order(row)
        self.lock = asyncio.Lock()
        self._row = row
        self.game: Game[Any] = self._fresh_game()
        self.entries: list[Entry] = []
        self._pending = 0  # sealed actions not yet revealed
        self._narrative_at = -1  # the log position self._narrative was made at
        self._narrative: list[Any] = []  # the engine's sentences as JSON, made once each
        self.epoch = 0  # counts rebuilds: a client sent anything before one is sent everything again
        self.reveals: list[int] = []  # for each reveal, the first log position it made public
        self.connections: Counter[str] = Counter()  # seat -> its live connections to this process
        self.loaded_at = time.monotonic()  # a seat not seen since counts as away from then
        self.left_at: dict[str, float] = {}  # seat -> when its last connection closed (monotonic)
        self.stand_ins: dict[str, str] = {}  # seat -> who put a computer player in its learner's place
        for data in row.actions:
            self._perform(data)

    def _fresh_game(self) -> Game[Any]:
        return self.kind.cls(self._row.players, seed=self._row.seed, **self._row.options)

    @property
    def seq(self) -> int:
        """The number of actions in the log: the position every move is made from."""
        return len(self.entries)

    def rebuild(self, store: Store) -> None:
        """Back to exactly what the database holds (after a refused or failed write)."""
        rows = store.load(self.code)
        if rows:
            self._row = rows[0]
            self.seats = _in_order(rows[0])
        self.game = self._fresh_game()
        self.entries = []
        self._pending = 0
        self._narrative_at = -1
        self._narrative = []
        self.epoch += 1
        self.reveals = []
        for data in self._row.actions:
            self._perform(data)

    def catch_up(self, store: Store) -> bool:
        """Take in what another server process stored (its moves and seat changes) since our last one;
        False when the table is no longer in the database (the teacher closed it)."""
        rows = store.load(self.code)
        if not rows:
            return False
        self._row = rows[0]
        self.seats = _in_order(rows[0])
        if len(rows[0].actions) < self.seq:
            self.rebuild(store)
            return True
        for data in rows[0].actions[self.seq:]:
            self._perform(data)
        return True

    # -- changes -------------------------------------------------------------------------------
    def _perform(self, data: dict[str, Any]) -> dict[str, Any]:
        """Decode, check and apply one action; its normalised JSON. Raises and changes nothing if refused."""
        action = self.kind.cls.registry.from_dict(data)
        self.game.apply(action)
        normal = self.kind.cls.registry.to_dict(action)
        sealed = normal["type"] in self.kind.sealed
        self.entries.append(Entry(str(normal.get("player")), normal, public=not sealed))
        if sealed and normal["type"] not in self.kind.never_revealed:
            self._pending += 1
        if self._pending:
            self._reveal()
        return normal

    def _reveal(self) -> None:
        if not self.kind.revealed(self.game.view(None)):
            return
        self._pending = 0
        first = None
        for index, entry in enumerate(self.entries):
            if not entry.public and entry.action["type"] not in self.kind.never_revealed:
                entry.public = True
                first = index if first is None else first
        if first is not None:
            self.reveals.append(first)

    def _store(self, store: Store, seat: str, normal: dict[str, Any]) -> None:
        try:
            store.append(self.id, self.code, self.seq - 1, seat, normal)
        except Exception:
            self.rebuild(store)
            raise

    def act(self, store: Store, seat: str, seq: int, data: dict[str, Any]) -> None:
        """A learner's move for ``seat`` made at log position ``seq``; ``ProtocolError`` or ``RuleError``
        (state untouched) if refused."""
        if seq != self.seq:
            raise ProtocolError("stale", "TABLES-SEQ", f"the game has moved on: the log holds {self.seq} moves and "
                                                       f"your move was made after {seq}; look again and move anew")
        data = dict(data)
        player = data.setdefault("player", seat)
        if player != seat:
            raise ProtocolError("not_your_seat", "TABLES-SEAT", f"you hold the seat {seat!r}, not {str(player)[:40]!r}; "
                                                                "you can only move for your own seat")
        try:
            normal = self._perform(data)
        except (ValueError, TypeError) as exc:
            if isinstance(exc, RuleError):
                raise
            raise ProtocolError("bad_move", "TABLES-MOVE", f"{exc.args[0] if exc.args else exc}") from None
        self._store(store, seat, normal)

    def run_bots(self, store: Store) -> int:
        """The computer players move while one of them is to act; how many moves they made."""
        moves = 0
        while not self.game.is_over and moves < MAX_BOT_MOVES:
            bots = [p for p in self.game.players_to_act() if self.seats[p].holder == "bot"]
            if not bots:
                break
            seat = bots[0]
            try:
                normal = self._perform(self.kind.cls.registry.to_dict(self.kind.bot(self.game, seat)))
            except (ValueError, TypeError) as exc:
                log.error("table %s: the computer player %s chose no legal move (%s); it stops", self.code, seat, exc)
                break
            try:
                self._store(store, seat, normal)
            except Conflict:  # another server process moved first; it tells us, and its moves stand
                break
            moves += 1
        return moves

    # -- seats ---------------------------------------------------------------------------------
    def join(self, store: Store, seat: str | None, name: str | None = None) -> tuple[str, str]:
        """An open seat (``seat``, the open seat called ``name``, or the first open one) for a learner:
        (seat, token). With ``name``, a seat that has not moved yet takes the learner's name. A ``name`` another
        seat holds (names compared by ``name_key``: "ann" is "Ann") is refused (``name_taken``, TABLES-NAME) with
        the names in use and a free one to try."""
        open_seats = [n for n, s in self.seats.items() if s.holder == "open"]
        if name is not None:
            namesake = next((n for n in self.seats if same_name(n, name)), None)
            if namesake is not None and (namesake not in open_seats or (seat is not None and seat != namesake)):
                raise self._name_taken(name)
            if seat is None and namesake is not None:
                seat = namesake
        if seat is None:
            if not open_seats:
                raise ProtocolError("no_seat", "TABLES-SEAT", "every seat at this table is taken; ask the table's "
                                                              "creator to free one, or watch without a seat")
            seat = open_seats[0]
        elif seat not in self.seats:
            raise ProtocolError("no_seat", "TABLES-SEAT", f"this table has no seat {seat[:40]!r}; its seats are "
                                                          f"{', '.join(self.seats)}")
        elif seat not in open_seats:
            raise ProtocolError("seat_taken", "TABLES-SEAT", f"the seat {seat!r} is taken; open seats: "
                                                             f"{', '.join(open_seats) or 'none'}")
        if name is not None and not same_name(name, seat):
            seat = self._rename(store, seat, name)
        token = secrets.token_urlsafe(24)
        row = SeatRow("human", token_hash(token))
        store.set_seat(self.id, self.code, seat, row)
        self.seats[seat] = row
        return seat, token

    def _name_taken(self, name: str) -> ProtocolError:
        held = [n for n, s in self.seats.items() if s.holder != "open"]
        suggestion = suggest_name(name, self.seats)
        return ProtocolError("name_taken", "TABLES-NAME", f"the name {name[:40]!r} is taken at this table (names in "
                                                          f"use: {', '.join(held)}); try {suggestion!r} or another name",
                             name=name[:40], names=held, suggestion=suggestion)

    def _rename(self, store: Store, seat: str, name: str) -> str:
        """The open seat ``seat`` called ``name`` instead (the game replayed with the new name); ``seat``
        unchanged if it has moved already or the engine refuses the name."""
        if any(e.seat == seat for e in self.entries):
            return seat
        players = [name if p == seat else p for p in self._row.players]
        try:
            game = self.kind.cls(players, seed=self._row.seed, **self._row.options)
            for entry in self.entries:
                game.apply(self.kind.cls.registry.from_dict(entry.action))
        except (ValueError, TypeError):
            return seat
        store.rename_seat(self.id, self.code, seat, name, players)
        self.rebuild(store)
        return name

    def seat_of(self, token: str) -> str | None:
        digest = token_hash(token)
        for name, s in self.seats.items():
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return name
        return None

    def is_creator(self, token: str) -> bool:
        return secrets.compare_digest(self.creator_hash, token_hash(token))

    def set_bot(self, store: Store, seat: str, bot: bool, by: str = "creator") -> None:
        """The creator or the teacher (``by``) puts a computer player in ``seat`` (the learner's token is kept, so
        taking the bot out gives the seat back to them) or takes it out (an unclaimed seat opens for joining)."""
        seat = self.seat_named(seat)
        old = self.seats[seat]
        row = SeatRow("bot" if bot else ("human" if old.token_hash else "open"), old.token_hash)
        store.set_seat(self.id, self.code, seat, row)
        self.seats[seat] = row
        if bot and old.token_hash is not None:
            self.stand_ins[seat] = by
        elif not bot:
            self.stand_ins.pop(seat, None)

    def seat_named(self, seat: str) -> str:
        """The seat called ``seat`` (by ``name_key``); ``ProtocolError`` naming the seats when there is none."""
        found = seat if seat in self.seats else next((n for n in self.seats if same_name(n, seat)), None)
        if found is None:
            raise ProtocolError("no_seat", "TABLES-SEAT", f"this table has no seat {seat[:40]!r}; its seats are "
                                                          f"{', '.join(self.seats)}")
        return found

    # -- who is connected (this process) -------------------------------------------------------
    def connected(self, seat: str) -> bool:
        """A connection for ``seat`` opened; True when the seat was away until now."""
        self.connections[seat] += 1
        return self.connections[seat] == 1

    def left(self, seat: str) -> bool:
        """A connection for ``seat`` closed; True when the seat has none left now."""
        self.connections[seat] -= 1
        if self.connections[seat] > 0:
            return False
        del self.connections[seat]
        self.left_at[seat] = time.monotonic()
        return True

    def away_seconds(self, seat: str) -> float:
        """How long ``seat`` has had no connection to this process (0 while it has one)."""
        if self.connections[seat] > 0:
            return 0.0
        return time.monotonic() - self.left_at.get(seat, self.loaded_at)

    def away(self) -> list[str]:
        """The learners' seats with no live connection to this process."""
        return [n for n, s in self.seats.items() if s.holder == "human" and self.connections[n] <= 0]

    def stand_in_by(self) -> dict[str, str]:
        """The seats where a computer player sits in for a learner, with who put it there ("" when unknown:
        done before this process started, or through another one)."""
        return {n: self.stand_ins.get(n, "") for n, s in self.seats.items()
                if s.holder == "bot" and s.token_hash is not None}

    # -- what a seat sees ----------------------------------------------------------------------
    def log_for(self, seat: str | None, start: int = 0) -> list[dict[str, Any]]:
        """The log from position ``start`` as ``seat`` may read it: other seats' sealed fields are left out
        until revealed."""
        out = []
        for entry in self.entries[start:]:
            if entry.public or entry.seat == seat:
                out.append(entry.action)
            else:
                hidden = self.kind.sealed[entry.action["type"]]
                out.append({**{k: v for k, v in entry.action.items() if k not in hidden}, "sealed": list(hidden)})
        return out

    def legal_for(self, seat: str | None) -> list[Any]:
        """``seat``'s legal moves now (none for a spectator, or while it is not to act)."""
        game = self.game
        if seat is None or game.is_over or seat not in game.players_to_act():
            return []
        return list(game.legal_actions(seat))

    def state_for(self, seat: str | None, log_from: int = 0, narrative_from: int = 0,
                  legal: list[Any] | None = None, legal_same: bool = False) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) is sent: its view, the log as it may read it, its legal moves,
        the engine's narrative (public words: "Ann hands in a sealed bid") and, once the game is over and
        nothing is secret any more, what a review needs to replay it. The log and the narrative are sent
        from ``log_from`` and ``narrative_from`` on (what the client has not got yet; the protocol); ``legal``
        (``legal_for``) is left out, with ``legal_same``, when the client already has the same moves."""
        game = self.game
        narrative = self._narrative_json()
        narrative_from = max(narrative_from, len(narrative) - NARRATIVE_SENT, 0)
        log_from = min(max(log_from, 0), self.seq)
        state = {"type": "state", "table": self.code, "game": self.kind.name, "seat": seat, "seq": self.seq,
                 "is_over": game.is_over, "seats": {n: s.holder for n, s in self.seats.items()},
                 "away": self.away(), "stand_ins": self.stand_in_by(), "view": game.view(seat).to_json(),
                 "log_from": log_from, "log": self.log_for(seat, log_from),
                 "legal": [], "narrative_from": narrative_from, "narrative": narrative[narrative_from:],
                 "narrative_length": len(narrative)}
        if legal is None:
            legal = self.legal_for(seat)
        if legal_same and legal:
            del state["legal"]
            state["legal_same"] = True
        else:
            to_dict = self.kind.cls.registry.to_dict
            state["legal"] = [to_dict(a) for a in legal]
        if game.is_over:
            state["replay"] = {"players": list(self._row.players), "seed": self._row.seed,
                               "options": dict(self._row.options), "actions": [e.action for e in self.entries],
                               "learners": self.learners()}
        return state

    def help_for(self, seat: str, hint: bool) -> dict[str, Any]:
        """The lessons' help for ``seat`` at this position (``railkit.tables.games``, "Help for a seat"): the
        engine's explanations of its choices and, if asked, the heuristic player's move. Only while the seat
        is to act; otherwise both are empty. Worked out on the live game, so only what the game's functions
        read for that seat (its own and public facts) shapes it."""
        out: dict[str, Any] = {"type": "help", "table": self.code, "seat": seat, "seq": self.seq, "explain": {},
                               "hint": None}
        game = self.game
        if game.is_over or seat not in game.players_to_act():
            return out
        out["explain"] = json_value(self.kind.explain(game, seat))
        if hint:
            move = self.kind.hint(game, seat)
            out["hint"] = None if move is None else self.kind.cls.registry.to_dict(move)
        return out

    def _narrative_json(self) -> list[Any]:
        """The engine's sentences as JSON, each made once (every seat gets the same)."""
        if self._narrative_at != self.seq:
            narrative = self.game.narrative
            if len(narrative) < len(self._narrative):
                self._narrative = []
            self._narrative += [message_json(m) for m in narrative[len(self._narrative):]]
            self._narrative_at = self.seq
        return self._narrative

    def learners(self) -> list[str]:
        """The seats a learner has held (a computer player may sit in for one now), in seating order."""
        return [n for n, s in self.seats.items() if s.token_hash is not None]

    def summary(self) -> dict[str, Any]:
        return {"table": self.code, "game": self.kind.name, "seq": self.seq, "is_over": self.game.is_over,
                "seats": {n: s.holder for n, s in self.seats.items()}, "away": self.away(),
                "stand_ins": self.stand_in_by()}


def _in_order(row: TableRow) -> dict[str, SeatRow]:
    """The seats in the game's seating order (the database returns them in any order)."""
    return {p: row.seats[p] for p in row.players if p in row.seats}


def json_value(value: Any) -> Any:
    """Plain JSON of ``value``: dicts and lists walked, engine sentences as ``message_json``."""
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if value is None or isinstance(value, bool) or type(value) is str:  # noqa: E721 - a Message is a str too
        return value
    return message_json(value)


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
