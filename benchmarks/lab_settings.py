"""Trying the search players' settings: how often one setting wins against three heuristic players, and how
much worse its decisions are than a large reference search's.

    .venv/bin/python -m benchmarks.lab_settings wins kk ismcts 150 --games 48 --seed 9 --set '{"confidence": 0}'
    .venv/bin/python -m benchmarks.lab_settings regret kk --deals 100
    .venv/bin/python -m benchmarks.lab_settings speed kk ismcts 150 --games 3

``wins``: the search player (``ismcts`` or ``flatmc``, a budget, keyword settings as JSON) in one seat, three
heuristic players in the others, the seats rotating over the same deals (game ``i`` is deal ``seed·1000 + i//4``
with the search in seat ``i % 4``, as ``railkit.lab.ladder`` rotates); it prints the win share and the search's
CPU seconds per game every 8 games, and at the end, per step and kind of the heuristic's move, how often the
search chose another move. ``--first N`` starts at game N (two runs side by side split the games). 48 games give
about ±12 points at 95 %.

``speed``: whole games of the search player (``kind budget``, the game's own settings) in the first seat against
three heuristic players on deals 0..N-1: CPU seconds and playouts per second of CPU (the engines' speed as a
search sees it; the same deals make the same playouts, so two versions of the engines compare exactly).

``regret``: 40 positions with a real choice from heuristic games; each candidate move played out on ``--deals``
common deals (a flat reference, no anchor) gives each move's reward; then each setting's choice in each
position is scored by how far its reward falls below the best (0 = the best move). Cheaper and less noisy than
whole games for telling settings apart, but it judges by the reference's own playouts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from typing import Any

from benchmarks.lab import positions
from railkit.bots import decide
from railkit.lab.players import make_player
from railkit.lab.rules import GAMES
from railkit.lab.search import ISMCTS, FlatMC

KINDS = {"ismcts": ISMCTS, "flatmc": FlatMC}
SETTINGS: dict[str, tuple[str, int, dict[str, Any]]] = {
    "heuristic": ("heuristic", 0, {}),
    "ismcts:150": ("ismcts", 150, {}),
    "ismcts:150, no anchor, 2 deals a round": ("ismcts", 150, {"confidence": 0.0, "min_deals": 2}),
    "ismcts:150, no cap a candidate": ("ismcts", 150, {"per_move": None}),
    "ismcts:300": ("ismcts", 300, {}),
    "flatmc:150": ("flatmc", 150, {}),
    "flatmc:150, no anchor": ("flatmc", 150, {"confidence": 0.0}),
}


def wins(game: str, kind: str, budget: int, settings: dict[str, Any], games: int, seed: int,
         first: int = 0) -> None:
    """Games ``first`` .. ``first + games - 1``; at the end, per step and kind of the heuristic's move, how often
    the search chose another move (its own decisions only, the heuristic asked on the same view)."""
    rules = GAMES[game]
    won = cpu = 0.0
    decisions: Counter[str] = Counter()
    departures: Counter[str] = Counter()
    for i in range(first, first + games):
        block, seat = divmod(i, 4)
        names = [f"P{k}" for k in range(4)]
        played = rules.new(names, seed * 1000 + block)
        players: list[Any] = [make_player("heuristic", i * 10 + k) for k in range(4)]
        players[seat] = KINDS[kind](budget, i, **settings)
        reference = rules.policy(i)
        while not played.is_over:
            who = played.players_to_act()[0]
            if who == names[seat]:
                view, legal = played.view(who), played.legal_actions(who)
                started = time.process_time()
                move = players[seat].choose(view, legal)
                cpu += time.process_time() - started
                if len(legal) > 1:
                    own = reference.choose(view, legal)
                    step = f"{view.phase}/{type(own).__name__}"
                    decisions[step] += 1
                    departures[step] += move != own
            else:
                move = decide(players[names.index(who)], played, who)
            played.apply(move)
        standing = rules.standing(played)
        won += 1 / len(standing.winners) if names[seat] in standing.winners else 0.0
        done = i + 1 - first
        if done % 8 == 0 or done == games:
            print(f"{game} {kind}:{budget} {settings}: {done} games, wins {won / done:.3f}, "
                  f"CPU s a game {cpu / done:.2f}", flush=True)
    for step in sorted(decisions):
        print(f"  {step:32} {decisions[step]:6} decisions, another move than the heuristic's in "
              f"{departures[step] / decisions[step]:.0%}")


def speed(game: str, kind: str, budget: int, games: int) -> None:
    rules = GAMES[game]
    names = [f"P{k}" for k in range(4)]
    cpu, playouts = 0.0, 0
    for seed in range(games):
        played = rules.new(names, seed)
        search = KINDS[kind](budget, 1)
        players: list[Any] = [search, *(make_player("heuristic", k) for k in range(3))]
        started = time.process_time()
        while not played.is_over:
            who = played.players_to_act()[0]
            played.apply(decide(players[names.index(who)], played, who))
        cpu += time.process_time() - started
        playouts += search.iterations
    print(f"{game} {kind}:{budget}, {games} games: CPU {cpu:.2f} s, {playouts} playouts, "
          f"{playouts / cpu:.0f} playouts/s of CPU", flush=True)


def regret(game: str, deals: int) -> None:
    rules = GAMES[game]
    found = [(g, s) for g, s in positions(game, range(6), 13 if game == "kk" else 29)][:40]
    references = []
    for i, (g, seat) in enumerate(found):
        view, legal = g.view(seat), g.legal_actions(seat)
        reference = FlatMC(10**6, seed=1000 + i, width=12, per_move=None, confidence=0.0)
        candidates = rules.view_candidates(view, legal, reference._policy(reference._begin(view)))[:12]
        references.append({e.action: e.reward for e in reference.evaluate_moves(view, candidates, deals)})
    for name, (kind, budget, settings) in SETTINGS.items():
        losses = []
        for i, ((g, seat), rewards) in enumerate(zip(found, references, strict=True)):
            player = rules.policy(i) if kind == "heuristic" else KINDS[kind](budget, i, **settings)
            move = player.choose(g.view(seat), g.legal_actions(seat))
            losses.append(max(rewards.values()) - rewards.get(move, min(rewards.values())))
        print(f"{name}: mean regret {statistics.mean(losses):.4f}, the reference's best in "
              f"{sum(1 for x in losses if x < 0.01) / len(losses):.0%} of the positions", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    w = sub.add_parser("wins")
    w.add_argument("game", choices=sorted(GAMES))
    w.add_argument("kind", choices=sorted(KINDS))
    w.add_argument("budget", type=int)
    w.add_argument("--games", type=int, default=48)
    w.add_argument("--seed", type=int, default=9)
    w.add_argument("--first", type=int, default=0, help="the first game's number (runs side by side split the games)")
    w.add_argument("--set", default="{}", help="keyword settings of the search, as JSON")
    sp = sub.add_parser("speed")
    sp.add_argument("game", choices=sorted(GAMES))
    sp.add_argument("kind", choices=sorted(KINDS))
    sp.add_argument("budget", type=int)
    sp.add_argument("--games", type=int, default=3)
    r = sub.add_parser("regret")
    r.add_argument("game", choices=sorted(GAMES))
    r.add_argument("--deals", type=int, default=100)
    args = parser.parse_args(argv)
    if args.what == "wins":
        wins(args.game, args.kind, args.budget, json.loads(args.set), args.games, args.seed, args.first)
    elif args.what == "speed":
        speed(args.game, args.kind, args.budget, args.games)
    else:
        regret(args.game, args.deals)
    return 0


if __name__ == "__main__":
    sys.exit(main())
