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

The soak (issue 34): with ``--hostile PCT`` that share of all connections are hostile clients
(``benchmarks/tables_hostile.py``: slow and silent readers, garbage, floods, reconnect storms, a records flood)
against the same tables. A table whose game ends is checked and closed by the teacher, and its learners sit down
at a new one, so a long run keeps every table busy. Every move a learner was told was taken (its move in the
log at its place: *acknowledged*) is looked up in the database, at the table's close or at the end:
``acknowledged_lost`` counts those not there. The servers' resident memory is sampled every ``--sample-every``
seconds; ``rss_window_change_pct`` is the spread (max − min) over the last ``--memory-window`` seconds, against
their mean.

    .venv/bin/python benchmarks/tables.py --tables 5 --seconds 20
    .venv/bin/python benchmarks/tables.py --tables 50 --seats 4 --seconds 60   # the goal: p95 <= 200 ms
    .venv/bin/python benchmarks/tables.py --tables 50 --seats 4 --seconds 60 --chromium 20
    .venv/bin/python benchmarks/tables.py --tables 50 --seats 4 --seconds 60 --postgres --processes 2
    nice -n 10 .venv/bin/python benchmarks/tables.py --tables 100 --seats 4 --seconds 600 --postgres --processes 2 \
        --hostile 5   # the soak: 0 acknowledged moves lost, p95 <= 200 ms, memory flat (±10 % over the last 5 min)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from tables_hostile import Hostile  # benchmarks/ is on the path when this file runs
from websockets.asyncio.client import connect

from railkit.tables.store import database_url
from railkit.wire import CLOSE_WORDS, TEACHER_KEY_HEADER, merge_state

ROOT = Path(__file__).resolve().parent.parent
TEACHER_KEY = "benchmark-teacher-key-" + os.urandom(8).hex()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
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
    acked: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)  # table -> seq -> move its learner saw
    acked_lost: int = 0  # acknowledged moves not found in the database
    acked_checked: int = 0
    games: int = 0  # games played to their end (each then closed, its learners at a new table)
    rss: list[tuple[float, float]] = field(default_factory=list)  # (seconds into the run, the servers' RSS MB)


class Learner:
    """One simulated learner at one seat."""

    def __init__(self, base: str, code: str, seat: str, token: str, seats: list[str], tally: Tally,
                 pace: float, rng: random.Random, stop: asyncio.Event) -> None:
        self.base, self.code, self.seat, self.token = base, code, seat, token
        self.others = set(seats) - {seat}
        self.tally, self.pace, self.rng, self.stop = tally, pace, rng, stop
        self.state: dict[str, Any] | None = None
        self.pending: dict[str, Any] | None = None
        self.pending_seq = -1
        self.move_task: asyncio.Task[None] | None = None
        self.over = asyncio.Event()  # the game ended

    async def run(self) -> None:
        url = self.base.replace("http://", "ws://") + f"/api/tables/{self.code}/ws"
        async with connect(url, max_size=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            receiver = asyncio.create_task(self._receive(ws))
            ended = asyncio.create_task(self.over.wait())
            stopped = asyncio.create_task(self.stop.wait())
            await asyncio.wait({ended, stopped, receiver}, return_when=asyncio.FIRST_COMPLETED)
            ended.cancel()
            stopped.cancel()
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
                log = message["log"]
                if self.pending is not None and len(log) > self.pending_seq >= 0 and log[self.pending_seq] == self.pending:
                    self.tally.acked.setdefault(self.code, {})[self.pending_seq] = self.pending  # told: it was taken
                if message["is_over"]:
                    self.over.set()
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
        self.pending_seq = seq
        self.tally.waiting[(self.code, seq + 1)] = (time.perf_counter(), set(self.others))
        await ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))


