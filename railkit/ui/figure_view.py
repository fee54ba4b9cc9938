"""Show plotly figures in an app: one ``ipywidgets.Output`` re-rendered with a figure's JSON (a
``railkit.ui.plot.Plot``: no plotly objects in a lesson's kernel), and, where railkit's Voila template
answers, later figures sent as small updates.

Why not ``go.FigureWidget``: in plotly 7 a FigureWidget is an anywidget whose state carries the
whole plotly.js bundle, ~5 MB per widget per page. Rendering a figure into an Output sends
only the figure's JSON as a ``application/vnd.plotly.v1+json`` output; the browser draws it with
plotly.js from the ``jupyterlab-plotly`` labextension that the plotly package installs, which Voila
and JupyterLab serve from the local server. Nothing comes from a CDN. Measured numbers are in
docs/benchmarks.md ("Apps in the browser and under load").

The bundle is built here from the figure's JSON, not by plotly's renderers: the renderer module
pulls in nbformat and jsonschema (about 2.4 s of every kernel's start, and jsonschema cannot load
in a browser kernel at all), and some renderers (``notebook_connected``) load plotly.js from a
CDN. The bundle is the same one the ``plotly_mimetype`` renderer makes (tests compare them).

Fast updates. A full render makes a new plot element, redraws everything (the UP board is ~140 KB)
and plotly's renderer then rasterises the plot and syncs that image back through the Output. So
after the first render, ``show`` sends only what changed: every trace gets a ``uid`` that is a hash
of its content; an update names the traces the browser already has by uid and carries the others
whole, plus the layout's top-level keys that changed since the last figure sent (``keep`` names the
others: the script passes ``Plotly.react`` the very objects it already holds for them). Fresh objects
for an unchanged ``template``, ``meta`` or axis made plotly replot every trace, so an update that
changes only, say, the layout's shapes redraws only the shapes. It travels in a hidden ``HTML`` widget
(class ``railkit-figure-update``) beside the Output; the template's script (``voila_template/railkit/index.html.j2``, "fast figure
updates") watches it and calls ``Plotly.react`` on the same plot element. The script says it is there
by writing ``ready|<render>`` into a hidden text box (class ``railkit-figure-ack``); until it has done
so for the render on screen (JupyterLab, headless runs, a page still loading), ``show`` re-renders
in full as before. A script that lacks a trace (it never should) writes ``miss|<render>`` and gets a
full render. ``RAILKIT_FULL_REDRAW=1`` in the kernel's environment turns updates off (benchmarks).
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import ipywidgets as widgets

from railkit.ui.plot import NO_TEMPLATE as NO_TEMPLATE  # noqa: F401 - where the board modules look for it
from railkit.ui.plot import Plot

MIME = "application/vnd.plotly.v1+json"
DEFAULT_CONFIG: dict[str, Any] = {
    "displaylogo": False,
    # Two quick clicks on two sections (a learner changing their mind, taps on a phone) are not a double-click
    # that resets the zoom and redraws every trace; the toolbar's "Reset axes" does that.
    "doubleClick": False,
    "responsive": True,
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d", "toImage"],
}
# For a figure beside other widgets in a row (an HBox): a responsive plot takes 100% of its parent's
# height, which is 0 in a row whose height comes from its content, and the map vanished.
# A fixed-size plot takes the figure's height and the row's width when it is drawn.
ROW_MAP: dict[str, Any] = {"responsive": False}
UPDATE_CLASS = "railkit-figure-update"
ACK_CLASS = "railkit-figure-ack"
# Traces the browser may hold for one render before the next show starts afresh with a full render.
MAX_KNOWN_TRACES = 400


# What ``show`` takes: a ``Plot`` (the lessons), a dict with data and layout, or a plotly ``go.Figure``.
Figure = Any


def figure_bundle(fig: Figure, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``application/vnd.plotly.v1+json`` mime bundle of ``fig`` (with ``config``, if any)."""
    import plotly.io as pio  # tests and notebooks only: the lessons' own path never loads plotly

    data = json.loads(pio.to_json(fig.figure if isinstance(fig, Plot) else fig, validate=False, remove_uids=False))
    if config:
        data["config"] = config
    return {MIME: data}


