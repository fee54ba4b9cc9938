"""SetupApp driven headless (lesson up_setup, UP-S1..S8, UP-S7-FI, UP-V1, UP-V2, UP-2P): the steps
against computer players, what the learner may see, the share-deck picture and the exercise."""

import html
import re

import pytest

from railkit.ui.unionpacific.common import DECKS
from railkit.ui.unionpacific.setup import SetupApp
from railkit.ui.unionpacific.setup.deck import (
    cards_above_dividend,
    cards_for_deck,
    deck_figure,
    layout,
    reserve_size,
    safe_bottom,
)
from railkit.ui.unionpacific.setup.quiz import make_question
from railkit.ui.unionpacific.setup.steps import STEPS, YOU
from railkit.unionpacific import DIVIDEND, load_board, new_game
from railkit.unionpacific.game import UP_SHARES


@pytest.fixture
def app():
    return SetupApp(seed=5)


def text(html_value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", html_value))


def deal(app, players=4, deck="standard", safe=False):
    app.steps.players.value, app.steps.deck.value, app.steps.safe_round.value = players, deck, safe
    app.steps.on_deal()
    assert app.message_kind == "info" and app.steps.step == 1


def advance_to(app, step):
    while app.steps.step < step:
        if app.steps.step == 5 and app.steps.first_choice is None:
            app.steps.first_pick.value = app.steps.first_pick.options[0][1]
            app.steps.on_lay_first()
        app.steps.on_next()
        assert app.message_kind != "error", app.message_text


def test_before_dealing_next_asks_for_deal(app):
    app.steps.on_next()
    assert app.message_kind == "error" and "Deal" in app.message_text and app.steps.step == 0


@pytest.mark.parametrize("players", [2, 6])
@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("safe", [False, True], ids=["plain", "safe_round"])
def test_setup_reaches_the_end_for_every_option(app, players, deck, safe):
    deal(app, players, deck, safe)
    assert app.steps.game.options["deck"] == deck and app.steps.game.options["safe_round"] is safe
    assert len(app.steps.game.players) == players and YOU in app.steps.game.players
    advance_to(app, len(STEPS))
    assert app.steps.step == 8 and app.steps.next_button.disabled
    shown = text(app.steps.step_html.value)
    assert "UP-S8" in shown and "The setup is complete." in shown
    assert app.steps.game.state.step == "action"  # the engine has started the first turn (UP-T1)
    assert f"Payouts in this game: {3 if players == 2 else 4}" in shown
    app.steps.on_next()
    assert app.message_kind == "error" and "complete" in app.message_text and app.steps.step == 8


def test_UP_S1_starting_trains_on_the_map(app):
    deal(app)
    fig = app.steps.figure.figure
    trains = [t for t in fig.data if t.name == "train"][0]
    assert len(trains.x) == 11  # one per company, two for EP&RG (UP-C3, UP-S1)
    assert "UP-S1" in text(app.steps.step_html.value)
    table = text(app.steps.after_html.value)
    assert "El Paso & Rio Grande" in table and "Tucson–El Paso, Albuquerque–El Paso" in table
    assert " 21 " in table  # 23 trains, two on the board (UP-C1, UP-S1)


def test_UP_S2_to_S4_show_only_what_the_learner_may_see(app):
    deal(app, players=3)
    view = app.steps.game.view(YOU)
    secret = app.steps.game.state_dict()
    advance_to(app, 2)
    shown = text(app.steps.step_html.value)
    assert "UP-S2" in shown and f"Draw pile: {view.track_pile_count} cards" in shown
    assert sum(view.hand.track.values()) == 3
    advance_to(app, 3)
    assert f"UP stack: {UP_SHARES - 3} of the {UP_SHARES}" in text(app.steps.step_html.value)
    advance_to(app, 4)
    shown = text(app.steps.step_html.value)
    mine = {k for k in view.hand.shares if k != "UP"}
    board = load_board()
    assert all(board.company(k).name in shown for k in mine)
    # the others' hands are never shown, only their sizes
    for p in app.steps.game.players:
        if p != YOU:
            others_only = set(secret["share_hands"][p]) - set(view.hand.shares) - {"UP"}
            assert not any(board.company(k).name in shown for k in others_only)
            assert f"{p} 5" in shown


def test_UP_S5_first_investment_is_simultaneous_and_revealed_together(app):
    deal(app, players=4)
    advance_to(app, 5)
    assert app.steps.first_box.layout.display == "" and "Revealed" not in app.steps.step_html.value
    options = [v for _label, v in app.steps.first_pick.options]
    assert sorted(options) == sorted(app.steps.game.view(YOU).hand.shares)
    app.steps.on_next()  # no choice yet: blocked, nothing changes
    assert app.message_kind == "error" and "UP-S5" in app.message_text and app.steps.step == 5
    app.steps.on_lay_first()  # nothing picked
    assert app.message_kind == "error" and app.steps.game.state.step == "first_share"
    app.steps.first_pick.value = options[0]
    app.steps.on_lay_first()
    assert app.message_kind == "ok" and app.steps.first_choice == options[0]
    tables = app.steps.game.view(YOU).tables
    assert all(sum(t.values()) == 1 for t in tables.values()) and tables[YOU] == {options[0]: 1}
    assert "Revealed together" in app.steps.step_html.value and app.steps.first_box.layout.display == "none"
    app.steps.on_lay_first()  # twice: refused
    assert app.message_kind == "error" and "already" in app.message_text


def test_UP_S6_display_is_shown_only_after_the_first_investment(app):
    deal(app)
    assert app.steps.game.view(YOU).display is None
    advance_to(app, 6)
    board = load_board()
    display = app.steps.game.view(YOU).display
    shown = text(app.steps.step_html.value)
    assert "UP-S6" in shown and all(board.company(k).name in shown for k in display)


@pytest.mark.parametrize("deck", DECKS)
def test_UP_S7_step_shows_the_deck_of_this_game(app, deck):
    deal(app, players=5, deck=deck, safe=True)
    advance_to(app, 7)
    fig = app.steps.figure.figure
    assert "(this game)" in "".join(str(x) for t in fig.data for x in t.x)
    shown = text(app.steps.step_html.value)
    assert {"standard": "UP-S7 ", "finnish": "UP-S7-FI", "dividend_cards": "UP-V1"}[deck] in shown
    assert "Safe round (UP-V2): 15 shares" in shown
    piles = text(app.steps.after_html.value)
    assert ("bottom six" in piles) is (deck == "finnish") and ("dividend pile 4" in piles) is (deck == "dividend_cards")


def test_UP_2P_is_explained_for_two_players(app):
    deal(app, players=2)
    advance_to(app, 7)
    assert "UP-2P" in text(app.steps.step_html.value) and "imaginary third player" in app.steps.step_html.value


# -- the share deck, from deck_layout --------------------------------------------------------------
def test_deck_layout_matches_the_engines_real_deck():
    for players in range(2, 7):
        for deck in DECKS:
            for safe in (False, True):
                game = new_game(players, seed=players, deck=deck, safe_round=safe)
                state = game.state_dict()
                piles = layout(deck, players, safe)
                assert sum(p.size for p in piles) == len(state["deck"])
                assert reserve_size(deck, players, safe) == len(state["reserve"])
                # no dividend card above the first pile that holds one, none below the last
                positions = [i for i, c in enumerate(state["deck"]) if c == DIVIDEND]
                assert min(positions) >= cards_above_dividend(piles, 1)
                assert max(positions) < len(state["deck"]) - safe_bottom(piles)


def test_cards_for_deck_counts_what_is_left_after_hands_and_display():
    assert cards_for_deck(4) == 98 - 16 - 4


def test_deck_figure_has_a_column_per_option_and_marks_dividend_piles():
    columns = [(d, False) for d in DECKS] + [("standard", True)]
    fig = deck_figure(4, columns, chosen=1)
    by_name = {t.name: t for t in fig.data}
    dividend = by_name["pile with dividend cards shuffled in"]
    assert len(dividend.x) == 2 + 2 + 4 + 2  # standard, Finnish, four UP-V1 piles, standard + safe round
    reserve = by_name["safe-round reserve, not in the deck (UP-V2)"]
    assert list(reserve.y) == [12] and all(b < 0 for b in reserve.base)
    assert fig.layout.yaxis.autorange == "reversed"  # top card at the top


def test_deck_tab_draws_on_demand_and_follows_the_player_count(app):
    assert app.deck_view.figure is None
    app.tabs.selected_index = 1
    assert app.deck_view.figure is not None and "4 players" in app.deck_view.figure.layout.title.text
    app.deck_players.value = 6
    assert "6 players" in app.deck_view.figure.layout.title.text
    assert "set aside" in "".join(t for tr in app.deck_view.figure.data for t in tr.text)


# -- the exercise ----------------------------------------------------------------------------------
def test_first_question_is_the_standard_deck_top_six(app):
    q = app.quiz.question
    assert q.kind == "yes_no" and q.answer is False and "first 6 cards" in q.text and "standard deck" in q.text
    assert app.quiz.yes_no.layout.display == "" and app.quiz.number.layout.display == "none"


def test_exercise_accepts_the_right_answer_and_explains(app):
    app.quiz.yes_no.value = False
    assert app.quiz.on_check() is True
    assert app.message_kind == "ok" and app.quiz.score == [1, 1]
    assert "starts at card 7" in app.quiz.answer_html.value and "eighteen" in app.quiz.answer_html.value


def test_exercise_rejects_a_wrong_answer(app):
    app.quiz.yes_no.value = True
    assert app.quiz.on_check() is False
    assert app.message_kind == "info" and app.quiz.score == [0, 1] and "wrong" in app.quiz.answer_html.value


def test_exercise_with_no_answer_or_bad_number_gives_a_clear_message(app):
    assert app.quiz.on_check() is None
    assert app.message_kind == "error" and "Yes or No" in app.message_text and app.quiz.score == [0, 0]
    app.quiz.set_question(make_question("above", "standard", 4, k=1))
    app.quiz.number.value = "six"
    assert app.quiz.on_check() is None
    assert app.message_kind == "error" and "whole number" in app.message_text and app.quiz.score == [0, 0]
    app.quiz.number.value = "6"
    assert app.quiz.on_check() is True


@pytest.mark.parametrize("kind,deck,players,safe,k,answer", [
    ("first_k", "standard", 4, False, 6, False),
    ("first_k", "standard", 4, False, 7, True),
    ("above", "standard", 4, False, 1, 6),
    ("above", "standard", 4, False, 2, 25),  # 6 + 18 + 1 dividend in the eighteen pile
    ("above", "dividend_cards", 4, False, 2, 6 + 15 + 6),  # UP-V1: 54 cards split 14/14/13/13 + 1 each
    ("bottom", "finnish", 3, False, 1, 6),  # UP-S7-FI: the last six are safe
    ("bottom", "standard", 6, True, 1, 0),
])
def test_answers_come_from_deck_layout(kind, deck, players, safe, k, answer):
    assert make_question(kind, deck, players, safe, k=k).answer == answer


def test_new_questions_switch_the_answer_field(app):
    seen = set()
    for _ in range(20):
        q = app.quiz.on_new_question()
        seen.add(q.kind)
        assert (app.quiz.number.layout.display == "") == (q.kind == "number")
    assert seen == {"yes_no", "number"}


def test_UP_S2_names_the_track_card_split_from_the_board_and_calls_it_a_DECISION(app):
    deal(app)
    advance_to(app, 2)
    shown = text(app.steps.step_html.value)
    assert "14 Plains, 9 Hills, 7 River valley, 6 Mountain, 4 General" in shown
    assert "railkit's DECISION (UP-C4)" in shown and "rulings.ipynb" in app.steps.step_html.value


def test_step_pills_go_back_to_a_step_already_reached_and_not_beyond(app):
    deal(app)
    advance_to(app, 3)
    pills = app.steps.pills.buttons
    assert [b.disabled for b in pills[:4]] == [False, False, True, True]  # 3 is current, 4 not reached
    pills[0].click()
    assert app.steps.step == 1 and "UP-S1" in app.steps.step_html.value
    assert not pills[2].disabled and pills[0].disabled  # step 3 can be opened again
    app.steps.on_go(4)
    assert app.steps.step == 1 and app.message_kind == "error"
    app.steps.on_next()
    assert app.steps.step == 2


def test_every_map_and_deck_view_of_the_setup_links_the_rulings(app):
    deal(app)
    advance_to(app, 1)
    assert "rulings.ipynb" in app.steps.after_html.value
    advance_to(app, 7)
    assert "rulings.ipynb" in app.steps.after_html.value
    assert app.steps.lay_button.layout.width == "240px"


def test_the_learner_names_their_seat_once_default_You(app):
    assert app.steps.name.value == YOU == "You"
    app.steps.name.value = "Ann"
    deal(app)
    players = app.steps.game.players
    assert "Ann" in players and len(set(players)) == len(players) and app.steps.you == "Ann"
    assert "<b>Ann</b>" in app.steps.step_html.value  # the learner in bold in the players line


def test_six_players_with_the_learner_named_like_a_computer_player(app):
    app.steps.name.value = "ann"
    deal(app, players=6)
    assert len(app.steps.game.players) == 6 and "Ann" not in app.steps.game.players
