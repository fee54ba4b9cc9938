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


@pytest.mark.parametrize("players", [2, 4])
def test_a_quiet_game_explains_its_payouts_as_a_narrated_one_when_read(players):
    """Nobody narrates a bots' game: its payout explanations are worked out when read, the same as in a
    narrated game (in the state and in the narrative)."""
    from railkit.unionpacific.bots import RandomBot, play_game
    quiet, loud = new_game(players, seed=3), new_game(players, seed=3)
    quiet.narrate = False
    play_game(quiet, [RandomBot(i) for i in range(players)])
    play_game(loud, [RandomBot(i) for i in range(players)])
    assert quiet.log == loud.log
    for q, n in zip(quiet.state.payouts, loud.state.payouts, strict=True):
        assert q == n and tuple(q.explanations) == n.explanations
        assert [str(e) for e in q.explanations] == [str(e) for e in n.explanations]
    assert quiet.narrative == loud.narrative
    assert all(type(e) is not str or e == n for e, n in zip(quiet.narrative, loud.narrative, strict=True))


@pytest.mark.parametrize("seed", range(2))
def test_a_heuristic_move_skips_only_its_own_check(seed):
    """A HeuristicBot's move is one of the legal moves, so ``apply`` of it skips the second check; any other
    action made right after ``choose`` is still checked and refused (here: another player's turn)."""
    import dataclasses

    from railkit.errors import RuleError
    from railkit.unionpacific.bots import HeuristicBot
    game = new_game(3, seed=seed)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.players)}
    refused = 0
    while not game.is_over:
        player = game.players_to_act()[0]
        action = bots[player].choose(game, player)
        assert game.is_legal(action)
        if game._state.step == "action" and refused < 3:
            other = game.players[(game.players.index(player) + 1) % len(game.players)]
            before = game.state_dict()
            with pytest.raises(RuleError):
                game.apply(dataclasses.replace(action, player=other))
            assert game.state_dict() == before
            refused += 1
            action = bots[player].choose(game, player)
        game.apply(action)
    assert refused == 3
