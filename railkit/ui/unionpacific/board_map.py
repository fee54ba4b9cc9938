"""The Union Pacific board as a plotly figure, on the offline basemap (``basemap``).

``board_figure(board, trains_on=None, highlight=None)`` draws:

* sections as lines coloured (and dashed) by track type; parallel sections between the same two
  cities are offset sideways so each shows;
* the train spaces of each section, evenly spaced along it: starting spaces (UP-C3) as open markers
  in the company's shape and colour, neutral spaces as small open circles;
* trains (``trains_on``: section id -> company keys with a train there) as filled markers, each company
  its own shape, colour and outline (``map_style``), and a legend naming every company;
* cities as dark dots with their names placed clear of each other, of the stars and of the trains
  (``map_style.place_labels``); headquarters as stars in the company's colour;
* ``highlight``: section ids drawn with a wide magenta band underneath (e.g. the legal sections);
* ``clickable``: invisible hit areas along every section whose customdata is the section id (every
  space and train carries it too), for ``railkit.ui.map_clicks``;
* a note that the map is a reconstruction, linking the rulings page.

``building_map`` adds what the building lessons need: the selected section as a purple band, numbers on
candidate sections and a zoom onto some sections.

Layers (the redraw after a click). The basemap is a layout image (an SVG drawn from
the same outline, ``basemap.basemap_image``) and the bands (legal sections, the selected section) are
layout shapes between it and the traces, each named in the legend by a legend-only trace of the same
line (``band``; ``band_sections`` reads a band back). A new selection then changes only a shape:
``Plotly.react`` redraws that shape and none of the traces (sections, the 227 spaces, the names).
Everywhere a plotly figure is drawn (JupyterLab, the static site, headless) the image and the shapes
are drawn with the rest.

It only reads the board (``railkit.unionpacific.board``): cities, sections, companies, track labels.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from railkit.ui.i18n import get_language, tr, trn
from railkit.ui.plot import Plot
from railkit.ui.unionpacific.basemap import basemap_image, fit_ranges, map_layout_dict, project
from railkit.ui.unionpacific.map_style import (
    CITY_FILL,
    DARK_OUTLINE,
    HIGHLIGHT,
    LABEL_FONT_PX,
    SELECTED,
    Box,
    company_ink,
    company_outline,
    company_symbol,
    km_per_px,
    place_labels,
)

# Track type -> (line colour, dash). Dashes keep the types apart for colour-blind learners.
TRACK_STYLES: Sequence[tuple[str, str]] = (
    ("#8d6e3f", "solid"),
    ("#2e7d32", "dash"),
    ("#5d4037", "dot"),
    ("#1565c0", "dashdot"),
    ("#6a1b9a", "longdash"),
)
PARALLEL_OFFSET_KM = 28.0
HIT_AREAS = "section hit areas"  # trace name the template's click script looks for (with customdata)
CITY_NAMES = "city names"


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


def _spaces_and_trains(board: Any, geometry: Mapping[str, tuple[tuple[float, float], tuple[float, float]]],
                       trains_on: Mapping[str, list[str]]) -> tuple[list[dict[str, Any]], list[tuple[float, float]]]:
    """The empty-space and train traces (each point's customdata is its section id) and every space's
    position (for the label placement)."""
    companies = {c.key: c for c in board.companies}
    empty: dict[str, list[Any]] = defaultdict(list)
    train: dict[str, list[Any]] = defaultdict(list)
    every: list[tuple[float, float]] = []
    for sid, section in board.sections.items():
        points = space_positions(*geometry[sid], section.spaces)
        every += points
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
                colour = company.hex if company else "#777777"
                for k, v in (("x", x), ("y", y), ("id", sid), ("colour", colour), ("symbol", company_symbol(train_key)),
                             ("outline", company_outline(colour)),
                             ("text", tr("{section}: {company} train", section=name,
                                         company=company.name if company else train_key))):
                    train[k].append(v)
                continue
            company = companies.get(start_key) if start_key is not None else None
            for k, v in (("x", x), ("y", y), ("id", sid)):
                empty[k].append(v)
            if start_key is not None:  # UP-C3: the starting space, open, in the company's shape and colour
                empty["symbol"].append(company_symbol(start_key) + "-open")
                empty["colour"].append(company_ink(company.hex) if company else "#777777")
                empty["text"].append(tr("{section}: starting space of {company}", section=name,
                                        company=company.name if company else start_key))
            else:
                empty["symbol"].append("circle-open")
                empty["colour"].append("#6d6d6d")
                empty["text"].append(tr("{section}: empty neutral space", section=name))
    traces = []
    if empty:
        traces.append(scatter(x=empty["x"], y=empty["y"], mode="markers", name=tr("empty space"),
                              marker=dict(size=8, symbol=empty["symbol"], color=empty["colour"], line=dict(width=1.5)),
                              text=empty["text"], customdata=empty["id"], hoverinfo="text"))
    if train:
        traces.append(scatter(x=train["x"], y=train["y"], mode="markers", name=tr("train"), showlegend=False,
                              marker=dict(size=13, symbol=train["symbol"], color=train["colour"],
                                          line=dict(color=train["outline"], width=1.5)),
                              text=train["text"], customdata=train["id"], hoverinfo="text"))
    return traces, every


def company_legend(board: Any) -> list[dict[str, Any]]:
    """One legend entry per company: its train marker (shape, colour, outline) and name."""
    return [scatter(x=[None], y=[None], mode="markers", name=c.name,
                    marker=dict(size=12, symbol=company_symbol(c.key), color=c.hex,
                                line=dict(color=company_outline(c.hex), width=1.5)), hoverinfo="skip")
            for c in board.companies]


HIT_SPACING_KM = 35.0  # at most this far apart along a section: a tap anywhere on its line is nearest to one of its own


def hit_fractions(length_km: float) -> list[float]:
    """Where along a section (0 = one city, 1 = the other) its hit points lie: 0.3, 0.5 and 0.7 first (the
    tests aim at the middle, the second), then enough more between 0.12 and 0.88 that no gap is wider than
    ``HIT_SPACING_KM``. The template's click script takes the hit point nearest the finger, so on a phone,
    where two sections run a few pixels apart (Albuquerque–Denver beside Denver–El Paso), the finger's own
    section wins; the ends stay out (there several sections meet)."""
    steps = max(2, math.ceil(length_km / HIT_SPACING_KM))
    extra = [k / steps for k in range(1, steps) if 0.12 <= k / steps <= 0.88]
    return [0.3, 0.5, 0.7] + [f for f in extra if all(abs(f - g) > 0.02 for g in (0.3, 0.5, 0.7))]


def hit_areas(board: Any, geometry: Mapping[str, tuple[tuple[float, float], tuple[float, float]]]) -> dict[str, Any]:
    """Invisible points along every section (customdata: its id): a click on a section anywhere near
    its line reaches ``map_clicks`` (the template's JS sends the id to the kernel)."""
    xs, ys, ids, hover = [], [], [], []
    for sid, section in board.sections.items():
        (ax, ay), (bx, by) = geometry[sid]
        for f in hit_fractions(math.hypot(bx - ax, by - ay)):
            xs.append(round(ax + (bx - ax) * f, 1))
            ys.append(round(ay + (by - ay) * f, 1))
            ids.append(sid)
            hover.append(tr("{section}: click to choose it", section=f"{section.a}–{section.b}"))
    # An invisible line through the points, not invisible markers: no SVG element per point on every redraw.
    # The template's click script picks the hit point nearest the click or tap on screen itself.
    return scatter(x=xs, y=ys, mode="lines", name=HIT_AREAS, showlegend=False, customdata=ids, text=hover,
                   hoverinfo="text", line=dict(width=0, color="rgba(0,0,0,0)"))


def band(geometry: Mapping[str, tuple[tuple[float, float], tuple[float, float]]], sections: Iterable[str],
         colour: str, width: float, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A wide band under ``sections``: (a layout shape named ``name``, between the basemap and the
    traces; the legend-only trace that names it in the legend with the same line). The legend trace
    never changes with the sections, so a new band changes the layout's shapes only."""
    path = "".join(f"M{ax:.1f},{ay:.1f}L{bx:.1f},{by:.1f}" for (ax, ay), (bx, by) in (geometry[s] for s in sections))
    # One legend group: a click on the legend entry hides or shows the band, as it did the band's trace.
    shape = dict(type="path", path=path, xref="x", yref="y", layer="between", name=name, legendgroup=name,
                 line=dict(color=colour, width=width))
    legend = scatter(x=[None], y=[None], mode="lines", line=dict(color=colour, width=width), name=name,
                     legendgroup=name, hoverinfo="skip")
    return shape, legend


_SEGMENT = re.compile(r"M(-?[\d.]+),(-?[\d.]+)L(-?[\d.]+),(-?[\d.]+)")


def band_sections(board: Any, layout: Any, name: str) -> list[str] | None:
    """The section ids under the band ``name`` in a board figure's ``layout`` (a dict or plotly's
    layout object), in order; None when there is no such band."""
    shapes = layout.get("shapes") if isinstance(layout, dict) else layout.shapes
    ends = {(round(a[0], 1), round(a[1], 1), round(b[0], 1), round(b[1], 1)): sid
            for sid, (a, b) in section_geometry(board).items()}
    for shape in shapes or ():
        shape = shape if isinstance(shape, dict) else shape.to_plotly_json()
        if shape.get("name") == name and shape.get("type") == "path":
            return [ends[tuple(round(float(v), 1) for v in m.groups())]  # type: ignore[index]
                    for m in _SEGMENT.finditer(shape.get("path") or "")]
    return None


def scatter(**props: Any) -> dict[str, Any]:
    """A scatter trace as a plain dict: building plotly's ``go.Scatter`` objects validated every property and
    took most of a redraw's time (about 60 ms of the UP board's 65 ms)."""
    return {"type": "scatter", **props}


def _static_traces(board: Any, clickable: bool) -> dict[str, Any]:
    """The parts of the map that never change for a board (in the current language): computed once
    and shared by every figure (``figure_view`` then sends them to the browser only once, too)."""
    key = (id(board), get_language(), clickable)
    cached = _STATIC.get(key)
    if cached is not None and cached[0] is board:
        return cached[1]
    geometry = section_geometry(board)
    sections = []
    for track_type, (colour, dash) in _track_style(board).items():  # one trace (one legend entry) per type
        xs: list[float | None] = []
        ys: list[float | None] = []
        hover: list[str | None] = []
        ids: list[str | None] = []
        for sid, section in board.sections.items():
            if section.track_type != track_type:
                continue
            (ax, ay), (bx, by) = geometry[sid]
            xs += [ax, (ax + bx) / 2, bx, None]
            ys += [ay, (ay + by) / 2, by, None]
            text = trn("{section} ({track}, {spaces} space)", "{section} ({track}, {spaces} spaces)", section.spaces,
                       section=f"{section.a}–{section.b}", track=_label(board, track_type), spaces=section.spaces)
            hover += [text, text, text, None]
            ids += [sid, sid, sid, None]
        if xs:
            sections.append(scatter(x=xs, y=ys, mode="lines", line=dict(color=colour, width=3, dash=dash),
                                    name=_label(board, track_type), text=hover, customdata=ids, hoverinfo="text"))
    # Headquarters: stars in company colours, up and to the right of the city (several spread around it).
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
    stars = ([scatter(x=hq_x, y=hq_y, mode="markers", name=tr("headquarters"),
                      marker=dict(symbol="star", size=15, color=hq_colour, line=dict(color=DARK_OUTLINE, width=1)),
                      text=hq_text, hoverinfo="text")] if hq_x else [])
    city_points = {name: project(c.lon, c.lat) for name, c in board.cities.items()}
    cities = scatter(x=[p[0] for p in city_points.values()], y=[p[1] for p in city_points.values()],
                     mode="markers", text=list(city_points), name=tr("city"),
                     marker=dict(size=8, color=CITY_FILL, line=dict(color="white", width=1.5)), hoverinfo="text")
    parts = {
        "geometry": geometry, "sections": sections, "above_spaces": [*stars, cities],
        "clicks": [hit_areas(board, geometry)] if clickable else [], "legend": company_legend(board),
        "city_points": city_points, "stars": list(zip(hq_x, hq_y, strict=True)),
    }
    if len(_STATIC) > 8:
        _STATIC.clear()
    _STATIC[key] = (board, parts)
    return parts


_STATIC: dict[Any, tuple[Any, dict[str, Any]]] = {}


def board_spec(
    board: Any,
    trains_on: Mapping[str, Iterable[str]] | None = None,
    highlight: Iterable[str] | None = None,
    title: str | None = None,
    height: int = 620,
    width: int = 1100,
    clickable: bool = False,
    view: tuple[list[float], list[float]] | None = None,
    avoid: Iterable[tuple[float, float]] = (),
    highlight_name: str | None = None,
    selected: str | None = None,
    above: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """``board_figure``'s figure as a plain dict (data and layout); ``selected`` (a section id) gets the
    purple band under the magenta ones; ``above`` traces go on top of everything."""
    trains = {sid: list(keys) for sid, keys in (trains_on or {}).items()}
    unknown = sorted(set(trains) - set(board.sections))
    if unknown:
        raise KeyError(f"trains_on names sections that are not on the board: {unknown}")
    highlight = [sid for sid in (highlight or ()) if sid in board.sections]
    static = _static_traces(board, clickable)
    geometry = static["geometry"]
    data: list[dict[str, Any]] = []
    shapes: list[dict[str, Any]] = []
    if selected is not None and selected in board.sections:  # under the legal sections' band
        shape, legend = band(geometry, [selected], SELECTED, 22, tr("selected section"))
        shapes.append(shape)
        data.append(legend)
    if highlight:
        shape, legend = band(geometry, highlight, HIGHLIGHT, 14, highlight_name or tr("legal sections"))
        shapes.append(shape)
        data.append(legend)
    data += static["sections"]
    space_traces, spaces = _spaces_and_trains(board, geometry, trains)
    data += space_traces
    data += static["above_spaces"] + static["clicks"] + static["legend"]
    city_points = static["city_points"]
    train_points = list(zip(space_traces[-1]["x"], space_traces[-1]["y"], strict=True)) if trains else []
    key = (tuple(city_points.items()), tuple(train_points), width, height, repr(view), tuple(avoid := list(avoid)))
    if key not in _LABELS:  # a new selection or highlight keeps the names where they were
        if len(_LABELS) > 32:
            _LABELS.clear()
        _LABELS[key] = _frame_labels(city_points, static["stars"] + avoid, spaces, train_points, width, height, view)
    boxes, x_range, y_range = _LABELS[key]
    data.append(label_trace(boxes))
    data += above
    layout = map_layout_dict(x_range, y_range, height=height)
    # "normal": the legend groups of the bands must not regroup the entries (plotly's default with groups)
    layout["legend"] = {**layout["legend"], "font": dict(size=12), "entrywidth": 0, "traceorder": "normal"}
    layout["annotations"] = [reconstruction_note()]
    layout["images"] = [basemap_image()]
    layout["shapes"] = shapes
    if title:
        layout["title"] = dict(text=title, x=0.01, font=dict(size=16))
    return {"data": data, "layout": layout}


def as_figure(spec: dict[str, Any]) -> Plot:
    """``spec`` as a ``Plot`` (no plotly objects: railkit.ui.plot). Its traces never change once built
    (``stable``), so ``FigureView`` knows the unchanged, cached ones by identity."""
    return Plot(spec["data"], spec["layout"], stable=True)


def board_figure(
    board: Any,
    trains_on: Mapping[str, Iterable[str]] | None = None,
    highlight: Iterable[str] | None = None,
    title: str | None = None,
    height: int = 620,
    width: int = 1100,
    clickable: bool = False,
    view: tuple[list[float], list[float]] | None = None,
    avoid: Iterable[tuple[float, float]] = (),
) -> Plot:
    """The Union Pacific network on the US basemap (see the module docstring). ``width`` is the map's
    expected width on screen (pixels), for placing the city names clear of each other; ``clickable``
    adds the section hit areas; ``view`` (x and y ranges, km) zooms in; city names keep clear of the
    ``avoid`` points too (e.g. numbered badges)."""
    return as_figure(board_spec(board, trains_on, highlight, title, height, width, clickable, view, avoid))


_LABELS: dict[Any, tuple[dict[str, Box], list[float], list[float]]] = {}


def _frame_labels(city_points: Mapping[str, tuple[float, float]], stars: list[tuple[float, float]],
                  spaces: list[tuple[float, float]], trains: list[tuple[float, float]], width: int, height: int,
                  view: tuple[list[float], list[float]] | None) -> tuple[dict[str, Box], list[float], list[float]]:
    """The city names' boxes and the axis ranges that show them all (or ``view``)."""
    x_range, y_range = view or fit_ranges(city_points.values())
    plot_h = height - 45 - 85  # title, margins and the legend under the map (three rows)
    for _ in range(4):  # the frame grows to hold the names, which shrinks the map: place them again
        scale = km_per_px(x_range, y_range, width - 10, plot_h)
        boxes = place_labels(city_points, scale, stars=stars, spaces=spaces, trains=trains)
        if view is not None:
            break
        framed = fit_ranges([p for b in boxes.values() for p in ((b.x0, b.y0), (b.x1, b.y1))], pad=0.01)
        done = km_per_px(*framed, width - 10, plot_h) <= scale * 1.001  # the names fit at this scale
        x_range, y_range = framed
        if done:
            break
    return boxes, list(x_range), list(y_range)


def label_trace(boxes: Mapping[str, Box]) -> dict[str, Any]:
    """The city names, each centred in the box ``place_labels`` chose for it."""
    return scatter(x=[round(b.centre[0], 1) for b in boxes.values()], y=[round(b.centre[1], 1) for b in boxes.values()],
                   mode="text", text=list(boxes), name=CITY_NAMES, showlegend=False, hoverinfo="skip",
                   textfont=dict(size=LABEL_FONT_PX, color="#1a1a1a", shadow="0 0 2px #ffffff, 0 0 3px #ffffff"))


def reconstruction_note() -> dict[str, Any]:
    """The note every UP map carries: the board is reconstructed, the rulings page says how."""
    text = tr("The map is a reconstruction — see the {link}",
              link="<a href='rulings.ipynb' target='_blank'>" + tr("rulings page") + "</a>")
    return dict(text=text, xref="paper", yref="paper", x=0.0, y=0.0, xanchor="left", yanchor="bottom",
                showarrow=False, font=dict(size=12, color="#444444"), bgcolor="rgba(255,255,255,0.8)")


def focus_view(board: Any, sections: Sequence[str]) -> tuple[list[float], list[float]]:
    """x and y ranges (km) around ``sections`` with room for their cities' names, a few states wide."""
    geometry = section_geometry(board)
    points = [p for sid in sections if sid in geometry for p in geometry[sid]]
    xs_, ys_ = [p[0] for p in points], [p[1] for p in points]
    cx, cy = (min(xs_) + max(xs_)) / 2, (min(ys_) + max(ys_)) / 2
    half_w = max((max(xs_) - min(xs_)) * 0.5 + 260.0, 520.0)
    half_h = max((max(ys_) - min(ys_)) * 0.5 + 170.0, 340.0)
    return [cx - half_w, cx + half_w], [cy - half_h, cy + half_h]


def building_map(board: Any, trains_on: Mapping[str, Sequence[str]], highlight: Sequence[str] = (),
                 selected: str | None = None, numbered: Sequence[str] = (), title: str | None = None,
                 highlight_name: str | None = None, height: int = 600, focus: Sequence[str] = (),
                 width: int = 1100, clickable: bool = False) -> Plot:
    """``board_figure`` plus the selected section as a purple band, numbers on candidate sections
    (``numbered``, badges beside the middle of the line, clear of the city names), and a zoom onto
    the ``focus`` sections."""
    geometry = section_geometry(board)
    badges = []
    for sid in numbered:
        (ax, ay), (bx, by) = geometry[sid]
        badges.append(((ax + bx) / 2, (ay + by) / 2))
    view = focus_view(board, focus) if focus else None
    above = []
    if numbered:
        hover = [f"{i}: {board.sections[sid].name}" for i, sid in enumerate(numbered, 1)]
        above.append(scatter(x=[b[0] for b in badges], y=[b[1] for b in badges], mode="markers+text",
                             text=[str(i) for i in range(1, len(numbered) + 1)], hovertext=hover,
                             hoverinfo="text", textfont=dict(size=12, color="white"), customdata=list(numbered),
                             marker=dict(size=20, color="#1e63c4", line=dict(color="white", width=2)),
                             name=tr("candidate number")))
    return as_figure(board_spec(board, trains_on=trains_on, highlight=highlight, title=title, height=height,
                                width=width, clickable=clickable, view=view, avoid=badges,
                                highlight_name=highlight_name, selected=selected, above=above))
