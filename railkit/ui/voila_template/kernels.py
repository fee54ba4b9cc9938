# mypy: disable-error-code="no-untyped-call, override"
# (jupyter_server's kernel managers carry no type hints)
"""The kernel manager railkit's Voila uses (``notebooks/voila.json``): lessons run in the lean
``railkit-lesson`` kernel, and idle kernels are culled a few minutes after their page went away, never
while a page is still connecting.

A notebook asking for ``python3`` gets ``railkit-lesson`` (``lesson_kernel``: the same ipykernel without
its debugger, ~8 MB less per learner) when that spec is installed, else ``python3`` as before.

A closing page asks Voila to shut its kernel down; that request fails an xsrf check unless the page's
handler set the ``_xsrf`` cookie (``room`` does, so ``make run`` frees a closed lesson's kernel at once).
Where that request fails or never comes (a plain ``voila``, a crashed browser, a laptop going to sleep), a
closed lesson would keep its ~90 MB kernel. The culler (``MappingKernelManager.cull_*`` in
voila.json, ``cull_connected: false``) removes kernels without a connection that have been idle for
``cull_idle_timeout`` seconds. Two cases need care:

* A preheated kernel waits in Voila's pool without any connection. Voila 0.5.13's own manager skips
  kernels still in the pool (``VoilaKernelManager.cull_kernel_if_idle``), but a kernel just handed to a
  page keeps the idle time it gathered in the pool, often longer than the timeout: culled on that
  clock, the lesson would be dead on arrival. So a kernel that has never been connected is judged by
  the time since it was handed out (``mark_handed_out``, called by ``room``; else since the culler
  first saw it outside the pool): after ``unconnected_timeout`` seconds (40; ``cull_interval`` 10 in
  voila.json, so within a minute) without its page ever connecting, it is shut down unless busy. A page
  connects within seconds; a page that never does (a script fetching lessons, a tab closed while
  loading) would otherwise hold ~70-150 MB for the whole ``cull_idle_timeout``.
* A kernel's idle time counts from its last message, so a page left open without a click for an hour,
  then closed (or a laptop going to sleep), would lose its kernel at the next cull. The idle time is
  restarted when a page disconnects: the lesson sleeps ``cull_idle_timeout`` after the page has gone.

Two more things for ``room`` (``make run``) and the class hub's learners' servers (deploy/):

* Shutting a kernel down is idempotent: a reloading page's shut-down request, the room reclaiming a
  closed page's kernel and the culler may all ask for the same kernel; the second one waits for the
  first and returns, instead of failing with "404 Kernel does not exist" (which once reached a
  reloading page through the room and left it blank).
* ``page_state`` says whether a kernel's page is still live (connected, or handed out and connecting)
  or how long ago it closed; ``max_kernels`` caps the kernels of one server (a learner's own server on
  the hub: each kernel has ~13 threads, and the learner's process limit counts threads). At the cap a
  new kernel first takes the place of the longest-closed page's kernel; when every kernel has a live
  page, the new one is refused (HTTP 503, in words).
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

from jupyter_client.kernelspec import NoSuchKernel
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer

from railkit.ui.voila_template.lesson_kernel import KERNEL_NAME as LESSON_KERNEL

# The kernels a lesson notebook may name that the lean lesson kernel stands in for.
PLAIN_PYTHON = {None, "", "python3", "python"}


class RailkitKernelManager(AsyncMappingKernelManager):
    """``AsyncMappingKernelManager`` whose culler spares pages that are connecting (see the module)."""

    unconnected_timeout = Integer(40, config=True, help="Seconds a kernel handed to a page may wait for the page "
                                  "to connect before it is shut down (0: only cull_idle_timeout applies).")
    max_kernels = Integer(0, config=True, help="Kernels this server may run at once, pools included (0: no cap); "
                          "at the cap a closed page's kernel makes way, else a new page is refused.")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._connected_once: set[str] = set()  # kernels a page has connected to
        self._handed_out: dict[str, float] = {}  # never-connected kernels outside the pool: since when (monotonic)
        self._closed_at: dict[str, float] = {}  # kernels whose last connection closed: when (monotonic)
        self._stopping: dict[str, asyncio.Future[Any]] = {}  # shutdowns under way, awaited by a second request
        self._starting = 0  # kernels being started right now (counted against max_kernels)

    def mark_handed_out(self, kernel_id: str) -> None:
        """A page has just been given this kernel (its clock for ``unconnected_timeout`` starts)."""
        if kernel_id not in self._connected_once:
            self._handed_out[kernel_id] = time.monotonic()

    def lesson_kernel_name(self, kernel_name: str | None) -> str | None:
        """``railkit-lesson`` for a plain Python notebook when its spec is installed; else ``kernel_name``."""
        specs = self.kernel_spec_manager
        if kernel_name not in PLAIN_PYTHON or specs is None:
            return kernel_name
        try:
            specs.get_kernel_spec(LESSON_KERNEL)
        except NoSuchKernel:
            return kernel_name
        return LESSON_KERNEL

    def page_state(self, kernel_id: str, now: float | None = None) -> tuple[bool, float]:
        """(live, closed for how many seconds) of the page a kernel was handed to: live while a page is
        connected, or while it has not yet connected and ``unconnected_timeout`` has not passed."""
        now = time.monotonic() if now is None else now
        if self._kernel_connections.get(kernel_id, 0) > 0:
            return True, 0.0
        if kernel_id in self._connected_once:
            return False, now - self._closed_at.get(kernel_id, now)
        since = self._handed_out.get(kernel_id)
        if since is None or not self.unconnected_timeout or now - since <= self.unconnected_timeout:
            return True, 0.0
        return False, now - since - self.unconnected_timeout

    def closed_kernels(self, grace: float = 0.0) -> list[str]:
        """Kernels whose page has closed at least ``grace`` seconds ago, the longest closed first (never
        one still in a pool: those were never handed out)."""
        now = time.monotonic()
        closed = []
        for kernel_id in self.list_kernel_ids():
            if kernel_id in self._connected_once or kernel_id in self._handed_out:
                live, closed_for = self.page_state(kernel_id, now)
                if not live and closed_for >= grace and kernel_id not in self._stopping:
                    closed.append((closed_for, kernel_id))
        return [kernel_id for _, kernel_id in sorted(closed, reverse=True)]

    async def start_kernel(self, *args: Any, kernel_name: str | None = None, **kwargs: Any) -> str:
        if self.max_kernels:
            await self._make_room()
        self._starting += 1
        try:
            kernel_id: str = await super().start_kernel(*args, kernel_name=self.lesson_kernel_name(kernel_name),
                                                        **kwargs)
        finally:
            self._starting -= 1
        if getattr(self, "_pools", None) is None:
            # No Voila pool here (a learner's server on the hub): the kernel goes to a page at once, so its
            # unconnected_timeout starts now. Voila's pool manager (``make run``) starts kernels for its pools
            # instead, and ``room`` marks each when a page takes it.
            self.mark_handed_out(kernel_id)
        return kernel_id

    async def _make_room(self) -> None:
        """Below ``max_kernels`` (closed pages' kernels shut down first), or HTTP 503."""
        excess = len(self.list_kernel_ids()) + self._starting + 1 - self.max_kernels
        if excess <= 0:
            return
        for kernel_id in self.closed_kernels()[:excess]:
            self.log.info("Kernel %s makes way for a new page: its page closed (max_kernels=%d)", kernel_id,
                          self.max_kernels)
            await self.shutdown_kernel(kernel_id)
        held = len(self.list_kernel_ids()) + self._starting
        if held >= self.max_kernels:
            self.log.warning("No new kernel: %d kernels with open pages (max_kernels=%d)", held, self.max_kernels)
            # The page (railkit template's 503.html) adds what to do, in four languages.
            raise web.HTTPError(503, f"{held} lessons are open (at most {self.max_kernels}).")

    def _restart_idle_clock(self, kernel_id: str) -> None:
        if kernel_id not in self:  # already shut down
            return
        kernel = self.get_kernel(kernel_id)
        # jupyter_server sets last_activity on every kernel it starts; its private _tz.utcnow is this aware UTC time
        kernel.last_activity = datetime.now(UTC)  # type: ignore[attr-defined]

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self._connected_once.add(kernel_id)
        self._closed_at.pop(kernel_id, None)
        if self._handed_out.pop(kernel_id, None) is not None:
            self._restart_idle_clock(kernel_id)  # the idle time gathered in the pool does not count

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)
        if self._kernel_connections.get(kernel_id, 0) <= 0:
            self._closed_at[kernel_id] = time.monotonic()
        self._restart_idle_clock(kernel_id)  # the lesson sleeps a full timeout after its page went away

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        # Voila's pool manager (a subclass) has already returned for kernels still waiting in its pool. The culler
        # walks a list taken before its awaits: a kernel shut down meanwhile (a closed page, a reload) is passed
        # over (get_kernel would raise "404 Kernel does not exist", a traceback in the terminal).
        if kernel_id not in self or kernel_id in self._stopping:
            return
        if kernel_id not in self._connected_once:
            since = self._handed_out.setdefault(kernel_id, time.monotonic())
            kernel = self.get_kernel(kernel_id)
            waited = time.monotonic() - since
            if self.unconnected_timeout and waited > self.unconnected_timeout \
                    and getattr(kernel, "execution_state", None) != "busy":
                self.log.info("Culling kernel %s: its page never connected in %.0f s", kernel_id, waited)
                await self.shutdown_kernel(kernel_id)
            return  # else: a page still loading; cull_idle_timeout counts from its first connection
        await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        under_way = self._stopping.get(kernel_id)
        if under_way is not None:  # asked twice (the page's own request, the room, the culler): wait for the first
            await asyncio.shield(under_way)
            return None
        if kernel_id not in self:  # already gone: nothing to do (the caller wanted it gone)
            self.log.debug("Kernel %s was already shut down", kernel_id)
            return None
        shutdown = asyncio.ensure_future(super().shutdown_kernel(kernel_id, *args, **kwargs))
        self._stopping[kernel_id] = shutdown
        try:
            return await asyncio.shield(shutdown)
        finally:
            self._stopping.pop(kernel_id, None)
            self._connected_once.discard(kernel_id)
            self._handed_out.pop(kernel_id, None)
            self._closed_at.pop(kernel_id, None)
