"""Real browser, offline: the learner named once in the page address
(``up_play.ipynb?name=Kim``) reaches the preheated lesson; sentences about them read “You …”; the seat
choice (UP-S8); a missing build choice is said by the moves and goes once the choice is made."""

import pytest
from conftest import ARTIFACTS, open_app, page_errors, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]


def test_the_learner_named_in_the_address_takes_a_seat(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("up_play.ipynb") + "?name=Kim")
    wait_text(page, ".railkit-players-panel", "Kim")  # the preheated kernel heard the address
    wait_text(page, ".railkit-status", "choose a first share")
    assert page.input_value(".railkit-name input") == "Kim"

    # A seat: 2nd of 3; the first seat starts (UP-S8).
    page.click(".railkit-setup :text('New game and options')")
    page.select_option(".railkit-players select", "3")
    page.select_option(".railkit-seat select", label="2nd")
    page.fill(".railkit-seed input", "11")
    page.locator(".railkit-seed input").press("Tab")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator(".railkit-seat").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "up_play_seat.png"), full_page=False)
    page.click(".railkit-new-game")
    wait_text(page, ".railkit-message", "Game 11 started")
    assert "Ann → Kim → Ben" in page.inner_text(".railkit-message")

    page.select_option(".railkit-first-pick select", index=1)
    full, shown = page.eval_on_selector(".railkit-lay", "b => [b.scrollWidth, b.clientWidth]")
    assert full <= shown, "the “Lay it face down” label is cut off"
    page.locator(".railkit-lay").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "up_play_lay_button.png"), full_page=False)
    page.click(".railkit-lay")
    wait_text(page, ".railkit-status", "build, invest or pass (UP-T3)")
    wait_text(page, ".railkit-events", "You have chosen a first share")

    # A build without a company: the moves say so, and the words go when a company is picked.
    page.click(".railkit-card button >> nth=0")
    page.click(".railkit-build")
    wait_text(page, ".railkit-moves-message", "Pick a company")
    assert "Pick a company" not in page.inner_text(".railkit-message")
    page.locator(".railkit-moves-message").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "up_play_moves_message.png"), full_page=False)
    page.select_option(".railkit-company select", index=1)
    page.wait_for_function("() => !document.querySelector('.railkit-moves-message').innerText.includes('Pick')")

    # Why these choices (the engine's checks, rule IDs) and a hint.
    page.click(".railkit-why-box summary")
    wait_text(page, ".railkit-why-box", "UP-B2f")
    assert "UP-T3" in page.inner_text(".railkit-why-box")
    page.click(".railkit-hint")
    wait_text(page, ".railkit-moves-message", "the search player would play")
    page.locator(".railkit-moves-message").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "up_play_why_and_hint.png"), full_page=False)
    assert page_errors(page) == []
