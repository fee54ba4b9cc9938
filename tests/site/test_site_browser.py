"""The static site in headless Chromium, offline: every lesson's Voici page runs its Python in
the browser (Pyodide), with every request to a non-loopback host aborted (any attempt fails the test).

The site is built once per session with ``make -f Makefile -f site.mk site`` (skipped by the build itself
when nothing changed) and served by tools/site/serve.py. Lessons are whatever ``notebooks/*.ipynb`` exist.
"""

from __future__ import annotations

import re

import pytest
from site_helpers import (
    APP_READY,
    SiteServer,
    build_site,
    guard_offline,
    has_app,
    lessons,
    open_lesson,
    page_url,
    problems,
    watch,
)

pytestmark = [pytest.mark.browser, pytest.mark.build, pytest.mark.server, pytest.mark.xdist_group("site")]


@pytest.fixture(scope="session")
def site_server():
    try:
        site = build_site()
    except (RuntimeError, OSError) as exc:  # never a skip: a broken build is a failure
        pytest.fail(f"the static site could not be built: {exc}")
    server = SiteServer(site)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def lesson(browser, site_server):
    """A fresh offline browser context and page; fails at teardown if the page tried another host."""
    context = browser.new_context(viewport={"width": 1280, "height": 1800})
    offline = guard_offline(context)
    page = context.new_page()
    log = watch(page)
    try:
        yield page, log
    finally:
        context.close()
    assert not offline.blocked, f"the page tried to reach other hosts (the site must work offline): {offline.blocked}"


def click_changes_something(page) -> str:
    """Click the app's buttons in turn until one changes what the app shows (the kernel answered);
    returns that button's text."""
    app = page.locator(".railkit-app").first
    buttons = page.locator(".railkit-app button:visible:not([disabled])")
    for i in range(min(buttons.count(), 6)):  # skips disabled ones (see the selector)
        before = app.inner_text()
        button = buttons.nth(i)
        label = button.inner_text().strip()
        button.click()
        try:
            page.wait_for_function("before => document.querySelector('.railkit-app').innerText !== before",
                                   arg=before, timeout=20000)
            return label
        except Exception:  # noqa: BLE001 - a button that changes nothing visible: try the next
            continue
    raise AssertionError("no button of the app changed what it shows")


@pytest.mark.parametrize("notebook", lessons())
def test_lesson_runs_in_the_browser_offline(site_server, lesson, notebook):
    page, log = lesson
    open_lesson(page, page_url(site_server.base, notebook), notebook)
    if has_app(notebook):
        click_changes_something(page)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
    assert problems(page, log) == []
    assert not page.query_selector(".jp-InputArea-editor, .cm-editor"), "code is shown"


def amounts(page) -> dict[str, int]:
    out = {}
    for row in page.query_selector_all(".railkit-result table tr")[1:]:
        cells = [c.inner_text().strip() for c in row.query_selector_all("td")]
        out[cells[0]] = int(cells[2])
    return out


def set_field(page, label: str, text: str, css: str = ".railkit-share") -> None:
    field = page.locator(f".railkit-app {css}").filter(has=page.locator(f"label:text-is('{label}')"))
    field.locator("input").fill(text)
    field.locator("input").press("Tab")  # ipywidgets Text syncs on change/blur


def test_dividends_calculator_in_the_browser(site_server, lesson):
    """UP-D5, a tie for the most, worked out by the engine running in Pyodide; bad input is refused."""
    page, log = lesson
    open_lesson(page, page_url(site_server.base, "up_dividends.ipynb"), "up_dividends.ipynb")
    set_field(page, "Company value", "8", css=".railkit-value")
    page.select_option(".railkit-players select", "3")
    for name, n in (("Ann", "2"), ("Ben", "2"), ("Cleo", "1")):
        set_field(page, name, n)
    page.click(".railkit-pay")
    page.wait_for_function("() => (document.querySelector('.railkit-result') || {innerText: ''}).innerText.includes('Cleo')",
                           timeout=30000)
    assert amounts(page) == {"Ann": 6, "Ben": 6, "Cleo": 0}
    wait_text(page, ".railkit-steps-box", "12 ÷ 2 = 6 each")  # the steps come after the table
    steps = page.inner_text(".railkit-steps-box")
    assert "UP-D5" in steps and "12 ÷ 2 = 6 each" in steps
    page.wait_for_selector(".railkit-figure .js-plotly-plot", timeout=30000)  # plotly.js from the site
    # the icons' font came from the site (Voici's bundle carries Font Awesome 5)
    assert page.evaluate("() => [...document.fonts].some(f => f.family.includes('Font Awesome') && f.status === 'loaded')")

    set_field(page, "Company value", "eight", css=".railkit-value")
    page.click(".railkit-pay")
    page.wait_for_selector(".railkit-msg.error", timeout=20000)
    assert re.search(r"whole number", page.inner_text(".railkit-msg.error"))
    wait_text(page, ".railkit-result", "No payout shown")  # the old payout no longer matches the fields
    assert amounts(page) == {}
    assert problems(page, log) == []


def wait_text(page, selector: str, text: str, timeout: float = 30000) -> None:
    page.wait_for_function(
        "([sel, text]) => { const el = document.querySelector(sel); return el && el.innerText.includes(text); }",
        arg=[selector, text], timeout=timeout)


def bid(page, amount: str) -> None:
    field = page.locator(".railkit-kk-bid input")
    field.fill(amount)
    field.press("Tab")
    page.click(".railkit-kk-bid-button")


def test_auction_in_the_browser(site_server, lesson):
    """KK-A1..A7: a refused bid (KK-A2), a sealed bid revealed with the choosing order, a card taken,
    the next auction; the engine runs in Pyodide."""
    page, log = lesson
    open_lesson(page, page_url(site_server.base, "kk_auction.ipynb"), "kk_auction.ipynb")
    wait_text(page, ".railkit-kk-offer", "On sale in auction 1 (KK-A1)")
    bid(page, "150")
    wait_text(page, ".railkit-message", "cannot bid 150")
    assert "(rule KK-A2)" in page.inner_text(".railkit-message")
    bid(page, "25")
    wait_text(page, ".railkit-kk-reveal", "the bids are revealed")
    reveal = page.inner_text(".railkit-kk-reveal")
    assert "Choosing order: you" in reveal and "KK-A4" in reveal  # the learner, named "You"
    wait_text(page, ".railkit-message", "choose 1st")
    page.locator(".railkit-kk-choose button.kk-take").first.click()
    wait_text(page, ".railkit-message", "You took")
    page.wait_for_selector(".railkit-kk-next", state="visible", timeout=30000)
    page.click(".railkit-kk-next")
    wait_text(page, ".railkit-kk-offer", "On sale in auction 2")
    assert page.is_visible(APP_READY)
    assert problems(page, log) == []


def test_a_translated_lesson_runs_in_the_browser(site_server, lesson):
    """The Finnish lessons are on the site too; their app speaks Finnish (catalogs in the wheel)."""
    page, log = lesson
    open_lesson(page, page_url(site_server.base, "fi/up_dividends.ipynb"), "fi/up_dividends.ipynb")
    wait_text(page, ".railkit-app", "Maksa osingot", timeout=60000)
    assert "Union Pacific: osingot" in page.inner_text("body")  # the translated markdown
    assert problems(page, log) == []
