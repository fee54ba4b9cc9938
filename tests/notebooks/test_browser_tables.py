"""“Play with others” in real Chromium pages: Voila serves the two play lessons with
``RAILKIT_TABLES_URL`` pointing at a real table server process (as ``make run`` does), and each page is a
learner at their own screen.

* Three pages at a Vom Kap bis Kairo table (four seats, one computer player) through a sealed auction: each
  sees “n of 4 bids in” and nobody sees another's amount before the reveal; one page is reloaded mid-auction
  and takes its seat back from the page address; the table server is killed (``kill -9``) mid-game: the pages
  say it is not answering (never “your turn”), a bid made meanwhile waits, and goes once the server is back.
  The teacher puts a computer player in a learner's seat and gives it back: that learner's page says so.
* Two pages at a Union Pacific table (one computer player) play through a scoring round (a pass on its own button).
* The teacher's Watch and Replay links of both games open the play lesson at the table, as a spectator: the
  table first and open, no game of the page's own; the replay names learners and computer players, and its
  buttons say what they do.

Screenshots (desktop and phone width) go to tests/artifacts/tables_*.png; axe-core checks each of those states (no
critical or serious finding), and the last page of each game again in Finnish, Hungarian and Spanish, switched in place.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from axe_check import assert_clean, in_every_language, switch_language
from conftest import (
    Server,
    cut_by_its_box,
    fill,
    make_offline_page,
    open_app,
    page_errors,
    shot,
    wait_text,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from tables_client import ServerProcess, call

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("tables")]
LESSONS = ("kk_play.ipynb", "up_play.ipynb")
PHONE = {"width": 390, "height": 844}

# Everything the table panel shows of the game, as one text (what a learner can read on screen).
PANEL_TEXT_JS = "() => [...document.querySelectorAll('.railkit-table-panel')].map((e) => e.innerText).join(' ')"
# The element is in the viewport of Voila's scrolling page (the page opened at it, with no scrolling by hand).
IN_VIEW_JS = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.top < window.innerHeight; }"""
# The keyboard focus is in the table's game (its lobby, or the seat's move), not dropped to the page (WCAG 2.4.3).
FOCUS_IN_TABLE_JS = """() => { const el = document.activeElement;
  return !!el && el !== document.body && !!el.closest('.railkit-table-panel') && el.offsetParent !== null; }"""
EVENTS_MARK_JS = """() => {
  const ol = document.querySelector('.railkit-table-events ol');
  const turn = document.querySelector('.railkit-table-turn');
  return (ol ? ol.start + ':' + ol.children.length : '') + '|' + (turn ? turn.innerText : '');
}"""


@pytest.fixture
def tables(class_tables: ServerProcess) -> ServerProcess:
    """The session's table server (tests/conftest.py), shared with the other table pages' tests."""
    return class_tables


@pytest.fixture
def voila(class_voila: Server) -> Server:
    """The session's Voila with the two play lessons, its kernels told where the tables are (tests/conftest.py)."""
    return class_voila


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
    page.wait_for_function(FOCUS_IN_TABLE_JS)  # the button that was pressed is gone: the focus stays in the table
    return page.inner_text(".railkit-table-lobby .rk-code").strip()


def join(page, name: str, code: str, typed: bool = True) -> None:
    """Join table ``code`` as ``name`` (``typed``: typed into the panel; else the page address brought it)."""
    if typed:
        fill(page, ".railkit-table-name", name)
    else:
        page.wait_for_function("(name) => document.querySelector('.railkit-table-name input').value === name",
                               arg=name)
    fill(page, ".railkit-table-code", code)
    page.click(".railkit-table-join")
    wait_text(page, ".railkit-table-lobby", "(you)")
    page.wait_for_function(FOCUS_IN_TABLE_JS)


def bid(page, amount: int, then: tuple[str, str] | None = None) -> None:
    """Hand in a sealed bid; wait until the page shows it (or ``then``: (selector, text), for the last bid,
    after which the bids are open and no bid is pending)."""
    fill(page, ".railkit-table-amount", str(amount))
    page.click(".railkit-table-bid")
    selector, text = then or (".railkit-table-board", f"Your sealed bid: £{amount}")
    wait_text(page, selector, text)


# The race's names on a phone: each on its own row, on one line (never broken inside a word), the names beside the
# cells hidden.
RACE_NAMES_JS = """() => [...document.querySelectorAll('.railkit-table-board table.kk-race tr.kk-name-row td')]
  .map((td) => { const range = document.createRange(); range.selectNodeContents(td);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return [td.innerText.trim(), tops.size]; })"""


