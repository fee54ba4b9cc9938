"""PlayApp driven headless (lesson up_play: UP-T, UP-B, UP-I, UP-D, UP-2P): every move through the app's
callbacks, refused moves change nothing, whole games to the end, undo, save/load, hot seat and the payout
exercise."""

import html
import json
import re

import pytest

from railkit.ui.up_play import MAX_BOT_ACTIONS, SEATS_KEY, PlayApp
from railkit.unionpacific import (
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
    load_game,
)


def text(html_value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_value)).split())


def act(app, action) -> None:
    """Make ``action`` through the widgets and the button callback a learner would use."""
    if isinstance(action, ChooseFirstShare):
        app.first_pick.value = action.card
        assert app.on_lay_first() is True, app.message_text
    elif isinstance(action, DiscardUnusable):
        app.unusable_pick.value = action.card
        assert app.on_swap_unusable() is True, app.message_text
    elif isinstance(action, Build):
        app.mode.value = "build"
        app.card.value = action.card
        app.company.value = action.company
        app.section.value = action.section
        assert app.on_build() is True, app.message_text
    elif isinstance(action, Invest):
        app.mode.value = "invest"
        app.invest_pick.value = action.cards
        app.invest_discard.value = action.discard
        assert app.on_invest() is True, app.message_text
    elif isinstance(action, Pass):
        app.mode.value = "pass"
        app.pass_discard.value = action.discard
        assert app.on_pass() is True, app.message_text
    elif isinstance(action, DrawShare):
        assert app.on_draw(action.source) is True, app.message_text
    elif isinstance(action, ExchangeForUP):
        app.exchange_pick.value = action.card
        assert app.on_exchange() is True, app.message_text
    elif isinstance(action, EndTurn):
        assert app.on_end_turn() is True, app.message_text
    else:  # pragma: no cover
        raise AssertionError(f"unexpected action {action!r}")


def first_legal(app):
    return app.game.legal_actions(app.acting)[0]


def play_first_legal(app, limit=2000) -> int:
    moves = 0
    while not app.game.is_over:
        assert moves < limit, "the game did not end"
        if app.hot_seat and app.hand_for != app.acting:
            app.on_show_hand()
        act(app, first_legal(app))
        moves += 1
    return moves


def until_step(app, step, limit=400):
    """Play first legal moves until the learner must act in ``step``."""
    for _ in range(limit):
        if app.game.view(None)["phase"] == step and app.acting is not None:
            return
        act(app, first_legal(app))
    raise AssertionError(f"never reached step {step}")


@pytest.fixture
def app():
    return PlayApp(seed=7, players=4, game_number=11)


def test_starts_with_the_UP_S5_first_share_and_only_the_learners_hand(app):
    assert app.game.players == ("Alex", "Ann", "Ben", "Cleo") and app.humans == ("Alex",)
    assert app.acting == "Alex" and app.game.view(None)["phase"] == "first_share"
    # the computer players chose at the same time, face down (UP-S5)
    assert set(app.game.view(None)["first_share_chosen"]) == {"Ann", "Ben", "Cleo"}
    hand = app.game.view("Alex")["hand"]["shares"]
    assert {v for _, v in app.first_pick.options if v} == set(hand)
    assert "Your hand" in app.hand.value
    assert app.first_panel.layout.display is None and app.action_panel.layout.display == "none"
    assert "UP-S5" in text(app.status.value)
    assert app.map_view.figure is not None and app.map_view.renders == 1
    assert "Game 11 started" in app.message_text and app.message_kind == "info"
    companies = text(app.companies.value)
    assert "trains on the board" in companies and "El Paso & Rio Grande 2 3 21" in companies  # UP-S1, UP-D2


def test_first_share_then_bots_play_until_the_learners_turn(app):
    act(app, ChooseFirstShare("Alex", app.first_pick.options[1][1]))
    v = app.game.view("Alex")
    assert v["phase"] == "action" and v["current_player"] == "Alex"
    assert "First shares revealed together (UP-S5)" in text(app.recent.value)
    assert app.action_panel.layout.display is None and app.first_panel.layout.display == "none"
    assert app.mode.value in ("build", "invest")
    assert "UP-T3" in text(app.status.value)


