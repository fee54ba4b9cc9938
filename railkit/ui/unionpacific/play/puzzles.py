"""The play lesson's puzzles: “Which share?” (UP-B3) and “Where to build?” (UP-B1, UP-B2) in real positions, as
``railkit.ui.puzzles`` shows them, the position drawn as the lesson's class table draws a seat (``up_table``:
the seat's hand, the display, the board with every train)."""

from __future__ import annotations

from railkit.ui.app import Messages
from railkit.ui.i18n import format_money
from railkit.ui.puzzles import PuzzlePanel, lesson_puzzles
from railkit.ui.unionpacific.play.together import up_table
from railkit.unionpacific import load_board

__all__ = ["up_puzzles"]


def up_puzzles(messages: Messages, previous: PuzzlePanel | None = None) -> PuzzlePanel:
    """The puzzles' games were played on the shipped board (whatever board the lesson's own game uses)."""
    return PuzzlePanel(messages, "up_play", up_table(load_board()), lesson_puzzles("up"), money=lambda m: format_money(round(m)),
                       previous=previous)
