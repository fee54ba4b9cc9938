"""Build ``us_states.json`` (lower-48 state outlines, lon/lat) from the npm package us-atlas.

Run once, by hand, when the outline should change; the result is committed::

    npm install --prefix /tmp/npmmaps us-atlas@3.0.1
    python data/maps/build_us_outline.py /tmp/npmmaps/node_modules/us-atlas/states-10m.json

Standard library only. Decodes the TopoJSON arcs (delta + quantization transform), keeps each
state's rings, simplifies them (Douglas-Peucker, tolerance in degrees) and rounds to 0.01°.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SKIP = {"Alaska", "Hawaii", "Puerto Rico", "United States Virgin Islands", "Guam",
        "Commonwealth of the Northern Mariana Islands", "American Samoa"}
TOLERANCE = 0.06  # degrees
MIN_RING_POINTS = 4
MIN_RING_EXTENT = 0.25  # degrees: drop tiny islands


def decode_arcs(topo: dict) -> list[list[tuple[float, float]]]:
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs


def ring(arcs: list, indexes: list[int]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for i in indexes:
        pts = arcs[i] if i >= 0 else arcs[~i][::-1]
        out.extend(pts if not out else pts[1:])
    return out


def simplify(points: list, tol: float) -> list:
    """Douglas-Peucker, iterative."""
    if len(points) < 3:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        a, b = stack.pop()
        (x1, y1), (x2, y2) = points[a], points[b]
        dx, dy = x2 - x1, y2 - y1
        norm = (dx * dx + dy * dy) ** 0.5
        best, index = -1.0, -1
        for i in range(a + 1, b):
            px, py = points[i]
            d = abs(dy * (px - x1) - dx * (py - y1)) / norm if norm else ((px - x1) ** 2 + (py - y1) ** 2) ** 0.5
            if d > best:
                best, index = d, i
        if best > tol:
            keep[index] = True
            stack += [(a, index), (index, b)]
    return [p for p, k in zip(points, keep) if k]


def main(source: str) -> None:
    topo = json.loads(Path(source).read_text())
    arcs = decode_arcs(topo)
    states = {}
    for geom in topo["objects"]["states"]["geometries"]:
        name = geom["properties"]["name"]
        if name in SKIP:
            continue
        polys = geom["arcs"] if geom["type"] == "MultiPolygon" else [geom["arcs"]]
        rings = []
        for poly in polys:
            outer = ring(arcs, poly[0])  # holes are not drawn
            xs, ys = [p[0] for p in outer], [p[1] for p in outer]
            if max(max(xs) - min(xs), max(ys) - min(ys)) < MIN_RING_EXTENT:
                continue
            pts = [(round(x, 2), round(y, 2)) for x, y in simplify(outer, TOLERANCE)]
            if len(pts) >= MIN_RING_POINTS:
                rings.append([list(p) for p in pts])
        states[name] = rings
    out = {
        "about": "Lower-48 US state outlines, lon/lat degrees (WGS84), simplified. "
                 "Derived from us-atlas 3.0.1 states-10m.json (ISC licence; data: US Census Bureau "
                 "cartographic boundaries, public domain). Built by data/maps/build_us_outline.py.",
        "states": dict(sorted(states.items())),
    }
    target = Path(__file__).with_name("us_states.json")
    target.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"{target}: {len(states)} states, {sum(len(r) for rs in states.values() for r in rs)} points, "
          f"{target.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/npmmaps/node_modules/us-atlas/states-10m.json")
