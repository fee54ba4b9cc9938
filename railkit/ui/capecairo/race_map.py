"""The race from the Cape to Cairo on a map of Africa (Vom Kap bis Kairo; KK-A6, KK-B4, KK-E1).

``race_figure(view)`` draws, offline, the shipped outline of Africa (``data/maps/africa.json``)
as plain scatter polygons (geo traces would fetch their map from a CDN), the illustrative
route of ``railkit.capecairo.route``, and for each player a lane beside the route: solid in the
player's colour up to the train, then the terrain cards bought and waiting in front of it, one
marker per card on the leg it will be crossed on, each terrain its own symbol and colour. Lanes
sit side by side, so trains at the same town never hide each other. Player names are user input:
they are HTML-escaped everywhere plotly renders text (labels, legend, hover).
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from railkit.capecairo.deck import REQUIREMENT
from railkit.capecairo.route import LEGS, ROUTE, CardSpot, TrainSpot, positions, station_indexes
from railkit.capecairo.views import KKView
from railkit.paths import data_dir
from railkit.ui.capecairo.palette import (
    LABEL_BOX,
    LAND,
    MAP_BORDER,
    PLAYER_EDGE,
    PLAYER_HEX,
    ROUTE_COLOUR,
    TERRAIN_INK,
    TERRAIN_SYMBOL,
    TERRAINS,
    TOWN_TEXT,
    WATER,
    player_ink,
)
from railkit.ui.i18n import tr, trn
from railkit.ui.plot import NO_TEMPLATE, Plot

BORDER = MAP_BORDER
TERRAIN_STYLE = {t: (TERRAIN_SYMBOL[t], TERRAIN_INK[t]) for t in TERRAINS}  # KK-C3: symbol AND colour differ
LANE_KM = 210.0  # distance between neighbouring players' lanes
EARTH_RADIUS_KM = 6371.0
_LON0 = math.radians(20.0)  # centre of the projection: 20°E on the equator, mid-Africa


def project(lon: float, lat: float) -> tuple[float, float]:
    """Lambert azimuthal equal-area centred on (20°E, 0°): Africa keeps its true shape and area."""
    phi, dlam = math.radians(lat), math.radians(lon) - _LON0
    k = math.sqrt(2 / (1 + math.cos(phi) * math.cos(dlam)))
    return EARTH_RADIUS_KM * k * math.cos(phi) * math.sin(dlam), EARTH_RADIUS_KM * k * math.sin(phi)


def terrain_label(terrain: str) -> str:
    names = {"river": tr("River"), "mountains": tr("Mountains"), "desert": tr("Desert"),
             "village": tr("Village"), "savanna": tr("Savanna")}
    return names.get(terrain, terrain)


def colour_label(colour: str) -> str:
    """A train's colour in the learner's language (the same words as common.colour_name)."""
    return {"red": tr("red"), "yellow": tr("yellow"), "green": tr("green"), "blue": tr("blue")}.get(colour, colour)


@lru_cache(maxsize=1)
def _outline_xy() -> tuple[tuple[float | None, ...], tuple[float | None, ...]]:
    countries = json.loads((data_dir() / "maps" / "africa.json").read_text(encoding="utf-8"))["states"]
    xs: list[float | None] = []
    ys: list[float | None] = []
    for rings in countries.values():
        for ring in rings:
            for lon, lat in ring:
                x, y = project(lon, lat)
                xs.append(round(x))
                ys.append(round(y))
            xs.append(None)  # a gap between polygons
            ys.append(None)
    return tuple(xs), tuple(ys)


@lru_cache(maxsize=1)
def _outline_trace() -> dict[str, Any]:
    xs, ys = _outline_xy()
    return dict(type="scatter", x=list(xs), y=list(ys), mode="lines", fill="toself", fillcolor=LAND,
                line=dict(color=BORDER, width=0.7), hoverinfo="skip", showlegend=False, name="africa")


# -- lanes: the route polyline offset sideways, one per player -------------------------------
def _route_xy() -> list[tuple[float, float]]:
    return [project(t.lon, t.lat) for t in ROUTE]


def _lane(offset_km: float) -> list[tuple[float, float]]:
    """The route's vertices moved ``offset_km`` to the left of the direction of travel (west when
    heading north), mitred at the bends so a lane keeps its distance."""
    pts = _route_xy()
    normals = []
    for (x1, y1), (x2, y2) in zip(pts, pts[1:], strict=False):
        length = math.hypot(x2 - x1, y2 - y1)
        normals.append((-(y2 - y1) / length, (x2 - x1) / length))
    out = []
    for i, (x, y) in enumerate(pts):
        n1, n2 = normals[max(i - 1, 0)], normals[min(i, len(normals) - 1)]
        mx, my = n1[0] + n2[0], n1[1] + n2[1]
        norm = math.hypot(mx, my) or 1.0
        mx, my = mx / norm, my / norm
        stretch = min(1 / max(mx * n1[0] + my * n1[1], 0.5), 2.0)
        out.append((x + mx * offset_km * stretch, y + my * offset_km * stretch))
    return out


def _along(lane: Sequence[tuple[float, float]], at: float) -> tuple[float, float]:
    i = min(int(at), LEGS - 1)
    t = at - i
    (x1, y1), (x2, y2) = lane[i], lane[i + 1]
    return x1 + t * (x2 - x1), y1 + t * (y2 - y1)


def _part(lane: Sequence[tuple[float, float]], start: float, end: float) -> list[tuple[float, float]]:
    """The lane from route position ``start`` to ``end``."""
    inner = [lane[i] for i in range(math.floor(start) + 1, math.ceil(end))]
    return [_along(lane, start), *inner, _along(lane, end)]


# -- the figure ------------------------------------------------------------------------------
def race_figure(view: KKView, win_crossings: int | None = None, height: int = 760) -> Plot:
    """The race as a plotly figure, from ``CapeToCairoGame.view(...)`` (any player's or a spectator's:
    the cards in front of the trains are public, KK-A6). ``win_crossings`` defaults to the view's."""
    spots = positions(view, win_crossings)
    goal = next(iter(spots.values())).goal if spots else LEGS
    n = len(spots)
    offsets = [((n - 1) / 2 - j) * LANE_KM for j in range(n)]  # first player furthest west
    lanes = {p: _lane(off) for p, off in zip(spots, offsets, strict=True)}
    winners = set(view.winners)

    # Plain dicts throughout (railkit.ui.plot): validating the outline (~2,400 points) took ~90 ms a redraw.
    fig = Plot([dict(_outline_trace())], {"template": NO_TEMPLATE})
    _add_route(fig, goal, west=max(offsets, default=0.0))
    for player, spot in spots.items():
        _add_lane(fig, spot, lanes[player])
    _add_terrain(fig, spots, lanes)
    for j, (player, spot) in enumerate(spots.items()):
        _add_train(fig, spot, lanes[player], j, n, _winner_words(player, winners, view.you))

    x_range, y_range = _ranges()
    title = trn("The race from the Cape to Cairo: first to cross {n} terrain wins (KK-E1)",
                "The race from the Cape to Cairo: first to cross {n} terrains wins (KK-E1)", goal)
    fig.update_layout(
        height=height, title=dict(text=title, x=0.01, font=dict(size=16)),
        xaxis=dict(visible=False, range=x_range, fixedrange=False),
        yaxis=dict(visible=False, range=y_range, scaleanchor="x", scaleratio=1),
        plot_bgcolor=WATER, paper_bgcolor="white", margin=dict(l=5, r=5, t=45, b=5),
        dragmode="pan", hovermode="closest",
        legend=dict(x=0.01, y=0.01, xanchor="left", yanchor="bottom", bgcolor="rgba(255,255,255,0.88)",
                    bordercolor="#bbb", borderwidth=1, font=dict(size=12), groupclick="toggleitem"),
    )
    fig.add_annotation(text=html.escape(tr("Route and deck are reconstructions — see the rulings page")),
                       xref="paper", yref="paper", x=0.99, y=0.01, xanchor="right", yanchor="bottom",
                       showarrow=False, font=dict(size=11, color="#555"), bgcolor="rgba(255,255,255,0.8)")
    return fig


