"""The teacher's actions on a table, against a real table server: a computer player in a seat and closing the
table, with the teacher key only (a seat's or the creator's token is refused and nothing changes); the seats and
spectators are told the teacher closed the table; the tables report carries each game's timeline; no endpoint
lets anyone read a learner's records but the teacher."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from tables_client import Client, call
from test_tables_teacher import Start, base, started, teacher
from websockets.sync.client import connect

from railkit.classroom.teacher import CLOSE_WORDS


def new_table(start_base: str) -> dict[str, str]:
    status, made = call("POST", f"{start_base}/tables", {"game": "cape_to_cairo", "seats": ["Ann", "Ben"],
                                                         "take": "Ann", "seed": 3})
    assert status == 201
    return made


def test_TEACHER_a_computer_player_takes_a_seat_with_the_teacher_key_only(start: Start, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    made = new_table(base(server))
    code = made["table"]
    ann = Client(server, code, made["token"])
    assert ann.act({"type": "bid", "amount": 2})["type"] == "state"
    for word in (made["token"], made["creator_token"], key[:-1]):
        status, answer = teacher(server, f"tables/{code}/bot", word, {"seat": "Ben", "bot": True})
        assert status == 403 and answer["rule"] == "TEACHER-KEY"
    assert call("GET", f"{base(server)}/tables/{code}")[1]["seats"]["Ben"] == "open"  # nothing changed
    status, answer = teacher(server, f"tables/{code}/bot", key, {"seat": "Nobody", "bot": True})
    assert status == 409 and answer["rule"] == "TABLES-SEAT"
    status, answer = teacher(server, f"tables/{code}/bot", key, {"seat": "Ben", "bot": True})
    assert status == 200 and answer["seats"]["Ben"] == "bot"
    seen = ann.recv()
    assert seen["seats"]["Ben"] == "bot" and seen["seq"] >= 2  # the computer player bid at once (KK-A2)
    status, out = teacher(server, "tables", key)
    (table,) = out["tables"]
    assert [m for m, _at in table["timeline"]] == list(range(table["moves"] + 1))  # from its creation on
    ann.close()


def test_TEACHER_CLOSE_the_table_goes_and_its_seats_are_told(start: Start, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    made = new_table(base(server))
    code = made["table"]
    ann, watcher = Client(server, code, made["token"]), Client(server, code)
    for word in (made["token"], made["creator_token"]):
        status, _ = teacher(server, f"tables/{code}/close", word, {"confirm": CLOSE_WORDS})
        assert status == 403
    for wrong in ({}, {"confirm": True}, {"confirm": "yes"}):
        status, answer = teacher(server, f"tables/{code}/close", key, wrong)
        assert status == 400 and answer["rule"] == "TEACHER-CONFIRM"
    assert call("GET", f"{base(server)}/tables/{code}")[0] == 200  # still there
    status, answer = teacher(server, f"tables/{code}/close", key, {"confirm": CLOSE_WORDS})
    assert status == 200 and answer == {"closed": code}
    for client in (ann, watcher):
        told = client.recv()
        assert told["type"] == "error" and told["error"] == "closed" and "teacher closed" in told["message"]
        client.close()
    # the code says the teacher closed it (410), to a page, a joiner and the teacher alike, also after a restart
    for status, answer in (call("GET", f"{base(server)}/tables/{code}"),
                           call("POST", f"{base(server)}/tables/{code}/join", {"name": "Zoe"}),
                           teacher(server, f"tables/{code}/close", key, {"confirm": CLOSE_WORDS})):
        assert status == 410 and answer["error"] == "closed" and answer["rule"] == "TEACHER-CLOSE", answer
    server.stop()  # closed for good: a restart rebuilds nothing
    server.start()
    assert teacher(server, "tables", key)[1] == {"tables": [], "set_aside": []}
    with connect(f"{server.ws}/{code}/ws", open_timeout=10) as late:  # a page that comes back with its seat
        told = json.loads(late.recv(timeout=30))  # (told at once, before its hello)
    assert told["type"] == "error" and told["error"] == "closed" and told["rule"] == "TEACHER-CLOSE"
    status, answer = call("GET", f"{base(server)}/tables/ZZZ999")
    assert status == 404 and answer["error"] == "no_table"  # a code never used is not a closed one


def test_RECORDS_PRIVACY_no_learner_can_read_anothers_records(start: Start, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    server, _key = started(start, tmp_path, monkeypatch)
    body = {"event": "answer", "learner": "Kim", "lesson": "up_setup", "visit": "visit-0001", "exercise": "first_k",
            "right": True, "attempt": 1}
    assert call("POST", f"{base(server)}/records", body)[0] == 201
    # Reading needs the name's progress key (test_tables_progress): a name alone, or none, reads nothing.
    for query in ("", "?learner=Kim"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base(server)}/records{query}", timeout=30)
        assert refused.value.code in (400, 403) and b"first_k" not in refused.value.read()
    made = new_table(base(server))
    for path in ("learners?learner=Kim", "class", "records.csv"):
        assert teacher(server, path, made["token"])[0] == 403
