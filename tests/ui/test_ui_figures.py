"""Figures: the shared FigureView (plotly mimetype, no CDN), the offline basemap and the UP board map."""

from types import SimpleNamespace

import networkx as nx
import plotly.graph_objects as go
import pytest

from railkit.ui.figure_view import FigureView
from railkit.ui.unionpacific import basemap
from railkit.ui.unionpacific.board_map import board_figure, section_geometry
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
    t = basemap.basemap_trace()
    assert t.type == "scatter" and t.fill == "toself"
    # Albers: Denver is west of Chicago and south of Billings
    dx, dy = basemap.project(-104.99, 39.74)
    cx, _ = basemap.project(-87.63, 41.88)
    _, by = basemap.project(-108.5, 45.78)
    assert dx < cx and dy < by


def test_board_figure_draws_sections_spaces_trains_hq_and_highlight():
    board = fake_board()
    fig = board_figure(board, trains_on={"s1": ["red", "black"], "s2": ["black"]}, highlight=["s2"])
    assert all(t.type == "scatter" for t in fig.data)  # no geo traces: nothing to fetch
    assert {"Plains", "Hills", "Mountain", "train", "empty space", "headquarters", "city", "legal sections"} <= {
        t.name for t in fig.data}
    trains = trace(fig, "train")
    assert len(trains.x) == 3
    assert list(trains.marker.color).count("#d32f2f") == 1  # the red starting train
    assert list(trains.marker.symbol).count("square") == 1  # ... on its coloured starting space
    empty = trace(fig, "empty space")
    assert len(empty.x) == (3 + 2 + 2) - 3
    assert len(trace(fig, "headquarters").x) == 2
    assert list(trace(fig, "city").text) == ["Billings", "Casper", "Denver"]


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
