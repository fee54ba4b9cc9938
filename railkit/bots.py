"""Computer players, shared by both games: the ``Bot`` protocol, ``RandomBot`` and ``play_game``.

A bot chooses a move for one player from what that player may know; the engines add their own
stronger bots (``railkit.unionpacific.bots``, ``railkit.capecairo.bots``), the session seats them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from railkit.game import Game

__all__ = ["Bot", "RandomBot", "play_game"]

G = TypeVar("G", bound=Game[Any])


class Bot(Protocol):
    """A computer player: the move ``player`` makes now in ``game``."""

    def choose(self, game: Any, player: str) -> Any: ...


class RandomBot:
    """Picks uniformly among the legal moves (seeded, so games are reproducible)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game[Any], player: str) -> Any:
        return game.random_action(player, self.rng)


def play_game(game: G, bots: Mapping[str, Bot] | Sequence[Bot], max_actions: int = 100_000) -> G:
    """Let ``bots`` (one per player, by name or in seating order) play ``game`` to the end; returns
    the same game (``game.result()`` is how it ended)."""
    by_player = dict(bots) if isinstance(bots, Mapping) else dict(zip(game.players, bots, strict=False))
    missing = [p for p in game.players if p not in by_player]
    if missing:
        raise ValueError(f"no bot for {', '.join(missing)}")
    for _ in range(max_actions):
        if game.is_over:
            return game
        player = game.players_to_act()[0]
        game.apply(by_player[player].choose(game, player))
    if not game.is_over:
        raise RuntimeError(f"the game did not end within {max_actions} actions")
    return game
