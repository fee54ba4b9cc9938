"""FigureView builds plotly's mime bundle itself: the same bundle as plotly's renderer, without
importing the renderer's nbformat/jsonschema chain (a kernel's start pays none of it)."""

import subprocess
import sys

import plotly.graph_objects as go
import plotly.io as pio

from railkit.ui.figure_view import MIME, figure_bundle


def test_figure_bundle_equals_plotly_mimetype_renderer():
    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4], text=["Ann", "<b>Bob</b>"], name="trains"))
    fig.update_layout(title="Denver–Pueblo", showlegend=False)
    ours = figure_bundle(fig)
    theirs = pio.renderers["plotly_mimetype"].to_mimebundle(fig.to_dict())
    assert ours == theirs
    assert figure_bundle(fig, {"displaylogo": False})[MIME]["config"] == {"displaylogo": False}


def test_showing_a_figure_imports_no_nbformat_or_jsonschema():
    code = (
        "import sys, plotly.graph_objects as go\n"
        "from railkit.ui.figure_view import FigureView\n"
        "FigureView().show(go.Figure(go.Scatter(x=[1], y=[2])))\n"
        "print(sorted(m for m in ('nbformat', 'jsonschema', 'plotly.io._renderers') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
