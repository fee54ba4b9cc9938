"""The Union Pacific board of a strategy-lab replay: every train on the board after a move (public, UP-B2)."""

from __future__ import annotations

from railkit.ui.i18n import tr
from railkit.ui.plot import Plot
from railkit.ui.unionpacific.board_map import building_map
from railkit.unionpacific import load_board
from railkit.unionpacific.views import UPView

__all__ = ["replay_board"]

HEIGHT = 560
WIDTH = 900  # the map's width on screen, for placing the city names


def replay_board(view: UPView) -> Plot:
    """The board of ``view`` (a spectator's view of a lab game) with its trains, titled by the turn."""
    if view.is_over:
        title = tr("The board at the end of the game")
    elif view.turn_number:
        title = tr("The board, turn {n}", n=view.turn_number)
    else:
        title = tr("The board: starting trains (UP-S1)")
    return building_map(load_board(view.options.board), view.trains_on, (), None, title=title, height=HEIGHT,
                        width=WIDTH)
