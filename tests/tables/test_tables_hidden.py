"""Hidden information stays hidden (the server sends each seat only its own view): a whole game of each kind is played through the
server by real WebSocket clients (each seat driven by the heuristic bot), and every message one seat and
a spectator receive is checked against the other seats' private view fields and sealed actions. The seat
also asks for the lessons' help (explanations and the hint) whenever it is to act, pings, and sends a move
the rules refuse. Every field of every message is checked: a message with a field this test does not know
fails it, so a new field cannot slip past. The finished game's replay is checked too: it holds no seed and no
card hidden for good (UP-B4), its positions are the public views, and a seat's review is its own. At the end the
seat asks for its decisions (``POST .../decisions``, the search review's): each is the seat's own view at that move
with its own legal moves and its own move, and no other seat's sealed bid or hidden share is in any of them; asked
by a spectator, with another seat's name, with no seat's token or before the end, the server refuses."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from tables_client import Client, ServerProcess, call

from railkit.capecairo.bots import HeuristicBot as KKBot
from railkit.capecairo.game import CapeToCairoGame
from railkit.game import Game
from railkit.lab.review import decisions_of
from railkit.session import position_bots
from railkit.tables.games import GAMES
from railkit.tables.table import NARRATIVE_SENT, json_value, public_replay
from railkit.unionpacific.bots import HeuristicBot as UPBot
from railkit.unionpacific.game import UnionPacificGame

pytestmark = pytest.mark.server

# What a seat's view may hold beyond the spectator's: its own secrets and its own choices.
OWN_KEYS = {"you", "hand", "your_bid", "your_money_after_bid", "my_first_share", "legal_actions", "money"}
# Every field a state or a help message may hold; each is checked below.
STATE_KEYS = {"type", "table", "game", "seat", "seq", "is_over", "seats", "away", "stand_ins", "view", "log", "legal",
              "narrative", "narrative_length", "replay", "chosen_deal"}
REPLAY_KEYS = {"players", "learners", "steps", "review"}  # and nothing else: no seed, no options, no actions
DELTA_KEYS = {"log_from", "narrative_from", "legal_same"}  # how a state says what it leaves out (merged away)
# The same for every seat at one moment ("away", who is connected, is public too, but the first states are made
# as each client connects, so it is not compared here).
PUBLIC_STATE_KEYS = {"type", "table", "game", "seq", "is_over", "seats", "stand_ins", "narrative", "narrative_length",
                     "chosen_deal"}
HELP_KEYS = {"type", "table", "seat", "seq", "explain"}
DECISIONS_KEYS = {"table", "game", "seat", "seq", "complete", "total", "decisions"}
DECISION_KEYS = {"move", "view", "legal", "made"}


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False))


def secrets_of(game: Game[Any], seat: str) -> list[tuple[str, str]]:
    """``seat``'s sealed actions still pending: (action type, hidden field) pairs that no one else may see."""
    view = game.view(seat).to_json()
    out = []
    if view.get("your_bid") is not None:  # KK-A2
        out.append(("bid", "amount"))
    if view.get("my_first_share") is not None:  # UP-S5
        out.append(("choose_first_share", "card"))
    out.append(("exchange_for_up", "card"))  # UP-B4: face down into the box, for good
    return out


def pending_actions(game: Game[Any], seat: str | None) -> list[dict[str, Any]]:
    """Other seats' sealed actions whose hidden fields no message to ``seat`` may hold yet (whole, as JSON): before
    the reveal every sealed action (KK-A2, UP-S5), after it those hidden for good (UP-B4)."""
    actions = [_json(a) for a in game.to_dict()["actions"]]
    if game.sealed_from() == len(actions):  # nothing waits to be revealed
        return [a for a in actions if a["player"] != seat and a["type"] in game.HIDDEN_FOR_GOOD]
    return [a for a in actions if a["player"] != seat and a["type"] in game.SEALED]


