"""The strategy lab's notebook helpers: a learner's function on a small in-process ladder (``railkit.lab.notebook``),
its table, charts and replay (``railkit.ui.lab_view``)."""

from __future__ import annotations

import pytest

from railkit.capecairo import Bid, CapeToCairoGame, KKView
from railkit.lab.notebook import learner_name, play_ladder
from railkit.lab.players import make_player, register
from railkit.ui.capecairo.race_map import race_figure
from railkit.ui.i18n import set_language
from railkit.ui.lab_view import GameReplay, ratings_plot, ratings_table, seats_plot

ASKED: list[tuple[type, int]] = []


def nothing_bidder(view, legal):
    """KK-A2: a bid of 0 is always legal; the heuristic does the rest."""
    ASKED.append((type(view), len(legal)))
    if view.phase == "bid":
        return next(b for b in legal if isinstance(b, Bid) and b.amount == 0)
    return make_player("heuristic").choose(view, legal)


@pytest.fixture(scope="module")
def run():
    ASKED.clear()
    return play_ladder("kk", nothing_bidder, ["random", "heuristic"], games=4, players=3)


def test_KK_A2_the_learners_player_is_asked_with_its_seats_view_and_rated_beside_the_others(run):
    assert ASKED and all(kind is KKView and n >= 1 for kind, n in ASKED)  # a view, never the game
    assert run.yours == "mine:nothing_bidder" and run.spec.bots == ("mine:nothing_bidder", "random", "heuristic")
    assert {r.name for r in run.table} == set(run.spec.bots) and len(run.records) == 4
    for r in run.table:
        low, high = r.ci95
        assert low < r.mu < high and r.games == 4
    assert [r.mu for r in run.table] == sorted((r.mu for r in run.table), reverse=True)


def test_seats_rotate_and_each_player_has_a_share_from_each_seat(run):
    shares = run.seat_shares()
    assert set(shares) == set(run.spec.bots)
    for per_seat in shares.values():
        assert len(per_seat) == 3 and all(s is not None and 0 <= s <= 1 for s in per_seat)


def test_the_best_game_replays_with_the_engine_to_its_recorded_end(run):
    index = run.best_game()
    record = run.records[index]
    mine = record.seats.index(run.yours)
    assert record.places[mine] == min(r.places[r.seats.index(run.yours)] for r in run.records)
    replay = GameReplay(run, race_figure)
    assert replay.index == index and len(replay.steps) == record.moves + 1
    assert replay.steps[-1].view.is_over and replay.board.figure is not None
    replay.go(0)
    assert "before the first move" in replay.words.value
    replay.go(10**6)
    assert replay.move.value == record.moves
    assert issubclass(run.engine(), CapeToCairoGame)


def test_the_table_and_the_charts_show_every_player_with_its_interval(run):
    table = ratings_table(run).value
    assert all(f">{r.name}</td>" in table for r in run.table)
    assert "<tr style='font-weight:bold'><td style=" in table.split("mine:nothing_bidder")[0][-120:]  # the learner's row
    plot = ratings_plot(run)
    trace = plot.traces[0]
    assert set(trace["y"]) == set(run.spec.bots)
    assert all(a > 0 and b > 0 for a, b in zip(trace["error_x"]["array"], trace["error_x"]["arrayminus"], strict=True))
    seats = seats_plot(run)
    assert [t["name"] for t in seats.traces] == [r.name for r in run.table]
    assert all(t["type"] == "bar" and len(t["x"]) == 3 for t in seats.traces)


def test_the_charts_speak_the_learners_language(run):
    try:
        set_language("fi")
        assert "Vahvuusluku (μ)" in ratings_table(run).value
        assert seats_plot(run).layout_spec["title"]["text"] == "Osuus pisteistä paikoittain"
    finally:
        set_language("en")


def test_a_name_that_is_no_player_is_refused_in_words():
    assert learner_name(lambda view, legal: legal[0]) == "mine:_lambda_"
    assert learner_name(nothing_bidder, "2 fast!") == "mine:p2_fast_"
    with pytest.raises(ValueError, match="module:Name"):
        register("heuristic", nothing_bidder)
    with pytest.raises(ValueError, match="not a player"):
        register("mine:x", 42)
    with pytest.raises(ValueError, match="games must be"):
        play_ladder("kk", nothing_bidder, ["random"], games=0)
    with pytest.raises(ValueError, match="unknown player"):
        play_ladder("kk", nothing_bidder, ["nobody here"], games=1)
