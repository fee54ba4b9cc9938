"""The race from the Cape to Cairo as map geometry: where each train stands, and the terrain
cards lined up in front of it (KK-A6, KK-B4, KK-E1). Widget-free: plain lon/lat degrees, read
from a ``CapeToCairoGame.view()``; the teaching layer draws it.

The card game has no map. ``ROUTE`` is railkit's illustration: nine real towns along a
plausible Cape-to-Cairo line (the old Cape-to-Cairo railway idea: Mafeking, the Victoria Falls
bridge, the Sudan railway through Khartoum and Wadi Halfa), picked so that the eight legs are
of similar length (about 700-1,200 km). Leg ``k`` stands for the ``k``-th terrain card a player
crosses; a full game is eight crossings (KK-E1), a short teaching game stops at fewer towns.
Coordinates are town centres from general geographic knowledge, rounded to 0.01°.
"""

from __future__ import annotations

from dataclasses import dataclass

from railkit.brief import brief
from railkit.capecairo.deck import REQUIREMENT, CardDict
from railkit.capecairo.views import KKView
from railkit.errors import RuleError
from railkit.messages import N_, Message


@dataclass(frozen=True)
class Town:
    name: str  # English; marked for the catalogs, the teaching layer shows it in the learner's language
    lon: float
    lat: float


ROUTE: tuple[Town, ...] = (
    Town(N_("Cape Town"), 18.42, -33.92),
    Town(N_("Mahikeng"), 25.64, -25.86),  # Mafeking on the old line north from the Cape
    Town(N_("Victoria Falls"), 25.84, -17.93),
    Town(N_("Kasama"), 31.18, -10.21),
    Town(N_("Mwanza"), 32.90, -2.52),
    Town(N_("Juba"), 31.58, 4.85),
    Town(N_("Khartoum"), 32.53, 15.50),
    Town(N_("Wadi Halfa"), 31.35, 21.80),
    Town(N_("Cairo"), 31.24, 30.04),
)
LEGS = len(ROUTE) - 1  # = 8, the crossings of a full game (KK-E1)


def station_indexes(win_crossings: int) -> tuple[int, ...]:
    """Indexes into ``ROUTE`` of the ``win_crossings + 1`` stops of a race: Cape Town, one town
    after each crossing, Cairo. A short game skips towns, spreading its legs evenly."""
    goal = _goal(win_crossings)
    return tuple(round(k * LEGS / goal) for k in range(goal + 1))


def stations(win_crossings: int) -> tuple[Town, ...]:
    return tuple(ROUTE[i] for i in station_indexes(win_crossings))


def point_at(at: float) -> tuple[float, float]:
    """``(lon, lat)`` at ``at`` along the route, in route segments: 0 is Cape Town, 1 the second
    town, ``LEGS`` Cairo; in between, a straight line in lon/lat (close enough at this scale)."""
    if not 0 <= at <= LEGS:
        raise ValueError(Message("a route position is from 0 to {legs}, not {at}", {"legs": LEGS, "at": at}))
    i = min(int(at), LEGS - 1)
    t = at - i
    a, b = ROUTE[i], ROUTE[i + 1]
    return a.lon + t * (b.lon - a.lon), a.lat + t * (b.lat - a.lat)


@dataclass(frozen=True)
class CardSpot:
    """One terrain card waiting in front of a train, drawn on the leg it will be crossed on."""

    card: CardDict
    number: int  # 1 = the next card to cross (KK-B2), 2 the one after it, ...
    leg: int  # which crossing of the race it is: crossed + number
    at: float  # route position: the middle of its leg
    lon: float
    lat: float

    @property
    def terrain(self) -> str:
        return self.card["terrain"]

    @property
    def requirement(self) -> int:
        return REQUIREMENT[self.card["terrain"]]  # KK-C3


@dataclass(frozen=True)
class TrainSpot:
    """Where one player's train stands after ``crossed`` crossings, and what lies ahead of it."""

    player: str
    colour: str
    crossed: int
    goal: int
    town: str  # the stop it stands at
    at: float  # route position of that stop
    lon: float
    lat: float
    ahead: tuple[CardSpot, ...]  # bought, not yet crossed, in crossing order (KK-A6)
    beyond: int  # cards bought that lie past Cairo (never crossed in this race)

    @property
    def finished(self) -> bool:
        return self.crossed >= self.goal


def positions(view: KKView, win_crossings: int | None = None) -> dict[str, TrainSpot]:
    """Each player's ``TrainSpot`` (seating order) from a ``CapeToCairoGame.view()``.

    ``win_crossings`` defaults to the view's own (KK-E1). Uses the view's ``players``,
    ``colours``, ``crossed`` and ``queues``: public information only (KK-A6: bought cards lie
    face up), so any player's or a spectator's view gives the same picture.
    """
    if not isinstance(view, KKView):
        raise TypeError(f"view must be a game's view (CapeToCairoGame.view), not {type(view).__name__}")
    goal = _goal(view.win_crossings if win_crossings is None else win_crossings)
    stops = station_indexes(goal)
    out: dict[str, TrainSpot] = {}
    for player in view.players:
        crossed = view.crossed[player]
        if isinstance(crossed, bool) or not isinstance(crossed, int) or crossed < 0:
            raise TypeError(f"crossed[{brief(player)}] must be a whole number >= 0, not {brief(crossed)}")
        if crossed > goal:
            raise RuleError("KK-E1", Message("{player} has crossed {crossed} terrains, more than the {goal} that end "
                                             "this race; pass the game's own win_crossings",
                                             {"player": player, "crossed": crossed, "goal": goal}))
        queue: list[CardDict] = list(view.queues[player])
        ahead = []
        for number, card in enumerate(queue[:goal - crossed], 1):
            leg = crossed + number
            at = (stops[leg - 1] + stops[leg]) / 2
            ahead.append(CardSpot(card, number, leg, at, *point_at(at)))
        stop = stops[crossed]
        out[player] = TrainSpot(
            player=player, colour=view.colours[player], crossed=crossed, goal=goal,
            town=ROUTE[stop].name, at=float(stop), lon=ROUTE[stop].lon, lat=ROUTE[stop].lat,
            ahead=tuple(ahead), beyond=max(0, len(queue) - (goal - crossed)),
        )
    return out


def _goal(win_crossings: object) -> int:
    if isinstance(win_crossings, bool) or not isinstance(win_crossings, int):
        raise TypeError(f"win_crossings must be a whole number, not {type(win_crossings).__name__}")
    if not 1 <= win_crossings <= LEGS:
        raise RuleError("KK-E1", Message("win_crossings must be from 1 to {legs}, not {value}",
                                         {"legs": LEGS, "value": win_crossings}))
    return win_crossings
