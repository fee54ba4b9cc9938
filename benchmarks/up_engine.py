"""Union Pacific engine speed, on one core.

Run: ``.venv/bin/python -m benchmarks.up_engine`` (``--profile`` adds the cProfile top
entries; ``--games N`` changes the sample). Figures go by hand into docs/benchmarks.md.

Times are CPU time of this process (``time.process_time``), so other jobs on the machine
disturb them less than wall-clock time would.

Measures
- a complete random 4-player game through the checked ``apply`` path (RandomBot picks
  from ``legal_actions()``; every action is checked, then performed), median per game;
- replaying a recorded 4-player game (setup + checked ``apply`` of every logged action);
- ``legal_actions()`` in mid-game: one call per state, as a game loop makes it;
- one payout computation, with and without the explanations in words.
Goals: a complete game < 10 ms median, ``legal_actions()`` < 0.2 ms median.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import platform
import pstats
import random
import statistics
import time

from railkit.unionpacific import new_game
from railkit.unionpacific.bots import HeuristicBot, RandomBot, play_game


def random_game(seed: int):
    game = new_game(4, seed=seed)
    bot = RandomBot(seed)
    return play_game(game, {p: bot for p in game.players})


def time_games(n: int) -> list[float]:
    times = []
    for seed in range(n):
        t = time.process_time()
        random_game(seed)
        times.append(time.process_time() - t)
    return times


def time_replays(n: int) -> tuple[list[float], float]:
    logs = [random_game(seed).log for seed in range(n)]
    times = []
    for seed, log in enumerate(logs):
        t = time.process_time()
        game = new_game(4, seed=seed)
        for action in log:
            game.apply(action)
        times.append(time.process_time() - t)
    return times, statistics.mean(len(log) for log in logs)


def time_legal_actions(n: int) -> tuple[list[float], list[float]]:
    """Per state in the middle third of each game: the first call (what a game loop pays)
    and, for the build-or-invest step only, the same."""
    every, action_step = [], []
    for seed in range(n):
        length = len(random_game(seed).log)
        game = new_game(4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            player = game.players_to_act()[0]
            t = time.process_time()
            legal = game.legal_actions(player)
            dt = time.process_time() - t
            if length / 3 <= len(game.log) <= 2 * length / 3:
                every.append(dt)
                if game.state.step == "action":
                    action_step.append(dt)
            game.apply(rng.choice(legal))
    return every, action_step


def time_payouts(n: int) -> tuple[list[float], list[float]]:
    fast, explained = [], []
    for seed in range(n):
        game = new_game(4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(game.log) < 120:
            game.apply(rng.choice(game.legal_actions(game.players_to_act()[0])))
        for explain, out in ((False, fast), (True, explained)):
            t = time.process_time()
            game.compute_payout(3, explain=explain)
            out.append(time.process_time() - t)
    return fast, explained


def win_rate(n: int, players: int = 4) -> tuple[float, float, int]:
    """HeuristicBot in one seat (rotating with the seed) against RandomBots. Returns its win
    rate (a shared win counts as a fraction), the mean money margin over the best random
    player, and the number of games."""
    wins, margin = 0.0, 0.0
    for seed in range(n):
        game = new_game(players, seed=seed)
        seat = game.players[seed % players]
        bots = {p: (HeuristicBot(seed) if p == seat else RandomBot(seed * 7 + i)) for i, p in enumerate(game.players)}
        result = play_game(game, bots).result()
        if seat in result.winners:
            wins += 1 / len(result.winners)
        money = result.money
        margin += money[seat] - max(m for p, m in money.items() if p != seat)
    return wins / n, margin / n, n


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1e3:.3f} ms median (mean {statistics.mean(values) * 1e3:.3f}, n={len(values)})"


def us(values: list[float]) -> str:
    p90 = sorted(values)[int(len(values) * 0.9)]
    return f"{statistics.median(values) * 1e6:.1f} µs median (p90 {p90 * 1e6:.1f}, n={len(values)})"


def profile(n: int, top: int = 12) -> str:
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(n):
        random_game(seed)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--win-rate", type=int, default=0, metavar="N",
                        help="also play N 4-player games HeuristicBot (rotating seat) vs 3 RandomBots")
    args = parser.parse_args(argv)
    gc.collect()
    print(f"Python {platform.python_version()} on {platform.machine()}, one process")
    games = time_games(args.games)
    print(f"complete random 4-player game (RandomBot + checked apply): {ms(games)}; "
          f"{len(games) / sum(games):.0f} games/s")
    replays, actions = time_replays(args.games // 2)
    print(f"replay of a recorded game ({actions:.0f} actions on average, setup included): {ms(replays)}")
    every, action_step = time_legal_actions(args.games // 2)
    print(f"legal_actions() mid-game, any step: {us(every)}")
    print(f"legal_actions() mid-game, build-or-invest step: {us(action_step)}")
    fast, explained = time_payouts(args.games // 2)
    print(f"payout computation, amounts only: {us(fast)}")
    print(f"payout computation with explanations: {us(explained)}")
    if args.win_rate:
        rate, margin, n = win_rate(args.win_rate)
        print(f"HeuristicBot vs 3 RandomBots: wins {rate:.1%} of {n} games (chance 25%), "
              f"mean margin over the best random player {margin:+.1f} million")
    if args.profile:
        print(profile(max(10, args.games // 4)))


if __name__ == "__main__":
    main()
