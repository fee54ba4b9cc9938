"""Real parts for the table server's tests: a uvicorn process, a PostgreSQL cluster, HTTP and WebSocket clients.

Nothing is mocked: the server runs as ``python -m railkit.tables`` in its own process (so a test can
``kill -9`` it), PostgreSQL is Debian's, started in a temporary directory by a user other than root.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from websockets.sync.client import ClientConnection, connect

from railkit.ui.tables.table_link import merge_state


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerProcess:
    """``python -m railkit.tables`` on a loopback port, with ``db`` as its database."""

    db: str
    args: list[str] = field(default_factory=list)
    port: int = 0
    proc: subprocess.Popen[bytes] | None = None
    env: dict[str, str] | None = None  # added to this process's environment
    chosen_deals: bool = True  # the tests deal known games (a seed, a stacked deck): TABLES-DEAL allows it here

    def start(self) -> ServerProcess:
        self.port = self.port or free_port()  # a restart (after kill9) listens where the clients look
        extra = ["--chosen-deals"] if self.chosen_deals else []
        self.proc = subprocess.Popen([sys.executable, "-m", "railkit.tables", "--port", str(self.port), "--db", self.db,
                                      *extra, *self.args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env=None if self.env is None else {**os.environ, **self.env})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise RuntimeError(f"the table server exited at start:\n{out}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the table server did not listen within 30 s")

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/tables"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/api/tables"

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if self.proc is not None and self.proc.stdout:
            self.proc.stdout.close()


def call(method: str, url: str, body: Any = None, raw: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """An HTTP request; (status, JSON answer) also for 4xx answers."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


class Client:
    """One WebSocket on a table: a seat (with its token) or a spectator."""

    def __init__(self, server: ServerProcess, code: str, token: str | None = None) -> None:
        self.raw: dict[str, Any] = {}  # the last message as it came
        self._stack = contextlib.ExitStack()
        self.conn: ClientConnection = self._stack.enter_context(
            connect(f"{server.ws}/{code}/ws", max_size=None, open_timeout=10))
        self.send({"type": "hello", **({"token": token} if token is not None else {})})
        self.state = self.recv()

    def send(self, message: Any) -> None:
        self.conn.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        message = json.loads(self.conn.recv(timeout=timeout))
        self.raw = message  # as sent (a state holds only what this client lacked: ``merge_state``)
        if message.get("type") == "state":
            message = merge_state(getattr(self, "state", None), message)
            self.state = message
        return message  # type: ignore[no-any-return]

    def act(self, action: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        self.send({"type": "act", "seq": self.state["seq"] if seq is None else seq, "action": action})
        return self.recv()

    def drain(self, wait: float = 2.0) -> list[dict[str, Any]]:
        """Every message that arrives until none has come for ``wait`` seconds."""
        out = []
        while True:
            try:
                out.append(self.recv(timeout=wait))
            except TimeoutError:
                return out

    def close(self) -> None:
        self._stack.close()


# -- PostgreSQL from Debian's packages --------------------------------------------------------------
def pg_bin() -> str:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql (.ci/run does it)")
    return os.path.dirname(found[-1])


@dataclass
class Postgres:
    """A throwaway cluster on a Unix socket in a temporary directory (PostgreSQL refuses to run as root,
    so root runs it as ``nobody``)."""

    root: str = ""
    port: int = 0
    counter: int = 0

    def _run(self, *args: str) -> None:
        prefix = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self) -> Postgres:
        binaries = pg_bin()
        self.root = tempfile.mkdtemp(prefix="railkit-pg-")
        os.chmod(self.root, 0o755)
        if os.geteuid() == 0:
            shutil.chown(self.root, "nobody", "nogroup")
        self.port = free_port()
        data = os.path.join(self.root, "data")
        self._run(f"{binaries}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        self._run(f"{binaries}/pg_ctl", "-D", data, "-l", os.path.join(self.root, "log"), "-w", "-o",
                  f"-k {self.root} -c listen_addresses='' -p {self.port} -F", "start")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.root}&port={self.port}"

    def new_database(self) -> str:
        """A fresh, empty database's URL (one per test)."""
        import psycopg

        self.counter += 1
        name = f"railkit_{os.getpid()}_{self.counter}"
        with psycopg.connect(f"host={self.root} port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if self.root:
            self._run(f"{pg_bin()}/pg_ctl", "-D", os.path.join(self.root, "data"), "-m", "immediate", "-w", "stop")
            shutil.rmtree(self.root, ignore_errors=True)


# -- hostile clients (tests/tables/test_tables_hostile.py, test_tables_stateful.py) -------------------------------
def call_from(source: str, method: str, url: str, body: Any = None,
              headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """An HTTP request from another loopback address (``source``: 127.0.0.2, ...): another client to the server."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30, source_address=(source, 0))
    try:
        conn.request(method, parts.path + (f"?{parts.query}" if parts.query else ""),
                     body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


class SilentReader:
    """A WebSocket client that says hello and then never reads (its receive buffer as small as the system allows),
    until ``frames`` reads everything the server sent and how it closed the connection."""

    def __init__(self, server: ServerProcess, code: str, token: str | None = None, source: str = "127.0.0.1") -> None:
        import base64

        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", server.port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /api/tables/{code}/ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                           f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.send({"type": "hello", **({"token": token} if token else {})})

    def send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        header = bytes([0x81]) + (bytes([0x80 | len(data)]) if len(data) < 126
                                  else bytes([0x80 | 126]) + len(data).to_bytes(2, "big"))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def frames(self, timeout: float = 60) -> tuple[list[dict[str, Any]], int | None]:
        """Everything sent until the server closed the connection: the messages, and the close frame's code (None
        when the connection ended without one)."""
        self.sock.settimeout(timeout)
        data = b""
        try:
            while chunk := self.sock.recv(65536):
                data += chunk
        except (TimeoutError, OSError):
            pass
        messages, code, at = [], None, 0
        while at + 2 <= len(data):
            opcode, size, at = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
            if size == 126:
                size, at = int.from_bytes(data[at:at + 2], "big"), at + 2
            elif size == 127:
                size, at = int.from_bytes(data[at:at + 8], "big"), at + 8
            payload, at = data[at:at + size], at + size
            if opcode == 1:
                messages.append(json.loads(payload))
            elif opcode == 8:
                code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
        return messages, code

    def close(self) -> None:
        self.sock.close()