def test_UP_B2_illegal_build_names_the_rule_and_changes_nothing(app):
    until_step(app, "action")
    game = app.game
    builds = [a for a in game.legal_actions("Alex") if isinstance(a, Build)]
    assert builds, "seed gives a legal build on the first turn"
    card = builds[0].card
    legal = {b.section for b in builds if b.card == card and b.company == builds[0].company}
    illegal = next(sid for sid in app.board.sections if sid not in legal)
    before = json.dumps(game.state_dict(), sort_keys=True)
    app.mode.value = "build"
    app.card.value = card
    app.company.value = builds[0].company
    app.section.value = illegal
    assert app.on_build() is None
    assert app.message_kind == "error" and re.search(r"\(rule UP-B2[a-f]\)", app.message_text)
    assert json.dumps(app.game.state_dict(), sort_keys=True) == before and app.game is game
    # the checklist shows the failing condition for the chosen section
    assert "not allowed" in text(app.checklist.value) and "✘" in app.checklist.value


def test_build_highlights_the_engines_legal_sections_on_the_map(app):
    until_step(app, "action")
    builds = [a for a in app.game.legal_actions("Alex") if isinstance(a, Build)]
    b = builds[0]
    app.mode.value = "build"
    app.card.value = b.card
    assert any(label.startswith("✔ ") and value == b.company for label, value in app.company.options)
    app.company.value = b.company
    expected = [x.section for x in builds if x.card == b.card and x.company == b.company]
    assert sorted(app.legal) == sorted(expected)
    band = next(t for t in app.map_view.figure.data if t.name == "legal sections")
    assert len(band.x) == 3 * len(expected)
    marked = [value for label, value in app.section.options if label.startswith("✔ ")]
    assert sorted(marked) == sorted(expected)
    app.section.value = b.section
    checklist = text(app.checklist.value)
    assert "allowed" in checklist and all(r in checklist for r in ("UP-B2a", "UP-B2c", "UP-B2e", "UP-B2f"))
    act(app, b)
    assert app.game.view("Alex")["phase"] == "draw" and app.draw_panel.layout.display is None
    shown = [s for s, button in app.draw_buttons.items() if button.layout.display is None]
    assert shown == [a.source for a in app.game.legal_actions("Alex")]


def test_missing_choices_and_wrong_step_are_refused_without_change(app):
    until_step(app, "action")
    before = json.dumps(app.game.state_dict(), sort_keys=True)
    app.mode.value = "build"
    app.card.value = None
    assert app.on_build() is None and "track card" in app.message_text and "UP-B1" in app.message_text
    app.mode.value = "invest"
    app.invest_pick.value = None
    assert app.on_invest() is None and "UP-I1" in app.message_text
    assert app.on_draw("deck") is None and "(rule UP-B3)" in app.message_text  # drawing before building
    assert app.on_end_turn() is None and "(rule UP-B6)" in app.message_text
    assert json.dumps(app.game.state_dict(), sort_keys=True) == before


def test_invest_offers_exactly_the_UP_I1_combinations(app):
    until_step(app, "action")
    invests = [a for a in app.game.legal_actions("Alex") if isinstance(a, Invest)]
    combos = {a.cards for a in invests}
    assert {v for _, v in app.invest_pick.options if v is not None} == combos
    app.card.value = app.card.options[0][1]  # a half-made build choice ...
    act(app, invests[0])
    assert invests[0].cards[0] in app.game.view("Alex")["tables"]["Alex"]
    assert "invests" in text(app.recent.value)
    until_step(app, "action")  # ... is cleared for the next turn
    assert app.card.value is None and app.company.value is None and app.section.value is None
    assert app.invest_pick.value is None and app.checklist.value == ""


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_game_through_the_callbacks(players):
    app = PlayApp(seed=players, players=players, game_number=100 + players)
    moves = play_first_legal(app)
    assert moves > 20
    game = app.game
    result = game.result()
    assert game.is_over and result.winners
    assert len(game.payout_history) == (3 if players == 2 else 4)  # UP-2P1 / UP-D12
    shown = text(app.result_html.value)
    assert "The game is over (UP-D12)" in shown
    for player, money in result.money.items():
        assert player in shown and str(money) in shown
    assert app.message_kind == "ok" and "The game is over" in app.message_text
    assert app.action_panel.layout.display == "none" and "New game" in text(app.waiting.value)
    if players == 2:  # UP-2P2: the imaginary third player takes part in the last payout
        assert "imaginary" in text(app.companies.value).lower()


def test_undo_restores_the_state_before_the_learners_last_move(app):
    until_step(app, "action")
    act(app, first_legal(app))  # build or invest; bots may move too
    until_step(app, "action")
    before = json.dumps(app.game.state_dict(), sort_keys=True)
    action = next(a for a in app.game.legal_actions("Alex") if isinstance(a, Invest))
    act(app, action)
    assert json.dumps(app.game.state_dict(), sort_keys=True) != before
    assert app.on_undo() is True
    assert json.dumps(app.game.state_dict(), sort_keys=True) == before
    assert app.acting == "Alex" and "Undone" in app.message_text
    assert app.action_panel.layout.display is None


