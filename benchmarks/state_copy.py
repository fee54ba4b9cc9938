"""``copy()`` against ``replay()`` for both engines: a copy of a game in mid-play must stay far cheaper than
rebuilding it from its log (the state tests used to time this; CONTRIBUTING keeps speed goals here).

    .venv/bin/python benchmarks/state_copy.py

Goal: a copy at least 3 times faster than a replay, for both games. Copy the printed figures into
docs/benchmarks.md.
"""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

from railkit.capecairo import new_game as new_kk_game
from railkit.capecairo.bots import HeuristicBot
from railkit.capecairo.bots import RandomBot as KKRandomBot
from railkit.unionpacific import new_game as new_up_game
from railkit.unionpacific.bots import RandomBot as UPRandomBot


def up_game() -> Any:
    game = new_up_game(4, seed=3)
    bot = UPRandomBot(3)
    for _ in range(150):
        game.apply(bot.choose(game, game.players_to_act()[0]))
    return game


def kk_game() -> Any:
    game = new_kk_game(4, seed=4)
    bots = [KKRandomBot(4 + i) if i % 2 else HeuristicBot(4 + i) for i in range(4)]
    for _ in range(60):
        player = game.current_player
        game.apply(bots[game.players.index(player)].choose(game, player))
    return game


def median_us(action: Callable[[], object], repeat: int = 50) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    print(f"Python {platform.python_version()} on {platform.machine()}, one process")
    for name, make in (("Union Pacific, 4 players, 150 actions", up_game), ("Kap bis Kairo, 4 players, 60 actions", kk_game)):
        game = make()
        copy_us, replay_us = median_us(game.copy), median_us(game.replay)
        verdict = "ok" if copy_us * 3 < replay_us else "MISSED"
        print(f"{name}: copy {copy_us:.0f} us, replay {replay_us:.0f} us, {replay_us / copy_us:.1f}x "
              f"(goal: 3x) {verdict}")


if __name__ == "__main__":
    main()
