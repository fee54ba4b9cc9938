"""The whole state is one ``KKState``; copies, pickles and deep copies of a game evolve on their own."""

import copy
import pickle
import time

import pytest

from railkit.capecairo import Bid, KKState, new_game
from railkit.capecairo.bots import HeuristicBot, RandomBot


def advanced(players=3, seed=11, moves=70):
    game = new_game(players, seed=seed)
    bots = [RandomBot(seed + i) if i % 2 else HeuristicBot(seed + i) for i in range(players)]
    for _ in range(moves):
        player = game.current_player
        game.apply(bots[game.players.index(player)].choose(game, player))
    assert not game.is_over
    return game, bots


def finish(game, seed=3):
    bots = [RandomBot(seed + i) for i in range(len(game.players))]
    while not game.is_over:
        player = game.current_player
        game.apply(bots[game.players.index(player)].choose(game, player))
    return game


def test_KK_S1_state_is_one_dataclass_handed_out_as_a_copy():
    game, _ = advanced()
    assert isinstance(game.state, KKState)
    assert game.state == game.state and game.state.money is not game.state.money  # a fresh copy each time
    assert game.phase == game.state.phase
    assert game.table.cards is game.table.cards  # the deck data is the table's, shared
    before = game.state_dict()
    seen = game.state
    seen.money.clear()
    seen.queues.clear()
    seen.offer.append("R01")
    assert game.state_dict() == before  # the state is changed by actions only
    with pytest.raises(AttributeError):
        game.state = seen
    with pytest.raises(AttributeError):
        game.money  # noqa: B018 - the pass-through names are gone: read game.state
    assert isinstance(game.log, tuple)


@pytest.mark.parametrize("make_copy", [
    lambda g: g.copy(),
    copy.copy,
    copy.deepcopy,
    lambda g: pickle.loads(pickle.dumps(g)),
], ids=["copy", "copy.copy", "deepcopy", "pickle"])
def test_a_copy_continues_identically_and_independently(make_copy):
    game, _ = advanced()
    twin = make_copy(game)
    assert twin.state_dict() == game.state_dict() and twin.narrative == game.narrative
    assert twin.log == game.log and twin.state is not game.state
    finish(twin, seed=5)
    assert len(twin.log) > len(game.log) and game.state_dict() != twin.state_dict()
    # the original is untouched and, played the same way, reaches the same end
    assert finish(game, seed=5).state_dict() == twin.state_dict()
    assert game.narrative == twin.narrative and game.result() == twin.result()


def test_a_copy_shares_the_cards_and_matches_a_replay():
    game, _ = advanced(4, seed=2, moves=60)
    twin = game.copy()
    assert twin.table is game.table and twin.card("R01") is game.card("R01")
    assert copy.deepcopy(game).table is game.table  # immutable: never copied
    assert twin.state_dict() == game.replay().state_dict()
    # reshuffles come from the copied random generator, not the original one
    finish(game, seed=9)
    finish(twin, seed=9)
    assert twin.state_dict() == game.state_dict()


def test_copy_is_much_faster_than_replay():
    game, _ = advanced(4, seed=4, moves=60)
    start = time.perf_counter()
    for _ in range(20):
        game.copy()
    fast = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(20):
        game.replay()
    slow = time.perf_counter() - start
    assert fast * 3 < slow


def test_state_dict_is_json_and_copying_a_state_keeps_bids_sealed_apart():
    import json

    game = new_game(["Ann", "Bob"], seed=1, stack=["V01", "S09"])
    game.apply(Bid("Ann", 7))
    data = game.state_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["pending_bids"] == {"Ann": 7} and data["options"]["stack"] == ["V01", "S09"]
    state = game.state.copy()
    state.bids["Ann"] = 1
    state.money["Bob"] = 0
    assert game.state.bids == {"Ann": 7} and game.state.money["Bob"] == 100
    assert state == state.copy() and state != game.state  # equality ignores the generator object
