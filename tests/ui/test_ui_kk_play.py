"""KkPlayApp driven headless (lesson kk_play; KK-S, KK-A, KK-B, KK-R, KK-E): a complete game through the
app's callbacks, bad bids, the build explanation and the purchases offered, undo by replay, the two
endings, and the cost exercise."""

import html
import json
import random
import re
from pathlib import Path

import pytest

from railkit.capecairo import Bid, Build, Choose, explain_build, load_game, new_game
from railkit.ui.capecairo.common import as_learner
from railkit.ui.capecairo.panels import new_session
from railkit.ui.capecairo.play import NO_BUILD, KkPlayApp
from railkit.ui.capecairo.play.exercise import random_build_question

FIXTURES = Path(__file__).resolve().parent.parent / "capecairo" / "fixtures"


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


@pytest.fixture
def app():
    return KkPlayApp(seed=3)


def play_one_move(app, rng) -> None:
    """One move of the learner through the app's widgets and callbacks."""
    game = app.game
    if game.phase == "bid":
        app.auction.bid_field.value = str(rng.randint(0, min(15, game.state.money[app.you])))
        app.on_bid()
    elif game.phase == "choose":
        app.on_choose(rng.choice(game.state.offer))
    elif app.building.buy.value != NO_BUILD and rng.random() < 0.75:
        if len(app.building.buy.options) > 1 and rng.random() < 0.5:
            app.building.buy.value = app.building.buy.options[-1][1]  # buy more, keep bonus tracks
        app.on_build()
    else:
        app.on_pass()


def test_KK_S1_a_new_game_starts_at_the_first_auction_with_bots_bids_sealed(app):
    game = app.game
    assert game.players == ("You", "Ann", "Ben") and game.phase == "bid"
    assert game.players_to_act() == ("You",) and set(game.state_dict()["pending_bids"]) == {"Ann", "Ben"}
    assert all(m == 100 for m in game.state.money.values())
    race = text(app.race.value)
    assert "You" in race and "Cairo" in race and "KK-E1" in race
    assert "sealed ✔" in text(app.auction.players_html.value)
    assert "auction 1" in text(app.status.value)
    assert app.undo_button.disabled  # nothing of yours to undo yet


@pytest.mark.parametrize("typed, says", [
    ("", "is empty"), ("ten", "must be a whole number"), ("2.5", "must be a whole number"),
    ("-1", "cannot be negative"), ("101", "you have only 100 pounds"),
])
def test_KK_A2_bad_bid_shows_a_clear_message_and_changes_nothing(app, typed, says):
    before = app.game.state_dict()
    app.auction.bid_field.value = typed
    app.on_bid()
    assert app.message_kind == "error" and says in app.message_text
    assert app.game.state_dict() == before and app.last_events == []


@pytest.mark.parametrize("players", [2, 4])
def test_a_complete_game_through_the_apps_callbacks(players):
    app = KkPlayApp(seed=players, players=players)
    rng = random.Random(players)
    moves = 0
    while not app.game.is_over:
        assert app.game.players_to_act() == (app.you,) or app.game.phase == "bid"
        play_one_move(app, rng)
        assert app.message_kind == "ok", app.message_text
        assert app.last_events  # the log of what happened since the move
        moves += 1
        assert moves < 2000
    result = app.game.result()
    assert result.is_over and result.end_reason in ("KK-E1", "KK-B8")
    status = text(app.status.value)
    assert result.winners[0] in status and result.end_reason in status
    assert "The game is over" in app.message_text
    assert app.building.widget.layout.display == "none" and app.auction.bid_row.layout.display == "none"
    assert app.auto_button.disabled
    log = text(app.log_html.value)
    assert "KK-S1" in log and result.end_reason in log


