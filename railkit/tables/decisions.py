"""A seat's own decisions in a finished game, sent to that seat for the search review ("Review my game",
``railkit.lab.review``) at a table: ``POST /api/tables/{code}/decisions`` ``{"token", "seat"?}``.

The play lessons review a game by replaying its log from the deal; a table's kernel holds neither (the replay it is
sent has no deal and no card hidden for good). So the server, which holds the game, replays it once per table and
seat (``railkit.lab.review.decisions_of``: the same decisions the play lessons review, each where the seat had
more than one legal move) and sends the seat, for each: the move number (1-based in the log), the seat's own view
then (``Game.view(seat)``, as a state sends it) with its legal moves, and the move it made, in the engine's dict
form. Nothing else: no other seat's view, hand or sealed bid, no seed. Only the seat's own token gets them, and only
once the game is over (``TableServer.decisions``; the refusals are ``railkit.wire``'s errors).

Bounds: at most ``MAX_DECISIONS`` decisions and ``MAX_RAW_BYTES`` of JSON (a Union Pacific seat of a two-player
game, the longest, has about 165 decisions in 2.6 MB, most of it the legal moves at each build); beyond either the
first decisions that fit are sent, with ``"complete": false``. The answer travels gzipped to a client that accepts it
(the kernel does: 2.6 MB is 80 kB), and is made off the event loop (``REVIEW_THREADS`` threads) once per table and
seat, kept for the latest ``CACHED_ANSWERS`` asked (gzipped, about 100 kB each); two requests at once for the same
seat share one making.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import anyio

from railkit.game import Game
from railkit.lab.review import decisions_of

__all__ = ["CACHED_ANSWERS", "MAX_DECISIONS", "MAX_RAW_BYTES", "REVIEW_THREADS", "DecisionAnswers",
           "seat_decisions"]

MAX_DECISIONS = 500  # a seat's decisions in one answer (a whole game of the longest kind has about 165)
MAX_RAW_BYTES = 16 * 1024 * 1024  # the answer's JSON before gzip (about 40 times less after)
CACHED_ANSWERS = 64  # answers kept (gzipped), the latest asked
REVIEW_THREADS = 2  # answers made at once, off the event loop


def seat_decisions(game: Game[Any], seat: str, code: str) -> bytes:
    """The answer for ``seat`` in the finished ``game`` at table ``code``, as UTF-8 JSON (module docstring): its own
    views and moves only."""
    to_dict = game.registry.to_dict
    items: list[str] = []
    size, total = 0, 0
    for move, view, legal, made in decisions_of(game, seat):
        total += 1
        if len(items) >= MAX_DECISIONS or size > MAX_RAW_BYTES:
            continue
        item = json.dumps({"move": move, "view": view.to_json(), "legal": [to_dict(a) for a in legal],
                           "made": to_dict(made)}, ensure_ascii=False)
        if size + len(item) > MAX_RAW_BYTES:
            size = MAX_RAW_BYTES + 1  # nothing more fits
            continue
        items.append(item)
        size += len(item) + 1
    head = json.dumps({"table": code, "game": game.GAME, "seat": seat, "seq": len(game.log),
                       "complete": len(items) == total, "total": total}, ensure_ascii=False)
    return (head[:-1] + ', "decisions": [' + ",".join(items) + "]}").encode()


class DecisionAnswers:
    """The answers made so far (gzipped), the latest ``CACHED_ANSWERS`` asked, each made once off the event loop."""

    def __init__(self, kept: int = CACHED_ANSWERS, threads: int = REVIEW_THREADS) -> None:
        self.kept = kept
        self.threads = threads
        self._answers: OrderedDict[Hashable, bytes] = OrderedDict()
        self._making: dict[Hashable, asyncio.Future[bytes]] = {}
        self._limiter: anyio.CapacityLimiter | None = None

    async def get(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        """The gzipped answer for ``key``: kept, being made for another request, or made now by ``make``."""
        found = self._answers.get(key)
        if found is not None:
            self._answers.move_to_end(key)
            return found
        making = self._making.get(key)
        if making is not None:
            return await asyncio.shield(making)
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.threads)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._making[key] = future
        try:
            answer = await anyio.to_thread.run_sync(lambda: gzip.compress(make(), 6), limiter=self._limiter)
        except BaseException as exc:
            if isinstance(exc, Exception):
                future.set_exception(exc)
                future.exception()  # retrieved here: a request that shared it raises it too
            else:  # cancelled (the client went away): a request that shared it asks again
                future.cancel()
            raise
        finally:
            self._making.pop(key, None)
        future.set_result(answer)
        self._answers[key] = answer
        while len(self._answers) > self.kept:
            self._answers.popitem(last=False)
        return answer
