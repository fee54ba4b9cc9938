"""Puzzles from real positions, as a play lesson's exercise: “Which bid?”, “Which share?”, “Where to build?”.

The puzzles are data (``railkit.lab.puzzles``, mined by ``python -m railkit.lab puzzles``): a position of a game
between computer players where one move was clearly better than the others. The panel replays the puzzle's log
through the engine, shows the position as the lesson's class table shows a seat (``TableGame.board_html`` and
``board_figure`` from the seat's own view: nothing the seat may not see), offers the stored choices in the
lesson's words (``TableGame.action_words``), grades the answer, and answers with each choice's evaluation in
plain words and the engine's explanation of the choices (``TableGame.why_html``, the “Why?” of the lesson; for a
build, the picked section's UP-B2 checks, ``move_html``), with the rule IDs.

Each answer is recorded like the lessons' other exercises (``ExerciseRecord``; the exercise is
``puzzle_<question>``, headed in ``railkit.lessons.EXERCISES``). The panel counts the puzzles solved and those
right at the first try; Previous and Next walk through them.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from railkit.game import BaseView
from railkit.lab.puzzles import Puzzle, replay, shipped
from railkit.messages import N_
from railkit.ui.app import InputError, Messages, Panel, guarded, verdict_html
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import format_number, tr, trn
from railkit.ui.records.lesson_record import ExerciseRecord
from railkit.ui.tables.table_game import TableGame
from railkit.ui.widgets import button, html_box, row, set_shown

__all__ = ["QUESTIONS", "PuzzlePanel", "exercise_id", "lesson_puzzles"]

log = logging.getLogger(__name__)

QUESTIONS = {"bid": N_("Which bid?"), "share": N_("Which share?"), "build": N_("Where to build?")}
# What each question asks of the seat, in the second person (the puzzle's seat is the learner's).
ASKS = {"bid": N_("You are {player}. Which sealed bid is best here?"),
        "share": N_("You are {player}. You have built; which share do you take?"),
        "build": N_("You are {player}. You build this turn: where is best?")}


# A choice's words may take two lines on a phone: each radio row grows with its label (ipywidgets gives it one line's
# height); the answer's table breaks between words only, with a first column wide enough to read, and scrolls.
PUZZLE_STYLE = """<style>
.railkit-puzzle-choices .widget-radio-box label { display: flex; flex-direction: row-reverse; justify-content: flex-end;
  flex-wrap: nowrap; gap: 6px; height: auto;
  min-height: 28px; line-height: 1.35; white-space: normal; align-items: flex-start; padding: 3px 0; }
.railkit-puzzle-choices .widget-radio-box input { margin-top: 3px; flex: none; }
.railkit-puzzle-feedback th, .railkit-puzzle-feedback td { overflow-wrap: normal; word-break: normal; }
.railkit-puzzle-feedback td.name { min-width: 11em; }
</style>"""


def exercise_id(question: str) -> str:
    """The exercise a puzzle's answer is recorded under (``railkit.lessons.EXERCISES``)."""
    return f"puzzle_{question}"


@dataclass(frozen=True)
class Position:
    """A puzzle at its position: the seat's view, its legal moves and the choices as the engine's actions."""

    puzzle: Puzzle
    view: BaseView
    legal: list[Any]
    choices: list[Any]


def position(puzzle: Puzzle) -> Position:
    """The puzzle replayed through the engine (a move the engine refuses raises its ``RuleError``)."""
    game = replay(puzzle)
    legal = game.legal_actions(puzzle.seat)
    choices = [game.registry.from_dict(c) for c in puzzle.choices]
    for choice in choices:
        if choice not in legal:
            raise ValueError(f"puzzle {puzzle.id}: {choice} is not a legal move there")
    return Position(puzzle, game.view(puzzle.seat), legal, choices)


