"""“Play with others” in the play lessons, headless, against a real table server process (``railkit.tables``):
the lessons' kernels are its clients (``railkit.ui.tables.table_link``). Two learners at a Vom Kap bis Kairo table
see the sealed auction's count and never the other's amount before the reveal; a reload takes the seat back
through the page address; after ``kill -9`` and a restart the pages reconnect and play goes on; a Union
Pacific learner plays through a scoring round."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tables_client import ServerProcess

from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.i18n import set_language
from railkit.ui.tables.table_play import TablePlayPanel
from railkit.ui.unionpacific.play import PlayApp

pytestmark = pytest.mark.server


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def wait_until(condition: Callable[[], object], timeout: float = 30,
               message: Callable[[], str] = lambda: "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"the table did not get there in time {message()}")


def play_first(panel: TablePlayPanel) -> None:
    """The seat's first move: the lowest bid, the move “Your move” starts on, or the pass when it is the only one."""
    if panel.bid_row.layout.display != "none":
        panel.amount.value = panel.amount.min
        panel.on_bid()
    elif panel.pick_row.layout.display != "none":
        panel.on_play()
    else:
        panel.on_pass()


def seated_bot(panel: TablePlayPanel, seat: str) -> bool:
    """The creator's “A computer player takes this seat”: True once done (refused while the learner was not away
    long enough, TABLES-STAND-IN)."""
    panel.on_seat_bot(True)
    if panel.messages.kind == "error":
        assert "still at the table" in panel.messages.text, panel.messages.text
        return False
    return f"A computer player now plays {seat}" in panel.messages.text


def panel_text(panel: TablePlayPanel) -> str:
    return " ".join(text(w.value) for w in (panel.lobby, panel.turn, panel.progress, panel.board, panel.events))


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerProcess]:
    # a learner counts as gone after 1 s (TABLES-STAND-IN; 60 s by default), so a test need not wait long; a test
    # plays far faster than a learner, so the rate limit (TABLES-RATE, tested in test_tables_server) is lifted
    process = ServerProcess(f"sqlite:///{tmp_path / 'tables.sqlite'}",
                            ["--stand-in-after", "1", "--actions-per-second", "1000"]).start()
    monkeypatch.setenv("RAILKIT_TABLES_URL", f"http://127.0.0.1:{process.port}")
    monkeypatch.delenv("QUERY_STRING", raising=False)
    for key in [k for k in __import__("os").environ if k.startswith("BINDER_")]:
        monkeypatch.delenv(key)
    try:
        yield process
    finally:
        process.stop()


def close(*panels: TablePlayPanel) -> None:
    for panel in panels:
        if panel.link is not None:
            panel.link.close()