def test_KK_B2_the_build_explanation_and_the_purchases_come_from_the_engine():
    seen = 0
    for seed in range(12):
        app = KkPlayApp(seed=seed, players=2)
        rng = random.Random(seed)
        while not app.game.is_over and seen < 6:
            game = app.game
            if game.phase == "build":
                assert app.building.widget.layout.display == ""
                e = explain_build(game, app.you)
                shown = text(app.building.explain_html.value)
                assert all(as_learner(s, app.you) in shown for s in e.sentences)
                builds = [a.buy for a in game.legal_actions(app.you) if isinstance(a, Build)]
                offered = [v for _label, v in app.building.buy.options if v != NO_BUILD]
                assert offered == builds
                assert app.building.build_button.disabled is (not builds)
                seen += 1
            play_one_move(app, rng)
    assert seen == 6


def test_KK_B2_unaffordable_build_is_refused_with_a_message_and_changes_nothing(app):
    # Everything bid away (KK-A3): no money to buy pieces, and the card has none.
    app.install(new_session(new_game(["You", "Ann"], seed=0, stack=["R01", "S01"]), "You"))
    app.auction.bid_field.value = "100"
    app.on_bid()
    game = app.game
    while game.phase == "choose":
        app.on_choose(game.state.offer[0])
    assert game.state.money["You"] == 0
    while not (game.phase == "build" and game.current_player == "You" and not
               any(isinstance(a, Build) for a in game.legal_actions("You"))):
        app.on_pass()
    assert app.building.buy.value == NO_BUILD and app.building.build_button.disabled
    assert "cannot build now" in app.building.buy.options[0][0]
    before = game.state_dict()
    app.on_build()
    assert app.message_kind == "error" and "cannot build now" in app.message_text
    assert "cannot afford" in app.message_text or "nothing to build" in app.message_text
    assert game.state_dict() == before
    assert "cannot pay" in text(app.building.explain_html.value)


def test_undo_takes_back_the_learners_last_move_by_replay(app):
    rng = random.Random(7)
    for _ in range(6):
        play_one_move(app, rng)
    assert not app.game.is_over
    game = app.game
    index = max(i for i, a in enumerate(game.log) if a.player == "You")
    expected = game.undo(len(game.log) - index).state_dict()
    undone = game.log[index]
    after = game.state_dict()
    app.on_undo()
    assert app.message_kind == "info" and "Taken back" in app.message_text
    assert app.game.state_dict() == expected
    assert "You" in app.game.players_to_act()
    # the same move again gives the same game: the computer players decide the same way
    replay_move(app, undone)
    assert app.message_kind == "ok" and app.game.state_dict() == after


def replay_move(app, action) -> None:
    if isinstance(action, Bid):
        app.auction.bid_field.value = str(action.amount)
        app.on_bid()
    elif isinstance(action, Choose):
        app.on_choose(action.card_id)
    elif isinstance(action, Build):
        app.building.buy.value = action.buy
        app.on_build()
    else:
        app.on_pass()


def test_undo_with_no_move_of_yours_is_refused(app):
    before = app.game.state_dict()
    app.on_undo()
    assert app.message_kind == "error" and "nothing to undo" in app.message_text
    assert app.game.state_dict() == before


def test_undo_twice_and_after_the_end(app):
    rng = random.Random(2)
    while not app.game.is_over:
        play_one_move(app, rng)
    n = len(app.game.log)
    app.on_undo()
    assert not app.game.is_over and len(app.game.log) < n
    m = len(app.game.log)
    app.on_undo()
    assert len(app.game.log) < m and app.message_kind == "info"


def test_computer_plays_my_move(app):
    app.on_auto()
    assert app.message_kind == "ok" and "The computer made your move" in app.message_text
    assert any(a.player == "You" for a in app.game.log)


def test_KK_B8_stall_ending_is_shown_clearly(app):
    data = json.loads((FIXTURES / "kk_saved_3p_stall.json").read_text())
    save = data["save"]
    save["options"]["deck"] = str(FIXTURES / "kk_test_deck.json")
    game = load_game(save)
    assert game.result().end_reason == "KK-B8"
    app.install(new_session(game, "Bob"))
    status = text(app.status.value)
    assert "Ann wins by the stall ending (KK-B8)!" in status and "stalled" in status
    assert app.building.widget.layout.display == "none" and app.auto_button.disabled
    app.on_auto()
    assert app.message_kind == "error" and "New game" in app.message_text


