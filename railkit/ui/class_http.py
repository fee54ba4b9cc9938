"""The kernel's one HTTP client for the class server (``railkit.tables``, ``railkit.classroom``): the table client
(``railkit.ui.tables.table_link``), the records (``railkit.ui.records.lesson_record``), "My progress"
(``railkit.ui.records.my_progress``) and the teacher's page (``railkit.ui.teacher.page``) all ask through
``ask``/``ask_json``.

Each request has a timeout, sends and reads JSON, reads at most a bounded answer, carries the hub token on the class
hub (``hub_headers``) and the keys under the headers ``railkit.wire`` names; every failure is one ``ServerProblem``:
the server's refusal with its error word, rule and details, ``offline`` when it did not answer, ``too_big`` for an
answer beyond the bound. A caller may take the answer gzipped (``gzip=True``: a seat's decisions at the end of a
table's game, ``railkit.ui.tables.table_review``); it is then unpacked no further than the bound.

Where the server is: ``RAILKIT_TABLES_URL`` (``make run`` sets it for Voila's kernels). On Binder (one
user per container) and in the static site (Pyodide: no sockets to a class server) there is none (``place``).
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
import zlib
from typing import Any

from railkit.wire import error_details

__all__ = ["HUB_TOKEN_VARIABLE", "TABLES_URL_VARIABLE", "ServerProblem", "ask", "ask_json", "hub_headers", "place",
           "tables_url"]

TABLES_URL_VARIABLE = "RAILKIT_TABLES_URL"
HUB_TOKEN_VARIABLE = "JUPYTERHUB_API_TOKEN"  # what a learner's server on the class hub gives its kernels
TIMEOUT_S = 15.0
MAX_ANSWER_BYTES = 4 * 1024 * 1024  # a table, a learner's records: far below this (the teacher's CSV asks for more)
MAX_REFUSAL_BYTES = 64 * 1024


class ServerProblem(Exception):
    """The class server refused a request or cannot be reached; ``code`` is its error word (``offline``: no
    answer, ``too_big``: an answer beyond the bound), ``rule`` the rule or limit it names, ``words`` the engine's
    refusal as a translatable message (JSON) when the rules refused, ``details`` what a page words itself (the
    names in use, a suggestion, seconds to wait)."""

    def __init__(self, code: str, message: str, rule: str | None = None, words: Any = None,
                 details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message
        self.words = words
        self.details = details or {}


def place() -> str:
    """Where the lesson runs: ``"browser"`` (the static site, Pyodide), ``"binder"``, ``"none"`` (no table
    server configured) or ``"server"``."""
    if sys.platform == "emscripten":
        return "browser"
    if any(key.startswith("BINDER_") for key in os.environ):
        return "binder"
    if not os.environ.get(TABLES_URL_VARIABLE):
        return "none"
    return "server"


def tables_url() -> str:
    return os.environ.get(TABLES_URL_VARIABLE, "").rstrip("/")


def hub_headers() -> dict[str, str]:
    """On the class hub the table server is a service of the hub: the kernel's hub API token says which hub user
    this is (``railkit.tables.hub``). Elsewhere there is no token and nothing is added."""
    token = os.environ.get(HUB_TOKEN_VARIABLE, "").strip()
    return {"Authorization": f"token {token}"} if token else {}


def ask(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None, *,
        timeout: float = TIMEOUT_S, max_bytes: int = MAX_ANSWER_BYTES, gzip: bool = False) -> bytes:
    """The answer's bytes to one request (``body`` sent as JSON), at most ``max_bytes`` (``gzip``: taken gzipped,
    at most ``max_bytes`` both as it comes and unpacked); ``ServerProblem`` otherwise."""
    data = None if body is None else json.dumps(body).encode()
    wanted = {"Accept-Encoding": "gzip"} if gzip else {}
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **wanted, **hub_headers(),
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer = bytes(response.read(max_bytes + 1))
            if gzip and response.headers.get("Content-Encoding", "").lower() == "gzip" and len(answer) <= max_bytes:
                answer = _unpacked(answer, max_bytes)
    except urllib.error.HTTPError as exc:
        try:
            found = json.loads(exc.read(MAX_REFUSAL_BYTES))
        except ValueError:
            found = {}
        if not isinstance(found, dict):
            found = {}
        raise ServerProblem(str(found.get("error", "refused")), str(found.get("message", exc.reason)),
                            found.get("rule"), found.get("words"),
                            error_details(found)) from None
    except (OSError, ValueError) as exc:
        raise ServerProblem("offline", str(exc)) from None
    if len(answer) > max_bytes:
        raise ServerProblem("too_big", f"the server's answer is longer than {max_bytes} bytes")
    return answer


def _unpacked(packed: bytes, max_bytes: int) -> bytes:
    """A gzipped answer unpacked, no further than ``max_bytes + 1`` (the caller refuses what is longer)."""
    unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        return unpacker.decompress(packed, max_bytes + 1)
    except zlib.error as exc:
        raise ValueError(f"the server's gzipped answer cannot be unpacked: {exc}") from None


def ask_json(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None, *,
             timeout: float = TIMEOUT_S, max_bytes: int = MAX_ANSWER_BYTES, gzip: bool = False) -> Any:
    """The JSON answer to one request; ``ServerProblem`` otherwise (``offline`` for an answer that is no JSON)."""
    answer = ask(method, url, body, headers, timeout=timeout, max_bytes=max_bytes, gzip=gzip)
    try:
        return json.loads(answer)
    except ValueError as exc:
        raise ServerProblem("offline", f"the server's answer is not JSON: {exc}") from None
