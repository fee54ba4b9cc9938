"""The teacher's page acting on the class, headless, against a real table server process: a computer player takes
a learner's seat and the learner's page sees it; the page keeps itself up to date with the teacher's filters;
closing a table (confirmed) sends its learner back to the start with the teacher's words; a watched finished
table opens in the play lesson as a spectator's replay, move by move."""

from __future__ import annotations

import html
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from tables_client import ServerProcess, call
from test_tables_lessons import close, wait_until

from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.records import lesson_record
from railkit.ui.teacher.page import TeacherApp
from railkit.ui.teacher.teacher_charts import first_try_chart, timeline_chart
from railkit.ui.unionpacific.play import PlayApp

pytestmark = pytest.mark.server


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ServerProcess, str]]:
    for key in [k for k in os.environ if k.startswith("BINDER_")]:
        monkeypatch.delenv(key)
    for name in ("JUPYTERHUB_USER", "VOILA_PREHEAT", "RAILKIT_TEACHER_KEY", "QUERY_STRING"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(lesson_record, "_visits", {})
    key_file = tmp_path / "teacher.key"
    process = ServerProcess(f"sqlite:///{tmp_path / 'tables.sqlite'}", ["--teacher-key-file", str(key_file)]).start()
    monkeypatch.setenv("RAILKIT_TABLES_URL", f"http://127.0.0.1:{process.port}")
    try:
        yield process, key_file.read_text().strip()
    finally:
        process.stop()


def answer(process: ServerProcess, learner: str, right: bool) -> None:
    body = {"event": "answer", "learner": learner, "lesson": "kk_auction", "visit": f"visit-{learner}-1",
            "exercise": "choosing_order", "right": right, "attempt": 1, "rules": ["KK-A4"]}
    assert call("POST", f"http://127.0.0.1:{process.port}/api/records", body)[0] == 201


def test_TEACHER_the_page_seats_a_computer_player_keeps_up_to_date_and_closes_a_table(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch) -> None:
    process, key = server
    ann = KkPlayApp(seed=1, name="Ann").together
    ann.players.value, ann.bots.value = 2, 0
    ann.on_create()
    wait_until(lambda: ann.state is not None)
    code = ann.state["table"]
    answer(process, "Kim", True)
    monkeypatch.setenv("QUERY_STRING", f"key={key}")
    page = TeacherApp(f"http://127.0.0.1:{process.port}", live_seconds=0.2)
    try:
        assert page.loaded and page.table_pick.value == code, page.message_text
        assert f"../kk_play.ipynb?watch={code}" in html.unescape(page.tables_html.value) and "Watch" in text(
            page.tables_html.value)
        assert [v for _l, v in page.seat_pick.options] == ["Ann", "Player 2"]
        page.seat_pick.value = "Player 2"
        page.on_seat_bot(True)
        assert page.message_kind == "ok" and "computer player now plays Player 2" in page.message_text
        wait_until(lambda: ann.state["seats"]["Player 2"] == "bot")  # the learner's page sees it at once
        # live: the page follows new answers by itself, with the teacher's filter and sorting kept
        page.learner_filter.value = "Kim"
        page.sort.value = "answers"
        page.on_refresh()
        answer(process, "Kim", False)
        answer(process, "Zoe", False)
        wait_until(lambda: "1/2 (50 %)" in text(page.learners_html.value))
        assert "Zoe" not in text(page.learners_html.value) and page.sort.value == "answers"
        assert first_try_chart(page.data["exercises"]).traces[0]["x"] == [50]
        (line,) = timeline_chart(page.data["tables"]).traces
        assert line["name"] == f"{code} (Vom Kap bis Kairo)" and line["y"][-1] == page.data["tables"][0]["moves"]
        # closing needs its confirmation, then the learner is told and back at the start
        page.on_close()
        assert page.message_kind == "error" and "Yes, close this table" in page.message_text
        assert call("GET", f"http://127.0.0.1:{process.port}/api/tables/{code}")[0] == 200
        page.close_confirm.value = True
        page.on_close()
        assert page.message_kind == "ok" and code in page.message_text
        wait_until(lambda: ann.state is None and "teacher closed" in ann.messages.text)
        assert ann.start_box.layout.display != "none" and ann.address.value == ""
        wait_until(lambda: page.data["tables"] == [] and "No tables yet" in text(page.tables_html.value))
    finally:
        page.stop_live()
        close(ann)


def test_TEACHER_a_watched_finished_table_replays_move_by_move(server: tuple[ServerProcess, str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    process, _key = server
    status, made = call("POST", f"http://127.0.0.1:{process.port}/api/tables", {
        "game": "cape_to_cairo", "seats": ["Ann", "Ben"], "bots": ["Ann", "Ben"], "seed": 4,
        "options": {"win_crossings": 3}})
    assert status == 201
    monkeypatch.setenv("QUERY_STRING", f"watch={made['table']}")
    app = KkPlayApp(seed=1)
    panel = app.together
    try:
        assert app.tabs.selected_index == 2
        wait_until(lambda: panel.state is not None and panel.state["is_over"])
        wait_until(lambda: panel.replay is not None and panel.replay.steps)
        assert panel.state["seat"] is None and panel.pick_row.layout.display == "none"
        assert panel.replay.slider.max == panel.state["seq"] and panel.address.value == ""
        panel.replay.go(1)
        assert f"Move 1 of {panel.state['seq']}" in text(panel.replay.words.value)
    finally:
        close(panel)


def test_TEACHER_a_learner_is_told_when_the_teacher_seats_a_computer_player_and_gives_the_seat_back(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch) -> None:
    process, key = server
    ann, ben = KkPlayApp(seed=1, name="Ann").together, KkPlayApp(seed=2, name="Ben").together
    ann.players.value, ann.bots.value = 2, 0
    ann.on_create()
    wait_until(lambda: ann.state is not None)
    ben.code.value, ben.name.value = ann.state["table"], "Ben"
    ben.on_join()
    wait_until(lambda: ben.state is not None)
    monkeypatch.setenv("QUERY_STRING", f"key={key}")
    page = TeacherApp(f"http://127.0.0.1:{process.port}", live_seconds=0)
    try:
        page.seat_pick.value = "Ben"
        page.on_seat_bot(True)  # Ben is at the table: the teacher may all the same
        assert page.message_kind == "ok", page.message_text
        wait_until(lambda: "The teacher put a computer player in your seat" in ben.messages.text,
                   message=lambda: ben.messages.text)
        assert "The teacher put a computer player in your seat" in text(ben.turn.value)
        assert "Ben : a computer player, in its learner's place" in text(ann.lobby.value)
        assert ben.bid_row.layout.display == "none" and ben.pick_row.layout.display == "none"
        assert "Ben (computer, for its learner)" in text(page.tables_table())
        page.on_seat_bot(False)
        wait_until(lambda: "Your seat is yours again" in ben.messages.text, message=lambda: ben.messages.text)
        assert "computer player" not in text(ben.turn.value)
    finally:
        close(ann, ben)


def test_TEACHER_watch_opens_the_union_pacific_lesson_at_the_table_without_a_game_of_its_own(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch) -> None:
    process, _key = server
    status, made = call("POST", f"http://127.0.0.1:{process.port}/api/tables", {
        "game": "union_pacific", "seats": ["Ann", "Ben"], "bots": ["Ben"], "take": "Ann", "seed": 4})
    assert status == 201
    monkeypatch.setenv("QUERY_STRING", f"watch={made['table']}")
    app = PlayApp(seed=1)
    panel = app.together
    try:
        assert app.together_box.selected_index == 0 and app.body.children[1] is app.together_box  # open, first
        assert app.status.status not in app.body.children and app.moves.widget not in app.body.children[1:3]
        assert "Watching table" in app.messages.text  # not the solo game's first words
        wait_until(lambda: panel.state is not None)
        assert panel.state["seat"] is None and "Ann (you)" not in text(panel.lobby.value)
        app.relanguage()  # built again in another language: still at the table
        assert app.body.children[1] is app.together_box and app.together.state is not None
    finally:
        close(app.together)


def test_TEACHER_the_page_says_the_server_is_back_as_soon_as_it_is(server: tuple[ServerProcess, str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """kill -9 of the class server under an open teacher's page, and a page opened while it is down: each says the
    server is not answering (blaming no one) and that it is back with the first answer after the restart."""
    process, key = server
    monkeypatch.setenv("QUERY_STRING", f"key={key}")
    page = TeacherApp(f"http://127.0.0.1:{process.port}", live_seconds=0.2)
    late = None
    try:
        assert page.loaded and page.message_kind == "ok"
        process.kill9()
        wait_until(lambda: "not answering" in page.message_text, message=lambda: page.message_text)
        assert page.message_kind == "error" and "make run" not in page.message_text
        assert "carries on by itself" in page.message_text
        late = TeacherApp(f"http://127.0.0.1:{process.port}", live_seconds=0.2)  # opened while the server is down
        assert not late.loaded and "not answering" in late.message_text
        process.start()
        for each in (page, late):
            wait_until(lambda p=each: "answers again" in p.message_text, message=lambda p=each: p.message_text)
            assert each.message_kind == "ok" and each.loaded
    finally:
        page.stop_live()
        if late is not None:
            late.stop_live()
