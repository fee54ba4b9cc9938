"""railkit.session headless (no widgets): seats and hot seat, the computer players and their limit,
misbehaving bots, human moves, undo by replay, save and load with the seats, and one plain message per
broken save — with both engines."""

import json

import pytest

from railkit.capecairo import Bid, CapeToCairoGame
from railkit.capecairo import new_game as kk_game
from railkit.capecairo.bots import HeuristicBot as KkBot
from railkit.errors import RuleError, SaveFileError
from railkit.game import MAX_SAVE_BYTES
from railkit.session import (
    LEGACY_SEATS_KEY,
    SESSION_FORMAT,
    BotError,
    Session,
    SessionError,
    position_bots,
    save_problem,
    seat_bots,
)
from railkit.unionpacific import ChooseFirstShare, UnionPacificGame
from railkit.unionpacific import new_game as up_game
from railkit.unionpacific.bots import HeuristicBot as UpBot


def up_session(humans=("Ann",), players=("Ann", "Ben", "Cleo"), seed=3, **kw):
    return Session(up_game(list(players), seed=seed), humans, seat_bots(UpBot), **kw)


def kk_session(seed=4):
    return Session(kk_game(["Kim", "Ann", "Ben"], seed=seed), ["Kim"], position_bots(KkBot))


def state(session):
    return json.dumps(session.game.state_dict(), sort_keys=True)


def first_legal_human_move(session):
    return session.game.legal_actions(session.acting)[0]


# -- seats ---------------------------------------------------------------------------------------
def test_seats_are_humans_and_computer_players():
    s = up_session()
    assert s.humans == ("Ann",) and s.bots == ("Ben", "Cleo") and s.you == "Ann" and not s.hot_seat
    assert s.viewer() == "Ann"
    with pytest.raises(ValueError, match="do not play"):
        Session(up_game(["Ann", "Ben"], seed=1), ["Zoe"], seat_bots(UpBot))
    with pytest.raises(ValueError, match="bot policy"):
        Session(up_game(["Ann", "Ben"], seed=1), ["Ann"])


def test_hot_seat_hand_is_hidden_until_revealed_and_hides_when_the_turn_passes():
    s = up_session(humans=("Ann", "Ben", "Cleo"))
    assert s.hot_seat and s.you is None and s.bots == ()
    assert s.acting == "Ann" and s.viewer() is None and not s.may_act
    assert s.toggle_hand() is True and s.viewer() == "Ann" and s.may_act
    s.play(first_legal_human_move(s))
    assert s.acting == "Ben" and s.revealed_to is None and s.viewer() is None
    with pytest.raises(SessionError, match="no hidden hand"):
        up_session().toggle_hand()


# -- computer players ----------------------------------------------------------------------------
def test_computer_players_move_until_a_human_must_act():
    s = up_session()
    events = s.run_bots()
    assert s.acting == "Ann" and not s.paused
    assert {a.player for a in s.game.log} == {"Ben", "Cleo"}  # UP-S5: they chose their first shares
    assert len(events) >= 2


def test_bot_loop_stops_at_its_limit_and_goes_on():
    s = Session(up_game(["Ann", "Ben"], seed=2), [], seat_bots(UpBot), max_bot_moves=5)
    s.run_bots()
    assert s.paused and len(s.game.log) == 5 and s.acting is None
    s.resume()
    assert len(s.game.log) == 10
    with pytest.raises(SessionError, match="still moving"):
        s.play(ChooseFirstShare("Ann", "BNL"))
    done = Session(up_game(["Ann", "Ben"], seed=2), [], seat_bots(UpBot), max_bot_moves=10_000)
    done.run_bots()
    assert done.game.is_over and not done.paused
    with pytest.raises(SessionError, match="nothing left"):
        done.resume()


@pytest.mark.parametrize("bad", [
    lambda game, player: (_ for _ in ()).throw(ZeroDivisionError("bot bug")),  # the bot raises
    lambda game, player: Bid(player, 10_000),  # a move the rules refuse (KK-A2)
    lambda game, player: None,  # not a move at all
])
def test_a_misbehaving_bot_raises_BotError_and_changes_nothing(bad):
    s = Session(kk_game(["Kim", "Ann"], seed=1), ["Kim"], bad)
    before = state(s)
    with pytest.raises(BotError, match="computer player Ann"):
        s.run_bots()
    assert state(s) == before and s.game.log == ()


def test_bot_moves_are_the_same_for_the_same_position():
    a, b = kk_session(), kk_session()
    a.run_bots()
    b.run_bots()
    assert state(a) == state(b)
    assert a.bot_move("Kim") == b.bot_move("Kim")


# -- human moves and undo ------------------------------------------------------------------------
def test_a_human_move_then_the_computer_players():
    s = up_session()
    s.run_bots()
    played = s.play(first_legal_human_move(s))
    assert played.own and played.own[0].startswith("Ann") and played.events == played.own + played.others
    assert s.acting == "Ann" or s.game.is_over or s.acting is None


