"""Idle kernels are culled, in a real browser against Voila started with the project's voila.json and a
short cull timeout (``TIMEOUT`` seconds instead of minutes):

* a preheated pool kernel waiting longer than the timeout is not culled, and a page takes it and works;
* an open page keeps its kernel however long it stays idle (``cull_connected: false``);
* a closed page's kernel is culled within the timeout (plus one cull interval), the pool kernel stays;
* a page whose kernel has gone says so: “This lesson went to sleep …” (the template's script). To make
  the kernel go while the page stays open, that server also culls connected kernels.

Voila has no kernel list to ask (GET /api/kernels is not served), so kernels are counted as the server's
child processes (``kernel_pids``).
"""

import json
import shutil
import time

import pytest
from conftest import (
    ARTIFACTS,
    NOTEBOOKS_DIR,
    VENV_BIN,
    free_port,
    kernel_pids,
    make_offline_page,
    open_app,
    page_errors,
    start_server,
    start_voila,
    wait_for_pools,
    wait_text,
    wait_until_idle,
)

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("culling")]
LESSON = "kk_auction.ipynb"
TIMEOUT, INTERVAL = 10, 2  # seconds; the project's voila.json says minutes
SLEEP_TEXT = "This lesson went to sleep after a few minutes without use"
CHECK_SECONDS = 15  # how often the template's script asks whether its kernel still exists


def start(tmp_path, cull_connected: bool):
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(NOTEBOOKS_DIR / LESSON, folder)
    conf = json.loads((NOTEBOOKS_DIR / "voila.json").read_text())
    conf["MappingKernelManager"].update(cull_idle_timeout=TIMEOUT, cull_interval=INTERVAL, cull_connected=cull_connected)
    (folder / "voila.json").write_text(json.dumps(conf))
    server = start_voila(folder, ARTIFACTS / "voila_culling.log")
    wait_for_pools(server, [LESSON], timeout=120)
    wait_until_idle(server)
    return server


def wait_for_kernels(server, count: int, within: float) -> float:
    """Seconds until the server runs ``count`` kernels (fails after ``within``)."""
    start = time.monotonic()
    while time.monotonic() - start < within:
        if len(kernel_pids(server)) == count:
            return time.monotonic() - start
        time.sleep(0.5)
    raise AssertionError(f"{len(kernel_pids(server))} kernels, not {count}, after {within} s:\n{server.log()[-2000:]}")


def bid(page, amount: str) -> None:
    page.locator(".railkit-kk-bid input").fill(amount)
    page.locator(".railkit-kk-bid input").press("Tab")
    page.click(".railkit-kk-bid-button")
    wait_text(page, ".railkit-message", "Bids revealed")


def test_a_closed_lesson_is_culled_while_pools_and_open_lessons_stay(browser, tmp_path):
    server = start(tmp_path, cull_connected=False)
    try:
        assert "Culling kernels with idle durations > 10 seconds" in server.log()
        assert len(kernel_pids(server)) == 1  # the preheated pool kernel
        time.sleep(TIMEOUT + 2 * INTERVAL)  # negative wait: nothing may happen past the cull timeout
        assert len(kernel_pids(server)) == 1, "a pool kernel was culled while it waited"

        context, page, blocked = make_offline_page(browser)
        try:
            open_app(page, server.url(LESSON))  # takes the pool kernel, idle for longer than the timeout
            wait_for_kernels(server, 2, within=60)  # the pool is refilled
            time.sleep(TIMEOUT + 2 * INTERVAL)  # negative wait: an open page, idle past the timeout, keeps its kernel
            assert len(kernel_pids(server)) == 2
            bid(page, "5")  # ... and still works
            assert page_errors(page) == [] and not page.is_visible("#railkit-sleep")
        finally:
            context.close()
        assert not blocked
        seconds = wait_for_kernels(server, 1, within=TIMEOUT + 2 * INTERVAL + 20)  # closed: culled
        assert "Culling 'idle' kernel" in server.log()
        print(f"kernel culled {seconds:.1f} s after its page closed (timeout {TIMEOUT} s, interval {INTERVAL} s)")
    finally:
        server.stop()


def test_a_lesson_whose_kernel_has_gone_says_it_went_to_sleep(browser, tmp_path):
    server = start(tmp_path, cull_connected=True)
    try:
        context, page, blocked = make_offline_page(browser)
        try:
            open_app(page, server.url(LESSON))
            wait_for_kernels(server, 2, within=60)
            assert not page.is_visible("#railkit-sleep")
            wait_for_kernels(server, 1, within=TIMEOUT + 2 * INTERVAL + 20)  # the idle page's kernel is culled
            page.wait_for_selector("#railkit-sleep", state="visible", timeout=(CHECK_SECONDS + 10) * 1000)
            banner = page.inner_text("#railkit-sleep")
            assert SLEEP_TEXT in banner and "reload the page to start again" in banner
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "lesson_asleep.png"))
        finally:
            context.close()
        assert not blocked
    finally:
        server.stop()


def test_a_page_closing_frees_its_kernel_at_once_under_make_run(browser, tmp_path):
    """``make run`` (the room) sets the ``_xsrf`` cookie, so the page's shut-down request on closing is
    accepted: the kernel goes within seconds, long before the project's 5-minute cull timeout."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(NOTEBOOKS_DIR / LESSON, folder)
    shutil.copy(NOTEBOOKS_DIR / "voila.json", folder)  # cull_idle_timeout 300 s: only the page's request is fast
    port = free_port()
    cmd = [str(VENV_BIN / "python"), "-m", "railkit.ui.voila_template.room", "--no-browser", "--Voila.ip=127.0.0.1",
           f"--port={port}", "."]
    server = start_server(cmd, folder, f"http://127.0.0.1:{port}", "/voila/tree", ARTIFACTS / "voila_closing.log")
    try:
        wait_for_pools(server, [LESSON], timeout=120)
        wait_until_idle(server)
        context, page, blocked = make_offline_page(browser)
        try:
            open_app(page, server.url(LESSON))
            wait_for_kernels(server, 2, within=60)  # the page's kernel and the refilled pool
            # Leaving the page runs its beforeunload, which sends the shut-down request as a beacon. Playwright's
            # request interception (the offline check, done by now) would drop a beacon sent while unloading.
            page.unroute("**/*")
            page.goto("about:blank")
            seconds = wait_for_kernels(server, 1, within=30)
        finally:
            context.close()
        assert not blocked
        assert "_xsrf' argument missing" not in server.log()
        print(f"kernel shut down {seconds:.1f} s after its page closed")
    finally:
        server.stop()
