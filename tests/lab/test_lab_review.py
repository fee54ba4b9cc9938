"""A game's review by the search player (railkit/lab/review.py): each of the seat's decisions, the move made against
the best, marked by the loss; read from the seat's views alone."""

from __future__ import annotations

import random

import pytest
from lab_positions import positions
from test_lab_fair_players import kk_hide_differently, up_hide_differently

from railkit.bots import decide, play_game, seated
from railkit.lab.players import make_player
from railkit.lab.review import MARKS, mark_for, review_decision, review_game
from railkit.lab.rules import GAMES
from railkit.unionpacific.actions import ChooseFirstShare

SMALL = "ismcts:12"  # a small search: the test checks what a review says, not how strong it is


def test_marks_grow_with_the_loss_and_none_without_one():
    assert mark_for(0.0, 0.0) == ""
    grid = [x / 20 for x in range(0, 31)]
    for win in grid:
        levels = [MARKS.index(mark_for(win, place)) for place in grid]
        assert levels == sorted(levels)  # more places lost: never a milder mark
    for place in grid:
        levels = [MARKS.index(mark_for(win, place)) for win in grid]
        assert levels == sorted(levels)
    assert (mark_for(0.1, 0), mark_for(0.2, 0), mark_for(0.3, 0), mark_for(0, 1.0)) == (
        "inaccuracy", "mistake", "blunder", "blunder")


def heuristic_game(game: str, seed: int, players: int, moves: int | None = None, **options):
    g = GAMES[game].cls([f"P{i}" for i in range(players)], seed=seed, **options)
    g.narrate = False
    bots = [make_player("heuristic", seed + i) for i in range(players)]
    if moves is None:
        return play_game(g, [seated(b) for b in bots])
    for _ in range(moves):
        seat = g.players_to_act()[0]
        g.apply(decide(bots[g.players.index(seat)], g, seat))
    return g


@pytest.mark.parametrize("game, length", [("kk", None), ("up", 40)])
def test_KK_UP_a_review_evaluates_each_decision_of_the_seat_best_move_loses_nothing(game, length):
    options = {"win_crossings": 3} if game == "kk" else {}
    g = heuristic_game(game, 5, 3, length, **options)
    seen = []
    review = review_game(g, "P1", player=SMALL, progress=lambda done, total: seen.append((done, total)))
    assert review.decisions and seen[0] == (0, len(review.decisions)) and seen[-1][0] == len(review.decisions)
    for d in review.decisions:
        assert g.log[d.move - 1] == d.made and d.made.player == "P1"  # the move made, from the log
        assert d.mark == mark_for(d.win_loss, d.place_loss)
        if d.is_best:
            assert (d.win_loss, d.place_loss, d.mark, d.why) == (0, 0, "", None)
        else:
            assert d.why is not None and ("KK-" in str(d.why) or "UP-" in str(d.why))  # the rules behind it
        assert 0 <= d.win_chance <= 1 and 1 <= d.best_eval.place <= 3
        assert ("KK-" if game == "kk" else "UP-") in str(d.made_words)
    if game == "kk":
        assert g.is_over and 1 <= review.place <= 3


@pytest.mark.parametrize("game, hide", [("kk", kk_hide_differently), ("up", up_hide_differently)])
def test_KK_A2_UP_I2_another_seats_hidden_cards_change_no_decisions_review(game, hide):
    """A decision's review reads the seat's view only: other hands, the deck and sealed bids dealt differently
    (the seat sees the same) review it alike."""
    rng = random.Random(5)
    found = positions(game, range(1), every=23 if game == "kk" else 53)
    for real, seat in found[:3 if game == "kk" else 2]:
        other = hide(real, seat, rng)
        assert other.state_dict() != real.state_dict() and other.view(seat) == real.view(seat)
        legal = real.legal_actions(seat)
        made = legal[-1]
        assert (review_decision(other.view(seat), legal, made, 7, seed=3, player=SMALL)
                == review_decision(real.view(seat), legal, made, 7, seed=3, player=SMALL))


def test_UP_S5_a_face_down_first_share_is_named_to_its_own_seat_only_in_the_review():
    g = heuristic_game("up", 2, 3, 0)
    seat = g.players_to_act()[0]
    legal = g.legal_actions(seat)
    d = review_decision(g.view(seat), legal, legal[0], 1, player=SMALL)
    assert isinstance(d.made, ChooseFirstShare) and "face down (UP-S5)" in str(d.made_words)


def test_a_move_that_was_not_legal_is_refused():
    g = heuristic_game("kk", 1, 3, 0)
    seat = g.players_to_act()[0]
    other = next(p for p in g.players if p != seat)
    with pytest.raises(ValueError, match="not legal"):
        review_decision(g.view(seat), g.legal_actions(seat), g.legal_actions(other)[0], player=SMALL)
