"""The Union Pacific engine as a whole: options, determinism, save/load, undo, views and the
bound helpers the notebooks use."""

from __future__ import annotations

import json
import random

import pytest

from railkit.errors import RuleError
from railkit.game import SaveFileError
from railkit.unionpacific import (
    OPTION_DEFAULTS,
    Build,
    ChooseFirstShare,
    Invest,
    PlacementExplanation,
    UnionPacificGame,
    explain_placement,
    load_game,
    new_game,
)
from railkit.unionpacific.bots import HeuristicBot, RandomBot, draws_before_next_dividend, play_game


def random_game(players=4, seed=0, actions=60, **options):
    game = new_game(players, seed=seed, **options)
    bot = RandomBot(seed)
    for _ in range(actions):
        if game.is_over:
            break
        p = game.players_to_act()[0]
        game.apply(bot.choose(game, p))
    return game


# -- options ---------------------------------------------------------------------------------------
def test_options_are_validated_and_stored_in_full():
    game = new_game(3, deck="finnish")
    assert game.options == {**OPTION_DEFAULTS, "deck": "finnish"}
    with pytest.raises(RuleError) as info:
        new_game(3, safe_rounds=True)
    assert "safe_round" in info.value.message and "the options are" in info.value.message
    with pytest.raises(RuleError) as info:
        new_game(3, deck="german")
    assert info.value.rule == "UP-S7"
    # one convention: a wrongly typed value is a TypeError, a value no rule allows a RuleError
    with pytest.raises(TypeError, match="countable_deck .UP-V3. must be true or false"):
        new_game(3, countable_deck="yes")
    with pytest.raises(TypeError):
        new_game(3, deck=3)
    with pytest.raises(TypeError):
        new_game(3, board=7)
    with pytest.raises(TypeError):
        new_game(3, seed="1")


def test_options_are_json_serializable():
    game = new_game(4, deck="dividend_cards", safe_round=True, direct_up_draw=False,
                    countable_deck=True, removed_to_bottom=True, public_money=False)
    assert json.loads(json.dumps(game.options)) == game.options


def test_board_option_loads_a_board_file(tmp_path):
    from railkit.paths import data_dir

    path = tmp_path / "board.json"
    path.write_text((data_dir() / "union_pacific" / "board.json").read_text())
    game = new_game(3, board=str(path))
    assert game.board.source == str(path)
    assert load_game(game.to_json()).options["board"] == str(path)


# -- determinism, save, undo ------------------------------------------------------------------------
def test_same_seed_and_actions_give_the_same_state():
    a = random_game(4, seed=12, actions=80)
    b = new_game(4, seed=12)
    for action in a.log:
        b.apply(action)
    assert a.state_dict() == b.state_dict()
    assert a.narrative == b.narrative
    assert new_game(4, seed=13).state.deck != new_game(4, seed=12).state.deck


def test_save_and_load_round_trip():
    game = random_game(5, seed=3, actions=120, safe_round=True)
    text = game.to_json()
    again = load_game(text)
    assert again.state_dict() == game.state_dict()
    assert load_game(json.loads(text)).state_dict() == game.state_dict()
    assert UnionPacificGame.from_json(text).state_dict() == game.state_dict()


def test_undo_equals_replay_of_the_shorter_log():
    game = random_game(3, seed=5, actions=70)
    for count in (1, 2, 7):
        undone = game.undo(count)
        assert undone.state_dict() == game.replay(len(game.log) - count).state_dict()
        assert len(undone.log) == len(game.log) - count
    assert game.undo(0).state_dict() == game.state_dict()
    with pytest.raises(ValueError):
        game.undo(len(game.log) + 1)


def test_load_game_errors_are_save_file_errors():
    game = random_game(3, seed=1, actions=10)
    data = game.to_dict()
    with pytest.raises(SaveFileError):
        load_game("{not json")
    with pytest.raises(SaveFileError):
        load_game({**data, "game": "cape_to_cairo"})
    with pytest.raises(SaveFileError):
        load_game({**data, "options": {"deck": "german"}})
    with pytest.raises(SaveFileError):
        load_game({**data, "players": ["Solo"]})
    broken = dict(data)
    broken["actions"] = data["actions"] + [{"type": "invest", "player": "Player 1", "cards": ["XX"], "discard": "plains"}]
    with pytest.raises(SaveFileError) as info:
        load_game(broken)
    assert f"move {len(data['actions']) + 1}" in str(info.value)
    with pytest.raises(SaveFileError):
        load_game({**data, "actions": [{"type": "fly"}]})


def test_invest_cards_survive_json_as_tuples():
    game = new_game(2, seed=0)
    for p in game.players:
        game.apply(ChooseFirstShare(p, sorted(game.state.share_hand[p])[0]))
    p = game.current_player
    key = sorted(game.state.share_hand[p])[0]
    game.apply(Invest(p, (key,), sorted(game.state.track_hand[p])[0]))
    again = load_game(game.to_json())
    assert again.log[-1] == game.log[-1] and isinstance(again.log[-1].cards, tuple)


