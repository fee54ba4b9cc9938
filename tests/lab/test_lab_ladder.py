"""Rated ladders (railkit/lab/ladder.py, records.py, store.py, ratings.py, cli.py): seats rotate, results go to a
SQLite file a second run resumes, openskill rates the finishing orders, a stored game replays."""

from __future__ import annotations

import json
import sqlite3
import sys
import textwrap
from collections import Counter

import pytest

from railkit.lab.cli import main
from railkit.lab.ladder import play_game_record, replay, run_ladder
from railkit.lab.ratings import rate, rungs
from railkit.lab.records import LadderSpec, lineup
from railkit.lab.rules import GAMES
from railkit.lab.store import Store


def test_seats_rotate_every_deal_through_every_seat():
    spec = LadderSpec("kk", 4, ("random", "heuristic", "flatmc:4", "ismcts:4"), games=16)
    seats = [lineup(spec, i) for i in range(16)]
    for block in range(4):
        games = seats[block * 4:block * 4 + 4]
        assert len({seed for _, seed in games}) == 1  # one deal per block ...
        for position in range(4):  # ... and each player in each seat once
            assert sorted(s[position] for s, _ in games) == sorted(spec.bots)
    assert len({seed for _, seed in seats}) == 4


def test_more_players_than_seats_take_turns_and_fewer_repeat():
    many = LadderSpec("kk", 3, ("random", "heuristic", "flatmc:4", "ismcts:4", "ismcts:8"), games=30)
    counts = Counter(name for i in range(30) for name in lineup(many, i)[0])
    assert set(counts) == set(many.bots) and max(counts.values()) - min(counts.values()) <= 3
    few = LadderSpec("kk", 4, ("ismcts:4", "heuristic", "heuristic", "heuristic"), games=8)
    for i in range(8):
        assert Counter(lineup(few, i)[0]) == {"ismcts:4": 1, "heuristic": 3}


def test_a_spec_is_checked_in_words():
    for bad in ({"game": "chess"}, {"players": 1}, {"players": 7}, {"bots": ()}, {"bots": ("deep blue",)},
                {"games": 0}, {"games": 10**9}, {"seed": -1}):
        args = {"game": "kk", "players": 4, "bots": ("random",), "games": 4, **bad}
        with pytest.raises(ValueError):
            LadderSpec(**args)


def test_a_ladder_is_stored_resumed_and_rated(tmp_path):
    out = tmp_path / "kk.sqlite"
    spec = LadderSpec("kk", 4, ("random", "heuristic"), games=8, seed=3)
    records = run_ladder(spec, out, progress=False)
    assert [r.index for r in records] == list(range(8))
    longer = LadderSpec("kk", 4, ("random", "heuristic"), games=12, seed=3)
    assert longer.key() == spec.key()  # the same run, longer
    store = Store(out)
    records = run_ladder(longer, out, progress=False)
    assert [r.index for r in records] == list(range(12))
    with sqlite3.connect(out) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (12,)
    assert store.add(spec, records[:2]) == 0  # a game already stored stays as it was
    table = rate(records, names=spec.bots)
    assert [r.name for r in table] == ["heuristic", "random"]
    assert table[0].wins > table[1].wins and table[0].score_share > 0.25 > table[1].score_share  # per seat
    assert all(r.games == 12 for r in table)
    assert sum(r.seats for r in table) == 48


