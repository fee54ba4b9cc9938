"""The race as map geometry (railkit.capecairo.route): where trains stand and what lies ahead
(KK-A6 cards in buying order, KK-B4 one crossing per build, KK-E1 the goal)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import pytest

from railkit.capecairo import new_game
from railkit.capecairo.bots import HeuristicBot
from railkit.capecairo.route import LEGS, ROUTE, point_at, positions, station_indexes, stations
from railkit.capecairo.views import KKView
from railkit.errors import RuleError

DECK = str(Path(__file__).parent / "fixtures" / "kk_test_deck.json")


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    (lon1, lat1), (lon2, lat2) = (tuple(map(math.radians, p)) for p in (a, b))
    cos = math.sin(lat1) * math.sin(lat2) + math.cos(lat1) * math.cos(lat2) * math.cos(lon2 - lon1)
    return 6371 * math.acos(min(1.0, cos))


def _card(terrain: str, n: int = 1) -> dict[str, Any]:
    return {"id": f"{terrain[0].upper()}{n:02d}", "terrain": terrain, "tracks": 1, "coin": 5}


def _view(crossed: dict[str, int], queues: dict[str, list[dict[str, Any]]], goal: int = 8) -> KKView:
    """A spectator's view of a new game with the race set as given."""
    colours = dict(zip(crossed, ("red", "yellow", "green", "blue"), strict=False))
    start = new_game(["Ann", "Ben"], seed=1, deck=DECK).view(None)
    return dataclasses.replace(start, players=tuple(crossed), colours=colours, crossed=crossed,
                               queues={p: tuple(q) for p, q in queues.items()}, win_crossings=goal)


# -- the route ---------------------------------------------------------------------------
def test_KK_E1_route_runs_from_the_cape_to_cairo_in_eight_similar_legs() -> None:
    assert LEGS == 8 == len(ROUTE) - 1
    assert ROUTE[0].name == "Cape Town" and ROUTE[-1].name == "Cairo"
    lats = [t.lat for t in ROUTE]
    assert lats == sorted(lats)  # always heading north
    for town in ROUTE:
        assert -35 < town.lat < 31 and 15 < town.lon < 35, town
    legs = [_km((a.lon, a.lat), (b.lon, b.lat)) for a, b in zip(ROUTE, ROUTE[1:], strict=False)]
    assert all(600 < km < 1300 for km in legs), legs
    assert _km((ROUTE[0].lon, ROUTE[0].lat), (ROUTE[-1].lon, ROUTE[-1].lat)) == pytest.approx(7200, rel=0.05)


@pytest.mark.parametrize("goal", range(1, LEGS + 1))
def test_KK_E1_a_short_race_stops_at_fewer_towns(goal: int) -> None:
    stops = station_indexes(goal)
    assert len(stops) == goal + 1 and stops[0] == 0 and stops[-1] == LEGS
    assert list(stops) == sorted(set(stops))
    assert stations(goal)[0].name == "Cape Town" and stations(goal)[-1].name == "Cairo"


def test_KK_E1_race_length_is_checked() -> None:
    assert station_indexes(8) == tuple(range(9))
    assert [t.name for t in stations(3)] == ["Cape Town", "Kasama", "Juba", "Cairo"]
    for bad in (0, 9, -1):
        with pytest.raises(RuleError) as info:
            station_indexes(bad)
        assert info.value.rule == "KK-E1"
    for wrong in (True, 8.0, "8"):
        with pytest.raises(TypeError):
            station_indexes(wrong)  # type: ignore[arg-type]


def test_point_at_interpolates_between_towns() -> None:
    assert point_at(0) == (ROUTE[0].lon, ROUTE[0].lat)
    assert point_at(LEGS) == (ROUTE[-1].lon, ROUTE[-1].lat)
    lon, lat = point_at(2.5)
    assert lon == pytest.approx((ROUTE[2].lon + ROUTE[3].lon) / 2)
    assert lat == pytest.approx((ROUTE[2].lat + ROUTE[3].lat) / 2)
    with pytest.raises(ValueError):
        point_at(8.01)


