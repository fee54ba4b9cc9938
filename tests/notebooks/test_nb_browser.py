"""Real browser: every app opens in Voila in headless Chromium with all non-loopback requests
aborted (any attempt fails the test), and the dividends flow works end to end."""

import re

import pytest
from conftest import (
    ARTIFACTS,
    NOTEBOOKS_DIR,
    has_app,
    notebook_ids,
    open_app,
    page_errors,
    painted,
    wait_for_kernel,
    wait_until_idle,
)

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]


@pytest.mark.parametrize("nb", notebook_ids())
def test_app_opens_offline_in_chromium(voila_server, offline_page, nb):
    page = offline_page.page
    ready = ".railkit-app" if has_app(NOTEBOOKS_DIR / nb) else None
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url(nb), ready=ready)
    if ready:
        wait_for_kernel(page)  # the app's first answers (and any error they show) are on the page
    painted(page)
    assert page_errors(page) == []
    assert not page.query_selector(".jp-CodeCell .jp-InputArea-editor, .cm-editor"), "code is shown"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{nb.replace('/', '_')}.png"), full_page=True)


def amounts_on_page(page) -> dict[str, int]:
    rows = page.query_selector_all(".railkit-result table tr")
    out = {}
    for row in rows[1:]:
        cells = [c.inner_text().strip() for c in row.query_selector_all("td")]
        out[cells[0]] = int(cells[2])
    return out


def set_field(page, label: str, text: str, css: str = ".railkit-share") -> None:
    field = page.locator(f".railkit-app {css}").filter(has=page.locator(f"label:text-is('{label}')"))
    field.locator("input").fill(text)
    field.locator("input").press("Tab")  # ipywidgets Text syncs on change/blur


def test_dividends_flow_tie_case_offline(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 2000})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("up_dividends.ipynb"))
    # UP-D5 tie for most: a company worth 8, Ann and Ben tie with 2, Cleo 1 -> (8 + 4) / 2 = 6 each.
    set_field(page, "Company value", "8", css=".railkit-value")
    page.select_option(".railkit-players select", "3")
    for name, n in (("Ann", "2"), ("Ben", "2"), ("Cleo", "1")):
        set_field(page, name, n)
    page.click(".railkit-pay")
    page.wait_for_function(
        "() => document.querySelector('.railkit-result') && document.querySelector('.railkit-result').innerText.includes('Cleo')")
    assert amounts_on_page(page) == {"Ann": 6, "Ben": 6, "Cleo": 0}
    page.wait_for_selector(".railkit-figure .js-plotly-plot", timeout=15000)  # plotly.js came from the server
    steps = page.inner_text(".railkit-steps-box")
    assert "UP-D5" in steps and "12 ÷ 2 = 6 each" in steps
    # the button's Font Awesome icon is drawn from Voila's local font files
    assert page.evaluate("() => document.fonts.check('900 16px \"Font Awesome 5 Free\"')")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "up_dividends_tie_case.png"), full_page=True)

    # Bad input: a clear message; the old payout, which no longer matches the fields, goes; what was typed stays.
    set_field(page, "Company value", "eight", css=".railkit-value")
    page.click(".railkit-pay")
    page.wait_for_selector(".railkit-msg.error", timeout=10000)
    assert re.search(r"whole number", page.inner_text(".railkit-msg.error"))
    page.wait_for_function("() => document.querySelector('.railkit-result').innerText.includes('No payout shown')")
    assert amounts_on_page(page) == {} and page.input_value(".railkit-value input") == "eight"
    assert page_errors(page) == []
    page.screenshot(path=str(ARTIFACTS / "up_dividends_bad_input.png"), full_page=True)
