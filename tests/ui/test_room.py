"""``make run`` for a room (railkit.ui.voila_template.room): caps on the live pages per browser, per address and in
total, so that one visitor cannot take every kernel, and a reload never fails.

The room's decisions first, on the pages it sees (no server): live pages count, closed ones (a reloaded or closed
tab) do not; a browser is its cookie; the reservations of pages being served count; only pages closed for a while
are reclaimed, the longest closed first, and only as many as the machine needs.

Then a real Voila room (as ``make run`` starts it, with small caps: 2 pages per browser, 3 per address) and real
HTTP requests and kernel websockets from loopback addresses: the cookie is set HttpOnly and SameSite=Lax; a browser
past its cap and an address past its cap get the "server is full" page, another browser at that address does not;
a page reloaded while its old kernel is being shut down (by the page's own request, twice) gets its lesson, never a
404; a browser whose pages never connected is served again once they stop counting.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import shutil
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

import nbformat
import pytest
from conftest import ARTIFACTS, NOTEBOOKS_DIR, VENV_BIN, free_port, start_server, wait_for_pools, wait_until_idle
from nbformat.sign import MemorySignatureStore

from railkit.ui.voila_template.room import VISITOR_COOKIE, LessonNotary, Page, Room

LESSON = "kk_auction.ipynb"
FULL = "The server is full, try again in a minute."
KERNEL_ID = re.compile(r'kernelId["\']?\s*[:=]\s*["\']([0-9a-f-]{36})')


# -- the room's decisions ---------------------------------------------------------------------------------
def room(**caps: int) -> Room:
    return Room(**{"per_visitor": 3, "per_address": 5, "max_kernels": 10, "reserve_mb": 500, "kernel_mb": 100,
                   "closed_grace": 10, **caps})


def pages(visitor: str, address: str, live: int, closed: tuple[float, ...] = ()) -> list[Page]:
    return [Page(f"{visitor}-live-{i}", visitor, address, True) for i in range(live)] + \
        [Page(f"{visitor}-closed-{i}", visitor, address, False, seconds) for i, seconds in enumerate(closed)]


def test_a_browser_counts_its_live_pages_not_its_closed_or_reloaded_ones():
    cap = room()
    reloaded = pages("ann", "10.0.0.5", live=2, closed=(0.5, 30.0, 600.0))  # two tabs open, three reloaded/closed
    assert cap.over_cap(reloaded, "ann", "10.0.0.5") is None
    full = pages("ann", "10.0.0.5", live=3)
    assert "Room.per_visitor=3" in cap.over_cap(full, "ann", "10.0.0.5")
    # another browser behind the same router is not held back by Ann's cap
    assert cap.over_cap(full, "ben", "10.0.0.5") is None


def test_pages_being_served_count_until_they_have_their_kernel():
    cap = room()
    cap.pending_visitors["ann"] += 1
    cap.pending_addresses["10.0.0.5"] += 1
    assert "per_visitor" in cap.over_cap(pages("ann", "10.0.0.5", live=2), "ann", "10.0.0.5")
    cap.release("ann", "10.0.0.5")
    assert cap.over_cap(pages("ann", "10.0.0.5", live=2), "ann", "10.0.0.5") is None
    assert not cap.pending_visitors and not cap.pending_addresses


def test_an_address_is_capped_over_all_its_browsers():
    cap = room()
    behind_router = pages("ann", "10.0.0.5", live=2) + pages("ben", "10.0.0.5", live=3, closed=(99.0,))
    assert "Room.per_address=5" in cap.over_cap(behind_router, "cy", "10.0.0.5")
    assert cap.over_cap(behind_router, "cy", "10.0.0.6") is None
    assert room(per_address=0).over_cap(behind_router, "cy", "10.0.0.5") is None  # 0: no cap


def test_only_pages_closed_for_a_while_are_reclaimed_the_longest_closed_first():
    cap = room()
    seen = pages("ann", "a", live=2, closed=(3.0, 50.0, 700.0)) + pages("ben", "b", live=1, closed=(12.0,))
    assert cap.reclaimable(seen) == ["ann-closed-2", "ann-closed-1", "ben-closed-0"]  # 3 s: may be reconnecting


def test_the_room_asks_for_as_many_kernels_as_the_total_cap_and_the_memory_need():
    cap = room()
    assert cap.shortfall(kernels=5, free_mb=5000) == 0
    assert cap.shortfall(kernels=10, free_mb=5000) == 1  # at max_kernels=10
    cap.pending_visitors["ann"] += 2  # two pages getting kernels now: they will grow
    assert cap.shortfall(kernels=8, free_mb=5000) == 1
    assert cap.shortfall(kernels=1, free_mb=500) == 3  # 500 MB kept + 3 kernels of 100 MB: 300 MB short
    assert cap.shortfall(kernels=1, free_mb=None) == 0  # memory unknown: the total cap alone


def test_lessons_stored_without_outputs_are_trusted_others_as_nbformat_says():
    notary = LessonNotary(store_factory=MemorySignatureStore)
    lesson = nbformat.read(NOTEBOOKS_DIR / LESSON, as_version=4)
    assert notary.check_signature(lesson)
    lesson.cells[-1].outputs = [nbformat.v4.new_output("display_data", {"text/html": "<script>x</script>"})]
    assert not notary.check_signature(lesson)


# -- a real room ------------------------------------------------------------------------------------------
class Browser:
    """An HTTP client from one loopback address that keeps its cookies, as a browser does (``cookies=False``: a
    script that sends none)."""

    def __init__(self, base: str, address: str, cookies: bool = True) -> None:
        self.base, self.address, self.keeps = base, address, cookies
        self.jar: dict[str, str] = {}
        self.set_cookies: list[str] = []

    def request(self, method: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        parts = urlsplit(self.base)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=180, source_address=(self.address, 0))
        sent = dict(headers or {})
        if self.jar:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.jar.items())
        try:
            conn.request(method, path, headers=sent)
            reply = conn.getresponse()
            for raw in reply.headers.get_all("Set-Cookie") or []:
                self.set_cookies.append(raw)
                if self.keeps:
                    self.jar.update({k: m.value for k, m in SimpleCookie(raw).items()})
            return reply.status, dict(reply.getheaders()), reply.read().decode("utf-8", "replace")
        finally:
            conn.close()

    def open(self, lesson: str = LESSON) -> tuple[int, str]:
        status, _, body = self.request("GET", f"/voila/render/{lesson}")
        return status, body

    def shut_down(self, kernel_id: str) -> int:
        """The request a Voila page sends for its kernel as it closes (with the ``_xsrf`` cookie the room set)."""
        status, _, _ = self.request("POST", f"/voila/api/shutdown/{kernel_id}", {"X-XSRFToken": self.jar.get("_xsrf", "")})
        return status


def kernel_of(page: str) -> str:
    found = KERNEL_ID.search(page)
    assert found, "no kernel id in the lesson page"
    return found.group(1)


def kernel_exists(base: str, kernel_id: str) -> bool:
    status, _, _ = Browser(base, "127.0.0.1", cookies=False).request("GET", f"/api/kernels/{kernel_id}")
    assert status in (200, 404), f"/api/kernels/{kernel_id}: HTTP {status}"
    return status == 200


class Connected:
    """A page's connection to its kernel, read all the time as a browser does (tornado's client stops answering the
    server's pings while an unread message waits, and the server then hangs up)."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def to(cls, base: str, kernel_id: str) -> Connected:
        from tornado.websocket import websocket_connect

        return cls(await websocket_connect(f"ws://{urlsplit(base).netloc}/api/kernels/{kernel_id}/channels"))

    async def _read(self) -> None:
        while (raw := await self.ws.read_message()) is not None:
            await self.inbox.put(raw)
        await self.inbox.put(None)

    async def kernel_answers(self) -> bool:
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

    def close(self) -> None:
        self.ws.close()


