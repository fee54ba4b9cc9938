"""Real browser, offline, 1366×768: the KK play lesson's race map with its reconstruction
note, the “Why?” hint for each prompt, a whole short game to its end (dealt afresh: anyone may win)
with the review of weak moves and the search player's review of every decision;
the auction lesson's map; the setup lesson's clickable step pills and full “Lay it face down” label."""

import re

import pytest
from axe_check import assert_clean
from conftest import STEP_DEADLINE_MS, kk_one_move, open_app, page_errors, shot, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]

VIEWPORT = {"width": 1366, "height": 768}


def test_kk_play_map_hints_and_review_offline(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size(VIEWPORT)
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("kk_play.ipynb"))
    wait_text(page, ".railkit-kk-status", "hand in your sealed bid")
    page.wait_for_selector(".railkit-kk-race-map .js-plotly-plot", timeout=STEP_DEADLINE_MS)
    note = page.inner_text(".railkit-kk-race-note")
    assert "illustration" in note and page.locator(".railkit-kk-race-note a[href='rulings.ipynb']").count() == 1
    assert page.locator(".railkit-kk-offer a[href='rulings.ipynb']").count() == 1  # the deck note
    assert page.input_value(".railkit-kk-name input") == "You"
    shot(page, "kk_play_map.png", ".railkit-kk-race")

    page.select_option(".railkit-kk-length select", label="3 terrains (short)")  # a short game, to play to its end
    page.click(".railkit-kk-new")
    # The lesson opened with the same “A new game …” message: wait for this game's own race (3 terrains, not 8).
    wait_text(page, ".railkit-kk-race", "first to cross 3 terrains wins")
    wait_text(page, ".railkit-message", "A new game")
    page.click(".railkit-kk-hint-button")
    wait_text(page, ".railkit-kk-hint", "KK-A2")
    shot(page, "kk_play_hint_bid.png", ".railkit-kk-hint-button")
    phases = set()
    for _ in range(300):
        hint = page.inner_text(".railkit-kk-hint")
        if "Why these bids?" in hint:
            phases.add("bid")
        elif "Why these cards?" in hint:
            phases.add("choose")
            assert "KK-A6" in hint
        elif "Why build or pass?" in hint:
            if "build" not in phases:
                shot(page, "kk_play_hint_build.png", ".railkit-kk-build-box")
            phases.add("build")
            assert "KK-B3" in hint
        # Turn 0 each time: build whenever the engine allows it. Bid high once, to choose first.
        if not kk_one_move(page, 0, bid=0 if "choose" in phases else 20):
            break
    assert phases == {"bid", "choose", "build"}
    # “New game” deals afresh, so anyone may win: the learner about one deal in twelve with these moves.
    page.wait_for_selector(".railkit-kk-status .kk-over", timeout=STEP_DEADLINE_MS)
    assert re.search(r"(You win|wins|share the win) by (KK-E1|the stall ending \(KK-B8\))!",
                     page.inner_text(".railkit-kk-status"))
    wait_text(page, ".railkit-kk-review", "Review of your moves")
    assert "no move of yours" in page.inner_text(".railkit-kk-hint")
    # “Review my game”: the search player on each of the learner's decisions, off the page's thread
    page.click(".railkit-review-game:visible")
    wait_text(page, ".railkit-game-review", "decisions reviewed")
    page.wait_for_selector(".railkit-review-chart:visible .js-plotly-plot", timeout=STEP_DEADLINE_MS)
    # every decision is in the table (folded away: text_content reads it), the learner's bids among them
    assert "KK-A2" in (page.locator(".railkit-game-review").first.text_content() or "")
    shot(page, "kk_play_game_review.png", ".railkit-review-panel:visible")
    assert page_errors(page) == []
    shot(page, "kk_play_over_review.png", ".railkit-kk-status")
    shot(page, "kk_play_over_map.png", ".railkit-kk-race-map")
    assert_clean(page, "kk_play_over")  # a whole game played: its review

    page.click(".lm-TabBar-tab:has-text('Exercise')")  # a message belongs to its tab
    page.wait_for_function("() => !document.querySelector('.railkit-message').innerText.includes('game is over')",
                           timeout=STEP_DEADLINE_MS)


def test_kk_auction_map_offline(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size(VIEWPORT)
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("kk_auction.ipynb"))
    page.wait_for_selector(".railkit-kk-race-map .js-plotly-plot", timeout=STEP_DEADLINE_MS)
    assert page.locator(".railkit-kk-offer a[href='rulings.ipynb']").count() == 1
    shot(page, "kk_auction_start.png")
    shot(page, "kk_auction_map.png", ".railkit-kk-race-map")
    assert page_errors(page) == []


def test_setup_pills_go_back_and_the_lay_label_fits(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size(VIEWPORT)
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("up_setup.ipynb"))
    page.click(".railkit-deal")
    wait_text(page, ".railkit-step", "UP-S1")
    for rule in ("UP-S2", "UP-S3", "UP-S4", "UP-S5"):
        page.click(".railkit-next")
        wait_text(page, ".railkit-step", rule)
    lay = page.locator(".railkit-lay")
    assert lay.evaluate("el => el.scrollWidth <= el.clientWidth"), "the label is cut off"
    shot(page, "up_setup_pills_step5.png", ".railkit-progress")
    page.locator(".railkit-step-pill:has-text('UP-S2')").click()
    wait_text(page, ".railkit-step", "14 Plains, 9 Hills, 7 River valley, 6 Mountain, 4 General")
    assert page.locator(".railkit-step a[href='rulings.ipynb']").count() == 1
    assert page.locator(".railkit-step-pill:has-text('UP-S6')").is_disabled()
    shot(page, "up_setup_pills_back_to_s2.png", ".railkit-progress")
    assert page_errors(page) == []
