"""The 40-open probe: many parallel requests for one lesson against ``make run``.

Starts Voila as ``make run`` does (``python -m railkit.ui.voila_template.room`` in ``notebooks/``, or
plain ``voila`` with ``--plain``, the setup before the room caps), waits for the pools, lets two
learners (127.0.0.3, 127.0.0.4) open the lesson and connect to their kernels, then fires ``--opens``
parallel ``curl``s of the lesson (from 127.0.0.2, or spread over ``--addresses`` loopback addresses) as one
browser (``--cookies one``, the default: every request carries the same ``railkit_visitor`` cookie) or as a
script that keeps no cookie (``--cookies none``: each request a new browser to the room), and samples
for ``--watch`` seconds the number of kernels and the memory (RSS and PSS) of Voila and its kernels,
and the load average. At the end both learners' kernels must still answer.

    .venv/bin/python benchmarks/room_probe.py                      # one browser, the room's defaults
    .venv/bin/python benchmarks/room_probe.py --cookies none       # a script without cookies, one address
    .venv/bin/python benchmarks/room_probe.py --addresses 40 -- --Room.max_kernels=30
    .venv/bin/python benchmarks/room_probe.py --plain              # the same against plain voila

Prints JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
BIN = Path(sys.executable).parent
KERNEL_ID = re.compile(r'kernelId["\']?\s*[:=]\s*["\']([0-9a-f-]{36})')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def tree(root: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)] = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, frontier = [root], [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                found.append(pid)
                frontier.append(pid)
    return found


def memory(pids: list[int]) -> tuple[float, float]:
    """Total RSS and PSS of the processes, in MB."""
    rss = pss = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
        except OSError:
            pass
    return round(rss / 1024, 1), round(pss / 1024, 1)


def page(url: str, source: str) -> str:
    out = subprocess.run(["curl", "-s", "--interface", source, "--max-time", "300", url], capture_output=True, text=True)
    return out.stdout


class Page:
    """A page's connection to its kernel, read all the time as a browser does (tornado's client stops
    answering the server's pings while an unread message waits, and the server then hangs up)."""

    def __init__(self, ws: object) -> None:
        self.ws = ws
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, base: str, kernel_id: str) -> Page:
        from tornado.websocket import websocket_connect

        return cls(await websocket_connect(f"ws://{base.split('://', 1)[1]}/api/kernels/{kernel_id}/channels"))

    async def _read(self) -> None:
        while True:
            raw = await self.ws.read_message()  # type: ignore[attr-defined]
            await self.inbox.put(raw)
            if raw is None:
                return

    async def kernel_answers(self) -> bool:
        """Send kernel_info_request; True when the kernel replies within a minute."""
        msg_id = uuid.uuid4().hex
        await self.ws.write_message(json.dumps({  # type: ignore[attr-defined]
            "header": {"msg_id": msg_id, "msg_type": "kernel_info_request", "username": "", "session": msg_id,
                       "date": "", "version": "5.3"}, "parent_header": {}, "metadata": {}, "content": {},
            "channel": "shell"}))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            raw = await asyncio.wait_for(self.inbox.get(), timeout=60)
            if raw is None:
                return False
            if json.loads(raw).get("parent_header", {}).get("msg_id") == msg_id:
                return True
        return False


async def curl(url: str, source: str, cookie: str = "") -> tuple[str, float]:
    sends = ["-H", f"Cookie: railkit_visitor={cookie}"] if cookie else []
    proc = await asyncio.create_subprocess_exec(
        "curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "--interface", source, "--max-time", "300",
        *sends, url, stdout=asyncio.subprocess.PIPE)
    out = (await proc.communicate())[0].decode().split()
    return (out[0], float(out[1])) if len(out) == 2 else ("error", 0.0)


async def probe(args: argparse.Namespace, extra: list[str]) -> dict:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    runner = [str(BIN / "voila")] if args.plain else [str(BIN / "python"), "-m", "railkit.ui.voila_template.room"]
    log = open(ROOT / "tests" / "artifacts" / f"room_probe-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen([*runner, "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}", *extra, "."],
                            cwd=NOTEBOOKS, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"{base}/voila/render/{args.lesson}"
    result: dict = {"setup": "plain voila" if args.plain else "room", "lesson": args.lesson, "opens": args.opens,
                    "addresses": args.addresses, "cookies": args.cookies, "extra": extra}
    try:
        deadline = time.monotonic() + 240
        while "Kernel pool of up_setup.ipynb is filled" not in Path(log.name).read_text():
            assert time.monotonic() < deadline and proc.poll() is None, "Voila did not fill its pools"
            await asyncio.sleep(1)
        await asyncio.sleep(5)
        learners = {}
        for source in ("127.0.0.3", "127.0.0.4"):
            found = KERNEL_ID.search(await asyncio.to_thread(page, url, source))
            assert found, f"learner {source} got no lesson"
            learner = await Page.open(base, found.group(1))
            assert await learner.kernel_answers()
            learners[source] = learner
        before = tree(proc.pid)
        result["before"] = {"kernels": len(before) - 1, "rss_pss_mb": memory(before), "load": os.getloadavg()[0]}
        sources = [f"127.0.0.{10 + i % args.addresses}" if args.addresses > 1 else "127.0.0.2" for i in range(args.opens)]
        start = time.monotonic()
        browser = uuid.uuid4().hex  # one browser's cookie (any word of 22-64 letters is one to the room)
        cookies = [browser if args.cookies == "one" else uuid.uuid4().hex if args.cookies == "each" else ""
                   for _ in sources]
        tasks = [asyncio.create_task(curl(url, s, c)) for s, c in zip(sources, cookies, strict=True)]  # all at once
        peak = {"kernels": 0, "rss_mb": 0.0, "pss_mb": 0.0, "load": 0.0}
        samples = []
        while time.monotonic() - start < args.watch:
            pids = tree(proc.pid)
            rss, pss = memory(pids)
            sample = {"t": round(time.monotonic() - start), "kernels": len(pids) - 1, "rss_mb": rss, "pss_mb": pss,
                      "load": os.getloadavg()[0]}
            samples.append(sample)
            for key in peak:
                peak[key] = max(peak[key], sample[key])
            await asyncio.sleep(2)
        replies = [t.result() if t.done() else ("pending", 0.0) for t in tasks]
        codes: dict[str, int] = {}
        for code, _ in replies:
            codes[code] = codes.get(code, 0) + 1
        result |= {"http_status": codes, "slowest_s": max(t for _, t in replies),
                   "slowest_200_s": max([t for c, t in replies if c == "200"], default=None),
                   "peak": peak, "after": samples[-1], "samples_every_10s": samples[::5]}
        answers = {}
        for source, learner in learners.items():
            answers[source] = await learner.kernel_answers()
        result["learners_kernels_answer"] = answers
        result["learner_opens_another_lesson"] = await curl(f"{base}/voila/render/kk_auction.ipynb", "127.0.0.3")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens", type=int, default=40)
    parser.add_argument("--addresses", type=int, default=1, help="spread the opens over this many addresses")
    parser.add_argument("--lesson", default="up_play.ipynb")
    parser.add_argument("--watch", type=int, default=90, help="seconds to sample after the opens")
    parser.add_argument("--plain", action="store_true", help="plain voila, without the room's caps")
    parser.add_argument("--cookies", choices=("one", "none", "each"), default="one",
                        help="one browser (the default), no cookie (a script), or a cookie of its own per request")
    args, extra = parser.parse_known_args()
    extra = [a for a in extra if a != "--"]
    print(json.dumps(asyncio.run(probe(args, extra)), indent=1))


if __name__ == "__main__":
    main()