async def seat_table(base_of: dict[str, str], names: list[str], seed: int, tally: Tally, pace: float,
                     rng: random.Random, stop: asyncio.Event) -> tuple[str, list[Learner]]:
    made = await asyncio.to_thread(call, "POST", f"{base_of[names[0]]}/api/tables",
                                   {"game": "cape_to_cairo", "seats": names, "seed": seed, "take": names[0]})
    code = made["table"]
    tokens = {names[0]: made["token"]}
    for name in names[1:]:
        tokens[name] = (await asyncio.to_thread(call, "POST", f"{base_of[name]}/api/tables/{code}/join",
                                                {"seat": name}))["token"]
    return code, [Learner(base_of[n], code, n, tokens[n], names, tally, pace, random.Random(rng.random()), stop)
                  for n in names]


async def play(bases: list[str], tables: int, seats: int, seconds: float, pace: float, seed: int,
               db: str | None = None, hostile: float = 0.0, pids: tuple[int, ...] = (),
               sample_every: float = 10.0) -> tuple[Tally, list[str], Counter[str]]:
    """Seat ``i`` of table ``t`` talks to server ``bases[(t + i) % len(bases)]`` (one server: all to it). A game that
    ends is checked against ``db`` and closed by the teacher, and its learners sit down at a new table."""
    tally = Tally()
    stop = asyncio.Event()
    rng = random.Random(seed)
    names = [f"Seat{i + 1}" for i in range(seats)]
    live: list[str] = []  # the tables being played now (the hostile clients pick theirs among them)
    codes: list[str] = []
    engine = sa.create_engine(database_url(db)) if db else None

    async def table(t: int) -> None:
        base_of = {n: bases[(t + i) % len(bases)] for i, n in enumerate(names)}
        game = 0
        while not stop.is_set():
            code, learners = await seat_table(base_of, names, seed + t + 1000 * game, tally, pace, rng, stop)
            codes.append(code)
            live.append(code)
            await asyncio.gather(*(learner.run() for learner in learners), return_exceptions=True)
            live.remove(code)
            if stop.is_set():
                break
            tally.games += 1
            game += 1
            if engine is not None:  # the finished game's acknowledged moves are in the database; then it closes
                await asyncio.to_thread(check_acked, engine, tally, [code])
            await asyncio.to_thread(call, "POST", f"{base_of[names[0]]}/api/teacher/tables/{code}/close",
                                    {"confirm": CLOSE_WORDS}, {TEACHER_KEY_HEADER: TEACHER_KEY})

    async def sample() -> None:
        started = time.monotonic()
        while not stop.is_set() and pids:
            tally.rss.append((round(time.monotonic() - started, 1), round(sum(rss_mb(p) for p in pids), 1)))
            try:
                await asyncio.wait_for(stop.wait(), timeout=sample_every)
            except TimeoutError:
                pass

    tasks = [asyncio.create_task(table(t)) for t in range(tables)]
    while len(live) < tables and not all(task.done() for task in tasks):
        await asyncio.sleep(0.2)  # every table seated before the clock starts (and the hostile clients come)
    count = round(hostile / 100 * tables * seats / (1 - hostile / 100)) if hostile else 0
    enemies = Hostile(bases, lambda: rng.choice(live) if live else None, count, stop, seed)
    others = [asyncio.create_task(sample()), *enemies.tasks()]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks, *others, return_exceptions=True)
    if engine is not None:
        await asyncio.to_thread(check_acked, engine, tally, [c for c in codes if c in tally.acked])
        engine.dispose()
    enemies.counts["hostile clients"] = count
    return tally, codes, enemies.counts


