"""Figures: the shared FigureView (plotly mimetype, no CDN), the offline basemap and the UP board map."""

import base64
import re
from types import SimpleNamespace

import networkx as nx
import plotly.graph_objects as go
import pytest

from railkit.ui.figure_view import FigureView
from railkit.ui.map_clicks import CSS_CLASS, MapClicks
from railkit.ui.unionpacific import basemap
from railkit.ui.unionpacific.basemap import project
from railkit.ui.unionpacific.board_map import HIT_AREAS, band_sections, board_figure, building_map, section_geometry
from railkit.ui.unionpacific.map_style import HIGHLIGHT, Box, company_outline, company_symbol, km_per_px
from railkit.unionpacific import load_board


def fake_board():
    """A tiny board with the attributes of railkit.unionpacific.board.Board."""
    cities = {n: SimpleNamespace(name=n, lon=lon, lat=lat) for n, lon, lat in [
        ("Billings", -108.5, 45.78), ("Casper", -106.31, 42.87), ("Denver", -104.99, 39.74)]}
    sections = {
        "s1": SimpleNamespace(id="s1", a="Billings", b="Casper", track_type="plains", spaces=3, starting=("red",)),
        "s2": SimpleNamespace(id="s2", a="Casper", b="Denver", track_type="hills", spaces=2, starting=()),
        "s3": SimpleNamespace(id="s3", a="Denver", b="Casper", track_type="mountain", spaces=2, starting=()),
    }
    companies = (
        SimpleNamespace(key="red", name="Billings Northern Lights", colour="red", hex="#d32f2f", trains=19,
                        shares=15, headquarters="Billings", track_types=frozenset({"plains"}),
                        starting_sections=("s1",), order=1, invented=False),
        SimpleNamespace(key="black", name="Denver Midland", colour="black", hex="#212121", trains=14, shares=10,
                        headquarters="Denver", track_types=frozenset({"hills"}), starting_sections=(), order=2,
                        invented=False),
    )
    g = nx.MultiGraph()
    for s in sections.values():
        g.add_edge(s.a, s.b, key=s.id)
    return SimpleNamespace(cities=cities, sections=sections, companies=companies, graph=g,
                           track_labels={"plains": "Plains", "hills": "Hills", "mountain": "Mountain"},
                           TRACK_TYPES=("plains", "hills", "mountain"), GENERAL="general")


def trace(fig, name):
    return next(t for t in fig.data if t.name == name)


def test_figure_view_renders_with_the_plotly_mimetype_only():
    view = FigureView()
    fig = go.Figure(go.Bar(x=["a"], y=[1]))
    view.show(fig)
    assert view.figure is fig and view.renders == 1
    bundle = FigureView.bundle(fig)
    assert list(bundle) == ["application/vnd.plotly.v1+json"]
    assert "cdn" not in str(bundle).lower()


def test_basemap_is_shipped_projected_and_not_a_geo_trace():
    outline = basemap.load_outline()
    assert {"Colorado", "Maine", "California"} <= set(outline) and "Alaska" not in outline
    assert basemap.basemap_image()["xref"] == "x"  # an image in map kilometres, no geo trace
    # Albers: Denver is west of Chicago and south of Billings
    dx, dy = basemap.project(-104.99, 39.74)
    cx, _ = basemap.project(-87.63, 41.88)
    _, by = basemap.project(-108.5, 45.78)
    assert dx < cx and dy < by


