"""In the play lesson every prompt has “Why these choices?” (the engine's legal moves with
their rule IDs) and a hint (the search player's move, evaluated); after the game, a look back at the learner's moves
the heuristic player judged weak, with why."""

import html
import re

import pytest
from test_ui_up_play import act, play_first_legal

from railkit.ui.unionpacific.common import company_name
from railkit.ui.unionpacific.play import PlayApp


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def rules(value: str) -> set[str]:
    return set(re.findall(r"UP-[A-Z]+\d[a-f]?", text(value)))


@pytest.fixture
def app():
    return PlayApp(seed=6, players=3, game_number=14, name="Kim")


def hinted_move(app):
    """The hint's move, played through the app (the heuristic player's choice is always legal)."""
    assert app.moves.on_hint() is None and app.moves.note.kind == "info"
    assert "search player would play" in app.moves.note.text and "wins" in app.moves.note.text
    return app.moves.note.text


def test_every_step_has_why_with_the_rules_of_its_legal_moves(app):
    seen = {}
    for _ in range(200):
        if app.game.is_over:
            break
        step = app.game.view(None).phase
        assert app.moves.help_row.layout.display is None, step
        seen.setdefault(step, app.moves.why.value)
        action = app.game.legal_actions("Kim")[0]
        act(app, action)  # the learner's clicks
    assert {"first_share", "action", "draw"} <= set(seen)
    assert "UP-S5" in rules(seen["first_share"])
    assert {"UP-B2a", "UP-B2f", "UP-T3", "UP-I1"} <= rules(seen["action"])
    assert {"UP-B3", "UP-D1"} <= rules(seen["draw"])
    assert "Why these choices?" in text(seen["action"])
    assert "You play" in text(seen["draw"]) or "You take" in text(seen["draw"])  # second person for the learner


def test_the_first_share_hint_names_the_share_and_why_and_nothing_is_played(app):
    """UP-S5: the engine's words keep a first share face down, but the learner's own hint names it."""
    before = len(app.game.log)
    assert app.moves.on_hint() is None and app.moves.note.kind == "info"
    words = app.moves.note.text
    hand = app.game.view("Kim").hand.shares
    best = words.split("Next best")[0]
    named = [c for c in hand if company_name(app.board, c) in best]
    assert len(named) == 1, words  # a company of the learner's hand
    assert "You lay a first share of" in words and "face down (UP-S5)" in words
    assert len(app.game.log) == before
    app.moves.first_pick.value = app.game.legal_actions("Kim")[0].card  # a choice keeps an info message
    assert app.moves.note.text == words


def test_the_hint_names_a_legal_move_and_nothing_is_played(app):
    while app.game.view(None).phase != "action" or app.game.current_player != "Kim":  # past the first shares
        act(app, app.game.legal_actions("Kim")[0])
    before = len(app.game.log)
    words = hinted_move(app)
    assert len(app.game.log) == before and "You" in words


@pytest.mark.slow  # a whole game through the lesson's callbacks (tests/ui/test_ui_up_play.py plays one in the fast tier)
def test_after_the_game_a_review_lists_weak_moves_with_rules():
    app = PlayApp(seed=4, players=3, game_number=22, name="Kim")
    play_first_legal(app)
    if app.exercise.question is not None and app.exercise.question.number in app.exercise.hidden:
        assert "A look back" not in text(app.result.widget.value)  # the result waits for the answer
        app.exercise.on_skip()
    shown = text(app.result.widget.value)
    assert "A look back at your moves" in shown
    assert "The heuristic player suggests instead: you " in shown and "Turn" in shown
    assert len(re.findall(r"The heuristic player suggests instead", shown)) <= 5
    assert rules(app.result.widget.value) & {"UP-D2", "UP-D3", "UP-I1", "UP-I4", "UP-B3", "UP-T2", "UP-B4"}
