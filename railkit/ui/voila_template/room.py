# mypy: disable-error-code="no-untyped-call, misc"
# (Voila and jupyter_server carry no type hints)
"""``make run`` for a room: Voila with caps on the lesson pages open per browser, per address and in total.

Every page Voila renders takes a kernel (~70-100 MB), and nothing stops one visitor from asking for
pages in a loop: 40 parallel requests once took a server from 21 to 60 kernels and 4 GB. ``make run``
therefore starts ``python -m railkit.ui.voila_template.room`` (Voila itself, with its page handler
asking the ``Room`` first). The room counts **live pages**: a kernel whose page is connected, or was
handed out and is still connecting (``RailkitKernelManager.page_state``, kernels.py). A closed or
reloaded page's kernel is not counted: it is shut down by the page's own request as it closes, by the
culler, or by the room when the machine is full. So a reload never counts twice and never fails: it
takes a fresh kernel (from the pool) while its old one goes, and a kernel asked to shut down twice is
shut down once (kernels.py), never a "404 Kernel does not exist" for the page.

Visitors are told apart by a **browser cookie** (``railkit_visitor``: a random word the room sets on a
browser's first page; HttpOnly, SameSite=Lax; it names nobody and opens nothing). The caps:

* ``Room.per_visitor`` = **20 live pages per browser**. One laptop trying everything needs 13: the index,
  the seven other notebooks, three table seats, the teacher's page and Watch; a reload briefly holds one
  more (the old page closes only once the new one arrives). 20 leaves room for that and a few more tabs,
  yet 40 parallel opens from one browser get 20 pages and 20 "server is full" pages, not the machine.
* ``Room.per_address`` = **60 live pages per client address**: a class of 30 behind one router (a NAT,
  a proxy: one address for all) with the index and a lesson each. It stops a script that sends no cookie
  (every request a new "browser") from taking more than that; the total cap below protects the machine.
* ``Room.max_kernels`` in all (the pools' ready kernels included): what the memory available at start
  holds, (available − ``reserve_mb``) / ``kernel_mb`` (100 MB: a lesson kernel with its page open is
  50-90 MB), at least ``per_visitor``. At that cap, or when less than ``reserve_mb`` of memory would be left with the kernels
  being started, the room first shuts down the kernels of pages closed ``closed_grace`` seconds ago or
  longer (the longest closed first); only when that is not enough does the page get "the server is full"
  (HTTP 503, ``Retry-After: 60``, English, Finnish, Hungarian, Spanish: ``server_full.html``). Pages
  already open keep working.

Kernels whose page never connects are shut down after ``RailkitKernelManager.unconnected_timeout`` (40 s,
kernels.py) and stop counting as live then, so a script that fetches pages without running them frees
its place within a minute. Settings on the command line or in voila.json, e.g. ``make run
VOILA_ARGS=--Room.per_address=120`` (``0``: no cap of that kind).

Two of the libraries' warnings would only worry a teacher reading the terminal, so they are left out. Tornado
warns at the first page that "The websocket_ping_timeout (90000) cannot be longer than the websocket_ping_interval
(30000)": jupyter_server gives Tornado its own millisecond values where Tornado expects seconds (jupyter_server
#1612); its own keep-alive works in milliseconds and is unchanged (``QuietPingWarning``). And Voila warns that
each notebook "is not trusted" when it loads it (nbformat's signatures). Trust only decides whether stored
outputs (HTML, JavaScript) may show; the lessons are stored without outputs, so ``LessonNotary`` trusts a notebook
with no output, and only such a notebook, without a warning.
"""

from __future__ import annotations

import collections
import logging
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbformat.sign import MemorySignatureStore, NotebookNotary
from traitlets import Integer
from traitlets.config import Configurable
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

FULL_PAGE = Path(__file__).resolve().parent / "server_full.html"
VISITOR_COOKIE = "railkit_visitor"
VISITOR_WORD = re.compile(r"[A-Za-z0-9_-]{22,64}")  # what the room hands out; anything else gets a new one