def holds(value: Any, wanted: dict[str, Any]) -> bool:
    """Does ``value`` hold a JSON object with every field of ``wanted`` (at any depth)?"""
    if isinstance(value, dict):
        if all(value.get(k) == v for k, v in wanted.items()):
            return True
        return any(holds(v, wanted) for v in value.values())
    if isinstance(value, list):
        return any(holds(v, wanted) for v in value)
    return False


def check_no_secret(game: Game[Any], seat: str | None, message: dict[str, Any], skip: tuple[str, ...] = ()) -> None:
    """No field of ``message`` holds another seat's sealed action with its hidden fields (the log is checked
    entry by entry in ``check_message``: it holds the action with those fields left out)."""
    for action in pending_actions(game, seat):
        for key, value in message.items():
            if key not in skip:
                assert not holds(value, action), (key, action)


def messages_in(value: Any) -> list[dict[str, Any]]:
    """Every engine sentence (``msgid`` and ``params``) in ``value``, nested ones too."""
    if isinstance(value, list):
        return [m for v in value for m in messages_in(v)]
    if not isinstance(value, dict):
        return []
    found = [value] if "msgid" in value else []
    return found + [m for v in value.values() for m in messages_in(v)]


def check_sentences(game: Game[Any], seat: str, value: Any) -> None:
    """No engine sentence about another seat names the hidden value of its still-sealed action."""
    for action in pending_actions(game, seat):
        hidden = {k: action[k] for k in game.SEALED[action["type"]] if k in action}
        for message in messages_in(value):
            params = message.get("params", {})
            if params.get("player") == action["player"]:
                assert not any(params.get(k) == v for k, v in hidden.items()), (message, action)


def check_help(game: Game[Any], seat: str, answer: dict[str, Any]) -> None:
    """The help a seat asked for: the engine's explanations for that seat, nothing else."""
    assert answer["type"] == "help" and set(answer) == HELP_KEYS, answer
    assert answer["seat"] == seat and answer["seq"] == len(game.to_dict()["actions"])
    assert answer["explain"] == _json(json_value(GAMES[game.GAME].explain(game, seat)))
    check_no_secret(game, seat, answer)
    check_sentences(game, seat, answer["explain"])


def check_raw(game: Game[Any], seat: str | None, client: Client) -> None:
    """The state as it came over the wire: only known fields, its log and narrative a part of the merged ones."""
    raw, merged = client.raw, client.state
    assert set(raw) <= STATE_KEYS | DELTA_KEYS, set(raw) - STATE_KEYS - DELTA_KEYS
    assert merged["log"][raw["log_from"]:] == raw["log"]
    assert raw["narrative"] == merged["narrative"][len(merged["narrative"]) - len(raw["narrative"]):]
    assert raw.get("legal", merged["legal"]) == merged["legal"]
    check_no_secret(game, seat, raw, skip=("log",))


def check_message(game: Game[Any], seat: str, mine: dict[str, Any], public: dict[str, Any]) -> int:
    """``mine`` (to ``seat``) and ``public`` (to a spectator) at the same moment; how many secrets were pending."""
    assert set(mine) <= STATE_KEYS and set(public) <= STATE_KEYS, set(mine) ^ STATE_KEYS
    for key in PUBLIC_STATE_KEYS:
        assert mine[key] == public[key], key  # the same for everyone: nothing of the seat's own
    assert mine["seat"] == seat and public["seat"] is None
    over = game.is_over
    assert mine["narrative"] == [_json(json_value(m)) for m in game.narrative[-NARRATIVE_SENT:]]
    assert mine["legal"] == ([_json(game.registry.to_dict(a)) for a in game.legal_actions(seat)]
                             if not over and seat in game.players_to_act() else [])
    assert public["legal"] == []
    assert ("replay" in mine) == ("replay" in public) == over  # the game move by move, once it is over
    check_no_secret(game, seat, mine, skip=("log",))
    check_no_secret(game, seat, public, skip=("log",))
    if over:
        check_replay(game, seat, mine["replay"])
        check_replay(game, None, public["replay"])
    check_sentences(game, seat, mine["narrative"])
    assert mine["view"] == _json(game.view(seat).to_json())
    assert public["view"] == _json(game.view(None).to_json())
    differs = {k for k in set(mine["view"]) | set(public["view"]) if mine["view"].get(k) != public["view"].get(k)}
    assert differs <= OWN_KEYS, differs
    assert set(mine["view"].get("money", {})) <= set(public["view"].get("money", {})) | {seat}
    assert len(mine["log"]) == len(public["log"]) == len(game.to_dict()["actions"])
    for ours, theirs in zip(mine["log"], public["log"], strict=True):
        if ours != theirs:
            assert ours["player"] == seat  # only our own sealed moves read differently
    pending = 0
    for other in game.players:
        if other == seat:
            continue
        for kind, hidden in secrets_of(game, other):
            for log in (mine["log"], public["log"]):
                last = [e for e in log if e["type"] == kind and e["player"] == other]
                if kind == "exchange_for_up":
                    assert all(hidden not in e for e in last)
                elif last:
                    assert hidden not in last[-1], (kind, other, last[-1])
                    pending += 1
    return pending


