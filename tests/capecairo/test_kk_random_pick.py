"""``random_action`` draws exactly as ``rng.choice(legal_actions(...))`` would (a building turn is drawn over the
count of its moves, a sealed bid over the amounts), and ``apply`` of the move it drew plays the same game."""

from __future__ import annotations

import random

import pytest

from railkit.capecairo import new_game


@pytest.mark.parametrize("seed", range(6))
def test_random_action_draws_what_choice_over_the_list_draws(seed):
    game, twin = new_game(4, seed=seed), new_game(4, seed=seed)
    picks, listed_picks = random.Random(seed), random.Random(seed)
    while not game.is_over:
        player = game.players_to_act()[0]
        action = game.random_action(player, picks)
        if game.phase == "bid":
            assert action in twin.legal_actions(player)
            listed_picks.randint(0, twin.state.money[player])  # the bid is drawn the same way
        else:
            assert action == listed_picks.choice(twin.legal_actions(player))
        game.apply(action)
        twin.apply(action)
    assert game.state_dict() == twin.state_dict() and game.narrative == twin.narrative


def test_a_drawn_move_is_checked_once_it_is_not_the_drawn_one_any_more():
    """``apply`` skips the check only for the very move ``random_action`` just drew, at that point of the game."""
    from railkit.errors import RuleError
    game = new_game(2, seed=1)
    rng = random.Random(0)
    first = game.random_action(game.players_to_act()[0], rng)
    game.apply(first)
    with pytest.raises(RuleError):
        game.apply(first)  # the same bid again: checked now, and refused (KK-A2)
