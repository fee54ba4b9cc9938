"""The table server with real parts: uvicorn in its own process, real WebSocket clients, and the
database both as a SQLite file and as a PostgreSQL cluster started from Debian's packages."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable

import pytest
from tables_client import Client, ServerProcess, call
from websockets.sync.client import connect

from railkit.tables.store import Store
from railkit.wire import CODE_ALPHABET, CODE_LENGTH, MAX_MESSAGE_BYTES

pytestmark = pytest.mark.server

Start = Callable[..., ServerProcess]


def kk_table(server: ServerProcess, seats: tuple[str, ...] = ("Ann", "Ben"), bots: tuple[str, ...] = (),
             seed: int = 1) -> dict[str, str]:
    """A Vom Kap bis Kairo table; the creator sits as Ann, Ben joins; tokens by seat plus code and creator."""
    status, made = call("POST", server.http, {"game": "cape_to_cairo", "seats": list(seats), "bots": list(bots),
                                              "seed": seed, "take": "Ann"})
    assert status == 201, made
    out = {"code": made["table"], "creator": made["creator_token"], "Ann": made["token"]}
    if "Ben" not in bots:
        status, joined = call("POST", f"{server.http}/{out['code']}/join", {"seat": "Ben"})
        assert status == 200, joined
        out["Ben"] = joined["token"]
    return out


def test_TABLES_create_join_act_everyone_sees_the_move_and_a_sealed_bid_stays_sealed(start: Start) -> None:
    server = start()
    t = kk_table(server)
    assert len(t["code"]) == CODE_LENGTH and set(t["code"]) <= set(CODE_ALPHABET)
    ann, ben, watcher = Client(server, t["code"], t["Ann"]), Client(server, t["code"], t["Ben"]), Client(server, t["code"])
    assert (ann.state["seat"], ben.state["seat"], watcher.state["seat"]) == ("Ann", "Ben", None)
    assert ann.state["seq"] == 0 and ann.state["view"]["phase"] == "bid"
    answer = ann.act({"type": "bid", "amount": 7})  # "player" is filled in from the seat
    assert answer["type"] == "state" and answer["seq"] == 1
    assert answer["log"] == [{"type": "bid", "player": "Ann", "amount": 7}]
    assert answer["view"]["your_bid"] == 7
    for other in (ben, watcher):  # KK-A2: the others learn that Ann bid, never how much
        seen = other.recv()
        assert seen["log"] == [{"type": "bid", "player": "Ann", "sealed": ["amount"]}]
        assert "7" not in str(seen["view"].get("your_bid")) and seen["view"]["bids_handed_in"] == ["Ann"]
    ben.act({"type": "bid", "amount": 3})
    for client in (ann, watcher):
        seen = client.recv()
        assert seen["log"] == [{"type": "bid", "player": "Ann", "amount": 7}, {"type": "bid", "player": "Ben", "amount": 3}]
    status, summary = call("GET", f"{server.http}/{t['code'].lower()}")
    assert status == 200 and summary["seq"] == 2 and summary["seats"] == {"Ann": "human", "Ben": "human"}
    for client in (ann, ben, watcher):
        client.close()


def test_TABLES_SEQ_a_move_from_an_out_of_date_position_is_refused(start: Start) -> None:
    server = start()
    t = kk_table(server)
    ann = Client(server, t["code"], t["Ann"])
    answer = ann.act({"type": "bid", "amount": 5}, seq=3)
    assert answer["type"] == "error" and answer["error"] == "stale" and answer["rule"] == "TABLES-SEQ"
    assert answer["seq"] == 0
    assert call("GET", f"{server.http}/{t['code']}")[1]["seq"] == 0


def test_TABLES_SEQ_two_moves_at_the_same_moment_never_both_apply(start: Start) -> None:
    server = start()
    t = kk_table(server)
    ann, ben = Client(server, t["code"], t["Ann"]), Client(server, t["code"], t["Ben"])
    barrier = threading.Barrier(2)

    def send(client: Client, amount: int) -> None:
        barrier.wait()
        client.send({"type": "act", "seq": 0, "action": {"type": "bid", "amount": amount}})

    threads = [threading.Thread(target=send, args=(c, a)) for c, a in ((ann, 1), (ben, 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    kinds = sorted(m["type"] if m["type"] == "state" else m["error"] for c in (ann, ben) for m in c.drain())
    # one move applied (both see its state); the other was made from position 0, which no longer exists
    assert kinds == ["stale", "state", "state"]
    assert call("GET", f"{server.http}/{t['code']}")[1]["seq"] == 1


def test_TABLES_SEAT_no_one_acts_for_a_seat_they_do_not_hold(start: Start) -> None:
    server = start()
    t = kk_table(server)
    ann, watcher = Client(server, t["code"], t["Ann"]), Client(server, t["code"])
    answer = ann.act({"type": "bid", "player": "Ben", "amount": 1})
    assert answer["error"] == "not_your_seat" and answer["rule"] == "TABLES-SEAT"
    answer = watcher.act({"type": "bid", "player": "Ben", "amount": 1})
    assert answer["error"] == "not_your_seat"
    with connect(f"{server.ws}/{t['code']}/ws") as bad:
        bad.send(json.dumps({"type": "hello", "token": "guessed-token"}))
        assert json.loads(bad.recv(timeout=30))["rule"] == "TABLES-TOKEN"
    status, taken = call("POST", f"{server.http}/{t['code']}/join", {"seat": "Ann"})
    assert status == 409 and taken["error"] == "seat_taken"
    status, full = call("POST", f"{server.http}/{t['code']}/join", {})
    assert status == 409 and full["error"] == "no_seat"
    assert call("GET", f"{server.http}/{t['code']}")[1]["seq"] == 0


def test_TABLES_a_broken_move_gets_the_rule_and_changes_nothing(start: Start) -> None:
    server = start()
    t = kk_table(server)
    ann = Client(server, t["code"], t["Ann"])
    answer = ann.act({"type": "bid", "amount": 1000})
    assert answer["error"] == "rule" and answer["rule"] == "KK-A2" and "cannot bid 1000" in answer["message"]
    answer = ann.act({"type": "fly", "to": "Cairo"})
    assert answer["error"] == "bad_move" and "not a kind of move" in answer["message"]
    answer = ann.act({"type": "choose", "card_id": "R09"})
    assert answer["error"] == "rule" and answer["rule"].startswith("KK-")
    for text in ("not json", "[1, 2]", '{"type": "dance"}', '{"type": "act", "seq": "0", "action": {}}'):
        ann.send(text)
        assert ann.recv()["rule"] in {"TABLES-JSON", "TABLES-SEQ"}
    ann.send("x" * (MAX_MESSAGE_BYTES + 10))
    answer = ann.recv()
    assert answer["error"] == "too_big" and answer["rule"] == "TABLES-SIZE"
    assert ann.act({"type": "bid", "amount": 2})["seq"] == 1  # the connection still works


def test_TABLES_reconnect_with_the_seat_token_after_a_reload(start: Start) -> None:
    server = start()
    t = kk_table(server)
    ann = Client(server, t["code"], t["Ann"])
    ann.act({"type": "bid", "amount": 4})
    ann.close()
    again = Client(server, t["code"], t["Ann"])  # a reload, or another device
    assert again.state["seat"] == "Ann" and again.state["seq"] == 1 and again.state["view"]["your_bid"] == 4
    ben = Client(server, t["code"], t["Ben"])
    assert ben.act({"type": "bid", "amount": 9})["seq"] == 2
    assert again.recv()["seq"] == 2


def test_TABLES_kill_9_and_restart_rebuild_every_table_from_the_database_and_count_each_seats_moves(
        start: Start) -> None:
    server = start()
    t = kk_table(server)
    up_status, up = call("POST", server.http, {"game": "union_pacific", "seats": ["Ann", "Ben", "Cy"],
                                               "bots": ["Ben", "Cy"], "seed": 5, "take": "Ann"})
    assert up_status == 201
    ann, ben = Client(server, t["code"], t["Ann"]), Client(server, t["code"], t["Ben"])
    ann.act({"type": "bid", "amount": 6})
    ben.recv()
    ben.act({"type": "bid", "amount": 2})
    before = ann.recv()
    up_ann = Client(server, up["table"], up["token"])
    card = up_ann.state["view"]["legal_actions"][0]
    up_before = up_ann.act(card)  # the bots chose theirs at once; Ann's completes UP-S5
    assert up_before["seq"] == 3 and up_before["view"]["display"] is not None
    server.kill9()
    again = start()
    assert again.db == server.db
    for code, seq in ((t["code"], 2), (up["table"], up_before["seq"])):
        status, summary = call("GET", f"{again.http}/{code}")
        assert status == 200 and summary["seq"] == seq
    ann2 = Client(again, t["code"], t["Ann"])
    assert ann2.state["view"] == before["view"] and ann2.state["log"] == before["log"]
    chooser = before["view"]["to_act"][0]
    mover = ann2 if chooser == "Ann" else Client(again, t["code"], t["Ben"])
    card_id = before["view"]["offer"][0]["id"]
    assert mover.act({"type": "choose", "card_id": card_id})["seq"] == 3
    up_ann2 = Client(again, up["table"], up["token"])
    assert up_ann2.state["view"] == up_before["view"]
    # each seat's moves as the database holds them (what tools/class_day.py counts), the computer players' included
    store = Store(again.db)
    try:
        assert store.moves_by_seat(t["code"]) == {"Ann": 1 + (chooser == "Ann"), "Ben": 1 + (chooser == "Ben")}
        assert store.moves_by_seat(up["table"]) == {"Ann": 1, "Ben": 1, "Cy": 1}  # each its first share (UP-S5)
        assert store.moves_by_seat("ZZZZZZ") == {}
    finally:
        store.close()


def test_TABLES_CREATOR_a_bot_takes_a_learners_seat_and_gives_it_back(start: Start) -> None:
    server = start("--stand-in-after", "1")
    t = kk_table(server)
    ann, ben = Client(server, t["code"], t["Ann"]), Client(server, t["code"], t["Ben"])
    ann.act({"type": "bid", "amount": 3})
    ben.recv()
    status, refused = call("POST", f"{server.http}/{t['code']}/bot", {"creator_token": t["Ben"], "seat": "Ben",
                                                                       "bot": True})
    assert status == 403 and refused["rule"] == "TABLES-CREATOR"
    bot_in = {"creator_token": t["creator"], "seat": "Ben", "bot": True}
    status, refused = call("POST", f"{server.http}/{t['code']}/bot", bot_in)  # Ben is at the table
    assert status == 409 and refused["rule"] == "TABLES-STAND-IN" and refused["seconds"] == 1, refused
    ben.close()  # Ben leaves: Ann's page hears it
    assert ann.recv()["away"] == ["Ben"]
    status, refused = call("POST", f"{server.http}/{t['code']}/bot", bot_in)
    assert status == 409 and refused["rule"] == "TABLES-STAND-IN"  # not away long enough yet
    if server.db.startswith("postgresql"):  # several processes may serve it: a learner's seat is the teacher's call
        assert "several server processes" in refused["message"] and refused["teacher_only"] is True, refused
        return
    assert "wait" in refused
    deadline = time.monotonic() + 30  # Ben away 1 s (--stand-in-after): the creator's computer player may sit in
    while (answer := call("POST", f"{server.http}/{t['code']}/bot", bot_in))[0] == 409 and time.monotonic() < deadline:
        assert answer[1]["rule"] == "TABLES-STAND-IN"
        time.sleep(0.1)
    status, summary = answer
    assert status == 200 and summary["seats"]["Ben"] == "bot" and summary["seq"] >= 2  # the bot bid at once
    assert summary["stand_ins"] == {"Ben": "creator"}
    ben = Client(server, t["code"], t["Ben"])  # Ben comes back to a seat a computer player holds
    seen = ben.state
    assert seen["seats"]["Ben"] == "bot" and seen["stand_ins"] == {"Ben": "creator"}
    if "Ben" in seen["view"]["to_act"]:
        answer = ben.act({"type": "pass"})
        assert answer["error"] == "not_your_seat"
    status, summary = call("POST", f"{server.http}/{t['code']}/bot", {"creator_token": t["creator"], "seat": "Ben",
                                                                       "bot": False})
    assert status == 200 and summary["seats"]["Ben"] == "human"
    back = Client(server, t["code"], t["Ben"])  # the same token holds the seat again
    assert back.state["seat"] == "Ben" and back.state["seats"]["Ben"] == "human"


def test_TABLES_limits_tables_per_server_rate_and_seats(start: Start) -> None:
    server = start("--max-tables", "1", "--actions-per-second", "2")
    t = kk_table(server)
    status, refused = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["A", "B"]})
    assert status == 429 and refused["rule"] == "TABLES-COUNT"
    status, refused = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["A", "B", "C", "D", "E"]})
    assert status in (400, 429)
    ann = Client(server, t["code"], t["Ann"])
    for _ in range(12):
        ann.send({"type": "ping"})
    answers = []  # a flood is not answered message for message: the first beyond the rate is refused, the rest dropped
    with contextlib.suppress(TimeoutError):
        while True:
            answers.append(ann.recv(timeout=3))
    refusals = [a for a in answers if a.get("rule") == "TABLES-RATE"]
    assert len(refusals) == 1 and "messages a second" in refusals[0]["message"]
    assert 1 <= len([a for a in answers if a["type"] == "pong"]) <= 6  # the burst the rate allows, not all 12
    time.sleep(1.1)  # negative wait: a second for the rate to allow messages again
    ann.send({"type": "ping"})  # after a pause the connection is answered again
    assert ann.recv()["type"] == "pong"
    status, refused = call("POST", server.http, raw=b"{" + b" " * (MAX_MESSAGE_BYTES + 1) + b"}")
    assert status == 413 and refused["rule"] == "TABLES-SIZE"


def test_TABLES_RATE_a_connection_that_floods_on_is_closed_and_the_table_plays_on(start: Start) -> None:
    """Far more messages in a row than a page sends (``FLOOD_CLOSE``): the connection is closed as refused; the other
    seat, and the flooder connecting again, play on."""
    from websockets.exceptions import ConnectionClosed

    from railkit.tables.sockets import FLOOD_CLOSE
    from railkit.wire import CLOSE_REFUSED

    server = start("--actions-per-second", "2")
    t = kk_table(server)
    ann, ben = Client(server, t["code"], t["Ann"]), Client(server, t["code"], t["Ben"])
    with contextlib.suppress(ConnectionClosed):
        for _ in range(FLOOD_CLOSE + 50):
            ann.send({"type": "ping"})
    heard = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            heard.append(ann.recv(timeout=10))
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_REFUSED
    assert heard[-1]["rule"] == "TABLES-RATE" and "closed" in heard[-1]["message"]  # said why, last
    assert len(heard) < 10  # never answered message for message
    ben.send({"type": "ping"})
    assert any(m["type"] == "pong" for m in ben.drain())  # (states too: the others are told Ann's page left)
    again = Client(server, t["code"], t["Ann"])
    assert again.state["type"] == "state" and again.state["seat"] == "Ann"


def test_TABLES_setup_errors_name_the_rule(start: Start) -> None:
    server = start()
    status, refused = call("POST", server.http, {"game": "cape_to_cairo", "seats": ["A", "B", "C", "D", "E"]})
    assert status == 400 and refused["rule"] == "KK-S1" and "2 to 4 players" in refused["message"]
    status, refused = call("POST", server.http, {"game": "chess", "seats": ["A", "B"]})
    assert status == 400 and refused["rule"] == "TABLES-GAME"
    status, refused = call("POST", server.http, {"game": "union_pacific", "seats": ["A", "B"], "bots": ["Z"]})
    assert status == 400 and refused["rule"] == "TABLES-SEAT"
    status, refused = call("GET", f"{server.http}/ZZZZZZ")
    assert status == 404 and refused["rule"] == "TABLES-CODE"


def test_TABLES_HELP_help_goes_to_the_asking_seat_only_and_is_empty_when_it_is_not_to_act(start: Start) -> None:
    """The lessons' help (``help``): a spectator cannot ask; a seat to act gets its explanations (none while
    bidding: only Kap bis Kairo's build count needs the server) and never a move, even when an older page asks
    for a ``hint``; a seat that has already bid gets nothing; the other seats hear nothing of it; the creator
    token check answers only for the right token."""
    server = start()
    t = kk_table(server, seats=("Ann", "Ben", "Cy"))
    ann, ben, watcher = Client(server, t["code"], t["Ann"]), Client(server, t["code"], t["Ben"]), Client(server, t["code"])
    ben.act({"type": "bid", "amount": 4})
    ann.recv()
    watcher.recv()
    ann.send({"type": "help", "hint": True})  # the field an older page sent is ignored: the hint is the kernel's
    assert ann.recv() == {"type": "help", "table": t["code"], "seat": "Ann", "seq": 1, "explain": {}}
    ben.send({"type": "help"})  # Ben's bid is in: nothing to help with
    assert ben.recv() == {"type": "help", "table": t["code"], "seat": "Ben", "seq": 1, "explain": {}}
    watcher.send({"type": "help"})
    refused = watcher.recv()
    assert refused["type"] == "error" and refused["rule"] == "TABLES-SEAT"
    assert ann.drain(0.5) == []  # nobody else heard of the help
    assert call("POST", f"{server.http}/{t['code']}/creator", {"creator_token": t["creator"]}) == (
        200, {"table": t["code"], "creator": True})
    assert call("POST", f"{server.http}/{t['code']}/creator", {"creator_token": t["Ann"]})[0] == 403
    for client in (ann, ben, watcher):
        client.close()


def test_TABLES_a_state_holds_only_what_the_connection_lacks_and_merges_whole(start: Start) -> None:
    """After its first state a connection gets only the new part of the log and the narrative, and
    ``legal_same`` for unchanged moves; a reveal sends the log again from the first move it opened."""
    server = start()
    t = kk_table(server, seats=("Ann", "Ben", "Cy"))
    ann, ben, cy = (Client(server, t["code"], t[s]) if s in t else None for s in ("Ann", "Ben", "Cy"))
    assert ann is not None and ben is not None and cy is None
    cy_token = call("POST", f"{server.http}/{t['code']}/join", {"seat": "Cy"})[1]["token"]
    ann.recv()
    ben.recv()  # Cy took the seat: a state for everyone
    cy = Client(server, t["code"], cy_token)
    assert cy.raw["log_from"] == 0 and "legal" in cy.raw  # a connection's first state holds everything
    ben.act({"type": "bid", "amount": 2})
    ann.recv()
    cy.recv()
    assert ann.raw["log_from"] == 0 and ann.raw["log"] == [{"type": "bid", "player": "Ben", "sealed": ["amount"]}]
    assert ann.raw.get("legal_same") is True and "legal" not in ann.raw  # still the same bids to choose from
    assert len(ann.state["legal"]) > 1
    ann.act({"type": "bid", "amount": 5})
    cy.recv()
    assert cy.raw["log_from"] == 1 and len(cy.raw["log"]) == 1
    cy.act({"type": "bid", "amount": 1})  # the last bid: all three are opened (KK-A2)
    seen = ben.drain(1.0)[-1]
    assert ben.raw["log_from"] == 0 and [e.get("amount") for e in seen["log"]] == [2, 5, 1]
    assert seen["narrative_length"] >= len(seen["narrative"]) > 0
    for client in (ann, ben, cy):
        client.close()
