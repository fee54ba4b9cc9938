"""One table in memory: the replay of its stored log, its seats, and what each seat may see.

Every change goes through ``act`` (a learner's move) or ``run_bots`` (the computer players); both
append to the database before anyone is told, and if the database refuses (another writer was
first, or it is down) the table is rebuilt from the database, so memory never runs ahead of the log.
The server holds ``lock`` around each change: two moves that arrive together are taken one at a time,
and the second, made from a position that no longer exists, is refused as out of date. Under the lock the
table waits only on the database (its writes, through ``Store.run``, off the event loop), never on a socket.

A table is made from its stored row or not at all: a log that no longer replays (a rule that changed, names
that no longer match its seats, a rules version this server does not play) raises ``SetAside`` with the reason,
and the server lists it for the teacher and serves the other tables.

What a seat may read is the engine's to say: its view (``Game.view``) and the log as ``Game.seat_action`` gives
it. Once the game is over a connection is sent, once, what the lessons' review needs (``replay``): the game move by
move as everyone saw it (the public view after each move and the engine's words, never the deal or a hidden card)
and, for a seat, the heuristic player's review of its own moves (``railkit.tables.games``). The search review asks
for the seat's own decisions over HTTP instead (``railkit.tables.decisions``).

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
from typing import Any, cast

from railkit.bot_turns import TABLE_BOT_MOVES, BotTurns
from railkit.errors import RuleError
from railkit.game import Game
from railkit.tables.games import GAMES, GameKind
from railkit.tables.names import name_key, normal_name, same_name, suggest_name
from railkit.tables.store import Conflict, SeatRow, Store, TableRow, token_hash
from railkit.wire import NARRATIVE_KEPT, HelpAnswer, ProtocolError, State, message_json, state_delta

__all__ = ["Entry", "MAX_BOT_MOVES", "SetAside", "Table", "message_json"]

log = logging.getLogger(__name__)
NARRATIVE_SENT = NARRATIVE_KEPT  # the engine's latest sentences in each state: enough for any one change
MAX_BOT_MOVES = TABLE_BOT_MOVES  # per change (railkit.bot_turns): a whole game of computer players


class SetAside(Exception):
    """A stored table this server cannot play (its log does not replay here); the message says why."""


@dataclass
class Entry:
    """One logged action (its save-file object) and the seat that made it."""

    seat: str
    action: dict[str, Any]


class Table:
    """A shared game: seats, the log and the live game."""

    def __init__(self, row: TableRow) -> None:
        self.id = row.id
        self.code = row.code
        kind = GAMES.get(row.game)
        if kind is None:
            raise SetAside(f"it is a game of {row.game[:40]!r}, which this server does not know")
        self.kind: GameKind = kind
        if row.rules_version != kind.cls.RULES_VERSION:
            raise SetAside(f"it was made under the rules of {kind.cls.TITLE} version {row.rules_version}, and this "
                           f"server plays version {kind.cls.RULES_VERSION}, which may replay its moves differently")
        self.creator_hash = row.creator_hash
        self.chosen_deal = row.chosen_deal
        self.lock = asyncio.Lock()
        self.closed = False  # the teacher closed it: whatever still holds it refuses from now on
        self.epoch = 0  # counts rebuilds: a client sent anything before one is sent everything again
        self.connections: Counter[str] = Counter()  # seat -> its live connections to this process
        self.loaded_at = time.monotonic()  # a seat not seen since counts as away from then
        self.left_at: dict[str, float] = {}  # seat -> when its last connection closed (monotonic)
        self.stand_ins: dict[str, str] = {}  # seat -> who put a computer player in its learner's place
        self._replay: dict[str, Any] | None = None  # the finished game as everyone saw it, made once
        self._reviews: dict[str, list[dict[str, Any]]] = {}  # seat -> the review of its moves, made once
        self._load(row)

    def _load(self, row: TableRow) -> None:
        """The game replayed from ``row`` (``SetAside`` with the reason if it does not replay)."""
        try:
            game = self.kind.cls(row.players, seed=row.seed, **row.options)
        except (RuleError, TypeError, ValueError) as exc:
            raise SetAside(f"its game cannot be set up again: {_reason(exc)}") from None
        if set(game.players) != set(row.seats) or list(game.players) != row.players:
            raise SetAside(f"its seats ({', '.join(sorted(row.seats))}) are not its game's players "
                           f"({', '.join(game.players)})")
        self._row = row
        self.seats: dict[str, SeatRow] = _in_order(row)
        self.game: Game[Any] = game
        self.entries: list[Entry] = []
        self._sealed_from = 0  # the engine's ``sealed_from`` after the last action
        self._narrative_at = -1  # the log position self._narrative was made at
        self._narrative: list[Any] = []  # the engine's sentences as JSON, made once each
        self.reveals: list[int] = []  # for each reveal, the first log position it made readable to other seats
        self._replay, self._reviews = None, {}
        for index, data in enumerate(row.actions):
            try:
                self._perform(data)
            except (RuleError, TypeError, ValueError, KeyError) as exc:
                raise SetAside(f"its move {index + 1} no longer replays: {_reason(exc)}") from None

    @property
    def seq(self) -> int:
        """The number of actions in the log: the position every move is made from."""
        return len(self.entries)

    async def rebuild(self, store: Store) -> None:
        """Back to exactly what the database holds (after a refused or failed write). A table no longer there (the
        teacher closed it through another server process) is closed here too."""
        rows = await store.run(store.load, self.code)
        if not rows:
            self.closed = True
            return
        self.epoch += 1
        self._load(rows[0])

    async def catch_up(self, store: Store) -> bool:
        """Take in what another server process stored (its moves and seat changes) since our last one, reading only
        the moves after ours; False when the table is no longer in the database (the teacher closed it)."""
        rows = await store.run(store.load, self.code, self.seq)
        if not rows:
            return False
        row = rows[0]
        if row.players != self._row.players or (not row.actions and self.seq
                                                and await store.run(store.log_length, self.id) < self.seq):
            await self.rebuild(store)  # a seat renamed, or a log shorter than ours: everything again
            return True
        self._row = row  # its seats and players (its ``actions`` are only the new ones: ``_load`` alone reads them)
        self.seats = _in_order(row)
        for data in row.actions:
            self._perform(data)
        return True

    # -- changes -------------------------------------------------------------------------------
    def _perform(self, data: dict[str, Any]) -> dict[str, Any]:
        """Decode, check and apply one action; its normalised JSON. Raises and changes nothing if refused."""
        action = self.kind.cls.registry.from_dict(data)
        game = self.game
        game.apply(action)
        normal = self.kind.cls.registry.to_dict(action)
        self.entries.append(Entry(str(normal.get("player")), normal))
        before, now = self._sealed_from, game.sealed_from()
        if now > before:  # sealed actions were opened: their fields reach the other seats now (a reveal)
            opened = [i for i in range(before, min(now, len(self.entries) - 1))
                      if self.entries[i].action["type"] in game.SEALED
                      and self.entries[i].action["type"] not in game.HIDDEN_FOR_GOOD]
            if opened:
                self.reveals.append(opened[0])
        self._sealed_from = now
        return normal

    async def _store(self, store: Store, seat: str, normal: dict[str, Any]) -> None:
        try:
            await store.run(store.append, self.id, self.code, self.seq - 1, seat, normal)
        except Exception:
            await self.rebuild(store)
            raise

    def check_open(self) -> None:
        """``ProtocolError`` (TEACHER-CLOSE) once the teacher closed this table."""
        if self.closed:
            raise ProtocolError("closed", "TEACHER-CLOSE", f"the teacher closed table {self.code!r}; start or join "
                                                           "another table")

    async def act(self, store: Store, seat: str, seq: int, data: dict[str, Any]) -> None:
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
        await self._store(store, seat, normal)

    async def run_bots(self, store: Store) -> int:
        """The computer players move while one of them is to act; how many moves they made."""
        turns = BotTurns(lambda: self.game, lambda p: p in self.seats and self.seats[p].holder == "bot",
                         MAX_BOT_MOVES, lambda _game: self.closed)  # the seat policy a play session shares
        for seat in turns:
            try:
                normal = self._perform(self.kind.cls.registry.to_dict(self.kind.bot(self.game, seat)))
            except (ValueError, TypeError) as exc:
                log.error("table %s: the computer player %s chose no legal move (%s); it stops", self.code, seat, exc)
                break
            try:
                await self._store(store, seat, normal)
            except Conflict:  # another server process moved first; it tells us, and its moves stand
                break
        return turns.moves

    # -- seats ---------------------------------------------------------------------------------
    async def join(self, store: Store, seat: str | None, name: str | None = None) -> tuple[str, str]:
        """An open seat (``seat``, the open seat called ``name``, or the first open one) for a learner:
        (seat, token). With ``name``, a seat that has not moved yet takes the learner's name. A ``name`` another
        seat holds (names compared by ``name_key``: "ann" is "Ann") is refused (``name_taken``, TABLES-NAME) with
        the names in use and a free one to try. The claim is the database's (``Store.claim_seat``): when another
        server process gave the seat away first, this one catches up and the learner is told (or, asking for no
        particular seat, given the next open one)."""
        seat = None if seat is None else normal_name(seat)
        name = None if name is None else normal_name(name) or None
        for _attempt in range(len(self.seats) + 1):
            self.check_open()
            chosen = self._choose_seat(seat, name)
            token = secrets.token_urlsafe(24)
            digest = token_hash(token)
            if name is not None and not same_name(name, chosen) and not any(e.seat == chosen for e in self.entries):
                players = [name if p == chosen else p for p in self._row.players]
                if self._renames(players):
                    if await store.run(store.claim_renamed, self.id, self.code, chosen, name, players, digest):
                        await self.rebuild(store)
                        return name, token
                    await self.catch_up(store)
                    continue
            if await store.run(store.claim_seat, self.id, self.code, chosen, digest):
                self.seats[chosen] = SeatRow("human", digest)
                return chosen, token
            await self.catch_up(store)  # another process was first: look again
        raise ProtocolError("seat_taken", "TABLES-SEAT", "the seats were taken while you asked; join again")

    def _choose_seat(self, seat: str | None, name: str | None) -> str:
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
            return open_seats[0]
        if seat not in self.seats:
            found = next((n for n in self.seats if same_name(n, seat)), None)
            if found is None:
                raise ProtocolError("no_seat", "TABLES-SEAT", f"this table has no seat {seat[:40]!r}; its seats are "
                                                              f"{', '.join(self.seats)}")
            seat = found
        if seat not in open_seats:
            raise ProtocolError("seat_taken", "TABLES-SEAT", f"the seat {seat!r} is taken; open seats: "
                                                             f"{', '.join(open_seats) or 'none'}")
        return seat

    def _name_taken(self, name: str) -> ProtocolError:
        held = [n for n, s in self.seats.items() if s.holder != "open"]
        suggestion = suggest_name(name, self.seats)
        return ProtocolError("name_taken", "TABLES-NAME", f"the name {name[:40]!r} is taken at this table (names in "
                                                          f"use: {', '.join(held)}); try {suggestion!r} or another name",
                             name=name[:40], names=held, suggestion=suggestion)

    def _renames(self, players: list[str]) -> bool:
        """Does the game take ``players`` (one seat renamed) and replay its log under them? (An engine may refuse a
        name; then the seat keeps its own.)"""
        try:
            game = self.kind.cls(players, seed=self._row.seed, **self._row.options)
            for entry in self.entries:
                game.apply(self.kind.cls.registry.from_dict(entry.action))
        except (ValueError, TypeError):
            return False
        return list(game.players) == players and len({name_key(p) for p in players}) == len(players)

    def seat_of(self, token: str) -> str | None:
        digest = token_hash(token)
        for name, s in self.seats.items():
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return name
        return None

    def is_creator(self, token: str) -> bool:
        return secrets.compare_digest(self.creator_hash, token_hash(token))

    async def set_bot(self, store: Store, seat: str, bot: bool, by: str = "creator") -> None:
        """The creator or the teacher (``by``) puts a computer player in ``seat`` (the learner's token is kept, so
        taking the bot out gives the seat back to them) or takes it out (an unclaimed seat opens for joining)."""
        seat = self.seat_named(seat)
        old = self.seats[seat]
        row = SeatRow("bot" if bot else ("human" if old.token_hash else "open"), old.token_hash)
        try:
            await store.run(store.set_seat, self.id, self.code, seat, row, old)
        except Conflict:
            await self.catch_up(store)
            raise ProtocolError("stale", "TABLES-SEAT", f"the seat {seat!r} changed just now (a learner took it); "
                                                        "look again") from None
        self.seats[seat] = row
        if bot and old.token_hash is not None:
            self.stand_ins[seat] = by
        elif not bot:
            self.stand_ins.pop(seat, None)

    def seat_named(self, seat: str) -> str:
        """The seat called ``seat`` (by ``name_key``); ``ProtocolError`` naming the seats when there is none."""
        seat = normal_name(seat)
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
        """The log from position ``start`` as ``seat`` may read it (the engine's ``seat_action``: other seats'
        sealed fields left out until revealed, some for good)."""
        game = self.game
        return [game.seat_action(i, seat, self.entries[i].action) for i in range(max(0, start), self.seq)]

    def legal_for(self, seat: str | None) -> list[Any]:
        """``seat``'s legal moves now (none for a spectator, or while it is not to act)."""
        game = self.game
        if seat is None or game.is_over or seat not in game.players_to_act():
            return []
        return list(game.legal_actions(seat))

    def state_for(self, seat: str | None, log_from: int = 0, narrative_from: int = 0,
                  legal: list[Any] | None = None, legal_same: bool = False, replay: bool = True) -> State:
        """What ``seat`` (None: a spectator) is sent: its view, the log as it may read it, its legal moves,
        the engine's narrative (public words: "Ann hands in a sealed bid") and, once the game is over and ``replay``
        is asked for, what the review needs (``replay_for``). The log and the narrative are sent
        from ``log_from`` and ``narrative_from`` on (what the client has not got yet; the protocol); ``legal``
        (``legal_for``) is left out, with ``legal_same``, when the client already has the same moves."""
        game = self.game
        log_from = min(max(log_from, 0), self.seq)
        if legal is None:
            legal = self.legal_for(seat)
        to_dict = self.kind.cls.registry.to_dict
        delta = state_delta(log_from, self.log_for(seat, log_from), self._narrative_json(), narrative_from,
                            [to_dict(a) for a in legal], legal_same)
        state = cast(State, {"type": "state", "table": self.code, "game": self.kind.name, "seat": seat,
                             "seq": self.seq, "is_over": game.is_over, "chosen_deal": self.chosen_deal,
                             "seats": {n: s.holder for n, s in self.seats.items()}, "away": self.away(),
                             "stand_ins": self.stand_in_by(), "view": game.view(seat).to_json(), **delta})
        if game.is_over and replay:
            state["replay"] = self.replay_for(seat)
        return state

    def replay_for(self, seat: str | None) -> dict[str, Any]:
        """A finished game as the review replays it, with nothing anyone hid (no seed, no hidden card): the players,
        the learners' seats, and for each position from the deal on the public view (only its fields that changed
        since the position before) and the engine's words for that move; for a seat, ``review``: the heuristic
        player's judgement of its own moves (``GameKind.review``)."""
        if self._replay is None:
            self._replay = public_replay(self.game)
        out = {**self._replay, "learners": self.learners()}
        if seat is not None:
            if seat not in self._reviews:
                self._reviews[seat] = self.kind.review(self.game, seat)
            out["review"] = self._reviews[seat]
        return out

    def help_for(self, seat: str) -> HelpAnswer:
        """The lessons' help for ``seat`` at this position (``railkit.tables.games``, "Help for a seat"): the
        engine's explanations of its choices. Only while the seat is to act; otherwise empty. Worked out on the
        live game, so only what the game's functions read for that seat (its own and public facts) shapes it."""
        out: HelpAnswer = {"type": "help", "table": self.code, "seat": seat, "seq": self.seq, "explain": {}}
        game = self.game
        if not game.is_over and seat in game.players_to_act():
            out["explain"] = json_value(self.kind.explain(game, seat))
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
                "chosen_deal": self.chosen_deal, "seats": {n: s.holder for n, s in self.seats.items()},
                "away": self.away(), "stand_ins": self.stand_in_by()}


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


