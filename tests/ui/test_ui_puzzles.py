"""The play lessons' puzzles (railkit/ui/puzzles.py) driven headless: “Which bid?” in Kap bis Kairo and “Which
share?”/“Where to build?” in Union Pacific are shown from the seat's own view, graded, answered with every
choice's evaluation and the rules behind it (KK-A2, UP-B3, UP-B2), counted, and kept through a language switch."""

from __future__ import annotations

import html
import re

import pytest

from railkit.lab.puzzles import replay
from railkit.ui import i18n, language
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.capecairo.play.puzzles import PUZZLES_TAB
from railkit.ui.puzzles import position
from railkit.ui.unionpacific.play import PlayApp


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def test_KK_A2_which_bid_is_graded_counted_recorded_and_answered_with_each_choices_evaluation():
    app = KkPlayApp(seed=3)
    p = app.puzzles
    assert not p.opened and p.ask.value == ""  # nothing replayed before the tab is opened
    app.tabs.selected_index = PUZZLES_TAB
    first = p.puzzles[0]
    assert "Which bid?" in text(p.ask.value) and first.seat in text(p.ask.value)
    assert [label for label, _ in p.choices.options] == [f"Bid £{c['amount']}" for c in first.choices]
    assert p.current().view == replay(first).view(first.seat)  # the seat's view: no other seat's sealed bid
    assert "Puzzle 1 of" in text(p.counter.value) and "0 solved" in text(p.counter.value)
    p.on_check()
    assert app.message_kind == "error" and "Pick one of the choices" in app.message_text
    p.choices.value = (first.best + 1) % len(first.choices)
    assert p.on_check() is False and app.message_kind == "info"
    answer = text(p.feedback.value)
    assert "✘ wrong" in answer and "★ best" in answer and "KK-A2, KK-A3, KK-A4, KK-A6" in answer
    assert "Why these bids?" in answer  # the engine's explanation of the bids, as the lesson's hint gives it
    for e in first.evaluations:
        assert f"{round(100 * e['wins'])} %" in answer
    p.choices.value = first.best
    assert p.on_check() is True and app.message_kind == "ok"
    assert "1 solved, 0 at the first try" in text(p.counter.value)
    assert (p.learning.exercise, p.learning.attempt, p.learning.rules) == ("puzzle_bid", 2, tuple(first.rules))
    p.on_move(1)
    assert p.index == 1 and p.learning.attempt == 0 and p.feedback.value == "" and p.choices.value is None
    p.choices.value = p.puzzles[1].best
    assert p.on_check() is True and "2 solved, 1 at the first try" in text(p.counter.value)
    p.on_move(-1)
    assert p.index == 0 and p.choices.value == first.best and "✔ right" in text(p.feedback.value)
    assert p.previous_button.disabled and not p.next_button.disabled
    language.switch_language("fi")  # the app is built again in Finnish: the puzzles keep their place and answers
    try:
        assert app.puzzles is not p and app.puzzles.index == 0 and app.puzzles.answers == p.answers
        assert "Mikä tarjous?" in text(app.puzzles.ask.value)
    finally:
        language.switch_language("en")


def test_UP_B3_UP_B2_which_share_and_where_to_build_show_the_seats_hand_and_the_board():
    app = PlayApp(seed=1)
    p = app.puzzles
    assert not p.opened
    app.puzzles_box.selected_index = 0
    kinds = {q.question: i for i, q in reversed(list(enumerate(p.puzzles)))}
    assert set(kinds) == {"share", "build"}
    p.on_move(kinds["build"] - p.index)
    build = p.puzzles[p.index]
    assert "Where to build?" in text(p.ask.value) and "Your hand" in text(p.board.value)
    assert p.map_view is not None and p.map_view.figure is not None  # the whole board with every train
    p.choices.value = build.best
    assert p.on_check() is True
    answer = text(p.feedback.value)
    assert "✔ right" in answer and "UP-B1, UP-B2, UP-D2" in answer and "million" in answer
    assert "UP-B2a" in answer  # the best build's UP-B2 checks, as the engine explains a placement
    p.on_move(kinds["share"] - p.index)
    assert "Which share?" in text(p.ask.value)
    assert all("(UP-B3)" in label for label, _ in p.choices.options)
    assert p.learning.exercise == "puzzle_share"


def test_a_puzzle_whose_move_is_not_legal_there_is_refused_in_words():
    from dataclasses import replace

    from railkit.lab.puzzles import shipped

    puzzle = shipped("kk")[0]
    wrong = replace(puzzle, choices=[{**puzzle.choices[0], "amount": 999}])
    with pytest.raises(Exception, match="KK-A2|not a legal move"):
        position(wrong)
