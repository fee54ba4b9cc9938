"""Class tables under load: many tables of simulated learners over real WebSockets (``railkit.tables``).

A table server is started as ``make tables`` starts it (its own process, SQLite in a temporary directory
unless ``--db`` names another database). ``--tables`` Vom Kap bis Kairo tables of ``--seats`` seats are
created and every seat is taken by a simulated learner: a WebSocket client that, whenever the server
says it may move, waits a human pace (``--pace`` seconds, spread ±50 %) and sends one of the moves the
server lists for it (seeded choice). A sealed bid that another bid overtook is refused as out of date
and sent again, as the lessons do. After ``--seconds`` the learners stop, and the log is checked: every
move the server accepted is in its database, in order.

Measured: for each accepted move, the time from the moving seat's send to the moment *every* other seat
has received the new state (p50, p95), the server's resident memory at the end, and lost moves (sent,
never answered: neither accepted nor refused). With ``--chromium N``, two learners in real Chromium pages
(Voila serving the Kap bis Kairo play lesson, as ``make run`` does) play one more table during the load,
and N of their clicks are timed until the other learner's page shows the move (``benchmarks/tables_chromium.py``;
goal ≤ 300 ms). With ``--processes N`` (a PostgreSQL database: ``--db postgresql://…``, or ``--postgres``
for a throwaway cluster from Debian's ``postgresql``, as the tests start it) N server processes share the
database and every table's seats are spread over them, so most moves reach the other seats through
PostgreSQL's LISTEN/NOTIFY. The last line printed is one JSON object.

    .venv/bin/python benchmarks/tables.py --tables 5 --seconds 20
    .venv/bin/python benchmarks/tables.py --tables 50 --seats 4 --seconds 60   # the goal: p95 <= 200 ms
    .venv/bin/python benchmarks/tables.py --tables 50 --seats 4 --seconds 60 --chromium 20
    .venv/bin/python benchmarks/tables.py --tables 50 --seats 4 --seconds 60 --postgres --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from railkit.ui.table_link import merge_state

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(method: str, url: str, body: Any = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Clicks:
    """The Chromium part (``tables_chromium``) on its own thread: the pages are seated before the load starts,
    and their clicks are timed while it runs."""

    def __init__(self, base: str, clicks: int) -> None:
        from tables_chromium import measure  # benchmarks/ is on the path when this file runs

        self.times: list[float] = []
        self.error: str | None = None
        ready = threading.Event()

        def run() -> None:
            try:
                self.times = measure(base, clicks, ready)
            except Exception as exc:  # noqa: BLE001 - reported in the result
                self.error = repr(exc)
                ready.set()

        self.thread = threading.Thread(target=run, name="chromium", daemon=True)
        self.thread.start()
        ready.wait(900)

    def result(self) -> list[float]:
        self.thread.join(900)
        if self.error:
            print(f"the Chromium part failed: {self.error}", file=sys.stderr)
        return self.times


@dataclass
class Tally:
    sent: int = 0
    accepted: int = 0
    refused: int = 0
    stale_retries: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    chromium_ms: list[float] = field(default_factory=list)  # click -> the other learner's page updated
    # (table, seq after the move) -> (send time, seats still to hear of it)
    waiting: dict[tuple[str, int], tuple[float, set[str]]] = field(default_factory=dict)


class Learner:
    """One simulated learner at one seat."""

    def __init__(self, base: str, code: str, seat: str, token: str, seats: list[str], tally: Tally,
                 pace: float, rng: random.Random, stop: asyncio.Event) -> None:
        self.base, self.code, self.seat, self.token = base, code, seat, token
        self.others = set(seats) - {seat}
        self.tally, self.pace, self.rng, self.stop = tally, pace, rng, stop
        self.state: dict[str, Any] | None = None
        self.pending: dict[str, Any] | None = None
        self.move_task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        url = self.base.replace("http://", "ws://") + f"/api/tables/{self.code}/ws"
        async with connect(url, max_size=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            receiver = asyncio.create_task(self._receive(ws))
            await self.stop.wait()
            if self.move_task is not None:
                self.move_task.cancel()
            # let answers to moves already sent arrive (a move in flight is not lost)
            for _ in range(100):
                if self.pending is None:
                    break
                await asyncio.sleep(0.05)
            receiver.cancel()

    async def _receive(self, ws: Any) -> None:
        async for text in ws:
            message = json.loads(text)
            now = time.perf_counter()
            if message["type"] == "state":
                message = merge_state(self.state, message)  # as a lesson's kernel does (only the new parts came)
                self._heard(message, now)
                self.state = message
                mine = any(e.get("player") == self.seat for e in message["log"][-1:])
                if self.pending is not None and mine:
                    self.pending = None
                    self.tally.accepted += 1
                if message["legal"] and self.pending is None and not self.stop.is_set() and (
                        self.move_task is None or self.move_task.done()):
                    self.move_task = asyncio.create_task(self._move(ws))
            elif message["type"] == "error":
                if message["error"] == "stale" and self.pending is not None and self.state is not None \
                        and self.pending in self.state["legal"] and not self.stop.is_set():
                    self.tally.stale_retries += 1
                    await self._send(ws, self.pending)
                elif self.pending is not None:
                    self.pending = None
                    self.tally.refused += 1

    def _heard(self, state: dict[str, Any], now: float) -> None:
        key = (self.code, state["seq"])
        waiting = self.tally.waiting.get(key)
        if waiting is None:
            return
        sent, left = waiting
        left.discard(self.seat)
        if not left:
            del self.tally.waiting[key]
            self.tally.latencies_ms.append((now - sent) * 1000)

    async def _move(self, ws: Any) -> None:
        await asyncio.sleep(self.pace * self.rng.uniform(0.5, 1.5))
        if self.state is None or not self.state["legal"] or self.stop.is_set():
            return
        legal = self.state["legal"]
        bids = [a for a in legal if a["type"] == "bid"]
        if bids:  # a modest bid, as the heuristic player makes
            action = self.rng.choice(bids[: max(1, min(len(bids), 12))])
        else:
            builds = [a for a in legal if a["type"] == "build"]
            action = self.rng.choice(builds) if builds and self.rng.random() < 0.8 else self.rng.choice(legal)
        self.pending = action
        self.tally.sent += 1
        await self._send(ws, action)

    async def _send(self, ws: Any, action: dict[str, Any]) -> None:
        assert self.state is not None
        seq = self.state["seq"]
        self.tally.waiting[(self.code, seq + 1)] = (time.perf_counter(), set(self.others))
        await ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))


async def play(bases: list[str], tables: int, seats: int, seconds: float, pace: float,
               seed: int) -> tuple[Tally, list[str]]:
    """Seat ``i`` of table ``t`` talks to server ``bases[(t + i) % len(bases)]`` (one server: all to it)."""
    tally = Tally()
    stop = asyncio.Event()
    rng = random.Random(seed)
    names = [f"Seat{i + 1}" for i in range(seats)]
    learners, codes = [], []
    for t in range(tables):
        base_of = {n: bases[(t + i) % len(bases)] for i, n in enumerate(names)}
        made = await asyncio.to_thread(call, "POST", f"{base_of[names[0]]}/api/tables",
                                       {"game": "cape_to_cairo", "seats": names, "seed": seed + t, "take": names[0]})
        code = made["table"]
        codes.append(code)
        tokens = {names[0]: made["token"]}
        for name in names[1:]:
            tokens[name] = (await asyncio.to_thread(call, "POST", f"{base_of[name]}/api/tables/{code}/join",
                                                    {"seat": name}))["token"]
        learners += [Learner(base_of[n], code, n, tokens[n], names, tally, pace, random.Random(rng.random()), stop)
                     for n in names]
    tasks = [asyncio.create_task(learner.run()) for learner in learners]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally, codes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds a learner thinks before a move (±50 %%)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary directory)")
    parser.add_argument("--chromium", type=int, default=0, help="also time this many clicks of two learners in "
                                                                   "Chromium pages at one more table")
    parser.add_argument("--processes", type=int, default=1, help="table-server processes sharing the database "
                                                                    "(more than one needs PostgreSQL)")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster as the database")
    parser.add_argument("--url", default=None, help="use the table server already running there (e.g. under a "
                                                    "profiler) instead of starting one; no RSS then")
    args = parser.parse_args()
    if args.url:
        tally, codes = asyncio.run(play([args.url.rstrip("/")], args.tables, args.seats, args.seconds, args.pace,
                                        args.seed))
        stored = sum(call("GET", f"{args.url.rstrip('/')}/api/tables/{code}")["seq"] for code in codes)
        report(args, tally, stored, 0.0)
        return
    postgres = None
    if args.postgres:
        sys.path.insert(0, str(ROOT / "tests" / "tables"))
        from tables_client import Postgres  # the tests' throwaway cluster (Debian's postgresql)

        postgres = Postgres().start()
    if args.processes > 1 and not (postgres or (args.db or "").startswith("postgresql")):
        parser.error("--processes above 1 needs PostgreSQL: --postgres, or --db postgresql://...")
    servers: list[subprocess.Popen[bytes]] = []
    try:
        with tempfile.TemporaryDirectory(prefix="railkit-tables-bench-") as tmp:
            db = postgres.new_database() if postgres else args.db or f"sqlite:///{tmp}/tables.sqlite"
            ports = [free_port() for _ in range(args.processes)]
            for port in ports:
                servers.append(subprocess.Popen([sys.executable, "-m", "railkit.tables", "--port", str(port), "--db",
                                                 db, "--max-tables", str(max(200, args.tables))], cwd=ROOT))
                wait_for_port(port, servers[-1])
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            clicks = Clicks(bases[0], args.chromium) if args.chromium else None
            tally, codes = asyncio.run(play(bases, args.tables, args.seats, args.seconds, args.pace, args.seed))
            if clicks is not None:
                tally.chromium_ms = clicks.result()
            server_rss = sum(rss_mb(server.pid) for server in servers)
            stored = sum(call("GET", f"{bases[0]}/api/tables/{code}")["seq"] for code in codes)
    finally:
        for server in servers:
            server.terminate()
            server.wait(30)
        if postgres is not None:
            postgres.stop()
    report(args, tally, stored, server_rss)


def wait_for_port(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("the table server did not start") from None
            time.sleep(0.1)


def report(args: argparse.Namespace, tally: Tally, stored: int, server_rss: float) -> None:
    lat = sorted(tally.latencies_ms)
    lost = tally.sent - tally.accepted - tally.refused
    result = {
        "tables": args.tables, "seats": args.tables * args.seats, "processes": args.processes,
        "seconds": args.seconds, "pace_s": args.pace,
        "actions": tally.accepted, "stored_actions": stored, "sent": tally.sent, "refused": tally.refused,
        "stale_retries": tally.stale_retries, "lost_actions": lost,
        "p50_ms": round(statistics.median(lat), 1) if lat else None,
        "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 1) if lat else None,
        "max_ms": round(lat[-1], 1) if lat else None,
        "server_rss_mb": round(server_rss, 1),
    }
    if args.chromium:
        clicks = sorted(tally.chromium_ms)
        result.update({"chromium_clicks": len(clicks),
                       "chromium_p50_ms": round(statistics.median(clicks), 1) if clicks else None,
                       "chromium_p95_ms": round(clicks[int(0.95 * (len(clicks) - 1))], 1) if clicks else None,
                       "chromium_max_ms": round(clicks[-1], 1) if clicks else None})
    print(f"{result['actions']} moves accepted at {args.tables} tables of {args.seats} learners in {args.seconds:g} s; "
          f"every other seat had each move after p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms; "
          f"{lost} lost; server RSS {result['server_rss_mb']} MB")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