def check_replay(game: Game[Any], seat: str | None, replay: dict[str, Any]) -> None:
    """The finished game as a review replays it: the public view of every position (fields that changed), the
    engine's words, the seat's own review; no seed, no log of actions, no card hidden for good."""
    assert set(replay) <= REPLAY_KEYS and ("review" in replay) == (seat is not None), set(replay)
    assert _json(replay["steps"]) == _json(public_replay(game)["steps"])
    assert len(replay["steps"]) == len(game.log) + 1 and replay["players"] == list(game.players)
    text = json.dumps(replay, ensure_ascii=False)
    assert '"seed"' not in text and '"actions"' not in text
    for action in pending_actions(game, seat):  # UP-B4: the exchanged shares, for good
        assert not holds(replay, action), action
    if seat is not None:
        assert replay["review"] == _json(GAMES[game.GAME].review(game, seat))


def check_decisions(server: ServerProcess, code: str, token: str, game: Game[Any], seat: str) -> int:
    """The seat's own decisions, as the search review at the table asks for them at the end: exactly its view at each
    decision (``Game.view(seat)``), its legal moves and its own move; nothing another seat hid then or for good."""
    status, answer = call("POST", f"{server.http}/{code}/decisions", {"token": token, "seat": seat})
    assert status == 200, answer
    assert set(answer) == DECISIONS_KEYS and answer["seat"] == seat and answer["complete"]
    found = list(decisions_of(game, seat))
    assert answer["seq"] == len(game.log) and answer["total"] == len(found) == len(answer["decisions"]) > 3
    text = json.dumps(answer, ensure_ascii=False)
    assert '"seed"' not in text and '"actions"' not in text
    for item, (move, view, legal, made) in zip(answer["decisions"], found, strict=True):
        assert set(item) == DECISION_KEYS and item["move"] == move
        assert item["view"] == _json(view.to_json()) and item["view"]["you"] == seat
        assert item["legal"] == [_json(game.registry.to_dict(a)) for a in legal] and len(legal) > 1
        assert item["made"] == _json(game.registry.to_dict(made)) and item["made"]["player"] == seat
        then = game.replay(move - 1)  # the game as it stood: the other seats' secrets pending at that moment
        check_no_secret(then, seat, item)
        check_sentences(then, seat, item)
    for action in pending_actions(game, seat):  # UP-B4: the others' exchanged shares, hidden for good
        assert not holds(answer, action), action
    return len(answer["decisions"])


def check_other_messages(client: Client, local: Game[Any], seat: str) -> None:
    """The messages that are no state: a pong, and the error of a move the rules refuse (its words)."""
    client.send({"type": "ping"})
    pong = client.recv()
    assert pong == {"type": "pong"}
    client.send({"type": "act", "seq": len(local.log), "action": {"type": "pass", "player": seat, "bogus": 1}})
    refused = client.recv()
    assert refused["type"] == "error" and set(refused) <= {"type", "error", "rule", "message", "seq", "words"}
    check_no_secret(local, seat, refused)


