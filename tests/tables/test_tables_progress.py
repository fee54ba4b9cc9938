"""A learner reads their own records and no one else's (RECORDS-KEY, ``GET /api/records``), against a real table
server process on SQLite and on PostgreSQL; on the hub (a stand-in hub API, as test_tables_hub_auth) the hub user
is the identity. The teacher key still reads any learner's; a seat or creator token, another learner's key, a
guessed name or a hostile query gets 403 (or 400) and no record."""

from __future__ import annotations

import sqlite3
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tables_client import ServerProcess, call
from test_tables_hub_auth import auth, hub_api, hub_server  # noqa: F401 - fixtures
from test_tables_teacher import record, started

from railkit.classroom.progress import LEARNER_KEY_HEADER, MAX_SHOWN
from railkit.classroom.records import Record, RecordLimits, Records
from railkit.classroom.teacher import FORGET_WORDS, KEY_HEADER
from railkit.tables.store import Store

pytestmark = pytest.mark.server

Start = Callable[..., ServerProcess]


def mine(server: ServerProcess, learner: str | None, headers: dict[str, str] | None = None,
         query: str | None = None) -> tuple[int, dict[str, Any]]:
    q = query if query is not None else ("" if learner is None else "?" + urllib.parse.urlencode({"learner": learner}))
    return call("GET", f"http://127.0.0.1:{server.port}/api/records{q}", headers=headers)


def key_of(answer: dict[str, Any]) -> str:
    key = answer.get("learner_key")
    assert isinstance(key, str) and len(key) >= 16, answer
    return key


def refused(status: int, answer: dict[str, Any], rule: str = "RECORDS-KEY") -> None:
    assert (status, answer.get("rule")) == (403 if rule == "RECORDS-KEY" else 400, rule), answer
    assert "records" not in answer and "summary" not in answer, answer
    assert answer["message"], answer  # says what to do