def _ranges() -> tuple[list[float], list[float]]:
    xs, ys = _outline_xy()
    px = [x for x in xs if x is not None]
    py = [y for y in ys if y is not None]
    dx, dy = max(px) - min(px), max(py) - min(py)
    # more room at the bottom: lanes fan out south-east of Cape Town, and labels of trains there
    return [min(px) - 0.04 * dx, max(px) + 0.04 * dx], [min(py) - 0.08 * dy, max(py) + 0.03 * dy]


def _add_route(fig: Plot, goal: int, west: float) -> None:
    """The route's centre line and its towns; the stops of this race are labelled on the west side."""
    pts = _route_xy()
    fig.add_trace(dict(x=[p[0] for p in pts], y=[p[1] for p in pts], mode="lines",
                             line=dict(color=ROUTE_COLOUR, width=1, dash="dot"), hoverinfo="skip",
                             showlegend=False, name="route"))
    stops = set(station_indexes(goal))
    label_side = _lane(west + LANE_KM * 0.9)
    for stop_only in (True, False):
        chosen = [i for i in range(len(ROUTE)) if (i in stops) == stop_only]
        if not chosen:
            continue
        fig.add_trace(dict(
            x=[label_side[i][0] for i in chosen], y=[label_side[i][1] for i in chosen],
            mode="markers+text", text=[html.escape(tr(ROUTE[i].name)) for i in chosen], textposition="middle left",
            textfont=dict(size=12 if stop_only else 10, color="#222" if stop_only else TOWN_TEXT),
            marker=dict(size=7 if stop_only else 4, color="#222" if stop_only else TOWN_TEXT, symbol="line-ns",
                        line=dict(width=2 if stop_only else 1, color="#222" if stop_only else TOWN_TEXT)),
            hovertext=[html.escape(_stop_words(i, stop_only)) for i in chosen], hoverinfo="text",
            showlegend=False, name="towns" if stop_only else "other towns"))