def assert_fits_a_phone(page) -> None:
    """At 390 px: nothing in the table's panel cut off by its box; the race's names whole, one line each."""
    assert cut_by_its_box(page, ".railkit-table-panel") == []
    names = page.evaluate(RACE_NAMES_JS)
    assert all(lines == 1 for _name, lines in names), names
    assert page.locator(".railkit-table-board td.kk-name:visible").count() == 0


def panel_text(page) -> str:
    return str(page.evaluate(PANEL_TEXT_JS))


def teacher_call(tables: ServerProcess, tmp_path: Path, path: str, body: dict) -> dict:
    """A teacher's request to the table server, with the key it made beside its database."""
    key = os.environ.get("RAILKIT_TEACHER_KEY") or tables.key_path.read_text().strip()
    status, answer = call("POST", f"http://127.0.0.1:{tables.port}/api/teacher/{path}", body,
                          headers={"X-Railkit-Teacher-Key": key})
    assert status == 200, answer
    return answer


def finished_table(tables: ServerProcess, tmp_path: Path, game: str, options: dict) -> str:
    """A table whose learner (Ann) left and whose game the computer players finished: the teacher's Replay."""
    status, made = call("POST", tables.http, {"game": game, "seats": ["Ann", "Ben"], "bots": ["Ben"], "take": "Ann",
                                              "seed": 4, "options": options})
    assert status == 201, made
    assert teacher_call(tables, tmp_path, f"tables/{made['table']}/bot", {"seat": "Ann", "bot": True})["is_over"]
    return str(made["table"])


def watch(browser, voila: Server, lesson: str, code: str, name: str) -> tuple:
    """The teacher's Watch (or Replay) link opened in a browser of its own: the page opens at the table, as a
    spectator, the table's section first (in view without scrolling), no game of the page's own."""
    context, page, blocked = make_offline_page(browser)
    open_app(page, voila.url(f"{lesson}?watch={code}&lang=en"))
    page.wait_for_selector(".railkit-table-lobby .rk-code", state="visible")
    wait_text(page, ".railkit-message", f"Watching table {code}")
    page.wait_for_function(IN_VIEW_JS, arg=".railkit-table-lobby")  # the page scrolled to the table by itself
    assert "(you)" not in page.inner_text(".railkit-table-lobby")
    if lesson.startswith("up"):  # the solo game is not on the page: no “You: choose a first share”
        assert page.locator(".railkit-status").count() == 0 and page.locator(".railkit-together").count() == 1
    shot(page, f"{name}.png")
    assert_clean(page, name)
    page.set_viewport_size(PHONE)
    shot(page, f"{name}_phone.png")
    assert_clean(page, f"{name}_phone")
    assert page_errors(page) == [] and not blocked
    return context, page


def check_replay(page, name: str) -> None:
    """The replay of a finished table: learners and computer players named, buttons labelled in words."""
    page.set_viewport_size({"width": 1280, "height": 1600})
    page.wait_for_selector(".railkit-replay", state="visible")
    wait_text(page, ".railkit-replay-players", "Ann (learner)")
    assert "Ben (computer)" in page.inner_text(".railkit-replay-players")
    labels = ["Back to the deal", "One move back", "Next move", "The end of the game"]
    for label in labels:  # a visible label, and the same accessible name (beside an icon)
        button = page.get_by_role("button", name=label)
        assert button.is_visible() and button.inner_text().replace("\xa0", " ").strip() == label
    page.get_by_role("button", name="The end of the game").click()
    wait_text(page, ".railkit-replay-words", "Move ")
    moves = page.inner_text(".railkit-replay-words").split("Move ", 1)[1].split(":", 1)[0]
    done, total = moves.split(" of ")
    assert done == total
    shot(page, f"{name}.png", ".railkit-replay")
    assert_clean(page, name)
    page.set_viewport_size(PHONE)
    shot(page, f"{name}_phone.png", ".railkit-replay")
    assert_clean(page, f"{name}_phone")