# -- views ---------------------------------------------------------------------------------------------
def test_view_shows_only_what_the_player_may_know():
    game = random_game(4, seed=2, actions=40)
    p, q = game.players[:2]
    mine = game.view(p)
    assert mine.hand.shares == game.state.share_hand[p]
    assert mine.hand.track == game.state.track_hand[p]
    sent = mine.to_json()
    assert json.loads(json.dumps(sent))["hand"] == {"shares": mine.hand.shares, "track": mine.hand.track}
    hidden = {"share_hands", "track_hands", "deck", "reserve", "box", "track_pile", "first_choices", "seed"}
    assert not hidden & set(sent)
    assert mine.deck_count is None and mine.up_stack == game.state.up_stack
    assert mine.trains_on and mine.supply == dict(game.state.net.supply)
    assert mine.current_player == game.current_player and mine.phase == game.state.step
    spectator = game.view(None)
    assert spectator.hand is None and spectator.legal_actions == ()
    json.dumps(game.state_dict())
    with pytest.raises(ValueError):
        game.view("Nobody")


def test_players_to_act_during_the_simultaneous_first_investment():
    game = new_game(4)
    assert game.players_to_act() == game.players and game.current_player == game.players[0]
    for p in game.players:
        assert all(isinstance(a, ChooseFirstShare) and a.player == p for a in game.legal_actions(p))


def test_legal_placements_and_explain_placement_are_bound_to_the_state():
    game = random_game(4, seed=4, actions=30)
    while game.state.step != "action":
        game.apply(RandomBot(1).choose(game, game.current_player))
    builds = game.legal_placements()
    assert builds and all(isinstance(b, Build) for b in builds)
    b = builds[0]
    ex = game.explain_placement(b.company, b.section, b.card)
    assert isinstance(ex, PlacementExplanation) and ex.legal
    direct = explain_placement(game.board, game.state.net.trains_on, game.state.net.supply, b.company, b.section, b.card)
    assert ex == direct
    assert game.legal_placements(game.players[(game.state.turn_index + 1) % 4]) == []


def test_every_legal_action_is_accepted_and_nothing_else_of_its_kind():
    game = random_game(4, seed=6, actions=50)
    for action in game.legal_actions():
        assert game.is_legal(action)


# -- bots ------------------------------------------------------------------------------------------------
def test_bots_finish_games_and_are_reproducible():
    def run(seed):
        game = new_game(4, seed=seed)
        bots = {p: (HeuristicBot(seed) if i == 1 else RandomBot(seed + i)) for i, p in enumerate(game.players)}
        return play_game(game, bots)

    a, b = run(3), run(3)
    assert a.is_over and a.state_dict() == b.state_dict()


def test_next_dividend_estimate_uses_the_deck_layout():
    game = new_game(4, countable_deck=True)
    # standard deck: six dividend-free cards, then 18 + 1 dividend: expect 6 + 19 / 2
    assert draws_before_next_dividend(game) == pytest.approx(6 + 19 / 2)
    game = new_game(4)
    assert draws_before_next_dividend(game, known_draws=6) == pytest.approx(19 / 2)


def test_play_game_stops_at_max_actions():
    with pytest.raises(RuntimeError):
        play_game(new_game(3), {p: RandomBot(0) for p in new_game(3).players}, max_actions=5)


def test_random_illegal_actions_never_change_the_state():
    rng = random.Random(9)
    game = random_game(3, seed=9, actions=90)
    before = game.state_dict()
    for _ in range(300):
        p = rng.choice(game.players)
        action = Invest(p, tuple(rng.choice(["BNL", "UP", "DM", "zz"]) for _ in range(rng.randint(0, 3))),
                        rng.choice(["plains", "general", "lava"]))
        try:
            game.check(action)
        except RuleError:
            pass
        assert game.state_dict() == before


def test_uploaded_save_naming_a_board_file_is_refused():
    """A save from outside may not make the server open a file of its choosing."""
    game = new_game(3, seed=2)
    data = {**game.to_dict(), "options": {**game.options, "board": "/etc/passwd"}}
    with pytest.raises(SaveFileError, match="names a file on the computer"):
        type(game).load(data, allow_files=False)
    assert type(game).load(game.to_dict(), allow_files=False).state_dict() == game.state_dict()


def test_a_save_naming_a_key_twice_is_refused_naming_the_key():
    """``"game": "junk", "game": …`` must not load as the second (JSON would keep the last silently)."""
    text = random_game(3, seed=1, actions=10).to_json()
    assert text.startswith("{")
    twice = '{"seed": 999, ' + text[1:]
    with pytest.raises(SaveFileError, match="the key 'seed' appears twice in one object"):
        load_game(twice)
    assert load_game(text).seed == 1
