"""A figure as plotly.js reads it, built without plotly's Python objects.

plotly's graph objects check every property against a 3.2 MB schema that plotly loads when the first
figure is made: about 21 MB and 0.1 s in every lesson's kernel, more in a browser kernel, for figures
railkit builds from its own data. So the lessons build a ``Plot``, the figure's JSON itself (traces and
layout as plain dicts), and ``FigureView`` sends it to plotly.js as it is.

Tests and notebooks can still look at a ``Plot`` the plotly way: ``plot.figure`` is the same figure as a
validated ``go.Figure`` (built on first use, which is when plotly is imported), and any other attribute a
``go.Figure`` has (``plot.data[0].x``, ``plot.layout.title.text``) is read from it. The lessons never do.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

# plotly's "none" template as it appears in a figure's JSON (a template name would stay a bare string in a
# figure built without plotly, and plotly.js knows no template names).
NO_TEMPLATE: dict[str, Any] = {"data": {"scatter": [{"type": "scatter"}]}}

# Lines of a chart with one line per player or table (the replay's money, the teacher's timeline): colours that stand
# 3:1 on white (WCAG 1.4.11), each with its own dash and marker too, so no line is told by colour alone (1.4.1).
SERIES_COLOURS = ("#1f77b4", "#c62828", "#117733", "#6a3d9a", "#b8500a", "#8c564b", "#007d8c")
SERIES_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
SERIES_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star", "triangle-down")


def series_style(i: int) -> dict[str, Any]:
    """The ``i``-th line's look: ``line`` (colour, dash) and ``marker`` (colour, symbol) of a scatter trace."""
    colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
    return {"line": {"color": colour, "dash": SERIES_DASHES[i % len(SERIES_DASHES)], "width": 2},
            "marker": {"color": colour, "symbol": SERIES_SYMBOLS[i % len(SERIES_SYMBOLS)], "size": 7}}


def merged(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` updated by ``extra``, nested dicts merged key by key (as plotly's ``update_layout``)."""
    out = dict(base)
    for key, value in extra.items():
        old = out.get(key)
        out[key] = merged(old, value) if isinstance(old, Mapping) and isinstance(value, Mapping) else value
    return out


class Plot:
    """A figure's traces (``traces``) and layout (``layout_spec``) as JSON-ready dicts.

    ``stable``: the trace dicts are never changed once shown (``FigureView`` may then remember their
    JSON by identity; the Union Pacific board shares its unchanging traces between figures)."""

    __slots__ = ("traces", "layout_spec", "stable", "_figure")

    def __init__(self, traces: Iterable[Mapping[str, Any]] = (), layout: Mapping[str, Any] | None = None,
                 stable: bool = False) -> None:
        self.traces: list[dict[str, Any]] = [t if isinstance(t, dict) else dict(t) for t in traces]
        self.layout_spec: dict[str, Any] = dict(layout or {})
        self.stable = stable
        self._figure: Any = None

    # -- building -------------------------------------------------------------------------------
    def add_trace(self, trace: Mapping[str, Any], kind: str = "scatter") -> Plot:
        """Append a trace (``type`` defaults to ``kind``)."""
        self.traces.append({"type": kind, **trace})
        self._figure = None
        return self

    def update_layout(self, **layout: Any) -> Plot:
        self.layout_spec = merged(self.layout_spec, layout)
        self._figure = None
        return self

    def add_annotation(self, **annotation: Any) -> Plot:
        self.layout_spec["annotations"] = [*self.layout_spec.get("annotations", ()), annotation]
        self._figure = None
        return self

    # -- reading ----------------------------------------------------------------------------------
    def to_plotly_json(self) -> dict[str, Any]:
        """``{"data": [...], "layout": {...}}``: what plotly.js draws (the dicts themselves, not copies)."""
        return {"data": self.traces, "layout": self.layout_spec}

    def to_dict(self) -> dict[str, Any]:
        """A deep copy of ``to_plotly_json()``."""
        return copy.deepcopy(self.to_plotly_json())

    @property
    def figure(self) -> Any:
        """The same figure as a ``plotly.graph_objects.Figure``, validated by plotly (for tests and notebooks)."""
        if self._figure is None:
            import plotly.graph_objects as go

            self._figure = go.Figure(self.to_dict())
        return self._figure

    def __getattr__(self, name: str) -> Any:
        # Only attributes a Plot lacks arrive here (``data``, ``layout``, ``show``, ...): read them from
        # the validated go.Figure. Private names never do, so copying and pickling stay plain.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.figure, name)

    def __repr__(self) -> str:
        names = [str(t.get("name", t.get("type", "?"))) for t in self.traces]
        return f"Plot({len(self.traces)} traces: {', '.join(names[:6])}{', …' if len(names) > 6 else ''})"