def test_three_pages_at_a_kk_table_through_a_sealed_auction_a_reload_and_a_kill_9(browser, voila, tables,
                                                                                 tmp_path):
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
        assert_clean(ann, "tables_kk_lobby")

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

        # the table server dies mid-game: the pages say so (never “your turn”); Cy's bid made meanwhile waits and
        # goes when the server is back
        tables.kill9()
        wait_text(cy, ".railkit-message", "not answering")
        wait_text(cy, ".railkit-table-turn", "not answering")
        assert "Your turn" not in cy.inner_text(".railkit-table-turn")
        bid(cy, 9, then=(".railkit-table-turn", "Your move waits and is sent then: Bid £9"))
        shot(cy, "tables_kk_server_down.png", ".railkit-table-panel")
        tables.start()
        wait_text(cy, ".railkit-message", "Back at the table: your move was sent (Bid £9)")
        for page in (ann, ben, cy):
            wait_text(page, ".railkit-table-events", "Bids revealed")
        revealed = ann.inner_text(".railkit-table-events")
        assert "Ann 37" in revealed and "Ben 21" in revealed and "Cy 9" in revealed
        shot(ann, "tables_kk_revealed.png", ".railkit-table-panel")
        assert_clean(ann, "tables_kk_revealed")
        ben.set_viewport_size(PHONE)
        shot(ben, "tables_kk_phone.png", ".railkit-table-panel")
        assert_clean(ben, "tables_kk_phone")
        assert_fits_a_phone(ben)

        # the teacher puts a computer player in Ben's seat, then gives it back: Ben's page says both
        teacher_call(tables, tmp_path, f"tables/{code}/bot", {"seat": "Ben", "bot": True})
        wait_text(ben, ".railkit-message", "The teacher put a computer player in your seat")
        wait_text(ben, ".railkit-table-turn", "The teacher put a computer player in your seat")
        shot(ben, "tables_seat_told_phone.png")
        ben.set_viewport_size({"width": 1280, "height": 1600})
        shot(ben, "tables_seat_told.png")
        wait_text(ann, ".railkit-table-lobby", "Ben: a computer player, in its learner's place")
        teacher_call(tables, tmp_path, f"tables/{code}/bot", {"seat": "Ben", "bot": False})
        wait_text(ben, ".railkit-message", "Your seat is yours again")
        for page in (ann, ben, cy):
            assert page_errors(page) == []

        # the teacher's Watch of this table, and Replay of a finished one
        context, page = watch(browser, voila, "kk_play.ipynb", code, "tables_kk_watch")
        pages.append((context, page, []))
        context, page = watch(browser, voila, "kk_play.ipynb",
                              finished_table(tables, tmp_path, "cape_to_cairo", {"win_crossings": 3}),
                              "tables_kk_replay_page")
        pages.append((context, page, []))
        check_replay(page, "tables_kk_replay")
        in_every_language(ann, "tables_kk")  # Ann's table page, switched in place: the same seat, every language
    finally:
        for context, _page, blocked in pages:
            context.close()
            assert not blocked


def test_two_pages_at_a_up_table_play_through_a_scoring_round(browser, voila, tables, tmp_path):
    pages = []
    try:
        for _ in range(2):
            context, page, blocked = make_offline_page(browser)
            pages.append((context, page, blocked))
        ann, ben = (p for _c, p, _b in pages)
        open_tab(ann, voila, "up_play.ipynb")
        code = create(ann, "Ann", 3, 1)
        open_tab(ben, voila, "up_play.ipynb?name=Ben")  # the name from the index, heard by a pre-rendered kernel
        join(ben, "Ben", code, typed=False)
        wait_text(ann, ".railkit-table-lobby", "Everyone is seated")
        shot(ann, "tables_up_start.png", ".railkit-table-panel")
        assert_clean(ann, "tables_up_start")
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
            try:
                mover.wait_for_selector(".railkit-table-play:visible, .railkit-table-pass:visible")
            except Exception:  # what the page showed instead, for whoever reads the failure
                shot(mover, "tables_up_no_move_control.png", ".railkit-table-panel")
                raise AssertionError(mover.inner_text(".railkit-table-panel")[:2000]) from None
            try:
                if mover.is_visible(".railkit-table-play"):
                    pick = mover.locator(".railkit-table-pick select")
                    if pick.input_value(timeout=15_000) == "":  # only UP-T4's discards: a deliberate pick
                        pick.select_option(index=0, timeout=15_000)
                    mover.click(".railkit-table-play", timeout=15_000)
                else:  # only the end of the turn (UP-B6) is left: its own button
                    mover.click(".railkit-table-pass", timeout=15_000)
            except PlaywrightTimeoutError:
                # the panel was drawn anew between the look and the click (a later state came in; seen under
                # three test workers): nothing was sent, so the turn is read again
                continue
            for page, mark in before:
                page.wait_for_function(f"() => ({EVENTS_MARK_JS})() !== {json.dumps(mark)}")
        wait_text(ben, ".railkit-table-board", "Payout 1 of")
        shot(ben, "tables_up_payout.png", ".railkit-table-board")
        assert_clean(ben, "tables_up_payout")
        ann.set_viewport_size(PHONE)
        shot(ann, "tables_up_phone.png", ".railkit-table-panel")
        assert_clean(ann, "tables_up_phone")
        assert_fits_a_phone(ann)
        for page in (ann, ben):
            assert page_errors(page) == []

        # the teacher's Watch of this table, and Replay of a finished one
        context, page = watch(browser, voila, "up_play.ipynb", code, "tables_up_watch")
        pages.append((context, page, []))
        context, page = watch(browser, voila, "up_play.ipynb", finished_table(tables, tmp_path, "union_pacific", {}),
                              "tables_up_replay_page")
        pages.append((context, page, []))
        check_replay(page, "tables_up_replay")
        in_every_language(ben, "tables_up")
    finally:
        for context, _page, blocked in pages:
            context.close()
            assert not blocked


