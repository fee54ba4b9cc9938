"""The Vom Kap bis Kairo race map (railkit.ui.race_map): offline Africa outline, route, terrain
cards ahead of each train (KK-A6, KK-C3), trains in lanes, escaped player names."""

from __future__ import annotations

import html
import itertools
import json
import math
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import pytest
from conftest import ARTIFACTS

from railkit.capecairo import new_game
from railkit.capecairo.bots import HeuristicBot
from railkit.capecairo.deck import REQUIREMENT
from railkit.capecairo.route import ROUTE
from railkit.paths import data_dir
from railkit.ui import i18n
from railkit.ui.capecairo.race_map import LANE_KM, TERRAIN_STYLE, project, race_figure

DECK = str(Path(__file__).resolve().parent.parent / "capecairo" / "fixtures" / "kk_test_deck.json")
HOSTILE = "<img src=x onerror=alert(1)>"
NAMES = [HOSTILE, "O'Brien & Co", "Ann", "<b>Ben</b>"]


def _game(players: int, moves: int, seed: int = 5, **options: Any):  # type: ignore[no-untyped-def]
    game = new_game(NAMES[:players], seed=seed, deck=DECK, **options)
    bots = [HeuristicBot(seed=i) for i in range(players)]
    for _ in range(moves):
        if game.is_over:
            break
        player = game.current_player
        game.apply(bots[game.players.index(player)].choose(game, player))
    return game


def _trains(fig: go.Figure) -> list[Any]:
    return [t for t in fig.data if t.legendgroup == "trains"]


def _terrains(fig: go.Figure) -> list[Any]:
    return [t for t in fig.data if t.legendgroup == "terrain"]


# -- the shipped outline -----------------------------------------------------------------------
def test_africa_outline_is_small_licensed_data() -> None:
    path = data_dir() / "maps" / "africa.json"
    assert path.stat().st_size < 60_000
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "ISC" in data["about"] and "Natural Earth" in data["about"]
    countries = data["states"]  # same format as us_states.json
    assert len(countries) >= 50 and {"Egypt", "South Africa", "Madagascar", "Dem. Rep. Congo"} <= set(countries)
    lons = [p[0] for rings in countries.values() for ring in rings for p in ring]
    lats = [p[1] for rings in countries.values() for ring in rings for p in ring]
    assert -18 < min(lons) < -17 and 51 < max(lons) < 60 and -35.5 < min(lats) < -34 and 37 < max(lats) < 38
    readme = (data_dir() / "maps" / "README.md").read_text(encoding="utf-8")
    assert "`africa.json`" in readme and "world-atlas" in readme and "ISC" in readme


def test_projection_keeps_africa_in_shape() -> None:
    """Equal-area azimuthal around 20°E: Africa about 7,400 km wide and 8,000 km tall, as on a globe."""
    assert project(20, 0) == (0.0, 0.0)
    west, east = project(-17.5, 14.7), project(51.3, 11.8)  # Dakar, Cape Guardafui
    north, south = project(9.9, 37.3), project(20.0, -34.8)  # Bizerte, Cape Agulhas
    assert math.dist(west, east) == pytest.approx(7400, rel=0.06)
    assert math.dist(north, south) == pytest.approx(8000, rel=0.06)


# -- the figure ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_figure_builds_with_hostile_names_escaped(players: int) -> None:
    fig = race_figure(_game(players, 50).view(None))
    text = fig.to_json()
    assert len(text) < 150_000
    assert "<img" not in text and "<b>Ben</b>" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    trains = _trains(fig)
    assert len(trains) == players
    assert trains[0].name == "&lt;img src=x onerror=alert(1)&gt; (red)"
    assert trains[1].name == "O&#x27;Brien &amp; Co (yellow)"
    for train in trains:
        assert "<img" not in train.hovertext[0] and train.hovertext[0].count("<br>") >= 1
    labels = [a.text for a in fig.layout.annotations]
    assert any("&lt;img" in label for label in labels) and not any("<img" in label for label in labels)
    assert any("Route and deck are reconstructions — see the rulings page" in label for label in labels)


def test_KK_C3_every_terrain_has_its_own_symbol_colour_and_legend_entry() -> None:
    fig = race_figure(_game(4, 40).view(None))
    terrains = _terrains(fig)
    assert [t.name.split(" (")[0].lower() for t in terrains] == list(REQUIREMENT)
    assert [t.name for t in terrains][0] == "River (10 tracks)"
    assert len({t.marker.symbol for t in terrains}) == len({t.marker.color for t in terrains}) == 5
    assert set(TERRAIN_STYLE) == set(REQUIREMENT)
    assert all(t.showlegend is not False for t in terrains)


