"""The computer players: always legal, never reading sealed bids, and the heuristic beats random."""

from pathlib import Path

import pytest

from railkit.capecairo import Bid, Build, Choose, Pass, new_game
from railkit.capecairo.bots import HeuristicBot, RandomBot, play_game

DECK = str(Path(__file__).parent / "fixtures" / "kk_test_deck.json")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_always_choose_legal_actions(players):
    for seed in range(15):
        game = new_game(players, seed=seed)
        bots = [HeuristicBot(seed + i) if i % 2 else RandomBot(seed + i) for i in range(players)]
        while not game.is_over:
            player = game.current_player
            action = bots[game.players.index(player)].choose(game, player)
            assert game.is_legal(action), action
            game.apply(action)


def test_heuristic_bot_ignores_other_players_sealed_bids():
    game = new_game(3, seed=4)
    game.apply(Bid("Player 1", 90))
    bot_a, bot_b = HeuristicBot(7), HeuristicBot(7)
    first = bot_a.choose(game, "Player 2")
    game._state.bids["Player 1"] = 0  # a different secret must not change the decision
    assert bot_b.choose(game, "Player 2") == first


def test_heuristic_bot_bids_within_its_means():
    game = new_game(2, seed=3)
    bid = HeuristicBot(1).choose(game, "Player 1")
    assert isinstance(bid, Bid) and 0 <= bid.amount <= game.state.money["Player 1"] // 5


@pytest.mark.parametrize("win_crossings, expected", [(1, Build("Ann", 7)), (8, Pass("Ann"))])
def test_heuristic_bot_builds_when_it_pays_or_wins(win_crossings, expected):
    # Ann's river R08 (3 pieces, coin 6) with S03 (no pieces) turned up: 7 pieces to buy for 70
    game = new_game(["Ann", "Bob"], deck=DECK, stack=["R08", "S01", "S03"], win_crossings=win_crossings)
    for action in (Bid("Ann", 1), Bid("Bob", 0), Choose("Ann", "R08")):
        game.apply(action)
    assert HeuristicBot(0).choose(game, "Ann") == expected


def test_play_game_plays_to_the_end_and_accepts_a_mapping():
    game = new_game(["Ann", "Bob"], seed=9)
    result = play_game(game, {"Ann": HeuristicBot(1), "Bob": RandomBot(2)}).result()
    assert result.is_over and result.end_reason in ("KK-E1", "KK-B8")
    with pytest.raises(ValueError, match="no bot for Bob"):
        play_game(new_game(["Ann", "Bob"]), {"Ann": RandomBot(1)})


def test_heuristic_bot_wins_most_games_against_random_players():
    wins = 0
    games = 60
    for seed in range(games):
        game = new_game(3, seed=seed)
        seat = seed % 3
        bots = [HeuristicBot(seed) if i == seat else RandomBot(seed * 10 + i) for i in range(3)]
        result = play_game(game, bots).result()
        wins += game.players[seat] in result.winners
    assert wins / games > 0.5  # a third would be chance
