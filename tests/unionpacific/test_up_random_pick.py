"""``random_action`` draws exactly as ``rng.choice(legal_actions(...))`` would, without listing every move.

The action step's moves are counted part by part and only the one drawn is built; these tests compare
that sequence item by item with the listed moves, and whole games played both ways, move for move.
"""

from __future__ import annotations

import random

import pytest

from railkit.unionpacific import new_game
from railkit.unionpacific.moves import ActionStepMoves, legal_actions


@pytest.mark.parametrize("seed", range(6))
def test_the_counted_action_step_lists_the_same_moves(seed):
    game = new_game(3 + seed % 2, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        player = game.players_to_act()[0]
        listed = game.legal_actions(player)
        state = game._state
        if state.step == "action":
            counted = ActionStepMoves(state, game._cache, player)
            assert len(counted) == len(listed)
            assert [counted[i] for i in range(len(counted))] == listed
        game.apply(rng.choice(listed))


@pytest.mark.parametrize("seed", range(4))
def test_random_action_draws_what_choice_over_the_list_draws(seed):
    game = new_game(4, seed=seed)
    twin = new_game(4, seed=seed)
    picks, listed_picks = random.Random(seed), random.Random(seed)
    while not game.is_over:
        player = game.players_to_act()[0]
        action = game.random_action(player, picks)
        assert action == listed_picks.choice(legal_actions(twin._state, twin._cache, player))
        game.apply(action)
        twin.apply(action)
    assert game.state_dict() == twin.state_dict()
