"""Show plotly figures in an app: one ``ipywidgets.Output`` re-rendered with a plain ``go.Figure``.

Why not ``go.FigureWidget``: in plotly 7 a FigureWidget is an anywidget whose state carries the
whole plotly.js bundle, ~5 MB per widget per page. Rendering a ``go.Figure`` into an Output sends
only the figure's JSON as a ``application/vnd.plotly.v1+json`` output; the browser draws it with
plotly.js from the ``jupyterlab-plotly`` labextension that the plotly package installs, which Voila
and JupyterLab serve from the local server. Nothing comes from a CDN. Measured numbers are in
docs/benchmarks.md ("Apps in the browser and under load").

The bundle is built here from the figure's JSON, not by plotly's renderers: the renderer module
pulls in nbformat and jsonschema (about 2.4 s of every kernel's start, and jsonschema cannot load
in a browser kernel at all), and some renderers (``notebook_connected``) load plotly.js from a
CDN. The bundle is the same one the ``plotly_mimetype`` renderer makes (tests compare them).
"""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go
import plotly.io as pio

MIME = "application/vnd.plotly.v1+json"
DEFAULT_CONFIG: dict[str, Any] = {
    "displaylogo": False,
    "responsive": True,
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d", "toImage"],
}
# For a figure beside other widgets in a row (an HBox): a responsive plot takes 100% of its parent's
# height, which is 0 in a row whose height comes from its content, and the map vanished (issue 9 item 8).
# A fixed-size plot takes the figure's height and the row's width when it is drawn.
ROW_MAP: dict[str, Any] = {"responsive": False}


def figure_bundle(fig: go.Figure, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``application/vnd.plotly.v1+json`` mime bundle of ``fig`` (with ``config``, if any)."""
    data = json.loads(pio.to_json(fig, validate=False, remove_uids=False))
    if config:
        data["config"] = config
    return {MIME: data}


class FigureView:
    """A slot in an app that shows one figure at a time; ``show(fig)`` replaces it."""

    def __init__(self, config: dict[str, Any] | None = None, **layout: Any) -> None:
        self.output = widgets.Output(layout=widgets.Layout(**layout))
        self.output.add_class("railkit-figure")
        self.config = {**DEFAULT_CONFIG, **(config or {})}
        self.figure: go.Figure | None = None  # what is on screen now (for tests)
        self.renders = 0

    @property
    def widget(self) -> widgets.Output:
        return self.output

    def show(self, fig: go.Figure) -> None:
        """Replace the figure on screen by ``fig``.

        Sets the Output's ``outputs`` state directly instead of capturing with ``with output:``.
        Capturing a large plotly output while a cell executes (an app drawing its first map) hung
        Voila's and nbclient's executor until the cell timeout (the UP board, ~90 KB of JSON, as
        measured in benchmarks/figure_output.ipynb); a state update has no such path.
        """
        bundle = figure_bundle(fig, self.config)
        self.figure = fig
        self.renders += 1
        self.output.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)

    def clear(self) -> None:
        self.figure = None
        self.output.outputs = ()

    @staticmethod
    def bundle(fig: go.Figure) -> dict[str, Any]:
        """The mime bundle ``show`` displays (used by tests to check no CDN renderer is involved)."""
        return figure_bundle(fig)
