"""The one seat policy for computer players, shared by a play session (``railkit.session.Session.run_bots``) and a
class table (``railkit.tables.table.Table.run_bots``): which computer seat moves next and how many moves at most in
one go.

* **Which seat**: the first of the game's ``players_to_act()`` that the computer plays (``computer(seat)``: a bot's
  seat, or a learner's seat on autopilot), asked again after every move; none once the game is over.
* **How many**: at most ``limit`` moves in one go. A page waits for its call (``PAGE_BOT_MOVES``: then the session
  pauses and the learner's "go on" resumes); a table has no one to press "go on", so its budget
  (``TABLE_BOT_MOVES``) holds a whole game of computer players and only guards against a bot that never ends one.
  When the budget is spent while a computer seat is still to act, ``cut_short`` says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from railkit.game import Game

__all__ = ["PAGE_BOT_MOVES", "TABLE_BOT_MOVES", "BotTurns", "next_computer_seat"]

PAGE_BOT_MOVES = 200  # per call of a page: the learner never waits long, and a misbehaving bot cannot loop
TABLE_BOT_MOVES = 2000  # per change at a table: a whole six-seat game of computer players takes about 400


def next_computer_seat(game: Game[Any], computer: Callable[[str], bool]) -> str | None:
    """The computer seat that moves now: the first seat to act that ``computer`` plays (None: none, or game over)."""
    if game.is_over:
        return None
    return next((seat for seat in game.players_to_act() if computer(seat)), None)


class BotTurns:
    """The computer seats' moves of one go, as an iterator: each item is the seat to move now (the caller makes
    the move before asking for the next). ``game()`` is the game as it stands (asked afresh each time: a table may
    rebuild its game); ``stop(game)`` ends the go before a move without cutting it short."""

    def __init__(self, game: Callable[[], Game[Any]], computer: Callable[[str], bool], limit: int = PAGE_BOT_MOVES,
                 stop: Callable[[Game[Any]], bool] | None = None) -> None:
        if limit < 1:
            raise ValueError("a computer players' go needs a budget of at least 1 move")
        self._game = game
        self._computer = computer
        self._stop = stop
        self.limit = limit
        self.moves = 0
        self.cut_short = False  # the budget ran out with a computer seat still to act

    def __iter__(self) -> Iterator[str]:
        while True:
            game = self._game()
            if self._stop is not None and self._stop(game):
                return
            seat = next_computer_seat(game, self._computer)
            if seat is None:
                return
            if self.moves >= self.limit:
                self.cut_short = True
                return
            yield seat
            self.moves += 1
