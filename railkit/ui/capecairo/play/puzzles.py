"""The play lesson's puzzles: “Which bid?” in real positions (KK-A2..KK-A6), as ``railkit.ui.puzzles`` shows
them, the position drawn as the lesson's class table draws a seat (``KK_TABLE``)."""

from __future__ import annotations

from railkit.ui.app import Messages
from railkit.ui.capecairo.common import pounds
from railkit.ui.capecairo.play.together import KK_TABLE
from railkit.ui.puzzles import PuzzlePanel, lesson_puzzles

__all__ = ["PUZZLES_TAB", "kk_puzzles"]

PUZZLES_TAB = 3  # the lesson's fourth tab: opening it shows the first puzzle


def kk_puzzles(messages: Messages, previous: PuzzlePanel | None = None) -> PuzzlePanel:
    return PuzzlePanel(messages, "kk_play", KK_TABLE, lesson_puzzles("kk"), money=lambda m: pounds(round(m)),
                       previous=previous)
