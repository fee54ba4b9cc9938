"""The teacher's room in real Chromium pages: Voila serves the auction lesson and the teacher's page with
``RAILKIT_TABLES_URL`` pointing at a real table server process (as ``make run`` does). Two learners, each at
their own page with their name in its address, answer the auction exercise (Kim wrong, then right; Ann
once); the teacher's page, opened with the key in its address, shows both, their answers and their table, and a
learner who sat down at the table without typing a name anywhere; the CSV has their rows, each answer timed from
when the page was shown (the lesson's kernel was pre-rendered long before); the same page with a wrong key shows
nothing of the class.

Screenshot: tests/artifacts/teacher_room.png.
"""

from __future__ import annotations

import csv
import io
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_check import assert_clean, in_every_language
from conftest import (
    ARTIFACTS,
    NOTEBOOKS_DIR,
    Server,
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
from tables_client import ServerProcess, call

from railkit.classroom.records import CSV_COLUMNS

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("teacher")]

FEEDBACK_ORDER_JS = """() => [...document.querySelectorAll('.railkit-kk-quiz-feedback table tr')].slice(1)
  .map((tr) => tr.children[2].innerText.trim())"""


@pytest.fixture
def tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ServerProcess, str]]:
    monkeypatch.delenv("RAILKIT_TEACHER_KEY", raising=False)
    key_file = tmp_path / "teacher.key"
    process = ServerProcess(f"sqlite:///{tmp_path / 'tables.sqlite'}", ["--teacher-key-file", str(key_file)]).start()
    try:
        yield process, key_file.read_text().strip()
    finally:
        process.stop()


@pytest.fixture
def voila(tmp_path: Path, tables: tuple[ServerProcess, str]) -> Iterator[Server]:
    folder = tmp_path / "lessons"
    (folder / "teacher").mkdir(parents=True)
    shutil.copy(NOTEBOOKS_DIR / "kk_auction.ipynb", folder)
    shutil.copy(NOTEBOOKS_DIR / "teacher" / "teacher.ipynb", folder / "teacher")
    shutil.copy(NOTEBOOKS_DIR / "voila.json", folder)
    port = free_port()
    from conftest import VENV_BIN

    cmd = [str(VENV_BIN / "voila"), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}", "."]
    server = start_server(cmd, folder, f"http://127.0.0.1:{port}", "/voila/tree", ARTIFACTS / "voila_teacher.log",
                          env={"RAILKIT_TABLES_URL": f"http://127.0.0.1:{tables[0].port}"})
    try:
        wait_for_pools(server, ["kk_auction.ipynb"])
        wait_until_idle(server)
        yield server
    finally:
        server.stop()


def answer_quiz(page, order: list[str] | None) -> list[str]:
    """Fill the “Who chooses first?” places (``order``, or the players as listed) and check; the engine's order."""
    selects = page.locator(".railkit-kk-quiz-place:visible select")
    if order is None:
        options = selects.first.locator("option").all_inner_texts()
        order = [o.strip() for o in options][1:]
    for i in range(selects.count()):
        selects.nth(i).select_option(label=order[i])
    page.click(".railkit-kk-quiz-check")
    wait_text(page, ".railkit-kk-quiz-feedback", "How the order is settled")
    return list(page.evaluate(FEEDBACK_ORDER_JS))


def quiz_pages(browser, voila: Server, names: tuple[str, ...]) -> dict[str, tuple]:
    """Each learner's own page of kk_auction (named in its address) open at the auction-order quiz:
    name -> (browser context, page)."""
    pages = {}
    for name in names:
        context, page, _blocked = make_offline_page(browser)
        open_app(page, voila.url(f"kk_auction.ipynb?name={name}"))
        page.click(".lm-TabBar-tab:has-text('Who chooses first?')")
        page.wait_for_selector(".railkit-kk-quiz-situation", state="visible")
        pages[name] = (context, page)
    return pages


def teacher_csv(tables: ServerProcess, key: str) -> list[dict[str, str]]:
    request = urllib.request.Request(f"http://127.0.0.1:{tables.port}/api/teacher/records.csv",
                                     headers={"X-Railkit-Teacher-Key": key})
    with urllib.request.urlopen(request, timeout=30) as response:
        rows = list(csv.reader(io.StringIO(response.read().decode())))
    return [dict(zip(CSV_COLUMNS, r, strict=True)) for r in rows[1:]]


