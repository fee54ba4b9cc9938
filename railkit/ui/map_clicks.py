"""Clicks on a plotly map, sent to the kernel without a FigureWidget.

A ``FigureWidget`` would carry plotly.js in its widget state (~5 MB a page, see ``figure_view``). The
maps are plain figures in an Output, so plotly's ``plotly_click`` event only exists in the browser.
railkit's Voila template (``voila_template/railkit/index.html.j2``) listens for it on every plot inside
a ``.railkit-figure`` and writes the clicked point's ``customdata`` into the nearest hidden text box
with the class ``railkit-map-click`` (the box sits next to the map in the same widget container),
then fires an ``input`` event so ipywidgets syncs the value. ``MapClicks`` observes that box and
calls back with the id. A counter after ``|`` makes a second click on the same point a new value.

Without the template (JupyterLab) nothing is sent: the lesson's lists remain the way to choose.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

CSS_CLASS = "railkit-map-click"


class MapClicks:
    """A hidden text box next to a map; ``on_click(callback)`` gets each clicked point's id."""

    def __init__(self) -> None:
        self.box = widgets.Text(value="", continuous_update=True, layout=widgets.Layout(display="none"))
        self.box.add_class(CSS_CLASS)
        self._callbacks: list[Callable[[str], None]] = []
        self.box.observe(self._changed, names="value")

    @property
    def widget(self) -> widgets.Text:
        return self.box

    def on_click(self, callback: Callable[[str], None]) -> None:
        self._callbacks.append(callback)

    def click(self, point_id: str) -> None:
        """What the browser does on a click (for tests and scripts)."""
        n = self.box.value.rpartition("|")[2]
        self.box.value = f"{point_id}|{int(n) + 1 if n.isdigit() else 1}"

    def _changed(self, change: dict[str, object]) -> None:
        point_id = str(change["new"]).rpartition("|")[0] or str(change["new"])
        if not point_id:
            return
        for callback in self._callbacks:
            callback(point_id)
