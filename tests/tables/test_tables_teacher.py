"""The record of learning and the teacher's reports, against a real table server process on SQLite and on
PostgreSQL: records are checked and bounded, only the teacher key opens the reports (never a learner's seat
or creator token), the CSV has one row per answer, and "forget this class" needs its confirmation."""

from __future__ import annotations

import csv
import io
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tables_client import Client, ServerProcess, call

from railkit.classroom.records import CSV_COLUMNS, MAX_RULES
from railkit.classroom.teacher import FORGET_WORDS, KEY_HEADER

pytestmark = pytest.mark.server

Start = Callable[..., ServerProcess]


def base(server: ServerProcess) -> str:
    return f"http://127.0.0.1:{server.port}/api"


def teacher(server: ServerProcess, path: str, key: str | None, body: Any = None,
            header: str = KEY_HEADER) -> tuple[int, Any]:
    """A teacher request with ``key`` (JSON answer, or the text of a CSV)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers[header] = key if header == KEY_HEADER else f"Bearer {key}"
    request = urllib.request.Request(f"{base(server)}/teacher/{path}", data=data, headers=headers,
                                     method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
            return response.status, text if path.endswith(".csv") else json.loads(text)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def started(start: Start, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            *args: str) -> tuple[ServerProcess, str]:
    monkeypatch.delenv("RAILKIT_TEACHER_KEY", raising=False)
    key_file = tmp_path / "data" / "teacher.key"
    server = start("--teacher-key-file", str(key_file), *args)
    key = key_file.read_text().strip()
    assert len(key) >= 16 and (key_file.stat().st_mode & 0o777) == 0o600
    return server, key


def record(server: ServerProcess, **fields: Any) -> tuple[int, dict[str, Any]]:
    body = {"event": "answer", "learner": "Kim", "lesson": "up_setup", "visit": "visit-0001", **fields}
    if body["event"] == "answer":
        body = {"exercise": "first_k", "right": True, "attempt": 1, **body}
    return call("POST", f"{base(server)}/records", body)


def test_RECORDS_answers_make_the_learner_and_exercise_reports(start: Start, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    assert record(server, event="opened")[0] == 201
    assert record(server, exercise="bottom", right=False, attempt=1, rules=["UP-S7"], hints=1, why=2,
                  seconds=40)[0] == 201
    assert record(server, exercise="bottom", right=True, attempt=2, rules=["UP-S7"])[0] == 201
    assert record(server, exercise="first_k", right=True, attempt=1, rules=["UP-V1"])[0] == 201
    assert record(server, event="finished")[0] == 201
    assert record(server, learner="  Ann   Lee ", lesson="kk_auction", exercise="order", right=False,
                  rules=["KK-A5", "KK-A4"])[0] == 201
    status, out = teacher(server, "learners", key)
    assert status == 200
    ann, kim = out["learners"]
    assert ann["learner"] == "Ann Lee" and ann["first_tries"] == 1 and ann["first_try_right"] == 0
    assert ann["wrong_rules"] == [["KK-A4", 1], ["KK-A5", 1]] and ann["finished"] == []
    assert kim["started"] == ["up_setup"] and kim["finished"] == ["up_setup"]
    assert (kim["answers"], kim["first_tries"], kim["first_try_right"]) == (3, 2, 1)
    assert kim["wrong_rules"] == [["UP-S7", 1]]
    status, out = teacher(server, "learners?lesson=kk_auction", key)
    assert [r["learner"] for r in out["learners"]] == ["Ann Lee"]
    status, out = teacher(server, "exercises?learner=Kim", key, header="Authorization")
    assert status == 200
    assert [(e["exercise"], e["rate"]) for e in out["exercises"]] == [("bottom", 0.0), ("first_k", 1.0)]
    status, out = teacher(server, "exercises", key)
    assert out["exercises"][0]["lesson"] in ("kk_auction", "up_setup") and out["exercises"][0]["rate"] == 0.0


@pytest.mark.parametrize(("fields", "rule"), [
    ({"learner": ""}, "RECORDS-NAME"),
    ({"learner": "x" * 31}, "RECORDS-NAME"),
    ({"learner": "Kim\nDrop"}, "RECORDS-NAME"),
    ({"learner": ["Kim"]}, "RECORDS-NAME"),
    ({"lesson": "teacher"}, "RECORDS-LESSON"),
    ({"event": "deleted"}, "RECORDS-EVENT"),
    ({"exercise": "DROP TABLE"}, "RECORDS-EXERCISE"),
    ({"exercise": "a" * 61}, "RECORDS-EXERCISE"),
    ({"right": "yes"}, "RECORDS-FIELD"),
    ({"attempt": 0}, "RECORDS-FIELD"),
    ({"attempt": True}, "RECORDS-FIELD"),
    ({"hints": 10**9}, "RECORDS-FIELD"),
    ({"seconds": -1}, "RECORDS-FIELD"),
    ({"visit": "short"}, "RECORDS-FIELD"),
    ({"rules": ["UP-S7"] * (MAX_RULES + 1)}, "RECORDS-RULES"),
    ({"rules": ["<script>"]}, "RECORDS-RULES"),
    ({"admin": True}, "RECORDS-FIELD"),
    ({"event": "opened", "right": True}, "RECORDS-FIELD"),
])
def test_RECORDS_a_hostile_record_is_refused_with_its_rule_and_stores_nothing(
        start: Start, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fields: dict[str, Any], rule: str) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    status, answer = record(server, **fields)
    assert status == 400 and answer["rule"] == rule and answer["message"]
    assert teacher(server, "learners", key) == (200, {"learners": []})


def test_RECORDS_SIZE_and_RATE_a_huge_or_hurried_sender_is_refused(start: Start, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch, "--records-per-second", "0.5")
    status, answer = call("POST", f"{base(server)}/records", raw=b"{" + b" " * 20_000 + b"}")
    assert status == 413 and answer["rule"] == "TABLES-SIZE"
    status, answer = call("POST", f"{base(server)}/records", raw=b"[1, 2]")
    assert status == 400 and answer["rule"] == "TABLES-JSON"
    statuses = [record(server, learner="Rush")[0] for _ in range(20)]  # one every 2 s, bursts of one
    assert statuses[0] == 201 and 429 in statuses
    _, out = teacher(server, "learners", key)
    assert out["learners"][0]["answers"] == statuses.count(201)


def test_TEACHER_KEY_only_the_teacher_key_opens_the_teacher_endpoints(start: Start, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    status, made = call("POST", f"{base(server)}/tables", {"game": "cape_to_cairo", "seats": ["Ann", "Ben"],
                                                           "take": "Ann", "seed": 3})
    assert status == 201
    learner_words = [made["token"], made["creator_token"], "", key[:-1], key + "x", key.upper()]
    for path in ("learners", "exercises", "tables", "records.csv"):
        for word in learner_words:
            status, answer = teacher(server, path, word)
            assert status == 403 and answer["rule"] == "TEACHER-KEY", (path, word)
        assert teacher(server, path, None)[0] == 403
        assert teacher(server, path, key)[0] == 200
    status, answer = teacher(server, "forget", made["token"], {"confirm": FORGET_WORDS})
    assert status == 403
    assert call("GET", f"{base(server)}/tables/{made['table']}")[0] == 200  # nothing was forgotten


def test_TEACHER_tables_show_seats_turn_moves_and_stalled_tables(start: Start, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    _, made = call("POST", f"{base(server)}/tables", {"game": "cape_to_cairo", "seats": ["Ann", "Ben"],
                                                      "take": "Ann", "seed": 3})
    ann = Client(server, made["table"], made["token"])
    assert ann.act({"type": "bid", "amount": 2})["type"] == "state"
    ann.close()
    status, out = teacher(server, "tables", key)
    assert status == 200
    (table,) = out["tables"]
    assert table["table"] == made["table"] and table["game"] == "cape_to_cairo" and table["moves"] == 1
    assert [(s["seat"], s["holder"], s["stand_in"]) for s in table["seats"]] == [("Ann", "human", False),
                                                                                ("Ben", "open", False)]
    assert table["seats"][1]["away"] is False  # an open seat has no learner to be away
    assert table["to_move"] == ["Ben"] and not table["is_over"] and not table["stalled"]
    assert "token" not in json.dumps(out) and "amount" not in json.dumps(out)  # public facts only
    status, out = teacher(server, "tables?stalled=1", key)
    assert status == 400 and out["rule"] == "TEACHER-STALLED"


def test_TEACHER_the_csv_has_one_row_per_answer_and_forget_needs_its_words(start: Start, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    record(server, event="opened", learner="=cmd()")
    record(server, learner="=cmd()", right=False, rules=["UP-S7", "UP-V1"], hints=2, seconds=12)
    record(server, learner="Kim", attempt=2, why=1)
    call("POST", f"{base(server)}/tables", {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "seed": 3})
    status, text = teacher(server, "records.csv", key)
    assert status == 200
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == 3
    first = dict(zip(CSV_COLUMNS, rows[1], strict=True))
    assert first["learner"] == "'=cmd()"  # a spreadsheet never runs a name as a formula
    assert (first["lesson"], first["exercise"], first["right"], first["attempt"]) == ("up_setup", "first_k", "0", "1")
    assert (first["hints"], first["why"], first["seconds"], first["rules"]) == ("2", "0", "12", "UP-S7 UP-V1")
    assert first["time"].endswith("+00:00")
    second = dict(zip(CSV_COLUMNS, rows[2], strict=True))
    assert (second["learner"], second["right"], second["attempt"], second["why"]) == ("Kim", "1", "2", "1")
    for wrong in ({}, {"confirm": "yes"}, {"confirm": True}):
        status, answer = teacher(server, "forget", key, wrong)
        assert status == 400 and answer["rule"] == "TEACHER-CONFIRM"
    assert len(teacher(server, "learners", key)[1]["learners"]) == 2
    status, gone = teacher(server, "forget", key, {"confirm": FORGET_WORDS})
    assert status == 200 and gone == {"records": 3, "tables": 1}
    assert teacher(server, "learners", key)[1] == {"learners": []}
    assert teacher(server, "tables", key)[1] == {"tables": [], "set_aside": []}
    server.stop()  # forgotten for good: a restart rebuilds nothing
    server.start()
    assert teacher(server, "tables", key)[1] == {"tables": [], "set_aside": []}
    assert len(list(csv.reader(io.StringIO(teacher(server, "records.csv", key)[1])))) == 1
    assert record(server, learner="Ben")[0] == 201  # a new class starts from nothing
    _, out = teacher(server, "class", key)
    assert [r["learner"] for r in out["learners"]] == ["Ben"] and out["tables"] == []
    assert [(e["exercise"], e["first_tries"]) for e in out["exercises"]] == [("first_k", 1)]


def test_TEACHER_KEY_the_key_comes_from_the_environment_and_a_weak_one_stops_the_server(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, db_url: str) -> None:
    monkeypatch.setenv("RAILKIT_TEACHER_KEY", "short")
    with pytest.raises(RuntimeError, match="TEACHER-KEY"):
        ServerProcess(db_url).start()
    monkeypatch.setenv("RAILKIT_TEACHER_KEY", "a-good-long-teacher-key-42")
    server = ServerProcess(db_url).start()
    try:
        assert teacher(server, "learners", "a-good-long-teacher-key-42")[0] == 200
    finally:
        server.stop()
