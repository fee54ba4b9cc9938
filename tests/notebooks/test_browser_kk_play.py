"""Real browser, offline: the game lesson (kk_play; KK-S, KK-A, KK-B, KK-R, KK-E) in Voila in headless
Chromium with every non-loopback request aborted. Bid, choose, then build or pass for a few turns while the
computer players move; undo a move; answer the cost exercise and a puzzle."""

import pytest
from axe_check import assert_clean
from conftest import APP_DEADLINE_S, fill, kk_one_move, open_app, page_errors, shot, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]


def message(page) -> str:
    return page.inner_text(".railkit-message")


def test_play_flow_offline(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 1600})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("kk_play.ipynb"))
    wait_text(page, ".railkit-kk-status", "hand in your sealed bid")
    assert "The race from the Cape to Cairo" in page.inner_text(".railkit-kk-race")
    shot(page, "kk_play_start.png")

    fill(page, ".railkit-kk-bid", "-5")
    page.click(".railkit-kk-bid-button")
    wait_text(page, ".railkit-message", "cannot be negative")

    fill(page, ".railkit-kk-bid", "25")
    page.click(".railkit-kk-bid-button")
    wait_text(page, ".railkit-message", "You bid £25.")
    wait_text(page, ".railkit-kk-choose", "You choose 1st")
    assert "Choosing order: you" in page.inner_text(".railkit-kk-reveal")
    shot(page, "kk_play_choose.png")
    page.locator(".railkit-kk-choose button.kk-take").first.click()
    wait_text(page, ".railkit-message", "You took")
    wait_text(page, ".railkit-kk-status", "your building turn")
    explained = page.inner_text(".railkit-kk-explain")
    assert "KK-B2" in explained and "KK-C3" in explained
    assert "(KK-B1)" in page.inner_text(".railkit-kk-events")
    shot(page, "kk_play_build.png", ".railkit-kk-status")

    for turn in range(6):
        kk_one_move(page, turn)
        if "The game is over" in message(page):
            break
    assert page_errors(page) == []
    shot(page, "kk_play_turns.png", ".railkit-kk-status")
    assert_clean(page, "kk_play_turns")  # the deal's cards turned up

    page.click(".railkit-kk-undo")
    wait_text(page, ".railkit-message", "Taken back")
    assert page_errors(page) == []

    # A reload brings the same game back (the address carries its key, ?game=...).
    page.wait_for_function("() => new URL(location.href).searchParams.get('game')")
    played = page.inner_text(".railkit-kk-log summary")
    page.reload()
    page.wait_for_selector(".railkit-app", timeout=APP_DEADLINE_S * 1000)
    wait_text(page, ".railkit-message", "Your game is back where you left it")
    assert page.inner_text(".railkit-kk-log summary") == played

    page.click(".lm-TabBar-tab:has-text('Exercise')")
    page.wait_for_selector(".railkit-kk-exercise-situation", state="visible")
    fill(page, ".railkit-kk-pieces", "2")
    fill(page, ".railkit-kk-cost", "20")
    page.click(".railkit-kk-afford button:has-text('Yes')")
    page.click(".railkit-kk-check")
    wait_text(page, ".railkit-kk-exercise-feedback", "the engine says")
    assert "KK-B2" in page.inner_text(".railkit-kk-exercise-feedback")
    assert page_errors(page) == []
    shot(page, "kk_play_exercise.png")
    assert_clean(page, "kk_play_exercise")

    # Puzzles (KK-A2): a real position, a bid picked and checked, every choice's evaluation and the rules shown
    page.click(".lm-TabBar-tab:has-text('Puzzles')")
    wait_text(page, ".railkit-puzzle-question", "Which bid?")
    page.locator(".railkit-puzzle-choices input").first.check(force=True)
    page.click(".railkit-puzzle-check")
    wait_text(page, ".railkit-puzzle-answer", "KK-A2")
    assert "games won" in page.inner_text(".railkit-puzzle-answer")
    assert page_errors(page) == []
    shot(page, "kk_play_puzzle.png")
