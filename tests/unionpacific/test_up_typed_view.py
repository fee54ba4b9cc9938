"""``UPView`` is typed end to end (issue 18): the options a seat sees are ``UPOptions`` and its legal moves the
engine's own frozen actions, in the engine and again in a table client (``from_json``), while the JSON the
table server sends keeps the save file's shapes (options as an object, moves as ``{"type": ...}``)."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from railkit.unionpacific import OPTION_DEFAULTS, UnionPacificGame, new_game
from railkit.unionpacific.actions import Build, ChooseFirstShare, registry
from railkit.unionpacific.bots import RandomBot
from railkit.unionpacific.views import UPOptions, UPView


def test_UP_V_the_typed_options_name_every_option_in_order():
    assert [f.name for f in fields(UPOptions)] == list(OPTION_DEFAULTS)


@pytest.mark.parametrize("options", [{}, {"deck": "finnish", "safe_round": True, "countable_deck": True,
                                           "direct_up_draw": False, "public_money": False}])
def test_UP_V_a_view_shows_the_games_options_typed_and_sends_them_as_the_options_object(options):
    game = new_game(3, seed=4, **options)
    view = game.view(game.players[0])
    assert isinstance(view.options, UPOptions)
    assert view.options == UPOptions.of(game.options)
    assert view.options.countable_deck is game.options["countable_deck"]  # UP-V3
    assert view.to_json()["options"] == game.options
    assert game.state_dict()["options"] == game.options


def test_UP_S5_UP_B1_a_seats_legal_moves_are_the_engines_actions_and_travel_as_save_file_moves():
    game, bot = new_game(3, seed=8), RandomBot(8)
    seen_builds = False
    for _ in range(40):
        seat = game.players_to_act()[0]
        view = game.view(seat)
        assert view.legal_actions == tuple(game.legal_actions(seat))
        assert all(registry.knows(a) for a in view.legal_actions)
        if game.state.step == "first_share":  # UP-S5: every move is a choice of one's own shares
            assert all(isinstance(a, ChooseFirstShare) and a.player == seat for a in view.legal_actions)
        seen_builds |= any(isinstance(a, Build) for a in view.legal_actions)
        sent = json.loads(json.dumps(view.to_json()))
        assert sent["legal_actions"] == [registry.to_dict(a) for a in view.legal_actions]
        assert all(a["type"] in registry.names() for a in sent["legal_actions"])
        again = UPView.from_json(sent)
        assert again == view and again.legal_actions == view.legal_actions
        assert game.view(None).legal_actions == ()  # a spectator has no moves
        game.apply(bot.choose(game, seat))
    assert seen_builds


def test_UP_B1_a_sent_move_that_is_not_a_union_pacific_action_is_refused_in_words():
    game = new_game(3, seed=1)
    sent = game.view(game.players[0]).to_json()
    sent["legal_actions"] = [{"type": "teleport", "player": game.players[0]}]
    with pytest.raises(ValueError) as refused:
        UPView.from_json(sent)
    assert "teleport" in str(refused.value)


def test_UP_S5_a_legal_move_read_back_from_json_is_applied_by_the_engine():
    game = new_game(3, seed=2)
    seat = game.players[0]
    move = UPView.from_json(json.loads(json.dumps(game.view(seat).to_json()))).legal_actions[0]
    game.apply(move)
    assert game.log[-1] == move and isinstance(game, UnionPacificGame)
