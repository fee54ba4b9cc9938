"""What a class meets on an ordinary day, against a real table server (SQLite and PostgreSQL): a name already taken
at a table is refused with the names in use and a free one (names compared NFC-normalised and case folded); the
teacher puts a computer player in a learner's seat at any time and the seat is told who did it, and again when it is
given back; a learner's page leaving and coming back is seen by the others (``away``); every learner seated at a
table is in the teacher's learners table, with or without records; one lesson page that loads itself twice is one
opening; a finished table's replay says which seats were learners'."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from tables_client import Client, call
from test_tables_teacher import Start, base, record, started, teacher

from railkit.tables.names import name_key, suggest_name

pytestmark = pytest.mark.server


def test_TABLES_NAME_names_compare_nfc_normalised_and_case_folded() -> None:
    composed, decomposed = "Zoë", unicodedata.normalize("NFD", "Zoë")
    assert composed != decomposed and name_key(composed) == name_key(decomposed) == name_key(" ZOË ")
    assert name_key("Straße") == name_key("STRASSE")
    assert suggest_name("Ann", ["Ann", "ann 2"]) == "Ann 3"
    assert len(suggest_name("x" * 30, ["x" * 30])) == 30  # still a name the engines take (MAX_NAME_LENGTH)


def test_TABLES_NAME_a_taken_name_is_refused_with_the_names_in_use_and_a_suggestion(start: Start) -> None:
    server = start()
    status, made = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Ann", "Player 2", "Player 3"],
                                              "take": "Ann", "seed": 3})
    assert status == 201
    code = made["table"]
    ann = Client(server, code, made["token"])
    typed_zoe = unicodedata.normalize("NFD", "Zoë")  # typed with a combining diaeresis
    status, joined = call("POST", f"{server.http}/{code}/join", {"name": typed_zoe})
    zoe = unicodedata.normalize("NFC", "Zoë")  # stored as the engines keep it (issue 34: NFC at every entry)
    assert status == 200 and joined["seat"] == zoe
    for typed in ("Ann", "ANN", " ann ", "ZOË", "zoë"):
        status, refused = call("POST", f"{server.http}/{code}/join", {"name": typed})
        assert status == 409 and refused["error"] == "name_taken" and refused["rule"] == "TABLES-NAME", refused
        assert refused["names"] == ["Ann", zoe] and refused["name"] == typed.strip()
        assert name_key(refused["suggestion"]) not in {name_key(n) for n in ("Ann", zoe, "Player 3")}
        assert refused["suggestion"].split()[-1] == "2" and "names in use: Ann, Zo" in refused["message"]
    status, refused = call("POST", f"{server.http}/{code}/join", {"seat": "Player 3", "name": "ann"})
    assert status == 409 and refused["error"] == "name_taken"  # a seat given, with another seat's name
    assert call("GET", f"{server.http}/{code}")[1]["seats"] == {"Ann": "human", zoe: "human", "Player 3": "open"}
    status, joined = call("POST", f"{server.http}/{code}/join", {"name": "player 3"})
    assert status == 200 and joined["seat"] == "Player 3"  # the open seat of that name, as it is spelled
    states = [m for m in ann.drain(0.5) if m["type"] == "state"]
    assert len(states) == 2  # one for each seat taken; a refused join changed nothing and told no one
    status, refused = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Ann", "ANN"]})
    assert status == 400 and refused["rule"] == "TABLES-NAME"
    ann.close()


def test_TABLES_STAND_IN_the_teacher_seats_a_computer_player_at_any_time_and_the_learner_is_told(
        start: Start, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    status, made = call("POST", f"{base(server)}/tables", {"game": "cape_to_cairo", "seats": ["Ann", "Ben"],
                                                           "take": "Ann", "seed": 3, "options": {"win_crossings": 3}})
    code = made["table"]
    ben_token = call("POST", f"{base(server)}/tables/{code}/join", {"name": "Ben"})[1]["token"]
    ann, ben = Client(server, code, made["token"]), Client(server, code, ben_token)
    assert ann.state["away"] == ["Ben"] and ben.state["away"] == []  # Ann's state came before Ben's page
    ben.close()
    assert ann.recv()["away"] == ["Ben"]  # Ben's page went: Ann's lobby hears it
    ben = Client(server, code, ben_token)
    assert ann.recv()["away"] == [] and ben.state["away"] == []  # and came back
    status, refused = call("POST", f"{base(server)}/tables/{code}/bot", {"creator_token": made["creator_token"],
                                                                          "seat": "Ben", "bot": True})
    assert status == 409 and refused["error"] == "seat_connected" and refused["seat"] == "Ben"  # the creator: not yet
    # the teacher may at once, even with Ann at the table: she is told the teacher did it
    status, summary = teacher(server, f"tables/{code}/bot", key, {"seat": "ann", "bot": True})
    assert status == 200 and summary["seats"]["Ann"] == "bot" and summary["stand_ins"] == {"Ann": "teacher"}
    seen = ann.recv()
    assert seen["seats"]["Ann"] == "bot" and seen["stand_ins"] == {"Ann": "teacher"}
    status, out = teacher(server, "tables", key)
    assert [(s["seat"], s["stand_in"]) for s in out["tables"][0]["seats"]] == [("Ann", True), ("Ben", False)]
    status, summary = teacher(server, f"tables/{code}/bot", key, {"seat": "Ann", "bot": False})
    assert status == 200 and summary["seats"]["Ann"] == "human" and summary["stand_ins"] == {}
    while True:  # given back: Ann's page hears it with the next state
        seen = ann.recv()
        if seen["type"] == "state" and seen["seats"]["Ann"] == "human":
            break
    assert seen["stand_ins"] == {}
    # both seats to computer players: the game runs to its end; its replay names Ann and Ben learners' seats
    for seat in ("Ann", "Ben"):
        assert teacher(server, f"tables/{code}/bot", key, {"seat": seat, "bot": True})[0] == 200
    watcher = Client(server, code)
    assert watcher.state["is_over"] and watcher.state["replay"]["learners"] == ["Ann", "Ben"]
    for client in (ann, ben, watcher):
        client.close()


def test_TEACHER_every_learner_seated_at_a_table_is_in_the_learners_table(start: Start, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    made = call("POST", f"{base(server)}/tables", {"game": "cape_to_cairo", "seats": ["Ann", "Player 2", "Bot"],
                                                   "bots": ["Bot"], "take": "Ann", "seed": 3})[1]
    code = made["table"]
    assert call("POST", f"{base(server)}/tables/{code}/join", {"name": "Lee"})[0] == 200  # no name typed anywhere
    assert record(server, learner="ANN")[0] == 201  # Ann's answers, under her name as the index page had it
    assert record(server, learner="Kim")[0] == 201
    rows = {r["learner"]: r for r in teacher(server, "learners", key)[1]["learners"]}
    assert set(rows) == {"ANN", "Kim", "Lee"}  # one row per learner: Ann's seat and records are one
    assert rows["ANN"]["tables"] == [code] and rows["ANN"]["answers"] == 1
    assert rows["Lee"]["tables"] == [code] and rows["Lee"]["answers"] == 0 and rows["Lee"]["started"] == []
    assert rows["Kim"]["tables"] == []
    only = teacher(server, "class?learner=Lee", key)[1]["learners"]
    assert [r["learner"] for r in only] == ["Lee"]
    assert [r["learner"] for r in teacher(server, "learners?lesson=up_setup", key)[1]["learners"]] == ["ANN", "Kim"]


def test_RECORDS_a_lesson_page_that_loads_itself_again_is_one_opening(start: Start, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    # the page opened, then loaded again at once (to take the language or the progress key into its address): two
    # kernels, two visits, one opening
    for visit in ("visit-first-1", "visit-again-2"):
        assert record(server, event="opened", lesson="up_dividends", visit=visit)[0] == 201
    assert record(server, event="opened", lesson="up_setup", visit="visit-other-3")[0] == 201
    assert record(server, event="opened", learner="Ann", lesson="up_dividends", visit="visit-ann-4")[0] == 201
    status, mine = call("GET", f"{base(server)}/records?learner=Kim", headers={"X-Railkit-Teacher-Key": key})
    assert status == 200
    assert sorted(r["lesson"] for r in mine["records"] if r["event"] == "opened") == ["up_dividends", "up_setup"]
