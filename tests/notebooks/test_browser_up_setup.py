"""Real browser, offline: the setup lesson (up_setup, UP-S1..S8) in Voila in headless Chromium with every
non-loopback request aborted. Deal a game, step through the setup to the end (with the simultaneous
first investment), look at the share deck and answer the exercise."""

import pytest
from axe_check import assert_clean
from conftest import ARTIFACTS, open_app, page_errors, painted, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]


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
    painted(page)
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
            wait_text(page, ".railkit-figure:has(.js-plotly-plot)", "(this game)")
            assert "bottom six" in page.inner_text(".railkit-step-details")
            painted(page)
            page.locator(".railkit-app").screenshot(path=str(ARTIFACTS / "up_setup_step7_deck.png"))
    wait_text(page, ".railkit-step", "The setup is complete.")
    assert page.is_disabled(".railkit-next")
    assert page_errors(page) == []
    page.locator(".railkit-app").screenshot(path=str(ARTIFACTS / "up_setup_step8.png"))
    assert_clean(page, "up_setup_step8")

    # The share deck tab draws the four versions side by side.
    page.click(".lm-TabBar-tab:has-text('The share deck')")
    wait_text(page, ".railkit-app", "The share deck for 4 players")
    painted(page)
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