def test_a_refused_move_changes_nothing_and_only_humans_move():
    s = kk_session()
    s.run_bots()
    before = state(s)
    with pytest.raises(RuleError):
        s.play(Bid("Kim", 500))  # more than Kim has (KK-A2)
    with pytest.raises(SessionError, match="not a human"):
        s.play(Bid("Ann", 1))
    assert state(s) == before


def test_undo_goes_back_to_just_before_the_last_human_move():
    s = kk_session()
    s.run_bots()
    with pytest.raises(SessionError, match="nothing to undo"):
        s.undo()
    s.play(Bid("Kim", 5))
    while s.acting == "Kim" and len(s.game.log) < 40:
        s.play(first_legal_human_move(s))
    index = s.last_human_move()
    expected = s.game.replay(index).state_dict()
    after = state(s)
    undone = s.undo()
    assert s.game.state_dict() == expected and undone.player == "Kim"
    s.play(undone)  # the same move again: the computer players answer the same way
    assert state(s) == after


class Counter:
    """Notes that count the moves (a ``railkit.session.Notes``)."""

    def __init__(self):
        self.moves = 0
        self.cleared = 0

    def clear(self):
        self.moves = 0
        self.cleared += 1

    def note(self, game, action, events):
        self.moves += 1


def test_notes_hear_every_move_and_are_rebuilt_on_undo_and_load():
    notes = Counter()
    s = Session(kk_game(["Kim", "Ann"], seed=1), ["Kim"], position_bots(KkBot), notes=[notes])
    s.run_bots()
    s.play(Bid("Kim", 3))
    assert notes.moves == len(s.game.log)
    s.undo()
    assert notes.cleared == 1 and notes.moves == len(s.game.log)
    other = Counter()
    loaded = Session.load(s.to_json(), CapeToCairoGame, position_bots(KkBot), notes=[other])
    assert other.moves == len(loaded.game.log)


# -- save and load -------------------------------------------------------------------------------
def test_save_and_load_keep_the_game_and_the_seats():
    s = up_session()
    s.run_bots()
    s.play(first_legal_human_move(s))
    text = s.to_json()
    data = json.loads(text)
    assert data["format"] == SESSION_FORMAT and data["seats"] == {"humans": ["Ann"]}
    loaded = Session.load(text, UnionPacificGame, seat_bots(UpBot))
    assert state(loaded) == state(s) and loaded.humans == ("Ann",) and loaded.bots == ("Ben", "Cleo")
    assert Session.load(text.encode("utf-8"), UnionPacificGame, seat_bots(UpBot)).humans == ("Ann",)


def test_a_plain_game_save_seats_every_player_and_older_saves_keep_their_seats():
    game = up_game(["Ann", "Ben"], seed=1)
    plain = Session.load(game.to_json(), UnionPacificGame, seat_bots(UpBot))
    assert plain.humans == ("Ann", "Ben") and plain.hot_seat
    older = {**game.to_dict(), LEGACY_SEATS_KEY: {"humans": ["Ben"]}}
    assert Session.load(older, UnionPacificGame, seat_bots(UpBot)).humans == ("Ben",)


@pytest.mark.parametrize("save, words", [
    (b"\xff" * (MAX_SAVE_BYTES + 1), "at most 1,000,000"),  # the size is checked before decoding
    ("x" * (MAX_SAVE_BYTES + 1), "at most 1,000,000"),
    ('{"format": "railkit-session", "version": 1, "seats": {"humans": ["A"]}', "cut off"),
    ('{"format": "railkit-session", "version": 9, "game": {}}', "another version"),
    ('{"format": "railkit-session", "version": 1, "seats": {"humans": ["A"]}}', "holds no game"),
    ('{"format": "railkit-session", "version": 1, "seats": {"humans": ["Zoe"]}, '
     '"game": {"format": "railkit-game", "version": 1, "game": "union_pacific", "players": ["A", "B"], "seed": 1}}',
     "not in the game"),
    ('{"format": "railkit-game", "version": 1, "game": "union_pacific", "players": ["A", "B"], "seed": 1, '
     '"options": {"board": "/etc/passwd"}}', "names a file on the computer"),
    ('{"format": "railkit-game", "version": 1, "game": "cape_to_cairo", "players": ["A", "B"], "seed": 1}',
     "not of Union Pacific"),
])
def test_broken_saves_are_refused_in_plain_words(save, words):
    with pytest.raises(SaveFileError, match=words):
        Session.load(save, UnionPacificGame, seat_bots(UpBot), allow_files=False)


def test_save_problem_says_cannot_be_loaded_at_most_once():
    assert save_problem(SaveFileError("The save cannot be loaded: the save cannot be loaded: the file is empty")) \
        == "the file is empty"
    assert save_problem(SaveFileError("the file is cut off near the end.")) == "the file is cut off near the end"