def available_mb() -> int | None:
    """Memory available to new processes (Linux's MemAvailable), or None where unknown."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


@dataclass(frozen=True)
class Page:
    """A kernel the room handed to a page, as the room sees it now."""

    kernel_id: str
    visitor: str  # the browser's cookie
    address: str  # the client address
    live: bool  # connected, or handed out and still connecting
    closed_for: float = 0.0  # seconds since the page closed (0 while live)


class Room(Configurable):
    """Whose live pages hold which kernels, and whether one more page may have one (see the module)."""

    per_visitor = Integer(20, config=True, help="Live pages one browser (its cookie) may hold (0: no cap).")
    per_address = Integer(60, config=True, help="Live pages one client address may hold (0: no cap).")
    max_kernels = Integer(0, config=True, help="Kernels in all, pools included (0: from the memory available).")
    kernel_mb = Integer(100, config=True, help="Memory counted per kernel (the default max_kernels, the reserve).")
    reserve_mb = Integer(768, config=True, help="Memory kept for the system and Voila itself.")
    closed_grace = Integer(10, config=True, help="Seconds a closed page's kernel is kept before the room may "
                           "reclaim it for another page when full (a page reconnecting after a blip keeps it).")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not self.max_kernels:
            free = available_mb()
            # never below one browser's cap (on a small machine the memory check below still holds)
            self.max_kernels = max(self.per_visitor, (free - self.reserve_mb) // self.kernel_mb) if free else 40
        self.holders: dict[str, tuple[str, str]] = {}  # kernel id -> (visitor, address)
        self.pending_visitors: collections.Counter[str] = collections.Counter()  # pages getting a kernel now
        self.pending_addresses: collections.Counter[str] = collections.Counter()

    # -- what the room sees ------------------------------------------------------------------------------
    def pages(self, manager: Any) -> list[Page]:
        """The pages holding kernels now (kernels gone are forgotten)."""
        alive = set(manager.list_kernel_ids())
        for kernel_id in [k for k in self.holders if k not in alive]:
            del self.holders[kernel_id]
        state = getattr(manager, "page_state", None)
        now = time.monotonic()
        pages = []
        for kernel_id, (visitor, address) in self.holders.items():
            live, closed_for = state(kernel_id, now) if state else (True, 0.0)
            pages.append(Page(kernel_id, visitor, address, live, closed_for))
        return pages

    def over_cap(self, pages: list[Page], visitor: str, address: str) -> str | None:
        """Why ``visitor`` at ``address`` may not open one more page now (its browser's or address's cap), or None."""
        if self.per_visitor:
            held = sum(p.live for p in pages if p.visitor == visitor) + self.pending_visitors[visitor]
            if held >= self.per_visitor:
                return f"this browser has {held} live pages (Room.per_visitor={self.per_visitor})"
        if self.per_address:
            held = sum(p.live for p in pages if p.address == address) + self.pending_addresses[address]
            if held >= self.per_address:
                return f"{address} has {held} live pages (Room.per_address={self.per_address})"
        return None

    def reclaimable(self, pages: list[Page]) -> list[str]:
        """Kernels of pages closed at least ``closed_grace`` seconds ago, the longest closed first."""
        closed = sorted((p for p in pages if not p.live and p.closed_for >= self.closed_grace),
                        key=lambda p: p.closed_for, reverse=True)
        return [p.kernel_id for p in closed]

    def shortfall(self, kernels: int, free_mb: int | None) -> int:
        """How many kernels must go before one more page fits: by the total cap and by the memory left
        once the kernels being handed out have grown."""
        starting = sum(self.pending_visitors.values())
        need = kernels + starting + 1 - self.max_kernels
        if free_mb is not None:
            short_mb = self.reserve_mb + self.kernel_mb * (starting + 1) - free_mb
            need = max(need, -(-short_mb // self.kernel_mb))
        return max(0, need)

    # -- deciding ----------------------------------------------------------------------------------------
    async def admit(self, manager: Any, visitor: str, address: str) -> str | None:
        """Reserve a kernel for ``visitor``'s page; None, or why not (then nothing is reserved)."""
        pages = self.pages(manager)
        refused = self.over_cap(pages, visitor, address)
        if refused:
            return refused
        need = self.shortfall(len(manager.list_kernel_ids()), available_mb())
        if need:
            for kernel_id in self.reclaimable(pages)[:need]:
                manager.log.info("Room: the kernel %s of a closed page makes way for a new page", kernel_id)
                try:
                    await manager.shutdown_kernel(kernel_id)
                except Exception as exc:  # gone meanwhile, or failing to stop: the cap below still holds
                    manager.log.warning("Room: kernel %s did not shut down: %s", kernel_id, exc)
            free = available_mb()
            if self.shortfall(len(manager.list_kernel_ids()), free):
                total = len(manager.list_kernel_ids()) + sum(self.pending_visitors.values())
                return f"{total} kernels (Room.max_kernels={self.max_kernels}), {free} MB available " \
                       f"(Room.reserve_mb={self.reserve_mb})"
        self.pending_visitors[visitor] += 1
        self.pending_addresses[address] += 1
        return None

    def release(self, visitor: str, address: str) -> None:
        for counter, key in ((self.pending_visitors, visitor), (self.pending_addresses, address)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    def own(self, manager: Any, kernel_id: str, visitor: str, address: str) -> None:
        """The page reserved by ``admit`` got ``kernel_id``: the reservation becomes the page's kernel."""
        self.holders[kernel_id] = (visitor, address)
        self.release(visitor, address)
        mark = getattr(manager, "mark_handed_out", None)
        if mark is not None:
            mark(kernel_id)


class _VisitorKernels:
    """The kernel manager as one page's handler sees it: the kernel it gets is recorded as the visitor's."""

    def __init__(self, manager: Any, room: Room, visitor: str, address: str) -> None:
        self._manager, self._room, self._visitor, self._address = manager, room, visitor, address
        self.owns = False  # a kernel was handed out (the room's reservation is used up)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._manager, name)

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
        render_task, cache, kernel_id = await self._manager.get_rendered_notebook(*args, **kwargs)
        self._own(kernel_id)
        return render_task, cache, kernel_id

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        kernel_id: str = await self._manager.start_kernel(*args, **kwargs)
        self._own(kernel_id)
        return kernel_id

    def _own(self, kernel_id: str) -> None:
        if not self.owns:
            self.owns = True
            self._room.own(self._manager, kernel_id, self._visitor, self._address)


class RoomVoilaHandler(TornadoVoilaHandler):
    """Voila's page handler, asking the room first."""

    _visitor_kernels: _VisitorKernels | None = None

    @property
    def kernel_manager(self) -> Any:
        return self._visitor_kernels or self.settings["kernel_manager"]

    def visitor(self) -> str:
        """The browser's word from its cookie; a new one (and the cookie) for a browser without one."""
        word = self.get_cookie(VISITOR_COOKIE) or ""
        if not VISITOR_WORD.fullmatch(word):
            word = secrets.token_urlsafe(24)
            self.set_cookie(VISITOR_COOKIE, word, path=self.base_url or "/", httponly=True, samesite="Lax")
        return word

    async def get(self, path: str | None = None) -> None:
        room: Room = self.settings["railkit_room"]
        manager = self.settings["kernel_manager"]
        visitor, address = self.visitor(), self.request.remote_ip or "?"
        refused = await room.admit(manager, visitor, address)
        if refused:
            self.log.warning("Server full for browser %s… at %s (%s): %s", visitor[:6], address, path, refused)
            self.set_status(503)
            self.set_header("Retry-After", "60")
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(FULL_PAGE.read_bytes())
            return
        # Reading the token sets the ``_xsrf`` cookie. Voila's page sends it back when it closes, asking to
        # shut its kernel down; without the cookie that request got "403 '_xsrf' argument missing" and the
        # closed lesson's kernel kept its memory until the culler came.
        _ = self.xsrf_token
        self._visitor_kernels = kernels = _VisitorKernels(manager, room, visitor, address)
        started = time.monotonic()
        try:
            await super().get(path)
        finally:
            if not kernels.owns:  # no kernel after all (a redirect, an error): give the reservation back
                room.release(visitor, address)
            self.log.debug("Page %s for browser %s… in %.1f s", path, visitor[:6], time.monotonic() - started)


class QuietPingWarning(logging.Filter):
    """Leaves out Tornado's warning about jupyter_server's websocket ping settings (the module docstring)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("The websocket_ping_timeout (")


class LessonNotary(NotebookNotary):
    """Trusts a notebook without any output (nothing in it would show untrusted); others as nbformat does."""

    def check_signature(self, nb: Any) -> bool:
        if all(not cell.get("outputs") for cell in nb.get("cells", ())):
            return True
        return bool(super().check_signature(nb))


class RoomVoila(Voila):
    """Voila, with ``RoomVoilaHandler`` for the lesson pages and a ``Room``."""

    classes = [*Voila.classes, Room]

    @property
    def display_url(self) -> str:
        """The address Voila prints at start: the lesson index (Voila's own, the server's root, is a blank page)."""
        root = str(super().display_url).split("?", 1)[0]
        index = Path(self.root_dir or ".") / "index.ipynb"
        return root + ("voila/render/index.ipynb" if index.is_file() else "voila/tree")

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        # Before any notebook is read: the contents manager's notary is made on first use.
        self.contents_manager.notary = LessonNotary(parent=self.contents_manager, store_factory=MemorySignatureStore)
        self.room = Room(parent=self)
        settings["railkit_room"] = self.room
        ping_log = logging.getLogger("tornado.general")
        if not any(isinstance(f, QuietPingWarning) for f in ping_log.filters):
            ping_log.addFilter(QuietPingWarning())
        free = available_mb()
        self.log.info("Room: at most %d kernels (%s MB available), %s live pages per browser, %s per address",
                      self.room.max_kernels, free, self.room.per_visitor or "no cap", self.room.per_address or "no cap")
        return settings

    def init_handlers(self) -> list[Any]:
        return [(spec[0], RoomVoilaHandler, *spec[2:]) if spec[1] is TornadoVoilaHandler else spec
                for spec in super().init_handlers()]


main = RoomVoila.launch_instance

if __name__ == "__main__":
    main()
