"""PlayApp driven headless (lesson up_play: UP-T, UP-B, UP-I, UP-D, UP-2P): every move through the app's
callbacks, refused moves change nothing, whole games to the end, undo, save/load, hot seat and the payout
exercise."""

import html
import json
import re

import pytest

from railkit.ui.unionpacific.board_map import band_sections
from railkit.ui.unionpacific.play import MAX_BOT_ACTIONS, PlayApp
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
        app.moves.first_pick.value = action.card
        assert app.moves.on_lay_first() is True, app.moves.note.text
    elif isinstance(action, DiscardUnusable):
        app.moves.unusable_pick.value = action.card
        assert app.moves.on_swap_unusable() is True, app.moves.note.text
    elif isinstance(action, Build):
        app.moves.mode.value = "build"
        app.moves.build.card.value = action.card
        app.moves.build.company.value = action.company
        app.moves.build.section.value = action.section
        assert app.moves.build.on_build() is True, app.moves.note.text
    elif isinstance(action, Invest):
        app.moves.mode.value = "invest"
        app.moves.invest_pick.value = action.cards
        app.moves.invest_discard.value = action.discard
        assert app.moves.on_invest() is True, app.moves.note.text
    elif isinstance(action, Pass):
        app.moves.mode.value = "pass"
        app.moves.pass_discard.value = action.discard
        assert app.moves.on_pass() is True, app.moves.note.text
    elif isinstance(action, DrawShare):
        assert app.moves.on_draw(action.source) is True, app.moves.note.text
    elif isinstance(action, ExchangeForUP):
        app.moves.exchange_pick.value = action.card
        assert app.moves.on_exchange() is True, app.moves.note.text
    elif isinstance(action, EndTurn):
        assert app.moves.on_end_turn() is True, app.moves.note.text
    else:  # pragma: no cover
        raise AssertionError(f"unexpected action {action!r}")


def first_legal(app):
    return app.game.legal_actions(app.session.acting)[0]


def play_first_legal(app, limit=2000) -> int:
    moves = 0
    while not app.game.is_over:
        assert moves < limit, "the game did not end"
        if app.session.hot_seat and app.session.revealed_to != app.session.acting:
            app.on_show_hand()
        act(app, first_legal(app))
        moves += 1
    return moves


def until_step(app, step, limit=400):
    """Play first legal moves until the learner must act in ``step``."""
    for _ in range(limit):
        if app.game.view(None).phase == step and app.session.acting is not None:
            return
        act(app, first_legal(app))
    raise AssertionError(f"never reached step {step}")


@pytest.fixture
def app():
    return PlayApp(seed=7, players=4, game_number=11, name="Alex")


def test_starts_with_the_UP_S5_first_share_and_only_the_learners_hand(app):
    assert app.game.players == ("Alex", "Ann", "Ben", "Cleo") and app.session.humans == ("Alex",)
    assert app.session.acting == "Alex" and app.game.view(None).phase == "first_share"
    # the computer players chose at the same time, face down (UP-S5)
    assert set(app.game.view(None).first_share_chosen) == {"Ann", "Ben", "Cleo"}
    hand = app.game.view("Alex").hand.shares
    assert {v for _, v in app.moves.first_pick.options if v} == set(hand)
    assert "Your hand" in app.hand.widget.value
    assert app.moves.first_panel.layout.display is None and app.moves.action_panel.layout.display == "none"
    assert "UP-S5" in text(app.status.status.value)
    assert app.moves.build.map_view.figure is not None and app.moves.build.map_view.renders == 1
    assert "Game 11 started" in app.message_text and app.message_kind == "info"
    companies = text(app.companies.companies.value)
    assert "trains on the board" in companies and "El Paso & Rio Grande 2 3 21" in companies  # UP-S1, UP-D2


def test_first_share_then_bots_play_until_the_learners_turn(app):
    act(app, ChooseFirstShare("Alex", app.moves.first_pick.options[1][1]))
    v = app.game.view("Alex")
    assert v.phase == "action" and v.current_player == "Alex"
    assert "First shares revealed together (UP-S5)" in text(app.events.widget.value)
    assert app.moves.action_panel.layout.display is None and app.moves.first_panel.layout.display == "none"
    assert app.moves.mode.value in ("build", "invest")
    assert "UP-T3" in text(app.status.status.value)