def test_TEACHER_two_learners_answer_and_the_teachers_page_shows_them_and_their_table(
        browser, voila: Server, tables: tuple[ServerProcess, str]) -> None:
    server, key = tables
    first_shown = time.monotonic()  # the lesson's kernels were pre-rendered before this (the fixture waited)
    pages = quiz_pages(browser, voila, ("Kim", "Ann"))
    kim, ann = pages["Kim"][1], pages["Ann"][1]
    engine = answer_quiz(kim, None)
    first_right = "✘" not in kim.inner_text(".railkit-kk-quiz-feedback")
    if first_right:  # the players as listed were the engine's order: answer wrong on purpose
        answer_quiz(kim, list(reversed(engine)))
    answer_quiz(kim, engine)  # and right
    answer_quiz(ann, None)
    status, made = call("POST", f"http://127.0.0.1:{server.port}/api/tables",
                        {"game": "cape_to_cairo", "seats": ["Kim", "Ann", "Player 3"], "take": "Kim", "seed": 4})
    assert status == 201
    rows: list[dict[str, str]] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the lessons send on a background thread: wait for every answer
        rows = teacher_csv(server, key)
        if len(rows) >= (4 if first_right else 3):
            break
        time.sleep(0.1)
    kims = [r for r in rows if r["learner"] == "Kim"]
    assert [r["attempt"] for r in kims] == (["1", "2", "3"] if first_right else ["1", "2"])
    assert kims[-1]["right"] == "1" and "0" in [r["right"] for r in kims]
    assert all(r["lesson"] == "kk_auction" and r["exercise"] == "choosing_order" for r in rows)
    assert [r["learner"] for r in rows].count("Ann") == 1
    # each answer timed from when the page was shown, not from when its pre-rendered kernel started
    shown_for = time.monotonic() - first_shown
    assert all(int(r["seconds"]) <= shown_for + 1 for r in rows), (rows, shown_for)
    assert call("POST", f"http://127.0.0.1:{server.port}/api/tables/{made['table']}/join",
                {"seat": "Player 3", "name": "Lee"})[0] == 200

    context, teacher_page, _blocked = make_offline_page(browser)
    open_app(teacher_page, voila.url(f"teacher/teacher.ipynb?key={key}"))
    wait_text(teacher_page, ".railkit-teacher-learners", "Kim")
    learners = teacher_page.inner_text(".railkit-teacher-learners")
    assert "Ann" in learners and "KK: The auction" in learners
    wait_text(teacher_page, ".railkit-teacher-learners", "Lee")  # seated, never named on the index page
    lee = next(r for r in teacher_page.locator(".railkit-teacher-learners tr").all_inner_texts() if "Lee" in r)
    assert made["table"] in lee
    tables_text = teacher_page.inner_text(".railkit-teacher-tables")
    assert made["table"] in tables_text and "Kim (learner, away)" in tables_text and "Ann (open)" in tables_text
    assert "Who chooses first?" in teacher_page.inner_text(".railkit-teacher-exercises")  # by its heading
    assert page_errors(teacher_page) == []
    teacher_page.wait_for_selector(".railkit-app .js-plotly-plot")  # the charts
    assert f"kk_play.ipynb?watch={made['table']}" in teacher_page.get_attribute(".railkit-teacher-watch", "href")
    # live: a new learner's answer appears with no click
    call("POST", f"http://127.0.0.1:{server.port}/api/records", {
        "event": "answer", "learner": "Zoe", "lesson": "kk_auction", "visit": "visit-zoe-1",
        "exercise": "choosing_order", "right": True, "attempt": 1})
    wait_text(teacher_page, ".railkit-teacher-learners", "Zoe")
    # a computer player takes Ann's open seat, then the table is closed (confirmed)
    teacher_page.locator(".railkit-teacher-seat-pick select").select_option(label="Ann")
    teacher_page.click(".railkit-teacher-bot-in")
    wait_text(teacher_page, ".railkit-teacher-tables", "Ann (computer)")
    assert call("GET", f"http://127.0.0.1:{server.port}/api/tables/{made['table']}")[1]["seats"]["Ann"] == "bot"
    shot(teacher_page, "teacher_room.png")
    assert_clean(teacher_page, "teacher_room")
    teacher_page.set_viewport_size({"width": 390, "height": 844})
    assert_clean(teacher_page, "teacher_room_phone")
    teacher_page.set_viewport_size({"width": 1280, "height": 1600})
    teacher_page.click(".railkit-teacher-close")
    wait_text(teacher_page, ".railkit-message", "Yes, close this table")
    teacher_page.click(".railkit-teacher-close-confirm input")
    teacher_page.click(".railkit-teacher-close")
    wait_text(teacher_page, ".railkit-teacher-tables", "No tables yet")
    assert call("GET", f"http://127.0.0.1:{server.port}/api/tables/{made['table']}")[0] == 410  # closed by the teacher
    assert page_errors(teacher_page) == []
    in_every_language(teacher_page, "teacher_room")  # the room switches in place, as its picker does

    outsider_context, outsider, _blocked = make_offline_page(browser)
    open_app(outsider, voila.url(f"teacher/teacher.ipynb?key={made['token']}"))
    wait_text(outsider, ".railkit-message", "not the teacher key")
    assert "Kim" not in outsider.inner_text(".railkit-app")
    for c in (context, outsider_context, *(c for c, _ in pages.values())):
        c.close()