def play_through_server(server: ServerProcess, cls: type[Game[Any]], make_bot: Callable[[int], Any],
                        seats: list[str], options: dict[str, Any]) -> tuple[Game[Any], int]:
    """A whole game through the server, every message checked; at the end the first seat's decisions."""
    status, made = call("POST", server.http, {"game": cls.GAME, "seats": seats, "seed": 11, "options": options,
                                              "take": seats[0]})
    assert status == 201, made
    code, tokens = made["table"], {seats[0]: made["token"]}
    for seat in seats[1:]:
        tokens[seat] = call("POST", f"{server.http}/{code}/join", {"seat": seat})[1]["token"]
    clients = {seat: Client(server, code, tokens[seat]) for seat in seats}
    spectator = Client(server, code)
    local = cls(seats, seed=11, **options)
    policy = position_bots(make_bot)
    seat, pending, moves, helped = seats[0], 0, 0, 0
    pending += check_message(local, seat, clients[seat].state, spectator.state)
    while not local.is_over:
        actor = local.players_to_act()[0]
        action = policy(local, actor)
        clients[actor].send({"type": "act", "seq": moves, "action": cls.registry.to_dict(action)})
        local.apply(action)
        moves += 1
        for client in (*clients.values(), spectator):
            message = client.recv()
            assert message["type"] == "state" and message["seq"] == moves, message
        pending += check_message(local, seat, clients[seat].state, spectator.state)
        check_raw(local, seat, clients[seat])
        check_raw(local, None, spectator)
        if not local.is_over and seat in local.players_to_act():
            clients[seat].send({"type": "help"})
            check_help(local, seat, clients[seat].recv())
            helped += 1
            if helped % 10 == 1:
                check_other_messages(clients[seat], local, seat)
    assert helped > 5
    check_decisions(server, code, tokens[seat], local, seat)
    # Once revealed, the sealed moves are readable by everyone (the log is not hidden for ever by mistake)
    for entry in spectator.state["log"]:
        assert "sealed" not in entry or entry["type"] == "exchange_for_up"
    return local, pending


def test_TABLES_KK_A2_no_other_seats_bid_reaches_a_seat_before_the_bids_are_opened(tmp_path: Any) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'kk.sqlite'}", ["--actions-per-second", "1000"]).start()
    try:
        game, pending = play_through_server(server, CapeToCairoGame, KKBot, ["Ann", "Ben", "Cy"], {})
    finally:
        server.stop()
    assert game.is_over and pending > 10  # secrets were pending many times and never leaked


def test_TABLES_UP_S5_no_hand_or_face_down_share_reaches_another_seat(tmp_path: Any) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'up.sqlite'}", ["--actions-per-second", "1000"]).start()
    try:
        game, pending = play_through_server(server, UnionPacificGame, UPBot, ["Ann", "Ben", "Cy"], {})
    finally:
        server.stop()
    assert game.is_over and pending > 0
    assert len(pending_actions(game, "Ann")) >= 5  # UP-B4: others' exchanged shares, hidden for good, replay included


