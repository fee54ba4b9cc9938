"""The search players (railkit/lab/search.py): legal moves from the seat's view, budgets, evaluations."""

from __future__ import annotations

import pytest
from lab_positions import positions, start

from railkit.bots import decide
from railkit.capecairo.actions import Bid
from railkit.lab.players import check_name, make_player
from railkit.lab.search import ISMCTS, Budget, FlatMC


@pytest.mark.parametrize("game", ["kk", "up"])
@pytest.mark.parametrize("name", ["ismcts:12", "flatmc:12", "ismcts:12:hend", "flatmc:8:h1"])
def test_a_search_player_chooses_one_of_the_seats_legal_moves(game, name):
    for real, seat in positions(game, range(1), every=41 if game == "kk" else 97)[:4]:
        player = make_player(name, seed=3)
        action = decide(player, real, seat)
        assert action in real.legal_actions(seat)
        real.apply(action)  # and the engine takes it


def test_the_same_seed_makes_the_same_search():
    real, seat = positions("kk", range(1), every=41)[1]
    first = [decide(make_player("ismcts:30", 5), real, seat) for _ in range(2)]
    assert first[0] == first[1]


@pytest.mark.parametrize("game", ["kk", "up"])
def test_evaluate_gives_every_candidate_its_playouts_best_first(game):
    real, seat = positions(game, range(1), every=41 if game == "kk" else 97)[1]
    legal = real.legal_actions(seat)
    search = FlatMC(24, seed=1, width=4)
    evaluations = search.evaluate(real.view(seat), legal)
    tried = [e for e in evaluations if e.visits]
    assert sum(e.visits for e in tried) == search.iterations <= 24
    assert all(e.action in legal for e in evaluations)
    assert all(1 <= e.place <= len(real.players) and 0 <= e.wins <= 1 for e in tried)
    rewards = [e.reward for e in tried]
    assert rewards == sorted(rewards, reverse=True)


def test_KK_A2_a_search_tries_a_handful_of_bids_not_every_amount():
    real, seat = start("kk")
    evaluations = ISMCTS(40, seed=1).evaluate(real.view(seat), real.legal_actions(seat))
    assert 5 <= len(evaluations) <= 20 < len(real.legal_actions(seat))
    assert all(isinstance(e.action, Bid) for e in evaluations)


def test_ismcts_spends_at_most_its_budget_and_stops_once_settled():
    real, seat = positions("kk", range(1), every=41)[1]
    search = ISMCTS(200, seed=2)
    search.evaluate(real.view(seat), real.legal_actions(seat))
    assert 0 < search.iterations <= 200


def test_one_legal_move_needs_no_search():
    real, seat = positions("up", range(1), every=97)[0]
    search = ISMCTS(50, seed=1)
    only = real.legal_actions(seat)[:1]
    assert search.choose(real.view(seat), only) == only[0]
    assert search.iterations == 0


def test_budgets_and_names_are_checked_in_words():
    assert Budget.parse("200") == Budget(iterations=200)
    assert Budget.parse("1.5s") == Budget(seconds=1.5)
    for bad in ("", "lots", "0", "-3", "10000000", "0s", "9999s"):
        with pytest.raises(ValueError):
            Budget.parse(bad)
    for bad in ("", "alphazero", "ismcts:", "ismcts:ten", "ismcts:10:h0", "flatmc:10:deep", "x" * 200, "os.path"):
        with pytest.raises(ValueError):
            check_name(bad)
    assert check_name(" ismcts:10:h2 ") == "ismcts:10:h2"


def test_a_seconds_budget_is_kept():
    import time

    real, seat = positions("up", range(1), every=97)[1]
    search = ISMCTS("0.2s", seed=1)
    started = time.perf_counter()
    search.evaluate(real.view(seat), real.legal_actions(seat))
    assert search.iterations > 0
    assert time.perf_counter() - started < 5  # a budget, not a timing test: it stops by itself


def test_UP_B2_I1_a_search_weighs_kinds_of_move_before_places():
    """The root's candidates are every legal move once, the best of each kind first in the heuristic's order (a
    build's card and company, UP-B2; an investment's shares, UP-I1), then a second place for the same build."""
    from railkit.lab.rules import UP, _up_kind

    checked = 0
    for real, seat in positions("up", range(1), every=29):
        view, legal = real.view(seat), real.legal_actions(seat)
        if len(legal) < 20:
            continue
        policy = UP.policy(1)
        ordered = UP.view_candidates(view, legal, policy)
        assert sorted(map(repr, ordered)) == sorted(map(repr, legal))
        scores = dict(policy.scores(view, legal))
        assert scores[ordered[0]] == max(scores.values())
        kinds = [_up_kind(a) for a in ordered]
        distinct = len(set(kinds))
        assert len(set(kinds[:distinct])) == distinct  # every kind once before any kind twice
        checked += 1
    assert checked >= 4
