"""Hostile clients for ``benchmarks/tables.py --hostile PCT``: the careless and the malicious, each an asyncio task
that keeps at it until the run stops, against the tables being played (any server process).

* ``slow``: a spectator that reads one message every few seconds (its library stops reading the socket once its
  queue is full): it falls behind, is closed with 4408 and comes back, as a busy kernel would;
* ``silent``: a spectator that says hello and never reads again (a receive buffer as small as the system allows),
  replaced by a new one every 30 s;
* ``garbage``: a spectator sending what no client should: broken JSON, binary frames, unknown types, moves without
  a seat, forged tokens, a frame far above the size limit;
* ``flood``: a spectator sending pings far faster than the rate limit, reading every refusal;
* ``storm``: connections opened, said hello to and dropped, over and over (a reconnect storm);
* ``records``: learning records under ever new names, as fast as the server answers.

Each counts what happened to it (``Hostile.counts``): closes by code, refusals by rule, connections made.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import socket
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

KINDS = ("slow", "silent", "garbage", "flood", "storm", "records")


class Hostile:
    """The hostile clients of one run: ``count`` of them, their kinds in turn, each on a table ``pick()`` gives."""

    def __init__(self, bases: list[str], pick: Callable[[], str | None], count: int, stop: asyncio.Event,
                 seed: int) -> None:
        self.bases, self.pick, self.count, self.stop = bases, pick, count, stop
        self.rng = random.Random(seed)
        self.counts: Counter[str] = Counter()

    def tasks(self) -> list[asyncio.Task[None]]:
        return [asyncio.create_task(self._run(KINDS[i % len(KINDS)], i)) for i in range(self.count)]

    async def _run(self, kind: str, n: int) -> None:
        base = self.bases[n % len(self.bases)]
        while not self.stop.is_set():
            code = self.pick()
            if code is None:
                await asyncio.sleep(0.5)
                continue
            url = base.replace("http://", "ws://") + f"/api/tables/{code}/ws"
            try:
                await getattr(self, f"_{kind}")(base, url, code)
            except ConnectionClosed as exc:
                self.counts[f"{kind} closed {exc.rcvd.code if exc.rcvd else 'without a code'}"] += 1
            except (TimeoutError, OSError, InvalidStatus, urllib.error.URLError) as exc:
                self.counts[f"{kind} {type(exc).__name__}"] += 1
                await asyncio.sleep(0.5)

    def _refused(self, kind: str, message: Any) -> None:
        try:
            found = json.loads(message)
        except (TypeError, ValueError):
            return
        if isinstance(found, dict) and found.get("type") == "error":
            self.counts[f"{kind} refused {found.get('rule')}"] += 1

    async def _slow(self, _base: str, url: str, _code: str) -> None:
        async with connect(url, max_size=None, open_timeout=30, max_queue=4) as ws:
            self.counts["slow connections"] += 1
            await ws.send(json.dumps({"type": "hello"}))
            while not self.stop.is_set():
                await asyncio.sleep(5)
                self._refused("slow", await ws.recv())

    async def _silent(self, _base: str, url: str, code: str) -> None:
        host, port = url.split("//", 1)[1].split("/", 1)[0].split(":")
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        sock.setblocking(False)
        loop = asyncio.get_running_loop()
        try:
            await loop.sock_connect(sock, (host, int(port)))
            key = base64.b64encode(os.urandom(16)).decode()
            await loop.sock_sendall(sock, (f"GET /api/tables/{code}/ws HTTP/1.1\r\nHost: {host}:{port}\r\n"
                                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
            data = json.dumps({"type": "hello"}).encode()
            mask = os.urandom(4)
            await loop.sock_sendall(sock, bytes([0x81, 0x80 | len(data)]) + mask
                                    + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
            self.counts["silent connections"] += 1
            try:
                await asyncio.wait_for(self.stop.wait(), timeout=30)  # never reads; a new one in 30 s
            except TimeoutError:
                pass
        finally:
            sock.close()

    async def _garbage(self, _base: str, url: str, _code: str) -> None:
        junk: list[Any] = ["{not json", b"\x00\x01binary", json.dumps([1, 2, 3]), json.dumps({"type": "nonsense"}),
                           json.dumps({"type": "act", "seq": "x", "action": 5}),
                           json.dumps({"type": "act", "seq": 0, "action": {"type": "bid", "amount": 5}}),
                           json.dumps({"type": "help", "hint": True}), json.dumps({"type": "hello", "token": "x" * 50}),
                           json.dumps({"type": "ping", "pad": "é" * 9000}), "x" * 70_000]
        async with connect(url, max_size=None, open_timeout=30) as ws:
            self.counts["garbage connections"] += 1
            await ws.send(json.dumps({"type": "hello", "token": "forged-" + os.urandom(8).hex()}))
            self._refused("garbage", await ws.recv())  # a forged token: refused, closed
        async with connect(url, max_size=None, open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            await ws.recv()
            while not self.stop.is_set():
                await ws.send(self.rng.choice(junk))
                self._refused("garbage", await asyncio.wait_for(ws.recv(), timeout=30))
                await asyncio.sleep(0.1)

    async def _flood(self, _base: str, url: str, _code: str) -> None:
        async with connect(url, max_size=None, open_timeout=30) as ws:
            self.counts["flood connections"] += 1
            await ws.send(json.dumps({"type": "hello"}))

            async def read() -> None:
                async for message in ws:
                    self._refused("flood", message)

            reader = asyncio.create_task(read())
            try:
                while not self.stop.is_set() and not reader.done():
                    for _ in range(30):
                        await ws.send('{"type": "ping"}')
                    await asyncio.sleep(0.1)  # 300 a second, fifteen times the limit
            finally:
                reader.cancel()

    async def _storm(self, _base: str, url: str, _code: str) -> None:
        async with connect(url, max_size=None, open_timeout=30) as ws:
            self.counts["storm connections"] += 1
            await ws.send(json.dumps({"type": "hello"}))
        await asyncio.sleep(0.05)

    async def _records(self, base: str, _url: str, _code: str) -> None:
        name = f"Flood {self.rng.randrange(10**9)}"
        body = {"event": "opened", "learner": name, "lesson": "kk_play", "visit": os.urandom(6).hex()}
        status = await asyncio.to_thread(_post, f"{base}/api/records", body)
        self.counts[f"records {status}"] += 1
        await asyncio.sleep(0.02)


def _post(url: str, body: dict[str, Any]) -> int:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
