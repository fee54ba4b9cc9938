"""review_moves: the learner's moves the heuristic player judges weak, in words with
rule IDs; the heuristic player's own moves are never listed."""

from __future__ import annotations

import pytest

from railkit.capecairo import Bid, Build, Choose, Pass, new_game
from railkit.capecairo.bots import HeuristicBot, RandomBot, play_game
from railkit.capecairo.review import WeakMove, review_moves


def _random_learner_game(seed: int):  # type: ignore[no-untyped-def]
    game = new_game(["You", "Ann", "Ben"], seed=seed)
    play_game(game, [RandomBot(seed), HeuristicBot(1), HeuristicBot(2)])
    return game


def test_review_lists_weak_moves_of_a_random_player_with_rule_ids() -> None:
    found: list[WeakMove] = []
    for seed in range(3):
        game = _random_learner_game(seed)
        weak = review_moves(game, "You")
        for w in weak:
            assert game.log[w.move - 1] == w.action and w.action.player == "You"
            assert "(KK-" in w.reason and str(w).startswith(f"Move {w.move}: ")
        assert [w.move for w in weak] == sorted(w.move for w in weak)
        found += weak
    kinds = {type(w.action) for w in found}
    assert {Bid, Build, Pass} <= kinds or {Bid, Choose, Pass} <= kinds


@pytest.mark.parametrize("seed", range(4))
def test_the_heuristic_players_own_moves_are_never_judged_weak(seed: int) -> None:
    game = new_game(["You", "Ann", "Ben"], seed=seed)
    play_game(game, [HeuristicBot(seed), HeuristicBot(1), HeuristicBot(2)])
    for p in game.players:
        assert review_moves(game, p) == []


def test_KK_A3_a_big_bid_is_weak_with_the_reason() -> None:
    game = new_game(["You", "Ann"], seed=1)
    game.apply(Bid("You", 60))
    (weak,) = review_moves(game, "You")
    assert weak.move == 1 and "60 pounds out of your 100" in weak.reason and "KK-A3" in weak.reason
    assert review_moves(game, "Ann") == []  # no move of Ann's yet


def test_review_names_only_players_of_the_game() -> None:
    with pytest.raises(ValueError, match="does not play"):
        review_moves(new_game(["You", "Ann"], seed=1), "Zed")


def test_KK_E1_passing_up_a_winning_crossing_is_weak() -> None:
    game = new_game(["You", "Ann"], seed=3, win_crossings=1)
    bots = [HeuristicBot(0), HeuristicBot(1)]
    while not game.is_over:
        p = game.current_player
        nums = game.build_numbers(p) if game.phase == "build" else None
        if p == "You" and nums is not None and nums.card is not None and nums.can_afford:
            game.apply(Pass("You"))
            break
        game.apply(bots[game.players.index(p)].choose(game, p))
    weak = review_moves(game, "You")
    if game.log[-1] == Pass("You"):
        assert weak and "would have won the game (KK-E1" in weak[-1].reason
