"""One learner, named once (the page address ``?name=``, else “You”), sentences about
the learner in the second person, a chosen seat (UP-S8: the first seat starts) and named hot-seat players."""

import html
import re

import pytest

from railkit.ui.records.learner import DEFAULT_LEARNER, learner_name, second_person
from railkit.ui.unionpacific.play import PlayApp
from railkit.unionpacific import ChooseFirstShare


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


@pytest.mark.parametrize(("query", "name"), [
    ("name=Kim", "Kim"), ("?name=%20Li%20%20Na%20", "Li Na"), ("", DEFAULT_LEARNER), ("other=1", DEFAULT_LEARNER),
    ("name=" + "x" * 31, DEFAULT_LEARNER), ("name=", DEFAULT_LEARNER), ("name=A&name=Bo", "Bo"),
])
def test_learner_name_comes_from_the_page_address(query, name):
    assert learner_name(query) == name


def test_learner_name_reads_voilas_query_string(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "name=Kim")
    assert learner_name() == "Kim"
    app = PlayApp(seed=1, players=3, game_number=4)
    assert app.session.you == "Kim" and app.setup.name.value == "Kim"
    monkeypatch.delenv("QUERY_STRING")
    assert PlayApp(seed=1, players=3, game_number=4).session.you == "You"


@pytest.mark.parametrize(("line", "you"), [
    ("Kim plays a plains card and builds a Denver Midland train on A–B (UP-B1, UP-B2); Denver Midland is now worth 3.",
     "You play a plains card and build a Denver Midland train on A–B (UP-B1, UP-B2); Denver Midland is now worth 3."),
    ("Turn 3: Kim draws a track card (UP-T1).", "Turn 3: you draw a track card (UP-T1)."),
    ("Payout 1 of 4 (dividend card): Kim +3, Ann +2.", "Payout 1 of 4 (dividend card): you +3, Ann +2."),
    ("Kim invests 2 shares of X on the table and discards a plains card (UP-I1, UP-I3).",
     "You invest 2 shares of X on the table and discard a plains card (UP-I1, UP-I3)."),
    ("3. Kim (3) takes position 1 and receives 0 (UP-D9).", "3. You (3) take position 1 and receive 0 (UP-D9)."),
    ("3. Kim holds none, so is not a shareholder and gets nothing (UP-D3).",
     "3. You hold none, so are not a shareholder and get nothing (UP-D3)."),
    ("Ann plays a card and builds a train; Kimberly takes a share.",
     "Ann plays a card and builds a train; Kimberly takes a share."),
])
def test_second_person_changes_only_sentences_about_the_learner(line, you):
    assert second_person(line, "Kim") == you


def test_the_default_learner_is_you_and_reads_you_play():
    app = PlayApp(seed=5, players=3, game_number=12)
    assert app.session.you == "You" and app.game.players[0] == "You"
    card = app.game.legal_actions("You")[0].card
    app.moves.first_pick.value = card
    assert app.moves.on_lay_first() is True, app.moves.note.text
    events = text(app.events.widget.value)
    assert not re.search(r"\bYou (plays|has|holds|takes|is)\b", events)
    assert "You plays" not in events and "You has" not in events and "You have chosen" in events


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_the_learner_chooses_a_seat_and_the_first_seat_starts_UP_S8(seat):
    app = PlayApp(seed=2, players=4, game_number=9, name="Kim", seat=seat)
    assert app.game.players[seat] == "Kim" and len(app.game.players) == 4
    assert [label for label, _ in app.setup.seat.options][0].startswith("1st")
    app.setup.seat.value = 2
    app.setup.players.value = 3
    assert app.setup.seat.value == 2 and len(app.setup.seat.options) == 3
    assert app.on_new_game() is True and app.game.players[2] == "Kim"
    assert "seats:" in app.message_text
    app.setup.players.value = 2  # seat 3 no longer exists: back to the first
    assert app.setup.seat.value == 0


def test_hot_seat_players_are_named_and_play_in_that_order():
    app = PlayApp(seed=3, players=3, hot_seat=True, names="Ana, Bo, Cy", game_number=6)
    assert app.game.players == ("Ana", "Bo", "Cy") and app.session.humans == ("Ana", "Bo", "Cy")
    assert app.session.acting == "Ana"
    app.on_show_hand()
    assert "Ana's hand" in text(app.hand.widget.value)
    first = next(a for a in app.game.legal_actions("Ana") if isinstance(a, ChooseFirstShare))
    app.moves.first_pick.value = first.card
    assert app.moves.on_lay_first() is True
    assert app.session.acting == "Bo" and "Bo" in text(app.status.status.value)


def test_a_name_arriving_after_a_preheated_start_deals_the_same_game_again():
    app = PlayApp(seed=4, players=3, game_number=31)
    before = app.game.to_dict()["seed"], app.game.players
    assert app.on_page_address("Kim") is True
    assert app.session.you == "Kim" and app.game.seed == before[0] and app.game.players[0] == "Kim"
    assert app.setup.seed.value == "31"
    card = app.game.legal_actions("Kim")[0].card
    app.moves.first_pick.value = card
    assert app.moves.on_lay_first() is True
    assert app.on_page_address("Lee") is False and app.session.you == "Kim"  # a started game is kept


def test_the_app_does_not_wait_for_an_address_outside_a_preheated_voila(monkeypatch):
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    assert PlayApp(seed=1, players=2, game_number=3).follow_page_address() is None


def test_payout_steps_speak_to_the_learner_called_you():
    from test_ui_up_play import act, first_legal

    app = PlayApp(seed=3, players=3, game_number=5)  # the learner is “You”
    while not app.game.state.payouts:
        act(app, first_legal(app))
    app.exercise.on_skip()
    shown = text(app.payouts.widget.value) + " " + text(app.exercise.feedback.value)
    assert not re.search(r"\bYou (holds|takes|receives|gets|is)\b", shown)
