"""Real browser, offline: the game lesson (up_play: UP-S5, UP-T, UP-B, UP-I, UP-D) in Voila in headless
Chromium with every non-loopback request aborted. Deal a numbered game, lay the first share, build with
the UP-B2 checklist and the legal sections on the map, draw, invest, save; then load a prepared save one
draw before a payout and answer the payout exercise."""

import json
import re

import pytest
from axe_check import assert_clean
from conftest import ARTIFACTS, first_marked, open_app, page_errors, painted, wait_for_kernel, wait_until_idle

from railkit.unionpacific import DrawShare, new_game
from railkit.unionpacific.bots import HeuristicBot, RandomBot, play_game

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]
ME = "Alex"


def wait_text(page, selector: str, text: str, timeout: float = 30000) -> None:
    page.wait_for_function(
        "([sel, text]) => { const el = document.querySelector(sel); return el && el.innerText.includes(text); }",
        arg=[selector, text], timeout=timeout)


def save_before_a_payout() -> str:
    """A game (four players, Alex human) stopped where Alex's next draw from the deck turns up a dividend
    card (UP-D1), so the payout exercise appears after one click."""
    for seed in range(31, 61):
        game = new_game([ME, "Ann", "Ben", "Cleo"], seed=seed)
        bots = {p: HeuristicBot(i) for i, p in enumerate(game.players)}
        while not game.is_over:
            player = game.players_to_act()[0]
            if player == ME and game.view(None).phase == "draw" and "deck" in {
                    a.source for a in game.legal_actions(ME)}:
                trial = game.replay()
                trial.apply(DrawShare(ME, "deck"))
                if len(trial.state.payouts) > len(game.state.payouts) and not trial.is_over:
                    data = game.to_dict()
                    data["railkit_play"] = {"humans": [ME]}
                    return json.dumps(data)
            game.apply(bots[player].choose(game, player))
    raise AssertionError("no such position in seeds 31-60")


def test_play_flow_offline(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("up_play.ipynb"))
    page.wait_for_selector(".railkit-figure .js-plotly-plot", timeout=30000)  # the map, drawn by local plotly.js
    wait_text(page, ".railkit-status", "choose a first share")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    # A numbered game, so the screenshots are the same every run.
    page.click(".railkit-setup :text('New game and options')")
    page.fill(".railkit-seed input", "11")
    page.locator(".railkit-seed input").press("Tab")
    page.click(".railkit-new-game")
    wait_text(page, ".railkit-message", "Game 11 started")

    # UP-S5: the first share, chosen together with the computer players.
    page.select_option(".railkit-first-pick select", index=1)
    page.click(".railkit-lay")
    wait_text(page, ".railkit-status", "build, invest or pass (UP-T3)")
    wait_text(page, ".railkit-events", "First shares revealed together (UP-S5)")

    # Build: a card, a company marked ✔, a legal section; the checklist and the magenta band.
    cards = page.locator(".railkit-card button")
    for i in range(cards.count()):
        cards.nth(i).click()
        # The answer to this card may look exactly like the last card's (“fits no legal section”), which
        # the condition below accepts too: wait until the kernel has answered the click itself.
        wait_for_kernel(page)
        page.wait_for_function(
            """() => /fits no legal section/.test(document.querySelector('.railkit-legal').innerText)
                  || Array.from(document.querySelector('.railkit-company select').options)
                          .some(o => o.text.startsWith('✔') && o.text.includes('legal'))""")
        company = first_marked(page, ".railkit-company select")
        if company >= 0:
            break
    else:
        pytest.fail("no track card in hand allows a build")
    page.select_option(".railkit-company select", index=company)
    wait_text(page, ".railkit-legal", "magenta on the map")
    page.wait_for_function(
        "() => Array.from(document.querySelector('.railkit-section select').options).some(o => o.text.startsWith('✔'))")
    page.select_option(".railkit-section select", index=first_marked(page, ".railkit-section select"))
    wait_text(page, ".railkit-checklist-box", "UP-B2e")
    checklist = page.inner_text(".railkit-checklist-box")
    assert "allowed" in checklist and "not allowed" not in checklist
    wait_text(page, ".railkit-figure:has(.js-plotly-plot)", "legal sections")  # the legend entry of the magenta band
    wait_text(page, ".railkit-figure:has(.js-plotly-plot)", "selected section")  # and the purple band of the section just picked
    painted(page)
    page.screenshot(path=str(ARTIFACTS / "up_play_build.png"), full_page=False)
    page.click(".railkit-build")
    wait_text(page, ".railkit-status", "draw a share (UP-B3)")

    # UP-B3: the top card of the deck; then end the turn if UP-B4 is offered.
    page.click(".railkit-draw-deck")
    page.wait_for_function(
        "() => /build, invest or pass|exchange a share/.test(document.querySelector('.railkit-status').innerText)")
    if "exchange a share" in page.inner_text(".railkit-status"):
        page.click(".railkit-end-turn")
        wait_text(page, ".railkit-status", "build, invest or pass (UP-T3)")
    wait_text(page, ".railkit-events", "Ann")  # my build, then the computer players' turns
    assert "You play a" in page.inner_text(".railkit-events")  # the learner is “You”

    # Invest (UP-I1..I3).
    page.click(".railkit-action-mode button:has-text('Invest')")
    page.wait_for_selector(".railkit-invest", state="visible")
    page.select_option(".railkit-invest-pick select", index=1)
    page.select_option(".railkit-invest-discard select", index=1)
    page.click(".railkit-invest")
    wait_text(page, ".railkit-events", "You invest")
    wait_text(page, ".railkit-status", "build, invest or pass (UP-T3)")
    assert page_errors(page) == []
    page.screenshot(path=str(ARTIFACTS / "up_play_turns.png"), full_page=True)

    # Save: the game as text in the box.
    page.click(".railkit-saveload :text('Save and load')")
    page.click(".railkit-save")
    wait_text(page, ".railkit-message", "Saved after")
    assert '"railkit-game"' in page.input_value(".railkit-save-area textarea")

    # Load a broken save: a clear message.
    page.fill(".railkit-save-area textarea", "{ this is not a save")
    page.click(".railkit-load")
    wait_text(page, ".railkit-message", "text is broken")
    assert "Nothing was changed" in page.inner_text(".railkit-message")

    # Load a prepared save one draw before a payout; draw; answer the exercise.
    page.fill(".railkit-save-area textarea", save_before_a_payout())
    page.click(".railkit-load")
    wait_text(page, ".railkit-message", "Loaded")
    wait_text(page, ".railkit-status", "draw a share (UP-B3)")
    page.click(".railkit-draw-deck")
    page.wait_for_selector(".railkit-quiz-answer", state="visible", timeout=30000)
    wait_text(page, ".railkit-quiz", "How much did")
    assert "Answer the payout exercise" in page.inner_text(".railkit-payouts")
    # nothing on the page gives the answer away before it is checked
    assert "? (after the exercise)" in page.inner_text(".railkit-players-panel")
    assert not re.search(r"\+\d", page.inner_text(".railkit-events"))
    assert "shows once you answer the payout exercise" in page.inner_text(".railkit-events")
    page.locator(".railkit-quiz").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "up_play_exercise.png"), full_page=False)
    page.fill(".railkit-quiz-answer input", "0")
    page.locator(".railkit-quiz-answer input").press("Tab")
    page.click(".railkit-quiz-check")
    page.wait_for_function(
        "() => /right|wrong/.test(document.querySelector('.railkit-quiz-feedback').innerText)")
    wait_text(page, ".railkit-payouts", "Company by company")
    assert "? (after the exercise)" not in page.inner_text(".railkit-players-panel")
    assert re.search(r"\+\d", page.inner_text(".railkit-events"))
    page.locator(".railkit-breakdown summary").first.click()  # one company's steps
    wait_text(page, ".railkit-payouts", "Paid in total")
    assert "UP-D2" in page.inner_text(".railkit-payouts")
    assert page_errors(page) == []
    page.locator(".railkit-quiz").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "up_play_payout.png"), full_page=False)
    assert_clean(page, "up_play_payout")


