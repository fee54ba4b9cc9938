"""The table server: a Starlette app with a small HTTP API to create and join tables and one
WebSocket per learner (or spectator) for the game itself.

HTTP (JSON bodies of at most ``MAX_MESSAGE_BYTES``):

* ``POST /api/tables`` ``{"game", "seats": [names], "bots": [names], "options": {}, "seed"?, "take"?}``
  -> ``{"table": CODE, "creator_token", "seat"?, "token"?, "seats"}``; ``take`` seats the creator.
* ``POST /api/tables/{code}/join`` ``{"seat"?, "name"?}`` -> ``{"table", "seat", "token"}``; ``name`` takes the
  open seat of that name, or gives the learner's name to a seat that has not moved yet. A name another seat holds
  is refused (409 ``name_taken``, TABLES-NAME, with the ``names`` in use and a ``suggestion``); names are compared
  NFC-normalised and case folded (``railkit.tables.names``).
* ``GET /api/tables/{code}`` -> who holds which seat, the log length, whether it is over.
* ``POST /api/tables/{code}/bot`` ``{"creator_token", "seat", "bot": true|false}``: the table's creator may put a
  computer player in an open seat, or in a learner's seat once that learner has had no connection for
  ``Limits.stand_in_after`` seconds (60; 409 ``seat_connected``, TABLES-STAND-IN, before that), and take it out
  at any time. The teacher may do both at any time (``/api/teacher/...``). The seat's page is told who did it.
* ``POST /api/records`` one event of a learner's lesson (``railkit.tables.records``) -> 201 ``{"ok": true}``
  (with ``"learner_key"``, the name's progress key, after the first record under a name).
* ``GET /api/records?learner=NAME`` with that name's progress key: the learner's own records
  (``railkit.tables.progress``).
* ``/api/teacher/...``: the teacher's reports, with the teacher key only (``railkit.tables.teacher``).
* A table the teacher closed answers 410 ``closed`` (TEACHER-CLOSE) to its code, on every route and the WebSocket,
  for as long as its code is kept (``railkit.tables.store``, the newest 1000 closed codes).
* ``POST /api/teacher/tables/{code}/bot`` and ``.../close``: the same, and closing a table, for the teacher.
* ``POST /api/tables/{code}/creator`` ``{"creator_token"}`` -> 200 if it is the table's creator token, else 403.

Under the class hub (``create_app(hub=...)``, ``--hub-auth``) every request first signs in with a hub API token
(``railkit.tables.hub``; 403 ``TABLES-HUB`` without one) and a learner sits and is recorded under their hub name.

WebSocket ``/api/tables/{code}/ws``: see ``railkit.tables.protocol``. On PostgreSQL several processes
may serve the same tables; ``railkit.tables.listen`` carries each one's changes to the others. A token, never a name, says
which seat a connection may move for, so no one can act for a seat they do not hold.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from railkit.errors import RuleError
from railkit.game import check_seed
from railkit.tables.games import GAMES
from railkit.tables.hub import HubSignIn, RequireHubUser, hub_user
from railkit.tables.listen import listen
from railkit.tables.names import name_key
from railkit.tables.progress import progress_routes
from railkit.tables.protocol import (
    MAX_MESSAGE_BYTES,
    Limits,
    ProtocolError,
    RateLimiter,
    act_fields,
    error,
    new_code,
    parse_message,
    parse_object,
)
from railkit.tables.records import RecordLimits, Records, parse_record
from railkit.tables.store import Conflict, SeatRow, Store, TableRow, token_hash
from railkit.tables.table import Table, message_json
from railkit.tables.teacher import teacher_routes

__all__ = ["TableServer", "create_app"]

log = logging.getLogger(__name__)
CLOSED_WORDS = "the teacher closed this table"


@dataclass(eq=False)
class Watcher:
    """One open WebSocket on a table: a seat's holder or a spectator (``seat`` None)."""

    socket: WebSocket
    seat: str | None
    token: str | None = None
    limiter: RateLimiter = field(default_factory=lambda: RateLimiter(20.0))
    # What this client has been sent: the log up to ``log_sent`` (with ``reveals_seen`` of the table's
    # reveals in it) and the narrative up to ``narrative_sent``, under the table's ``epoch``.
    epoch: int = -1
    log_sent: int = 0
    reveals_seen: int = 0
    narrative_sent: int = 0
    legal_sent: list[Any] = field(default_factory=list)  # the moves last sent (as the engine's actions)

    def state(self, table: Table) -> str:
        """The next state for this client: its view, and of the log and the narrative only what it lacks
        (the whole of both on a connection's first state or after the table was rebuilt)."""
        if self.epoch != table.epoch:
            self.epoch, self.log_sent, self.reveals_seen, self.narrative_sent = table.epoch, 0, 0, 0
            self.legal_sent = []
        log_from = min([self.log_sent, *table.reveals[self.reveals_seen:]])
        legal = table.legal_for(self.seat)
        # In a sealed auction the bidders still to bid keep the same moves while the others bid: not resent.
        same = legal == self.legal_sent
        state = table.state_for(self.seat, log_from, self.narrative_sent, legal, same)
        self.legal_sent = legal
        self.log_sent, self.reveals_seen, self.narrative_sent = table.seq, len(table.reveals), state["narrative_length"]
        return _dumps(state)


