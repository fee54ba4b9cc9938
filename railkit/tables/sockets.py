"""A table's WebSocket (``/api/tables/{code}/ws``), served for ``railkit.tables.live.TableServer``: the hello, the
seats-first admission, the messages a connection may send (``railkit.wire``).

Seats first: a learner with their seat's token always gets in (a seat's oldest connections make room beyond
``Limits.connections_per_seat``, closed with ``CLOSE_REPLACED``); spectators are admitted within their own caps, per
table and per client. Every message to a connection goes through its outbox (``railkit.tables.connection``), so a
table's lock is never held while a socket is waited on. A hello that arrives after the teacher closed the table
(the socket was opened before) is refused like any request for a closed table.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from railkit.errors import RuleError
from railkit.tables.connection import CLOSE_WAIT, Outbox, Watcher, serve_both
from railkit.tables.limits import RateLimiter
from railkit.tables.store import Conflict
from railkit.tables.table import Table, message_json
from railkit.tables.web import client_of
from railkit.wire import (
    CLOSE_CLOSED,
    CLOSE_REFUSED,
    CLOSE_REPLACED,
    ProtocolError,
    act_fields,
    encode,
    error_message,
    parse_message,
    pong,
)

if TYPE_CHECKING:
    from railkit.tables.live import TableServer

__all__ = ["FLOOD_CLOSE", "HELLO_SECONDS", "client_of", "serve_socket"]

HELLO_SECONDS = 10  # a new connection says hello within this, or it is closed
FLOOD_CLOSE = 200  # messages in a row beyond the rate (TABLES-RATE) before the connection is closed


async def serve_socket(server: TableServer, websocket: WebSocket) -> None:
    """One connection from its hello to its end."""
    await websocket.accept()
    try:
        table = await server.table(websocket.path_params["code"])
        hello = parse_message(await asyncio.wait_for(_receive(websocket), timeout=HELLO_SECONDS))
        if hello.get("type") != "hello":
            raise ProtocolError("bad_message", "TABLES-HELLO", "the first message is {\"type\": \"hello\", "
                                                               "\"token\": YOUR_SEAT_TOKEN} (no token: watch)")
        token = hello.get("token")
        limits = server.limits
        watcher = Watcher(websocket, None, None if token is None else str(token)[:200], client_of(websocket),
                          RateLimiter(limits.actions_per_second),
                          Outbox(websocket, limits.outbox_messages, limits.outbox_bytes))
        async with table.lock:
            if table.closed:  # closed, or set aside, while the hello came: the answer for its code now
                table = await server.table(table.code)
            table.check_open()
            _admit(server, table, watcher)
    except ProtocolError as exc:
        await _refuse(websocket, exc)
        return
    except (WebSocketDisconnect, TimeoutError):
        return
    receiver = asyncio.create_task(_serve(server, table, watcher))
    try:
        await serve_both(receiver, watcher.outbox)
    finally:
        server.watchers.get(table.code, set()).discard(watcher)
        if watcher.seat is not None:
            async with table.lock:
                if table.left(watcher.seat) and server.tables.get(table.code) is table:
                    server.broadcast(table)


def _admit(server: TableServer, table: Table, watcher: Watcher) -> None:
    """Under the table's lock: ``watcher`` joins the table's connections (seats first: a seat's token always gets
    in, its oldest connections making room; spectators within their caps) and is sent its first state."""
    watchers = server.watchers.setdefault(table.code, set())
    limits = server.limits
    if watcher.token is not None:
        seat = table.seat_of(watcher.token)
        if seat is None:
            raise ProtocolError("bad_token", "TABLES-TOKEN", "this seat token belongs to no seat at this "
                                                             "table; join again with the table's code")
        watcher.seat = seat
        same = sorted((w for w in watchers if w.seat == seat), key=lambda w: w.opened)
        for old in same[:max(0, len(same) - limits.connections_per_seat + 1)]:
            watchers.discard(old)
            old.close(CLOSE_REPLACED, ProtocolError("replaced", "TABLES-WATCHERS", "this seat was opened in newer "
                                                    "pages; this one stops (the newest ones play on)"))
    else:
        spectators = [w for w in watchers if w.seat is None]
        if len(spectators) >= limits.spectators_per_table:
            raise ProtocolError("limit", "TABLES-WATCHERS", "this table has as many spectators as it can take; "
                                                            "the learners at it always get in")
        if sum(w.client == watcher.client for w in spectators) >= limits.spectators_per_client:
            raise ProtocolError("limit", "TABLES-WATCHERS", f"at most {limits.spectators_per_client} pages may "
                                                            "watch one table from one place; close another first")
    watchers.add(watcher)
    seat = watcher.seat
    # A learner back after leaving: the others' lobbies see it (a first connection changes no one's lobby:
    # the seat was taken with the join, and "away" is sent with the next change).
    if seat is not None and table.connected(seat) and seat in table.left_at:
        server.broadcast(table)
    else:
        watcher.send(watcher.state(table))


async def _serve(server: TableServer, table: Table, watcher: Watcher) -> None:
    """The connection's messages, one at a time. Beyond the rate (TABLES-RATE) the first message is refused in words
    and the rest of the run dropped unanswered (a flood is never answered message for message); a connection
    that keeps on past ``FLOOD_CLOSE`` of them in a row is closed."""
    too_fast = 0
    while True:
        try:
            text = await _receive(watcher.socket)
        except WebSocketDisconnect:
            return
        if not watcher.limiter.allow():
            too_fast += 1
            if too_fast >= FLOOD_CLOSE:
                watcher.close(CLOSE_REFUSED, ProtocolError("too_fast", "TABLES-RATE", "this connection sent far more "
                                                           "messages than a page sends; it is closed"))
                return
            if too_fast == 1:
                watcher.send_error(ProtocolError("too_fast", "TABLES-RATE", f"at most "
                                                 f"{server.limits.actions_per_second:g} messages a second; wait a "
                                                 "moment and send again"), table.seq)
            continue
        too_fast = 0
        try:
            data = parse_message(text)
            kind = data["type"]
            if kind == "ping":
                watcher.send(pong())
            elif kind == "act":
                await _act(server, table, watcher, data)
            elif kind == "help":
                await _help(table, watcher)
            else:
                raise ProtocolError("bad_message", "TABLES-JSON", f"unknown message type {kind[:20]!r}; "
                                                                  "send act, help or ping")
        except ProtocolError as exc:
            watcher.send_error(exc, table.seq)
        except RuleError as exc:  # the engine's words travel as a message the client can translate
            watcher.send({**error_message("rule", exc.rule, exc.message, table.seq), "words": message_json(exc.message)})

async def _help(table: Table, watcher: Watcher) -> None:
    """The lessons' explanations for the asking seat only (``Table.help_for``); the request's other fields
    (an older page's ``hint``) are ignored."""
    if watcher.seat is None:
        raise ProtocolError("not_your_seat", "TABLES-SEAT", "help is for a seat; join the table with its code "
                                                            "to take one")
    async with table.lock:
        watcher.send(table.help_for(watcher.seat))

async def _act(server: TableServer, table: Table, watcher: Watcher, data: dict[str, Any]) -> None:
    seq, action = act_fields(data)
    if watcher.seat is None:
        raise ProtocolError("not_your_seat", "TABLES-SEAT", "a spectator cannot move; join the table with its "
                                                            "code to take a seat")
    async with table.lock:
        table.check_open()
        if table.seats[watcher.seat].holder != "human" or watcher.token is None \
                or table.seat_of(watcher.token) != watcher.seat:
            raise ProtocolError("not_your_seat", "TABLES-SEAT", "a computer player holds your seat now; ask the "
                                                                "table's creator to take it out")
        try:
            await table.act(server.store, watcher.seat, seq, action)
        except Conflict:
            raise ProtocolError("stale", "TABLES-SEQ", "another move was stored first; look again and move "
                                                       "anew") from None
        await table.run_bots(server.store)
        server.broadcast(table)


async def _refuse(websocket: WebSocket, exc: ProtocolError) -> None:
    """A refused hello: the error, then the close (given up after ``CLOSE_WAIT``: no lock is held here)."""
    try:
        async with asyncio.timeout(CLOSE_WAIT):
            await websocket.send_text(encode(error_message(exc.code, exc.rule, exc.message, None, **exc.details)))
            await websocket.close(code=CLOSE_CLOSED if exc.code == "closed" else CLOSE_REFUSED)
    except (Exception, asyncio.CancelledError):  # noqa: BLE001 - gone or not reading: nothing more to say
        pass


async def _receive(websocket: WebSocket) -> str | bytes:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if text is not None else bytes(message.get("bytes") or b"")
