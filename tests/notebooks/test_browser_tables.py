"""“Play with others” in real Chromium pages: Voila serves the two play lessons with
``RAILKIT_TABLES_URL`` pointing at a real table server process (as ``make run`` does), and each page is a
learner at their own screen.

* Three pages at a Vom Kap bis Kairo table (four seats, one computer player) through a sealed auction: each
  sees “n of 4 bids in” and nobody sees another's amount before the reveal; one page is reloaded mid-auction
  and takes its seat back from the page address; the table server is killed (``kill -9``) and restarted
  mid-game, and the pages carry on.
* Two pages at a Union Pacific table (one computer player) play through a scoring round.

Screenshots (desktop and phone width) go to tests/artifacts/tables_*.png.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import (
    ARTIFACTS,
    NOTEBOOKS_DIR,
    Server,
    fill,
    free_port,
    make_offline_page,
    open_app,
    page_errors,
    shot,
    start_server,
    wait_for_pools,
    wait_text,
    wait_until_idle,
)
from tables_client import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("tables")]
LESSONS = ("kk_play.ipynb", "up_play.ipynb")
PHONE = {"width": 390, "height": 844}

# Everything the table panel shows of the game, as one text (what a learner can read on screen).
PANEL_TEXT_JS = "() => [...document.querySelectorAll('.railkit-table-panel')].map((e) => e.innerText).join(' ')"
EVENTS_MARK_JS = """() => {
  const ol = document.querySelector('.railkit-table-events ol');
  const turn = document.querySelector('.railkit-table-turn');
  return (ol ? ol.start + ':' + ol.children.length : '') + '|' + (turn ? turn.innerText : '');
}"""


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(f"sqlite:///{tmp_path / 'tables.sqlite'}").start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def voila(tmp_path: Path, tables: ServerProcess) -> Iterator[Server]:
    """Voila with the two play lessons and the project's voila.json, its kernels told where the tables are."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    for lesson in LESSONS:
        shutil.copy(NOTEBOOKS_DIR / lesson, folder)
    shutil.copy(NOTEBOOKS_DIR / "voila.json", folder)
    port = free_port()
    from conftest import VENV_BIN

    cmd = [str(VENV_BIN / "voila"), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}", "."]
    server = start_server(cmd, folder, f"http://127.0.0.1:{port}", "/voila/tree", ARTIFACTS / "voila_tables.log",
                          env={"RAILKIT_TABLES_URL": f"http://127.0.0.1:{tables.port}"})
    try:
        wait_for_pools(server, list(LESSONS))
        wait_until_idle(server)
        yield server
    finally:
        server.stop()


def open_tab(page, voila: Server, lesson: str) -> None:
    open_app(page, voila.url(lesson))
    if lesson.startswith("kk"):
        page.click(".lm-TabBar-tab:has-text('Play with others')")
    else:
        page.click(".railkit-together .jupyter-widget-Collapse-header, .railkit-together .p-Collapse-header, "
                   ".railkit-together .lm-Collapse-header")
    page.wait_for_selector(".railkit-table-create", state="visible")


def create(page, name: str, players: int, bots: int) -> str:
    fill(page, ".railkit-table-name", name)
    page.select_option(".railkit-table-players select", str(players))
    page.select_option(".railkit-table-bots select", str(bots))
    page.click(".railkit-table-create")
    page.wait_for_selector(".railkit-table-lobby .rk-code", state="visible")
    return page.inner_text(".railkit-table-lobby .rk-code").strip()


def join(page, name: str, code: str) -> None:
    fill(page, ".railkit-table-name", name)
    fill(page, ".railkit-table-code", code)
    page.click(".railkit-table-join")
    wait_text(page, ".railkit-table-lobby", "(you)")


def bid(page, amount: int, then: tuple[str, str] | None = None) -> None:
    """Hand in a sealed bid; wait until the page shows it (or ``then``: (selector, text), for the last bid,
    after which the bids are open and no bid is pending)."""
    fill(page, ".railkit-table-amount", str(amount))
    page.click(".railkit-table-bid")
    selector, text = then or (".railkit-table-board", f"Your sealed bid: £{amount}")
    wait_text(page, selector, text)


def panel_text(page) -> str:
    return str(page.evaluate(PANEL_TEXT_JS))


