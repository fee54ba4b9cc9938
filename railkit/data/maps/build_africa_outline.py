"""Build ``africa.json`` (African country outlines, lon/lat) from the npm package world-atlas.

Run once, by hand, when the outline should change; the result is committed::

    npm install --prefix /tmp/npmmaps world-atlas@2.0.2
    python data/maps/build_africa_outline.py /tmp/npmmaps/node_modules/world-atlas/countries-50m.json

Standard library only; the TopoJSON decoding and the simplification are those of
``build_us_outline.py`` (same folder). Output format is that of ``us_states.json``
(``{"about": str, "states": {name: [ring, ...]}}``; here a "state" is a country), so
``railkit.ui.unionpacific.basemap.load_outline("africa")`` reads it too.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from build_us_outline import decode_arcs, ring, simplify  # the script's folder is on sys.path

# The 54 African countries as world-atlas (Natural Earth) names them, plus Somaliland and
# Western Sahara, which Natural Earth draws separately. Islands smaller than MIN_RING_EXTENT
# are dropped (all of Cabo Verde, São Tomé and the Seychelles; most small islands of the rest).
AFRICA = (
    "Algeria", "Angola", "Benin", "Botswana", "Burkina Faso", "Burundi", "Cabo Verde", "Cameroon",
    "Central African Rep.", "Chad", "Comoros", "Congo", "Côte d'Ivoire", "Dem. Rep. Congo", "Djibouti",
    "Egypt", "Eq. Guinea", "Eritrea", "eSwatini", "Ethiopia", "Gabon", "Gambia", "Ghana", "Guinea",
    "Guinea-Bissau", "Kenya", "Lesotho", "Liberia", "Libya", "Madagascar", "Malawi", "Mali", "Mauritania",
    "Mauritius", "Morocco", "Mozambique", "Namibia", "Niger", "Nigeria", "Rwanda", "S. Sudan",
    "São Tomé and Principe", "Senegal", "Seychelles", "Sierra Leone", "Somalia", "Somaliland",
    "South Africa", "Sudan", "Tanzania", "Togo", "Tunisia", "Uganda", "W. Sahara", "Zambia", "Zimbabwe",
)
MUST_HAVE = 50  # countries with a ring left after dropping tiny islands; guards a renamed source
TOLERANCE = 0.08  # degrees (about 9 km): a continent-wide picture a few hundred pixels tall
MIN_RING_POINTS = 4
MIN_RING_EXTENT = 0.5  # degrees: drop small islands
MAX_BYTES = 60_000


def main(source: str) -> None:
    topo = json.loads(Path(source).read_text(encoding="utf-8"))
    arcs = decode_arcs(topo)
    countries: dict[str, list[list[list[float]]]] = {}
    for geom in topo["objects"]["countries"]["geometries"]:
        name = geom["properties"]["name"]
        if name not in AFRICA:
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
        if rings:
            countries[name] = rings
    if len(countries) < MUST_HAVE:
        raise SystemExit(f"only {len(countries)} African countries found; did the source rename them?")
    out = {
        "about": "African country outlines, lon/lat degrees (WGS84), simplified. Derived from world-atlas "
                 "2.0.2 countries-50m.json (ISC licence; data: Natural Earth 1:50m Admin 0 boundaries, public "
                 "domain). Built by data/maps/build_africa_outline.py. Same format as us_states.json.",
        "states": dict(sorted(countries.items())),
    }
    target = Path(__file__).with_name("africa.json")
    target.write_text(json.dumps(out, separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
    size = target.stat().st_size
    print(f"{target}: {len(countries)} countries, {sum(len(r) for rs in countries.values() for r in rs)} points, "
          f"{size} bytes")
    if size > MAX_BYTES:
        raise SystemExit(f"{target} is {size} bytes; raise TOLERANCE to keep it under {MAX_BYTES}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/npmmaps/node_modules/world-atlas/countries-50m.json")