def test_UP_B2_illegal_build_names_the_rule_and_changes_nothing(app):
    until_step(app, "action")
    game = app.game
    builds = [a for a in game.legal_actions("Alex") if isinstance(a, Build)]
    assert builds, "seed gives a legal build on the first turn"
    card = builds[0].card
    legal = {b.section for b in builds if b.card == card and b.company == builds[0].company}
    illegal = next(sid for sid in app.board.sections if sid not in legal)
    before = json.dumps(game.state_dict(), sort_keys=True)
    app.moves.mode.value = "build"
    app.moves.build.card.value = card
    app.moves.build.company.value = builds[0].company
    app.moves.build.section.value = illegal
    assert app.moves.build.on_build() is None
    assert app.moves.note.kind == "error" and re.search(r"\(rule UP-B2[a-f]\)", app.moves.note.text)
    assert json.dumps(app.game.state_dict(), sort_keys=True) == before and app.game is game
    # the checklist shows the failing condition for the chosen section
    assert "not allowed" in text(app.moves.build.checklist.value) and "✘" in app.moves.build.checklist.value


def test_build_highlights_the_engines_legal_sections_on_the_map(app):
    until_step(app, "action")
    builds = [a for a in app.game.legal_actions("Alex") if isinstance(a, Build)]
    b = builds[0]
    app.moves.mode.value = "build"
    app.moves.build.card.value = b.card
    assert any(label.startswith("✔ ") and value == b.company for label, value in app.moves.build.company.options)
    app.moves.build.company.value = b.company
    expected = [x.section for x in builds if x.card == b.card and x.company == b.company]
    assert sorted(app.moves.build.legal) == sorted(expected)
    band = band_sections(app.board, app.moves.build.map_view.figure.layout, "legal sections")
    assert band is not None and sorted(band) == sorted(expected)
    marked = [value for label, value in app.moves.build.section.options if label.startswith("✔ ")]
    assert sorted(marked) == sorted(expected)
    app.moves.build.section.value = b.section
    checklist = text(app.moves.build.checklist.value)
    assert "allowed" in checklist and all(r in checklist for r in ("UP-B2a", "UP-B2c", "UP-B2e", "UP-B2f"))
    act(app, b)
    assert app.game.view("Alex").phase == "draw" and app.moves.draw_panel.layout.display is None
    shown = [s for s, button in app.moves.draw_buttons.items() if button.layout.display is None]
    assert shown == [a.source for a in app.game.legal_actions("Alex")]


def test_missing_choices_and_wrong_step_are_refused_without_change(app):
    until_step(app, "action")
    before = json.dumps(app.game.state_dict(), sort_keys=True)
    app.moves.mode.value = "build"
    app.moves.build.card.value = None
    assert app.moves.build.on_build() is None and "track card" in app.moves.note.text and "UP-B1" in app.moves.note.text
    app.moves.mode.value = "invest"
    app.moves.invest_pick.value = None
    assert app.moves.on_invest() is None and "UP-I1" in app.moves.note.text
    assert app.moves.on_draw("deck") is None and "(rule UP-B3)" in app.moves.note.text  # drawing before building
    assert app.moves.on_end_turn() is None and "(rule UP-B6)" in app.moves.note.text
    assert json.dumps(app.game.state_dict(), sort_keys=True) == before


def test_a_missing_choice_message_shows_by_the_moves_and_clears_when_chosen(app):
    until_step(app, "action")
    app.moves.mode.value = "build"
    build = next(a for a in app.game.legal_actions("Alex") if isinstance(a, Build))
    app.moves.build.card.value = build.card
    assert app.moves.build.on_build() is None and "Pick a company" in app.moves.note.text
    assert app.moves.note.kind == "error" and "Pick a company" not in app.message_text  # not in the top bar
    assert "Pick a company" not in app.exercise.note.text
    app.moves.build.company.value = build.company  # the message is no longer true: it goes
    assert app.moves.note.text == "" and app.moves.note.kind == ""


def test_invest_offers_exactly_the_UP_I1_combinations(app):
    until_step(app, "action")
    invests = [a for a in app.game.legal_actions("Alex") if isinstance(a, Invest)]
    combos = {a.cards for a in invests}
    assert {v for _, v in app.moves.invest_pick.options if v is not None} == combos
    app.moves.build.card.value = app.moves.build.card.options[0][1]  # a half-made build choice ...
    act(app, invests[0])
    assert invests[0].cards[0] in app.game.view("Alex").tables["Alex"]
    assert "invests" in text(app.events.widget.value)
    until_step(app, "action")  # ... is cleared for the next turn
    assert app.moves.build.card.value is None and app.moves.build.company.value is None and app.moves.build.section.value is None
    assert app.moves.invest_pick.value is None and app.moves.build.checklist.value == ""


