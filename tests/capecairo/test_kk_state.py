"""The whole state is one ``KKState``; copies, pickles and deep copies of a game evolve on their own."""

import copy
import dataclasses
import pickle

import pytest
from state_copy import check_copy_over_every_field

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


@pytest.mark.parametrize("players, seed, moves", [(4, 4, 60), (3, 11, 70), (2, 7, 25)])
def test_copy_copies_every_field_of_the_state(players, seed, moves):
    """Every field of ``KKState`` (from ``dataclasses.fields``: a new field is checked too) is equal right after
    ``copy()``, and changing any field of the copy in place leaves the original as it was (the card ids are
    strings; the table is not part of the state). Speed: benchmarks/state_copy.py."""
    game, _ = advanced(players, seed=seed, moves=moves)
    twin = game.copy()
    names = check_copy_over_every_field(game._state, twin._state)
    assert {"rng", "deck", "queues", "bids", "last_auction"} <= set(names)
    assert len(names) == len(dataclasses.fields(KKState))
    assert twin.log is not game.log


def test_the_copy_check_fails_on_a_field_that_copy_shares():
    game, _ = advanced()
    assert game._state.last_auction is not None
    shallow = dataclasses.replace(game._state)  # a new state object holding the very same lists and dicts
    with pytest.raises(AssertionError, match="changing the copy's rng changed the original's rng"):
        check_copy_over_every_field(game._state, shallow)
    game, _ = advanced()  # a fresh game: the shared fields above were changed through the shallow copy
    record = game._state.copy()
    record.last_auction = game._state.last_auction  # the auction record shared, everything else copied
    with pytest.raises(AssertionError, match="changing the copy's last_auction changed the original's last_auction"):
        check_copy_over_every_field(game._state, record)


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
