"""The table server's limits (``Limits``: each error that enforces one names it, ``TABLES-...``) and the token bucket
that keeps a connection or a client to its rate (``RateLimiter``). The messages themselves are ``railkit.wire``'s."""

from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = ["Limits", "RateLimiter"]


@dataclass(frozen=True)
class Limits:
    """The server's limits; each error that enforces one names it (``TABLES-...``)."""

    max_tables: int = 200  # TABLES-COUNT: tables held by one server
    actions_per_second: float = 20.0  # TABLES-RATE: messages per second per connection (a burst of twice that)
    # Seats first: a learner with their seat's token always gets in; a seat's oldest connections give way to its
    # newest beyond ``connections_per_seat`` (a reload is never refused). Spectators have caps of their own
    # (TABLES-WATCHERS): per table, and per client (the hub user, else the address) at one table.
    connections_per_seat: int = 4
    spectators_per_table: int = 48
    spectators_per_client: int = 16
    # A connection's outbox (``railkit.tables.connection``): beyond this it has fallen behind and is closed (4408).
    outbox_messages: int = 64
    outbox_bytes: int = 2 * 1024 * 1024
    # TABLES-DEAL: may a table's creator choose its deal (a seed, a stacked deck)? Only for tests and demonstrations
    # (``--chosen-deals``); such a table says so to everyone at it.
    chosen_deals: bool = False
    # TABLES-STAND-IN: the table's creator may put a computer player in a learner's seat only once that learner
    # has had no connection for this long (a reload or a lost Wi-Fi is back well within it); the teacher may at once.
    stand_in_after: float = 60.0


class RateLimiter:
    """A token bucket: ``rate`` messages per second, bursts of ``burst`` (default ``2 * rate``)."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = rate
        self.capacity = 2 * rate if burst is None else burst
        self.tokens = self.capacity
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
