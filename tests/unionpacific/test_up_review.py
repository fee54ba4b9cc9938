"""review_moves: the heuristic player's judgement of one player's moves after a game."""

import re

import pytest

from railkit.unionpacific import Build, Invest, new_game
from railkit.unionpacific.bots import HeuristicBot, RandomBot, play_game
from railkit.unionpacific.review import MoveReview, review_moves, weak_margin


@pytest.fixture(scope="module")
def random_learner_game():
    game = new_game(["Kim", "Ann", "Ben"], seed=3)
    return play_game(game, {"Kim": RandomBot(1), "Ann": HeuristicBot(1), "Ben": HeuristicBot(2)})


def test_the_heuristic_players_own_moves_are_never_weak(random_learner_game):
    assert review_moves(random_learner_game, "Ann") == []
    assert review_moves(random_learner_game, "Ben") == []


def test_random_moves_are_often_weak_each_with_a_reason_naming_rules(random_learner_game):
    game = random_learner_game
    reviews = review_moves(game, "Kim")
    assert len(reviews) > 10
    for r in reviews:
        assert isinstance(r, MoveReview) and game.log[r.move] == r.action and r.action.player == "Kim"
        assert r.better != r.action and r.better.player == "Kim"
        assert r.gap > 0 and re.search(r"\(UP-[A-Z]\d", r.reason), r.reason
        assert r.played == game.describe(r.action) and r.instead == game.describe(r.better)
        assert str(r).startswith(f"Turn {r.turn}: Kim")
    assert [r.move for r in reviews] == sorted(r.move for r in reviews)  # game order


def test_the_better_move_was_legal_and_scored_higher_at_that_moment(random_learner_game):
    game = random_learner_game
    for r in review_moves(game, "Kim")[:8]:
        before = game.replay(r.move)
        assert r.better in before.legal_actions("Kim")
        scores = dict(HeuristicBot(0).scores(before, "Kim"))
        assert scores[r.better] - scores[r.action] > weak_margin(scores[r.better])


def test_limit_keeps_the_weakest_in_game_order(random_learner_game):
    every = review_moves(random_learner_game, "Kim")
    top = review_moves(random_learner_game, "Kim", limit=3)
    assert len(top) == 3 and [r.move for r in top] == sorted(r.move for r in top)
    assert min(r.gap for r in top) >= sorted((r.gap for r in every), reverse=True)[2]


def test_build_versus_invest_reasons_name_the_rules(random_learner_game):
    reasons = {(type(r.action), type(r.better)): r.reason for r in review_moves(random_learner_game, "Kim")}
    assert "UP-D2" in reasons[(Invest, Build)] and "UP-I4" in reasons[(Invest, Build)]
    assert "UP-D3..UP-D6" in reasons[(Build, Build)]


def test_scores_cover_every_legal_move_at_every_step():
    game = new_game(["Kim", "Ann"], seed=8)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.players)}
    for _ in range(60):
        player = game.players_to_act()[0]
        scored = HeuristicBot(0).scores(game, player)
        assert {a for a, _ in scored} == set(game.legal_actions(player))
        game.apply(bots[player].choose(game, player))


def test_a_stranger_is_refused(random_learner_game):
    with pytest.raises(ValueError, match="does not play"):
        review_moves(random_learner_game, "Zed")
