"""Both engines' speed in one command, compared with the figures recorded in ``benchmarks/baseline.json``.

    .venv/bin/python -m benchmarks.engines                  # the medians, and how they compare with the baseline
    .venv/bin/python -m benchmarks.engines --check          # the same; exit 1 if a median regressed by > 25 %
    .venv/bin/python -m benchmarks.engines --record         # write the medians measured now as the new baseline
    .venv/bin/python -m benchmarks.engines --compare /tmp/c5d8ed2 .   # trees side by side (see below)
    .venv/bin/python -m benchmarks.engines --profile kk_random        # the top of a cProfile run of one measure
    .venv/bin/python -m benchmarks.engines --ratio up --runs 4        # heuristic ÷ random, games interleaved

Measures (4 players, seeds 0..N-1, setup included, median CPU time per game, ``time.process_time``):

* ``kk_random``, ``up_random``: a complete game of ``RandomBot``s through the checked ``apply`` path;
* ``kk_heuristic``, ``up_heuristic``: the same with a ``HeuristicBot`` in every seat;
* ``kk_random_narrated``, ``up_random_narrated``: the random game with every event rendered to English as it
  happens (``narrate`` left on, as in a lesson). The other measures switch narration off (the events are
  kept as unrendered ``Draft``s); on a tree without the switch the attribute is set and ignored, so every
  game there is narrated.

Goals on the project's 2-core machine: KK random ≤ 1.5 ms, UP random ≤ 5 ms, heuristic games ≤ 3× the
random game of the same engine.

The machine is shared, so one figure alone says little. ``--compare TREE ...`` measures source trees (e.g.
``git worktree add /tmp/c5d8ed2 c5d8ed2``) each in its own subprocess (``PYTHONPATH=TREE``), alternating
tree by tree for ``--rounds`` rounds so that the load hits all of them alike, and prints the median of the
per-round medians. The workers use only ``new_game``, ``RandomBot``, ``HeuristicBot`` and ``play_game``,
which every tree since the redesign has.

``--ratio ENGINE`` answers the goal "a heuristic game ≤ 3× a random one" in a way the load cannot bias: for
each seed a random and a heuristic game are played one after the other, ``--runs`` times, and each seed's
fastest time counts (the load only ever adds time); it prints the median of those minima and their ratio.

``--best-of N`` plays every seed N times and counts its fastest game, the same idea for the absolute goals: the
machine's own speed drifts by up to 1.6× between runs a minute apart (docs/benchmarks.md), and the fastest of a
few plays of one seed is the figure that drift cannot inflate. ``--record`` writes N into the baseline, and every
later run (``--check`` too) plays as the baseline was recorded unless told otherwise.

``--check`` is a benchmark, not a test: CPU time on a busy machine still varies by ±20 %, so a warning asks
for a rerun (or ``--compare`` against the last good commit) before anyone believes it.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

BASELINE = Path(__file__).with_name("baseline.json")
TOLERANCE = 0.25  # a median more than 25 % above its baseline is a regression
MEASURES = ("kk_random", "kk_heuristic", "kk_random_narrated", "up_random", "up_heuristic", "up_random_narrated")
DEFAULT_GAMES = {"kk_random": 200, "kk_heuristic": 200, "kk_random_narrated": 200,
                 "up_random": 60, "up_heuristic": 30, "up_random_narrated": 60}


def _game(measure: str) -> Callable[[int], object]:
    """One game of ``measure`` for a seed, as a function (imports the engine of the tree on the path).

    Bots' games are not narrated (``game.narrate = False``: the events stay unrendered ``Draft``s) where the
    tree has that switch; the ``_narrated`` measures render every event, as a lesson's game does."""
    narrate = measure.endswith("_narrated")
    if measure.startswith("kk_"):
        from railkit.capecairo import new_game as kk_new
        from railkit.capecairo.bots import HeuristicBot as KKHeuristic
        from railkit.capecairo.bots import RandomBot as KKRandom
        from railkit.capecairo.bots import play_game as kk_play
        kk_bot = KKHeuristic if measure == "kk_heuristic" else KKRandom

        def kk(seed: int) -> object:
            game = kk_new(4, seed=seed)
            game.narrate = narrate
            return kk_play(game, [kk_bot(seed * 10 + i) for i in range(4)])
        return kk
    from railkit.unionpacific import new_game as up_new
    from railkit.unionpacific.bots import HeuristicBot as UPHeuristic
    from railkit.unionpacific.bots import RandomBot as UPRandom
    from railkit.unionpacific.bots import play_game as up_play
    up_bot = UPHeuristic if measure == "up_heuristic" else UPRandom

    def up(seed: int) -> object:
        game = up_new(4, seed=seed)
        game.narrate = narrate
        return up_play(game, {p: up_bot(seed * 10 + i) for i, p in enumerate(game.players)})
    return up


