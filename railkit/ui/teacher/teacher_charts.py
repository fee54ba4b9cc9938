"""The teacher's page's charts (``railkit.ui.teacher.page``), built from the server's reports as plotly figures
(``railkit.ui.plot.Plot``): the class's right-at-first-try rate per exercise, and each table's game over time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from railkit.lessons import EXERCISES, LESSONS
from railkit.ui.i18n import tr
from railkit.ui.plot import NO_TEMPLATE, Plot, series_style

GAME_NAMES = {"union_pacific": "Union Pacific", "cape_to_cairo": "Vom Kap bis Kairo"}  # a table's game, as printed

__all__ = ["GAME_NAMES", "exercise_title", "first_try_chart", "timeline_chart"]

MAX_BARS = 40  # the hardest exercises shown; the table below the chart lists them all
MIN_SPAN = timedelta(minutes=10)  # the time axis of the tables' chart spans at least this
# Bars under 50 %, under 80 %, the rest: each 3:1 on white (WCAG 1.4.11); the bar's length and number say the rate.
BAR_COLOURS = ("#c62828", "#a86400", "#2e7d32")


def exercise_title(lesson: str, exercise: str) -> str:
    """An exercise as its lesson heads it (“Who chooses first?”), not its id; the id for an exercise railkit does not
    know (an older record)."""
    title = EXERCISES.get((lesson, exercise))
    return tr(title) if title is not None else exercise


def first_try_chart(exercises: Sequence[Mapping[str, Any]]) -> Plot:
    """One bar per exercise: the share of first tries that were right, the hardest at the top."""
    rows = [r for r in exercises if r.get("rate") is not None][:MAX_BARS]
    titles = {x.id: tr(x.link) for x in LESSONS}
    labels = [f"{titles.get(r['lesson'], r['lesson'])}: {exercise_title(r['lesson'], r['exercise'])}" for r in rows]
    rates = [round(100 * float(r["rate"])) for r in rows]
    plot = Plot(layout={"template": NO_TEMPLATE, "height": 120 + 28 * max(1, len(rows)),
                        "margin": {"l": 260, "r": 30, "t": 40, "b": 50},
                        "title": {"text": tr("Right at the first try, per exercise")},
                        "xaxis": {"title": {"text": tr("first tries right, in percent")}, "range": [0, 100]},
                        "yaxis": {"autorange": "reversed", "automargin": True}})
    plot.add_trace({"x": rates, "y": labels, "orientation": "h", "marker": {
        "color": [BAR_COLOURS[0] if rate < 50 else BAR_COLOURS[1] if rate < 80 else BAR_COLOURS[2] for rate in rates]},
        # a short bar (0 %) has no room inside: its count is written beside it
        "text": [f"{r['first_try_right']}/{r['first_tries']}" for r in rows], "cliponaxis": False,
        "textposition": ["outside" if rate < 15 else "inside" for rate in rates],
        "hovertemplate": "%{y}: %{x} %<extra></extra>"}, kind="bar")
    return plot


def _axes(tables: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The time axis spans at least ``MIN_SPAN``, so a table just started shows minutes, not fractions of a
    millisecond; the moves axis counts in whole moves while there are few."""
    xaxis: dict[str, Any] = {"title": {"text": tr("time (UTC)")}, "type": "date"}
    yaxis: dict[str, Any] = {"title": {"text": tr("moves")}, "rangemode": "tozero"}
    points = [(n, at) for t in tables for n, at in t.get("timeline") or []]
    try:
        times = [datetime.fromisoformat(str(at)) for _n, at in points]
    except ValueError:
        times = []
    if times and max(times) - min(times) < MIN_SPAN:  # the newest move near the right edge, as time goes on
        ends = (max(times) - MIN_SPAN * 0.9, max(times) + MIN_SPAN * 0.1)
        # plotly reads a date's clock time and drops its offset, as it does the points' ("...+00:00")
        xaxis["range"] = [end.replace(tzinfo=None).isoformat(sep=" ") for end in ends]
    most = max((int(n) for n, _at in points), default=0)
    if most < 10:
        yaxis.update({"range": [0, max(5, most + 1)], "dtick": 1})
    return xaxis, yaxis


def timeline_chart(tables: Sequence[Mapping[str, Any]]) -> Plot:
    """One line per table: moves so far against the time they were made."""
    xaxis, yaxis = _axes(tables)
    plot = Plot(layout={"template": NO_TEMPLATE, "height": 360, "margin": {"l": 60, "r": 30, "t": 40, "b": 50},
                        "title": {"text": tr("Each table's game over time")}, "xaxis": xaxis, "yaxis": yaxis,
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