def test_RECORDS_KEY_each_learner_reads_only_their_own_records(start: Start, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    server, teacher_key = started(start, tmp_path, monkeypatch)
    status, first = record(server, learner="Kim", event="opened")
    assert status == 201
    kim = key_of(first)
    # The key comes once: later records under the name (from any page) do not hand it out again.
    status, again = record(server, learner="Kim", exercise="bottom", right=False, rules=["UP-S7"])
    assert status == 201 and "learner_key" not in again
    assert record(server, learner="Kim", exercise="bottom", right=True, attempt=2, rules=["UP-S7"])[0] == 201
    assert record(server, learner="Kim", exercise="first_k", right=True, rules=["UP-V1"])[0] == 201
    assert record(server, learner="Kim", event="finished")[0] == 201
    ann = key_of(record(server, learner="Ann", lesson="kk_auction", exercise="order", right=False,
                        rules=["KK-A5"])[1])
    assert ann != kim

    status, out = mine(server, "Kim", {LEARNER_KEY_HEADER: kim})
    assert status == 200 and out["learner"] == "Kim" and out["total"] == 5
    assert {r["lesson"] for r in out["records"]} == {"up_setup"}  # none of Ann's
    assert [r["event"] for r in out["records"]] == ["finished", "answer", "answer", "answer", "opened"]  # newest first
    assert out["summary"] == {"opened": ["up_setup"], "finished": ["up_setup"], "answers": 3, "first_tries": 2,
                              "first_try_right": 1, "wrong_rules": [["UP-S7", 1]]}
    status, out = mine(server, "  Ann ", {LEARNER_KEY_HEADER: ann})  # the name tidied as the records were
    assert status == 200 and [r["exercise"] for r in out["records"]] == ["order"]
    assert out["summary"]["wrong_rules"] == [["KK-A5", 1]] and out["summary"]["first_try_right"] == 0

    # Ann types Kim's name: her own key, no key, a made-up one: 403 and nothing of Kim's.
    for headers in ({LEARNER_KEY_HEADER: ann}, {}, {LEARNER_KEY_HEADER: "x" * 32}, {LEARNER_KEY_HEADER: "k" * 5000}):
        refused(*mine(server, "Kim", headers))
    # A name nobody recorded under has no key: the same refusal (no telling which names exist).
    refused(*mine(server, "Nobody", {LEARNER_KEY_HEADER: kim}))
    # The teacher key reads any learner's (header or Bearer); a learner's key is no teacher key.
    assert mine(server, "Kim", {KEY_HEADER: teacher_key})[1]["total"] == 5
    assert mine(server, "Ann", {"Authorization": f"Bearer {teacher_key}"})[1]["total"] == 1
    status, answer = call("GET", f"http://127.0.0.1:{server.port}/api/teacher/learners", headers={KEY_HEADER: kim})
    assert (status, answer["rule"]) == (403, "TEACHER-KEY")


def test_RECORDS_KEY_a_seat_or_creator_token_opens_no_records(start: Start, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    server, _teacher_key = started(start, tmp_path, monkeypatch)
    key_of(record(server, learner="Kim", event="opened")[1])
    status, made = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Kim", "Player 2"], "take": "Kim"})
    assert status == 201
    for token in (made["token"], made["creator_token"]):
        for headers in ({LEARNER_KEY_HEADER: token}, {KEY_HEADER: token}, {"Authorization": f"Bearer {token}"}):
            refused(*mine(server, "Kim", headers))


@pytest.mark.parametrize(("query", "rule"), [
    ("", "RECORDS-NAME"),  # no learner named
    ("?learner=", "RECORDS-NAME"),
    ("?learner=" + "x" * 31, "RECORDS-NAME"),
    ("?learner=Kim%0ALee", "RECORDS-NAME"),
    ("?learner=" + "y" * 5000, "RECORDS-NAME"),
    ("?learner=Kim", "RECORDS-KEY"),  # no key
])
def test_RECORDS_KEY_hostile_queries_are_refused_with_what_to_do(start: Start, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch, query: str,
                                                                 rule: str) -> None:
    server, _teacher_key = started(start, tmp_path, monkeypatch)
    key_of(record(server, learner="Kim", event="opened")[1])
    refused(*mine(server, None, query=query), rule=rule)


def test_RECORDS_KEY_the_newest_records_come_back_bounded_and_forget_takes_the_keys(
        start: Start, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, db_url: str) -> None:
    server, teacher_key = started(start, tmp_path, monkeypatch)
    kim = key_of(record(server, learner="Kim", event="opened")[1])
    # More answers than the server sends back, written straight into the same database (the server's rate limit
    # of RECORDS-RATE would make this slow over HTTP).
    store = Store(db_url)
    beside = Records(store.engine, RecordLimits(per_learner_per_second=1e9, per_client_per_second=1e9))
    for i in range(MAX_SHOWN + 5):
        beside.add(Record("Kim", "up_setup", "answer", "visit-0002", f"q{i}", True, 1, 0, 0, 3))
    store.close()
    status, out = mine(server, "Kim", {LEARNER_KEY_HEADER: kim})
    assert status == 200 and out["total"] == MAX_SHOWN + 6 and len(out["records"]) == MAX_SHOWN
    assert out["records"][0]["exercise"] == f"q{MAX_SHOWN + 4}" and out["summary"]["answers"] == MAX_SHOWN + 5
    if db_url.startswith("sqlite"):  # only a digest of the key is stored
        path = db_url.removeprefix("sqlite:///")
        with sqlite3.connect(path) as conn:
            (stored,) = conn.execute("SELECT key_hash FROM rk_progress_keys WHERE learner = 'Kim'").fetchone()
        assert stored != kim and len(stored) == 64 and kim not in Path(path).read_bytes().decode("latin-1")
    # Forget the class: records and keys go; the old key opens nothing; the next record makes a new key.
    status, _ = call("POST", f"http://127.0.0.1:{server.port}/api/teacher/forget", {"confirm": FORGET_WORDS},
                     headers={KEY_HEADER: teacher_key})
    assert status == 200
    refused(*mine(server, "Kim", {LEARNER_KEY_HEADER: kim}))
    fresh = key_of(record(server, learner="Kim", event="opened")[1])
    assert fresh != kim and mine(server, "Kim", {LEARNER_KEY_HEADER: fresh})[1]["total"] == 1


def test_RECORDS_KEY_on_the_hub_the_hub_user_reads_their_own_and_no_key_is_given(
        hub_server: ServerProcess) -> None:  # noqa: F811
    body = {"event": "answer", "learner": "Typed Name", "lesson": "up_setup", "visit": "visit-0001",
            "exercise": "first_k", "right": False, "rules": ["UP-S7"]}
    status, answer = call("POST", f"http://127.0.0.1:{hub_server.port}/api/records", body, headers=auth("ada-token"))
    assert status == 201 and "learner_key" not in answer  # the hub says who this is: no key needed
    assert call("POST", f"http://127.0.0.1:{hub_server.port}/api/records", {**body, "right": True},
                headers=auth("bo-token"))[0] == 201
    status, out = mine(hub_server, None, auth("ada-token"))
    assert status == 200 and out["learner"] == "ada" and out["total"] == 1
    assert out["summary"]["wrong_rules"] == [["UP-S7", 1]]
    assert mine(hub_server, "ada", auth("ada-token"))[1]["learner"] == "ada"
    # ada asks for bo's by name: refused; a hub teacher may; no hub token: the hub's refusal.
    refused(*mine(hub_server, "bo", auth("ada-token")))
    status, out = mine(hub_server, "bo", auth("teacher-token"))
    assert status == 200 and out["learner"] == "bo" and out["total"] == 1
    status, answer = mine(hub_server, "bo", {})
    assert (status, answer["rule"]) == (403, "TABLES-HUB") and "records" not in answer
