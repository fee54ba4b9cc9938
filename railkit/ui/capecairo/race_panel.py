"""The race map in a lesson (KK-A6, KK-B4, KK-E1): ``race_map.race_figure`` in a ``FigureView``,
with the note that the route and deck are reconstructions (link to the rulings page).

A figure costs a render in the browser, so it is redrawn only when what it shows changed: the
terrain crossed by each player, the card ids in front of each train, and whether the game is over.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from railkit.capecairo.views import KKView
from railkit.ui.capecairo.race_map import race_figure
from railkit.ui.docs import reconstruction_note
from railkit.ui.figure_view import FigureView
from railkit.ui.first_paint import defer_first_show
from railkit.ui.i18n import tr

MAP_HEIGHT = 620  # px: Africa is tall; at 1366×768 the map fits beside nothing, so below the race table


def race_key(view: KKView) -> tuple[Any, ...]:
    """What the map shows: crossed counts, queue card ids, over (and the players and length)."""
    players = tuple(view.players)
    return (players, view.you, view.win_crossings, tuple(view.crossed[p] for p in players),
            tuple(tuple(c["id"] for c in view.queues[p]) for p in players), view.is_over)


class RaceMapPanel:
    """The map slot and its note; ``refresh(view)`` redraws only on a change of ``race_key``."""

    def __init__(self, height: int = MAP_HEIGHT) -> None:
        self.height = height
        self.figure = FigureView()
        self.figure.widget.add_class("railkit-kk-race-map")
        defer_first_show(self.figure)  # the page appears without waiting for plotly.js (first_paint)
        self.note = widgets.HTML(reconstruction_note(tr(
            "The card game has no map: this route through nine real towns is an illustration (each leg is one "
            "terrain card), and the deck of 50 cards is railkit's reconstruction.")))
        self.note.add_class("railkit-kk-race-note")
        self.widget = widgets.VBox([self.figure.widget, self.note])
        self.key: tuple[Any, ...] | None = None

    def refresh(self, view: KKView) -> bool:
        """Redraw when the race changed; True when it did."""
        key = race_key(view)
        if key == self.key:
            return False
        self.key = key
        self.figure.show(race_figure(view, height=self.height))
        return True