# A whole game through the lesson's callbacks redraws the map after every build: half a minute or more. The fast
# tier plays the four-player game; `make test` plays the two-player one too (UP-2P1, UP-2P2).
@pytest.mark.parametrize("players", [pytest.param(2, marks=pytest.mark.slow), 4])
def test_a_whole_game_through_the_callbacks(players):
    app = PlayApp(seed=players, players=players, game_number=100 + players)
    moves = play_first_legal(app)
    assert moves > 20
    game = app.game
    result = game.result()
    assert game.is_over and result.winners
    assert len(game.state.payouts) == (3 if players == 2 else 4)  # UP-2P1 / UP-D12
    if app.exercise.question is not None and app.exercise.question.number in app.exercise.hidden:
        # the last payout is the exercise's question: the final money waits for the answer
        assert "answer the payout exercise" in app.message_text
        assert str(max(result.money.values())) not in text(app.result.widget.value)
        assert app.result.chart.widget.layout.display == "none"  # the money chart would tell the answer too
        app.exercise.on_skip()
    assert app.result.chart.widget.layout.display != "none"  # each player's money and shares over the game
    shown = text(app.result.widget.value)
    assert "The game is over (UP-D12)" in shown
    for player, money in result.money.items():
        assert player in shown and str(money) in shown
    assert app.message_kind in ("ok", "info") and "The game is over" in app.message_text
    assert app.moves.action_panel.layout.display == "none" and "New game" in text(app.moves.waiting.value)
    if players == 2:  # UP-2P2: the imaginary third player takes part in the last payout
        assert "imaginary" in text(app.companies.companies.value).lower()


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
    assert app.session.acting == "Alex" and "Undone" in app.message_text
    assert app.moves.action_panel.layout.display is None


def test_undo_with_nothing_to_undo_says_so(app):
    assert app.undo_button.disabled
    assert app.on_undo() is None and "nothing to undo" in app.message_text


def test_save_then_load_gives_the_same_state(app):
    until_step(app, "action")
    for _ in range(6):
        act(app, first_legal(app))
    saved = app.saves.on_save()
    assert saved and app.saves.area.value == saved and "base64," in app.saves.download.value
    state = json.dumps(app.game.state_dict(), sort_keys=True)
    data = json.loads(saved)
    assert data["format"] == "railkit-session" and data["seats"] == {"humans": ["Alex"]}
    assert json.dumps(load_game(data["game"]).state_dict(), sort_keys=True) == state  # the engine reads it too
    other = PlayApp(seed=1, players=3)
    other.saves.area.value = saved
    assert other.saves.on_load() is True, other.message_text
    assert json.dumps(other.game.state_dict(), sort_keys=True) == state
    assert other.session.humans == ("Alex",) and set(other.session.bots) == {"Ann", "Ben", "Cleo"} and not other.session.hot_seat
    assert "Loaded" in other.message_text


@pytest.mark.parametrize("garbage, words", [
    ("", "box is empty"),
    ("not json {", "text is broken"),
    ('{"format": "railkit-game", "version": 1, "game": "union_pacific", "players": ["A", "B"], "seed": 1', "cut off"),
    ("[1, 2, 3]", "one JSON object"),
    ('{"format": "something-else"}', "cannot be loaded"),
    ('{"format": "railkit-game", "version": 1, "game": "cape_to_cairo", "players": 2, "seed": 1}', "cannot be loaded"),
    ('{"format": "railkit-game", "version": 1, "game": "union_pacific", "players": ["A", "B"], "seed": 1, '
     '"actions": [{"type": "build", "player": "A", "card": "plains", "company": "BNL", "section": "nowhere"}]}',
     "cannot be loaded"),
    ('{"format": "railkit-game", "version": 1, "game": "union_pacific", "players": ["A", "B"], "seed": 1, '
     '"options": {"board": "/etc/passwd"}}', "names a file on the computer"),
])
def test_loading_garbage_shows_a_message_and_changes_nothing(app, garbage, words):
    until_step(app, "action")
    game = app.game
    before = json.dumps(game.state_dict(), sort_keys=True)
    humans = app.session.humans
    app.saves.area.value = garbage
    assert app.saves.on_load() is None
    assert app.message_kind == "error" and words in app.message_text
    assert "Nothing was changed" in app.message_text or words == "box is empty"
    assert app.message_text.lower().count("cannot be loaded") <= 1  # the reason is given once
    assert app.game is game and app.session.humans == humans
    assert json.dumps(app.game.state_dict(), sort_keys=True) == before


