# mypy: disable-error-code="no-untyped-call, misc"
# (Voila and jupyter_server carry no type hints)
"""``make run`` for a room: Voila with a cap on kernels per visitor and in total.

Every page Voila renders takes a kernel (~70-150 MB), and nothing stops one visitor from asking for
pages in a loop: 40 parallel requests once took a server from 21 to 60 kernels and 4 GB. ``make run``
therefore starts ``python -m railkit.ui.voila_template.room`` (Voila itself, with this one handler
changed): before a lesson gets a kernel,

* a visitor (a client address) who already holds ``Room.per_visitor`` kernels (default 6: the index
  and a few lessons) first loses the kernels of their pages that have closed; if all are still open
  they get the "server is full" page;
* past ``Room.max_kernels`` kernels in all (pools included), or with less than ``Room.reserve_mb`` of
  memory available, everyone new gets that page (HTTP 503, ``Retry-After: 60``, English, Finnish,
  Hungarian, Spanish: ``server_full.html``) instead of the machine running out of memory.

``max_kernels`` defaults to what the memory available at start holds: (available − ``reserve_mb``) /
``kernel_mb`` (150 MB, a lesson kernel with room to play). Kernels whose page never connects are shut
down after ``RailkitKernelManager.unconnected_timeout`` (kernels.py), so a script that fetches pages
without running them frees its kernels within a minute. Settings on the command line or in
voila.json, e.g. ``make run VOILA_ARGS=--Room.per_visitor=10`` (a room behind one NAT address needs a
larger cap or ``0``, no per-visitor cap).
"""

from __future__ import annotations

import collections
import time
from pathlib import Path
from typing import Any

from traitlets import Integer
from traitlets.config import Configurable
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

FULL_PAGE = Path(__file__).resolve().parent / "server_full.html"


def available_mb() -> int | None:
    """Memory available to new processes (Linux's MemAvailable), or None where unknown."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


class Room(Configurable):
    """Who holds which kernel, and whether one more page may have one."""

    per_visitor = Integer(6, config=True, help="Kernels one client address may hold (0: no cap).")
    max_kernels = Integer(0, config=True, help="Kernels in all, pools included (0: from the memory available).")
    kernel_mb = Integer(150, config=True, help="Memory counted per kernel for the default max_kernels.")
    reserve_mb = Integer(768, config=True, help="Memory kept for the system and Voila itself.")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not self.max_kernels:
            free = available_mb()
            self.max_kernels = max(self.per_visitor or 4, (free - self.reserve_mb) // self.kernel_mb) if free else 40
        self.owner: dict[str, str] = {}  # kernel id -> client address
        self.pending: collections.Counter[str] = collections.Counter()  # pages getting a kernel right now

    def holding(self, manager: Any, visitor: str) -> list[str]:
        alive = set(manager.list_kernel_ids())
        for kernel_id in [k for k in self.owner if k not in alive]:
            del self.owner[kernel_id]
        return [k for k, who in self.owner.items() if who == visitor]

    async def admit(self, manager: Any, visitor: str) -> str | None:
        """Reserve a kernel for ``visitor``'s page; None, or why not (then nothing is reserved)."""
        if self.per_visitor:
            held = self.holding(manager, visitor)
            if len(held) + self.pending[visitor] >= self.per_visitor:
                connections = getattr(manager, "_kernel_connections", {})
                closed = [k for k in held if k in getattr(manager, "_connected_once", ()) and not connections.get(k)]
                for kernel_id in closed:  # pages the visitor has closed or reloaded
                    self.owner.pop(kernel_id, None)
                    await manager.shutdown_kernel(kernel_id)
                if len(held) - len(closed) + self.pending[visitor] >= self.per_visitor:
                    return f"{visitor} holds {len(held) - len(closed)} kernels (Room.per_visitor={self.per_visitor})"
        total = len(manager.list_kernel_ids()) + sum(self.pending.values())
        if total >= self.max_kernels:
            return f"{total} kernels (Room.max_kernels={self.max_kernels})"
        free = available_mb()
        if free is not None and free < self.reserve_mb:
            return f"{free} MB of memory available (Room.reserve_mb={self.reserve_mb})"
        self.pending[visitor] += 1
        return None

    def release(self, visitor: str) -> None:
        self.pending[visitor] -= 1
        if self.pending[visitor] <= 0:
            del self.pending[visitor]

    def own(self, manager: Any, kernel_id: str, visitor: str) -> None:
        """The page reserved by ``admit`` got ``kernel_id``: the reservation becomes the kernel."""
        self.owner[kernel_id] = visitor
        self.release(visitor)
        mark = getattr(manager, "mark_handed_out", None)
        if mark is not None:
            mark(kernel_id)


class _VisitorKernels:
    """The kernel manager as one page's handler sees it: the kernel it gets is recorded as the visitor's."""

    def __init__(self, manager: Any, room: Room, visitor: str) -> None:
        self._manager, self._room, self._visitor = manager, room, visitor
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
            self._room.own(self._manager, kernel_id, self._visitor)


class RoomVoilaHandler(TornadoVoilaHandler):
    """Voila's page handler, asking the room first."""

    _visitor_kernels: _VisitorKernels | None = None

    @property
    def kernel_manager(self) -> Any:
        return self._visitor_kernels or self.settings["kernel_manager"]

    async def get(self, path: str | None = None) -> None:
        room: Room = self.settings["railkit_room"]
        manager = self.settings["kernel_manager"]
        visitor = self.request.remote_ip or "?"
        refused = await room.admit(manager, visitor)
        if refused:
            self.log.warning("Server full for %s (%s): %s", visitor, path, refused)
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
        self._visitor_kernels = kernels = _VisitorKernels(manager, room, visitor)
        started = time.monotonic()
        try:
            await super().get(path)
        finally:
            if not kernels.owns:  # no kernel after all (a redirect, an error): give the reservation back
                room.release(visitor)
            self.log.debug("Page %s for %s in %.1f s", path, visitor, time.monotonic() - started)


class RoomVoila(Voila):
    """Voila, with ``RoomVoilaHandler`` for the lesson pages and a ``Room``."""

    classes = [*Voila.classes, Room]

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        self.room = Room(parent=self)
        settings["railkit_room"] = self.room
        free = available_mb()
        self.log.info("Room: at most %d kernels (%s MB available), %s per visitor", self.room.max_kernels,
                      free, self.room.per_visitor or "no cap")
        return settings

    def init_handlers(self) -> list[Any]:
        return [(spec[0], RoomVoilaHandler, *spec[2:]) if spec[1] is TornadoVoilaHandler else spec
                for spec in super().init_handlers()]


main = RoomVoila.launch_instance

if __name__ == "__main__":
    main()
