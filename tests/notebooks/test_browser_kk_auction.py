"""Real browser, offline: the auction lesson (kk_auction, KK-A1..A7) in Voila in headless Chromium with every
non-loopback request aborted. A bad bid shows a message; a sealed bid is revealed with the engine's order and
its steps; the learner takes a card; the next auction begins; the “who chooses first?” exercise is checked."""

import pytest
from axe_check import assert_clean
from conftest import fill, open_app, page_errors, shot, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]


def type_bid(page, amount: str) -> None:
    fill(page, ".railkit-kk-bid", amount)
    page.click(".railkit-kk-bid-button")


def test_auction_flow_offline(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 1800})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("kk_auction.ipynb"))
    wait_text(page, ".railkit-kk-offer", "On sale in auction 1 (KK-A1)")
    assert page.inner_text(".railkit-kk-players").count("sealed ✔") == 2  # the computer players' bids are hidden
    shot(page, "kk_auction_bid.png")

    # Bad input: a clear message, nothing revealed.
    type_bid(page, "lots")
    wait_text(page, ".railkit-message", "must be a whole number")
    type_bid(page, "150")
    wait_text(page, ".railkit-message", "cannot bid 150")
    assert "(rule KK-A2)" in page.inner_text(".railkit-message")
    assert page.inner_text(".railkit-kk-reveal").strip() == ""
    shot(page, "kk_auction_bad_bid.png")

    # A bid above the computer players' (they never bid more than a fifth of their money): we choose first.
    # Typed and handed in with Enter, as a keyboard learner would.
    page.locator(".railkit-kk-bid input").fill("25")
    page.locator(".railkit-kk-bid input").press("Enter")
    wait_text(page, ".railkit-kk-reveal", "the bids are revealed")
    reveal = page.inner_text(".railkit-kk-reveal")
    assert "Choosing order: you" in reveal and "KK-A4" in reveal and "£75" in reveal
    wait_text(page, ".railkit-message", "choose 1st")
    shot(page, "kk_auction_reveal.png", ".railkit-kk-status")
    assert_clean(page, "kk_auction_reveal")

    page.locator(".railkit-kk-choose button.kk-take").first.click()
    wait_text(page, ".railkit-message", "You took")
    wait_text(page, ".railkit-kk-status", "open the building phase (KK-A7)")  # "you … open": the learner won
    page.wait_for_selector(".railkit-kk-next", state="visible", timeout=60000)
    page.click(".railkit-kk-next")
    wait_text(page, ".railkit-kk-offer", "On sale in auction 2")
    wait_text(page, ".railkit-kk-building", "(KK-B1)")
    assert page_errors(page) == []
    shot(page, "kk_auction_next.png", ".railkit-kk-status")

    # The exercise: pick any order, Check: the engine's order and its steps are shown.
    page.click(".lm-TabBar-tab:has-text('Who chooses first?')")
    page.wait_for_selector(".railkit-kk-quiz-situation", state="visible")
    selects = page.locator(".railkit-kk-quiz-place:visible select")
    options = page.locator(".railkit-kk-quiz-place:visible select").first.locator("option").all_inner_texts()
    names = [o.strip() for o in options][1:]
    for i in range(selects.count()):
        selects.nth(i).select_option(label=names[i])
    page.click(".railkit-kk-quiz-check")
    wait_text(page, ".railkit-kk-quiz-feedback", "Choosing order:")
    assert "engine’s order" in page.inner_text(".railkit-kk-quiz-feedback")
    assert page_errors(page) == []
    shot(page, "kk_auction_quiz.png")
    assert_clean(page, "kk_auction_quiz")