@pytest.mark.parametrize("length", [3, 5])
def test_KK_E1_short_game_option_ends_at_the_chosen_crossing(app, length):
    app.length.value = length
    app.start.players.value = 2
    app.on_new_game()
    rng = random.Random(length)
    while not app.game.is_over:
        play_one_move(app, rng)
    result = app.game.result()
    if result.end_reason == "KK-E1":
        assert max(result.score.values()) == length
    assert f"{length} terrains wins" in text(app.race.value)


# -- the exercise -------------------------------------------------------------------------------------
def answer(app, pieces, cost, afford):
    app.exercise.pieces_field.value = str(pieces)
    app.exercise.cost_field.value = str(cost)
    app.exercise.afford.value = afford


def test_exercise_accepts_the_engines_numbers_and_rejects_wrong_ones(app):
    q = app.exercise.question
    e = explain_build(q.game, q.player)
    assert (e.to_buy, e.cost, e.can_afford) == (q.explanation.to_buy, q.explanation.cost, q.explanation.can_afford)
    answer(app, e.to_buy, e.cost, e.can_afford)
    assert app.exercise.on_check() is True and app.message_kind == "ok" and app.exercise.score == [1, 1]
    assert all(s in text(app.exercise.feedback.value) for s in e.sentences)
    app.exercise.on_new_question()
    e2 = app.exercise.question.explanation
    answer(app, e2.to_buy + 1, e2.cost, e2.can_afford)
    assert app.exercise.on_check() is False and app.exercise.score == [1, 2] and "✘" in app.exercise.feedback.value


@pytest.mark.parametrize("pieces, cost, afford, says", [
    ("", "10", True, "is empty"), ("x", "10", True, "must be a whole number"),
    ("-1", "10", True, "cannot be less than 0"), ("1", "", True, "is empty"), ("1", "10", None, "Yes or No"),
])
def test_exercise_bad_input_shows_a_message(app, pieces, cost, afford, says):
    answer(app, pieces, cost, afford)
    assert app.exercise.on_check() is None and app.message_kind == "error" and says in app.message_text
    assert app.exercise.score == [0, 0]


@pytest.mark.parametrize("kind", ["buy", "free", "short"])
def test_exercise_positions_are_real_building_turns(kind):
    rng = random.Random(kind)
    kinds = set()
    for _ in range(4):
        q = random_build_question(rng, kind)
        game = q.game
        assert game.phase == "build" and game.current_player == q.player and game.state.queues[q.player]
        kinds.add(q.kind)
    assert kind in kinds


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_KK_B2_build_pressed_again_after_the_building_round_is_refused_in_words(seed):
    """A second press of Build (a double click, or a click sent before the page hid the button) while the
    Buy list still holds the option of the build just made: a clear refusal, never “Something went wrong”
    (it once raised ``IndexError`` on the learner's empty line of cards)."""
    app = KkPlayApp(seed=seed, players=2)
    rng = random.Random(seed)
    pressed = 0
    while not app.game.is_over and pressed < 2:
        game = app.game
        if game.phase == "build" and app.building.buy.value != NO_BUILD:
            app.on_build()
            assert app.message_kind == "ok", app.message_text
            if app.game.is_over:
                break
            hidden = app.building.widget.layout.display == "none"
            before = app.game.state_dict()
            app.on_build()  # the second press
            assert "Something went wrong" not in app.message_text
            if hidden:  # not the learner's building turn any more: refused, nothing changes
                assert app.message_kind == "error" and app.game.state_dict() == before
            pressed += 1
        else:
            play_one_move(app, rng)
    assert pressed == 2
