"""The teacher's page and the lessons' record of learning without a table server (the fast tier): the page
asks for the server and the key in words and changes nothing; a lesson records nothing and works the same;
whom a record is about (the hub user, else the name in the page address, else no one)."""

from __future__ import annotations

import os

import pytest

from railkit.ui.capecairo.auction import KkAuctionApp
from railkit.ui.records import lesson_record
from railkit.ui.teacher.page import TeacherApp, key_from_address


@pytest.fixture(autouse=True)
def no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAILKIT_TABLES_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)  # not on the class hub
    monkeypatch.delenv("QUERY_STRING", raising=False)
    for key in [k for k in os.environ if k.startswith("BINDER_")]:
        monkeypatch.delenv(key)


def test_TEACHER_the_page_without_a_server_or_key_says_what_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    page = TeacherApp()
    assert page.message_kind == "info" and "teacher key" in page.message_text and not page.loaded
    page.key_field.value = "k" * 30
    page.on_refresh()
    assert page.message_kind == "error" and "make run" in page.message_text and not page.loaded
    monkeypatch.setenv("RAILKIT_TABLES_URL", "http://127.0.0.1:9")
    page.key_field.value = ""
    page.on_refresh()
    assert page.message_kind == "error" and "Type the teacher key first" in page.message_text
    page.key_field.value = "k" * 30
    page.on_forget()
    assert page.message_kind == "error" and "Tick" in page.message_text


def test_TEACHER_the_key_in_the_page_address_is_read_bounded() -> None:
    assert key_from_address("?name=Kim&key=abc-DEF_123456789") == "abc-DEF_123456789"
    assert key_from_address("key=" + "x" * 500) == "x" * 200
    assert key_from_address("") == "" and key_from_address("&".join(["a=1"] * 50)) == ""


def test_RECORDS_whom_a_record_is_about(monkeypatch: pytest.MonkeyPatch) -> None:
    assert lesson_record.learner() is None  # no name: nobody is recorded
    monkeypatch.setenv("QUERY_STRING", "name=Kim")
    assert lesson_record.learner() == "Kim"
    monkeypatch.setenv("JUPYTERHUB_USER", "ann.lee")
    assert lesson_record.learner() == "ann.lee"  # the hub's user name wins
    monkeypatch.setenv("JUPYTERHUB_USER", "x" * 300)
    assert lesson_record.learner() is None


def test_RECORDS_without_a_server_a_lesson_queues_nothing_and_counts_attempts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "name=Kim")
    app = KkAuctionApp(seed=5)
    q = app.quiz.question
    app.quiz.answer(list(reversed(q.order)))
    assert app.quiz.on_check() is False
    app.quiz.answer(q.order)
    assert app.quiz.on_check() is True and app.quiz.score == [0, 1]
    assert app.quiz.learning.attempt == 2 and lesson_record._queue.unfinished_tasks == 0
    app.quiz.on_new_question()
    assert app.quiz.learning.attempt == 0
    assert lesson_record.lesson_of(KkAuctionApp) == "kk_auction" and lesson_record.lesson_of(TeacherApp) is None


def test_CLASS_LINK_the_teachers_page_makes_one_link_per_lesson_and_refuses_bad_fields() -> None:
    page = TeacherApp(live_seconds=0)
    links = page.links
    links.lesson.value = "kk_play"
    links.seed.value, links.players.value, links.variant.value = "7", 2, "5"
    links.language.value, links.table.value = "fi", " abc234 "
    page.on_make_link()
    assert page.message_kind == "ok", page.message_text
    assert links.made == "../kk_play.ipynb?seed=7&players=2&variant=5&lang=fi&table=ABC234"
    assert "href='../kk_play.ipynb?seed=7&amp;players=2" in links.link.value
    links.seed.value = "12x"
    page.on_make_link()
    assert page.message_kind == "error" and "Game number" in page.message_text
    links.seed.value, links.table.value = "", "<b>"
    page.on_make_link()
    assert page.message_kind == "error" and "Table code" in page.message_text
    links.lesson.value = "up_dividends"  # a lesson that deals no game from a link: its language only
    assert links.seed.layout.display == "none" and links.players.layout.display == "none"
    page.on_make_link()
    assert links.made == "../up_dividends.ipynb?lang=fi"


def test_TEACHER_every_recorded_exercise_is_named_by_its_heading_not_its_id() -> None:
    """The teacher reads “KK: The auction: Who chooses first?”, never the records' id “choosing_order”; every exercise
    a lesson records has its heading in railkit/lessons.py (a new one without fails here)."""
    import re
    from pathlib import Path

    from railkit.lessons import EXERCISES
    from railkit.ui import i18n
    from railkit.ui.teacher.teacher_charts import first_try_chart
    from railkit.ui.teacher.teacher_html import exercises_html

    root = Path(__file__).resolve().parents[2] / "railkit" / "ui"
    recorded = {(m[0], m[1]) for f in root.rglob("*.py")
                for m in re.findall(r'ExerciseRecord\(\s*"(\w+)",\s*"([\w.-]+)"', f.read_text(encoding="utf-8"))}
    from railkit.lab.puzzles import GAME_QUESTIONS
    from railkit.ui.puzzles import exercise_id

    # the play lessons' puzzles record one exercise per question (railkit/ui/puzzles.py)
    recorded |= {(lesson, exercise_id(q)) for lesson, game in (("kk_play", "kk"), ("up_play", "up"))
                 for q in GAME_QUESTIONS[game]}
    assert len(recorded) >= 6 and recorded == set(EXERCISES), recorded ^ set(EXERCISES)
    row = {"lesson": "kk_auction", "exercise": "choosing_order", "learners": 3, "first_try_right": 1, "first_tries": 3,
           "rate": 1 / 3, "rules": ["KK-A4"]}
    assert "Who chooses first?" in exercises_html([row]) and "choosing_order" not in exercises_html([row])
    assert first_try_chart([row]).traces[0]["y"] == ["KK: The auction: Who chooses first?"]
    try:
        i18n.set_language("fi")
        assert "Kuka valitsee ensin?" in exercises_html([row])
    finally:
        i18n.set_language("en")
    old = {**row, "exercise": "gone_exercise"}  # a record of an exercise railkit no longer has: its id
    assert "gone_exercise" in exercises_html([old])


def test_TEACHER_the_tables_chart_of_a_table_just_started_shows_minutes_and_whole_moves() -> None:
    from railkit.ui.teacher.teacher_charts import timeline_chart

    started = {"table": "ABC234", "game": "cape_to_cairo", "timeline": [[0, "2026-12-07T08:15:47+00:00"]]}
    layout = timeline_chart([started]).layout
    assert list(layout["xaxis"]["range"]) == ["2026-12-07 08:06:47", "2026-12-07 08:16:47"]
    assert layout["yaxis"]["dtick"] == 1 and list(layout["yaxis"]["range"]) == [0, 5]
    many = {**started, "timeline": [[n, f"2026-12-07T{8 + n // 60:02d}:{n % 60:02d}:00+00:00"] for n in range(90)]}
    layout = timeline_chart([many]).layout
    assert layout["xaxis"]["range"] is None and layout["yaxis"]["dtick"] is None  # plotly's own axes fit a long game