def figure_spec(fig: Figure) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The traces and layout of ``fig`` as plain JSON-ready dicts: ``fig`` itself when it is a dict, else
    its ``to_plotly_json`` (a ``Plot``'s, or plotly's)."""
    spec = fig if isinstance(fig, dict) else fig.to_plotly_json()
    return list(spec.get("data") or []), dict(spec.get("layout") or {})


def _dumps(value: Any) -> str:
    # plotly's encoder handles numpy arrays and the like; plain lists and dicts take the fast path.
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        import plotly.io as pio  # numpy arrays and the like, from a go.Figure built by hand

        return str(pio.to_json(value, validate=False))


def _trace_json(trace: dict[str, Any], cached: bool) -> tuple[str, str]:
    """(hash, JSON text) of ``trace`` without its uid; with ``cached``, remembered by identity."""
    hit = _JSON_CACHE.get(id(trace)) if cached else None
    if hit is not None and hit[0] is trace:
        return hit[1], hit[2]
    text = _dumps({k: v for k, v in trace.items() if k != "uid"})
    digest = hashlib.blake2b(text.encode(), digest_size=9).hexdigest()
    if cached:
        if len(_JSON_CACHE) > 256:
            _JSON_CACHE.clear()
        _JSON_CACHE[id(trace)] = (trace, digest, text)  # the trace is kept, so its id is not reused
    return digest, text


_JSON_CACHE: dict[int, tuple[dict[str, Any], str, str]] = {}


def with_uids(traces: list[dict[str, Any]], cached: bool = False) -> list[tuple[str, str]]:
    """(uid, JSON text) of each trace; the uid is a hash of the trace's content (uid left out), made
    unique within the figure, so an unchanged trace keeps its uid from one figure to the next.
    ``cached``: the trace dicts never change once shown (a ``stable`` Plot)."""
    out: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for trace in traces:
        uid, text = _trace_json(trace, cached)
        seen[uid] = seen.get(uid, 0) + 1
        if seen[uid] > 1:
            uid = f"{uid}.{seen[uid]}"
        out.append((uid, text[:-1] + f',"uid":"{uid}"}}' if text != "{}" else f'{{"uid":"{uid}"}}'))
    return out


def layout_texts(layout: dict[str, Any]) -> dict[str, str]:
    """The JSON text of each top-level key of ``layout`` (what an update compares with the last one)."""
    return {key: _dumps(value) for key, value in layout.items()}


def update_message(render: str, seq: int, traces: list[tuple[str, str]], known: set[str],
                   layout: dict[str, Any], previous: dict[str, str] | None = None) -> str:
    """The JSON an update carries: the render it applies to, its number, the traces (a uid string
    for one the browser has, the whole trace otherwise), the layout's keys whose JSON differs from
    ``previous`` (the texts of the layout sent last) and, as ``keep``, the keys that did not."""
    items = [json.dumps(uid) if uid in known else text for uid, text in traces]
    texts = layout_texts(layout)
    previous = previous or {}
    keep = [key for key, text in texts.items() if previous.get(key) == text]
    changed = ",".join(f"{json.dumps(key)}:{text}" for key, text in texts.items() if previous.get(key) != text)
    return (f'{{"render":{json.dumps(render)},"seq":{seq},"data":[{",".join(items)}],'
            f'"layout":{{{changed}}},"keep":{json.dumps(keep)}}}')


def script_html(message: str) -> str:
    """``message`` inside a JSON script element: inert HTML the template's script reads. ``<`` is
    escaped so no text inside can end the element."""
    return '<script type="application/json">' + message.replace("<", "\\u003c") + "</script>"


class FigureView:
    """A slot in an app that shows one figure at a time; ``show(fig)`` replaces it.

    ``widget`` is a box (class ``railkit-figure``) holding the Output and the two hidden widgets of
    the fast path. ``renders`` counts ``show`` calls; ``full_renders`` and ``updates`` how each went.
    """

    def __init__(self, config: dict[str, Any] | None = None, **layout: Any) -> None:
        self.output = widgets.Output(layout=widgets.Layout(width="100%"))
        self.output.add_class("railkit-figure-output")
        self.channel = widgets.HTML("", layout=widgets.Layout(display="none"))
        self.channel.add_class(UPDATE_CLASS)
        self.ack = widgets.Text("", continuous_update=True, layout=widgets.Layout(display="none"))
        self.ack.add_class(ACK_CLASS)
        self.ack.observe(self._acknowledged, names="value")
        self.box = widgets.VBox([self.output, self.channel, self.ack], layout=widgets.Layout(**layout))
        self.box.add_class("railkit-figure")
        self.config = {**DEFAULT_CONFIG, **(config or {})}
        self.figure: Figure | None = None  # what is on screen now, a Plot or go.Figure (for tests)
        self.renders = 0
        self.full_renders = 0
        self.updates = 0
        self.fast = os.environ.get("RAILKIT_FULL_REDRAW", "") in ("", "0")
        self._render = ""  # id of the full render on screen ("" = none)
        self._ready = ""  # the render the browser's script has said it can update
        self._known: set[str] = set()  # uids of traces the browser holds for this render
        self._seq = 0
        self._last: tuple[list[tuple[str, str]], dict[str, Any]] = ([], {})  # for a full render on a miss
        self._layout_sent: dict[str, str] = {}  # JSON of each layout key the browser holds (this render)

    @property
    def widget(self) -> widgets.VBox:
        return self.box

    @property
    def live(self) -> bool:
        """True when the next ``show`` can be an update (the script holds the render on screen)."""
        return self.fast and bool(self._render) and self._ready == self._render

    def show(self, fig: Figure) -> None:
        """Replace the figure on screen by ``fig`` (a ``Plot``, a dict with data and layout, or a ``go.Figure``).

        A full render sets the Output's ``outputs`` state directly instead of capturing with ``with
        output:``. Capturing a large plotly output while a cell executes (an app drawing its first map)
        hung Voila's and nbclient's executor until the cell timeout (the UP board, ~90 KB of JSON, as
        measured in benchmarks/figure_output.ipynb); a state update has no such path.
        """
        traces, layout = figure_spec(fig)
        self.figure = Plot(traces, layout) if isinstance(fig, dict) else fig
        self.renders += 1
        with_ids = with_uids(traces, cached=isinstance(fig, Plot) and fig.stable)
        if self.live and len(self._known) + len(traces) <= MAX_KNOWN_TRACES:
            self._send_update(with_ids, layout)
        else:
            self._full_render(with_ids, layout)

    def _layout_with_render(self, layout: dict[str, Any]) -> dict[str, Any]:
        meta = layout.get("meta")
        meta = {**meta} if isinstance(meta, dict) else ({} if meta is None else {"value": meta})
        return {**layout, "meta": {**meta, "railkit_render": self._render}}

    def _full_render(self, traces: list[tuple[str, str]], layout: dict[str, Any]) -> None:
        self.full_renders += 1
        self._render = f"r{self.full_renders}"
        self._known = {uid for uid, _text in traces}
        self._last = (traces, layout)
        spec = json.loads(f'{{"data":[{",".join(text for _uid, text in traces)}]}}')
        config = self.config
        if config.get("responsive") and isinstance(layout.get("height"), (int, float)):
            # plotly.js drops a figure's height when the renderer asks the plot to fit its box (it does so
            # once the plot is shown in this view's box), and a responsive plot then takes 100% of a
            # parent whose height comes from its content: 0 px (the KK race map vanished). A figure of a
            # set height needs no responsiveness: the renderer refits its width on every resize anyway.
            config = {**config, "responsive": False}
        shown = self._layout_with_render(layout)
        self._layout_sent = layout_texts(shown)
        bundle = {MIME: {"data": spec["data"], "layout": shown, "config": config}}
        self.output.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)

    def _send_update(self, traces: list[tuple[str, str]], layout: dict[str, Any]) -> None:
        self.updates += 1
        self._seq += 1
        self._last = (traces, layout)
        shown = self._layout_with_render(layout)
        message = update_message(self._render, self._seq, traces, self._known, shown, self._layout_sent)
        self._layout_sent = layout_texts(shown)
        self._known |= {uid for uid, _text in traces}
        self.channel.value = script_html(message)

    def _acknowledged(self, change: dict[str, Any]) -> None:
        kind, _, render = str(change["new"]).partition("|")
        render = render.partition("|")[0]
        if kind == "ready":
            self._ready = render
        elif kind == "miss" and render == self._render and self._ready == render:
            self._ready = ""  # the script lacked a trace: draw the last figure whole
            self._full_render(*self._last)

    def clear(self) -> None:
        self.figure = None
        self._render = self._ready = ""
        self._known = set()
        self._layout_sent = {}
        self.output.outputs = ()

    @staticmethod
    def bundle(fig: Figure) -> dict[str, Any]:
        """The mime bundle ``show`` displays (used by tests to check no CDN renderer is involved)."""
        return figure_bundle(fig)
