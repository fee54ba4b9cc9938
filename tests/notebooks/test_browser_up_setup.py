"""Real browser, offline: the setup lesson (up_setup, UP-S1..S8) in Voila in headless Chromium with every
non-loopback request aborted. Deal a game, step through the setup to the end (with the simultaneous
first investment), look at the share deck and answer the exercise."""

import os
import time

import pytest

from conftest import ARTIFACTS, open_app, page_errors

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("voila")]


def wait_text(page, selector: str, text: str, timeout: float = 20000) -> None:
    page.wait_for_function(
        "([sel, text]) => { const el = document.querySelector(sel); return el && el.innerText.includes(text); }",
        arg=[selector, text], timeout=timeout)


def wait_until_idle(server, timeout: float = 240.0, quiet: float = 3.0) -> None:
    """Wait until the Voila server and its kernels use no CPU for ``quiet`` seconds.

    ``voila_server`` is ready once Voila logs “Kernel pool of … is filled”, which only means the pool
    kernels have *started*; each then executes its notebook (pre-rendering). With Voila 0.5.13, a page
    requested while its pool kernel is still executing a widget app could hang (seen with this lesson
    on a busy machine), so wait for the pre-rendering to finish. Linux only (reads /proc).
    """
    def tree_cpu() -> int:
        root, total, pids = server.proc.pid, 0, {server.proc.pid}
        stats = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                    stats[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))  # ppid, utime+stime
                except (OSError, IndexError, ValueError):
                    continue
        changed = True
        while changed:  # descendants of the server: its kernels
            changed = False
            for pid, (ppid, _cpu) in stats.items():
                if ppid in pids and pid not in pids:
                    pids.add(pid)
                    changed = True
        for pid in pids:
            total += stats.get(pid, (0, 0))[1]
        return total if root in stats else -1

    deadline = time.monotonic() + timeout
    last, calm_since = tree_cpu(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = tree_cpu()
        if now - last > 5:  # more than 0.05 s of CPU in half a second: still rendering
            calm_since = time.monotonic()
        last = now
        if time.monotonic() - calm_since >= quiet:
            return


def test_setup_flow_offline(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 2200})
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("up_setup.ipynb"))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    page.select_option(".railkit-players select", "4")
    page.select_option(".railkit-deck select", label="Finnish deck (UP-S7-FI)")
    page.click(".railkit-deal")
    wait_text(page, ".railkit-step", "UP-S1")
    page.wait_for_selector(".railkit-figure .js-plotly-plot", timeout=30000)  # the map of starting trains
    assert "El Paso & Rio Grande" in page.inner_text(".railkit-step")
    page.wait_for_timeout(400)
    page.locator(".railkit-app").screenshot(path=str(ARTIFACTS / "up_setup_step1.png"))

    for rule in ("UP-S2", "UP-S3", "UP-S4", "UP-S5"):
        page.click(".railkit-next")
        wait_text(page, ".railkit-step", rule)
    assert "Your track cards" not in page.inner_text(".railkit-step")
    # UP-S5: Next is refused until the learner has laid a share.
    page.click(".railkit-next")
    wait_text(page, ".railkit-message", "Lay it face down")
    page.locator(".railkit-first-pick input[type=radio]").first.check()
    page.click(".railkit-lay")
    wait_text(page, ".railkit-step", "Revealed together")
    page.locator(".railkit-app").screenshot(path=str(ARTIFACTS / "up_setup_step5.png"))

    for rule in ("UP-S6", "UP-S7", "UP-S8"):
        page.click(".railkit-next")
        wait_text(page, ".railkit-step", rule)
        if rule == "UP-S7":
            wait_text(page, ".railkit-figure", "(this game)")
            assert "bottom six" in page.inner_text(".railkit-step-details")
            page.wait_for_timeout(400)
            page.locator(".railkit-app").screenshot(path=str(ARTIFACTS / "up_setup_step7_deck.png"))
    wait_text(page, ".railkit-step", "The setup is complete.")
    assert page.is_disabled(".railkit-next")
    assert page_errors(page) == []
    page.locator(".railkit-app").screenshot(path=str(ARTIFACTS / "up_setup_step8.png"))

    # The share deck tab draws the four versions side by side.
    page.click(".lm-TabBar-tab:has-text('The share deck')")
    wait_text(page, ".railkit-app", "The share deck for 4 players")
    page.wait_for_timeout(400)
    page.locator(".railkit-app").screenshot(path=str(ARTIFACTS / "up_setup_deck.png"))

    # The exercise: “can a dividend card be among the first six cards drawn?” — No.
    page.click(".lm-TabBar-tab:has-text('Exercise')")
    wait_text(page, ".railkit-question", "first 6 cards")
    page.click(".railkit-app .widget-toggle-buttons button:text-is('No')")
    page.click(".railkit-check")
    wait_text(page, ".railkit-message", "Right!")
    assert "starts at card 7" in page.inner_text(".railkit-answer")
    assert page_errors(page) == []
    page.locator(".railkit-app").screenshot(path=str(ARTIFACTS / "up_setup_exercise.png"))