class TableServer:
    """Every table this process serves, rebuilt from the database at start."""

    def __init__(self, store: Store, limits: Limits, records: Records | None = None) -> None:
        self.store = store
        self.records = records or Records(store.engine)
        self.limits = limits
        self.tables: dict[str, Table] = {}
        self.watchers: dict[str, set[Watcher]] = {}
        self.create_lock = asyncio.Lock()

    def load(self) -> None:
        """Every stored table, replayed; computer players to act (a crash may have come before their
        moves) move now."""
        for row in self.store.load():
            table = Table(row)
            table.run_bots(self.store)
            self.tables[table.code] = table
        log.info("railkit tables: %d tables rebuilt from the database", len(self.tables))

    def table(self, code: str) -> Table:
        code = code.strip().upper()[:12]
        table = self.tables.get(code)
        if table is None and self.store.shared:  # made by another server process on this database
            rows = self.store.load(code)
            if rows:
                table = self.tables.setdefault(code, Table(rows[0]))
        if table is None:
            if self.store.closed_at(code) is not None:
                raise ProtocolError("closed", "TEACHER-CLOSE", f"the teacher closed table {code!r}; start or join "
                                                               "another table")
            raise ProtocolError("no_table", "TABLES-CODE", f"there is no table {code[:12]!r}; check the code "
                                                           "you were given (6 letters and digits)")
        return table

    async def changed_elsewhere(self, code: str) -> None:
        """Another server process committed a change to table ``code`` (LISTEN/NOTIFY): catch up and tell
        this process's clients."""
        table = self.tables.get(code)
        if table is None:
            return  # loaded when someone here first asks for it
        async with table.lock:
            if not table.catch_up(self.store):  # closed by the teacher through another process
                self.tables.pop(code, None)
                await self._close_watchers(code, CLOSED_WORDS)
                return
            await self.broadcast(table)

    async def broadcast(self, table: Table) -> None:
        """Each watcher gets the state as its own seat sees it (under the table's lock: in order)."""
        for watcher in list(self.watchers.get(table.code, ())):
            try:
                await watcher.socket.send_text(watcher.state(table))
            except Exception:  # a closed socket: it leaves
                self.watchers[table.code].discard(watcher)

    # -- HTTP ------------------------------------------------------------------------------------
    async def create(self, request: Request) -> JSONResponse:
        body = await _body(request)
        game = GAMES.get(str(body.get("game")))
        if game is None:
            raise ProtocolError("bad_message", "TABLES-GAME", f"\"game\" must be one of {', '.join(GAMES)}")
        seats, bots, options = body.get("seats"), body.get("bots", []), body.get("options", {})
        if not isinstance(seats, list) or not isinstance(bots, list) or not isinstance(options, dict):
            raise ProtocolError("bad_message", "TABLES-JSON", "\"seats\" and \"bots\" are lists of seat names and "
                                                              "\"options\" a JSON object")
        if any(options.get(k) is not None for k in game.cls.FILE_OPTIONS):
            raise ProtocolError("bad_message", "TABLES-FILES", "a table plays on the shipped board and deck; "
                                                               "leave out the options that name a file")
        seed = body["seed"] if "seed" in body else secrets.randbelow(2**62)
        try:
            built = game.cls(seats, seed=check_seed(seed), **{str(k): v for k, v in options.items()})
        except RuleError:
            raise
        except (TypeError, ValueError) as exc:
            raise ProtocolError("bad_message", "TABLES-SETUP", str(exc.args[0] if exc.args else exc)) from None
        keys = [name_key(p) for p in built.players]
        if len(set(keys)) < len(keys):
            raise ProtocolError("bad_message", "TABLES-NAME", "two seats have the same name (names are compared "
                                                              "without regard to case); give each seat its own name")
        strangers = [b for b in bots if b not in built.players]
        if strangers:
            raise ProtocolError("bad_message", "TABLES-SEAT", f"\"bots\" names {str(strangers[0])[:40]!r}, who has "
                                                              "no seat; name seats from \"seats\"")
        take = body.get("take")
        if take is not None and (take not in built.players or take in bots):
            raise ProtocolError("bad_message", "TABLES-SEAT", "\"take\" must name a seat without a computer player")
        user = hub_user(request)
        if user is not None and take is not None and take != user.name:
            # On the hub a learner sits under their hub user name, whatever name the page typed.
            if user.name in built.players:
                raise ProtocolError("bad_message", "TABLES-SEAT", f"another seat is called {user.name!r}, your hub "
                                                                  "name; give that seat another name")
            seats = [user.name if s == take else s for s in seats]
            built = game.cls(seats, seed=built.seed, **{str(k): v for k, v in options.items()})
            take = user.name
        async with self.create_lock:
            if len(self.tables) >= self.limits.max_tables:
                raise ProtocolError("limit", "TABLES-COUNT", f"this server holds {self.limits.max_tables} tables, "
                                                             "its limit; finish or remove one, or ask the teacher")
            creator = secrets.token_urlsafe(24)
            seat_rows = {p: SeatRow("bot" if p in bots else "open", None) for p in built.players}
            for _ in range(20):
                code = new_code()
                if self.store.closed_at(code) is not None:  # a closed table's code keeps saying so
                    continue
                try:
                    table_id = self.store.create_table(code, game.name, list(built.players), built.seed,
                                                       built.options, token_hash(creator), seat_rows)
                    break
                except Conflict:
                    continue
            else:
                raise ProtocolError("limit", "TABLES-COUNT", "no free table code was found; try again")
            table = Table(TableRow(table_id, code, game.name, list(built.players), built.seed, dict(built.options),
                                   token_hash(creator), seat_rows, []))
            self.tables[code] = table
        out: dict[str, Any] = {"table": code, "creator_token": creator}
        async with table.lock:
            if take is not None:
                out["seat"], out["token"] = table.join(self.store, take)
            table.run_bots(self.store)
            out["seats"] = table.summary()["seats"]
        return JSONResponse(out, status_code=201)

    async def join(self, request: Request) -> JSONResponse:
        table = self.table(request.path_params["code"])
        body = await _body(request)
        seat, wanted = body.get("seat"), body.get("name")
        if (seat is not None and not isinstance(seat, str)) or (wanted is not None and not isinstance(wanted, str)):
            raise ProtocolError("bad_message", "TABLES-SEAT", "\"seat\" is a seat's name and \"name\" the learner's")
        user = hub_user(request)
        if user is not None:
            wanted = user.name  # on the hub a learner sits under their hub user name
        async with table.lock:
            name, token = table.join(self.store, seat, None if wanted is None else " ".join(wanted.split())[:40] or None)
            await self.broadcast(table)
        return JSONResponse({"table": table.code, "seat": name, "token": token})

    async def show(self, request: Request) -> JSONResponse:
        return JSONResponse(self.table(request.path_params["code"]).summary())

    async def creator(self, request: Request) -> JSONResponse:
        """Is this the creator token of the table? (A reloaded page checks the one its address kept.)"""
        table = self.table(request.path_params["code"])
        body = await _body(request)
        if not table.is_creator(str(body.get("creator_token", ""))[:200]):
            raise ProtocolError("not_creator", "TABLES-CREATOR", "this is not the creator token of this table")
        return JSONResponse({"table": table.code, "creator": True})

    async def bot(self, request: Request) -> JSONResponse:
        table = self.table(request.path_params["code"])
        body = await _body(request)
        if not table.is_creator(str(body.get("creator_token", ""))):
            raise ProtocolError("not_creator", "TABLES-CREATOR", "only the table's creator (with the creator token) "
                                                                 "can put a computer player in a seat or take it out")
        return JSONResponse(await self.seat_bot(table, body, "creator"))

    async def seat_bot(self, table: Table, body: dict[str, Any], by: str) -> dict[str, Any]:
        """``{"seat", "bot"}``: a computer player in the seat or out of it, the creator's or the teacher's call
        (``by``). The creator may put one in a learner's seat only once that learner has been away for
        ``stand_in_after`` seconds (TABLES-STAND-IN); the teacher at any time."""
        seat, bot = body.get("seat"), body.get("bot")
        if not isinstance(seat, str) or not isinstance(bot, bool):
            raise ProtocolError("bad_message", "TABLES-JSON", "send {\"seat\": NAME, \"bot\": true or false}")
        async with table.lock:
            seat = table.seat_named(seat)
            if bot and by == "creator" and table.seats[seat].holder == "human":
                self._check_away(table, seat)
            table.set_bot(self.store, seat, bot, by)
            table.run_bots(self.store)
            await self.broadcast(table)
        return table.summary()

    def _check_away(self, table: Table, seat: str) -> None:
        """TABLES-STAND-IN: the creator's computer player only for a learner away ``stand_in_after`` seconds. Other
        server processes (PostgreSQL) may hold that learner's connection unseen here, so there only the teacher
        can."""
        after = self.limits.stand_in_after
        if self.store.shared:
            raise ProtocolError("seat_connected", "TABLES-STAND-IN", f"{seat!r} belongs to a learner; with the tables "
                                "in PostgreSQL several server processes may serve this table, and only the teacher "
                                "can put a computer player in a learner's seat", seat=seat, seconds=round(after),
                                teacher_only=True)
        away = table.away_seconds(seat)
        if away < after:
            raise ProtocolError("seat_connected", "TABLES-STAND-IN", f"{seat!r}'s learner is at the table or left "
                                f"less than {after:g} seconds ago; the table's creator can put a computer player "
                                f"in a learner's seat once they have been away for {after:g} seconds (the teacher "
                                "can at any time)", seat=seat, seconds=round(after), wait=max(1, round(after - away)))

    async def record(self, request: Request) -> JSONResponse:
        """One event of a learner's lesson, checked and stored (``railkit.tables.records``)."""
        body = await _body(request)
        user = hub_user(request)
        if user is not None:
            body["learner"] = user.name  # on the hub a learner's records are theirs, under their hub user name
        record = parse_record(body)
        self.records.add(record)
        out: dict[str, Any] = {"ok": True}
        if user is None:  # the first record under a name brings its progress key (railkit.tables.progress)
            key = self.records.issue_key(record.learner)
            if key is not None:
                out["learner_key"] = key
        return JSONResponse(out, status_code=201)

    async def body(self, request: Request) -> dict[str, Any]:
        return await _body(request)

    async def _close_watchers(self, code: str, words: str) -> None:
        """Every page watching table ``code`` is told ``words`` (error ``closed``) and disconnected."""
        for watcher in list(self.watchers.pop(code, ())):
            try:
                await _send_error(watcher.socket, ProtocolError("closed", "TEACHER-CLOSE", words), None)
                await watcher.socket.close(code=4404)
            except Exception:  # noqa: BLE001 - a socket already gone
                pass

    async def forget_tables(self) -> int:
        """Every table goes: its watchers are told and closed, its rows deleted; how many there were."""
        async with self.create_lock:
            for code in list(self.watchers):
                await self._close_watchers(code, CLOSED_WORDS)
            self.tables.clear()
            return self.store.forget_tables()

    async def close_table(self, code: str) -> None:
        """The teacher closes one table: its seats and spectators are told, its rows deleted."""
        table = self.table(code)
        async with self.create_lock, table.lock:
            await self._close_watchers(table.code, CLOSED_WORDS)
            self.tables.pop(table.code, None)
            self.store.delete_table(table.id, table.code, closed=True)

    # -- WebSocket -------------------------------------------------------------------------------
    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            table = self.table(websocket.path_params["code"])
            hello = parse_message(await asyncio.wait_for(_receive(websocket), timeout=30))
            if hello.get("type") != "hello":
                raise ProtocolError("bad_message", "TABLES-HELLO", "the first message is {\"type\": \"hello\", "
                                                                   "\"token\": YOUR_SEAT_TOKEN} (no token: watch)")
            token = hello.get("token")
            seat = None
            if token is not None:
                seat = table.seat_of(str(token)[:200])
                if seat is None:
                    raise ProtocolError("bad_token", "TABLES-TOKEN", "this seat token belongs to no seat at this "
                                                                     "table; join again with the table's code")
            watchers = self.watchers.setdefault(table.code, set())
            if len(watchers) >= self.limits.max_connections_per_table:
                raise ProtocolError("limit", "TABLES-WATCHERS", "this table has as many connections as it can take; "
                                                                "close another page of it first")
        except ProtocolError as exc:
            await _send_error(websocket, exc, None)
            await websocket.close(code=4400)
            return
        except (WebSocketDisconnect, TimeoutError):
            return
        watcher = Watcher(websocket, seat, None if token is None else str(token),
                          RateLimiter(self.limits.actions_per_second))
        async with table.lock:
            watchers.add(watcher)
            # A learner back after leaving: the others' lobbies see it (a first connection changes no one's lobby:
            # the seat was taken with the join, and "away" is sent with the next change).
            back = seat is not None and table.connected(seat) and seat in table.left_at
            if back:
                await self.broadcast(table)
            else:
                await websocket.send_text(watcher.state(table))
        try:
            await self._serve(table, watcher)
        except WebSocketDisconnect:
            pass
        finally:
            watchers.discard(watcher)
            if seat is not None:
                async with table.lock:
                    if table.left(seat) and self.tables.get(table.code) is table:
                        await self.broadcast(table)

    async def _serve(self, table: Table, watcher: Watcher) -> None:
        while True:
            text = await _receive(watcher.socket)
            try:
                if not watcher.limiter.allow():
                    raise ProtocolError("too_fast", "TABLES-RATE", f"at most {self.limits.actions_per_second:g} "
                                                                   "messages a second; wait a moment and send again")
                data = parse_message(text)
                kind = data["type"]
                if kind == "ping":
                    await watcher.socket.send_text(_dumps({"type": "pong"}))
                elif kind == "act":
                    await self._act(table, watcher, data)
                elif kind == "help":
                    await self._help(table, watcher, data)
                else:
                    raise ProtocolError("bad_message", "TABLES-JSON", f"unknown message type {kind[:20]!r}; "
                                                                      "send act, help or ping")
            except ProtocolError as exc:
                await _send_error(watcher.socket, exc, table.seq)
            except RuleError as exc:  # the engine's words travel as a message the client can translate
                await watcher.socket.send_text(_dumps({**error("rule", exc.rule, exc.message, table.seq),
                                                       "words": message_json(exc.message)}))

    async def _help(self, table: Table, watcher: Watcher, data: dict[str, Any]) -> None:
        """The lessons' hints and explanations for the asking seat only (``Table.help_for``)."""
        if watcher.seat is None:
            raise ProtocolError("not_your_seat", "TABLES-SEAT", "help is for a seat; join the table with its code "
                                                                "to take one")
        async with table.lock:
            answer = table.help_for(watcher.seat, data.get("hint") is True)
            await watcher.socket.send_text(_dumps(answer))

    async def _act(self, table: Table, watcher: Watcher, data: dict[str, Any]) -> None:
        seq, action = act_fields(data)
        if watcher.seat is None:
            raise ProtocolError("not_your_seat", "TABLES-SEAT", "a spectator cannot move; join the table with its "
                                                                "code to take a seat")
        if table.seats[watcher.seat].holder != "human" or watcher.token is None \
                or table.seat_of(watcher.token) != watcher.seat:
            raise ProtocolError("not_your_seat", "TABLES-SEAT", "a computer player holds your seat now; ask the "
                                                                "table's creator to take it out")
        async with table.lock:
            try:
                table.act(self.store, watcher.seat, seq, action)
            except Conflict:
                raise ProtocolError("stale", "TABLES-SEQ", "another move was stored first; look again and move "
                                                           "anew") from None
            table.run_bots(self.store)
            await self.broadcast(table)


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False)


