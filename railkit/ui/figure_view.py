"""Show plotly figures in an app: one ``ipywidgets.Output`` re-rendered with a plain ``go.Figure``.

Why not ``go.FigureWidget``: in plotly 7 a FigureWidget is an anywidget whose state carries the
whole plotly.js bundle, ~5 MB per widget per page. Rendering a ``go.Figure`` into an Output sends
only the figure's JSON as a ``application/vnd.plotly.v1+json`` output; the browser draws it with
plotly.js from the ``jupyterlab-plotly`` labextension that the plotly package installs, which Voila
and JupyterLab serve from the local server. Nothing comes from a CDN. Measured numbers are in
docs/benchmarks.md ("Apps in the browser and under load").

Always the ``plotly_mimetype`` renderer, explicitly: plotly's default renderer depends on the
environment it guesses, and some choices (``notebook_connected``, ``iframe_connected``) load
plotly.js from a CDN.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go
import plotly.io as pio

RENDERER = "plotly_mimetype"
MIME = "application/vnd.plotly.v1+json"
DEFAULT_CONFIG: dict[str, Any] = {
    "displaylogo": False,
    "responsive": True,
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d", "toImage"],
}


def _warm_up() -> None:
    """Render an empty figure once when this module is imported.

    plotly's first render imports nbformat and jsonschema (about 1.5 s here). Voila preheats each
    lesson's kernel by running the notebook, which imports this module, so paying the cost now
    keeps it off the learner's first click.
    """
    pio.renderers[RENDERER].to_mimebundle(go.Figure().to_dict())


_warm_up()


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
        bundle = pio.renderers[RENDERER].to_mimebundle(fig.to_dict())
        if self.config:
            bundle[MIME]["config"] = self.config
        self.figure = fig
        self.renders += 1
        self.output.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)

    def clear(self) -> None:
        self.figure = None
        self.output.outputs = ()

    @staticmethod
    def bundle(fig: go.Figure) -> dict[str, Any]:
        """The mime bundle ``show`` displays (used by tests to check no CDN renderer is involved)."""
        bundle: dict[str, Any] = pio.renderers[RENDERER].to_mimebundle(fig.to_dict())
        return bundle
