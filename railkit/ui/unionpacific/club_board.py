"""A club's own Union Pacific board in the lessons (``railkit.ui.club_files`` for Union Pacific).

The teacher sets ``RAILKIT_UP_BOARD=/path/board.json`` for the whole server; a learner may upload a
board in a lesson. Boards are checked by ``check_board_file``, the checker behind
``python -m railkit.unionpacific check-board`` (format: ``railkit/data/union_pacific/README.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from railkit.errors import DataError
from railkit.messages import N_
from railkit.ui.club_files import FileKind, LessonData, from_environment, playing_on
from railkit.ui.figure_view import FigureView
from railkit.ui.plot import Plot
from railkit.unionpacific import Board, load_board
from railkit.unionpacific.board import check_board_file

__all__ = ["UP_BOARD", "board_of", "lesson_board", "mark_map", "mark_maps", "starting_position"]


def _check(path: Path) -> tuple[Board | None, Sequence[DataError]]:
    return check_board_file(path)


UP_BOARD = FileKind(
    noun=N_("board"), env_var="RAILKIT_UP_BOARD", option="board", check=_check,
    command="python -m railkit.unionpacific check-board",
    builtin_note="The real Union Pacific map and six of the ten company names are not in the sources: "
                 "this board is railkit's reconstruction.")


def lesson_board(data: LessonData | None = None) -> LessonData:
    """The board a lesson starts on: ``data`` if given, else the teacher's ``RAILKIT_UP_BOARD`` (or the
    built-in board, with a banner when that file is broken)."""
    return data if data is not None else from_environment(UP_BOARD)


def board_of(data: LessonData) -> Board:
    board: Board = data.club.data if data.club is not None else load_board()
    return board


def starting_position(board: Board) -> tuple[dict[str, list[str]], dict[str, int]]:
    """UP-S1 on any board: one train on each coloured starting space; the rest of each company's trains
    in its supply (the same position a fresh game's public view shows)."""
    trains = {s.id: list(s.starting) for s in board.sections.values() if s.starting}
    supply = {c.key: c.trains - len(c.starting_sections) for c in board.companies}
    return trains, supply


def mark_map(fig: Plot, data: LessonData) -> Plot:
    """A board map's “reconstruction” note replaced by “Playing on … (your club's board)” when the
    lesson plays on a club board (the map then shows the club's own data). A new Plot: the board's
    cached layout pieces stay as they were."""
    if data.club is None:
        return fig
    said = playing_on(data.club)
    notes = [({**a, "text": said} if "rulings" in str(a.get("text", "")) else a)
             for a in fig.layout_spec.get("annotations") or ()]
    return Plot(fig.traces, {**fig.layout_spec, "annotations": notes}, stable=fig.stable)


def mark_maps(view: FigureView, data: LessonData) -> None:
    """Every figure ``view`` shows from now on gets ``mark_map`` (for a map drawn by a lesson's panel).
    Only this one view changes; nothing happens on the built-in board."""
    if data.club is None:
        return
    show = view.show
    view.show = lambda fig: show(mark_map(fig, data))  # type: ignore[method-assign]
