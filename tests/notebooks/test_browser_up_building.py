"""Real browser, offline: the building lesson (up_building, UP-B2a–f) in Voila in headless Chromium with
every non-loopback request aborted. Pick a company and a card, see the legal sections, pick a section
and read the checklist; an illegal placement shows its rule; the exercise checks an answer."""

import pytest
from axe_check import assert_clean
from conftest import ARTIFACTS, open_app, page_errors, painted, wait_for_kernel, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]


def test_building_flow_offline(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 2200})
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("up_building.ipynb"))
    page.wait_for_selector(".railkit-figure .js-plotly-plot", timeout=30000)  # the map, drawn by local plotly.js
    assert "Pick a company and a track card" in page.inner_text(".railkit-message")

    # Company + card: the legal sections (the engine's list) are named and lit on the map.
    page.select_option(".railkit-company select", label="Billings Northern Lights (red)")
    page.click(".railkit-card button:text-is('Mountain')")
    wait_text(page, ".railkit-legal", "legal sections for the Billings Northern Lights")
    legal = page.inner_text(".railkit-legal")
    assert "Helena–Salt Lake City" in legal and "Denver–El Paso" not in legal
    wait_text(page, ".railkit-figure:has(.js-plotly-plot)", "legal sections")  # the legend entry of the magenta band

    # A section: the checklist of UP-B2a–f with the engine's sentences.
    page.select_option(".railkit-section select", label="Denver–El Paso · Mountain · 2 spaces")
    wait_text(page, ".railkit-checklist-box", "UP-B2e")
    checklist = page.inner_text(".railkit-checklist-box")
    for rule in ("UP-B2a", "UP-B2b", "UP-B2c", "UP-B2d", "UP-B2e", "UP-B2f"):
        assert rule in checklist
    assert "not allowed" in checklist and "Neither Denver nor El Paso is linked to Billings" in checklist
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "up_building_checklist.png"), full_page=False)
    assert_clean(page, "up_building_checklist")

    # An illegal placement names its rule; a legal one changes the board.
    page.click(".railkit-place")
    wait_text(page, ".railkit-message", "(rule UP-B2e)")
    page.select_option(".railkit-section select", label="✔ Helena–Salt Lake City · Mountain · 2 spaces")
    # Denver–El Paso's checklist says “not allowed”, which holds “allowed” too: wait for this section's verdict.
    wait_text(page, ".railkit-checklist-box", "train on Helena–Salt Lake City with a mountain card: allowed")
    page.click(".railkit-place")
    wait_text(page, ".railkit-message", "now runs on Helena–Salt Lake City")
    assert page_errors(page) == []

    # The rulebook preset (UP-B2e).
    page.click("button:has-text('Denver–El Paso refused (UP-B2e)')")
    wait_text(page, ".railkit-message", "Rulebook: not allowed. railkit: not allowed.")
    painted(page)
    page.locator(".railkit-app").screenshot(path=str(ARTIFACTS / "up_building_preset.png"))

    # The exercise: tick the two legal candidates of the rulebook position, Check.
    page.click(".lm-TabBar-tab:has-text('Exercise')")
    page.wait_for_selector(".railkit-exercise-situation", state="visible")
    for label in ("Helena–Salt Lake City", "Denver–Salt Lake City"):
        page.locator(".widget-checkbox").filter(has_text=label).locator("input").check()
    page.click(".railkit-check")
    wait_text(page, ".railkit-message", "All right!")
    feedback = page.inner_text(".railkit-exercise-feedback")
    assert "All six conditions of UP-B2 hold." in feedback and "already has a train on Casper–Salt Lake City" in feedback
    wait_for_kernel(page)
    painted(page)
    assert page_errors(page) == []
    page.locator(".railkit-app").screenshot(path=str(ARTIFACTS / "up_building_exercise.png"))
    assert_clean(page, "up_building_exercise")