async def _send_error(websocket: WebSocket, exc: ProtocolError, seq: int | None) -> None:
    await websocket.send_text(_dumps(error(exc.code, exc.rule, exc.message, seq, **exc.details)))


async def _receive(websocket: WebSocket) -> str | bytes:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if text is not None else bytes(message.get("bytes") or b"")


async def _body(request: Request) -> dict[str, Any]:
    """The JSON object of a request body, read no further than ``MAX_MESSAGE_BYTES``."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_MESSAGE_BYTES:
            raise ProtocolError("too_big", "TABLES-SIZE", f"a request may hold at most {MAX_MESSAGE_BYTES} bytes")
        chunks.append(chunk)
    if not chunks:
        return {}
    return parse_object(b"".join(chunks))


_STATUS = {"no_table": 404, "not_creator": 403, "not_teacher": 403, "not_learner": 403, "not_signed_in": 403, "hub_down": 503,
           "too_fast": 429, "seat_taken": 409, "no_seat": 409, "name_taken": 409, "seat_connected": 409, "closed": 410,
           "limit": 429, "too_big": 413}


async def _protocol_error(request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, RuleError):
        return JSONResponse(error("rule", exc.rule, exc.message), status_code=400)
    assert isinstance(exc, ProtocolError)
    return JSONResponse(error(exc.code, exc.rule, exc.message, **exc.details), status_code=_STATUS.get(exc.code, 400))


def create_app(store: Store, limits: Limits | None = None, teacher_key: str | None = None,
               record_limits: RecordLimits | None = None, hub: HubSignIn | None = None) -> Starlette:
    """The server's app; without ``teacher_key`` the teacher's endpoints refuse everyone. With ``hub`` every
    request signs in through JupyterHub (``railkit.tables.hub``) and the hub, not the key, says who teaches."""
    server = TableServer(store, limits or Limits(), Records(store.engine, record_limits))
    store.origin = store.origin or secrets.token_hex(8)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        server.load()
        listener = None
        if store.shared:
            ready = asyncio.Event()
            listener = asyncio.create_task(listen(store.url, store.origin, server.changed_elsewhere, ready))
            await asyncio.wait_for(ready.wait(), timeout=30)
        yield
        if listener is not None:
            listener.cancel()
        store.close()

    app = Starlette(
        routes=[
            Route("/api/tables", server.create, methods=["POST"]),
            Route("/api/tables/{code}", server.show, methods=["GET"]),
            Route("/api/tables/{code}/join", server.join, methods=["POST"]),
            Route("/api/tables/{code}/bot", server.bot, methods=["POST"]),
            Route("/api/tables/{code}/creator", server.creator, methods=["POST"]),
            WebSocketRoute("/api/tables/{code}/ws", server.socket),
            Route("/api/records", server.record, methods=["POST"]),
            *progress_routes(server.records, teacher_key),
            *teacher_routes(server, server.records, teacher_key),
        ],
        exception_handlers={ProtocolError: _protocol_error, RuleError: _protocol_error},
        middleware=[] if hub is None else [Middleware(RequireHubUser, sign_in=hub)],
        lifespan=lifespan,
    )
    app.state.tables = server
    return app
