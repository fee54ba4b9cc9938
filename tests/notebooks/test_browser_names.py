"""Real browser, offline: a hot-seat player named like markup (``<img src=x onerror=alert(1)>``) is shown as
text everywhere in the play lesson, and no dialog opens."""

import pytest
from conftest import ARTIFACTS, fill, open_app, page_errors, painted, wait_for_kernel, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]
HOSTILE = "<img src=x onerror=alert(1)>"


def test_a_hostile_hot_seat_name_shows_as_text(voila_server, offline_page):
    page = offline_page.page
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.set_viewport_size({"width": 1280, "height": 1300})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("up_play.ipynb"))
    wait_text(page, ".railkit-status", "choose a first share")

    page.click(".railkit-setup :text('New game and options')")
    page.click(".railkit-mode button:has-text('Hot seat')")
    page.select_option(".railkit-players select", "2")
    fill(page, ".railkit-names", f"{HOSTILE}, Bob")
    page.click(".railkit-new-game")
    wait_text(page, ".railkit-message", "hot seat for 2 players")
    wait_text(page, ".railkit-status", HOSTILE)  # the name as text, angle brackets and all
    page.click(".railkit-show-hand")
    wait_text(page, ".railkit-hand", f"{HOSTILE}'s hand")
    page.select_option(".railkit-first-pick select", index=1)
    page.click(".railkit-lay")
    wait_text(page, ".railkit-events", f"{HOSTILE} has chosen a first share")  # the engine's words, as text
    wait_text(page, ".railkit-hand", "Hands are secret")  # Bob's turn: the hand is hidden again
    assert HOSTILE in page.inner_text(".railkit-players-panel")
    wait_for_kernel(page)  # everything the kernel sent is on the page ...
    painted(page)  # ... and drawn
    # plotly draws one hidden img of its own; the name must not add one (nor any onerror handler)
    assert page.locator("img[src='x'], [onerror]").count() == 0, "the name became an element"
    assert dialogs == [], f"a dialog opened: {dialogs}"
    assert page_errors(page) == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator(".railkit-status").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "up_play_hostile_name.png"), full_page=False)
