"""The teacher's page's charts (``railkit.ui.teacher``), built from the server's reports as plotly figures
(``railkit.ui.plot.Plot``): the class's right-at-first-try rate per exercise, and each table's game over time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from railkit.lessons import LESSONS
from railkit.ui.i18n import tr
from railkit.ui.plot import NO_TEMPLATE, Plot, series_style

GAME_NAMES = {"union_pacific": "Union Pacific", "cape_to_cairo": "Vom Kap bis Kairo"}  # a table's game, as printed

__all__ = ["GAME_NAMES", "first_try_chart", "timeline_chart"]

MAX_BARS = 40  # the hardest exercises shown; the table below the chart lists them all
# Bars under 50 %, under 80 %, the rest: each 3:1 on white (WCAG 1.4.11); the bar's length and number say the rate.
BAR_COLOURS = ("#c62828", "#a86400", "#2e7d32")


def first_try_chart(exercises: Sequence[Mapping[str, Any]]) -> Plot:
    """One bar per exercise: the share of first tries that were right, the hardest at the top."""
    rows = [r for r in exercises if r.get("rate") is not None][:MAX_BARS]
    titles = {x.id: tr(x.link) for x in LESSONS}
    labels = [f"{titles.get(r['lesson'], r['lesson'])}: {r['exercise']}" for r in rows]
    rates = [round(100 * float(r["rate"])) for r in rows]
    plot = Plot(layout={"template": NO_TEMPLATE, "height": 120 + 28 * max(1, len(rows)),
                        "margin": {"l": 260, "r": 30, "t": 40, "b": 50},
                        "title": {"text": tr("Right at the first try, per exercise")},
                        "xaxis": {"title": {"text": tr("first tries right, in percent")}, "range": [0, 100]},
                        "yaxis": {"autorange": "reversed", "automargin": True}})
    plot.add_trace({"x": rates, "y": labels, "orientation": "h", "marker": {
        "color": [BAR_COLOURS[0] if rate < 50 else BAR_COLOURS[1] if rate < 80 else BAR_COLOURS[2] for rate in rates]},
        "text": [f"{r['first_try_right']}/{r['first_tries']}" for r in rows], "textposition": "auto",
        "hovertemplate": "%{y}: %{x} %<extra></extra>"}, kind="bar")
    return plot


def timeline_chart(tables: Sequence[Mapping[str, Any]]) -> Plot:
    """One line per table: moves so far against the time they were made."""
    plot = Plot(layout={"template": NO_TEMPLATE, "height": 360, "margin": {"l": 60, "r": 30, "t": 40, "b": 50},
                        "title": {"text": tr("Each table's game over time")},
                        "xaxis": {"title": {"text": tr("time (UTC)")}, "type": "date"},
                        "yaxis": {"title": {"text": tr("moves")}, "rangemode": "tozero"},
                        "legend": {"orientation": "h", "y": -0.2}})
    for i, table in enumerate(tables):
        points = table.get("timeline") or []
        if not points:
            continue
        game = GAME_NAMES.get(table["game"], table["game"])
        plot.add_trace({"x": [at for _n, at in points], "y": [n for n, _at in points], "mode": "lines+markers",
                        "name": f"{table['table']} ({game})", "marker": series_style(i)["marker"],
                        "line": {"color": series_style(i)["line"]["color"], "dash": "dot" if table.get("stalled")
                                 else "solid"}, "hovertemplate": "%{x}: %{y}<extra>" + str(table["table"]) +
                        "</extra>"})
    return plot