def test_a_stored_game_replays_to_the_same_end(tmp_path):
    spec = LadderSpec("up", 3, ("random", "heuristic"), games=2, seed=1)
    record = play_game_record(spec, 1)
    game = replay(spec, record)
    assert game.is_over and len(game.log) == record.moves
    standing = GAMES["up"].standing(game)
    assert tuple(standing.places[p] for p in game.players) == record.places
    halfway = replay(spec, record, upto=record.moves // 2)
    assert not halfway.is_over and len(halfway.log) == record.moves // 2


def test_ratings_count_rungs_whose_intervals_are_apart():
    from railkit.lab.records import GameRecord

    records = [GameRecord(i, 0, ("a", "b", "c"), (1, 2, 3), (3, 2, 1), (0, 0, 0), (0,), 10, (0.0,) * 3, (1,) * 3,
                          None) for i in range(300)]
    table = rate(records)
    assert [r.name for r in table] == ["a", "b", "c"] and rungs(table) == 3
    assert table[0].win_rate == 1 and table[0].mean_place == 1
    even = rate([GameRecord(i, 0, ("a", "b"), (1 + i % 2, 2 - i % 2), (1, 1), (0, 0), (i % 2,), 5, (0.0, 0.0),
                            (1, 1), None) for i in range(40)])
    assert rungs(even) == 1


def test_a_learners_own_player_by_module_path(tmp_path, monkeypatch):
    (tmp_path / "my_players.py").write_text(textwrap.dedent('''
        def cheapest(view, legal):
            """Bid nothing, take the first card, pass whenever allowed."""
            return legal[0]

        class Greedy:
            def __init__(self, seed=0):
                self.seed = seed

            def choose(self, view, legal):
                return legal[-1]
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = LadderSpec("kk", 3, ("my_players:cheapest", "my_players:Greedy", "heuristic"), games=3)
    records = run_ladder(spec, tmp_path / "mine.sqlite", progress=False)
    assert len(records) == 3 and {n for r in records for n in r.seats} == set(spec.bots)
    with pytest.raises(ValueError, match="no 'missing'"):
        run_ladder(LadderSpec("kk", 3, ("my_players:missing",), games=1), tmp_path / "x.sqlite", progress=False)


def test_the_command_prints_the_table_then_one_json_line(tmp_path, capsys):
    out = tmp_path / "ladder.sqlite"
    code = main(["ladder", "--game", "kk", "--players", "4", "--bots", "random,heuristic,flatmc:2,ismcts:2",
                 "--games", "4", "--out", str(out), "--no-progress"])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(lines[-1])
    assert summary["game"] == "kk" and summary["games"] == 4
    assert set(summary["bots"]) == {"random", "heuristic", "flatmc:2", "ismcts:2"}
    for figures in summary["bots"].values():
        assert {"mu", "sigma", "score_share", "ci95"} <= set(figures)
        low, high = figures["ci95"]
        assert low < figures["mu"] < high
    assert any("rungs" in line for line in lines[:-1])
    assert main(["table", "--out", str(out)]) == 0
    assert main(["replay", "--out", str(out), "--index", "2", "--moves", "5"]) == 0
    assert "auction" in capsys.readouterr().out.lower()
    assert main(["ladder", "--game", "kk", "--bots", "nobody", "--games", "4", "--out", str(out)]) == 2
    assert "unknown player" in capsys.readouterr().err


@pytest.mark.server
def test_a_ladder_on_a_two_worker_local_dask_cluster_matches_in_process(tmp_path):
    """Dask (a LocalCluster of two worker processes) plays the same games as this process would."""
    spec = LadderSpec("kk", 4, ("random", "heuristic"), games=12, seed=5)
    on_dask = run_ladder(spec, tmp_path / "dask.sqlite", dask="local", workers=2, batch=3, progress=False)
    here = run_ladder(spec, tmp_path / "here.sqlite", progress=False)
    assert [(r.index, r.places, r.log) for r in on_dask] == [(r.index, r.places, r.log) for r in here]
    assert sys.modules.get("distributed") is not None


def test_KK_A3_the_never_bid_rung_bids_0_and_otherwise_plays_as_the_heuristic(tmp_path):
    """railkit.lab.examples:never_bid, a ladder rung by module path: five players rotating through four seats."""
    from railkit.capecairo.actions import Bid
    from railkit.lab.examples import NeverBid
    from railkit.lab.ladder import replay

    spec = LadderSpec("kk", 4, ("random", "railkit.lab.examples:never_bid", "heuristic", "flatmc:2", "ismcts:2"),
                      games=5)
    records = run_ladder(spec, tmp_path / "rungs.sqlite", progress=False)
    assert {n for r in records for n in r.seats} == set(spec.bots) and all(len(r.seats) == 4 for r in records)
    record = next(r for r in records if "railkit.lab.examples:never_bid" in r.seats)
    seat = record.seats.index("railkit.lab.examples:never_bid")
    game = replay(spec, record)
    me = game.players[seat]
    bids = [a for a in game.log if isinstance(a, Bid) and a.player == me]
    assert bids and all(b.amount == 0 for b in bids)
    # Away from the auction it is the heuristic player: the same choice in each of its card and build decisions.
    checked = 0
    for action, view, legal in seat_decisions(spec, record, me):
        if not isinstance(action, Bid):
            assert NeverBid(3).choose(view, legal) == NeverBid(3).heuristic.choose(view, legal) == action
            checked += 1
    assert checked


def seat_decisions(spec, record, me):
    """Each of ``me``'s moves in the stored game, with the view and the legal moves it was chosen from."""
    for upto, action in enumerate(replay(spec, record).log):
        if getattr(action, "player", None) == me:
            position = replay(spec, record, upto=upto)
            yield action, position.view(me), position.legal_actions(me)


def test_UP_I1_the_one_share_at_a_time_rung_lays_single_shares_and_otherwise_plays_as_the_heuristic(tmp_path):
    """railkit.lab.examples:one_share_at_a_time: every investment is one share (UP-I1 allows it); every other
    decision is the heuristic player's."""
    from railkit.lab.examples import OneShareAtATime
    from railkit.unionpacific.actions import Invest

    name = "railkit.lab.examples:one_share_at_a_time"
    spec = LadderSpec("up", 4, (name, "heuristic", "heuristic", "heuristic"), games=1)
    record = run_ladder(spec, tmp_path / "rungs.sqlite", progress=False)[0]
    seat = record.seats.index(name)
    game = replay(spec, record)
    me = game.players[seat]
    invests = [a for a in game.log if isinstance(a, Invest) and a.player == me]
    assert invests and all(len(a.cards) == 1 for a in invests)
    others = [a for a in game.log if isinstance(a, Invest) and a.player != me]
    assert any(len(a.cards) > 1 for a in others)  # the heuristic seats do lay several at once
    checked = 0
    for _action, view, legal in seat_decisions(spec, record, me):
        mine, heuristic = OneShareAtATime(3).choose(view, legal), OneShareAtATime(3).heuristic.choose(view, legal)
        if isinstance(heuristic, Invest):
            assert mine.cards == heuristic.cards[:1] and mine.discard == heuristic.discard
        else:
            assert mine == heuristic
        checked += 1
    assert checked > len(invests)


def test_UP_I4_the_never_invest_rung_keeps_its_shares_in_hand_and_is_paid_nothing_for_them(tmp_path):
    """railkit.lab.examples:never_invest lays no share while another move is legal, so it ends with less money
    than each heuristic player (only shares on the table are paid, UP-I4)."""
    from railkit.unionpacific.actions import Invest

    name = "railkit.lab.examples:never_invest"
    spec = LadderSpec("up", 4, (name, "heuristic", "heuristic", "heuristic"), games=1)
    record = run_ladder(spec, tmp_path / "rungs.sqlite", progress=False)[0]
    seat = record.seats.index(name)
    game = replay(spec, record)
    me = game.players[seat]
    assert not [a for a in game.log if isinstance(a, Invest) and a.player == me]
    assert [a for a in game.log if isinstance(a, Invest) and a.player != me]
    assert record.places[seat] == 4 and record.money[seat] < min(m for i, m in enumerate(record.money) if i != seat)