def test_hot_seat_and_the_end_offline(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("up_play.ipynb"))
    wait_text(page, ".railkit-status", "choose a first share")

    # Hot seat: the hand of whoever acts stays hidden until “Show my hand”.
    page.click(".railkit-setup :text('New game and options')")
    page.click(".railkit-mode button:has-text('Hot seat')")
    page.select_option(".railkit-players select", "3")
    page.click(".railkit-new-game")
    wait_text(page, ".railkit-message", "hot seat for 3 players")
    wait_text(page, ".railkit-hand", "Hands are secret")
    assert page.is_hidden(".railkit-first-pick")
    page.click(".railkit-show-hand")
    wait_text(page, ".railkit-hand", "Player 1's hand")
    page.select_option(".railkit-first-pick select", index=1)
    page.click(".railkit-lay")
    wait_text(page, ".railkit-status", "Player 2: choose a first share")  # the seats line names Player 2 before too
    wait_text(page, ".railkit-hand", "Hands are secret")
    assert "Player 1's hand" not in page.inner_text(".railkit-app")
    assert page_errors(page) == []
    page.locator(".railkit-status").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "up_play_hot_seat.png"), full_page=False)

    # A finished game, loaded: final money and the winner.
    game = new_game([ME, "Ann", "Ben"], seed=5)  # the learner plays at random: the review has much to say
    play_game(game, {p: RandomBot(1) if p == ME else HeuristicBot(i) for i, p in enumerate(game.players)})
    data = game.to_dict()
    data["railkit_play"] = {"humans": [ME]}
    page.click(".railkit-saveload :text('Save and load')")
    page.fill(".railkit-save-area textarea", json.dumps(data))
    page.click(".railkit-load")
    wait_text(page, ".railkit-result", "The game is over (UP-D12)")
    result = page.inner_text(".railkit-result")
    for player, money in game.result().money.items():
        assert player in result and str(money) in result
    assert page.is_hidden(".railkit-build") and page.is_hidden(".railkit-lay")
    # a look back at the learner's moves, with the rules
    wait_text(page, ".railkit-result", "A look back at your moves")
    assert "The heuristic player suggests instead: you " in page.inner_text(".railkit-review")
    assert "UP-D" in page.inner_text(".railkit-review")
    assert page_errors(page) == []
    page.locator(".railkit-status").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "up_play_end.png"), full_page=False)
    page.locator(".railkit-review").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "up_play_review.png"), full_page=False)
    assert_clean(page, "up_play_end")