def test_a_payout_appears_with_its_breakdown_after_the_exercise():
    app = PlayApp(seed=3, players=3, game_number=5)
    while not app.game.state.payouts:
        act(app, first_legal(app))
    q = app.exercise.question
    assert q is not None and q.number == 1 and q.number in app.exercise.hidden
    assert app.exercise.widget.layout.display is None and "How much did" in text(app.exercise.quiz_html.value)
    shown = text(app.payouts.widget.value)
    assert "Payout 1 of 4" in shown and "Answer the payout exercise" in shown and "UP-D2" not in shown
    # neither the money column nor the latest moves give the exercise's answer away
    record = app.game.state.payouts[0]
    players = text(app.table.players.value)
    assert "? (after the exercise)" in players
    assert not re.search(r"\+\d", text(app.events.widget.value))
    assert "shows once you answer the payout exercise" in text(app.events.widget.value)
    assert "yellow box" in app.message_text or app.message_kind != "error"
    assert app.exercise.on_close() is None and "Answer the question first" in app.exercise.note.text
    app.exercise.answer.value = "seven"
    assert app.exercise.on_check() is None and "whole number" in app.exercise.note.text
    assert q.number in app.exercise.hidden
    app.exercise.answer.value = str(q.answer)
    assert app.exercise.on_check() is True and app.exercise.note.kind == "ok"
    assert q.number not in app.exercise.hidden and app.exercise.score == [1, 1]
    shown = text(app.payouts.widget.value)
    assert "Company by company" in shown and "UP-D2" in shown and "Paid in total" in shown
    for e in app.game.state.payouts[0].explanations:  # every company's steps, one click away
        assert html.escape(e.title) in app.payouts.widget.value
    record = app.game.state.payouts[0]
    for holder in record.amounts:
        assert holder in shown
    assert "? (after the exercise)" not in text(app.table.players.value)
    assert re.search(r"\+\d", text(app.events.widget.value)) or app.game.state.payouts[0].amounts == {}
    assert "✔" in app.exercise.feedback.value and "UP-D" in text(app.exercise.feedback.value)
    assert app.exercise.close_button.layout.display is None
    app.exercise.on_close()
    assert app.exercise.question is None and app.exercise.widget.layout.display == "none"
    # the engine's narrative is in the log, without the breakdown text twice
    app.log.widget.selected_index = 0
    assert "Payout 1 of 4" in text(app.log.log.value)


def test_payout_exercise_wrong_answer_and_question_matches_the_engine():
    app = PlayApp(seed=4, players=4, game_number=21, name="Alex")
    while not app.game.state.payouts:
        act(app, first_legal(app))
    q = app.exercise.question
    record = app.game.state.payouts[-1]
    assert record.explanations[q.index].amounts[q.holder] == q.answer
    assert q.holder == "Alex" or all(record.holdings[k].get("Alex", 0) == 0 for k in record.holdings)
    app.exercise.answer.value = str(q.answer + 1)
    assert app.exercise.on_check() is False and app.exercise.score == [0, 1]
    assert "wrong" in text(app.exercise.feedback.value)


def hot_seat_after_the_first_move():
    """A hot-seat game of three after its first move, checked on the way: each hand stays secret until shown."""
    app = PlayApp(seed=2, players=3, hot_seat=True, game_number=8)
    assert app.session.hot_seat and app.session.humans == ("Player 1", "Player 2", "Player 3") and not app.session.bots
    assert app.session.acting == "Player 1"
    assert "Hands are secret" in text(app.hand.widget.value) and app.moves.first_panel.layout.display == "none"
    assert app.status.hotseat_bar.layout.display is None
    assert app.moves.on_lay_first() is None and "Show my hand" in app.moves.note.text
    app.on_show_hand()
    assert "Player 1's hand" in text(app.hand.widget.value) and app.moves.first_panel.layout.display is None
    act(app, first_legal(app))
    assert app.session.acting == "Player 2" and app.session.revealed_to is None  # hidden again for the next player
    assert "Hands are secret" in text(app.hand.widget.value)
    assert "Player 1" not in text(app.hand.widget.value)
    return app


