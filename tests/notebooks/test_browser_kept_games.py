"""Real browser, offline: kept games that need no file on the server (issue 23, items 2 and 3).

* kk_auction keeps its game like the play lessons: after a bid, “suomi” in the language picker opens the
  Finnish notebook with the same ``?game=`` key and the same auction, its reveal on screen.
* The browser's storage (``railkit.ui.autosave``, the template's ``kept_games.html.j2``): the way the static
  site keeps a game, where Pyodide's files vanish with the page and its kernel never sees the address. Tested
  on a Voila server started with ``RAILKIT_SAVES_DIR=browser`` and no pre-rendered kernels: the kernel writes
  no file and learns nothing from the address, the page's script keeps the game in Chromium's localStorage and
  hands it back after a reload and after a language switch. (The built static site itself is not run here:
  ``make site`` needs Pyodide from npm and takes many minutes; the script and the kernel's side are the same.)
"""

import pytest
from conftest import (
    ARTIFACTS,
    NOTEBOOKS_DIR,
    make_offline_page,
    open_app,
    page_errors,
    same_address,
    start_voila,
    wait_for_address,
    wait_text,
    wait_until_idle,
)

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]

GAME_JS = "() => new URLSearchParams(location.search).get('game')"
STORED_JS = """(key) => Object.keys(localStorage).some(k => k === 'railkit-game:kk_auction:' + key)"""


@pytest.fixture(scope="session")  # once per run: other modules may run between this one's tests
def browser_storage_server(tmp_path_factory):
    saves = tmp_path_factory.mktemp("no-files")
    server = start_voila(NOTEBOOKS_DIR, ARTIFACTS / "voila_browser_storage.log",
                         ["--VoilaConfiguration.preheat_kernel=False"],
                         env={"RAILKIT_SAVES_DIR": "browser", "HOME": str(saves)})
    try:
        yield server
    finally:
        server.stop()
    assert not list(saves.rglob("*.json")), "a game was written to a file"


def bid_and_reveal(page, amount: str = "25") -> str:
    """Hand in a bid above the computer players' (they bid at most a fifth of their money); the game's key."""
    wait_text(page, ".railkit-kk-offer", "(KK-A1)")
    page.locator(".railkit-kk-bid input").fill(amount)
    page.locator(".railkit-kk-bid input").press("Enter")
    wait_text(page, ".railkit-kk-reveal", "£75")  # the money left after the bid
    page.wait_for_function(GAME_JS, timeout=60_000)
    return page.evaluate(GAME_JS)


def test_kk_auction_the_picker_keeps_the_auction(voila_server, offline_page):
    page = offline_page.page
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("kk_auction.ipynb"))
    game = bid_and_reveal(page)
    page.select_option(".railkit-language select", label="suomi")
    wait_for_address(page, "/voila/render/fi/kk_auction.ipynb", game=game)
    open_app(page, page.url)
    wait_text(page, ".railkit-message", "Pelisi jatkuu")  # the Finnish app: the kept game is back
    wait_text(page, ".railkit-kk-reveal", "75")
    assert same_address(page.url, "/voila/render/fi/kk_auction.ipynb", game=game, lang="fi")
    assert not page_errors(page), page_errors(page)


def test_in_the_browsers_storage_a_reload_and_a_language_switch_keep_the_game(browser_storage_server, browser):
    context, page, blocked = make_offline_page(browser, {"width": 1280, "height": 1400})
    try:
        open_app(page, browser_storage_server.url("kk_auction.ipynb"))
        game = bid_and_reveal(page)
        page.wait_for_function(STORED_JS, arg=game, timeout=60_000)
        reveal = page.inner_text(".railkit-kk-reveal")

        page.reload()
        open_app(page, page.url)
        wait_text(page, ".railkit-message", "Your game is back where you left it")
        wait_text(page, ".railkit-kk-reveal", "£75")
        assert page.inner_text(".railkit-kk-reveal") == reveal
        assert page.evaluate(GAME_JS) == game

        page.select_option(".railkit-language select", label="suomi")
        wait_for_address(page, "/voila/render/fi/kk_auction.ipynb", game=game)
        open_app(page, page.url)
        wait_text(page, ".railkit-message", "Pelisi jatkuu")
        wait_text(page, ".railkit-kk-reveal", "75")
        assert page.evaluate(GAME_JS) == game
        assert not page_errors(page), page_errors(page)
    finally:
        context.close()
    assert not blocked


def test_up_building_the_picker_keeps_the_trains_placed(voila_server, offline_page):
    """up_building has no game: its trains placed and its choices are kept the same way (``KeepsState``)."""
    page = offline_page.page
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("up_building.ipynb"))
    page.select_option(".railkit-company select", label="Billings Northern Lights (red)")
    page.click(".railkit-card button:text-is('Mountain')")
    wait_text(page, ".railkit-legal", "legal sections for the Billings Northern Lights")
    page.select_option(".railkit-section select", label="✔ Helena–Salt Lake City · Mountain · 2 spaces")
    wait_text(page, ".railkit-checklist-box", "train on Helena–Salt Lake City with a mountain card: allowed")
    page.click(".railkit-place")
    wait_text(page, ".railkit-message", "now runs on Helena–Salt Lake City")
    page.wait_for_function(GAME_JS, timeout=60_000)
    game = page.evaluate(GAME_JS)
    page.select_option(".railkit-language select", label="suomi")
    wait_for_address(page, "/voila/render/fi/up_building.ipynb", game=game)
    open_app(page, page.url)
    wait_text(page, ".railkit-message", "Pelisi jatkuu")
    chosen = page.eval_on_selector(".railkit-section select",
                                   "s => s.options[s.selectedIndex].textContent").replace("\xa0", " ")
    assert "Helena–Salt Lake City" in chosen, chosen
    assert page.eval_on_selector(".railkit-company select", "s => s.selectedIndex") > 0
    assert not page_errors(page), page_errors(page)
