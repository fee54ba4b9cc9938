"""The lesson kernel's side of a class table: a thin client of the table server (``railkit.tables``).

The learner's browser talks only to Voila; the lesson's kernel talks to the table server: HTTP to
create or join a table, one WebSocket for the game. The socket is read on a background thread that
hands every state the server pushes to ``on_state`` (the panel then updates its existing widgets; it
never displays new output from that thread). A lost connection is retried every second, so a table
server restarted after a crash finds every learner again; the server's state is always the truth.
How the server ended a connection says what to do (``railkit.wire``'s close codes): a connection that fell
behind (``CLOSE_BEHIND``: this kernel did not read for a while) connects again at once and takes the whole state;
one the server refused, a closed table and a seat opened in newer pages (``CLOSE_REPLACED``) are not retried.

HTTP goes through ``railkit.ui.class_http`` (where the server is, the hub token, ``ServerProblem``); the messages
are ``railkit.wire``'s.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from railkit.ui.class_http import HUB_TOKEN_VARIABLE, TABLES_URL_VARIABLE, ServerProblem, ask_json, hub_headers, place, tables_url
from railkit.ui.records.learner import address_fields
from railkit.wire import CLOSE_BEHIND, CLOSE_FINAL, act, encode, error_details, hello, help_request, is_table_code, merge_state

__all__ = ["HUB_TOKEN_VARIABLE", "TABLES_URL_VARIABLE", "TableLink", "creator_from_query", "hub_headers",
           "is_table_code", "merge_state", "place", "seat_from_query", "table_from_query", "tables_url",
           "watch_from_query"]

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0  # a lost connection is tried again this often (a restarted server is back within seconds)
# A seat's decisions at the end (the server sends at most 16 MiB, railkit.tables.decisions.MAX_RAW_BYTES), made once
# per seat: a Union Pacific game's take about a second on a loaded machine.
DECISIONS_MAX_BYTES = 16 * 1024 * 1024 + 4096
DECISIONS_TIMEOUT_S = 60.0
FINAL_CLOSES = CLOSE_FINAL  # the server's "do not come back" (railkit.wire)


def seat_from_query(query: str | None = None) -> tuple[str, str] | None:
    """(table code, seat token) from the page address (``?table=ABC234&seat=...``), if it holds both."""
    fields = address_fields(query)
    code, token = fields.get("table", [""])[-1].strip(), fields.get("seat", [""])[-1].strip()
    if not code or not token or len(code) > 12 or len(token) > 200:
        return None
    return code.upper(), token


def watch_from_query(query: str | None = None) -> str | None:
    """The table a page watches as a spectator (``?watch=ABC234``: the teacher's link), if the code is one."""
    code = address_fields(query).get("watch", [""])[-1].strip().upper()
    return code if is_table_code(code) else None


def table_from_query(query: str | None = None) -> str | None:
    """A table's code in the page address without a seat (``?table=ABC234``: a class's link), if it is one."""
    fields = address_fields(query)
    code = fields.get("table", [""])[-1].strip().upper()
    return code if is_table_code(code) and not fields.get("seat") else None


def creator_from_query(query: str | None = None) -> str | None:
    """The table creator's token from the page address (``&creator=...``, kept beside the seat's), if any."""
    token = address_fields(query).get("creator", [""])[-1].strip()
    return token if token and len(token) <= 200 else None


def _request(method: str, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = ask_json(method, url, body)
    return answer


class TableLink:
    """One learner's connection to one table (after ``create`` or ``join``, ``connect``)."""

    def __init__(self, on_state: Callable[[dict[str, Any]], object],
                 on_problem: Callable[[ServerProblem], object], base_url: str | None = None,
                 on_help: Callable[[dict[str, Any]], object] | None = None) -> None:
        self.base = (base_url or tables_url()).rstrip("/")
        self.on_state = on_state
        self.on_problem = on_problem
        self.on_help = on_help
        self.code: str | None = None
        self.token: str | None = None
        self.creator_token: str | None = None
        self.state: dict[str, Any] | None = None
        self.online = False
        self._socket: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._send_lock = threading.Lock()
        self._merged_since_connect = False

    # -- HTTP ------------------------------------------------------------------------------------
    def create(self, game: str, seats: list[str], bots: list[str], take: str,
               options: dict[str, Any] | None = None) -> dict[str, Any]:
        made = _request("POST", f"{self.base}/api/tables", {"game": game, "seats": seats, "bots": bots,
                                                             "take": take, "options": options or {}})
        self.code, self.token, self.creator_token = made["table"], made["token"], made["creator_token"]
        return made

    def join(self, code: str, name: str | None = None) -> dict[str, Any]:
        """A seat at table ``code``: the open seat called ``name`` if there is one, else the first open one,
        which then takes that name (if it has not moved yet)."""
        code = code.strip().upper()
        joined = _request("POST", f"{self.base}/api/tables/{code}/join", {"name": name} if name else {})
        self.code, self.token = joined["table"], joined["token"]
        return joined

    def set_bot(self, seat: str, bot: bool) -> dict[str, Any]:
        if self.code is None or self.creator_token is None:
            raise ServerProblem("not_creator", "only the table's creator can seat a computer player")
        return _request("POST", f"{self.base}/api/tables/{self.code}/bot",
                        {"creator_token": self.creator_token, "seat": seat, "bot": bot})

    def claim_creator(self, token: str) -> bool:
        """Take back the creator's controls with the token the page address kept; False if the server says
        it is not this table's creator token (a problem of another kind raises ``ServerProblem``)."""
        if self.code is None:
            return False
        try:
            _request("POST", f"{self.base}/api/tables/{self.code}/creator", {"creator_token": token})
        except ServerProblem as exc:
            if exc.code == "not_creator":
                return False
            raise
        self.creator_token = token
        return True

    def decisions(self) -> dict[str, Any]:
        """This seat's own decisions in its finished game (``railkit.tables.decisions``), for the search review:
        gzipped on the way, at most ``DECISIONS_MAX_BYTES`` unpacked; ``ServerProblem`` when refused or unanswered."""
        if self.code is None or self.token is None:
            raise ServerProblem("bad_token", "this page holds no seat at a table")
        body = {"token": self.token}
        if self.state is not None and self.state.get("seat") is not None:
            body["seat"] = str(self.state["seat"])
        answer: dict[str, Any] = ask_json("POST", f"{self.base}/api/tables/{self.code}/decisions", body,
                                          timeout=DECISIONS_TIMEOUT_S, max_bytes=DECISIONS_MAX_BYTES, gzip=True)
        return answer

    # -- the WebSocket -----------------------------------------------------------------------------
    def connect(self, code: str | None = None, token: str | None = None) -> None:
        """Open the table's socket on a background thread (kept open, reconnecting, until ``close``)."""
        self.close()
        self.code = code or self.code
        self.token = token or self.token
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(self._stop,), name=f"railkit-table-{self.code}",
                                        daemon=True)
        self._thread.start()

    def act(self, action: dict[str, Any]) -> None:
        """Send a move made from the position last seen; the answer comes as a new state (or a problem)."""
        if self.state is None or self._socket is None or not self.online:
            raise ServerProblem("offline", "the table server cannot be reached just now")
        message = encode(act(self.state["seq"], action))
        with self._send_lock:
            try:
                self._socket.send(message)
            except Exception as exc:  # noqa: BLE001 - the reading thread reconnects
                raise ServerProblem("offline", str(exc)) from None

    def ask_help(self) -> None:
        """Ask the server for this seat's help (the explanations the kernel cannot work out from the seat's view);
        the answer comes to ``on_help``."""
        if self._socket is None:
            raise ServerProblem("offline", "the table server cannot be reached just now")
        with self._send_lock:
            try:
                self._socket.send(encode(help_request()))
            except Exception as exc:  # noqa: BLE001 - the reading thread reconnects
                raise ServerProblem("offline", str(exc)) from None

    def close(self) -> None:
        self._stop.set()
        socket, self._socket = self._socket, None
        if socket is not None:
            try:
                socket.close()
            except Exception:  # noqa: BLE001 - already closed
                pass

    def _run(self, stop: threading.Event) -> None:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        url = self.base.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
        told = False  # the page was told the connection is lost (once per loss)
        while not stop.is_set():
            try:
                with connect(f"{url}/api/tables/{self.code}/ws", open_timeout=10, max_size=None,
                             additional_headers=hub_headers()) as socket:
                    socket.send(encode(hello(self.token)))
                    self._merged_since_connect = False  # a new connection starts with the whole state
                    self._socket = socket
                    told = False
                    while not stop.is_set():
                        message = json.loads(socket.recv())
                        self._take(message, stop)
            except ServerProblem:
                return  # the table or the seat is gone: trying again would not help
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                if code in FINAL_CLOSES or stop.is_set():
                    self.online = False
                    self._socket = None
                    return
                if code == CLOSE_BEHIND:  # this kernel read too slowly: back at once, for the whole state
                    self._socket = None
                    continue
                told = self._lost(exc, told, stop)
            except Exception as exc:  # noqa: BLE001 - connection lost or refused: try again
                if stop.is_set():
                    return
                told = self._lost(exc, told, stop)

    def _lost(self, exc: Exception, told: bool, stop: threading.Event) -> bool:
        """The connection is lost: the page is told (once per loss), and the next try waits a second."""
        if self.online or not told:
            self._tell_problem(ServerProblem("offline", str(exc) or type(exc).__name__))
            told = True
        self.online = False
        self._socket = None
        stop.wait(RETRY_SECONDS)
        return told

    def _take(self, message: dict[str, Any], stop: threading.Event) -> None:
        if stop.is_set():
            return
        if message.get("type") == "state":
            message = merge_state(self.state if self._merged_since_connect else None, message)
            self._merged_since_connect = True
            self.state = message
            self.online = True
            try:
                self.on_state(message)
            except Exception:  # noqa: BLE001 - the panel's trouble must not end the connection
                log.exception("table %s: the page could not show a state", self.code)
        elif message.get("type") == "help":
            if self.on_help is not None:
                try:
                    self.on_help(message)
                except Exception:  # noqa: BLE001 - the panel's trouble must not end the connection
                    log.exception("table %s: the page could not show help", self.code)
        elif message.get("type") == "error":
            if message.get("error") == "behind":
                return  # the server closes this connection next (CLOSE_BEHIND): it comes back at once, whole
            problem = ServerProblem(str(message.get("error")), str(message.get("message")), message.get("rule"),
                                   message.get("words"), error_details(message))
            self._tell_problem(problem)
            if problem.code in ("bad_token", "no_table", "closed", "set_aside"):
                raise problem

    def _tell_problem(self, problem: ServerProblem) -> None:
        try:
            self.on_problem(problem)
        except Exception:  # noqa: BLE001
            log.exception("table %s: the page could not show a problem", self.code)