def _stop_words(i: int, stop: bool) -> str:
    if i == 0:
        return tr("{town}: the start (KK-S1)", town=tr(ROUTE[i].name))
    if i == LEGS:
        return tr("{town}: the goal (KK-E1)", town=tr(ROUTE[i].name))
    town = tr(ROUTE[i].name)
    return town if stop else tr("{town} (not a stop in this short game)", town=town)


def _add_lane(fig: Plot, spot: TrainSpot, lane: Sequence[tuple[float, float]]) -> None:
    """The lane ahead, dotted in the player's ink; the lane crossed, solid in the player's colour on a dark edge
    (the yellow train's colour alone is too light on the land, WCAG 1.4.11)."""
    colour = PLAYER_HEX.get(spot.colour, "#777")
    ahead = _part(lane, spot.at, LEGS)
    fig.add_trace(dict(x=[p[0] for p in ahead], y=[p[1] for p in ahead], mode="lines",
                             line=dict(color=player_ink(spot.colour), width=1.5, dash="dot"), hoverinfo="skip",
                             showlegend=False, name="lane ahead"))
    if spot.crossed:
        done = _part(lane, 0, spot.at)
        for name, line in (("lane edge", dict(color=PLAYER_EDGE, width=8)), ("lane crossed", dict(color=colour, width=5))):
            fig.add_trace(dict(x=[p[0] for p in done], y=[p[1] for p in done], mode="lines", line=line,
                               hoverinfo="skip", showlegend=False, name=name))