def test_three_pages_at_a_kk_table_through_a_sealed_auction_a_reload_and_a_kill_9(browser, voila, tables):
    pages = []
    try:
        for _ in range(3):
            context, page, blocked = make_offline_page(browser)
            pages.append((context, page, blocked))
        ann, ben, cy = (p for _c, p, _b in pages)
        open_tab(ann, voila, "kk_play.ipynb")
        code = create(ann, "Ann", 4, 1)
        assert len(code) == 6
        for page, name in ((ben, "Ben"), (cy, "Cy")):
            open_tab(page, voila, "kk_play.ipynb")
            join(page, name, code)
        for page in (ann, ben, cy):
            wait_text(page, ".railkit-table-lobby", "Everyone is seated")
            wait_text(page, ".railkit-table-progress", "1 of 4 bids in")  # the computer player's
            wait_text(page, ".railkit-table-turn", "Your turn!")
        shot(ann, "tables_kk_lobby.png", ".railkit-table-panel")

        bid(ann, 37)
        for page in (ben, cy):
            wait_text(page, ".railkit-table-progress", "2 of 4 bids in")
            wait_text(page, ".railkit-table-events", "Ann hands in a sealed bid")
            assert "37" not in panel_text(page)  # KK-A2: the amount stays sealed
        bid(ben, 21)
        for page in (ann, cy):
            wait_text(page, ".railkit-table-progress", "3 of 4 bids in")
        assert "21" not in panel_text(ann) and "37" not in panel_text(ben)
        assert "Waiting for" in ann.inner_text(".railkit-table-turn")
        shot(cy, "tables_kk_three_of_four.png", ".railkit-table-panel")

        # Cy reloads mid-auction: the page address holds the seat, a new kernel takes it back
        cy.wait_for_function("() => new URL(location.href).searchParams.get('seat')")
        cy.reload()
        cy.wait_for_selector("#rendered_cells", state="visible")
        cy.click(".lm-TabBar-tab:has-text('Play with others')")
        wait_text(cy, ".railkit-table-lobby", "(you)")
        wait_text(cy, ".railkit-table-progress", "3 of 4 bids in")
        wait_text(cy, ".railkit-table-turn", "Your turn!")

        # the table server dies mid-game and comes back: the pages carry on
        tables.kill9()
        wait_text(cy, ".railkit-message", "cannot be reached")
        tables.start()
        wait_text(cy, ".railkit-message", "Back at the table")
        bid(cy, 9, then=(".railkit-table-events", "Bids revealed"))
        for page in (ann, ben, cy):
            wait_text(page, ".railkit-table-events", "Bids revealed")
        revealed = ann.inner_text(".railkit-table-events")
        assert "Ann 37" in revealed and "Ben 21" in revealed and "Cy 9" in revealed
        shot(ann, "tables_kk_revealed.png", ".railkit-table-panel")
        ben.set_viewport_size(PHONE)
        shot(ben, "tables_kk_phone.png", ".railkit-table-panel")
        for page in (ann, ben, cy):
            assert page_errors(page) == []
    finally:
        for context, _page, blocked in pages:
            context.close()
            assert not blocked


def test_two_pages_at_a_up_table_play_through_a_scoring_round(browser, voila):
    pages = []
    try:
        for _ in range(2):
            context, page, blocked = make_offline_page(browser)
            pages.append((context, page, blocked))
        ann, ben = (p for _c, p, _b in pages)
        open_tab(ann, voila, "up_play.ipynb")
        code = create(ann, "Ann", 3, 1)
        open_tab(ben, voila, "up_play.ipynb")
        join(ben, "Ben", code)
        wait_text(ann, ".railkit-table-lobby", "Everyone is seated")
        shot(ann, "tables_up_start.png", ".railkit-table-panel")
        for _move in range(400):
            if "Payout 1 of" in ann.inner_text(".railkit-table-board"):
                break
            turn = ann.inner_text(".railkit-table-turn")
            if "Your turn" in turn:
                mover = ann
            elif "Waiting for Ben" in turn:
                mover = ben
                ben.wait_for_selector(".railkit-table-turn .rk-yours", state="visible")
            else:  # the computer player moves: wait for the next state
                ann.wait_for_function("(old) => document.querySelector('.railkit-table-turn').innerText !== old",
                                      arg=turn)
                continue
            # Both pages must have the move before the next turn is read from Ann's page: a page still
            # showing the position before Ben's move would send the loop to wait for Ben forever.
            before = [(page, page.evaluate(EVENTS_MARK_JS)) for page in (ann, ben)]
            mover.click(".railkit-table-play")
            for page, mark in before:
                page.wait_for_function(f"() => ({EVENTS_MARK_JS})() !== {json.dumps(mark)}")
        wait_text(ben, ".railkit-table-board", "Payout 1 of")
        shot(ben, "tables_up_payout.png", ".railkit-table-board")
        ann.set_viewport_size(PHONE)
        shot(ann, "tables_up_phone.png", ".railkit-table-panel")
        for page in (ann, ben):
            assert page_errors(page) == []
    finally:
        for context, _page, blocked in pages:
            context.close()
            assert not blocked
