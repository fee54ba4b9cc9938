"""Vom Kap bis Kairo engine speed: complete random games through the checked ``apply`` path.

    .venv/bin/python -m benchmarks.kk_engine            # figures
    .venv/bin/python -m benchmarks.kk_engine --profile  # plus the top of a cProfile run
    .venv/bin/python -m benchmarks.kk_engine --winrate  # heuristic bot against random players

Goal: a complete 4-player game under 5 ms (median). Copy the printed figures into the
"Vom Kap bis Kairo engine" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import statistics
import time

from railkit.capecairo import new_game
from railkit.capecairo.bots import HeuristicBot, RandomBot, play_game


def one_game(seed: int, players: int = 4) -> tuple[float, int, list[tuple[str, float]]]:
    """Play one game with random bots; return (seconds, actions, (phase, legal_actions() time)s)."""
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    legal_times: list[tuple[str, float]] = []
    start = time.perf_counter()  # setup (shuffle) included; the deck file is parsed once and cached
    game = new_game(players, seed=seed)
    while not game.is_over:
        player = game.current_player
        game.apply(bots[game.players.index(player)].choose(game, player))
    elapsed = time.perf_counter() - start
    # legal_actions() measured separately, on a replay, so it does not inflate the game time
    replay = new_game(players, seed=seed)
    for action in game.log:
        t0 = time.perf_counter()
        replay.legal_actions()
        legal_times.append((replay.phase, time.perf_counter() - t0))
        replay.apply(action)
    return elapsed, len(game.log), legal_times


def bench(games: int, players: int) -> dict[str, float]:
    for seed in range(20):  # warm up (deck file cache, bytecode)
        one_game(seed, players)
    times, actions, legal = [], [], []
    for seed in range(games):
        elapsed, count, legal_times = one_game(seed, players)
        times.append(elapsed)
        actions.append(count)
        legal.extend(legal_times)
    return {
        "games": games,
        "median_game_ms": statistics.median(times) * 1000,
        "p90_game_ms": sorted(times)[int(0.9 * len(times))] * 1000,
        "games_per_s": games / sum(times),
        "median_actions": statistics.median(actions),
        "us_per_action": sum(times) / sum(actions) * 1e6,
        "legal_actions_median_us": statistics.median(t for _, t in legal) * 1e6,
        **{
            f"legal_actions_{phase}_median_us": statistics.median(t for p, t in legal if p == phase) * 1e6
            for phase in ("bid", "choose", "build")
        },
    }


def profile(games: int, players: int, top: int = 15) -> str:
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        game = new_game(players, seed=seed)
        play_game(game, [RandomBot(seed * 10 + i) for i in range(players)])
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def winrate(games: int, players: int) -> tuple[float, int]:
    """Share of games the heuristic bot wins (shared wins count as a fraction); its seat rotates."""
    score, stalls = 0.0, 0
    for seed in range(games):
        seat = seed % players
        game = new_game(players, seed=seed)
        bots = [HeuristicBot(seed) if i == seat else RandomBot(seed * 10 + i) for i in range(players)]
        result = play_game(game, bots).result()
        stalls += result.end_reason == "KK-B8"
        if game.players[seat] in result.winners:
            score += 1 / len(result.winners)
    return score / games, stalls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--winrate", action="store_true")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    figures = bench(args.games, args.players)
    print(f"{args.players}-player random games, checked apply path:")
    for key, value in figures.items():
        print(f"  {key:32} {value:10.2f}")
    if args.profile:
        print(profile(200, args.players))
    if args.winrate:
        for n in (2, 3, 4):
            rate, stalls = winrate(300, n)
            print(f"  heuristic vs {n - 1} random, 300 games: wins {rate:.1%} (KK-B8 endings: {stalls})")


if __name__ == "__main__":
    main()