def test_TABLES_REVIEW_a_seats_decisions_go_to_its_own_token_only_and_only_after_the_game(tmp_path: Any) -> None:
    """The refusals of ``POST .../decisions`` (TABLES-REVIEW, TABLES-TOKEN, TABLES-CODE), each changing nothing, and the
    answer gzipped for a client that accepts it (the kernel)."""
    import gzip
    import urllib.request

    server = ServerProcess(f"sqlite:///{tmp_path / 'review.sqlite'}", ["--stand-in-after", "0"]).start()
    try:
        status, made = call("POST", server.http, {"game": CapeToCairoGame.GAME, "seats": ["Ann", "Ben"], "bots": ["Ben"],
                                                  "take": "Ann", "seed": 3, "options": {"win_crossings": 3}})
        assert status == 201, made
        code, ann = made["table"], made["token"]
        url = f"{server.http}/{code}/decisions"
        status, refused = call("POST", url, {"token": ann})
        assert (status, refused["error"], refused["rule"]) == (409, "not_over", "TABLES-REVIEW")
        # a computer player finishes Ann's game (the creator may: she has no connection)
        status, table = call("POST", f"{server.http}/{code}/bot", {"creator_token": made["creator_token"],
                                                                   "seat": "Ann", "bot": True})
        assert status == 200 and table["is_over"], table
        for body, expected in (({}, (403, "not_your_seat", "TABLES-REVIEW")),  # a spectator has no token
                               ({"token": ""}, (403, "not_your_seat", "TABLES-REVIEW")),
                               ({"token": ann, "seat": "Ben"}, (403, "not_your_seat", "TABLES-REVIEW")),
                               ({"token": made["creator_token"]}, (403, "bad_token", "TABLES-TOKEN")),
                               ({"token": ann, "seat": 3}, (400, "bad_message", "TABLES-JSON"))):
            status, refused = call("POST", url, body)
            assert (status, refused["error"], refused["rule"]) == expected, (body, refused)
            assert refused["type"] == "error" and "Ann" not in json.dumps(refused).replace("'Ann'", "")
        status, refused = call("POST", f"{server.http}/ZZZZZZ/decisions", {"token": ann})
        assert (status, refused["error"], refused["rule"]) == (404, "no_table", "TABLES-CODE")
        status, plain = call("POST", url, {"token": ann, "seat": "ann"})  # the seat's name in any case
        assert status == 200 and plain["seat"] == "Ann" and plain["decisions"] and plain["complete"]
        request = urllib.request.Request(url, data=json.dumps({"token": ann}).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.headers["Content-Encoding"] == "gzip"
            packed = response.read()
        assert json.loads(gzip.decompress(packed)) == plain and len(packed) < len(json.dumps(plain)) / 3
        assert call("GET", f"{server.http}/{code}")[1]["seq"] == plain["seq"]  # nothing changed
    finally:
        server.stop()


def test_TABLES_REVIEW_each_answer_is_made_once_off_the_event_loop_and_the_kept_ones_are_bounded() -> None:
    """Two requests at once for one seat share one making (in a thread, not on the event loop); a failed making is
    made again when asked again; only the latest ``kept`` answers stay."""
    import asyncio
    import gzip
    import threading

    from railkit.tables.decisions import DecisionAnswers

    made: list[str] = []
    loop_threads: list[threading.Thread] = []

    def make(name: str) -> Callable[[], bytes]:
        def run() -> bytes:
            assert threading.current_thread() not in loop_threads  # made in a thread of its own, off the loop
            made.append(name)
            if name == "broken":
                raise ValueError("no")
            return json.dumps({"seat": name}).encode()
        return run

    async def scenario() -> None:
        loop_threads.append(threading.current_thread())
        answers = DecisionAnswers(kept=2)
        first, second = await asyncio.gather(answers.get("a", make("a")), answers.get("a", make("a")))
        assert first == second and json.loads(gzip.decompress(first)) == {"seat": "a"} and made == ["a"]
        for _ in range(2):
            with pytest.raises(ValueError):
                await answers.get("x", make("broken"))
        await answers.get("b", make("b"))
        await answers.get("c", make("c"))
        await answers.get("a", make("a"))  # a fell out (two kept): made again
        assert made == ["a", "broken", "broken", "b", "c", "a"] and len(answers._answers) == 2

    # A loop of its own in a thread of its own: whatever loop the test's own thread may hold stays out of it.
    failed: list[BaseException] = []

    def run_scenario() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as exc:  # noqa: BLE001 - handed back to the test below
            failed.append(exc)

    runner = threading.Thread(target=run_scenario)
    runner.start()
    runner.join(60)
    assert not runner.is_alive() and loop_threads == [runner]
    if failed:
        raise failed[0]