# -- trains and their lines of cards ----------------------------------------------------------
def test_KK_S1_at_the_start_every_train_stands_at_the_cape() -> None:
    spots = positions(new_game(["Ann", "Ben", "Cleo"], seed=1, deck=DECK).view(None))
    assert list(spots) == ["Ann", "Ben", "Cleo"]
    for spot in spots.values():
        assert (spot.crossed, spot.town, spot.at, spot.ahead, spot.beyond) == (0, "Cape Town", 0.0, (), 0)
        assert (spot.lon, spot.lat) == (ROUTE[0].lon, ROUTE[0].lat) and not spot.finished
    assert [s.colour for s in spots.values()] == ["red", "yellow", "green"]  # KK-C1


def test_KK_A6_cards_ahead_lie_on_the_legs_they_will_be_crossed_on() -> None:
    line = [_card("river"), _card("desert", 2), _card("savanna", 3)]
    spot = positions(_view({"Ann": 2, "Ben": 0}, {"Ann": line, "Ben": []}))["Ann"]
    assert (spot.crossed, spot.town, spot.at) == (2, "Victoria Falls", 2.0)
    assert [c.terrain for c in spot.ahead] == ["river", "desert", "savanna"]  # buying order
    assert [(c.number, c.leg, c.at) for c in spot.ahead] == [(1, 3, 2.5), (2, 4, 3.5), (3, 5, 4.5)]
    assert [c.requirement for c in spot.ahead] == [10, 8, 6]  # KK-C3
    assert (spot.ahead[0].lon, spot.ahead[0].lat) == point_at(2.5)
    assert spot.ahead[1].card == line[1]


def test_KK_E1_cards_past_cairo_are_counted_not_drawn() -> None:
    line = [_card("village", n) for n in range(4)]
    spot = positions(_view({"Ann": 6}, {"Ann": line}))["Ann"]
    assert [c.leg for c in spot.ahead] == [7, 8] and spot.beyond == 2


def test_KK_E1_the_winner_stands_in_cairo() -> None:
    spot = positions(_view({"Ann": 8, "Ben": 5}, {"Ann": [], "Ben": [_card("river")]}))
    assert spot["Ann"].finished and spot["Ann"].town == "Cairo" and spot["Ann"].at == LEGS
    assert not spot["Ben"].finished and spot["Ben"].town == "Juba"


def test_KK_E1_a_short_race_uses_its_own_stops() -> None:
    # five crossings: Cape Town, Victoria Falls, Kasama, Juba, Khartoum, Cairo (route indexes 0, 2, 3, 5, 6, 8)
    spot = positions(_view({"Ann": 2}, {"Ann": [_card("mountains"), _card("river", 2)]}, goal=5))["Ann"]
    assert spot.town == "Kasama" and spot.at == 3.0 and spot.goal == 5
    assert [(c.leg, c.at) for c in spot.ahead] == [(3, 4.0), (4, 5.5)]
    # the caller may also pass the race length explicitly
    assert positions(_view({"Ann": 2}, {"Ann": []}), win_crossings=5)["Ann"].town == "Kasama"


def test_positions_follow_a_real_game_to_its_end() -> None:
    game = new_game(["Ann", "Ben", "Cleo", "Dev"], seed=11, deck=DECK)
    bots = [HeuristicBot(seed=i) for i in range(4)]
    seen_middle = False
    while not game.is_over:
        view = game.view(None)
        spots = positions(view)
        assert positions(game.view("Ann")) == spots  # public information only
        for p, spot in spots.items():
            assert spot.crossed == view.crossed[p]
            assert [c.card for c in spot.ahead] + [None] * spot.beyond == \
                list(view.queues[p][:len(spot.ahead)]) + [None] * (len(view.queues[p]) - len(spot.ahead))
            assert spot.town == stations(8)[spot.crossed].name
        seen_middle = seen_middle or any(0 < s.crossed < 8 and s.ahead for s in spots.values())
        player = game.current_player
        assert player is not None
        game.apply(bots[game.players.index(player)].choose(game, player))
    final = positions(game.view(None))
    assert seen_middle
    if game.result().end_reason == "KK-E1":
        assert final[game.result().winner].finished


def test_inconsistent_views_are_refused() -> None:
    with pytest.raises(RuleError) as info:
        positions(_view({"Ann": 6}, {"Ann": []}), win_crossings=5)
    assert info.value.rule == "KK-E1" and "Ann has crossed 6 terrains" in str(info.value)
    with pytest.raises(TypeError):
        positions(_view({"Ann": True}, {"Ann": []}))  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        positions([("Ann", 0)])  # type: ignore[arg-type]
