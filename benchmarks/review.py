"""How long a hint (the search player's move, its evaluation and the next best, as the play lessons show it) and a
whole game's review take.

    .venv/bin/python -m benchmarks.review              # the last line is one JSON object
    .venv/bin/python -m benchmarks.review --games 2    # full 4-player games reviewed per game (default 2)

* ``hint_s_kk`` / ``hint_s_up``: the slowest ``hint_rows`` (``railkit.lab.review``: ``analyse`` plus the words)
  over the seat's decisions in heuristic games, in seconds of wall time. Goal: ≤ ``HINT_SECONDS`` (2 s).
* ``review_s_kk`` / ``review_s_up``: the slowest ``review_game`` of one seat's decisions in a whole 4-player game
  of heuristic players (the full game: KK to 8 crossings), in seconds of wall time, with its decisions counted.

The machine is shared: run it when it is quiet (``uptime``), and read the load printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

from railkit.bots import decide
from railkit.lab.analysis import HINT_SECONDS
from railkit.lab.players import make_player
from railkit.lab.review import hint_rows, review_game
from railkit.lab.rules import GAMES


def heuristic_game(game: str, seed: int) -> Any:
    rules = GAMES[game]
    g = rules.new([f"P{i}" for i in range(4)], seed)
    bots = [make_player("heuristic", seed * 10 + i) for i in range(4)]
    while not g.is_over:
        seat = g.players_to_act()[0]
        g.apply(decide(bots[g.players.index(seat)], g, seat))
    return g


def measure(game: str, games: int) -> dict[str, Any]:
    hints: list[float] = []
    reviews: list[tuple[float, float, int]] = []
    for seed in range(games):
        g = heuristic_game(game, 100 + seed)
        replay = type(g)(list(g.players), seed=g.seed, **g.options)
        for i, action in enumerate(g.log):
            seat = action.player
            legal = replay.legal_actions(seat)
            if seat == "P0" and len(legal) > 1 and i % 3 == 0:
                started = time.perf_counter()
                hint_rows(replay.view(seat), legal)
                hints.append(time.perf_counter() - started)
            replay.apply(action)
        started, cpu = time.perf_counter(), time.process_time()
        review = review_game(g, "P0")
        reviews.append((time.perf_counter() - started, time.process_time() - cpu, len(review.decisions)))
    slowest = max(reviews)
    return {f"hint_s_{game}": round(max(hints), 3), f"hint_median_s_{game}": round(statistics.median(hints), 3),
            f"hints_{game}": len(hints), f"review_s_{game}": round(slowest[0], 2),
            f"review_cpu_s_{game}": round(slowest[1], 2), f"review_decisions_{game}": slowest[2]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    out: dict[str, Any] = {}
    for game in ("kk", "up"):
        load = os.getloadavg()[0]
        found = measure(game, args.games)
        print(f"{game}: {found} (load {load:.1f} → {os.getloadavg()[0]:.1f}; hint goal ≤ {HINT_SECONDS} s)",
              flush=True)
        out.update(found)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