REVIEW = ".railkit-table-panel .railkit-review-panel"  # the table's “Review my game” (the lesson has its own)
MARKED = f"{REVIEW} li :is(.rk-mark-inaccuracy, .rk-mark-mistake, .rk-mark-blunder)"


def test_a_finished_kk_table_reviews_the_learners_own_decisions_with_marks_and_a_chart(browser, voila, tables,
                                                                                     tmp_path):
    """“Review my game” at the end of a short Kap bis Kairo table (3 crossings, KK-E1; a computer player in the other
    seat and, put there by the teacher, in the learner's): the page back at the seat fetches the seat's own decisions
    from the table server and the search player reviews them: the marks, the rule IDs and the chart of the winning
    chances, in English and, switched in place, in Finnish; at desktop and phone width."""
    status, made = call("POST", tables.http, {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "bots": ["Ben"],
                                              "take": "Ann", "seed": 6, "options": {"win_crossings": 3}})
    assert status == 201, made
    assert teacher_call(tables, tmp_path, f"tables/{made['table']}/bot", {"seat": "Ann", "bot": True})["is_over"]
    context, page, blocked = make_offline_page(browser)
    try:
        open_app(page, voila.url(f"kk_play.ipynb?table={made['table']}&seat={made['token']}&lang=en"))
        wait_text(page, ".railkit-table-turn", "The game is over")
        shot(page, "tables_kk_game_over.png", ".railkit-table-review")  # the table's result, the button under it
        page.click(f"{REVIEW} .railkit-review-game")
        wait_text(page, f"{REVIEW} .railkit-game-review", "decisions reviewed")
        page.wait_for_selector(f"{REVIEW} .railkit-review-chart .js-plotly-plot", state="visible")
        said = page.inner_text(f"{REVIEW} .railkit-game-review")
        assert "Review of your decisions by the search player" in said and "KK-" in said
        assert page.locator(MARKED).count() >= 1 and "Why:" in said
        assert page.locator(f"{REVIEW} .railkit-review-game").is_hidden()
        shot(page, "tables_kk_game_review.png", REVIEW)
        assert_clean(page, "tables_kk_game_review")
        page.set_viewport_size(PHONE)
        shot(page, "tables_kk_game_review_phone.png", REVIEW)
        # the words fit; the table of every decision scrolls sideways in its own box (.rk-scroll), within the page
        assert cut_by_its_box(page, f"{REVIEW} .railkit-game-review > :not(details)") == []
        assert page.evaluate(f"() => document.querySelector('{REVIEW} .rk-scroll').getBoundingClientRect().right"
                             " <= window.innerWidth")
        page.set_viewport_size({"width": 1280, "height": 1600})
        switch_language(page, "fi")  # the page built again: the review made stays, in Finnish
        wait_text(page, f"{REVIEW} .railkit-game-review", "Hakupelaajan arvio päätöksistäsi")
        page.wait_for_selector(f"{REVIEW} .railkit-review-chart .js-plotly-plot", state="visible")
        assert page.locator(MARKED).count() >= 1
        shot(page, "tables_kk_game_review_fi.png", REVIEW)
        assert_clean(page, "fi_tables_kk_game_review")
        page.set_viewport_size(PHONE)
        shot(page, "tables_kk_game_review_fi_phone.png", REVIEW)
        assert page_errors(page) == []
    finally:
        context.close()
    assert not blocked