def lesson_puzzles(game: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of ``game`` ("kk", "up"); none (and a log line) when the file cannot be read: the
    lesson works on without them."""
    try:
        return shipped(game)
    except (OSError, ValueError, KeyError, TypeError):
        log.exception("railkit: the %s puzzles could not be read", game)
        return ()


def _percent(share: float) -> str:
    return tr("{p} %", p=round(100 * share)).replace(" ", "\u00a0")  # a number and its sign stay on one line


class PuzzlePanel(Panel):
    """The puzzles of one play lesson; ``money`` writes an amount of the game's money (KK pounds, UP millions)."""

    def __init__(self, messages: Messages, lesson: str, game: TableGame, puzzles: Sequence[Puzzle],
                 money: Callable[[float], str], previous: PuzzlePanel | None = None) -> None:
        super().__init__(messages)
        self.lesson = lesson
        self.game = game
        self.puzzles = list(puzzles)
        self.money = money
        # What the learner did, kept through a rebuild in another language: per puzzle id, their answers
        self.index: int = previous.index if previous is not None else 0
        self.answers: dict[str, list[int]] = previous.answers if previous is not None else {}
        self._position: Position | None = None
        first = self.puzzles[0].question if self.puzzles else "bid"
        self.learning: ExerciseRecord = previous.learning if previous is not None else ExerciseRecord(
            lesson, exercise_id(first), self.puzzles[0].rules if self.puzzles else ())
        self.counter = html_box("railkit-puzzle-counter")
        self.ask = html_box("railkit-puzzle-question")
        self.board = html_box("railkit-puzzle-board")
        self.map_view = FigureView() if game.board_figure is not None else None
        self.choices = widgets.RadioButtons(options=[], value=None, layout=widgets.Layout(width="auto"))
        self.choices.add_class("railkit-puzzle-choices")
        self.check_button = button(tr("Check"), "railkit-puzzle-check", "check", "success",
                                   tr("Compare your choice with the search player's evaluation"), "120px")
        self.check_button.on_click(lambda _b: self.on_check())
        self.previous_button = button(tr("Previous puzzle"), "railkit-puzzle-previous", "arrow-left", "",
                                      tr("The puzzle before this one"))
        self.previous_button.on_click(lambda _b: self.on_move(-1))
        self.next_button = button(tr("Next puzzle"), "railkit-puzzle-next", "arrow-right", "info",
                                  tr("The next puzzle"))
        self.next_button.on_click(lambda _b: self.on_move(1))
        self.feedback = html_box("railkit-puzzle-answer")
        intro = tr("Positions from games between computer players where one move was clearly better than the "
                   "others: each choice was played on many times from what the seat could know.")
        parts: list[widgets.Widget] = [html_box("railkit-puzzle-intro", f"{PUZZLE_STYLE}<p>{html.escape(intro)}</p>"),
                                       row([self.previous_button, self.next_button, self.counter]), self.ask,
                                       self.board, self.choices, row([self.check_button]), self.feedback]
        if self.map_view is not None:  # the board with every train, last: on a phone its legend needs the room
            parts.append(self.map_view.widget)
        self.widget = widgets.VBox(parts)
        self.widget.add_class("railkit-puzzles")
        # The first position is replayed and drawn when the learner opens the puzzles (``open``), not with the page
        self.opened: bool = previous is not None and previous.opened
        if self.opened:
            self.show()

    def open(self) -> None:
        """The learner opened the puzzles: show the one on turn (once; later calls change nothing)."""
        if not self.opened:
            self.opened = True
            self.show()

    # -- what is on screen ------------------------------------------------------------------
    def current(self) -> Position:
        puzzle = self.puzzles[self.index]
        if self._position is None or self._position.puzzle is not puzzle:
            self._position = position(puzzle)
        return self._position

    def solved(self) -> tuple[int, int]:
        """Puzzles solved (answered right at some try) and those right at the first try."""
        best = {p.id: p.best for p in self.puzzles}
        solved = sum(1 for pid, picks in self.answers.items() if best.get(pid) in picks)
        first = sum(1 for pid, picks in self.answers.items() if picks and picks[0] == best.get(pid))
        return solved, first

    def show(self) -> None:
        """The puzzle ``index``: its position, question and choices (its answer too, once answered right)."""
        if not self.puzzles:
            self.ask.value = html.escape(tr("No puzzles were found for this game."))
            set_shown(self.choices, False)
            set_shown(self.check_button, False)
            return
        here = self.current()
        puzzle, view = here.puzzle, here.view
        solved, first = self.solved()
        total = len(self.puzzles)
        self.counter.value = html.escape(
            tr("Puzzle {number} of {total}", number=self.index + 1, total=total) + " · " +
            trn("{n} solved, {first} at the first try", "{n} solved, {first} at the first try", solved, first=first))
        self.ask.value = (f"<h4 style='margin:6px 0'>{html.escape(tr(QUESTIONS[puzzle.question]))}</h4>"
                          f"<p>{html.escape(tr(ASKS[puzzle.question], player=puzzle.seat))}</p>")
        labels = [(self.game.action_words(a, view), i) for i, a in enumerate(here.choices)]
        self.choices.options = labels
        picks = self.answers.get(puzzle.id, [])
        self.choices.value = picks[-1] if picks else None
        self.board.value = self.game.board_html(view, puzzle.seat, [puzzle.seat])
        if self.map_view is not None and self.game.board_figure is not None:
            picked = here.choices[picks[-1]] if picks else None
            self.map_view.show(self.game.board_figure(view, picked)[1]())
        self.feedback.value = self.answer_html(here, picks[-1]) if picks else ""
        self.previous_button.disabled = self.index == 0
        self.next_button.disabled = self.index >= total - 1

    def refresh(self) -> None:
        if self.opened:
            self.show()

    # -- the learner's moves ---------------------------------------------------------------
    @guarded
    def on_move(self, step: int) -> None:
        if not self.puzzles:
            return
        self.opened = True
        self.index = max(0, min(len(self.puzzles) - 1, self.index + step))
        puzzle = self.puzzles[self.index]
        self.learning.question(exercise_id(puzzle.question), puzzle.rules)
        self.clear_message()
        self.show()

    @guarded
    def on_check(self) -> bool:
        """Grade the choice on screen, record it, and answer with every choice's evaluation."""
        if not self.puzzles or not self.opened:
            return False
        here = self.current()
        picked = self.choices.value
        if picked is None or not 0 <= int(picked) < len(here.choices):
            raise InputError(tr("Pick one of the choices first."))
        puzzle = here.puzzle
        right = int(picked) == puzzle.best
        picks = self.answers.setdefault(puzzle.id, [])
        picks.append(int(picked))
        self.learning.answer(right)
        self.show()
        if right:
            self.show_ok(tr("Right: that is the best move here. Why is below."))
        else:
            self.show_info(tr("Not the best move here: compare the choices below."))
        return right

    # -- the answer ---------------------------------------------------------------------------
    def answer_html(self, here: Position, picked: int) -> str:
        """Each choice's evaluation in plain words, and the rules behind the choices (the engine's explanation)."""
        puzzle, view = here.puzzle, here.view
        right = picked == puzzle.best
        rows = []
        for i, (action, e) in enumerate(zip(here.choices, puzzle.evaluations, strict=False)):
            mark = f" <b>★ {html.escape(tr('best'))}</b>" if i == puzzle.best else ""
            yours = f" <i>({html.escape(tr('your choice'))})</i>" if i == picked else ""
            rows.append(
                f"<tr><td class='name'>{html.escape(self.game.action_words(action, view))}{mark}{yours}</td>"
                f"<td>{html.escape(format_number(e['place'], 1))}</td><td>{html.escape(_percent(e['wins']))}</td>"
                f"<td>{html.escape(self.money(e['money']))}</td></tr>")
        heads = "".join(f"<th>{html.escape(tr(h))}</th>" for h in (N_("average place"), N_("games won"),
                                                                      N_("money at the end")))
        table = (f"<div style='overflow-x:auto'><table class='railkit-table'><tr>"
                 f"<th class='name'>{html.escape(tr('choice'))}</th>{heads}</tr>{''.join(rows)}</table></div>")
        playouts = int(min(e["playouts"] for e in puzzle.evaluations)) if puzzle.evaluations else 0
        how = trn("Each choice was played on from here {n} time by computer players, on the same deals of the "
                  "cards you could not see. Place 1 is first; money is the average at the end.",
                  "Each choice was played on from here {n} times by computer players, on the same deals of the "
                  "cards you could not see. Place 1 is first; money is the average at the end.", playouts)
        best = here.choices[puzzle.best]
        others = [e for i, e in enumerate(puzzle.evaluations) if i != puzzle.best]
        top = puzzle.evaluations[puzzle.best]
        head = verdict_html(right) + " " + html.escape(tr(
            "The best move here is {move}: it won {wins} of the games played on from here, the best other choice "
            "{other}.", move=self.game.action_words(best, view), wins=_percent(top["wins"]),
            other=_percent(max((e["wins"] for e in others), default=0.0))))
        # the engine's words on the rules behind the moves (the lesson's “Why?”), and a build's UP-B2 checks
        why = self.game.why_html(view, puzzle.seat, here.legal, {}) + self.game.move_html(view, best)
        rules = html.escape(tr("The rules behind this question: {rules}.", rules=", ".join(puzzle.rules)))
        return (f"<div class='railkit-puzzle-feedback'><p>{head}</p>{table}<p><small>{html.escape(how)}</small></p>"
                f"<p>{rules}</p>{why}</div>")

