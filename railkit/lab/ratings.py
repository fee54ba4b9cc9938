"""Ratings from a ladder's finishing orders: openskill's Plackett–Luce model (Weng & Lin), with 95 % intervals,
plus what each player did: games, wins, mean place, average score share and time per move.

Every game is one Plackett–Luce update over its seats, ranked by their places (equal places stay equal). A
player named twice in one game (three heuristic seats) plays each seat with its current rating; its rating
afterwards is the mean of its seats' updates. The computer players never change between games, so the model
runs without its drift term (``tau=0``): every game narrows the interval, and 2,000 games tell rungs apart that
a drifting rating would blur. ``ci95`` is mu ± 1.96 sigma.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from railkit.lab.records import GameRecord

__all__ = ["Rating", "rate", "rungs", "table_lines"]

Z95 = 1.959964


@dataclass(frozen=True)
class Rating:
    """One player's line of the ladder."""

    name: str
    mu: float
    sigma: float
    games: int  # games played (a game with two seats of the player counts once)
    seats: int  # seats played
    wins: float  # shared wins count as a share
    mean_place: float
    score_share: float  # the player's average share of all seats' scores in its games
    seconds_per_move: float

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.ci95
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "score_share": round(self.score_share, 4),
                "ci95": [round(low, 3), round(high, 3)], "games": self.games, "seats": self.seats,
                "win_rate": round(self.win_rate, 4), "mean_place": round(self.mean_place, 3),
                "seconds_per_move": round(self.seconds_per_move, 4)}


def rate(records: Iterable[GameRecord], names: Sequence[str] | None = None) -> list[Rating]:
    """The ladder's table from its games in order, best mu first (``names``: the players to list, in case some
    never played)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    ratings: dict[str, Any] = {}
    games: dict[str, int] = {}
    seats: dict[str, int] = {}
    wins: dict[str, float] = {}
    places: dict[str, float] = {}
    shares: dict[str, float] = {}
    seconds: dict[str, float] = {}
    moves: dict[str, int] = {}
    for name in names or ():
        ratings[name] = model.rating(name=name)
    for record in records:
        for name in set(record.seats):
            games[name] = games.get(name, 0) + 1
            if name not in ratings:
                ratings[name] = model.rating(name=name)
        teams = [[model.rating(mu=ratings[n].mu, sigma=ratings[n].sigma, name=n)] for n in record.seats]
        updated = model.rate(teams, ranks=list(record.places))
        new: dict[str, list[Any]] = {}
        for name, team in zip(record.seats, updated, strict=True):
            new.setdefault(name, []).append(team[0])
        for name, after in new.items():
            ratings[name].mu = sum(r.mu for r in after) / len(after)
            ratings[name].sigma = sum(r.sigma for r in after) / len(after)
        share = record.score_shares()
        for seat, name in enumerate(record.seats):
            seats[name] = seats.get(name, 0) + 1
            wins[name] = wins.get(name, 0.0) + (1 / len(record.winners) if seat in record.winners else 0.0)
            places[name] = places.get(name, 0.0) + record.places[seat]
            shares[name] = shares.get(name, 0.0) + share[seat]
            seconds[name] = seconds.get(name, 0.0) + record.seconds[seat]
            moves[name] = moves.get(name, 0) + record.decisions[seat]
    table = []
    for name, r in ratings.items():
        n = seats.get(name, 0)
        table.append(Rating(name=name, mu=r.mu, sigma=r.sigma, games=games.get(name, 0), seats=n,
                            wins=wins.get(name, 0.0), mean_place=places.get(name, 0.0) / n if n else 0.0,
                            score_share=shares.get(name, 0.0) / n if n else 0.0,
                            seconds_per_move=seconds.get(name, 0.0) / moves[name] if moves.get(name) else 0.0))
    table.sort(key=lambda r: -r.mu)
    return table


def rungs(table: Sequence[Rating]) -> int:
    """How many rungs the ladder has: players in mu order, a new rung wherever a player's 95 % interval lies wholly
    below the interval of the lowest player of the rung above."""
    count, floor = 0, None
    for r in table:
        low, high = r.ci95
        if floor is None or high < floor:
            count += 1
            floor = low
        else:  # in the rung above: its lowest interval is the one to clear
            floor = min(floor, low)
    return count


def table_lines(table: Sequence[Rating]) -> list[str]:
    """The ladder as a text table."""
    width = max([len(r.name) for r in table] + [6])
    lines = [f"{'player':<{width}}  {'mu':>6}  {'95% interval':>15}  {'games':>6}  {'wins':>6}  {'place':>5}  "
             f"{'score':>6}  {'s/move':>7}"]
    for r in table:
        low, high = r.ci95
        lines.append(f"{r.name:<{width}}  {r.mu:6.2f}  {low:6.2f} .. {high:6.2f}  {r.games:6d}  "
                     f"{r.win_rate:6.1%}  {r.mean_place:5.2f}  {r.score_share:6.1%}  {r.seconds_per_move:7.3f}")
    lines.append(f"{rungs(table)} rungs with 95 % intervals apart")
    return lines