def check_acked(engine: sa.Engine, tally: Tally, codes: list[str]) -> None:
    """Every acknowledged move of these tables is in the database at its place (else counted lost)."""
    stored: dict[str, dict[int, Any]] = {}
    with engine.connect() as conn:
        for code, seq, action in conn.execute(sa.text(
                "SELECT t.code, a.seq, a.action FROM rk_actions a JOIN rk_tables t ON t.id = a.table_id "
                "WHERE t.code IN :codes").bindparams(sa.bindparam("codes", expanding=True)), {"codes": codes}):
            stored.setdefault(code, {})[int(seq)] = json.loads(action) if isinstance(action, str) else action
    for code in codes:
        for seq, action in tally.acked.pop(code, {}).items():
            tally.acked_checked += 1
            if stored.get(code, {}).get(seq) != action:
                tally.acked_lost += 1


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
    parser.add_argument("--hostile", type=float, default=0.0, help="this share (percent) of all connections are "
                                                                   "hostile clients (benchmarks/tables_hostile.py)")
    parser.add_argument("--sample-every", type=float, default=10.0, help="seconds between samples of the RSS")
    parser.add_argument("--memory-window", type=float, default=300.0, help="the last seconds the RSS must stay "
                                                                           "flat over")
    args = parser.parse_args()
    load_before = os.getloadavg()
    if args.url:
        tally, codes, hostile = asyncio.run(play([args.url.rstrip("/")], args.tables, args.seats, args.seconds,
                                                 args.pace, args.seed, hostile=args.hostile))
        report(args, tally, 0.0, hostile, load_before)
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
                                                 db, "--max-tables", str(max(200, 2 * args.tables)), "--chosen-deals"],
                                                cwd=ROOT, env={**os.environ, "RAILKIT_TEACHER_KEY": TEACHER_KEY}))
                wait_for_port(port, servers[-1])
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            clicks = Clicks(bases[0], args.chromium) if args.chromium else None
            tally, codes, hostile = asyncio.run(play(bases, args.tables, args.seats, args.seconds, args.pace,
                                                     args.seed, db, args.hostile, tuple(s.pid for s in servers),
                                                     args.sample_every))
            if clicks is not None:
                tally.chromium_ms = clicks.result()
            server_rss = sum(rss_mb(server.pid) for server in servers)
    finally:
        for server in servers:
            server.terminate()
            server.wait(30)
        if postgres is not None:
            postgres.stop()
    report(args, tally, server_rss, hostile, load_before)


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


def report(args: argparse.Namespace, tally: Tally, server_rss: float, hostile: Counter[str],
           load_before: tuple[float, float, float]) -> None:
    lat = sorted(tally.latencies_ms)
    lost = tally.sent - tally.accepted - tally.refused
    window = [mb for at, mb in tally.rss if at >= tally.rss[-1][0] - args.memory_window] if tally.rss else []
    result = {
        "tables": args.tables, "seats": args.tables * args.seats, "processes": args.processes,
        "seconds": args.seconds, "pace_s": args.pace, "hostile_pct": args.hostile,
        "actions": tally.accepted, "sent": tally.sent, "refused": tally.refused,
        "stale_retries": tally.stale_retries, "lost_actions": lost, "games_finished": tally.games,
        "acknowledged_checked": tally.acked_checked, "acknowledged_lost": tally.acked_lost,
        "p50_ms": round(statistics.median(lat), 1) if lat else None,
        "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 1) if lat else None,
        "max_ms": round(lat[-1], 1) if lat else None,
        "server_rss_mb": round(server_rss, 1),
        "rss_window_mb": [min(window), max(window)] if window else None,
        "rss_window_change_pct": round(100 * (max(window) - min(window)) / statistics.mean(window), 1) if window else None,
        "rss_samples": tally.rss, "hostile": dict(sorted(hostile.items())),
        "load_before": [round(x, 1) for x in load_before], "load_after": [round(x, 1) for x in os.getloadavg()],
    }
    if args.chromium:
        clicks = sorted(tally.chromium_ms)
        result.update({"chromium_clicks": len(clicks),
                       "chromium_p50_ms": round(statistics.median(clicks), 1) if clicks else None,
                       "chromium_p95_ms": round(clicks[int(0.95 * (len(clicks) - 1))], 1) if clicks else None,
                       "chromium_max_ms": round(clicks[-1], 1) if clicks else None})
    print(f"{result['actions']} moves accepted at {args.tables} tables of {args.seats} learners in {args.seconds:g} s "
          f"({tally.games} games finished); every other seat had each move after p50 {result['p50_ms']} ms, p95 "
          f"{result['p95_ms']} ms; {lost} unanswered, {tally.acked_lost} of {tally.acked_checked} acknowledged moves "
          f"missing from the database; server RSS {result['server_rss_mb']} MB (last window "
          f"{result['rss_window_mb']}, spread {result['rss_window_change_pct']} %)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
