"""The strategy lab's speed: ladder games per second in-process and on a 2-worker Dask LocalCluster, search
iterations per second, and how long a hint takes.

    .venv/bin/python -m benchmarks.lab                 # everything; the last line is one JSON object
    .venv/bin/python -m benchmarks.lab --games 48      # games per ladder run (default 48)

Measures (4 players; wall time, as a learner or a ladder waits for it):

* ``games_per_s_inprocess`` / ``games_per_s_dask``: one ladder (Vom Kap bis Kairo, ``random, heuristic,
  flatmc:10, ismcts:10``: a few hundredths of a second to a second a game) played into a fresh results file,
  in this process and on a ``LocalCluster`` of 2 worker processes (started and warmed up before the clock
  starts; games batched to ≥ 0.1 s a task, as ``run_ladder`` does). Goal: Dask ≥ 1.6× in-process.
* ``search_iterations_per_s_kk`` / ``_up``: the hint's search player (``railkit.lab.analysis.HINT_PLAYERS``) on
  positions from heuristic games, playouts per second of CPU time.
* ``hint_s_kk`` / ``hint_s_up``: the slowest ``analyse`` (the hint) over those positions, in seconds of wall time,
  the learner's own move included. Goal: ≤ 2 s.

The machine is shared: run it when it is quiet (``uptime``), and read the load printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from railkit.bots import decide
from railkit.lab.analysis import HINT_PLAYERS, analyse
from railkit.lab.ladder import MIN_TASK_SECONDS, batches, play_batch, play_game_record, run_ladder
from railkit.lab.players import make_player
from railkit.lab.records import LadderSpec
from railkit.lab.rules import GAMES

WORKLOAD = ("random", "heuristic", "flatmc:10", "ismcts:10")


def positions(game: str, seeds: range, every: int) -> list[tuple[Any, str]]:
    """Positions with a real choice, from heuristic games."""
    rules = GAMES[game]
    out = []
    for seed in seeds:
        g = rules.new([f"P{i}" for i in range(4)], seed)
        bots = [make_player("heuristic", seed * 10 + i) for i in range(4)]
        moves = 0
        while not g.is_over:
            seat = g.players_to_act()[0]
            if moves % every == every // 2 and len(g.legal_actions(seat)) > 1:
                out.append((g.copy(), seat))
            g.apply(decide(bots[g.players.index(seat)], g, seat))
            moves += 1
    return out


def games_per_second(games: int) -> tuple[float, float, int]:
    """(in-process, Dask) games per second of wall time on the same ladder, and the games per Dask task."""
    from dask.distributed import Client, LocalCluster, as_completed

    spec = LadderSpec("kk", 4, WORKLOAD, games, seed=11)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        run_ladder(spec, Path(folder) / "here.sqlite", progress=False)
        here = games / (time.perf_counter() - started)
    took = 1 / here
    size = max(1, int(MIN_TASK_SECONDS / took) + 1)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.gather(client.map(play_game_record, [spec, spec], [0, 1], pure=False))  # workers warmed up
        started = time.perf_counter()
        futures = client.map(play_batch, [spec] * games, batches(list(range(games)), size), pure=False)
        done = sum(len(f.result()) for f in as_completed(futures))
        dask = done / (time.perf_counter() - started)
    return here, dask, size


def search_speed(game: str, found: list[tuple[Any, str]]) -> tuple[float, float, float]:
    """(playouts per CPU second, slowest hint, median hint) for the hint's search player."""
    player = make_player(HINT_PLAYERS[game], 1)
    cpu = time.process_time()
    for g, seat in found:
        player.evaluate(g.view(seat), g.legal_actions(seat))
    rate = player.iterations / (time.process_time() - cpu)
    hints = []
    for i, (g, seat) in enumerate(found):
        legal = g.legal_actions(seat)
        started = time.perf_counter()
        analyse(g.view(seat), legal, include=[legal[-1]], seed=i)  # the learner's move: the last legal one
        hints.append(time.perf_counter() - started)
    return rate, max(hints), statistics.median(hints)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=48, help="games per ladder run (default 48)")
    args = parser.parse_args(argv)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
          f"load {os.getloadavg()[0]:.1f} at the start")
    out: dict[str, float] = {}
    for game, every in (("kk", 17), ("up", 41)):
        found = positions(game, range(3), every)
        rate, slowest, median = search_speed(game, found)
        out[f"search_iterations_per_s_{game}"] = round(rate, 1)
        out[f"hint_s_{game}"] = round(slowest, 3)
        print(f"{game}: {HINT_PLAYERS[game]} over {len(found)} positions: {rate:.0f} playouts/s of CPU; "
              f"hint (analyse, the learner's move included) median {median:.3f} s, slowest {slowest:.3f} s")
    here, dask, size = games_per_second(args.games)
    out["games_per_s_inprocess"] = round(here, 3)
    out["games_per_s_dask"] = round(dask, 3)
    print(f"ladder kk {', '.join(WORKLOAD)}, {args.games} games: in-process {here:.2f} games/s, Dask 2 workers "
          f"{dask:.2f} games/s ({size} games a task), {dask / here:.2f}×; load {os.getloadavg()[0]:.1f} at the end")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
