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

from railkit.ui.table_link import merge_state


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