def test_undo_with_nothing_to_undo_says_so(app):
    assert app.undo_button.disabled
    assert app.on_undo() is None and "nothing to undo" in app.message_text


def test_save_then_load_gives_the_same_state(app):
    until_step(app, "action")
    for _ in range(6):
        act(app, first_legal(app))
    saved = app.on_save()
    assert saved and app.save_area.value == saved and "base64," in app.download.value
    state = json.dumps(app.game.state_dict(), sort_keys=True)
    data = json.loads(saved)
    assert data[SEATS_KEY] == {"humans": ["Alex"]}
    assert json.dumps(load_game(saved).state_dict(), sort_keys=True) == state  # the engine reads it too
    other = PlayApp(seed=1, players=3)
    other.save_area.value = saved
    assert other.on_load() is True, other.message_text
    assert json.dumps(other.game.state_dict(), sort_keys=True) == state
    assert other.humans == ("Alex",) and set(other.bots) == {"Ann", "Ben", "Cleo"} and not other.hot_seat
    assert "Loaded" in other.message_text


@pytest.mark.parametrize("garbage, words", [
    ("", "box is empty"),
    ("not json {", "not valid JSON"),
    ("[1, 2, 3]", "one JSON object"),
    ('{"format": "something-else"}', "cannot be loaded"),
    ('{"format": "railkit-game", "version": 1, "game": "cape_to_cairo", "players": 2, "seed": 1}', "cannot be loaded"),
    ('{"format": "railkit-game", "version": 1, "game": "union_pacific", "players": ["A", "B"], "seed": 1, '
     '"actions": [{"type": "build", "player": "A", "card": "plains", "company": "BNL", "section": "nowhere"}]}',
     "cannot be loaded"),
    ('{"format": "railkit-game", "version": 1, "game": "union_pacific", "players": ["A", "B"], "seed": 1, '
     '"options": {"board": "/etc/passwd"}}', "own board file"),
])
def test_loading_garbage_shows_a_message_and_changes_nothing(app, garbage, words):
    until_step(app, "action")
    game = app.game
    before = json.dumps(game.state_dict(), sort_keys=True)
    humans = app.humans
    app.save_area.value = garbage
    assert app.on_load() is None
    assert app.message_kind == "error" and words in app.message_text
    assert "Nothing was changed" in app.message_text or words == "box is empty"
    assert app.game is game and app.humans == humans
    assert json.dumps(app.game.state_dict(), sort_keys=True) == before


def test_a_payout_appears_with_its_breakdown_after_the_exercise():
    app = PlayApp(seed=3, players=3, game_number=5)
    while not app.game.payout_history:
        act(app, first_legal(app))
    q = app.question
    assert q is not None and q.number == 1 and q.number in app.hidden_payouts
    assert app.exercise.layout.display is None and "How much did" in text(app.quiz_html.value)
    shown = text(app.payouts.value)
    assert "Payout 1 of 4" in shown and "Answer the payout exercise" in shown and "UP-D2" not in shown
    assert app.on_quiz_close() is None and "Answer the question first" in app.message_text
    app.quiz_answer.value = "seven"
    assert app.on_quiz_check() is None and "whole number" in app.message_text
    assert q.number in app.hidden_payouts
    app.quiz_answer.value = str(q.answer)
    assert app.on_quiz_check() is True and app.message_kind == "ok"
    assert q.number not in app.hidden_payouts and app.quiz_score == [1, 1]
    shown = text(app.payouts.value)
    assert "Company by company" in shown and "UP-D2" in shown and "Paid in total" in shown
    for e in app.game.payout_history[0].explanations:  # every company's steps, one click away
        assert html.escape(e.title) in app.payouts.value
    record = app.game.payout_history[0]
    for holder, amount in record.amounts.items():
        assert holder in shown
    assert "✔" in app.quiz_feedback.value and "UP-D" in text(app.quiz_feedback.value)
    assert app.quiz_close.layout.display is None
    app.on_quiz_close()
    assert app.question is None and app.exercise.layout.display == "none"
    # the engine's narrative is in the log, without the breakdown text twice
    app.log_box.selected_index = 0
    assert "Payout 1 of 4" in text(app.log_html.value)


def test_payout_exercise_wrong_answer_and_question_matches_the_engine():
    app = PlayApp(seed=4, players=4, game_number=21)
    while not app.game.payout_history:
        act(app, first_legal(app))
    q = app.question
    record = app.game.payout_history[-1]
    assert record.explanations[q.index].amounts[q.holder] == q.answer
    assert q.holder == "Alex" or all(record.holdings[k].get("Alex", 0) == 0 for k in record.holdings)
    app.quiz_answer.value = str(q.answer + 1)
    assert app.on_quiz_check() is False and app.quiz_score == [0, 1]
    assert "wrong" in text(app.quiz_feedback.value)


