"""The table server: a Starlette app with a small HTTP API to create and join tables and one
WebSocket per learner (or spectator) for the game itself.

HTTP (JSON bodies of at most ``MAX_MESSAGE_BYTES``):

* ``POST /api/tables`` ``{"game", "seats": [names], "bots": [names], "options": {}, "seed"?, "take"?}``
  -> ``{"table": CODE, "creator_token", "seat"?, "token"?, "seats", "chosen_deal"}``; ``take`` seats the creator.
  The server draws the deal: ``seed`` (or a stacked deck, Kap bis Kairo's ``stack`` option) is refused (TABLES-DEAL)
  unless the server runs with ``--chosen-deals`` (tests, demonstrations), and then the table says so to everyone.
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
  for as long as its code is kept (``railkit.tables.store``, the newest 1000 closed codes), also to a request or a
  socket that came before the close and is answered after it. A stored table that does not replay here is set
  aside (``SetAsideTable``, listed for the teacher): its code answers 409 ``set_aside`` (TABLES-REPLAY).
* ``POST /api/teacher/tables/{code}/bot`` and ``.../close``: the same, and closing a table, for the teacher.
* ``POST /api/tables/{code}/creator`` ``{"creator_token"}`` -> 200 if it is the table's creator token, else 403.

Under the class hub (``create_app(hub=...)``, ``--hub-auth``) every request first signs in with a hub API token
(``railkit.tables.hub``; 403 ``TABLES-HUB`` without one) and a learner sits and is recorded under their hub name.

WebSocket ``/api/tables/{code}/ws``: see ``railkit.wire`` and ``railkit.tables.sockets``. On PostgreSQL several
processes may serve the same tables; ``railkit.tables.listen`` carries each one's changes to the others. A token, never a
name, says which seat a connection may move for, so no one can act for a seat they do not hold.

No lock here ever waits on a socket: a change puts each connection's state in that connection's outbox
(``railkit.tables.connection``); a table's lock is held across its database write only (the log is written before
anyone is told), and that write runs off the event loop (``Store.run``). Making a table takes no lock at all: its
place under TABLES-COUNT is counted before its row is written.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from railkit.errors import RuleError
from railkit.game import check_seed
from railkit.tables.connection import Watcher
from railkit.tables.games import GAMES
from railkit.tables.hub import HubSignIn, RequireHubUser, hub_user
from railkit.tables.limits import Limits
from railkit.tables.listen import listen
from railkit.tables.names import name_key, normal_name
from railkit.tables.progress import progress_routes
from railkit.tables.records import RecordLimits, Records, parse_record
from railkit.tables.sockets import client_of, serve_socket
from railkit.tables.store import Conflict, SeatRow, Store, TableRow, token_hash
from railkit.tables.table import SetAside, Table
from railkit.tables.teacher import teacher_routes
from railkit.wire import CLOSE_CLOSED, MAX_MESSAGE_BYTES, ProtocolError, error_message, new_code, parse_object, table_code

__all__ = ["SetAsideTable", "TableServer", "create_app"]

log = logging.getLogger(__name__)
CLOSED_WORDS = "the teacher closed this table"


@dataclass(frozen=True)
class SetAsideTable:
    """A stored table this server cannot play (its log does not replay here), kept in the database untouched."""

    code: str
    game: str
    reason: str

    def summary(self) -> dict[str, Any]:
        return {"table": self.code, "game": self.game, "reason": self.reason}


class TableServer:
    """Every table this process serves, rebuilt from the database at start."""

    def __init__(self, store: Store, limits: Limits, records: Records | None = None) -> None:
        self.store = store
        self.records = records or Records(store.engine)
        self.limits = limits
        self.tables: dict[str, Table] = {}
        self.set_aside: dict[str, SetAsideTable] = {}
        self.watchers: dict[str, set[Watcher]] = {}
        self._creating = 0  # tables being made now (counted against TABLES-COUNT before their row exists)

    async def load(self) -> None:
        """Every stored table, replayed; computer players to act (a crash may have come before their moves) move
        now. A table that does not replay is set aside with the reason; the others are served."""
        rows = await self.store.run(self.store.load)
        for row in rows:
            table = self._made(row)
            if table is not None:
                await table.run_bots(self.store)
        await self.store.run(self.records.counts)
        log.info("railkit tables: %d tables rebuilt from the database, %d set aside", len(self.tables),
                 len(self.set_aside))

    def _made(self, row: TableRow) -> Table | None:
        """The table of ``row``, or None when it is set aside (logged, listed for the teacher)."""
        try:
            table = Table(row)
        except SetAside as exc:
            self.set_aside[row.code] = SetAsideTable(row.code, row.game, str(exc))
            log.error("railkit tables: table %s is set aside: %s", row.code, exc)
            return None
        except Exception as exc:  # noqa: BLE001 - any other trouble in one table must not stop the others
            self.set_aside[row.code] = SetAsideTable(row.code, row.game, f"it does not replay here ({exc!r:.200})")
            log.exception("railkit tables: table %s is set aside", row.code)
            return None
        self.set_aside.pop(row.code, None)
        self.tables[row.code] = table
        return table

    async def table(self, code: str) -> Table:
        code = table_code(code)
        table = self.tables.get(code)
        if table is None and code not in self.set_aside and self.store.shared:  # made by another server process
            rows = await self.store.run(self.store.load, code)
            if rows and code not in self.tables:
                self._made(rows[0])
            table = self.tables.get(code)
        if table is not None:
            return table
        aside = self.set_aside.get(code)
        if aside is not None:
            raise ProtocolError("set_aside", "TABLES-REPLAY", f"table {code!r} cannot be played on this server: "
                                f"{aside.reason}; its moves are kept, and the teacher sees it listed")
        if await self.store.run(self.store.closed_at, code) is not None:
            raise ProtocolError("closed", "TEACHER-CLOSE", f"the teacher closed table {code!r}; start or join "
                                                           "another table")
        raise ProtocolError("no_table", "TABLES-CODE", f"there is no table {code!r}; check the code "
                                                       "you were given (6 letters and digits)")

    async def changed_elsewhere(self, code: str) -> None:
        """Another server process committed a change to table ``code`` (LISTEN/NOTIFY): catch up and tell
        this process's clients."""
        table = self.tables.get(code)
        if table is None:
            return  # loaded when someone here first asks for it
        async with table.lock:
            if table.closed:
                return
            try:
                still = await table.catch_up(self.store)
            except SetAside as exc:
                self._drop(table, ProtocolError("set_aside", "TABLES-REPLAY", str(exc)))
                self.set_aside[code] = SetAsideTable(code, table.kind.name, str(exc))
                return
            if not still:  # closed by the teacher through another process
                self._drop(table, ProtocolError("closed", "TEACHER-CLOSE", CLOSED_WORDS))
                return
            self.broadcast(table)

    def broadcast(self, table: Table) -> None:
        """Each watcher is sent the state as its own seat sees it, in order (made under the table's lock, put in
        each connection's outbox: nothing here waits on a socket)."""
        for watcher in list(self.watchers.get(table.code, ())):
            if not watcher.send(watcher.state(table)):
                self.watchers[table.code].discard(watcher)  # it fell behind or is closing: it takes no more

    def _drop(self, table: Table, why: ProtocolError) -> None:
        """``table`` is no longer served: every connection to it is told why and closed (never waits)."""
        table.closed = True
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        for watcher in self.watchers.pop(table.code, set()):
            watcher.close(CLOSE_CLOSED, why)

    # -- HTTP ------------------------------------------------------------------------------------
    async def create(self, request: Request) -> JSONResponse:
        body = await _body(request)
        game = GAMES.get(str(body.get("game")))
        if game is None:
            raise ProtocolError("bad_message", "TABLES-GAME", f"\"game\" must be one of {', '.join(GAMES)}")
        seats, bots, options = body.get("seats"), body.get("bots", []), body.get("options", {})
        if not isinstance(seats, list) or not isinstance(bots, list) or not isinstance(options, dict) \
                or not all(isinstance(n, str) for n in [*seats, *bots]):
            raise ProtocolError("bad_message", "TABLES-JSON", "\"seats\" and \"bots\" are lists of seat names and "
                                                              "\"options\" a JSON object")
        seats, bots = [normal_name(n) for n in seats], [normal_name(n) for n in bots]
        if any(options.get(k) is not None for k in game.cls.FILE_OPTIONS):
            raise ProtocolError("bad_message", "TABLES-FILES", "a table plays on the shipped board and deck; "
                                                               "leave out the options that name a file")
        chosen = "seed" in body or options.get("stack") is not None
        if chosen and not self.limits.chosen_deals:
            raise ProtocolError("bad_message", "TABLES-DEAL", "the deal of a class table is drawn by the server; "
                                                              "leave out \"seed\" and \"stack\"")
        seed = body["seed"] if "seed" in body else secrets.randbelow(2**62)
        options = {str(k): v for k, v in options.items()}
        try:
            built = game.cls(seats, seed=check_seed(seed), **options)
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
        take = normal_name(take) if isinstance(take, str) else take
        if take is not None and (take not in built.players or take in bots):
            raise ProtocolError("bad_message", "TABLES-SEAT", "\"take\" must name a seat without a computer player")
        user = hub_user(request)
        if user is not None and take is not None and take != user.name:
            # On the hub a learner sits under their hub user name, whatever name the page typed.
            if any(name_key(p) == name_key(user.name) for p in built.players):
                raise ProtocolError("bad_message", "TABLES-SEAT", f"another seat is called {user.name!r}, your hub "
                                                                  "name; give that seat another name")
            seats = [user.name if s == take else s for s in built.players]
            built = game.cls(seats, seed=built.seed, **options)
            take = user.name
        table, creator = await self._new_table(game.name, built, bots, chosen)
        out: dict[str, Any] = {"table": table.code, "creator_token": creator}
        async with table.lock:
            if take is not None:
                out["seat"], out["token"] = await table.join(self.store, take)
            await table.run_bots(self.store)
            out["seats"] = table.summary()["seats"]
            out["chosen_deal"] = table.chosen_deal
        return JSONResponse(out, status_code=201)

    async def _new_table(self, game: str, built: Any, bots: list[str], chosen: bool) -> tuple[Table, str]:
        """A new table's row and its ``Table`` (TABLES-COUNT: counted before its row exists, so two creations at
        once cannot both take the last place; no lock is held while the database writes)."""
        if len(self.tables) + self._creating >= self.limits.max_tables:
            raise ProtocolError("limit", "TABLES-COUNT", f"this server holds {self.limits.max_tables} tables, "
                                                         "its limit; finish or remove one, or ask the teacher")
        self._creating += 1
        try:
            creator = secrets.token_urlsafe(24)
            seat_rows = {p: SeatRow("bot" if p in bots else "open", None) for p in built.players}
            for _ in range(20):
                code = new_code()
                if code in self.tables or code in self.set_aside:
                    continue
                try:
                    table_id = await self.store.run(self.store.create_table, code, game, list(built.players),
                                                    built.seed, built.options, token_hash(creator), seat_rows,
                                                    built.RULES_VERSION, chosen)
                    break
                except Conflict:  # taken, or a closed table's code (it keeps saying so)
                    continue
            else:
                raise ProtocolError("limit", "TABLES-COUNT", "no free table code was found; try again")
            table = Table(TableRow(table_id, code, game, list(built.players), built.seed, dict(built.options),
                                   token_hash(creator), seat_rows, [], built.RULES_VERSION, chosen))
            self.tables[code] = table
            return table, creator
        finally:
            self._creating -= 1

    async def join(self, request: Request) -> JSONResponse:
        table = await self.table(request.path_params["code"])
        body = await _body(request)
        seat, wanted = body.get("seat"), body.get("name")
        if (seat is not None and not isinstance(seat, str)) or (wanted is not None and not isinstance(wanted, str)):
            raise ProtocolError("bad_message", "TABLES-SEAT", "\"seat\" is a seat's name and \"name\" the learner's")
        user = hub_user(request)
        if user is not None:
            wanted = user.name  # on the hub a learner sits under their hub user name
        async with table.lock:
            table.check_open()  # the teacher may have closed it while the request was read
            name, token = await table.join(self.store, seat, None if wanted is None else normal_name(wanted)[:40] or None)
            self.broadcast(table)
        return JSONResponse({"table": table.code, "seat": name, "token": token})

    async def show(self, request: Request) -> JSONResponse:
        return JSONResponse((await self.table(request.path_params["code"])).summary())

    async def creator(self, request: Request) -> JSONResponse:
        """Is this the creator token of the table? (A reloaded page checks the one its address kept.)"""
        table = await self.table(request.path_params["code"])
        body = await _body(request)
        if not table.is_creator(str(body.get("creator_token", ""))[:200]):
            raise ProtocolError("not_creator", "TABLES-CREATOR", "this is not the creator token of this table")
        return JSONResponse({"table": table.code, "creator": True})

    async def bot(self, request: Request) -> JSONResponse:
        table = await self.table(request.path_params["code"])
        body = await _body(request)
        if not table.is_creator(str(body.get("creator_token", ""))[:200]):
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
            table.check_open()
            seat = table.seat_named(seat)
            if bot and by == "creator" and table.seats[seat].holder == "human":
                self._check_away(table, seat)
            await table.set_bot(self.store, seat, bot, by)
            await table.run_bots(self.store)
            self.broadcast(table)
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
        """One event of a learner's lesson, checked and stored (``railkit.tables.records``): per name and per client
        rates (RECORDS-RATE, RECORDS-NAMES), so one client's flood is refused on its own."""
        body = await _body(request)
        user = hub_user(request)
        if user is not None:
            body["learner"] = user.name  # on the hub a learner's records are theirs, under their hub user name
        record = parse_record(body)
        self.records.admit(record, client_of(request))
        await self.store.run(self.records.add, record)
        out: dict[str, Any] = {"ok": True}
        if user is None:  # the first record under a name brings its progress key (railkit.tables.progress)
            key = await self.store.run(self.records.issue_key, record.learner)
            if key is not None:
                out["learner_key"] = key
        return JSONResponse(out, status_code=201)

    async def body(self, request: Request) -> dict[str, Any]:
        return await _body(request)

    async def forget_tables(self) -> int:
        """Every table goes: its watchers are told and closed, its rows deleted; how many there were."""
        for table in list(self.tables.values()):
            self._drop(table, ProtocolError("closed", "TEACHER-CLOSE", CLOSED_WORDS))
        self.set_aside.clear()
        return await self.store.run(self.store.forget_tables)

    async def close_table(self, code: str) -> str:
        """The teacher closes one table: its seats and spectators are told, its rows deleted (no lock waits on a
        socket: the connections are closed by their own senders). A set-aside table can be closed too."""
        code = table_code(code)
        aside = self.set_aside.pop(code, None)
        if aside is not None:
            rows = await self.store.run(self.store.load, code)
            if rows:
                await self.store.run(self.store.delete_table, rows[0].id, code, True)
            return code
        table = await self.table(code)
        async with table.lock:
            table.check_open()
            self._drop(table, ProtocolError("closed", "TEACHER-CLOSE", CLOSED_WORDS))
            await self.store.run(self.store.delete_table, table.id, table.code, True)
        return table.code

    # -- WebSocket: railkit.tables.sockets ------------------------------------------------------------
    async def socket(self, websocket: WebSocket) -> None:
        await serve_socket(self, websocket)


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
           "limit": 429, "too_big": 413, "stale": 409, "set_aside": 409}


async def _protocol_error(request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, RuleError):
        return JSONResponse(error_message("rule", exc.rule, exc.message), status_code=400)
    assert isinstance(exc, ProtocolError)
    return JSONResponse(error_message(exc.code, exc.rule, exc.message, **exc.details), status_code=_STATUS.get(exc.code, 400))


def create_app(store: Store, limits: Limits | None = None, teacher_key: str | None = None,
               record_limits: RecordLimits | None = None, hub: HubSignIn | None = None) -> Starlette:
    """The server's app; without ``teacher_key`` the teacher's endpoints refuse everyone. With ``hub`` every
    request signs in through JupyterHub (``railkit.tables.hub``) and the hub, not the key, says who teaches."""
    server = TableServer(store, limits or Limits(), Records(store.engine, record_limits))
    store.origin = store.origin or secrets.token_hex(8)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await server.load()
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
            *progress_routes(server.records, store, teacher_key),
            *teacher_routes(server, server.records, teacher_key),
        ],
        exception_handlers={ProtocolError: _protocol_error, RuleError: _protocol_error},
        middleware=[] if hub is None else [Middleware(RequireHubUser, sign_in=hub)],
        lifespan=lifespan,
    )
    app.state.tables = server
    return app