def _add_terrain(fig: Plot, spots: Mapping[str, TrainSpot],
                 lanes: Mapping[str, Sequence[tuple[float, float]]]) -> None:
    """One legend entry per terrain (all five always listed), every card ahead of every train."""
    for terrain, (symbol, colour) in TERRAIN_STYLE.items():
        xs: list[float | None] = []
        ys: list[float | None] = []
        hover: list[str] = []
        for player, spot in spots.items():
            for card in spot.ahead:
                if card.terrain != terrain:
                    continue
                x, y = _along(lanes[player], card.at)
                xs.append(x)
                ys.append(y)
                hover.append(_card_words(player, card))
        fig.add_trace(dict(
            x=xs or [None], y=ys or [None], mode="markers", hovertext=hover, hoverinfo="text",
            marker=dict(symbol=symbol, size=15, color=colour, line=dict(color="white", width=1.5)),
            name=html.escape(tr("{terrain} ({needs} tracks)", terrain=terrain_label(terrain),
                                needs=REQUIREMENT.get(terrain, "?"))),
            legendgroup="terrain", legendgrouptitle=dict(text=html.escape(tr("Terrain ahead (KK-C3)")))))


def _card_words(player: str, card: CardSpot) -> str:
    tracks = card.card["tracks"]
    lines = [tr("{player}: card {number} ahead (crossing {leg})", player=player, number=card.number, leg=card.leg),
             tr("{terrain}: needs {needs} tracks (KK-C3)", terrain=terrain_label(card.terrain), needs=card.requirement),
             trn("{n} track piece on the card, coin £{coin}", "{n} track pieces on the card, coin £{coin}", tracks,
                 coin=card.card["coin"])]
    return "<br>".join(html.escape(line) for line in lines)


def _winner_words(player: str, winners: set[str], you: str | None) -> str:
    """What the map says beside a winner's train: to the learner in the second person ("you win!"), and a shared
    win (KK-B8) as shared; "" for a player who has not won."""
    if player not in winners:
        return ""
    if len(winners) > 1:
        return tr("you share the win!") if player == you else tr("shares the win!")
    return tr("you win!") if player == you else tr("wins!")


def _add_train(fig: Plot, spot: TrainSpot, lane: Sequence[tuple[float, float]], j: int, n: int,
               won: str) -> None:
    colour = PLAYER_HEX.get(spot.colour, "#777")
    x, y = _along(lane, spot.at)
    name = html.escape(spot.player)
    ahead = ", ".join(terrain_label(c.terrain) for c in spot.ahead) or tr("nothing")
    lines = [tr("{player} ({colour}): {crossed} of {goal} terrains crossed, at {town}", player=spot.player,
                colour=colour_label(spot.colour), crossed=spot.crossed, goal=spot.goal, town=tr(spot.town)),
             tr("ahead: {cards}", cards=ahead)]
    if spot.beyond:
        lines.append(tr("1 more card lies past Cairo") if spot.beyond == 1
                         else trn("{n} more card lies past Cairo", "{n} more cards lie past Cairo", spot.beyond))
    fig.add_trace(dict(
        x=[x], y=[y], mode="markers", name=f"{name} ({html.escape(colour_label(spot.colour))})",
        marker=dict(symbol="square", size=18, color=colour, line=dict(color="#111", width=2)),
        hovertext=["<br>".join(html.escape(line) for line in lines)],
        hoverinfo="text", legendgroup="trains", legendgrouptitle=dict(text=html.escape(tr("Trains")))))
    label = f"<b>{name}</b>" + (f" — {html.escape(won)}" if won else "")
    fig.add_annotation(  # to the east, staggered so labels of trains at one town do not overlap
        x=x, y=y, text=label, showarrow=True, arrowhead=0, arrowwidth=1, arrowcolor=colour,
        ax=34 + 14 * (n - 1 - j), ay=(j - (n - 1) / 2) * 20, xanchor="left",
        font=dict(size=12, color=player_ink(spot.colour)),
        bgcolor=f"rgba(255,255,255,{LABEL_BOX[1]})", bordercolor=colour, borderwidth=1, borderpad=2)