def test_hot_seat_hides_each_hand_until_shown():
    app = PlayApp(seed=2, players=3, hot_seat=True, game_number=8)
    assert app.hot_seat and app.humans == ("Player 1", "Player 2", "Player 3") and not app.bots
    assert app.acting == "Player 1"
    assert "Hands are secret" in text(app.hand.value) and app.first_panel.layout.display == "none"
    assert app.hotseat_bar.layout.display is None
    assert app.on_lay_first() is None and "Show my hand" in app.message_text
    app.on_show_hand()
    assert "Player 1's hand" in text(app.hand.value) and app.first_panel.layout.display is None
    act(app, first_legal(app))
    assert app.acting == "Player 2" and app.hand_for is None  # hidden again for the next player
    assert "Hands are secret" in text(app.hand.value)
    assert "Player 1" not in text(app.hand.value)
    moves = play_first_legal(app)
    assert app.game.is_over and moves > 20


def test_hot_seat_with_hidden_money_shows_only_the_players_own(app):
    app = PlayApp(seed=2, players=2, hot_seat=True, game_number=9, public_money=False)
    assert "hidden (UP-D13)" in text(app.players_panel.value)


@pytest.mark.parametrize("options", [
    {"deck": "finnish", "countable_deck": True},
    {"deck": "dividend_cards", "safe_round": True, "direct_up_draw": False, "removed_to_bottom": True},
])
def test_options_reach_the_engine_and_the_deck_count_shows_only_when_countable(options):
    app = PlayApp(seed=9, players=5, game_number=3, **options)
    for key, value in options.items():
        assert app.game.options[key] == value
    status = text(app.status.value)
    if options.get("countable_deck"):
        assert re.search(r"Share deck \d+ cards \(UP-V3\)", status)
    else:
        assert "not counted" in status
    until_step(app, "action")
    if options.get("direct_up_draw") is False:
        until_step(app, "draw")
        assert app.draw_buttons["up"].layout.display == "none"  # UP-B3-FI
        assert app.on_draw("up") is None and "(rule UP-B3-FI)" in app.message_text


def test_new_game_input_is_checked(app):
    app.setup_name.value = "   "
    game = app.game
    assert app.on_new_game() is None and "Your name" in app.message_text and app.game is game
    app.setup_name.value = "Ann"  # a bot name: the bots take other names
    app.setup_seed.value = "twelve"
    assert app.on_new_game() is None and "Game number" in app.message_text
    app.setup_seed.value = "12"
    app.setup_players.value = 6
    assert app.on_new_game() is True
    assert app.game.players[0] == "Ann" and len(set(app.game.players)) == 6 and app.game.seed == 12


def test_bots_pause_after_the_cap_and_go_on(monkeypatch):
    import railkit.ui.up_play as up_play

    monkeypatch.setattr(up_play, "MAX_BOT_ACTIONS", 2)
    app = PlayApp(seed=1, players=6, game_number=4)  # five computer players choose first shares (UP-S5)
    assert app.bots_paused and app.acting is None
    assert app.continue_button.layout.display is None and "go on" in text(app.waiting.value)
    assert app.on_lay_first() is None and "go on" in app.message_text
    for _ in range(20):
        if not app.bots_paused:
            break
        app.on_continue()
    assert not app.bots_paused and app.acting == app.humans[0]
    assert app.continue_button.layout.display == "none"
    assert app.on_continue() is None and "nothing left to do" in app.message_text
    assert MAX_BOT_ACTIONS >= 50  # the real cap leaves room for a whole round of five computer players


def test_map_is_redrawn_only_when_it_changes(app):
    until_step(app, "action")
    renders = app.map_view.renders
    app.refresh()
    assert app.map_view.renders == renders
    b = next(a for a in app.game.legal_actions("Alex") if isinstance(a, Build))
    app.mode.value = "build"
    app.card.value = b.card
    app.company.value = b.company
    assert app.map_view.renders == renders + 1


def test_app_text_comes_from_tr():
    from railkit.ui import i18n

    i18n.register_catalogue("up-play-test", {"Start a new game": "Uusi peli", "Undo my last move": "Peru"})
    i18n.set_language("up-play-test")
    try:
        app = PlayApp(seed=1, players=2, game_number=1)
        assert app.new_button.description == "Uusi peli" and app.undo_button.description == "Peru"
    finally:
        i18n.set_language("en")
