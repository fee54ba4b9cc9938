"""One WebSocket on a table (``Watcher``) and how messages reach it without the table ever waiting on it.

Everything a connection is sent goes through its own bounded ``Outbox``, emptied by one sender task per
connection. The table's changes only put messages there (under the table's lock, which never waits on a socket);
the sender waits on the socket alone. A connection that does not read falls behind: once its outbox holds more
than ``Limits.outbox_messages`` messages or ``Limits.outbox_bytes`` bytes, what is queued is dropped and the
connection is closed with ``CLOSE_BEHIND`` (4408), which tells the client to connect again at once and take the
whole state (``railkit.ui.tables.table_link`` does). A sender that cannot even hand over its closing frame is given up
after ``CLOSE_WAIT`` seconds, so no connection is served for ever by a peer that never reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket

from railkit.tables.limits import RateLimiter
from railkit.wire import CLOSE_BEHIND, ProtocolError, encode, error_message

if TYPE_CHECKING:
    from railkit.tables.table import Table

__all__ = ["CLOSE_WAIT", "Outbox", "Watcher"]

CLOSE_WAIT = 10.0  # seconds a closing connection may take to hand over its last words


class Outbox:
    """The messages on their way to one socket, at most ``max_messages`` of them and ``max_bytes`` in all."""

    def __init__(self, socket: WebSocket, max_messages: int, max_bytes: int) -> None:
        self.socket = socket
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self.queue: deque[str] = deque()
        self.size = 0
        self.closing: tuple[int, str | None] | None = None  # the close code and the last message before it
        self.behind = False  # closed for falling behind
        self._wake = asyncio.Event()

    def put(self, text: str) -> bool:
        """Queue ``text`` (never waits); False when the connection is closing or has just fallen behind."""
        if self.closing is not None:
            return False
        if len(self.queue) >= self.max_messages or self.size + len(text) > self.max_bytes:
            self.behind = True
            self.queue.clear()
            self.size = 0
            self.close(CLOSE_BEHIND, encode(error_message(
                "behind", "TABLES-BEHIND", "this connection fell behind the table (its messages were not read); "
                "connect again to get the whole table")))
            return False
        self.queue.append(text)
        self.size += len(text)
        self._wake.set()
        return True

    def close(self, code: int, last: str | None = None) -> None:
        """Close after what is queued (never waits): ``last`` is sent first, then the close frame with ``code``."""
        if self.closing is None:
            self.closing = (code, last)
            self._wake.set()

    async def run(self) -> None:
        """The sender: hand each message to the socket in order, then close when asked. Ends when the connection
        is closed or gone."""
        socket = self.socket
        try:
            while True:
                while self.queue:
                    text = self.queue.popleft()
                    self.size -= len(text)
                    await socket.send_text(text)
                if self.closing is not None:
                    break
                self._wake.clear()
                await self._wake.wait()
            code, last = self.closing
            async with asyncio.timeout(CLOSE_WAIT):
                if last is not None:
                    await socket.send_text(last)
                await socket.close(code=code)
        except (Exception, asyncio.CancelledError):  # gone, or given up: the connection ends either way
            pass


@dataclass(eq=False)
class Watcher:
    """One open WebSocket on a table: a seat's holder or a spectator (``seat`` None), from ``client`` (the hub user,
    else the address it came from)."""

    socket: WebSocket
    seat: str | None
    token: str | None
    client: str
    limiter: RateLimiter
    outbox: Outbox
    # What this client has been sent: the log up to ``log_sent`` (with ``reveals_seen`` of the table's
    # reveals in it) and the narrative up to ``narrative_sent``, under the table's ``epoch``; the replay once.
    epoch: int = -1
    log_sent: int = 0
    reveals_seen: int = 0
    narrative_sent: int = 0
    replay_sent: bool = False
    legal_sent: list[Any] = field(default_factory=list)  # the moves last sent (as the engine's actions)
    opened: float = field(default_factory=time.monotonic)

    def send(self, message: Mapping[str, object] | str) -> bool:
        """Queue one message for this connection (never waits)."""
        return self.outbox.put(message if isinstance(message, str) else encode(message))

    def send_error(self, exc: ProtocolError, seq: int | None) -> None:
        self.send(error_message(exc.code, exc.rule, exc.message, seq, **exc.details))

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
        state = table.state_for(self.seat, log_from, self.narrative_sent, legal, same, replay=not self.replay_sent)
        self.replay_sent = self.replay_sent or "replay" in state
        self.legal_sent = legal
        self.log_sent, self.reveals_seen, self.narrative_sent = table.seq, len(table.reveals), state["narrative_length"]
        return encode(state)

    def close(self, code: int, exc: ProtocolError | None = None) -> None:
        """Close this connection (never waits), saying why first when ``exc`` is given."""
        last = None if exc is None else encode(error_message(exc.code, exc.rule, exc.message, None, **exc.details))
        self.outbox.close(code, last)


async def serve_both(receiver: asyncio.Task[None], outbox: Outbox) -> None:
    """Run ``outbox``'s sender beside ``receiver`` until either ends: a closed outbox ends the connection, a
    client that left ends the sender. The other is cancelled."""
    sender = asyncio.create_task(outbox.run())
    try:
        await asyncio.wait({receiver, sender}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (receiver, sender):
            task.cancel()
        for task in (receiver, sender):
            with contextlib.suppress(BaseException):
                await task
