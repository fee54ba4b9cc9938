"""The record of learning from the lessons themselves, headless, against a real table server process: a
learner named in the page address answers exercises right and wrong, and the teacher's reports and CSV hold
exactly those answers; without a server, or with one that is down, the lessons work the same."""

from __future__ import annotations

import csv
import html
import io
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from tables_client import ServerProcess, call, free_port
from test_tables_lessons import close, wait_until
from test_tables_teacher import teacher

from railkit.classroom.records import CSV_COLUMNS
from railkit.ui.capecairo.auction import KkAuctionApp
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.records import lesson_record
from railkit.ui.teacher.page import TeacherApp
from railkit.ui.unionpacific.building import BuildingApp
from railkit.ui.unionpacific.play import PlayApp

pytestmark = pytest.mark.server


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


@pytest.fixture
def fresh_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test is a new lesson kernel: nothing opened, answered or finished yet; no hub, no Binder."""
    for name in ("_visits", "_right", "_hints"):
        monkeypatch.setattr(lesson_record, name, {})
    for name in ("_opened", "_finished"):
        monkeypatch.setattr(lesson_record, name, set())
    for key in [k for k in os.environ if k.startswith("BINDER_")]:
        monkeypatch.delenv(key)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.delenv("RAILKIT_TEACHER_KEY", raising=False)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_kernel: None) -> Iterator[tuple[ServerProcess, str]]:
    key_file = tmp_path / "teacher.key"
    process = ServerProcess(f"sqlite:///{tmp_path / 'tables.sqlite'}", ["--teacher-key-file", str(key_file)]).start()
    monkeypatch.setenv("RAILKIT_TABLES_URL", f"http://127.0.0.1:{process.port}")
    try:
        yield process, key_file.read_text().strip()
    finally:
        process.stop()


def answer_rounds(app: KkAuctionApp, rights: list[bool]) -> None:
    """Check one answer per entry; a False is a wrong order, answered right again at once (attempt 2)."""
    for right in rights:
        q = app.quiz.on_new_question()
        app.quiz.answer(q.order if right else list(reversed(q.order)))
        assert app.quiz.on_check() is right
        if not right:
            app.quiz.answer(q.order)
            assert app.quiz.on_check() is True


def test_RECORDS_a_lesson_records_opening_right_and_wrong_answers_and_finishing(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch) -> None:
    process, key = server
    monkeypatch.setenv("QUERY_STRING", "name=Kim%20Lee&lang=en")
    app = KkAuctionApp(seed=5)
    answer_rounds(app, [True, False])
    assert lesson_record.wait_sent()
    _, out = teacher(process, "learners", key)
    (kim,) = out["learners"]
    assert kim["learner"] == "Kim Lee" and kim["started"] == ["kk_auction"] and kim["finished"] == []
    assert (kim["answers"], kim["first_tries"], kim["first_try_right"]) == (3, 2, 1)
    assert kim["wrong_rules"] == [["KK-A4", 1], ["KK-A5", 1]]
    rows = [dict(zip(CSV_COLUMNS, r, strict=True)) for r in list(csv.reader(io.StringIO(
        teacher(process, "records.csv", key)[1])))[1:]]
    assert [(r["learner"], r["lesson"], r["exercise"], r["right"], r["attempt"]) for r in rows] == [
        ("Kim Lee", "kk_auction", "choosing_order", "1", "1"),
        ("Kim Lee", "kk_auction", "choosing_order", "0", "1"),
        ("Kim Lee", "kk_auction", "choosing_order", "1", "2")]
    assert all(r["rules"] == "KK-A4 KK-A5" and r["seconds"].isdigit() for r in rows)
    answer_rounds(app, [True])  # the third answer right: the lesson is finished
    assert lesson_record.wait_sent()
    assert teacher(process, "learners", key)[1]["learners"][0]["finished"] == ["kk_auction"]
    _, out = teacher(process, "exercises", key)
    assert [(e["lesson"], e["exercise"], e["first_tries"], e["rate"]) for e in out["exercises"]] == [
        ("kk_auction", "choosing_order", 3, round(2 / 3, 3))]


def test_RECORDS_a_wrong_building_answer_names_the_UP_B2_conditions_it_broke(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch) -> None:
    process, key = server
    monkeypatch.setenv("QUERY_STRING", "name=Ann")
    app = BuildingApp()
    s = app.exercise.situation
    assert s is not None
    illegal = [sid for sid in s.candidates if sid not in s.legal]
    assert illegal, "the rulebook's situation has a section the train may not take"
    app.exercise.tick([*s.legal, illegal[0]])
    assert app.exercise.on_check() is False
    app.exercise.tick(s.legal)
    assert app.exercise.on_check() is (bool(s.legal))
    assert lesson_record.wait_sent()
    rows = [dict(zip(CSV_COLUMNS, r, strict=True)) for r in list(csv.reader(io.StringIO(
        teacher(process, "records.csv", key)[1])))[1:]]
    failed = {c.rule for c in s.explanation(app.board, illegal[0]).failed}
    assert rows[0]["right"] == "0" and set(rows[0]["rules"].split()) == failed and failed <= {
        f"UP-B2{x}" for x in "abcdef"}
    assert rows[1]["attempt"] == "2" and rows[1]["rules"] == "UP-B2"


def test_RECORDS_no_name_no_server_or_a_dead_server_records_nothing_and_the_lesson_works(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch) -> None:
    process, key = server
    monkeypatch.delenv("QUERY_STRING", raising=False)  # no name: nobody to record
    answer_rounds(KkAuctionApp(seed=5), [True, False])
    monkeypatch.setenv("QUERY_STRING", "name=Kim")
    monkeypatch.delenv("RAILKIT_TABLES_URL")  # Binder, the static site: no server
    answer_rounds(KkAuctionApp(seed=5), [True])
    monkeypatch.setenv("RAILKIT_TABLES_URL", f"http://127.0.0.1:{free_port()}")  # a server that is down
    app = KkAuctionApp(seed=5)
    answer_rounds(app, [False, True])
    assert app.quiz.score == [1, 2] and app.message_kind == "ok"
    assert lesson_record.wait_sent()
    assert teacher(process, "learners", key)[1] == {"learners": []}


def test_TEACHER_the_teachers_page_shows_learners_exercises_and_tables_with_the_key_only(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch) -> None:
    process, key = server
    base_url = f"http://127.0.0.1:{process.port}"
    for name, rights in (("Kim", [True, True]), ("Ann", [False])):
        monkeypatch.setenv("QUERY_STRING", f"name={name}")
        monkeypatch.setattr(lesson_record, "_visits", {})
        answer_rounds(KkAuctionApp(seed=5), rights)
    assert lesson_record.wait_sent()
    call("POST", f"{base_url}/api/tables", {"game": "cape_to_cairo", "seats": ["Kim", "Ann"], "take": "Kim"})
    monkeypatch.setenv("QUERY_STRING", "key=" + "x" * 30)  # a wrong key in the address: nothing shown
    wrong = TeacherApp(base_url)
    assert not wrong.loaded and wrong.message_kind == "error" and "not the teacher key" in wrong.message_text
    monkeypatch.setenv("QUERY_STRING", f"key={key}&lang=en")
    page = TeacherApp(base_url)
    assert page.loaded and page.message_kind == "ok", page.message_text
    learners = text(page.learners_html.value)
    assert learners.index("Ann") < learners.index("Kim")  # by name
    assert "2/2 (100 %)" in learners and "0/1 (0 %)" in learners and "KK-A4 ×1" in learners
    page.sort.value = "first_try_rate"
    learners = text(page.learners_html.value)
    assert learners.index("Kim") < learners.index("Ann")
    exercises = text(page.exercises_html.value)
    assert "Who chooses first?" in exercises and "choosing_order" not in exercises and "2/3 (67 %)" in exercises
    tables = text(page.tables_html.value)
    assert "Kim (learner, away)" in tables and "Ann (open)" in tables  # Kim has no page open on the table
    page.learner_filter.value = "Ann"
    page.on_refresh()
    assert "Kim" not in text(page.learners_html.value) and "0/1" in text(page.exercises_html.value)
    page.on_export()
    assert "railkit-answers.csv (4 answers)" in text(page.csv_link.value)
    page.on_forget()  # not confirmed: nothing goes
    assert page.message_kind == "error" and len(teacher(process, "learners", key)[1]["learners"]) == 2
    page.forget_confirm.value = True
    page.on_forget()
    assert page.message_kind == "ok" and "6 records and 1 table were" in page.message_text
    assert teacher(process, "learners", key)[1] == {"learners": []}
    assert teacher(process, "tables", key)[1] == {"tables": [], "set_aside": []}
    assert "No answers recorded yet" in text(page.learners_html.value)


def test_RECORDS_an_answer_carries_the_Why_explanations_opened_before_it(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch) -> None:
    process, key = server
    monkeypatch.setenv("QUERY_STRING", "name=Kim")
    app = KkPlayApp(seed=4)
    for _ in range(2):  # the “Why? (hint)” box opened twice, closed in between
        app.hint_button.value = True
        app.hint_button.value = False
    exercise = app.exercise
    e = exercise.question.explanation
    exercise.pieces_field.value, exercise.cost_field.value = str(e.to_buy), str(e.cost + 1)
    exercise.afford.value = e.can_afford
    assert exercise.on_check() is False
    exercise.cost_field.value = str(e.cost)
    assert exercise.on_check() is True
    assert lesson_record.wait_sent()
    rows = [dict(zip(CSV_COLUMNS, r, strict=True)) for r in list(csv.reader(io.StringIO(
        teacher(process, "records.csv", key)[1])))[1:]]
    assert [(r["lesson"], r["exercise"], r["right"], r["attempt"], r["why"]) for r in rows] == [
        ("kk_play", "build_cost", "0", "1", "2"), ("kk_play", "build_cost", "1", "2", "0")]


@pytest.mark.parametrize("lesson", ["kk_play", "up_play"])
def test_RECORDS_a_class_tables_game_played_to_its_end_finishes_the_play_lesson(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch, lesson: str) -> None:
    """The teacher's "lessons finished" counts a game at a class table as it counts a game against the computer; a
    spectator's page (Watch, Replay) finishes nothing."""
    process, key = server
    monkeypatch.setenv("QUERY_STRING", "name=Kim&lang=en")
    panel = (KkPlayApp(seed=2) if lesson == "kk_play" else PlayApp(game_number=2)).together
    panel.players.value, panel.bots.value = 2, 1
    panel.on_create()
    wait_until(lambda: panel.state is not None)
    code = panel.state["table"]
    monkeypatch.setenv("QUERY_STRING", f"watch={code}&lang=en")
    watcher = (KkPlayApp(seed=3) if lesson == "kk_play" else PlayApp(game_number=3)).together
    monkeypatch.setenv("QUERY_STRING", "name=Kim&lang=en")  # one process, two pages: whom a record is about
    assert teacher(process, "learners", key)[1]["learners"][0]["finished"] == []
    # the teacher seats a computer player for Kim: the computer players play the game to its end
    assert teacher(process, f"tables/{code}/bot", key, {"seat": "Kim", "bot": True})[0] == 200
    wait_until(lambda: panel.state["is_over"] and watcher.state is not None and watcher.state["is_over"], timeout=120)
    # the page records the end just after it shows it (``TablePlay._on_state``): the teacher's page follows shortly
    wait_until(lambda: lesson_record.wait_sent() and teacher(process, "learners", key)[1]["learners"][0]["finished"],
               timeout=20)
    (kim,) = teacher(process, "learners", key)[1]["learners"]
    assert kim["learner"] == "Kim" and kim["finished"] == [lesson]
    close(panel, watcher)


