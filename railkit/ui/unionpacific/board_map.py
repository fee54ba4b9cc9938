"""The Union Pacific board as a plotly figure, on the offline basemap (``basemap``).

``board_figure(board, trains_on=None, highlight=None)`` draws:

* sections as lines coloured (and dashed) by track type; parallel sections between the same two
  cities are offset sideways so each shows;
* the train spaces of each section, evenly spaced along it: coloured starting spaces (UP-C3) as
  squares in the company's colour, neutral spaces as small open circles;
* trains (``trains_on``: section id -> company keys with a train there, starting trains included) as
  filled markers in company colours, starting trains on their starting spaces;
* cities with names, headquarters as stars in the company's colour;
* ``highlight``: section ids drawn with a wide yellow band underneath (e.g. the legal sections).

``building_map`` adds what the building lessons need: the selected section as a blue band, numbers on
candidate sections and a zoom onto some sections.

It only reads the board (``railkit.unionpacific.board``): cities, sections, companies, track labels.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from railkit.ui.i18n import tr
from railkit.ui.unionpacific.basemap import basemap_trace, fit_ranges, map_layout, project

# Track type -> (line colour, dash). Dashes keep the types apart for colour-blind learners.
TRACK_STYLES: Sequence[tuple[str, str]] = (
    ("#8d6e3f", "solid"),
    ("#2e7d32", "dash"),
    ("#5d4037", "dot"),
    ("#1565c0", "dashdot"),
    ("#6a1b9a", "longdash"),
)
PARALLEL_OFFSET_KM = 28.0
HIGHLIGHT = "rgba(255, 196, 0, 0.55)"
SELECTED = "rgba(30, 99, 196, 0.45)"


def _track_style(board: Any) -> dict[str, tuple[str, str]]:
    types = list(getattr(board, "track_labels", {}) or [])
    for section in board.sections.values():
        if section.track_type not in types:
            types.append(section.track_type)
    return {t: TRACK_STYLES[i % len(TRACK_STYLES)] for i, t in enumerate(types)}


def _label(board: Any, track_type: str) -> str:
    labels = getattr(board, "track_labels", None) or {}
    return tr(labels.get(track_type, track_type))


def section_geometry(board: Any) -> dict[str, tuple[tuple[float, float], tuple[float, float]]]:
    """Section id -> projected end points, parallel sections offset sideways from each other."""
    groups: dict[frozenset[str], list[str]] = defaultdict(list)
    for sid, section in board.sections.items():
        groups[frozenset((section.a, section.b))].append(sid)
    geometry = {}
    for sids in groups.values():
        n = len(sids)
        for i, sid in enumerate(sids):
            section = board.sections[sid]
            # Orient every parallel section the same way so the offsets really separate them.
            first, second = sorted((section.a, section.b))
            ax, ay = project(board.cities[first].lon, board.cities[first].lat)
            bx, by = project(board.cities[second].lon, board.cities[second].lat)
            length = math.hypot(bx - ax, by - ay) or 1.0
            nx_, ny_ = -(by - ay) / length, (bx - ax) / length
            off = (i - (n - 1) / 2) * PARALLEL_OFFSET_KM
            geometry[sid] = ((ax + nx_ * off, ay + ny_ * off), (bx + nx_ * off, by + ny_ * off))
    return geometry


def space_positions(start: tuple[float, float], end: tuple[float, float], spaces: int) -> list[tuple[float, float]]:
    """``spaces`` points evenly spread between the two ends (the cities themselves excluded)."""
    (ax, ay), (bx, by) = start, end
    return [(ax + (bx - ax) * f, ay + (by - ay) * f) for f in ((j + 1) / (spaces + 1) for j in range(spaces))]


def board_figure(
    board: Any,
    trains_on: Mapping[str, Iterable[str]] | None = None,
    highlight: Iterable[str] | None = None,
    title: str | None = None,
    height: int = 620,
) -> go.Figure:
    """The Union Pacific network on the US basemap (see the module docstring)."""
    trains_on = {sid: list(keys) for sid, keys in (trains_on or {}).items()}
    unknown = sorted(set(trains_on) - set(board.sections))
    if unknown:
        raise KeyError(f"trains_on names sections that are not on the board: {unknown}")
    highlight = [sid for sid in (highlight or ()) if sid in board.sections]
    companies = {c.key: c for c in board.companies}
    geometry = section_geometry(board)
    styles = _track_style(board)
    fig = go.Figure()
    fig.add_trace(basemap_trace())

    if highlight:
        xs: list[float | None] = []
        ys: list[float | None] = []
        for sid in highlight:
            (ax, ay), (bx, by) = geometry[sid]
            xs += [ax, bx, None]
            ys += [ay, by, None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=HIGHLIGHT, width=14),
                                 name=tr("legal sections"), hoverinfo="skip"))

    # Sections, one trace per track type (one legend entry each).
    for track_type, (colour, dash) in styles.items():
        xs, ys, hover = [], [], []
        for sid, section in board.sections.items():
            if section.track_type != track_type:
                continue
            (ax, ay), (bx, by) = geometry[sid]
            xs += [ax, (ax + bx) / 2, bx, None]
            ys += [ay, (ay + by) / 2, by, None]
            text = tr("{section} ({track}, {spaces} spaces)", section=f"{section.a}–{section.b}",
                      track=_label(board, track_type), spaces=section.spaces)
            hover += [text, text, text, None]
        if xs:
            fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=colour, width=3, dash=dash),
                                     name=_label(board, track_type), text=hover, hoverinfo="text"))

    # Spaces and trains.
    empty_x, empty_y, empty_text, empty_symbol, empty_line = [], [], [], [], []
    train_x, train_y, train_text, train_colour, train_symbol = [], [], [], [], []
    for sid, section in board.sections.items():
        points = space_positions(*geometry[sid], section.spaces)
        on = list(trains_on.get(sid, ()))
        slots: list[tuple[str | None, str | None]] = []  # (starting company, train company)
        for key in section.starting:
            slots.append((key, key if key in on else None))
            if key in on:
                on.remove(key)
        slots += [(None, None)] * (section.spaces - len(slots))
        for i, key in enumerate(on):  # remaining trains fill the neutral spaces in order
            index = len(section.starting) + i
            if index < len(slots):
                slots[index] = (None, key)
        name = f"{section.a}–{section.b}"
        for (x, y), (start_key, train_key) in zip(points, slots, strict=False):
            if train_key is not None:
                company = companies.get(train_key)
                train_x.append(x)
                train_y.append(y)
                train_colour.append(company.hex if company else "#777777")
                train_symbol.append("square" if start_key else "circle")
                train_text.append(tr("{section}: {company} train", section=name,
                                     company=company.name if company else train_key))
            else:
                empty_x.append(x)
                empty_y.append(y)
                if start_key is not None:
                    company = companies.get(start_key)
                    empty_symbol.append("square-open")
                    empty_line.append(company.hex if company else "#777777")
                    empty_text.append(tr("{section}: starting space of {company}", section=name,
                                         company=company.name if company else start_key))
                else:
                    empty_symbol.append("circle-open")
                    empty_line.append("#6d6d6d")
                    empty_text.append(tr("{section}: empty neutral space", section=name))
    if empty_x:
        fig.add_trace(go.Scatter(x=empty_x, y=empty_y, mode="markers", name=tr("empty space"),
                                 marker=dict(size=8, symbol=empty_symbol, color=empty_line, line=dict(width=1.5)),
                                 text=empty_text, hoverinfo="text"))
    if train_x:
        fig.add_trace(go.Scatter(x=train_x, y=train_y, mode="markers", name=tr("train"),
                                 marker=dict(size=11, symbol=train_symbol, color=train_colour,
                                             line=dict(color="#222222", width=1.2)),
                                 text=train_text, hoverinfo="text"))

    # Headquarters (stars in company colours, several at one city spread around it), then cities.
    hq: dict[str, list[Any]] = defaultdict(list)
    for company in board.companies:
        if getattr(company, "headquarters", None) in board.cities:
            hq[company.headquarters].append(company)
    hq_x, hq_y, hq_colour, hq_text = [], [], [], []
    for city_name, owners in hq.items():
        cx, cy = project(board.cities[city_name].lon, board.cities[city_name].lat)
        for i, company in enumerate(owners):
            angle = 2 * math.pi * i / max(1, len(owners)) + math.pi / 4
            r = 0.0 if len(owners) == 1 else 30.0
            hq_x.append(cx + r * math.cos(angle) + 35)
            hq_y.append(cy + r * math.sin(angle) + 35)
            hq_colour.append(company.hex)
            hq_text.append(tr("{city}: headquarters of {company}", city=city_name, company=company.name))
    if hq_x:
        fig.add_trace(go.Scatter(x=hq_x, y=hq_y, mode="markers", name=tr("headquarters"),
                                 marker=dict(symbol="star", size=15, color=hq_colour,
                                             line=dict(color="#222222", width=1)),
                                 text=hq_text, hoverinfo="text"))
    city_points = {name: project(c.lon, c.lat) for name, c in board.cities.items()}
    fig.add_trace(go.Scatter(
        x=[p[0] for p in city_points.values()], y=[p[1] for p in city_points.values()],
        mode="markers+text", text=list(city_points), textposition="top center",
        textfont=dict(size=11, color="#222222"), name=tr("city"),
        marker=dict(size=9, color="white", line=dict(color="#222222", width=1.5)),
        hovertext=list(city_points), hoverinfo="text",
    ))
    x_range, y_range = fit_ranges(city_points.values())
    map_layout(fig, x_range, y_range, height=height)
    if title:
        fig.update_layout(title=dict(text=title, x=0.01, font=dict(size=16)))
    return fig


def building_map(board: Any, trains_on: Mapping[str, Sequence[str]], highlight: Sequence[str] = (),
                 selected: str | None = None, numbered: Sequence[str] = (), title: str | None = None,
                 highlight_name: str | None = None, height: int = 600, focus: Sequence[str] = ()) -> go.Figure:
    """``board_figure`` plus the selected section as a blue band, numbers on candidate sections
    (``numbered``), and a zoom onto the ``focus`` sections."""
    fig = board_figure(board, trains_on=trains_on, highlight=highlight, title=title, height=height)
    if highlight_name:  # board_figure always calls its highlight band “legal sections”
        for trace in fig.data:
            if trace.name == tr("legal sections"):
                trace.name = highlight_name
    geometry = section_geometry(board)
    if selected is not None and selected in board.sections:
        (ax, ay), (bx, by) = geometry[selected]
        band = go.Scatter(x=[ax, bx], y=[ay, by], mode="lines", line=dict(color=SELECTED, width=22),
                          name=tr("selected section"), hoverinfo="skip")
        fig.add_trace(band)
        fig.data = (fig.data[0], fig.data[-1], *fig.data[1:-1])  # under the sections, above the basemap
    if focus:
        points = [p for sid in focus if sid in geometry for p in geometry[sid]]
        xs_, ys_ = [p[0] for p in points], [p[1] for p in points]
        cx, cy = (min(xs_) + max(xs_)) / 2, (min(ys_) + max(ys_)) / 2
        half_w = max((max(xs_) - min(xs_)) * 0.65, 450.0)  # km; at least a few states wide
        half_h = max((max(ys_) - min(ys_)) * 0.65, 300.0)
        fig.update_layout(xaxis_range=[cx - half_w, cx + half_w], yaxis_range=[cy - half_h, cy + half_h])
    if numbered:
        xs, ys, labels, hover = [], [], [], []
        for i, sid in enumerate(numbered, 1):
            (ax, ay), (bx, by) = geometry[sid]
            xs.append((ax + bx) / 2)
            ys.append((ay + by) / 2)
            labels.append(str(i))
            hover.append(f"{i}: {board.sections[sid].name}")
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="markers+text", text=labels, hovertext=hover,
                                 hoverinfo="text", textfont=dict(size=13, color="white"),
                                 marker=dict(size=24, color="#1e63c4", line=dict(color="white", width=2)),
                                 name=tr("candidate number")))
    return fig