def measure(name: str, games: int, best_of: int = 1) -> float:
    """The median CPU time of ``games`` games of ``name``, in milliseconds (after a short warm-up); with
    ``best_of`` > 1 every seed is played that many times over and its fastest game counts."""
    play = _game(name)
    for seed in range(3):  # data files parsed and cached, bytecode warm
        play(seed)
    times = [float("inf")] * games
    for _ in range(best_of):
        for seed in range(games):
            start = time.process_time()
            play(seed)
            times[seed] = min(times[seed], time.process_time() - start)
    return statistics.median(times) * 1000


def measure_all(names: tuple[str, ...], scale: float = 1.0, best_of: int = 1) -> dict[str, float]:
    return {name: measure(name, max(5, int(DEFAULT_GAMES[name] * scale)), best_of) for name in names}


def regressions(measured: Mapping[str, float], baseline: Mapping[str, float],
                tolerance: float = TOLERANCE) -> dict[str, float]:
    """The measures whose median is more than ``tolerance`` above the baseline, with their ratio to it.

    A measure missing from either side is not compared."""
    return {name: value / baseline[name] for name, value in measured.items()
            if name in baseline and baseline[name] > 0 and value > baseline[name] * (1 + tolerance)}


def load_baseline(path: Path = BASELINE) -> dict[str, float]:
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: float(v) for k, v in data.get("median_ms", {}).items()}


def baseline_best_of(path: Path = BASELINE) -> int:
    """How many plays of each seed the baseline took its fastest of (1 if it does not say)."""
    if not path.exists():
        return 1
    return int(json.loads(path.read_text(encoding="utf-8")).get("best_of", 1))


def _report(measured: Mapping[str, float], baseline: Mapping[str, float]) -> dict[str, float]:
    worse = regressions(measured, baseline)
    for name, value in measured.items():
        base = baseline.get(name)
        versus = f"  baseline {base:7.2f} ms  ({value / base:5.2f}×)" if base else "  (no baseline)"
        flag = f"  WARNING: more than {TOLERANCE:.0%} slower than the baseline" if name in worse else ""
        print(f"  {name:14} {value:7.2f} ms{versus}{flag}")
    for engine in ("kk", "up"):
        random_ms, heuristic_ms = measured.get(f"{engine}_random"), measured.get(f"{engine}_heuristic")
        if random_ms and heuristic_ms:
            print(f"  {engine}: a heuristic game costs {heuristic_ms / random_ms:.1f}× a random game")
    return worse


def _worker(names: tuple[str, ...], scale: float) -> None:
    """In a subprocess of ``--compare``: print the medians of the tree on ``PYTHONPATH`` as JSON."""
    import railkit
    print(json.dumps({"tree": str(Path(railkit.__file__).parent.parent), "median_ms": measure_all(names, scale)}))


def compare(trees: list[str], names: tuple[str, ...], rounds: int, scale: float) -> dict[str, dict[str, list[float]]]:
    """Each tree in its own subprocess, alternating, ``rounds`` times; per tree the per-round medians."""
    results: dict[str, dict[str, list[float]]] = {tree: {n: [] for n in names} for tree in trees}
    for r in range(rounds):
        order = trees if r % 2 == 0 else trees[::-1]  # neither tree always runs first
        for tree in order:
            env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve())}
            out = subprocess.run([sys.executable, __file__, "--worker", "--only", ",".join(names),
                                  "--scale", str(scale)],
                                 env=env, cwd=Path(tree).resolve(), check=True, capture_output=True, text=True)
            data = json.loads(out.stdout.strip().splitlines()[-1])
            if Path(data["tree"]).resolve() != Path(tree).resolve():
                raise RuntimeError(f"the worker for {tree} imported railkit from {data['tree']}")
            for name, value in data["median_ms"].items():
                results[tree][name].append(value)
        print(f"round {r + 1}/{rounds}: " + "; ".join(
            f"{Path(t).resolve().name}: " + ", ".join(f"{n} {results[t][n][-1]:.2f}" for n in names) for t in trees),
            flush=True)
    return results


