"""The table server probed as a careless or hostile client would (issue 34), each probe a test with real parts: a name
typed in decomposed Unicode, a table whose stored log no longer replays, a connection that never reads, 64
spectators and then the seat's learner, the teacher's close between a socket's opening and its hello, ``?stalled=²``,
a flood of records under thousands of names, a creator who chooses the deal. Other clients are told apart by their
loopback address (127.0.0.2, ...), as the server tells them apart."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from tables_client import Client, ServerProcess, SilentReader, call, call_from
from test_tables_teacher import started, teacher
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from railkit.classroom.teacher import CLOSE_WORDS
from railkit.session import position_bots
from railkit.unionpacific.bots import HeuristicBot as UPBot
from railkit.unionpacific.game import UnionPacificGame
from railkit.wire import CLOSE_BEHIND, CLOSE_CLOSED, CLOSE_REPLACED

pytestmark = pytest.mark.server

Start = Callable[..., ServerProcess]
JOSE_NFD = "Jose\u0301"  # "José" typed with a combining acute accent
JOSE = unicodedata.normalize("NFC", JOSE_NFD)


def record(server: ServerProcess, learner: str, visit: str = "visit-0001", source: str | None = None) -> tuple[int, Any]:
    body = {"event": "opened", "learner": learner, "lesson": "kk_play", "visit": visit}
    url = f"http://127.0.0.1:{server.port}/api/records"
    return call("POST", url, body) if source is None else call_from(source, "POST", url, body)


def test_TABLES_NAME_a_name_in_decomposed_unicode_is_one_name_and_the_server_starts_again(
        start: Start, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch, "--actions-per-second", "1000")
    status, made = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Kim", "Seat 2", "Seat 3"],
                                              "take": "Kim"})
    assert status == 201 and made["chosen_deal"] is False
    code = made["table"]
    status, joined = call("POST", f"{server.http}/{code}/join", {"name": JOSE_NFD})
    assert status == 200 and joined["seat"] == JOSE  # stored in NFC, as the engine keeps it
    for typed in (JOSE, "JOSÉ", " jose\u0301 "):  # one name however it is typed
        status, refused = call("POST", f"{server.http}/{code}/join", {"name": typed})
        assert status == 409 and refused["error"] == "name_taken", refused
    # The teacher puts computer players in every learner's seat: the game runs on its own (the landed version's
    # computer players stopped at a KeyError here, and the server never started again).
    for seat in ("Kim", JOSE_NFD, "Seat 3"):
        assert teacher(server, f"tables/{code}/bot", key, {"seat": seat, "bot": True})[0] == 200
    shown = call("GET", f"{server.http}/{code}")[1]
    assert shown["is_over"] and shown["seats"] == {"Kim": "bot", JOSE: "bot", "Seat 3": "bot"}
    server.kill9()
    server.start()
    assert call("GET", f"{server.http}/{code}")[1]["seq"] == shown["seq"]  # replayed after the restart
    # Records: "José" typed two ways is one learner with one progress key.
    first = record(server, JOSE_NFD)[1]
    assert "learner_key" in first
    body = {"event": "answer", "learner": JOSE, "lesson": "kk_play", "visit": "visit-0002", "exercise": "first",
            "right": True}
    second = call("POST", f"http://127.0.0.1:{server.port}/api/records", body)[1]
    assert "learner_key" not in second  # the same learner: the key was given with the first record only
    status, mine = call("GET", f"http://127.0.0.1:{server.port}/api/records?learner=jos%C3%A9",
                        headers={"X-Railkit-Learner-Key": first["learner_key"]})
    assert status == 200 and mine["total"] == 2 and mine["learner"] == "josé"


def test_TABLES_REPLAY_a_table_whose_log_no_longer_replays_is_set_aside_and_the_others_are_served(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "tables.sqlite"
    monkeypatch.setenv("RAILKIT_TEACHER_KEY", "teacher-key-for-set-aside-tests")
    server = ServerProcess(f"sqlite:///{db}", ["--actions-per-second", "1000"]).start()
    try:
        codes = []
        for _ in range(3):
            made = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "bots": ["Ben"],
                                              "take": "Ann"})[1]
            client = Client(server, made["table"], made["token"])
            client.act(next(a for a in client.state["legal"] if a["type"] == "bid"))
            client.close()
            codes.append(made["table"])
        server.stop()
        with sqlite3.connect(db) as conn:  # one log broken, one table made under other rules
            (broken,) = conn.execute("SELECT id FROM rk_tables WHERE code = ?", (codes[0],)).fetchone()
            conn.execute("UPDATE rk_actions SET action = ? WHERE table_id = ? AND seq = 0",
                         (json.dumps({"type": "bid", "player": "Ann", "amount": 99999}), broken))
            conn.execute("UPDATE rk_tables SET rules_version = 99 WHERE code = ?", (codes[1],))
        server.start()  # it starts, and serves the table that replays
        status, report = teacher(server, "tables", "teacher-key-for-set-aside-tests")
        assert status == 200 and [t["table"] for t in report["tables"]] == [codes[2]]
        aside = {t["table"]: t for t in report["set_aside"]}
        assert set(aside) == {codes[0], codes[1]}
        assert "move 1 no longer replays" in aside[codes[0]]["reason"] and "KK-" in aside[codes[0]]["reason"]
        assert "version 99" in aside[codes[1]]["reason"]
        status, refused = call("POST", f"{server.http}/{codes[0]}/join", {"name": "Zoe"})
        assert status == 409 and refused["error"] == "set_aside" and refused["rule"] == "TABLES-REPLAY"
        assert Client(server, codes[2]).state["seq"] >= 1  # the others are served
        # The teacher can close a set-aside table: it goes, and its code says it was closed.
        status, _ = teacher(server, f"tables/{codes[0]}/close", "teacher-key-for-set-aside-tests",
                            {"confirm": CLOSE_WORDS})
        assert status == 200
        assert call("GET", f"{server.http}/{codes[0]}")[0] == 410
    finally:
        server.stop()


def up_moves(clients: dict[str, Client], game: UnionPacificGame, moves: int) -> None:
    """``moves`` moves of a Union Pacific game through the seats' clients (the heuristic player choosing), each
    seen by every seat before the next (a table that waited on a silent socket would time out here)."""
    policy = position_bots(UPBot)
    for _ in range(moves):
        actor = game.players_to_act()[0]
        action = policy(game, actor)
        clients[actor].send({"type": "act", "seq": len(game.log), "action": game.registry.to_dict(action)})
        game.apply(action)
        for client in clients.values():
            message = client.recv(timeout=10)
            assert message["type"] == "state" and message["seq"] == len(game.log), message


def test_TABLES_BEHIND_a_connection_that_never_reads_is_dropped_and_holds_up_no_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILKIT_TEACHER_KEY", "teacher-key-for-behind-tests")
    key = "teacher-key-for-behind-tests"
    server = ServerProcess(f"sqlite:///{tmp_path / 'behind.sqlite'}", ["--actions-per-second", "1000"]).start()
    try:
        made = call("POST", server.http, {"game": "union_pacific", "seats": ["Ann", "Ben"], "take": "Ann",
                                          "seed": 5})[1]
        code = made["table"]
        ben = call("POST", f"{server.http}/{code}/join", {"seat": "Ben"})[1]["token"]
        # A spectator that never reads, and asks for more all the while: 40,000 pings, each answered (a pong, then
        # "too fast") into a socket no one empties, far past what the system's buffers hold.
        silent = SilentReader(server, code)
        flood = threading.Thread(target=lambda: [silent.send({"type": "ping"}) for _ in range(40_000)])
        flood.start()
        clients = {"Ann": Client(server, code, made["token"]), "Ben": Client(server, code, ben)}
        game = UnionPacificGame(["Ann", "Ben"], seed=5)
        up_moves(clients, game, 40)  # the table's seats play on meanwhile, each move seen by both at once
        flood.join()
        # Every other table, and making tables, went on meanwhile; the teacher's close answers at once.
        other = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Kim", "Lou"], "bots": ["Lou"],
                                           "take": "Kim"})[1]
        kim = Client(server, other["table"], other["token"])
        assert kim.act(next(a for a in kim.state["legal"] if a["type"] == "bid"))["type"] == "state"
        messages, close = silent.frames()
        assert close == CLOSE_BEHIND, close
        assert messages[-1]["error"] == "behind" and messages[-1]["rule"] == "TABLES-BEHIND"
        silent.close()
        # A client told it fell behind connects again and takes the whole table.
        again = Client(server, code)
        assert again.state["seq"] == len(game.log) and len(again.state["log"]) == len(game.log)
        assert teacher(server, f"tables/{code}/close", key, {"confirm": CLOSE_WORDS})[0] == 200
        for client in (*clients.values(), again):
            told = client.recv(timeout=10)
            assert told["error"] == "closed"
            with pytest.raises(ConnectionClosed) as closed:
                client.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_CLOSED
        assert call("POST", server.http, {"game": "cape_to_cairo", "seats": ["A", "B"]})[0] == 201
        kim.close()
    finally:
        server.stop()


def test_TABLES_WATCHERS_spectators_have_their_own_caps_and_the_seats_learner_always_gets_in(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'watchers.sqlite'}").start()
    made = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "take": "Ann"})[1]
    code = made["table"]
    watching = contextlib.ExitStack()

    def watch(source: str) -> dict[str, Any]:
        socket = watching.enter_context(connect(f"{server.ws}/{code}/ws", open_timeout=10, source_address=(source, 0)))
        socket.send(json.dumps({"type": "hello"}))
        return json.loads(socket.recv(timeout=10))  # type: ignore[no-any-return]

    try:
        for _ in range(16):  # TABLES-WATCHERS: 16 from one client
            assert watch("127.0.0.1")["type"] == "state"
        refused = watch("127.0.0.1")
        assert refused["error"] == "limit" and refused["rule"] == "TABLES-WATCHERS" and "one place" in refused["message"]
        for source in ("127.0.0.2", "127.0.0.3"):  # others may still watch: 48 on the table
            for _ in range(16):
                assert watch(source)["type"] == "state"
        refused = watch("127.0.0.4")
        assert refused["error"] == "limit" and "learners at it always get in" in refused["message"]
        # 64 spectators' worth of connections tried, and the seat's learner gets in, also from a busy address,
        # again and again (a reload); beyond four pages of one seat the oldest gives way.
        seats = [Client(server, code, made["token"]) for _ in range(5)]
        assert all(c.state["seat"] == "Ann" for c in seats)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                seats[0].recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_REPLACED
        assert seats[0].raw["error"] == "replaced"
        moved = seats[-1].act(next(a for a in seats[-1].state["legal"] if a["type"] == "bid"))
        assert moved["type"] == "state" and moved["seq"] == 1
    finally:
        watching.close()
        server.stop()


def test_TEACHER_CLOSE_a_socket_opened_before_the_close_and_saying_hello_after_it_is_refused(
        start: Start, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    made = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "take": "Ann"})[1]
    code = made["table"]
    with connect(f"{server.ws}/{code}/ws", open_timeout=10) as late:
        time.sleep(0.2)  # negative wait: the socket open, the server waiting for its hello
        assert teacher(server, f"tables/{code}/close", key, {"confirm": CLOSE_WORDS})[0] == 200
        late.send(json.dumps({"type": "hello", "token": made["token"]}))
        told = json.loads(late.recv(timeout=10))
        assert told["error"] == "closed" and told["rule"] == "TEACHER-CLOSE"
        with pytest.raises(ConnectionClosed) as closed:
            late.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_CLOSED
    status, refused = call("POST", f"{server.http}/{code}/join", {"name": "Zoe"})
    assert status == 410 and refused["error"] == "closed"


def test_TEACHER_STALLED_only_whole_numbers_in_the_digits_0_to_9(start: Start, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    server, key = started(start, tmp_path, monkeypatch)
    for stalled in ("²", "٣٠٠", "-30", "1e3", "99999999999999999999", " 300", "３００", ""):
        for path in ("tables", "class"):
            status, refused = call("GET", f"http://127.0.0.1:{server.port}/api/teacher/{path}?stalled={quote(stalled)}",
                                   headers={"X-Railkit-Teacher-Key": key})
            assert status == 400 and refused["rule"] == "TEACHER-STALLED", (stalled, refused)
    status, report = call("GET", f"http://127.0.0.1:{server.port}/api/teacher/tables?stalled=60",
                          headers={"X-Railkit-Teacher-Key": key})
    assert status == 200 and report == {"tables": [], "set_aside": []}


def test_RECORDS_RATE_a_flood_under_thousands_of_names_from_one_client_crowds_out_no_other_learner(
        tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'flood.sqlite'}").start()
    assert record(server, "Ann", source="127.0.0.2")[0] == 201  # a learner known before the flood
    stop = threading.Event()
    answers: list[int] = []

    def flood() -> None:
        n = 0
        while not stop.is_set() and n < 3000:
            answers.append(record(server, f"Flood {n}", visit=f"flood-{n:05d}")[0])
            n += 1

    flooder = threading.Thread(target=flood)
    flooder.start()
    others: list[int] = []
    try:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # other learners, from other clients, record as usual meanwhile
            others.append(record(server, "Ann", visit=f"ann-{len(others):05d}", source="127.0.0.2")[0])
            others.append(record(server, f"Newcomer {len(others)}", visit=f"new-{len(others):05d}",
                                 source="127.0.0.3")[0])
            time.sleep(0.25)
    finally:
        stop.set()
        flooder.join()
    server.stop()
    assert set(others) == {201} and len(others) >= 10
    assert answers.count(201) <= 80 and answers.count(429) >= len(answers) - 80  # RECORDS-NAMES: the burst, then no


def test_TABLES_DEAL_a_creator_cannot_choose_the_deal_unless_the_server_allows_it_and_then_everyone_is_told(
        tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'deal.sqlite'}", chosen_deals=False).start()
    try:
        for body in ({"seed": 3}, {"options": {"stack": ["t1"]}}):
            status, refused = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], **body})
            assert status == 400 and refused["rule"] == "TABLES-DEAL", refused
        status, made = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "take": "Ann"})
        assert status == 201 and not made["chosen_deal"]
    finally:
        server.stop()
    server = ServerProcess(f"sqlite:///{tmp_path / 'chosen.sqlite'}").start()  # --chosen-deals (tests, demos)
    try:
        made = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "take": "Ann",
                                          "seed": 3})[1]
        assert made["chosen_deal"] and Client(server, made["table"]).state["chosen_deal"] is True
        assert call("GET", f"{server.http}/{made['table']}")[1]["chosen_deal"] is True
    finally:
        server.stop()


def race_join(barrier: threading.Barrier, results: list[tuple[int, dict[str, Any]]], url: str,
              body: dict[str, Any]) -> None:
    barrier.wait()  # both requests leave together
    results.append(call("POST", url, body))


def test_TABLES_SEAT_two_processes_on_postgresql_racing_for_one_seat_one_wins_every_time(postgres: Any) -> None:
    url = postgres.new_database()
    one = ServerProcess(url)
    two = ServerProcess(url)
    starting = [threading.Thread(target=s.start) for s in (one, two)]  # both migrate the new database at once
    for thread in starting:
        thread.start()
    for thread in starting:
        thread.join()
    try:
        assert one.proc is not None and two.proc is not None and one.port and two.port
        for round_ in range(12):
            made = call("POST", one.http, {"game": "cape_to_cairo", "seats": ["Ann", "Seat 2"], "take": "Ann"})[1]
            code = made["table"]
            call("GET", f"{two.http}/{code}")  # the second process knows the table (as after any first request)
            bodies = [{"seat": "Seat 2"}, {"seat": "Seat 2"}] if round_ % 2 else [{"name": "Zed"}, {"name": "Yan"}]
            barrier = threading.Barrier(2)
            results: list[tuple[int, dict[str, Any]]] = []
            racers = [threading.Thread(target=race_join, args=(barrier, results, f"{s.http}/{code}/join", b))
                      for s, b in zip((one, two), bodies, strict=True)]
            for thread in racers:
                thread.start()
            for thread in racers:
                thread.join()
            statuses = sorted(status for status, _ in results)
            assert statuses == [200, 409], results
            winner = next(answer for status, answer in results if status == 200)
            for server in (one, two):  # both processes agree on who holds it, and only the winner's token moves
                deadline = time.monotonic() + 10
                while call("GET", f"{server.http}/{code}")[1]["seats"].get(winner["seat"]) != "human":
                    assert time.monotonic() < deadline
                    time.sleep(0.05)
            ann = Client(two, code, made["token"])
            assert ann.state["seats"] == {"Ann": "human", winner["seat"]: "human"}
            ann.close()
    finally:
        one.stop()
        two.stop()
