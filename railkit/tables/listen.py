"""Several server processes on one PostgreSQL database: each hears the others' changes through
PostgreSQL's own LISTEN/NOTIFY (no broker of our own).

``Store`` sends ``NOTIFY railkit_tables, 'ORIGIN:CODE'`` inside the transaction that stores a move or a
seat change, so the notice arrives only once the change is committed; here each process listens on
one autocommit connection (psycopg 3, async) and, for another origin's notice, reads the new rows of
that table and tells its own clients. The database stays the only authority: two processes that
accept a move at the same position cannot both store it (the primary key), and the loser's client
is told its move is out of date.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import psycopg

from railkit.tables.store import CHANNEL

__all__ = ["listen"]

log = logging.getLogger(__name__)


def conninfo(sqlalchemy_url: str) -> str:
    """libpq's URI for the URL SQLAlchemy was given (``postgresql+psycopg://`` -> ``postgresql://``)."""
    return "postgresql://" + sqlalchemy_url.split("://", 1)[1]


async def listen(url: str, origin: str, on_change: Callable[[str], Awaitable[None]], ready: asyncio.Event) -> None:
    """Call ``on_change(code)`` for each change another process commits; reconnects after a lost connection."""
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                ready.set()
                async for notice in conn.notifies():
                    sender, _, code = notice.payload.partition(":")
                    if sender != origin:
                        try:
                            await on_change(code)
                        except Exception:  # one table's trouble must not deafen the others
                            log.exception("table %s: could not take in another server's change", code)
        except (psycopg.OperationalError, OSError) as exc:
            log.warning("railkit tables: lost PostgreSQL's notices (%s); listening again in a second", exc)
            await asyncio.sleep(1)
