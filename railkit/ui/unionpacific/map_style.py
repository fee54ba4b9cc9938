"""How the Union Pacific map tells things apart: company markers, highlight colours, city labels.

* Each company's trains have their own marker shape as well as colour, so colour-blind learners (and
  a projector that washes colours out) still tell them apart; light colours get a dark outline, so the
  white Chicago Lake Shore trains never look like the (dark, round) city markers.
* The legal-section highlight is a magenta that no company colour comes near (the Sacramento Gold
  Rush trains are yellow; a yellow band would swallow them), opaque enough to stand out from the land (3:1, WCAG
  1.4.11). A company colour drawn alone on the land (a starting space's open shape) takes its ``company_ink``, the
  same hue darkened to 3:1 (the white Chicago Lake Shore, the yellow Sacramento Gold Rush); each company's
  headquarters is a star beside the city its name carries, so the city's label tells whose it is without colour.
  ``tests/ui/test_ui_palettes.py`` checks every colour here against the land and, for colour-blind eyes, the cues.
* City names are placed around their city marker where they cover nothing: ``place_labels`` tries
  eight positions per city and keeps the one that overlaps the fewest other names, stars, cities and
  train spaces, at the map's size on screen (a zoom-in only spreads things apart).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# Company key -> marker symbol (plotly names). Unknown companies fall back to a circle.
COMPANY_SYMBOLS: Mapping[str, str] = {
    "EPRG": "triangle-up",
    "BNL": "diamond",
    "SGR": "hexagon",
    "DM": "square",
    "SFRB": "triangle-down",
    "CLS": "cross",
    "PSL": "pentagon",
    "KCCL": "hourglass",
    "SPS": "bowtie",
    "PAS": "star-diamond",
}
DARK_OUTLINE = "#111111"
LIGHT_OUTLINE = "#ffffff"
HIGHLIGHT = "rgba(214, 0, 160, 0.70)"  # legal sections: magenta, shared by no company colour
SELECTED = "rgba(80, 0, 120, 0.85)"  # the chosen section: a darker, wider purple band (under the magenta)
CITY_FILL = "#3a3a3a"
LABEL_FONT_PX = 11
CHAR_PX = 6.3  # average width of a character at LABEL_FONT_PX (sans-serif)
LINE_PX = 14.0


def company_symbol(key: str) -> str:
    return COMPANY_SYMBOLS.get(key, "circle")


MAP_LAND = "#f4f1e8"  # the basemap's land (basemap.LAND), what markers and lines are drawn on
GRAPHIC_CONTRAST = 3.0  # WCAG 1.4.11: shapes and lines against what is next to them


def _relative_luminance(rgb: Sequence[float]) -> float:
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in rgb))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two ``#rrggbb`` colours."""
    la, lb = sorted((_relative_luminance(_rgb(a)), _relative_luminance(_rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def company_ink(hex_colour: str, ground: str = MAP_LAND) -> str:
    """The company's colour, darkened just enough to stand 3:1 against ``ground`` (itself when it does)."""
    r, g, b = _rgb(hex_colour)
    for step in range(0, 101):
        k = 1 - step / 100
        shade = f"#{round(r * k):02x}{round(g * k):02x}{round(b * k):02x}"
        if contrast(shade, ground) >= GRAPHIC_CONTRAST:
            return shade
    return DARK_OUTLINE


def _luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def company_outline(hex_colour: str) -> str:
    """A dark outline around light markers, a white one around dark markers (black, dark blue)."""
    return DARK_OUTLINE if _luminance(hex_colour) > 0.25 else LIGHT_OUTLINE


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in map kilometres."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlap(self, other: Box) -> float:
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        return w * h if w > 0 and h > 0 else 0.0

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2


def km_per_px(x_range: Sequence[float], y_range: Sequence[float], width_px: float, height_px: float) -> float:
    """Kilometres per screen pixel of a map with equal axis scales (the larger of the two fits)."""
    return max((x_range[1] - x_range[0]) / width_px, (y_range[1] - y_range[0]) / height_px)


# (dx, dy) direction of the label from its city, in order of preference.
_POSITIONS = ((0, 1), (1, 0), (-1, 0), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))


def _label_box(x: float, y: float, text: str, direction: tuple[int, int], scale: float) -> Box:
    w, h = (len(text) * CHAR_PX + 4) * scale, LINE_PX * scale
    gap = 7 * scale  # clear of the city marker
    dx, dy = direction
    cx = x + dx * (gap + w / 2) if dx else x
    cy = y + dy * (gap + h / 2) if dy else y
    if dx and dy:  # diagonal: tuck the label's corner next to the marker
        cx, cy = x + dx * (gap * 0.7 + w / 2), y + dy * (gap * 0.7 + h / 2)
    return Box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _dot(x: float, y: float, radius_px: float, scale: float) -> Box:
    r = radius_px * scale
    return Box(x - r, y - r, x + r, y + r)


def place_labels(cities: Mapping[str, tuple[float, float]], scale: float,
                 stars: Iterable[tuple[float, float]] = (), spaces: Iterable[tuple[float, float]] = (),
                 trains: Iterable[tuple[float, float]] = ()) -> dict[str, Box]:
    """City name -> the box of its label (kilometres), placed greedily, most crowded city first.

    ``scale`` is km per pixel on screen; ``stars`` (headquarters, badges), city markers and ``trains``
    are hard obstacles, empty ``spaces`` soft ones. A UP map is drawn again after every build, so the
    boxes are plain tuples here and each city meets only the obstacles its eight label positions touch."""
    hard = ([_dot(x, y, 9, scale) for x, y in stars] + [_dot(x, y, 5, scale) for x, y in cities.values()]
            + [_dot(x, y, 7, scale) for x, y in trains])
    soft = [_dot(x, y, 5, scale) for x, y in spaces]
    hard_corners = [(b.x0, b.y0, b.x1, b.y1) for b in hard]
    soft_corners = [(b.x0, b.y0, b.x1, b.y1) for b in soft]
    reach = 90 * scale
    area = scale * scale

    def crowd(name: str) -> int:
        x, y = cities[name]
        return sum(1 for ox, oy in cities.values() if abs(ox - x) < reach and abs(oy - y) < reach)

    placed: dict[str, Box] = {}
    placed_corners: list[_Corners] = []
    for name in sorted(cities, key=lambda n: (-crowd(n), n)):
        x, y = cities[name]
        boxes = [_label_box(x, y, name, direction, scale) for direction in _POSITIONS]
        around = (min(b.x0 for b in boxes), min(b.y0 for b in boxes), max(b.x1 for b in boxes),
                  max(b.y1 for b in boxes))
        neighbours, close, loose = (_touching(around, c) for c in (placed_corners, hard_corners, soft_corners))
        best: tuple[float, Box] | None = None
        for rank, box in enumerate(boxes):
            corners = (box.x0, box.y0, box.x1, box.y1)
            cost = (100 * _covered(corners, neighbours) + 30 * _covered(corners, close)
                    + 8 * _covered(corners, loose)) / area + rank
            if best is None or cost < best[0]:
                best = (cost, box)
        assert best is not None
        placed[name] = best[1]
        placed_corners.append((best[1].x0, best[1].y0, best[1].x1, best[1].y1))
    return placed


_Corners = tuple[float, float, float, float]  # x0, y0, x1, y1


def _touching(around: _Corners, boxes: list[_Corners]) -> list[_Corners]:
    """The ``boxes`` that overlap ``around`` (in their order: the sums below add up as before)."""
    x0, y0, x1, y1 = around
    return [b for b in boxes if b[0] < x1 and b[2] > x0 and b[1] < y1 and b[3] > y0]


def _covered(box: _Corners, others: list[_Corners]) -> float:
    """The area of ``box`` that ``others`` cover, each counted (``Box.overlap`` summed, without the calls)."""
    x0, y0, x1, y1 = box
    total = 0.0
    for a0, b0, a1, b1 in others:
        w = (x1 if x1 < a1 else a1) - (x0 if x0 > a0 else a0)
        if w > 0:
            h = (y1 if y1 < b1 else b1) - (y0 if y0 > b0 else b0)
            if h > 0:
                total += w * h
    return total