def test_the_up_basemap_is_one_svg_image_under_the_map_drawn_from_the_same_outline():
    """The basemap is a layout image (drawn once, never redrawn by an update), in map
    kilometres, with every ring of the outline, land colour and a border that keeps its width when zoomed."""
    image = basemap.basemap_image()
    assert image["source"].startswith("data:image/svg+xml;base64,") and image["layer"] == "below"
    assert (image["xref"], image["yref"], image["sizing"]) == ("x", "y", "stretch")
    svg = base64.b64decode(image["source"].split(",", 1)[1]).decode()
    rings = sum(len(r) for r in basemap.load_outline().values())
    path = re.search(r' d="([^"]+)"', svg).group(1)
    assert path.count("M") == rings and path.count("Z") == rings
    assert f'fill="{basemap.LAND}"' in svg and f'stroke="{basemap.BORDER}"' in svg
    assert 'vector-effect="non-scaling-stroke"' in svg and "http" not in svg.replace("http://www.w3.org/2000/svg", "")
    x0, y1 = image["x"], image["y"]
    sx, sy = project(-122.33, 47.61)  # Seattle lies inside the image
    assert x0 < sx < x0 + image["sizex"] and y1 - image["sizey"] < sy < y1
    fig = board_figure(fake_board())
    assert [i.name for i in fig.layout.images] == ["basemap"] and all(t.name != "basemap" for t in fig.data)
    assert fig.layout.images[0].source == image["source"]


def test_bands_are_shapes_named_in_the_legend_and_read_back():
    board = fake_board()
    fig = building_map(board, {}, highlight=["s2", "s3"], selected="s1")
    assert [(s.name, s.layer, s.line.width) for s in fig.layout.shapes] == [
        ("selected section", "between", 22), ("legal sections", "between", 14)]  # purple under the magenta
    assert fig.layout.shapes[1].line.color == HIGHLIGHT
    assert band_sections(board, fig.layout, "legal sections") == ["s2", "s3"]
    assert band_sections(board, fig.layout, "selected section") == ["s1"]
    legend = [t for t in fig.data if t.name in ("selected section", "legal sections")]
    assert [(t.name, t.legendgroup, list(t.x)) for t in legend] == [
        ("selected section", "selected section", [None]), ("legal sections", "legal sections", [None])]
    assert fig.layout.legend.traceorder == "normal"  # the groups do not reorder the legend
    # the legend entries do not depend on the sections: a new selection changes only the shapes
    other = building_map(board, {}, highlight=["s2", "s3"], selected="s2")
    assert [t.to_plotly_json() for t in other.data] == [t.to_plotly_json() for t in fig.data]
    assert band_sections(board, other.layout, "selected section") == ["s2"]
    assert band_sections(board, building_map(board, {}).layout, "legal sections") is None


def test_board_figure_draws_sections_spaces_trains_hq_and_highlight():
    board = fake_board()
    fig = board_figure(board, trains_on={"s1": ["red", "black"], "s2": ["black"]}, highlight=["s2"])
    assert all(t.type == "scatter" for t in fig.data)  # no geo traces: nothing to fetch
    assert {"Plains", "Hills", "Mountain", "train", "empty space", "headquarters", "city", "legal sections"} <= {
        t.name for t in fig.data}
    trains = trace(fig, "train")
    assert len(trains.x) == 3
    assert list(trains.marker.color).count("#d32f2f") == 1  # the red starting train
    assert list(trains.customdata) == ["s1", "s1", "s2"]  # each train answers a click with its section
    empty = trace(fig, "empty space")
    assert len(empty.x) == (3 + 2 + 2) - 3
    assert len(trace(fig, "headquarters").x) == 2
    assert list(trace(fig, "city").text) == ["Billings", "Casper", "Denver"]
    assert sorted(trace(fig, "city names").text) == ["Billings", "Casper", "Denver"]


def test_parallel_sections_are_offset_so_both_show():
    geo = section_geometry(fake_board())
    assert geo["s2"] != geo["s3"]
    (a2, _), (a3, _) = geo["s2"], geo["s3"]
    assert abs(a2[0] - a3[0]) + abs(a2[1] - a3[1]) > 10  # kilometres apart


def test_unknown_section_in_trains_on_is_an_error():
    with pytest.raises(KeyError, match="not on the board"):
        board_figure(fake_board(), trains_on={"nope": ["red"]})


