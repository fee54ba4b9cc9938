"""What every panel of the play lesson is shown: ``Screen``, one snapshot per refresh."""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as widgets

from railkit.session import Session
from railkit.ui.records.learner import is_default_learner
from railkit.unionpacific import UnionPacificGame
from railkit.unionpacific.views import UPView


@dataclass(frozen=True)
class Screen:
    """The session, the engine's view for whoever may see the screen now (``session.viewer()``), and
    the payouts whose breakdown the exercise still hides."""

    session: Session[UnionPacificGame]
    view: UPView
    hidden_payouts: frozenset[int] = frozenset()

    @classmethod
    def of(cls, session: Session[UnionPacificGame], hidden_payouts: frozenset[int] = frozenset()) -> Screen:
        return cls(session, session.game.view(session.viewer()), hidden_payouts)

    @property
    def game(self) -> UnionPacificGame:
        return self.session.game

    @property
    def phase(self) -> str:
        return str(self.view.phase)

    @property
    def acting(self) -> str | None:
        return self.session.acting

    @property
    def you(self) -> str | None:
        """The learner: the one human against the computer; in the hot seat the seat named with the default
        learner's name (“You”, “Sinä”), whom every sentence addresses in the second person, if there is one."""
        if self.session.you is not None or not self.session.hot_seat:
            return self.session.you
        return next((p for p in self.session.humans if is_default_learner(p)), None)

    @property
    def may_act(self) -> bool:
        """The move controls show: a human is to act and (hot seat) has shown their hand."""
        return self.session.may_act


def play_columns(hand: widgets.Widget, moves: widgets.Widget, board_map: widgets.Widget,
                 table: widgets.Widget, events: widgets.Widget) -> widgets.Box:
    """The play lesson's main area: the hand and the move controls on the left, the map beside them so
    the legal sections stay in view while choosing, the players' table and the latest moves below. On a
    narrow screen the map wraps below the controls. The map is a fixed-size figure (``ROW_MAP``)."""
    left = widgets.VBox([hand, moves], layout=widgets.Layout(flex="0 1 500px", min_width="0"))
    board_map.layout.flex = "1 1 560px"
    board_map.layout.min_width = "0"
    top = widgets.HBox([left, board_map], layout=widgets.Layout(align_items="flex-start", flex_flow="row wrap",
                                                                grid_gap="12px"))
    below = widgets.HBox([table, events], layout=widgets.Layout(align_items="flex-start", flex_flow="row wrap",
                                                                grid_gap="12px"))
    table.layout.flex = "1 1 560px"
    events.layout.flex = "1 1 380px"
    return widgets.VBox([top, below])
