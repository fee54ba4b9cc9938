"""The database: tables, seats and the action log, one row per action (SQLAlchemy Core).

The log is the truth: a table's game is rebuilt by replaying its rows in ``seq`` order, so after a
crash (``kill -9``) the server restarts from what was committed. ``(table_id, seq)`` is the primary
key of ``rk_actions``: two writers that both saw the same log cannot both append, even from two
server processes. SQLite runs in WAL mode (readers never wait for the one writer); a
``postgresql://`` URL uses psycopg 3.

Seat and creator tokens are stored as SHA-256 digests, so a copy of the database seats no one.

``rk_closed_tables`` keeps the codes of the tables the teacher closed (the newest ``MAX_CLOSED_KEPT``), so a
learner who comes with such a code is told the teacher closed it rather than that there never was one.

Each table records the rules version of its game when it was made (``rules_version``: ``Game.RULES_VERSION``) and
whether its deal was chosen by its creator (``chosen_deal``). The schema is migrated with Alembic
(``railkit.tables.migrations``) at every start.

A seat is claimed with one conditional ``UPDATE ... WHERE holder = 'open'`` whose row count says who won: two
server processes on one PostgreSQL database can never give one seat to two learners (``claim_seat``). A seat's
holder changes only from the holder the caller saw (``set_seat``), else ``Conflict``.

Every method is synchronous (SQLAlchemy Core on its engine's connection pool); the server calls them through
``run``, on a small pool of threads, so a slow commit never holds up the event loop and the other tables.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import anyio
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from railkit.tables import migrations

__all__ = ["CHANNEL", "MAX_CLOSED_KEPT", "Conflict", "SeatRow", "Store", "TableRow", "database_url", "token_hash"]

CHANNEL = "railkit_tables"  # PostgreSQL NOTIFY channel: "ORIGIN:CODE" after every committed change

metadata = MetaData()

rk_tables = Table(
    "rk_tables", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(12), nullable=False, unique=True),
    Column("game", String(40), nullable=False),
    Column("players", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSON, nullable=False),
    Column("creator_hash", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("rules_version", Integer, nullable=False, server_default="1"),  # the game's RULES_VERSION when made
    Column("chosen_deal", Boolean, nullable=False, server_default=text("false")),  # seed or stack given by its creator
)

rk_seats = Table(
    "rk_seats", metadata,
    Column("table_id", Integer, ForeignKey("rk_tables.id"), primary_key=True),
    Column("seat", String(60), primary_key=True),
    Column("holder", String(10), nullable=False),  # "open" (waiting for a learner), "human" or "bot"
    Column("token_hash", String(64)),  # the learner's, kept while a bot sits in so they can come back
)

rk_actions = Table(
    "rk_actions", metadata,
    Column("table_id", Integer, ForeignKey("rk_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 0, 1, 2, ... per table: the unique constraint refuses a twin
    Column("seat", String(60), nullable=False),
    Column("action", JSON, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)


# The codes of the tables the teacher closed, and when (TEACHER-CLOSE): the newest MAX_CLOSED_KEPT only.
rk_closed_tables = Table(
    "rk_closed_tables", metadata,
    Column("code", String(12), primary_key=True),
    Column("closed", DateTime(timezone=True), nullable=False),
)
MAX_CLOSED_KEPT = 1000


class Conflict(Exception):
    """Another writer appended action ``seq`` first; reload the table from the log."""


@dataclass
class SeatRow:
    holder: str
    token_hash: str | None


@dataclass
class TableRow:
    id: int
    code: str
    game: str
    players: list[str]
    seed: int
    options: dict[str, Any]
    creator_hash: str
    seats: dict[str, SeatRow]
    actions: list[dict[str, Any]]
    rules_version: int = 1
    chosen_deal: bool = False


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def tables_data_dir() -> Path:
    """The table server's own folder: ``$RAILKIT_TABLES_DATA``, else ``~/.local/share/railkit``. Not
    ``$RAILKIT_DATA``, which names the folder of the games' board and deck files (``railkit.paths``)."""
    return Path(os.environ.get("RAILKIT_TABLES_DATA") or Path.home() / ".local" / "share" / "railkit")


