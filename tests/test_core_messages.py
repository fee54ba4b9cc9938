"""The shared core's learner-visible sentences are structured messages: save-file
errors (railkit.game.Game.load, parse_save), player-name and option refusals, and the play session's
undo, bot and save messages. Each error keeps its English ``str`` and holds a ``railkit.messages.Message``
(``exc.args[0]``, or ``exc.message`` for a ``RuleError``) that the app's message bar renders."""

import json

import pytest
from babel_catalogs import compiled

from railkit.capecairo import Bid, CapeToCairoGame
from railkit.capecairo import new_game as kk_game
from railkit.capecairo.bots import HeuristicBot
from railkit.errors import RuleError, SaveFileError
from railkit.locale import LOCALE_DIR
from railkit.messages import Message
from railkit.session import BotError, Session, SessionError, save_problem, seat_bots
from railkit.ui import app as ui_app
from railkit.ui import i18n


def words(exc):
    """The Message an error carries."""
    m = exc.message if isinstance(exc, RuleError) else exc.args[0]
    assert isinstance(m, Message), exc
    return m


def load_error(text):
    with pytest.raises(SaveFileError) as caught:
        CapeToCairoGame.load(text)
    return caught.value


def finnish():
    po = LOCALE_DIR / "fi" / "LC_MESSAGES" / "railkit.po"
    return compiled(po)


# -- save files (railkit.game) ------------------------------------------------------------------
def test_save_file_errors_are_messages_with_their_old_english():
    cut = load_error('{"format": "railkit-game", "game": "cape_to_cairo"')
    assert str(cut) == "the file is cut off near the end (it was not saved completely)"
    assert words(cut).msgid == str(cut) and not words(cut).params
    assert words(load_error("")).msgid == "the file is empty"
    broken = load_error('{"a": 1,\n x}')
    assert words(broken).msgid.endswith("line {line}, character {column}") and words(broken).params["line"] == 2
    other = load_error(json.dumps({"format": "railkit-game", "game": "union_pacific"}))
    assert dict(words(other).params) == {"other": "'union_pacific'", "game": "Vom Kap bis Kairo"}
    big = load_error(b"x" * 1_000_001)
    assert str(big) == "the file is 1,000,001 bytes; a saved game is at most 1,000,000"


def test_move_that_cannot_be_replayed_nests_the_engine_refusal():
    game = kk_game(["Ann", "Ben"], seed=1)
    save = game.to_dict()
    save["actions"] = [{"type": "bid", "player": "Ann", "amount": 500}]
    error = load_error(json.dumps(save))
    m = words(error)
    assert m.msgid == "move {move} cannot be replayed: {reason}" and m.params["move"] == 1
    reason = m.params["reason"]
    assert reason.msgid == "{reason} [{rule}]" and reason.params["rule"] == "KK-A2"
    assert reason.params["reason"].msgid.startswith("{player} has only {money} and cannot bid {amount}")
    assert str(error) == ("move 1 cannot be replayed: Ann has only 100 pounds and cannot bid 500 "
                          "(money never goes below 0, KK-C5) [KK-A2]")
    assert save_problem(error) is m  # the app renders it in the learner's language


def test_player_names_and_options_are_refused_in_messages():
    for players, msgid in ((["Ann", "Ann"], "player names must be different: {names}"),
                           (["Ann", ""], "every player needs a name; one is empty"),
                           (["Ann", "B" * 40], "a player's name may have at most {most} characters; {name}… is longer"),
                           (["Ann"], "this game takes {lo} to {hi} players, not {given}")):
        with pytest.raises(RuleError) as caught:
            kk_game(players)
        assert words(caught.value).msgid == msgid and caught.value.rule == "KK-S1"
    with pytest.raises(RuleError) as caught:
        kk_game(["Ann", "Ben"], colour="red", speed=2)
    m = words(caught.value)
    assert m.plural is not None and m.n == 2 and str(m).startswith("unknown options 'colour', 'speed';")
    game = kk_game(["Ann", "Ben"], seed=1, win_crossings=1)
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    with pytest.raises(RuleError) as caught:
        game.apply(Bid("Ann", 0))
    assert words(caught.value).msgid == "the game is over; no more moves can be made"


# -- the play session -----------------------------------------------------------------------------
def test_session_errors_are_messages():
    session = Session(kk_game(["Ann", "Ben"], seed=4), humans=["Ann"], bot=seat_bots(HeuristicBot))
    with pytest.raises(SessionError) as caught:
        session.undo()
    assert words(caught.value).msgid == "there is nothing to undo: no human move has been made yet"
    with pytest.raises(SessionError) as caught:
        session.play(Bid("Ben", 1))
    assert dict(words(caught.value).params) == {"player": "Ben"}


def test_a_bot_refused_by_the_rules_names_the_rule_in_its_message():
    session = Session(kk_game(["Ann", "Ben"], seed=4), humans=["Ann"], bot=lambda game, player: Bid(player, 10**6))
    with pytest.raises(BotError) as caught:
        session.play(Bid("Ann", 1))
    m = words(caught.value)
    assert m.params["player"] == "Ben" and m.params["rule"] == "KK-A2"
    assert m.params["reason"].msgid.startswith("{player} has only {money}")


def test_saves_with_strange_seats_say_so_in_messages():
    game = kk_game(["Ann", "Ben"], seed=4)
    save = {"format": "railkit-session", "version": 1, "seats": {"humans": ["Zed", "Yan"]}, "game": game.to_dict()}
    with pytest.raises(SaveFileError) as caught:
        Session.load(json.dumps(save), CapeToCairoGame)
    m = words(caught.value)
    assert m.n == 2 and str(m) == "the seats name 2 player(s) who are not in the game"


# -- the app's message bar renders them -----------------------------------------------------------
def test_the_message_bar_renders_engine_messages_through_the_catalog(monkeypatch):
    monkeypatch.setattr(i18n, "_current", finnish)
    game = kk_game(["Ann", "Ben"], seed=1)
    with pytest.raises(RuleError) as caught:
        game.apply(Bid("Ann", 500))
    shown = ui_app.error_text(caught.value)
    assert "Pelaajalla Ann on vain 100 puntaa" in shown and "KK-A2" in shown
    assert "cut off" not in ui_app.error_text(load_error('{"format": "railkit-game"'))
    with pytest.raises(SessionError) as undo:
        Session(game, humans=["Ann", "Ben"]).undo()
    assert ui_app.error_text(undo.value) == "Ei ole mitään peruttavaa: kukaan ei ole vielä tehnyt siirtoa."