async def room_run(base: str) -> dict:
    figures: dict = {}
    # A first page sets the browser's cookie: HttpOnly (no script reads it), SameSite=Lax.
    ann = Browser(base, "127.0.0.2")
    status, _ = await asyncio.to_thread(ann.open)
    assert status == 200
    visitor = [c for c in ann.set_cookies if c.startswith(f"{VISITOR_COOKIE}=")]
    assert len(visitor) == 1, ann.set_cookies
    attributes = {a.strip().split("=")[0].lower(): a.strip() for a in visitor[0].split(";")[1:]}
    assert "httponly" in attributes and attributes.get("samesite", "").lower() == "samesite=lax", visitor[0]
    asked = time.monotonic()

    # Ann asks for two more pages without ever connecting: her browser's cap (2) refuses the second.
    replies = [await asyncio.to_thread(ann.open) for _ in range(2)]
    assert [r[0] for r in replies] == [200, 503], [r[0] for r in replies]
    assert FULL in replies[1][1] and 'lang="fi"' in replies[1][1]
    assert sum(c.startswith(f"{VISITOR_COOKIE}=") for c in ann.set_cookies) == 1, "the cookie was set again"

    # Ben, another browser behind the same address, is served (the address's cap is 3) ...
    assert (await asyncio.to_thread(Browser(base, "127.0.0.2").open))[0] == 200
    # ... and then a script that sends no cookie (a new browser each time) meets the address's cap.
    status, headers, body = await asyncio.to_thread(Browser(base, "127.0.0.2", cookies=False).request, "GET",
                                                    f"/voila/render/{LESSON}")
    assert status == 503 and headers.get("Retry-After") == "60" and FULL in body

    # A learner elsewhere: a lesson page connected to its kernel, and a second page.
    cy = Browser(base, "127.0.0.3")
    status, page = await asyncio.to_thread(cy.open)
    assert status == 200
    first = kernel_of(page)
    tab = await Connected.to(base, first)
    assert await tab.kernel_answers()
    status, page = await asyncio.to_thread(cy.open)
    assert status == 200
    second = await Connected.to(base, kernel_of(page))
    assert await second.kernel_answers()
    # Cy reloads the first tab: the old page goes (its connection closes and it asks, twice here, for its kernel to
    # be shut down) while the new page asks for the lesson. At her cap of 2, the closed page does not count.
    tab.close()
    shutdowns = [asyncio.to_thread(cy.shut_down, first) for _ in range(2)]
    reloaded, *answers = await asyncio.gather(asyncio.to_thread(cy.open), *shutdowns)
    assert reloaded[0] == 200 and kernel_of(reloaded[1]) != first, f"the reload got HTTP {reloaded[0]}"
    assert answers == [204, 204], f"shutting a kernel down twice: {answers}"
    assert not await asyncio.to_thread(kernel_exists, base, first)
    fresh = await Connected.to(base, kernel_of(reloaded[1]))
    assert await fresh.kernel_answers() and await second.kernel_answers()

    # Ann's pages never connected: past the unconnected timeout they stop counting, and she is served again.
    while (await asyncio.to_thread(ann.open))[0] != 200:
        assert time.monotonic() - asked < 60, "Ann is still refused after her pages stopped counting"
        await asyncio.sleep(1)
    figures["never_connected_pages_stop_counting_after_s"] = round(time.monotonic() - asked, 1)
    for connection in (fresh, second):
        connection.close()
    return figures


