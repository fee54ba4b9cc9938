"""What every HTTP route of the class server shares, the live tables' (``railkit.tables``) and the classroom's
(``railkit.classroom``): a request's JSON body read no further than ``MAX_MESSAGE_BYTES`` (``read_body``), who is
calling for the per-client limits (``client_of``), and a refusal as the wire's error object with its HTTP status
(``refusal``). It imports neither side, so both can stand on it."""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse

from railkit.errors import RuleError
from railkit.tables.hub import hub_user
from railkit.tables.names import name_key
from railkit.wire import MAX_MESSAGE_BYTES, ProtocolError, error_message, parse_object

__all__ = ["STATUS", "client_of", "read_body", "refusal"]

STATUS = {"no_table": 404, "not_creator": 403, "not_teacher": 403, "not_learner": 403, "not_signed_in": 403,
          "hub_down": 503, "too_fast": 429, "seat_taken": 409, "no_seat": 409, "name_taken": 409, "seat_connected": 409,
          "closed": 410, "limit": 429, "too_big": 413, "stale": 409, "set_aside": 409,
          "bad_token": 403, "not_your_seat": 403, "not_over": 409}


def client_of(connection: HTTPConnection) -> str:
    """Who is calling, for the per-client limits: the hub user on the class hub, else the address it came from."""
    user = hub_user(connection)
    if user is not None:
        return f"hub:{name_key(user.name)}"
    return f"ip:{connection.client.host if connection.client else '?'}"


async def read_body(request: Request) -> dict[str, Any]:
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


async def refusal(request: Request, exc: Exception) -> JSONResponse:
    """A refused request (``ProtocolError``, or the rules' ``RuleError``) as the wire's error object."""
    if isinstance(exc, RuleError):
        return JSONResponse(error_message("rule", exc.rule, exc.message), status_code=400)
    assert isinstance(exc, ProtocolError)
    return JSONResponse(error_message(exc.code, exc.rule, exc.message, **exc.details),
                        status_code=STATUS.get(exc.code, 400))