def database_url(given: str | None = None) -> str:
    """``given``, else ``$RAILKIT_DB``, else a SQLite file in ``tables_data_dir()``; ``postgresql://`` is
    spelled for psycopg 3."""
    url = given or os.environ.get("RAILKIT_DB")
    if not url:
        data = tables_data_dir()
        data.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{data / 'tables.sqlite'}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix):]
    return url


# One statement for every move (bound parameters), built once: building it anew for each move cost more
# than the insert itself (benchmarks/tables.py under a profiler).
_INSERT_ACTION = insert(rk_actions)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL still loses nothing when the process dies (kill -9): a commit is in the WAL file
    # before the call returns; only a power cut may lose the last moves. FULL would fsync every move.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


T = TypeVar("T")
THREADS = 8  # database calls in flight at once; the pool's connections match


class Store:
    """The tables' database. Calls are short and synchronous (a move is one small insert); ``run`` makes one off
    the event loop."""

    def __init__(self, url: str, origin: str = "") -> None:
        self.url = database_url(url)
        self.origin = origin  # this process's name in NOTIFY payloads, so it can ignore its own
        self.engine: Engine = create_engine(self.url, **({} if self.url.startswith("sqlite") else
                                                         {"pool_size": THREADS, "max_overflow": 2}))
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrations.upgrade(self.engine)
        self._limiter: anyio.CapacityLimiter | None = None

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` (one of this store's methods, or the records') on the database threads."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(THREADS)
        return await anyio.to_thread.run_sync(functools.partial(call, *args), limiter=self._limiter)

    @property
    def shared(self) -> bool:
        """Several server processes can serve these tables (PostgreSQL's LISTEN/NOTIFY tells them apart)."""
        return self.engine.dialect.name == "postgresql"

    def _notify(self, conn: Connection, code: str) -> None:
        """Tell the other server processes (delivered by PostgreSQL when the transaction commits)."""
        if self.shared:
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": CHANNEL, "payload": f"{self.origin}:{code}"})

    def close(self) -> None:
        self.engine.dispose()

    def count_tables(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(rk_tables)).scalar_one())

    def create_table(self, code: str, game: str, players: list[str], seed: int, options: Mapping[str, Any],
                     creator_hash: str, seats: Mapping[str, SeatRow], rules_version: int = 1,
                     chosen_deal: bool = False) -> int:
        """A new table and its seats; ``Conflict`` if ``code`` is taken, or was a closed table's (draw another)."""
        try:
            with self.engine.begin() as conn:
                if conn.execute(select(rk_closed_tables.c.code).where(rk_closed_tables.c.code == code)).first():
                    raise Conflict(code)  # a closed table's code keeps saying so
                table_id = int(conn.execute(insert(rk_tables).values(
                    code=code, game=game, players=players, seed=seed, options=dict(options),
                    creator_hash=creator_hash, created=datetime.now(UTC), rules_version=rules_version,
                    chosen_deal=chosen_deal).returning(rk_tables.c.id)).scalar_one())
                conn.execute(insert(rk_seats), [{"table_id": table_id, "seat": name, "holder": s.holder,
                                                 "token_hash": s.token_hash} for name, s in seats.items()])
                self._notify(conn, code)
        except IntegrityError:
            raise Conflict(code) from None
        return table_id

    def append(self, table_id: int, code: str, seq: int, seat: str, action: Mapping[str, Any]) -> None:
        """Action ``seq`` of a table; ``Conflict`` if that number is already in the log."""
        try:
            with self.engine.begin() as conn:
                conn.execute(_INSERT_ACTION, {"table_id": table_id, "seq": seq, "seat": seat, "action": dict(action),
                                              "at": datetime.now(UTC)})
                self._notify(conn, code)
        except IntegrityError:
            raise Conflict(f"{table_id}:{seq}") from None

    def claim_seat(self, table_id: int, code: str, seat: str, token_hash: str) -> bool:
        """A learner takes the open seat ``seat``: True if this call took it, False if it was no longer open (another
        learner, perhaps through another server process, was first)."""
        with self.engine.begin() as conn:
            taken = conn.execute(update(rk_seats).where(rk_seats.c.table_id == table_id, rk_seats.c.seat == seat,
                                                        rk_seats.c.holder == "open")
                                 .values(holder="human", token_hash=token_hash)).rowcount
            if taken == 1:
                self._notify(conn, code)
        return taken == 1

    def claim_renamed(self, table_id: int, code: str, seat: str, name: str, players: list[str],
                      token_hash: str) -> bool:
        """A learner takes the open seat ``seat`` and gives it their name (the seat has not moved: no action names
        it); ``players`` is the seating with the new name. False (nothing changed) if the seat was no longer open
        or the players' list changed since it was read (another server process renamed a seat first)."""
        with self.engine.begin() as conn:
            # The table's row first: on PostgreSQL the row lock makes a second renaming process wait here, and
            # SQLite takes its one writer's lock; either then reads the players as the first one left them.
            conn.execute(update(rk_tables).where(rk_tables.c.id == table_id).values(code=rk_tables.c.code))
            stored = conn.execute(select(rk_tables.c.players).where(rk_tables.c.id == table_id)).scalar_one_or_none()
            if stored is None or [name if p == seat else p for p in stored] != players:
                return False
            taken = conn.execute(update(rk_seats).where(rk_seats.c.table_id == table_id, rk_seats.c.seat == seat,
                                                        rk_seats.c.holder == "open")
                                 .values(seat=name, holder="human", token_hash=token_hash)).rowcount
            if taken == 1:
                conn.execute(update(rk_tables).where(rk_tables.c.id == table_id).values(players=players))
                self._notify(conn, code)
        return taken == 1

    def set_seat(self, table_id: int, code: str, seat: str, row: SeatRow, was: SeatRow) -> None:
        """The seat's holder ``row`` in place of ``was``; ``Conflict`` (nothing changed) if the seat no longer holds
        ``was`` (another server process changed it first)."""
        with self.engine.begin() as conn:
            match = rk_seats.c.token_hash.is_(None) if was.token_hash is None else rk_seats.c.token_hash == was.token_hash
            changed = conn.execute(update(rk_seats).where(rk_seats.c.table_id == table_id, rk_seats.c.seat == seat,
                                                          rk_seats.c.holder == was.holder, match)
                                   .values(holder=row.holder, token_hash=row.token_hash)).rowcount
            if changed == 1:
                self._notify(conn, code)
        if changed != 1:
            raise Conflict(f"{table_id}:{seat}")

    def activity(self) -> dict[int, datetime]:
        """Each table's last change: its last move, else its creation (UTC)."""
        with self.engine.connect() as conn:
            out = {r.id: r.created for r in conn.execute(select(rk_tables.c.id, rk_tables.c.created))}
            for r in conn.execute(select(rk_actions.c.table_id, func.max(rk_actions.c.at).label("at"))
                                  .group_by(rk_actions.c.table_id)):
                out[r.table_id] = r.at
        return {k: v if v.tzinfo is not None else v.replace(tzinfo=UTC) for k, v in out.items()}

    def move_times(self) -> dict[int, list[tuple[int, datetime]]]:
        """Each table's creation (as position -1) and moves as (position in the log, when), in order (UTC)."""
        out: dict[int, list[tuple[int, datetime]]] = {}
        with self.engine.connect() as conn:
            for t in conn.execute(select(rk_tables.c.id, rk_tables.c.created).order_by(rk_tables.c.id)):
                created = t.created if t.created.tzinfo is not None else t.created.replace(tzinfo=UTC)
                out[t.id] = [(-1, created)]
            for r in conn.execute(select(rk_actions.c.table_id, rk_actions.c.seq, rk_actions.c.at)
                                  .order_by(rk_actions.c.table_id, rk_actions.c.seq)):
                at = r.at if r.at.tzinfo is not None else r.at.replace(tzinfo=UTC)
                out.setdefault(r.table_id, []).append((int(r.seq), at))
        return out

    def delete_table(self, table_id: int, code: str, closed: bool = False) -> None:
        """Delete one table with its seats and its moves (the other server processes are told); ``closed``: the
        teacher closed it, and its code is kept among the closed ones (the newest ``MAX_CLOSED_KEPT``)."""
        with self.engine.begin() as conn:
            conn.execute(delete(rk_actions).where(rk_actions.c.table_id == table_id))
            conn.execute(delete(rk_seats).where(rk_seats.c.table_id == table_id))
            conn.execute(delete(rk_tables).where(rk_tables.c.id == table_id))
            if closed:
                conn.execute(delete(rk_closed_tables).where(rk_closed_tables.c.code == code))
                conn.execute(insert(rk_closed_tables).values(code=code, closed=datetime.now(UTC)))
                newest = select(rk_closed_tables.c.code).order_by(rk_closed_tables.c.closed.desc()) \
                    .limit(MAX_CLOSED_KEPT).scalar_subquery()
                conn.execute(delete(rk_closed_tables).where(rk_closed_tables.c.code.not_in(newest)))
            self._notify(conn, code)

    def closed_at(self, code: str) -> datetime | None:
        """When the teacher closed the table ``code`` (None: not among the closed codes kept)."""
        with self.engine.connect() as conn:
            at = conn.execute(select(rk_closed_tables.c.closed)
                              .where(rk_closed_tables.c.code == code)).scalar_one_or_none()
        return None if at is None else at if at.tzinfo is not None else at.replace(tzinfo=UTC)

    def forget_tables(self) -> int:
        """Delete every table, its seats and its moves, and the closed codes kept; how many tables there were."""
        with self.engine.begin() as conn:
            conn.execute(delete(rk_actions))
            conn.execute(delete(rk_seats))
            conn.execute(delete(rk_closed_tables))
            return int(conn.execute(delete(rk_tables)).rowcount or 0)

    def load(self, code: str | None = None, since: int = 0) -> list[TableRow]:
        """Every table (or the one with ``code``) with its seats and its log in order; with ``since``, only the log
        from that position on (``catch_up``: what another server process added)."""
        with self.engine.connect() as conn:
            query = select(rk_tables).order_by(rk_tables.c.id)
            if code is not None:
                query = query.where(rk_tables.c.code == code)
            rows = {r.id: TableRow(r.id, r.code, r.game, [str(p) for p in r.players], int(r.seed), dict(r.options),
                                   r.creator_hash, {}, [], int(r.rules_version), bool(r.chosen_deal))
                    for r in conn.execute(query)}
            if not rows:
                return []
            ids = list(rows)
            for s in conn.execute(select(rk_seats).where(rk_seats.c.table_id.in_(ids))):
                rows[s.table_id].seats[s.seat] = SeatRow(s.holder, s.token_hash)
            query = select(rk_actions.c.table_id, rk_actions.c.action).where(rk_actions.c.table_id.in_(ids))
            if since:
                query = query.where(rk_actions.c.seq >= since)
            for a in conn.execute(query.order_by(rk_actions.c.table_id, rk_actions.c.seq)):
                rows[a.table_id].actions.append(dict(a.action))
        return list(rows.values())

    def moves_by_seat(self, code: str) -> dict[str, int]:
        """How many moves each seat of table ``code`` has in its log (a computer player's in a seat count as that
        seat's), in seating order, 0 for a seat with none; ``{}`` for no such table. Counted from the rows the
        server committed, so a look from outside (``tools/class_day.py``) sees what a restart would replay."""
        with self.engine.connect() as conn:
            found = conn.execute(select(rk_tables.c.id, rk_tables.c.players).where(rk_tables.c.code == code)).first()
            if found is None:
                return {}
            counts = dict.fromkeys((str(p) for p in found.players), 0)
            for r in conn.execute(select(rk_actions.c.seat, func.count().label("n"))
                                  .where(rk_actions.c.table_id == found.id).group_by(rk_actions.c.seat)):
                counts[str(r.seat)] = int(r.n)
        return counts

    def log_length(self, table_id: int) -> int:
        """How many actions the table's log holds."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(rk_actions)
                                    .where(rk_actions.c.table_id == table_id)).scalar_one())

    def table_codes(self) -> list[str]:
        """The codes of every table in the database."""
        with self.engine.connect() as conn:
            return [str(c) for c in conn.execute(select(rk_tables.c.code).order_by(rk_tables.c.id)).scalars()]