def ratio(engine: str, games: int, runs: int) -> dict[str, float]:
    """Random and heuristic games of ``engine`` interleaved seed by seed, ``runs`` times; the median over the
    seeds of each seed's fastest game, per kind, in milliseconds, and heuristic ÷ random."""
    kinds = (f"{engine}_random", f"{engine}_heuristic")
    plays = {kind: _game(kind) for kind in kinds}
    for seed in range(3):  # warm-up
        for play in plays.values():
            play(seed)
    best = {kind: [float("inf")] * games for kind in kinds}
    for _ in range(runs):
        for seed in range(games):
            for kind, play in plays.items():
                start = time.process_time()
                play(seed)
                best[kind][seed] = min(best[kind][seed], time.process_time() - start)
    medians = {kind: statistics.median(times) * 1000 for kind, times in best.items()}
    return {**medians, "ratio": medians[kinds[1]] / medians[kinds[0]]}


def profile(name: str, games: int, top: int = 25) -> str:
    play = _game(name)
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        play(seed)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 if a median is > 25 %% above the baseline")
    parser.add_argument("--record", action="store_true", help="write the medians as the new baseline")
    parser.add_argument("--compare", nargs="+", metavar="TREE", help="source trees to measure side by side")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of --compare (default 5)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    parser.add_argument("--only", default=",".join(MEASURES), help="comma-separated measures")
    parser.add_argument("--profile", metavar="MEASURE", help="print the top of a cProfile run of MEASURE")
    parser.add_argument("--ratio", choices=("kk", "up"), help="heuristic ÷ random game of one engine, interleaved")
    parser.add_argument("--runs", type=int, default=4, help="runs of --ratio (default 4); each seed's fastest counts")
    parser.add_argument("--best-of", type=int, metavar="N",
                        help="play every seed N times; its fastest game counts (default: as the baseline was recorded)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    names = tuple(n for n in args.only.split(",") if n)
    unknown = [n for n in names if n not in MEASURES]
    if unknown:
        parser.error(f"unknown measure {', '.join(unknown)}; the measures are {', '.join(MEASURES)}")
    if args.worker:
        _worker(names, args.scale)
        return 0
    if args.profile:
        print(profile(args.profile, max(5, DEFAULT_GAMES[args.profile] // 4)))
        return 0
    print(f"Python {platform.python_version()} on {platform.machine()}, load average "
          f"{os.getloadavg()[0]:.1f}; median CPU time per 4-player game")
    if args.ratio:
        games = max(5, int(DEFAULT_GAMES[f"{args.ratio}_heuristic"] * args.scale))
        ratios = ratio(args.ratio, games, args.runs)
        print("  " + ", ".join(f"{k} {v:.2f} ms" for k, v in ratios.items() if k != "ratio")
              + f": a heuristic game costs {ratios['ratio']:.2f}× a random game ({games} seeds, best of "
              f"{args.runs} runs; load average now {os.getloadavg()[0]:.1f})")
        return 0
    if args.compare:
        results = compare(args.compare, names, args.rounds, args.scale)
        print("median of the per-round medians (min–max):")
        for tree, figures in results.items():
            print(f"  {tree}")
            for name, values in figures.items():
                print(f"    {name:14} {statistics.median(values):7.2f} ms ({min(values):.2f}–{max(values):.2f})")
        return 0
    best_of = baseline_best_of() if args.best_of is None else args.best_of
    if best_of < 1:
        parser.error("--best-of needs a whole number of at least 1")
    if args.check and best_of != baseline_best_of():
        parser.error(f"--check measures as the baseline was recorded (best of {baseline_best_of()}): leave out --best-of")
    print(f"  each seed's fastest of {best_of} play{'s' if best_of > 1 else ''}")
    measured = measure_all(names, args.scale, best_of)
    baseline = load_baseline()
    worse = _report(measured, baseline)
    if args.record:
        data: dict[str, Any] = {
            "comment": f"median CPU ms per 4-player game (each seed's fastest of {best_of} plays), written by "
                       f"`python -m benchmarks.engines --record` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} "
                       f"at load average {os.getloadavg()[0]:.1f}",
            "python": platform.python_version(),
            "best_of": best_of,
            "median_ms": {k: round(v, 3) for k, v in {**baseline, **measured}.items()},
        }
        BASELINE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"recorded in {BASELINE}")
    if worse:
        print(f"WARNING: {', '.join(worse)} regressed by more than {TOLERANCE:.0%} against {BASELINE.name}; "
              "rerun, or compare side by side with --compare, before believing it")
        return 1 if args.check else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
