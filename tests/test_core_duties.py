"""The duties both engines share, done once in the core: whose turn, game over, outside values in
messages, replay/undo, copies that share nothing mutable, the state handed out as a copy."""

import dataclasses

import pytest

from railkit import bots
from railkit.capecairo import Bid, Choose
from railkit.capecairo import new_game as new_kk
from railkit.capecairo.bots import RandomBot as KKRandomBot
from railkit.errors import GameOverError, HistoryError, NotYourTurnError, RuleError
from railkit.unionpacific import Pass, new_game
from railkit.unionpacific.bots import RandomBot as UPRandomBot

TURN = "it is {current}'s turn to {task}, not {player}'s; wait for your turn"


def finished(game):
    return bots.play_game(game, [bots.RandomBot(i) for i in range(len(game.players))])


def test_one_bot_protocol_random_bot_and_play_game_for_both_games():
    assert UPRandomBot is KKRandomBot is bots.RandomBot
    up, kk = finished(new_game(3, seed=1)), finished(new_kk(3, seed=1))
    assert up.is_over and kk.is_over


@pytest.mark.parametrize("make", [lambda: finished(new_game(2, seed=4)), lambda: finished(new_kk(2, seed=4))])
def test_game_over_is_one_error_for_both_games(make):
    game = make()
    before = game.state_dict()
    action = game.registry.from_dict({"type": "pass", "player": game.players[0], "discard": "x"}) \
        if game.GAME == "union_pacific" else Bid(game.players[0], 0)
    with pytest.raises(GameOverError) as caught:
        game.apply(action)
    assert caught.value.message.msgid == "the game is over; no more moves can be made"
    assert game.state_dict() == before


def test_whose_turn_is_one_error_for_both_games():
    up = new_game(["Ann", "Bob"], seed=2)
    for p in up.players:  # the first shares are chosen at once (UP-S5)
        up.apply(up.legal_actions(p)[0])
    kk = new_kk(["Ann", "Bob"], seed=2)
    kk.apply(Bid("Ann", 3))
    kk.apply(Bid("Bob", 1))
    for game, other in ((up, "Bob"), (kk, "Bob")):
        before = game.state_dict()
        wrong = Pass(other, "x") if game is up else Choose(other, game.state.offer[0])
        with pytest.raises(NotYourTurnError) as caught:
            game.apply(wrong)
        assert caught.value.message.msgid == TURN and game.state_dict() == before
        # the refusal names the step the table is at, so the learner knows what the others wait for
        assert "Ann's turn to " + ("build, invest or pass (UP-T3)" if game is up else "choose a terrain card (KK-A4)") \
            in str(caught.value)


def test_a_huge_number_in_an_action_is_named_not_printed():
    for game, action in ((new_game(2), Pass(player=10**5000, discard="x")), (new_kk(2), Bid("Player 1", 10**5000))):
        with pytest.raises(RuleError, match="a number of about 5,001 digits"):
            game.apply(action)


def test_replay_and_undo_raise_history_errors():
    game = new_kk(2, seed=1)
    with pytest.raises(HistoryError):
        game.undo(1)
    with pytest.raises(HistoryError):
        game.replay(10**5000)
    with pytest.raises(TypeError):
        game.undo("1")


@pytest.mark.parametrize("make", [lambda: new_game(["Ann", "Bob"], seed=1), lambda: new_kk(["Ann", "Bob"], seed=1)],
                         ids=["UP", "KK"])
def test_replay_undo_and_view_refuse_with_railkit_errors_in_translated_words(make):
    from railkit.messages import Message
    from railkit.ui import i18n

    game = make()
    refusals = {"undo": (lambda: game.undo(1), HistoryError), "replay": (lambda: game.replay(-1), HistoryError),
                "undo a word": (lambda: game.undo("1"), TypeError),
                "a stranger's view": (lambda: game.view("Cy"), RuleError),
                "a number's view": (lambda: game.view(5), TypeError)}
    previous = i18n.get_language()
    for what, (call, error) in refusals.items():
        with pytest.raises(error) as caught:
            call()
        words = caught.value.message if isinstance(caught.value, RuleError) else caught.value.args[0]
        assert isinstance(words, Message), what
        try:
            i18n.set_language("fi")
            finnish = i18n.render(words)
        finally:
            i18n.set_language(previous)
        assert finnish and finnish != str(words), (what, finnish)
    assert game.log == ()  # nothing was changed


def mutable_parts(value, found):
    if isinstance(value, (str, int, float, bool, type(None), frozenset)):
        return found
    if not isinstance(value, tuple) and not (dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen):
        found.add(id(value))
    if isinstance(value, dict):
        for v in value.values():
            mutable_parts(v, found)
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            mutable_parts(v, found)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            mutable_parts(getattr(value, f.name), found)
    return found


@pytest.mark.parametrize("make", [lambda: finished(new_game(2, seed=3)), lambda: finished(new_kk(3, seed=3))])
def test_copy_and_the_public_state_share_nothing_mutable(make):
    game = make()
    live = mutable_parts(game._state, set())
    assert not live & mutable_parts(game.copy()._state, set())
    assert not live & mutable_parts(game.state, set())
    assert game.copy().options is not game.options
    assert isinstance(game.log, tuple)


@pytest.mark.parametrize("make", [lambda: new_game(3, seed=6), lambda: new_kk(3, seed=6)])
def test_a_view_sent_as_json_reads_back_as_the_same_typed_view(make):
    """A table client draws a seat's view with the lessons' own functions: the JSON the server sends becomes
    the typed view again, equal to the one the engine made, at every step of a game and for a spectator."""
    game, bot = make(), bots.RandomBot(6)
    kind = type(game.view(None))
    while not game.is_over:
        for seat in (*game.players, None):
            view = game.view(seat)
            assert kind.from_json(view.to_json()) == view
        player = game.players_to_act()[0]
        game.apply(bot.choose(game, player))
