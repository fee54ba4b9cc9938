"""``make run`` for a room, so that one visitor cannot take every kernel (railkit.ui.voila_template.room).

Voila started as ``make run`` starts it, with ``Room.per_visitor=2``. A visitor who asks for more pages
than that gets the "server is full" page (HTTP 503); the kernels of pages that never connected are
shut down within a minute, after which the visitor is served again; meanwhile a learner on another
address, whose page is connected, keeps their kernel and it answers. Visitors are told apart by their
client address: the test uses 127.0.0.2 and 127.0.0.3.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from conftest import ARTIFACTS, NOTEBOOKS_DIR, VENV_BIN, free_port, start_server, wait_for_pools

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("room")]

LESSON = "kk_auction.ipynb"
FULL = "The server is full, try again in a minute."
KERNEL_ID = re.compile(r'kernelId["\']?\s*[:=]\s*["\']([0-9a-f-]{36})')


def get(base: str, path: str, source: str) -> tuple[int, dict[str, str], str]:
    """GET from a given loopback address (the visitor)."""
    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=180, source_address=(source, 0))
    try:
        conn.request("GET", path)
        reply = conn.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read().decode("utf-8", "replace")
    finally:
        conn.close()


def kernel_of(page: str) -> str:
    found = KERNEL_ID.search(page)
    assert found, "no kernel id in the lesson page"
    return found.group(1)


def kernel_exists(base: str, kernel_id: str) -> bool:
    status, _, _ = get(base, f"/api/kernels/{kernel_id}", "127.0.0.1")
    assert status in (200, 404), f"/api/kernels/{kernel_id}: HTTP {status}"
    return status == 200


class Page:
    """A page's connection to its kernel, read all the time as a browser does (tornado's client stops
    answering the server's pings while an unread message waits, and the server then hangs up)."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while (raw := await self.ws.read_message()) is not None:
            await self.inbox.put(raw)
        await self.inbox.put(None)

    async def kernel_answers(self) -> bool:
        """Send kernel_info_request; True when the kernel replies."""
        msg_id = uuid.uuid4().hex
        await self.ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "kernel_info_request", "username": "",
                       "session": uuid.uuid4().hex, "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": {}, "channel": "shell"}))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            raw = await asyncio.wait_for(self.inbox.get(), timeout=60)
            if raw is None:
                return False
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") == msg_id and msg["header"]["msg_type"] == "kernel_info_reply":
                return True
        return False


async def room_run(base: str) -> dict:
    from tornado.websocket import websocket_connect

    figures: dict = {}
    # A learner opens the lesson; their page connects to its kernel.
    status, _, page = await asyncio.to_thread(get, base, f"/voila/render/{LESSON}", "127.0.0.3")
    assert status == 200
    learner = kernel_of(page)
    page_of_learner = Page(await websocket_connect(f"ws://{urlsplit(base).netloc}/api/kernels/{learner}/channels"))
    assert await page_of_learner.kernel_answers()

    # Another visitor asks for the lesson three times without ever connecting: the third is refused.
    asked = time.monotonic()
    replies = [await asyncio.to_thread(get, base, f"/voila/render/{LESSON}", "127.0.0.2") for _ in range(3)]
    assert [r[0] for r in replies] == [200, 200, 503], [r[0] for r in replies]
    status, headers, body = replies[2]
    assert FULL in body and 'lang="fi"' in body and headers.get("Retry-After") == "60"
    held = [kernel_of(r[2]) for r in replies[:2]]

    # Their never-connected kernels go within a minute; then they are served again.
    while [k for k in held if await asyncio.to_thread(kernel_exists, base, k)]:
        assert time.monotonic() - asked < 62, "a kernel whose page never connected lived past a minute"
        await asyncio.sleep(1)
    figures["never_connected_kernels_gone_after_s"] = round(time.monotonic() - asked, 1)
    status, _, _ = await asyncio.to_thread(get, base, f"/voila/render/{LESSON}", "127.0.0.2")
    assert status == 200, "the visitor is still refused after their kernels were reclaimed"

    # The learner's connected kernel was spared and still answers.
    assert await asyncio.to_thread(kernel_exists, base, learner)
    assert await page_of_learner.kernel_answers()
    page_of_learner.ws.close()
    return figures


def test_room_caps_kernels_per_visitor_and_reclaims_never_connected_ones():
    port = free_port()
    cmd = [str(VENV_BIN / "python"), "-m", "railkit.ui.voila_template.room", "--no-browser", "--Voila.ip=127.0.0.1",
           f"--port={port}", "--Room.per_visitor=2", "."]
    server = start_server(cmd, NOTEBOOKS_DIR, f"http://127.0.0.1:{port}", "/voila/tree", ARTIFACTS / "room_voila.log")
    try:
        wait_for_pools(server, [LESSON])
        # On a thread of its own: a browser test before it in this worker may have left an event loop running here.
        with ThreadPoolExecutor(max_workers=1) as pool:
            figures = pool.submit(asyncio.run, room_run(server.base)).result()
        assert "Server full for 127.0.0.2" in server.log()
        print(json.dumps(figures))
    finally:
        server.stop()
