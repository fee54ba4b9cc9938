"""Two table server processes on one PostgreSQL database serve the same tables: each
hears the other's moves through PostgreSQL's LISTEN/NOTIFY, and the database refuses a second move
made at the same position, whichever process took it."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tables_client import Client, Postgres, ServerProcess, call
from test_tables_teacher import teacher

from railkit.classroom.teacher import CLOSE_WORDS

pytestmark = pytest.mark.server


@pytest.fixture
def two_servers(postgres: Postgres) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    url = postgres.new_database()
    first = ServerProcess(url).start()
    second = ServerProcess(url).start()
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


def test_TABLES_two_processes_serve_one_table_through_listen_notify(two_servers: tuple[ServerProcess, ServerProcess]) \
        -> None:
    one, two = two_servers
    status, made = call("POST", one.http, {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "seed": 3, "take": "Ann"})
    assert status == 201
    code = made["table"]
    status, joined = call("POST", f"{two.http}/{code}/join", {"seat": "Ben"})  # the other process finds the table
    assert status == 200
    deadline = time.monotonic() + 10  # the first process hears of it through PostgreSQL's NOTIFY
    while call("GET", f"{one.http}/{code}")[1]["seats"]["Ben"] != "human":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    ann, ben = Client(one, code, made["token"]), Client(two, code, joined["token"])
    watcher = Client(two, code)
    ann.act({"type": "bid", "amount": 5})
    seen = ben.recv()  # served by the other process
    assert seen["seq"] == 1 and seen["log"] == [{"type": "bid", "player": "Ann", "sealed": ["amount"]}]
    assert watcher.recv()["seq"] == 1
    after = ben.act({"type": "bid", "amount": 8})
    assert after["seq"] == 2 and after["log"][0]["amount"] == 5
    assert ann.recv()["log"] == after["log"]
    chooser = after["view"]["to_act"][0]
    assert chooser == "Ben"
    assert ann.act({"type": "choose", "card_id": after["view"]["offer"][0]["id"]})["rule"] is not None


def test_TABLES_SEQ_two_processes_never_both_store_a_move_at_one_position(
        two_servers: tuple[ServerProcess, ServerProcess]) -> None:
    one, two = two_servers
    status, made = call("POST", one.http, {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "seed": 4, "take": "Ann"})
    code = made["table"]
    joined = call("POST", f"{two.http}/{code}/join", {"seat": "Ben"})[1]
    ann, ben = Client(one, code, made["token"]), Client(two, code, joined["token"])
    barrier = threading.Barrier(2)

    def send(client: Client, amount: int) -> None:
        barrier.wait()
        client.send({"type": "act", "seq": 0, "action": {"type": "bid", "amount": amount}})

    threads = [threading.Thread(target=send, args=(c, a)) for c, a in ((ann, 1), (ben, 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    messages = ann.drain() + ben.drain()
    stored = {call("GET", f"{server.http}/{code}")[1]["seq"] for server in (one, two)}
    assert stored == {1}, messages  # both processes agree: one move stored
    assert any(m.get("error") == "stale" for m in messages)



def test_TEACHER_CLOSE_a_table_closed_through_one_process_is_closed_on_the_other(
        postgres: Postgres, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAILKIT_TEACHER_KEY", raising=False)
    url, key_file = postgres.new_database(), tmp_path / "teacher.key"
    one = ServerProcess(url, ["--teacher-key-file", str(key_file)]).start()
    two = ServerProcess(url, ["--teacher-key-file", str(key_file)]).start()
    try:
        made = call("POST", one.http, {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "seed": 3, "take": "Ann"})[1]
        code = made["table"]
        ann, watcher = Client(two, code, made["token"]), Client(two, code)  # both served by the other process
        status, _ = teacher(one, f"tables/{code}/close", key_file.read_text().strip(), {"confirm": CLOSE_WORDS})
        assert status == 200
        for client in (ann, watcher):
            told = client.recv()
            assert told["type"] == "error" and told["error"] == "closed"
            client.close()
        assert call("GET", f"{two.http}/{code}")[0] == 410  # the closed code is kept in the shared database
    finally:
        one.stop()
        two.stop()