def public_replay(game: Game[Any]) -> dict[str, Any]:
    """``game`` (finished) replayed from its deal as a spectator saw it: ``players`` and ``steps``, one per position
    (the deal, then after each move), each the public view's fields that changed since the step before (``view``;
    the whole view at the deal) and the engine's sentences said on the way there (``words``, as JSON)."""
    fresh = game.replay(0)
    steps: list[dict[str, Any]] = []
    shown: dict[str, Any] = {}
    said = 0

    def step() -> None:
        nonlocal shown, said
        view = json_value_plain(fresh.view(None).to_json())
        narrative = fresh.narrative
        steps.append({"view": {k: v for k, v in view.items() if k not in shown or shown[k] != v},
                      "words": [message_json(m) for m in narrative[said:]]})
        shown, said = view, len(narrative)

    step()
    for action in game.log:
        fresh.apply(action)
        step()
    return {"players": list(game.players), "steps": steps}


def json_value_plain(value: Any) -> Any:
    """A view's JSON as plain lists and dicts (tuples become lists), so it compares with what a client reads."""
    if isinstance(value, dict):
        return {str(k): json_value_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value_plain(v) for v in value]
    return value


def _reason(exc: BaseException) -> str:
    return str(exc.args[0] if exc.args else exc)[:300]
