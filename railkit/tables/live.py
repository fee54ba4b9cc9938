"""The live tables of one server process (``TableServer``): every table rebuilt from the database at start, made,
joined, watched and closed; the routes for them are mounted by ``railkit.tables.server``, whose docstring describes
the HTTP API, and the WebSocket is ``railkit.tables.sockets``'.

On PostgreSQL several processes may serve the same tables; ``railkit.tables.listen`` carries each one's changes to
the others. A token, never a name, says which seat a connection may move for, so no one can act for a seat they do
not hold.

No lock here ever waits on a socket: a change puts each connection's state in that connection's outbox
(``railkit.tables.connection``); a table's lock is held across its database write only (the log is written before
anyone is told), and that write runs off the event loop (``Store.run``). Making a table takes no lock at all: its
place under TABLES-COUNT is counted before its row is written.

What the teacher's endpoints (``railkit.classroom.teacher``) ask of the live tables is here too: the tables' report
(``report``, ``railkit.tables.overview``), the learners seated (``seated_learners``), a computer player put in a seat
(``teacher_seat_bot``), a table closed (``close_table``), every table forgotten (``forget_tables``).
"""

from __future__ import annotations

import gzip
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from railkit.errors import RuleError
from railkit.game import check_seed
from railkit.tables.connection import Watcher
from railkit.tables.decisions import DecisionAnswers, seat_decisions
from railkit.tables.games import GAMES
from railkit.tables.hub import hub_user
from railkit.tables.limits import Limits
from railkit.tables.names import name_key, normal_name, same_name
from railkit.tables.overview import seated_learners, table_report
from railkit.tables.store import Conflict, SeatRow, Store, TableRow, token_hash
from railkit.tables.table import SetAside, Table
from railkit.tables.web import read_body
from railkit.wire import CLOSE_CLOSED, ProtocolError, new_code, table_code

__all__ = ["CLOSED_WORDS", "SetAsideTable", "TableServer"]

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

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.tables: dict[str, Table] = {}
        self.set_aside: dict[str, SetAsideTable] = {}
        self.watchers: dict[str, set[Watcher]] = {}
        self._creating = 0  # tables being made now (counted against TABLES-COUNT before their row exists)
        self.decision_answers = DecisionAnswers()  # each seat's own decisions at the end (railkit.tables.decisions)

    async def load(self) -> None:
        """Every stored table, replayed; computer players to act (a crash may have come before their moves) move
        now. A table that does not replay is set aside with the reason; the others are served."""
        rows = await self.store.run(self.store.load)
        for row in rows:
            table = self._made(row)
            if table is not None:
                await table.run_bots(self.store)
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
        body = await read_body(request)
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
        body = await read_body(request)
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
        body = await read_body(request)
        if not table.is_creator(str(body.get("creator_token", ""))[:200]):
            raise ProtocolError("not_creator", "TABLES-CREATOR", "this is not the creator token of this table")
        return JSONResponse({"table": table.code, "creator": True})

    async def decisions(self, request: Request) -> Response:
        """``{"token", "seat"?}``: the seat's own decisions in its finished game, for the search review
        (``railkit.tables.decisions``): to that seat's token only, once the game is over (TABLES-REVIEW)."""
        table = await self.table(request.path_params["code"])
        body = await read_body(request)
        token, asked = body.get("token"), body.get("seat")
        if not isinstance(token, str) or not token:
            raise ProtocolError("not_your_seat", "TABLES-REVIEW", "a seat's decisions go to that seat only: send "
                                "{\"token\": YOUR_SEAT_TOKEN}; a spectator sees the table's replay")
        if asked is not None and not isinstance(asked, str):
            raise ProtocolError("bad_message", "TABLES-JSON", "\"seat\" is a seat's name")
        seat = table.seat_of(token[:200])
        if seat is None:
            raise ProtocolError("bad_token", "TABLES-TOKEN", "this seat token belongs to no seat at this table; "
                                                             "join again with the table's code")
        if asked is not None and not same_name(normal_name(asked), seat):
            raise ProtocolError("not_your_seat", "TABLES-REVIEW", f"your token holds the seat {seat!r}, not "
                                f"{normal_name(asked)[:40]!r}; a seat is sent only its own decisions")
        async with table.lock:
            table.check_open()
            if not table.game.is_over:
                raise ProtocolError("not_over", "TABLES-REVIEW", "a seat's decisions are sent once the game is over; "
                                                                 "finish the game first")
            game, key = table.game, (table.code, table.id, table.epoch, seat, table.seq)
        answer = await self.decision_answers.get(key, lambda: seat_decisions(game, seat, table.code))
        if "gzip" in request.headers.get("accept-encoding", ""):
            return Response(answer, media_type="application/json",
                            headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        return Response(await self.store.run(gzip.decompress, answer), media_type="application/json",
                        headers={"Vary": "Accept-Encoding"})

    async def bot(self, request: Request) -> JSONResponse:
        table = await self.table(request.path_params["code"])
        body = await read_body(request)
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

    # -- what the teacher's endpoints ask (railkit.classroom.teacher.ClassTables) -----------------------------
    def seated_learners(self, learner: str | None = None) -> dict[str, list[str]]:
        return seated_learners(self.tables.values(), learner)

    async def report(self, stalled_after: float) -> dict[str, Any]:
        """Every table (``railkit.tables.overview.table_report``) and the tables set aside, with their reasons."""
        last = await self.store.run(self.store.activity)
        times = await self.store.run(self.store.move_times)
        return {"tables": table_report(self.tables.values(), stalled_after, last=last, times=times),
                "set_aside": [t.summary() for t in self.set_aside.values()]}

    async def teacher_seat_bot(self, code: str, body: dict[str, Any]) -> dict[str, Any]:
        """The teacher puts a computer player in a seat or takes it out, at any time."""
        return await self.seat_bot(await self.table(code), body, "teacher")

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