def test_RECORDS_KK_A2_UP_B3_puzzles_are_recorded_as_exercises_and_named_on_the_teachers_page(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch) -> None:
    process, key = server
    monkeypatch.setenv("QUERY_STRING", "name=Kim&lang=en")
    kk = KkPlayApp(seed=4)
    kk.tabs.selected_index = 3  # the Puzzles tab
    bid = kk.puzzles
    first = bid.puzzles[0]
    bid.choices.value = (first.best + 1) % len(first.choices)
    assert bid.on_check() is False
    bid.choices.value = first.best
    assert bid.on_check() is True
    up = PlayApp(seed=2)
    up.puzzles_box.selected_index = 0
    share = up.puzzles
    share.choices.value = share.puzzles[0].best
    assert share.on_check() is True
    assert lesson_record.wait_sent()
    rows = [dict(zip(CSV_COLUMNS, r, strict=True)) for r in list(csv.reader(io.StringIO(
        teacher(process, "records.csv", key)[1])))[1:]]
    assert [(r["lesson"], r["exercise"], r["right"], r["attempt"]) for r in rows] == [
        ("kk_play", "puzzle_bid", "0", "1"), ("kk_play", "puzzle_bid", "1", "2"),
        ("up_play", f"puzzle_{share.puzzles[0].question}", "1", "1")]
    assert rows[0]["rules"] == "KK-A2 KK-A3 KK-A4 KK-A6"
    monkeypatch.setenv("QUERY_STRING", f"key={key}&lang=en")
    page = TeacherApp(f"http://127.0.0.1:{process.port}")
    exercises = text(page.exercises_html.value)
    assert "Which bid?" in exercises and "0/1 (0 %)" in exercises
    assert ("Which share?" if share.puzzles[0].question == "share" else "Where to build?") in exercises