def test_KK_A6_one_marker_per_card_ahead_with_its_terrain() -> None:
    game = _game(3, 40)
    view = game.view(None)
    fig = race_figure(view)
    drawn: dict[str, int] = {}
    for trace in _terrains(fig):
        terrain = trace.name.split(" (")[0].lower()
        points = [x for x in trace.x if x is not None]
        drawn[terrain] = len(points)
        assert len(trace.hovertext or ()) == len(points)
        for hover in trace.hovertext or ():
            assert f"needs {REQUIREMENT[terrain]} tracks (KK-C3)" in hover
    goal = view.win_crossings
    wanted: dict[str, int] = dict.fromkeys(REQUIREMENT, 0)
    for p in view.players:
        for card in view.queues[p][:goal - view.crossed[p]]:
            wanted[card["terrain"]] += 1
    assert drawn == wanted and sum(wanted.values()) > 0


def test_trains_at_one_town_stand_side_by_side() -> None:
    """At the start every train is at Cape Town (KK-S1): lanes keep them apart, none hidden."""
    fig = race_figure(_game(4, 0).view(None))
    points = [(t.x[0], t.y[0]) for t in _trains(fig)]
    cape = project(ROUTE[0].lon, ROUTE[0].lat)
    for a, b in itertools.combinations(points, 2):
        assert math.dist(a, b) >= 0.9 * LANE_KM
    assert all(math.dist(p, cape) < 2.5 * LANE_KM for p in points)
    annotations = [a for a in fig.layout.annotations if a.showarrow]
    assert len({a.ay for a in annotations}) == 4  # name labels staggered too


def test_KK_E1_the_winner_is_named_in_cairo() -> None:
    game = _game(2, 10_000, seed=2)
    assert game.is_over
    fig = race_figure(game.view(None))
    winner = game.result().winners[0]
    labels = [a.text for a in fig.layout.annotations if a.showarrow]
    assert sum("wins!" in label for label in labels) == len(game.result().winners)
    title = fig.layout.title.text
    assert "first to cross 8 terrains wins (KK-E1)" in title
    assert any(html.escape(winner) in label and "wins!" in label for label in labels)
    if game.result().end_reason == "KK-E1":
        train = _trains(fig)[game.players.index(winner)]
        assert "8 of 8 terrains crossed, at Cairo" in train.hovertext[0]


def test_KK_E1_the_map_tells_the_winning_learner_you_win_and_the_others_who_won() -> None:
    game = _game(2, 10_000, seed=2)
    winner = game.result().winners[0]
    loser = next(p for p in game.players if p != winner)
    for seat, said in ((winner, "you win!"), (loser, "wins!")):
        labels = [a.text for a in race_figure(game.view(seat)).layout.annotations if a.showarrow]
        assert any(html.escape(winner) in label and label.endswith(f"— {said}") for label in labels), labels
    i18n.set_language("fi")
    try:
        labels = [a.text for a in race_figure(game.view(winner)).layout.annotations if a.showarrow]
    finally:
        i18n.set_language("en")
    assert any(label.endswith("— voitit!") for label in labels) and not any("voittaa" in label for label in labels)


def test_KK_E1_short_game_marks_only_its_stops() -> None:
    fig = race_figure(_game(3, 30, win_crossings=3).view(None))
    towns = next(t for t in fig.data if t.name == "towns")
    assert list(towns.text) == ["Cape Town", "Kasama", "Juba", "Cairo"]
    others = next(t for t in fig.data if t.name == "other towns")
    assert len(others.text) == len(ROUTE) - 4
    assert "first to cross 3 terrains" in fig.layout.title.text


@pytest.mark.browser
def test_race_map_renders_offline_without_running_names(offline_page: Any) -> None:
    """Rendered by the bundled plotly.js in Chromium with every outside request blocked: the map
    draws, the hostile name shows as text and never becomes an element or runs."""
    page = offline_page.page
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    fig = race_figure(_game(4, 60).view(None))
    page.set_viewport_size({"width": 900, "height": 800})
    page.set_content(fig.to_html(include_plotlyjs=True, full_html=True))
    page.wait_for_selector(".main-svg .legend", timeout=60_000)
    assert page.locator(".plotly img").count() == 0 and page.locator(".plotly b:text('Ben')").count() == 0
    svg_text = " ".join(page.locator(".main-svg text").all_text_contents())
    assert HOSTILE in svg_text and "<b>Ben</b>" in svg_text and "O'Brien & Co" in svg_text, svg_text
    assert "River (10 tracks)" in svg_text and "Cape Town" in svg_text
    assert dialogs == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "kk_race_map.png"), full_page=True)