def test_real_board_draws():
    board = load_board()
    starting = {s.id: list(s.starting) for s in board.sections.values() if s.starting}
    fig = board_figure(board, trains_on=starting)
    assert len(trace(fig, "train").x) == sum(len(v) for v in starting.values())
    assert len(trace(fig, "city").x) == len(board.cities)


NAMED = ("Denver", "Cheyenne", "Billings", "Sioux Falls", "Kansas City")


def test_every_company_has_its_own_shape_and_a_legend_entry():
    """Shape as well as colour (for colour-blind learners); the legend names every company."""
    board = load_board()
    fig = board_figure(board)
    names = {t.name for t in fig.data}
    assert {c.name for c in board.companies} <= names
    symbols = [company_symbol(c.key) for c in board.companies]
    assert len(set(symbols)) == len(symbols) and "circle" not in symbols  # cities are circles
    white = next(c for c in board.companies if c.colour == "white")
    assert company_outline(white.hex) == "#111111"  # a white train has a dark outline
    band = [int(v) for v in HIGHLIGHT[HIGHLIGHT.index("(") + 1:].split(",")[:3]]
    for c in board.companies:  # the legal-section band is far from every company colour (yellow above all)
        rgb = [int(c.hex[i:i + 2], 16) for i in (1, 3, 5)]
        assert sum((a - b) ** 2 for a, b in zip(band, rgb, strict=True)) ** 0.5 > 120, c.colour


def test_city_names_do_not_overlap_each_other_stars_or_trains():
    """The names of crowded cities stay readable (boxes computed at the map's size)."""
    board = load_board()
    starting = {s.id: list(s.starting) for s in board.sections.values() if s.starting}
    cities = {n: project(c.lon, c.lat) for n, c in board.cities.items()}
    for width in (1100, 820):
        fig = board_figure(board, trains_on=starting, width=width, height=560)
        scale = km_per_px(fig.layout.xaxis.range, fig.layout.yaxis.range, width - 10, 560 - 130)
        labels = trace(fig, "city names")
        boxes = {}
        for name, x, y in zip(labels.text, labels.x, labels.y, strict=True):
            w, h = (len(name) * 6.3 + 4) * scale, 14 * scale
            boxes[name] = Box(x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        stars = trace(fig, "headquarters")
        trains = trace(fig, "train")
        obstacles = [Box(x - r * scale, y - r * scale, x + r * scale, y + r * scale)
                     for r, points in ((6, zip(stars.x, stars.y, strict=True)), (6, zip(trains.x, trains.y, strict=True)),
                                       (4.5, cities.values())) for x, y in points]
        for name in NAMED:
            others = [b for n, b in boxes.items() if n != name]
            assert all(boxes[name].overlap(b) == 0 for b in others), (width, name)
            assert all(boxes[name].overlap(b) == 0 for b in obstacles), (width, name)
        overlapping = sum(1 for a in boxes.values() for b in boxes.values() if a is not b and a.overlap(b) > 0)
        assert overlapping == 0, width


def test_every_map_carries_the_reconstruction_note_with_a_link_to_the_rulings():
    fig = board_figure(fake_board())
    assert any("reconstruction" in a.text and "rulings.ipynb" in a.text for a in fig.layout.annotations)


def test_clickable_maps_have_hit_areas_with_section_ids():
    board = load_board()
    assert HIT_AREAS not in {t.name for t in board_figure(board).data}
    hits = trace(board_figure(board, clickable=True), HIT_AREAS)
    assert set(hits.customdata) == set(board.sections)


def test_map_clicks_call_back_with_the_id_every_time():
    clicks = MapClicks()
    got = []
    clicks.on_click(got.append)
    clicks.click("s1")
    clicks.click("s1")
    clicks.box.value = "s2|7"  # what the template's script writes
    assert got == ["s1", "s1", "s2"] and CSS_CLASS in clicks.box._dom_classes
