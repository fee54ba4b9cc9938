"""The engines' cost in machine instructions per game, counted by callgrind: a figure the load cannot move.

    .venv/bin/python -m benchmarks.instructions /tmp/base .          # trees side by side, every measure
    .venv/bin/python -m benchmarks.instructions . --only kk_random --games 20

CPU time on a shared machine varies by ±25 % from run to run (docs/benchmarks.md); the number of instructions
a game executes does not (±0.5 % between two copies of the same tree). Each tree's games run in their own
``valgrind --tool=callgrind`` process (``PYTHONPATH=TREE``, ``PYTHONHASHSEED=0`` so that sets iterate alike)
after one warm-up game; counting starts at an ``os.getppid()`` call just before the measured games
(``--zero-before=os_getppid``), so imports and data files are not counted. The measures are those of
``benchmarks.engines`` (4 players, seeds 1..N). Needs ``valgrind``; about 100× slower than a plain run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

GAMES = {"kk_random": 20, "kk_heuristic": 20, "kk_random_narrated": 10,
         "up_random": 10, "up_heuristic": 5, "up_random_narrated": 5}

_WORKER = """
import os, sys
sys.path.insert(0, os.getcwd())
from benchmarks import engines
play = engines._game(sys.argv[1])
play(0)
os.getppid()  # callgrind --zero-before=os_getppid: only the games below count
for seed in range(1, int(sys.argv[2]) + 1):
    play(seed)
os._exit(0)
"""


def instructions(tree: str, measure: str, games: int) -> float:
    """Millions of instructions per game of ``measure`` in the source tree ``tree``."""
    root = Path(tree).resolve()
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          "--zero-before=os_getppid", sys.executable, "-c", _WORKER, measure, str(games)],
                         cwd=root, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"callgrind reported no count for {tree} {measure}:\n{out.stderr[-2000:]}")
    return int(found.group(1)) / games / 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="*", default=["."], metavar="TREE",
                        help="source trees (e.g. a `git archive` of main, and .); default: this one")
    parser.add_argument("--only", default=",".join(GAMES), help="comma-separated measures")
    parser.add_argument("--games", type=int, help="games per measure (default: per measure, 5-20)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:  # `make bench` runs every script: say what is missing, and go on
        print("valgrind is not installed, so no instructions were counted (Debian: apt-get install valgrind)")
        return 0
    for measure in (m for m in args.only.split(",") if m):
        if measure not in GAMES:
            parser.error(f"unknown measure {measure}; the measures are {', '.join(GAMES)}")
        figures = [instructions(tree, measure, args.games or GAMES[measure]) for tree in args.trees]
        shown = "; ".join(f"{Path(t).resolve().name} {f:.2f}" for t, f in zip(args.trees, figures, strict=True))
        versus = f" ({figures[-1] / figures[0] - 1:+.1%} last vs first)" if len(figures) > 1 else ""
        print(f"{measure:20} M instructions per game: {shown}{versus}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
