"""Offline basemaps drawn from shipped outlines (no geo traces, no CDN).

Plotly's geo traces fetch their topojson from a CDN and draw a blank map offline, so railkit ships
its own outline (``data/maps/us_states.json``, see ``data/maps/README.md``) and projects it itself
onto ordinary x/y axes with an Albers equal-area conic projection (the usual projection for maps of
the lower 48 states: standard parallels 29.5°N and 45.5°N, centred on 96°W). Everything drawn on
top (cities, sections, trains) goes through the same ``project``.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from railkit.paths import data_dir
from railkit.ui.figure_view import NO_TEMPLATE

# Albers equal-area conic for the conterminous US (USGS parameters).
_PHI1, _PHI2, _PHI0, _LAM0 = (math.radians(v) for v in (29.5, 45.5, 23.0, -96.0))
_N = (math.sin(_PHI1) + math.sin(_PHI2)) / 2
_C = math.cos(_PHI1) ** 2 + 2 * _N * math.sin(_PHI1)
_RHO0 = math.sqrt(_C - 2 * _N * math.sin(_PHI0)) / _N
EARTH_RADIUS_KM = 6371.0

LAND = "#f4f1e8"
BORDER = "#c9c1ad"
WATER = "#e3eef7"


def project(lon: float, lat: float) -> tuple[float, float]:
    """(lon, lat) in degrees -> (x, y) in kilometres on the Albers conic."""
    phi, lam = math.radians(lat), math.radians(lon)
    rho = math.sqrt(_C - 2 * _N * math.sin(phi)) / _N
    theta = _N * (lam - _LAM0)
    return EARTH_RADIUS_KM * rho * math.sin(theta), EARTH_RADIUS_KM * (_RHO0 - rho * math.cos(theta))


@lru_cache(maxsize=4)
def load_outline(name: str = "us_states") -> dict[str, list[list[list[float]]]]:
    """``data/maps/<name>.json``: region name -> rings of [lon, lat] points."""
    path = data_dir() / "maps" / f"{name}.json"
    states: dict[str, list[list[list[float]]]] = json.loads(path.read_text(encoding="utf-8"))["states"]
    return states


@lru_cache(maxsize=4)
def _projected_rings(name: str) -> tuple[tuple[float | None, ...], tuple[float | None, ...]]:
    xs: list[float | None] = []
    ys: list[float | None] = []
    for rings in load_outline(name).values():
        for ring in rings:
            for lon, lat in ring:
                x, y = project(lon, lat)
                xs.append(round(x, 1))
                ys.append(round(y, 1))
            xs.append(None)  # gap between polygons
            ys.append(None)
    return tuple(xs), tuple(ys)


@lru_cache(maxsize=4)
def _basemap_image(name: str) -> dict[str, Any]:
    xs, ys = _projected_rings(name)
    points = [(x, y) for x, y in zip(xs, ys, strict=True) if x is not None and y is not None]
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    path: list[str] = []
    start = True
    for x, y in zip(xs, ys, strict=True):
        if x is None or y is None:
            path.append("Z")
            start = True
            continue
        path.append(f"{'M' if start else 'L'}{x:g} {-y:g}")  # SVG's y runs downwards
        start = False
    # The stroke keeps its width on screen (non-scaling) however far the map is zoomed, as the trace's did.
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0:g} {-y1:g} {x1 - x0:g} {y1 - y0:g}" '
           f'preserveAspectRatio="none"><path d="{"".join(path)}" fill="{LAND}" stroke="{BORDER}" '
           f'stroke-width="0.8" stroke-linejoin="round" vector-effect="non-scaling-stroke"/></svg>')
    return dict(source="data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii"),
                name="basemap", xref="x", yref="y", x=x0, y=y1, sizex=x1 - x0, sizey=y1 - y0, sizing="stretch",
                xanchor="left", yanchor="top", layer="below")


def basemap_image(name: str = "us_states") -> dict[str, Any]:
    """The outline as one layout image (an SVG data URI in map kilometres, under everything): drawn once,
    so a ``Plotly.react`` of the traces above never redraws it; built once per outline."""
    return dict(_basemap_image(name))


def fit_ranges(points: Iterable[tuple[float, float]], pad: float = 0.06) -> tuple[list[float], list[float]]:
    """Axis ranges around projected ``points`` with a margin of ``pad`` of the extent."""
    pts = list(points)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    dx, dy = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    return ([min(xs) - pad * dx, max(xs) + pad * dx], [min(ys) - pad * dy, max(ys) + pad * dy])


def map_layout_dict(x_range: list[float], y_range: list[float], height: int = 600) -> dict[str, Any]:
    """Hide the axes, keep the projection's aspect ratio, set a plain background (a layout dict)."""
    axis = dict(visible=False, showgrid=False, zeroline=False, fixedrange=False)
    return dict(
        template=NO_TEMPLATE,
        xaxis=dict(axis, range=list(x_range)),
        yaxis=dict(axis, range=list(y_range), scaleanchor="x", scaleratio=1),
        plot_bgcolor=WATER, paper_bgcolor="white",
        height=height, margin=dict(l=5, r=5, t=40, b=5),
        dragmode="pan", hovermode="closest",
        legend=dict(orientation="h", yanchor="top", y=-0.01, xanchor="left", x=0, font=dict(size=13)),
    )
