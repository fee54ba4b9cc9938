"""The real-page part of ``benchmarks/tables.py --chromium N``: two learners in Chromium at one Vom Kap bis
Kairo table (two seats, no computer player), served by Voila as ``make run`` serves it, beside the simulated
load. The learner whose turn it is clicks their move (the lowest bid, or “Make this move”); measured is the
time from that click to the other learner's page showing it (its list of the table's events changed).
Uses the test suite's helpers for Voila and Chromium (tests/conftest.py): run it after ``make test``'s setup.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LESSON = "kk_play.ipynb"
EVENTS_JS = "() => (document.querySelector('.railkit-table-events') || {}).innerHTML || ''"


class Pages:
    """Voila with the Kap bis Kairo play lesson and two Chromium pages seated at one table."""

    def __init__(self, tables_url: str) -> None:
        sys.path.insert(0, str(ROOT / "tests"))
        import conftest  # the suite's helpers: Voila, pools, Chromium

        self.c = conftest
        self.tmp = tempfile.TemporaryDirectory(prefix="railkit-tables-chromium-")
        folder = Path(self.tmp.name)
        shutil.copy(conftest.NOTEBOOKS_DIR / LESSON, folder)
        shutil.copy(conftest.NOTEBOOKS_DIR / "voila.json", folder)
        port = conftest.free_port()
        cmd = [str(conftest.VENV_BIN / "voila"), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}", "."]
        self.voila = conftest.start_server(cmd, folder, f"http://127.0.0.1:{port}", "/voila/tree",
                                           folder / "voila.log", env={"RAILKIT_TABLES_URL": tables_url})
        conftest.wait_for_pools(self.voila, [LESSON])
        from playwright.sync_api import sync_playwright

        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(executable_path=str(conftest.CHROMIUM), headless=True)
        self.ann, self.ben = self.browser.new_page(), self.browser.new_page()
        for page in (self.ann, self.ben):
            conftest.open_app(page, self.voila.url(LESSON))
            page.click(".lm-TabBar-tab:has-text('Play with others')")
            page.wait_for_selector(".railkit-table-create", state="visible")
        c = conftest
        c.fill(self.ann, ".railkit-table-name", "Ann")
        self.ann.select_option(".railkit-table-players select", "2")
        self.ann.select_option(".railkit-table-bots select", "0")
        self.ann.click(".railkit-table-create")
        self.ann.wait_for_selector(".railkit-table-lobby .rk-code", state="visible")
        code = self.ann.inner_text(".railkit-table-lobby .rk-code").strip()
        c.fill(self.ben, ".railkit-table-name", "Ben")
        c.fill(self.ben, ".railkit-table-code", code)
        self.ben.click(".railkit-table-join")
        c.wait_text(self.ben, ".railkit-table-lobby", "(you)")

    def click_and_wait(self, deadline_s: float = 60) -> float | None:
        """One move by whoever is to move; ms from the click to the other page showing it (None: game over)."""
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            for me, other in ((self.ann, self.ben), (self.ben, self.ann)):
                if me.locator(".railkit-table-turn .rk-over").count():
                    return None
                if not me.locator(".railkit-table-turn .rk-yours").count():
                    continue
                before, mine = other.evaluate(EVENTS_JS), me.evaluate(EVENTS_JS)
                bidding = me.locator(".railkit-table-bid").is_visible()
                if bidding:
                    self.c.fill(me, ".railkit-table-amount", "0")
                start = time.perf_counter()
                me.click(".railkit-table-bid" if bidding else ".railkit-table-play")
                other.wait_for_function(f"(before) => ({EVENTS_JS[6:]}) !== before", arg=before,
                                        timeout=deadline_s * 1000)
                took = (time.perf_counter() - start) * 1000
                me.wait_for_function(f"(before) => ({EVENTS_JS[6:]}) !== before", arg=mine,
                                     timeout=deadline_s * 1000)
                return took
            time.sleep(0.05)
        raise RuntimeError("neither page offered a move in time")

    def close(self) -> None:
        for step in (self.browser.close, self.pw.stop, self.voila.stop, self.tmp.cleanup):
            try:
                step()
            except Exception:  # noqa: BLE001 - closing down: the next step still runs
                pass


def measure(tables_url: str, clicks: int, started: Any = None) -> list[float]:
    """``clicks`` moves made by clicking in Chromium; their click → other page updated times in ms.
    ``started`` (a threading.Event) is set once both pages are seated, before the first click."""
    pages = Pages(tables_url)
    try:
        if started is not None:
            started.set()
        times: list[float] = []
        while len(times) < clicks:
            took = pages.click_and_wait()
            if took is None:
                break
            times.append(took)
        return times
    finally:
        pages.close()