@pytest.mark.server
@pytest.mark.xdist_group("room")
def test_a_real_room_caps_browsers_and_addresses_and_a_reload_gets_its_lesson(tmp_path):
    folder = tmp_path / "lessons"
    folder.mkdir()
    for name in (LESSON, "voila.json"):
        shutil.copy(NOTEBOOKS_DIR / name, folder)
    port = free_port()
    cmd = [str(VENV_BIN / "python"), "-m", "railkit.ui.voila_template.room", "--no-browser", "--Voila.ip=127.0.0.1",
           f"--port={port}", "--Room.per_visitor=2", "--Room.per_address=3",
           "--RailkitKernelManager.unconnected_timeout=8", "."]
    server = start_server(cmd, folder, f"http://127.0.0.1:{port}", "/voila/tree", ARTIFACTS / "room_voila.log")
    try:
        wait_for_pools(server, [LESSON])
        wait_until_idle(server)
        # On a thread of its own: a browser test before it in this worker may have left an event loop running here.
        with ThreadPoolExecutor(max_workers=1) as pool:
            figures = pool.submit(asyncio.run, room_run(server.base)).result()
        log = server.log()
        assert "Server full for browser" in log and "Room.per_address=3" in log
        failed = re.findall(r"\b(?:404|500) (?:GET|POST) /voila/\S+", log)  # a page or a page's shut-down request
        assert not failed and "is not trusted" not in log, failed
        print(json.dumps(figures))
    finally:
        server.stop()


def test_tornados_false_ping_warning_is_left_out_and_other_warnings_are_kept(caplog) -> None:
    """jupyter_server#1612: Tornado's warning about the websocket ping settings jupyter_server gives it says nothing a
    teacher can act on; every other warning of Tornado's still shows."""
    import logging

    from railkit.ui.voila_template.room import QuietPingWarning

    tornado_log = logging.getLogger("tornado.general")
    quiet = QuietPingWarning()
    tornado_log.addFilter(quiet)
    try:
        with caplog.at_level(logging.WARNING, logger="tornado.general"):
            tornado_log.warning("The websocket_ping_timeout (90000) cannot be longer than the websocket_ping_interval "
                                "(30000).\nSetting websocket_ping_timeout=30000")
            tornado_log.warning("Unsupported websocket protocol")
        assert [r.getMessage() for r in caplog.records] == ["Unsupported websocket protocol"]
    finally:
        tornado_log.removeFilter(quiet)