def test_hot_seat_hides_each_hand_until_shown():
    app = hot_seat_after_the_first_move()
    for player in ("Player 2", "Player 3", "Player 1"):  # each hand-over hides the hand again
        assert app.session.acting == player and "Hands are secret" in text(app.hand.widget.value)
        app.on_show_hand()
        assert f"{player}'s hand" in text(app.hand.widget.value)
        act(app, first_legal(app))


@pytest.mark.slow
def test_a_whole_hot_seat_game_through_the_callbacks():
    app = hot_seat_after_the_first_move()
    moves = play_first_legal(app)
    assert app.game.is_over and moves > 20


def test_hot_seat_with_hidden_money_shows_only_the_players_own(app):
    app = PlayApp(seed=2, players=2, hot_seat=True, game_number=9, public_money=False)
    assert "hidden (UP-D13)" in text(app.table.players.value)


@pytest.mark.parametrize("options", [
    {"deck": "finnish", "countable_deck": True},
    {"deck": "dividend_cards", "safe_round": True, "direct_up_draw": False, "removed_to_bottom": True},
])
def test_options_reach_the_engine_and_the_deck_count_shows_only_when_countable(options):
    app = PlayApp(seed=9, players=5, game_number=3, **options)
    for key, value in options.items():
        assert app.game.options[key] == value
    status = text(app.status.status.value)
    if options.get("countable_deck"):
        assert re.search(r"Share deck \d+ cards \(UP-V3\)", status)
    else:
        assert "not counted" in status
    until_step(app, "action")
    if options.get("direct_up_draw") is False:
        until_step(app, "draw")
        assert app.moves.draw_buttons["up"].layout.display == "none"  # UP-B3-FI
        assert app.moves.on_draw("up") is None and "(rule UP-B3-FI)" in app.moves.note.text


def test_new_game_input_is_checked(app):
    app.setup.name.value = "   "
    game = app.game
    assert app.on_new_game() is None and "Your name" in app.message_text and app.game is game
    app.setup.name.value = "Ann"  # a bot name: the bots take other names
    app.setup.seed.value = "twelve"
    assert app.on_new_game() is None and "Game number" in app.message_text
    app.setup.seed.value = "12"
    app.setup.players.value = 6
    assert app.on_new_game() is True
    assert app.game.players[0] == "Ann" and len(set(app.game.players)) == 6 and app.game.seed == 12


def test_bots_pause_after_the_cap_and_go_on(monkeypatch):
    import railkit.ui.unionpacific.play.app as up_play

    monkeypatch.setattr(up_play, "MAX_BOT_ACTIONS", 2)
    app = PlayApp(seed=1, players=6, game_number=4, name="Alex")  # five computer players choose first shares (UP-S5)
    assert app.session.paused and app.session.acting is None
    assert app.continue_button.layout.display is None and "go on" in text(app.moves.waiting.value)
    assert app.moves.on_lay_first() is None and "go on" in app.moves.note.text
    for _ in range(20):
        if not app.session.paused:
            break
        app.on_continue()
    assert not app.session.paused and app.session.acting == app.session.humans[0]
    assert app.continue_button.layout.display == "none"
    assert app.on_continue() is None and "nothing left to do" in app.message_text
    assert MAX_BOT_ACTIONS >= 50  # the real cap leaves room for a whole round of five computer players


def test_map_is_redrawn_only_when_it_changes(app):
    until_step(app, "action")
    renders = app.moves.build.map_view.renders
    app.refresh()
    assert app.moves.build.map_view.renders == renders
    b = next(a for a in app.game.legal_actions("Alex") if isinstance(a, Build))
    app.moves.mode.value = "build"
    app.moves.build.card.value = b.card
    app.moves.build.company.value = b.company
    assert app.moves.build.map_view.renders == renders + 1


def test_app_text_comes_from_tr():
    from railkit.ui import i18n

    i18n.register_catalogue("up-play-test", {"Start a new game": "Uusi peli", "Undo my last move": "Peru"})
    i18n.set_language("up-play-test")
    try:
        app = PlayApp(seed=1, players=2, game_number=1)
        assert app.setup.start_button.description == "Uusi peli" and app.undo_button.description == "Peru"
    finally:
        i18n.set_language("en")
