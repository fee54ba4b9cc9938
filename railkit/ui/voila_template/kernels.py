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
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from jupyter_client.kernelspec import NoSuchKernel
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Integer

from railkit.ui.voila_template.lesson_kernel import KERNEL_NAME as LESSON_KERNEL

# The kernels a lesson notebook may name that the lean lesson kernel stands in for.
PLAIN_PYTHON = {None, "", "python3", "python"}


class RailkitKernelManager(AsyncMappingKernelManager):
    """``AsyncMappingKernelManager`` whose culler spares pages that are connecting (see the module)."""

    unconnected_timeout = Integer(40, config=True, help="Seconds a kernel handed to a page may wait for the page "
                                  "to connect before it is shut down (0: only cull_idle_timeout applies).")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._connected_once: set[str] = set()  # kernels a page has connected to
        self._handed_out: dict[str, float] = {}  # never-connected kernels outside the pool: since when (monotonic)

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

    async def start_kernel(self, *args: Any, kernel_name: str | None = None, **kwargs: Any) -> str:
        return await super().start_kernel(*args, kernel_name=self.lesson_kernel_name(kernel_name), **kwargs)

    def _restart_idle_clock(self, kernel_id: str) -> None:
        try:
            kernel = self.get_kernel(kernel_id)
        except KeyError:  # already shut down
            return
        # jupyter_server sets last_activity on every kernel it starts; its private _tz.utcnow is this aware UTC time
        kernel.last_activity = datetime.now(UTC)  # type: ignore[attr-defined]

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self._connected_once.add(kernel_id)
        if self._handed_out.pop(kernel_id, None) is not None:
            self._restart_idle_clock(kernel_id)  # the idle time gathered in the pool does not count

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)
        self._restart_idle_clock(kernel_id)  # the lesson sleeps a full timeout after its page went away

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        # Voila's pool manager (a subclass) has already returned for kernels still waiting in its pool.
        if kernel_id not in self._connected_once:
            since = self._handed_out.setdefault(kernel_id, time.monotonic())
            try:
                kernel = self.get_kernel(kernel_id)
            except KeyError:  # already shut down
                kernel = None
            waited = time.monotonic() - since
            if self.unconnected_timeout and waited > self.unconnected_timeout and kernel is not None \
                    and getattr(kernel, "execution_state", None) != "busy":
                self.log.info("Culling kernel %s: its page never connected in %.0f s", kernel_id, waited)
                await self.shutdown_kernel(kernel_id)
            return  # else: a page still loading; cull_idle_timeout counts from its first connection
        await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        self._connected_once.discard(kernel_id)
        self._handed_out.pop(kernel_id, None)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)
