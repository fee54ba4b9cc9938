"""``python -m railkit.lab``: rated ladders from the command line.

    python -m railkit.lab ladder --game kk --players 4 --bots random,heuristic,ismcts:200,ismcts:2000 \\
        --games 2000 [--dask ADDRESS|local] [--workers 2] --out kk.sqlite
    python -m railkit.lab table --out kk.sqlite          # every run in the file, rated again
    python -m railkit.lab replay --out kk.sqlite --run RUN --index 17 [--moves 40]
    python -m railkit.lab puzzles --game kk --count 36 --out railkit/data/cape_to_cairo/puzzles.json

``ladder`` plays the games of the run not yet in ``--out`` (so the same command resumes an interrupted run),
prints the table, and last one JSON line: ``game``, ``games`` and ``bots``, mapping each player's name to its
``mu``, ``sigma``, ``score_share`` and ``ci95`` (and a few more figures). Players: ``random``, ``heuristic``,
``ismcts:ITERATIONS`` (or ``ismcts:1.5s``), ``flatmc:ITERATIONS``, or a learner's own as ``package.module:Name``.
``puzzles`` mines positions of lab games where one move is clearly the best (``railkit.lab.puzzles``) into a JSON
file, the play lessons' puzzles.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from railkit.lab.ladder import replay, run_ladder
from railkit.lab.ratings import rate, rungs, table_lines
from railkit.lab.records import GameRecord, LadderSpec
from railkit.lab.store import Store

__all__ = ["main", "summary"]


def summary(spec: LadderSpec, records: Sequence[GameRecord]) -> dict[str, Any]:
    """The JSON line: the game, the games played and each player's figures."""
    table = rate(records, names=list(dict.fromkeys(spec.bots)))
    return {"game": spec.game, "games": len(records), "players": spec.players, "rungs": rungs(table),
            "bots": {r.name: r.to_json() for r in table}}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m railkit.lab", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    ladder = sub.add_parser("ladder", help="play (or resume) a rated ladder")
    ladder.add_argument("--game", required=True, choices=["kk", "up"])
    ladder.add_argument("--players", type=int, default=4, help="seats per game (default 4)")
    ladder.add_argument("--bots", required=True, help="players, comma-separated (a name twice: two seats of it)")
    ladder.add_argument("--games", type=int, required=True, help="games in all (a multiple of --players rotates "
                                                                 "every deal through every seat)")
    ladder.add_argument("--seed", type=int, default=0, help="draws the deals (default 0)")
    ladder.add_argument("--dask", metavar="ADDRESS", help="a Dask scheduler's address, or 'local' for a LocalCluster")
    ladder.add_argument("--workers", type=int, default=2, help="a LocalCluster's worker processes (default 2)")
    ladder.add_argument("--batch", type=int, help="games per Dask task (default: enough for 0.1 s)")
    ladder.add_argument("--out", required=True, help="the results file (SQLite); a run in it is resumed")
    ladder.add_argument("--no-progress", action="store_true", help="no progress bar")
    table = sub.add_parser("table", help="the ratings of every run in a results file")
    table.add_argument("--out", required=True)
    again = sub.add_parser("replay", help="a stored game, move by move, in the engine's words")
    again.add_argument("--out", required=True)
    again.add_argument("--run", help="the run's name (as 'table' shows it; default the file's first)")
    again.add_argument("--index", type=int, required=True)
    again.add_argument("--moves", type=int, help="only the first MOVES moves")
    puzzles = sub.add_parser("puzzles", help="positions where one move is clearly the best, as puzzles (JSON)")
    puzzles.add_argument("--game", required=True, choices=["kk", "up"])
    puzzles.add_argument("--count", type=int, required=True, help="puzzles to find")
    puzzles.add_argument("--seed", type=int, default=0, help="draws the games' deals (default 0)")
    puzzles.add_argument("--every", type=int, default=3, help="analyse every EVERY-th decision of a puzzle kind")
    puzzles.add_argument("--analyse", metavar="PLAYER", help="the search that ranks the moves (default: the hint's)")
    puzzles.add_argument("--check", type=int, help="playouts per choice of the second look (default: the game's)")
    puzzles.add_argument("--bots", help="the games' players, comma-separated (default: the heuristic and a search "
                                        "player, railkit.lab.puzzles.MINERS)")
    puzzles.add_argument("--questions", help="only these questions, comma-separated (bid; share, build)")
    puzzles.add_argument("--max-games", type=int, default=400, help="stop after this many games (default 400)")
    puzzles.add_argument("--out", required=True, help="the puzzles file (JSON), written at the end")
    puzzles.add_argument("--no-progress", action="store_true", help="no progress lines")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "ladder":
            spec = LadderSpec(args.game, args.players, tuple(b.strip() for b in args.bots.split(",") if b.strip()),
                              args.games, args.seed)
            records = run_ladder(spec, args.out, dask=args.dask, workers=args.workers, batch=args.batch,
                                 progress=not args.no_progress)
            records = [r for r in records if r.index < spec.games]
            print(f"{spec.key()}: {len(records)} games of {spec.game}, {spec.players} players")
            print("\n".join(table_lines(rate(records, names=list(dict.fromkeys(spec.bots))))))
            print(json.dumps(summary(spec, records)))
        elif args.command == "table":
            store = Store(args.out)
            for spec, count in store.runs():
                records = store.records(spec)
                print(f"{spec.key()}: {spec.game}, {spec.players} players, {count} games, bots {', '.join(spec.bots)}")
                print("\n".join(table_lines(rate(records, names=list(dict.fromkeys(spec.bots))))))
                print()
        elif args.command == "puzzles":
            return _puzzles(args)
        else:
            return _replay(args)
    except (ValueError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def _replay(args: argparse.Namespace) -> int:
    store = Store(args.out)
    runs = store.runs()
    found = [s for s, _ in runs if args.run in (None, s.key())]
    if not found:
        raise ValueError(f"no run {args.run!r} in {args.out}")
    spec = found[0]
    record = store.record(spec, args.index)
    if record is None:
        raise ValueError(f"run {spec.key()} has no game {args.index}")
    game = replay(spec, record, args.moves)
    print(f"{spec.key()} game {record.index}: seats {', '.join(record.seats)}")
    for line in game.narrative:
        print(line)
    return 0


def _puzzles(args: argparse.Namespace) -> int:
    from railkit.lab.puzzles import CHECK_PLAYOUTS, CONFIDENCE, MINERS, REWARD_GAP, mine, save_puzzles

    def progress(found: int, game: int) -> None:
        if not args.no_progress:
            print(f"game {game}: {found} of {args.count} puzzles", file=sys.stderr, flush=True)

    bots = [b.strip() for b in args.bots.split(",") if b.strip()] if args.bots else list(MINERS[args.game])
    about = {"game": args.game, "seed": args.seed, "miners": bots, "every": args.every,
             "analyse": args.analyse or "hint", "check_playouts": args.check or CHECK_PLAYOUTS[args.game],
             "reward_gap": REWARD_GAP, "confidence": CONFIDENCE,
             "questions": args.questions or "all"}
    found = mine(args.game, args.count, seed=args.seed, every=args.every, analyse_with=args.analyse,
                 check_playouts=args.check, max_games=args.max_games, progress=progress,
                 bots=bots, questions=args.questions.split(",") if args.questions else None,
                 on_found=lambda so_far: save_puzzles(so_far, args.out, about))
    save_puzzles(found, args.out, about)
    print(json.dumps({"game": args.game, "puzzles": len(found),
                      "questions": {q: sum(1 for p in found if p.question == q) for q in sorted({p.question
                                                                                              for p in found})}}))
    return 0 if len(found) >= args.count else 1
