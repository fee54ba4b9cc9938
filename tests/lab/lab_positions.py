"""Positions for the lab's tests: real games played a little way by the heuristic players (asked with views)."""

from __future__ import annotations

from typing import Any

from railkit.bots import decide
from railkit.lab.players import make_player
from railkit.lab.rules import GAMES


def positions(game: str, seeds: range, every: int, players: int = 4, **options: Any) -> list[tuple[Any, str]]:
    """(game, seat to act) at every ``every``-th move of heuristic games, each game a copy."""
    rules = GAMES[game]
    out = []
    for seed in seeds:
        g = rules.cls([f"P{i}" for i in range(players)], seed=seed, **options)
        g.narrate = False
        bots = [make_player("heuristic", seed * 10 + i) for i in range(players)]
        moves = 0
        while not g.is_over:
            seat = g.players_to_act()[0]
            if moves % every == every // 2:
                out.append((g.copy(), seat))
            g.apply(decide(bots[g.players.index(seat)], g, seat))
            moves += 1
    return out


def start(game: str, seed: int = 0, players: int = 4, **options: Any) -> tuple[Any, str]:
    """A new game and its first seat to act."""
    g = GAMES[game].cls([f"P{i}" for i in range(players)], seed=seed, **options)
    g.narrate = False
    return g, g.players_to_act()[0]