def test_TABLES_KK_A2_two_learners_see_the_count_of_sealed_bids_and_no_amount_before_the_reveal(
        server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    ann, ben = KkPlayApp(seed=1, name="Ann").together, KkPlayApp(seed=2, name="Ben").together
    ann.players.value, ann.bots.value = 3, 1
    ann.on_create()
    wait_until(lambda: ann.state is not None)
    code = ann.state["table"]
    assert code in text(ann.lobby.value) and "Player 2" in text(ann.lobby.value)
    assert ann.start_box.layout.display == "none"  # seated: the lobby and the game, not the start form
    ben.code.value, ben.name.value = code.lower(), "Ben"
    ben.on_join()
    wait_until(lambda: ben.state is not None and ann.state["seats"].get("Ben") == "human")
    assert list(ann.state["seats"]) == ["Ann", "Ben", "Computer 1"]  # the open seat took the learner's name
    assert "Your turn" in text(ben.turn.value)
    wait_until(lambda: "1 of 3 bids in" in text(ben.progress.value))  # the computer player bid at once
    ann.amount.value = 37
    ann.on_bid()
    wait_until(lambda: "2 of 3 bids in" in text(ben.progress.value))
    wait_until(lambda: "Your sealed bid: £37" in text(ann.board.value))
    assert "37" not in panel_text(ben).replace(code, "")  # (the table's code may hold the digits)
    assert "Ann hands in a sealed bid" in text(ben.events.value)
    assert "Your turn" not in text(ann.turn.value) and "Waiting for Ben" in text(ann.turn.value)

    # a reload of Ann's page: a new kernel with the seat in the page address takes it back
    monkeypatch.setenv("QUERY_STRING", ann.address.value.split("data-table='")[1].split("'")[0].join(
        ["table=", "&seat=" + ann.address.value.split("data-seat='")[1].split("'")[0]]))
    ann.link.close()
    again = KkPlayApp(seed=3, name="Ann").together
    wait_until(lambda: again.state is not None)
    assert again.state["seat"] == "Ann" and "Your sealed bid: £37" in text(again.board.value)

    # kill -9 of the table server: the pages say it is not answering (never “your turn”); Ben's bid made meanwhile
    # waits, and goes as soon as the server is back
    server.kill9()
    wait_until(lambda: "not answering" in ben.messages.text and "not answering" in text(ben.turn.value))
    assert "Your turn" not in text(ben.turn.value) and "make run" not in ben.messages.text
    other = KkPlayApp(seed=9, name="Zed").together
    other.on_create()  # a request, not a move: nothing is kept for later, the learner tries again
    assert other.messages.kind == "error" and "Try again in a moment" in other.messages.text
    ben.amount.value = 5
    ben.on_bid()
    assert ben.messages.kind != "error" and "Your move waits and is sent then: Bid £5" in ben.messages.text
    assert "Bid £5" in text(ben.turn.value) and ben.bid_row.layout.display == "none"  # nothing else to send
    server.start()
    wait_until(lambda: "Back at the table: your move was sent (Bid £5)" in ben.messages.text,
               message=lambda: ben.messages.text)
    wait_until(lambda: "Bids revealed: Ann 37, Ben 5" in text(again.events.value))  # drawn after the state
    assert "not answering" not in text(ben.turn.value)
    assert "Your turn" in text(again.turn.value) or "Waiting for" in text(again.turn.value)
    close(again, ben)


def test_TABLES_UP_D2_a_learner_plays_a_union_pacific_table_through_a_scoring_round(server: ServerProcess) -> None:
    panel = PlayApp(seed=1, name="Ann").together
    panel.players.value, panel.bots.value = 3, 2
    panel.on_create()
    wait_until(lambda: panel.state is not None)
    assert "0 of 3 first shares chosen" in text(panel.progress.value) or "1 of 3" in text(panel.progress.value) \
        or "2 of 3" in text(panel.progress.value)
    moves = 0
    while not panel.state["view"]["payouts"]:
        wait_until(lambda: panel.state["view"]["payouts"] or panel.state["legal"])
        if panel.state["view"]["payouts"]:
            break
        with panel._lock:  # the widgets as drawn for this very state (the connection's thread draws them)
            seq = panel.state["seq"]
            play_first(panel)  # the first move the engine allows
        assert panel.messages.kind != "error", panel.messages.text
        wait_until(lambda s=seq: panel.state["seq"] > s)
        moves += 1
        assert moves < 400
    wait_until(lambda: "Payout 1 of" in text(panel.board.value))
    close(panel)


def test_TABLES_REVIEW_a_learner_at_the_end_of_a_table_gets_the_review_and_the_search_review(
        server: ServerProcess) -> None:
    """A table of computer players but one: the learner's page at the end shows the result, the engine's review and,
    asked, the search player's review of the seat's own decisions (TABLES-REVIEW)."""
    panel = KkPlayApp(seed=4, name="Ann").together
    panel.players.value, panel.bots.value = 2, 1
    panel.on_create()
    wait_until(lambda: panel.state is not None)
    while not panel.state["is_over"]:
        wait_until(lambda: panel.state["is_over"] or panel.state["legal"])
        if panel.state["is_over"]:
            break
        with panel._lock:  # the widgets as drawn for this very state (the connection's thread draws them)
            seq = panel.state["seq"]
            play_first(panel)
        assert panel.messages.kind != "error", panel.messages.text
        wait_until(lambda s=seq: panel.state["seq"] > s, message=lambda: panel.messages.text)
    wait_until(lambda: "Review of your moves" in text(panel.review.value))
    assert "The game is over" in text(panel.turn.value)
    # “Review my game”: the seat's own decisions, sent by the server to this seat at the end (the replay holds no
    # deal), reviewed by the search player here. With the server down the panel says so and the result stays.
    review = panel.game_review
    assert review.widget.layout.display is None and review.button.layout.display is None
    review.player = "flatmc:2"
    server.stop()
    review.start(wait=True)
    assert "could not be fetched from the table server" in text(review.words.value) and review.review is None
    assert "Review of your moves" in text(panel.review.value) and review.button.layout.display is None
    server.start()
    review.start(wait=True)
    seat = panel.state["seat"]
    assert review.review is not None and review.review.seat == seat and review.review.decisions
    assert all(d.made.player == seat for d in review.review.decisions)
    assert review.review.won == (seat in panel.view.winners) and review.review.place >= 1
    assert "Review of your decisions by the search player" in text(review.words.value)
    assert review.chart.widget.layout.display is None
    close(panel)


def test_TABLES_the_app_built_again_in_another_language_keeps_its_seat(server: ServerProcess) -> None:
    app = KkPlayApp(seed=5, name="Ann")
    app.together.players.value, app.together.bots.value = 2, 1
    app.together.on_create()
    wait_until(lambda: app.together.state is not None)
    old = app.together
    app.relanguage()  # what a language switch does: every widget built again
    panel = app.together
    assert panel is not old and old.link is None and panel.link is not None
    assert panel.state is not None and "Your turn" in text(panel.turn.value)
    panel.amount.value = 3
    panel.on_bid()
    wait_until(lambda: panel.state["view"]["phase"] != "bid")  # the new widgets hear the server
    close(panel)


def test_TABLES_CREATOR_the_creator_seats_a_computer_player_for_a_learner_who_left_and_gives_it_back(
        server: ServerProcess) -> None:
    ann, ben = KkPlayApp(seed=6, name="Ann").together, KkPlayApp(seed=7, name="Ben").together
    ann.players.value, ann.bots.value = 2, 0
    ann.on_create()
    wait_until(lambda: ann.state is not None)
    ben.code.value, ben.name.value = ann.state["table"], "Ben"
    ben.on_join()
    wait_until(lambda: ben.state is not None and ann.state["seats"].get("Ben") == "human")
    assert ann.creator_row.layout.display != "none" and ben.creator_row.layout.display == "none"
    ann.seat_pick.value = "Ben"
    ann.on_seat_bot(True)  # Ben is at the table: not yet (TABLES-STAND-IN)
    assert ann.messages.kind == "error" and "Ben is still at the table" in ann.messages.text, ann.messages.text
    ben.link.close()  # Ben leaves
    wait_until(lambda: "away" in text(ann.lobby.value))
    wait_until(lambda: seated_bot(ann, "Ben"), message=lambda: ann.messages.text)  # once Ben has been away 1 s
    wait_until(lambda: ann.state["seats"]["Ben"] == "bot" and "Ben hands in a sealed bid" in text(ann.events.value))
    ann.on_seat_bot(False)
    wait_until(lambda: ann.state["seats"]["Ben"] == "human")  # Ben's token holds the seat again
    close(ann)


def test_TABLES_UP_B2_at_a_table_the_seat_gets_why_the_checks_the_board_and_a_hint(server: ServerProcess) -> None:
    """The play lesson's help at a table: “Why these choices?” for the seat's legal moves, the UP-B2 checks of a
    picked build, the whole board, and the heuristic player's move when asked (the server's, for this seat)."""
    panel = PlayApp(seed=1, name="Ann").together
    panel.players.value, panel.bots.value, panel.name.value = 2, 1, "Ann"
    panel.on_create()
    wait_until(lambda: panel.state is not None and panel.state["legal"])
    assert panel.view is not None and panel.view.you == "Ann" and panel.view.phase == "first_share"
    wait_until(lambda: "Why these choices?" in panel.why.value)  # drawn just after the state arrives
    assert "UP-S5" in text(panel.why.value)
    assert panel.map_view is not None and panel.map_view.widget.layout.display != "none"
    shown = panel._map_key
    assert shown is not None  # the board is drawn from the seat's public trains
    panel.on_hint()
    wait_until(lambda: "Hint: the search player would play this: You lay a first share of" in panel.messages.text)
    builds_seen = False
    while not builds_seen:  # to the first action step where a build is offered
        wait_until(lambda: bool(panel.state["legal"]))
        with panel._lock:  # the widgets as drawn for this very state
            seq = panel.state["seq"]
            builds = [i for i, a in enumerate(panel.state["legal"]) if a["type"] == "build"]
            if builds:
                panel.pick.value = builds[0]
                assert "UP-B2" in text(panel.move_note.value) and "allowed" in text(panel.move_note.value)
                assert panel._map_key[1] == panel.state["legal"][builds[0]]["section"]  # the map marks it
                assert "Build or invest, never both in one turn (UP-T3)" in text(panel.why.value)
                builds_seen = True
                panel.on_hint()
            else:
                play_first(panel)
        if builds_seen:
            wait_until(lambda: "Hint: the search player would play this" in panel.messages.text)
        else:
            wait_until(lambda s=seq: panel.state["seq"] > s)
    close(panel)


def test_TABLES_KK_B2_at_a_table_why_explains_bids_the_build_count_from_the_server_and_a_hint(
        server: ServerProcess) -> None:
    panel = KkPlayApp(seed=8, name="Ann").together
    panel.players.value, panel.bots.value = 2, 1
    panel.on_create()
    wait_until(lambda: panel.state is not None and panel.state["legal"])
    wait_until(lambda: "Why these bids?" in text(panel.why.value))
    assert "KK-A2" in text(panel.why.value)
    assert panel.map_view is None  # Kap bis Kairo's race is drawn in the board's HTML
    assert panel.hint_button.layout.display != "none"  # the search player's bid, from the seat's view alone
    panel.on_hint()
    assert "Hint: the search player would play this: You bid" in panel.messages.text, panel.messages.text
    seen_build = False
    while not panel.state["is_over"] and not seen_build:
        wait_until(lambda: panel.state["is_over"] or panel.state["legal"])
        if panel.state["is_over"]:
            break
        if panel.view.phase == "build":
            # the count of the next crossing comes from the server, for this seat only
            wait_until(lambda: "Why build or pass?" in text(panel.why.value))
            assert "KK-B2" in text(panel.why.value)
            # KK-B3: Pass hands the turn on; it has its own button, and “Your move” never starts on it
            with panel._lock:
                assert panel.pass_row.layout.display != "none" and panel.pass_button.description == "Pass"
                labels = [label for label, _i in panel.pick.options]
                assert "Pass" not in labels
                if labels:
                    assert panel.pick.value is not None and labels[0].startswith("Build")
            seen_build = True
            break
        with panel._lock:
            seq = panel.state["seq"]
            play_first(panel)
        wait_until(lambda s=seq: panel.state["seq"] > s)
    assert seen_build
    close(panel)


def test_TABLES_CREATOR_the_creators_controls_come_back_after_a_reload(server: ServerProcess,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    ann, ben = KkPlayApp(seed=9, name="Ann").together, KkPlayApp(seed=10, name="Ben").together
    ann.players.value, ann.bots.value = 2, 0
    ann.on_create()
    wait_until(lambda: ann.state is not None)
    ben.code.value, ben.name.value = ann.state["table"], "Ben"
    ben.on_join()
    wait_until(lambda: ben.state is not None and ann.state["seats"].get("Ben") == "human")
    mark = ann.address.value
    assert "data-creator='" in mark and "data-creator='" not in ben.address.value
    table, seat, creator = (mark.split(f"data-{k}='")[1].split("'")[0] for k in ("table", "seat", "creator"))
    ann.link.close()
    ben.link.close()  # Ben leaves too
    # Ann reloads: the page address keeps the creator's token beside the seat's
    monkeypatch.setenv("QUERY_STRING", f"table={table}&seat={seat}&creator={creator}")
    again = KkPlayApp(seed=11, name="Ann").together
    wait_until(lambda: again.state is not None)
    assert again.creator and again.creator_row.layout.display != "none"
    assert "data-creator='" in again.address.value  # kept for the next reload
    again.seat_pick.value = "Ben"
    wait_until(lambda: seated_bot(again, "Ben"), message=lambda: again.messages.text)  # Ben away 1 s
    wait_until(lambda: again.state["seats"]["Ben"] == "bot")
    again.on_seat_bot(False)
    wait_until(lambda: again.state["seats"]["Ben"] == "human")
    close(again)
    # a wrong creator token gives no controls
    monkeypatch.setenv("QUERY_STRING", f"table={table}&seat={seat}&creator=not-the-token")
    other = KkPlayApp(seed=12, name="Ann").together
    wait_until(lambda: other.state is not None)
    assert not other.creator and other.creator_row.layout.display == "none"
    close(other)


@pytest.mark.parametrize(("language", "yours", "theirs"), [("en", "You hand in a sealed bid.", "Ann hands in"),
                                                           ("hu", "Beadod a zárt licitedet.", "Ann zárt licitet ad be")])
def test_TABLES_KK_A2_the_tables_story_speaks_to_the_learner_about_their_own_moves(
        server: ServerProcess, language: str, yours: str, theirs: str) -> None:
    set_language(language)
    try:
        panel = KkPlayApp(seed=4, name="Ann").together
        panel.players.value, panel.bots.value = 2, 1
        panel.on_create()
        wait_until(lambda: panel.state is not None and bool(panel.state["legal"]))
        with panel._lock:
            seq = panel.state["seq"]
            panel.amount.value = panel.amount.min
            panel.on_bid()
        wait_until(lambda: panel.state["seq"] > seq)
        wait_until(lambda: yours in text(panel.events.value), message=lambda: text(panel.events.value))
        assert theirs not in text(panel.events.value)
        close(panel)
    finally:
        set_language("en")
