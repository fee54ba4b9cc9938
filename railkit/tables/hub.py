"""Sign-in through JupyterHub: on the class hub (deploy/) the table server is a managed service of the hub and
the learners are the hub's users.

Every HTTP request and WebSocket carries a hub API token (``Authorization: token TOKEN``): the lessons' kernels
send the ``$JUPYTERHUB_API_TOKEN`` their server gave them. The hub says whose token it is and which scopes it
holds (``jupyterhub.services.auth.HubAuth.user_for_token``; answers are cached for a few minutes):

* ``access:services!service=<this service>`` lets a hub user in (deploy/ gives it to every learner's server);
  a request without a token, with one the hub does not know, or with one lacking that scope gets 403
  (``TABLES-HUB``) and changes nothing;
* ``TEACHER_SCOPE`` (deploy/ gives it to the hub's admins and the ``teachers`` group), the hub's admin flag or
  membership of ``TEACHER_GROUP`` opens the teacher's endpoints, in place of the teacher key;
* the name a learner sits under and is recorded under is the hub user name (in NFC), whatever the request says.

Without ``--hub-auth`` (``make run``) nothing here runs and ``jupyterhub`` need not be installed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from railkit.tables.names import normal_name
from railkit.wire import ProtocolError, error_message

__all__ = ["TEACHER_GROUP", "TEACHER_SCOPE", "HubProblem", "HubSignIn", "HubUser", "RequireHubUser", "hub_user"]

TEACHER_SCOPE = "custom:railkit-teacher"
TEACHER_GROUP = "teachers"
MAX_TOKEN_LENGTH = 400
STATE_KEY = "hub_user"  # where a signed-in request keeps its user (the request's ``state``)


class HubProblem(ValueError):
    """``--hub-auth`` cannot work here: jupyterhub is not installed or the hub gave no token or service name."""


@dataclass(frozen=True)
class HubUser:
    """A hub user the hub vouched for: the name they sit and are recorded under, and whether they teach."""

    name: str
    teacher: bool


def token_from(headers: Mapping[str, str]) -> str:
    """The token of ``Authorization: token TOKEN`` (or ``Bearer TOKEN``), or ""."""
    kind, _, value = headers.get("authorization", "").strip().partition(" ")
    if kind.lower() not in ("token", "bearer"):
        return ""
    return value.strip()[:MAX_TOKEN_LENGTH + 1]


class HubSignIn:
    """Asks the hub who holds a token. ``auth`` is a ``jupyterhub.services.auth.HubAuth`` (by default made from
    the environment the hub gives its managed services: ``JUPYTERHUB_API_URL``, ``JUPYTERHUB_API_TOKEN``,
    ``JUPYTERHUB_SERVICE_NAME``)."""

    def __init__(self, auth: Any = None) -> None:
        if auth is None:
            auth = _auth_from_environment()
        self.auth = auth
        self.access_scopes: set[str] = set(auth.access_scopes)
        if not self.access_scopes:
            raise HubProblem("TABLES-HUB: no access scope to check; run the table server as a service of the hub "
                             "($JUPYTERHUB_SERVICE_NAME) or give HubAuth.access_scopes")

    async def identify(self, headers: Mapping[str, str]) -> HubUser:
        """The hub user holding the request's token; ``ProtocolError`` (403, or 503 when the hub does not answer)."""
        token = token_from(headers)
        if not token or len(token) > MAX_TOKEN_LENGTH:
            raise ProtocolError("not_signed_in", "TABLES-HUB", "this table server is the class hub's: send your hub "
                                "API token (header Authorization: token ...); the lessons on the hub do it themselves")
        try:
            model = await self.auth.user_for_token(token, sync=False)
        except Exception as exc:  # tornado's HTTPError: the hub failed or could not be reached
            raise ProtocolError("hub_down", "TABLES-HUB", f"the hub could not say who you are just now "
                                                          f"({getattr(exc, 'log_message', None) or exc}); try again") from None
        if not model or model.get("kind", "user") != "user" or not isinstance(model.get("name"), str):
            raise ProtocolError("not_signed_in", "TABLES-HUB", "the hub knows no user with this token (expired, or "
                                                               "not a user's); log in to the hub again")
        scopes = set(model.get("scopes") or ())
        if not self.auth.check_scopes(self.access_scopes, {"scopes": scopes}):
            raise ProtocolError("not_signed_in", "TABLES-HUB", f"this hub token does not carry the scope "
                                f"{' or '.join(sorted(self.access_scopes))}; the hub gives it to every learner's server")
        teacher = bool(self.auth.check_scopes({TEACHER_SCOPE}, {"scopes": scopes})) or model.get("admin") is True \
            or TEACHER_GROUP in (model.get("groups") or ())
        return HubUser(normal_name(model["name"]), teacher)  # in NFC, as every name the tables store


def _auth_from_environment() -> Any:
    try:
        from jupyterhub.services.auth import HubAuth
    except ImportError:
        raise HubProblem("TABLES-HUB: --hub-auth needs the jupyterhub package (deploy/install.sh puts it in the "
                         "learners' environment, which runs the table server)") from None
    missing = [v for v in ("JUPYTERHUB_API_TOKEN", "JUPYTERHUB_API_URL") if not os.environ.get(v)]
    if missing:
        raise HubProblem(f"TABLES-HUB: --hub-auth runs as a service of the hub, which sets {' and '.join(missing)}; "
                         "see deploy/jupyterhub_config.py")
    return HubAuth()


def hub_user(connection: HTTPConnection) -> HubUser | None:
    """The request's hub user (None when the server runs without the hub)."""
    found = connection.scope.get("state", {}).get(STATE_KEY)
    return found if isinstance(found, HubUser) else None


class RequireHubUser:
    """ASGI middleware: every HTTP request and WebSocket handshake signs in through the hub or is refused with
    403 and a JSON error (a WebSocket with the denial response, before it opens)."""

    def __init__(self, app: ASGIApp, sign_in: HubSignIn) -> None:
        self.app = app
        self.sign_in = sign_in

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        try:
            user = await self.sign_in.identify(Headers(scope=scope))
        except ProtocolError as exc:
            await _refuse(scope, receive, send, exc)
            return
        scope.setdefault("state", {})[STATE_KEY] = user
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, exc: ProtocolError) -> None:
    status = 503 if exc.code == "hub_down" else 403
    response = JSONResponse(error_message(exc.code, exc.rule, exc.message), status_code=status)
    if scope["type"] == "http" or "websocket.http.response" in scope.get("extensions", {}):
        await response(scope, receive, send)
    else:  # a server without the denial response: closing before accepting answers 403 without words
        await send({"type": "websocket.close", "code": 1008})
