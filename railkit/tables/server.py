"""The class server's app (``create_app``): the live tables (``railkit.tables``: a small HTTP API to create and
join tables, one WebSocket per learner or spectator for the game itself) and the classroom (``railkit.classroom``:
the learners' records, their own progress, the teacher's reports and actions) mounted side by side. This is the one
module that imports both; neither imports the other (``pyproject.toml``'s ``tables-classroom`` contracts).

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
* ``POST /api/records`` one event of a learner's lesson (``railkit.classroom.records``) -> 201 ``{"ok": true}``
  (with ``"learner_key"``, the name's progress key, after the first record under a name).
* ``GET /api/records?learner=NAME`` with that name's progress key: the learner's own records
  (``railkit.classroom.progress``).
* ``/api/teacher/...``: the teacher's reports, with the teacher key only (``railkit.classroom.teacher``).
* A table the teacher closed answers 410 ``closed`` (TEACHER-CLOSE) to its code, on every route and the WebSocket,
  for as long as its code is kept (``railkit.tables.store``, the newest 1000 closed codes), also to a request or a
  socket that came before the close and is answered after it. A stored table that does not replay here is set
  aside (``SetAsideTable``, listed for the teacher): its code answers 409 ``set_aside`` (TABLES-REPLAY).
* ``POST /api/teacher/tables/{code}/bot`` and ``.../close``: the same, and closing a table, for the teacher.
* ``POST /api/tables/{code}/creator`` ``{"creator_token"}`` -> 200 if it is the table's creator token, else 403.
* ``POST /api/tables/{code}/decisions`` ``{"token", "seat"?}`` -> ``{"table", "game", "seat", "seq", "complete",
  "total", "decisions": [{"move", "view", "legal", "made"}]}``: once the game is over, the seat's own decisions (each
  move where it had a choice: the move number from 1, its own view then, its legal moves, the move it made), for the
  search review at the table (``railkit.tables.decisions``: the bounds, gzipped when the client accepts it). To the
  seat's own token only: no token (a spectator) or another seat named is 403 ``not_your_seat``, a token of no seat
  403 ``bad_token`` (TABLES-TOKEN), a game not over 409 ``not_over`` (TABLES-REVIEW).

Under the class hub (``create_app(hub=...)``, ``--hub-auth``) every request first signs in with a hub API token
(``railkit.tables.hub``; 403 ``TABLES-HUB`` without one) and a learner sits and is recorded under their hub name.

WebSocket ``/api/tables/{code}/ws``: see ``railkit.wire`` and ``railkit.tables.sockets``.
The tables themselves: ``railkit.tables.live``.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from railkit.classroom.progress import progress_routes
from railkit.classroom.records import RecordLimits, Records
from railkit.classroom.teacher import teacher_routes
from railkit.errors import RuleError
from railkit.tables.hub import HubSignIn, RequireHubUser
from railkit.tables.limits import Limits
from railkit.tables.listen import listen
from railkit.tables.live import SetAsideTable, TableServer
from railkit.tables.sockets import serve_socket
from railkit.tables.store import Store
from railkit.tables.web import refusal
from railkit.wire import ProtocolError

__all__ = ["SetAsideTable", "TableServer", "create_app"]


def create_app(store: Store, limits: Limits | None = None, teacher_key: str | None = None,
               record_limits: RecordLimits | None = None, hub: HubSignIn | None = None) -> Starlette:
    """The server's app; without ``teacher_key`` the teacher's endpoints refuse everyone. With ``hub`` every
    request signs in through JupyterHub (``railkit.tables.hub``) and the hub, not the key, says who teaches."""
    server = TableServer(store, limits or Limits())
    records = Records(store.engine, record_limits)
    store.origin = store.origin or secrets.token_hex(8)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await server.load()
        await store.run(records.counts)
        listener = None
        if store.shared:
            ready = asyncio.Event()
            listener = asyncio.create_task(listen(store.url, store.origin, server.changed_elsewhere, ready))
            await asyncio.wait_for(ready.wait(), timeout=30)
        yield
        if listener is not None:
            listener.cancel()
        store.close()

    async def socket(websocket: WebSocket) -> None:
        await serve_socket(server, websocket)

    app = Starlette(
        routes=[
            Route("/api/tables", server.create, methods=["POST"]),
            Route("/api/tables/{code}", server.show, methods=["GET"]),
            Route("/api/tables/{code}/join", server.join, methods=["POST"]),
            Route("/api/tables/{code}/bot", server.bot, methods=["POST"]),
            Route("/api/tables/{code}/creator", server.creator, methods=["POST"]),
            Route("/api/tables/{code}/decisions", server.decisions, methods=["POST"]),
            WebSocketRoute("/api/tables/{code}/ws", socket),
            *progress_routes(records, store, teacher_key),
            *teacher_routes(server, records, store, teacher_key),
        ],
        exception_handlers={ProtocolError: refusal, RuleError: refusal},
        middleware=[] if hub is None else [Middleware(RequireHubUser, sign_in=hub)],
        lifespan=lifespan,
    )
    app.state.tables = server
    app.state.records = records
    return app
