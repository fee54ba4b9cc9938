"""Computer players, shared by both games: the ``Player`` and ``Bot`` protocols, ``RandomBot`` and ``play_game``.

**A player decides from what its seat may know.** ``Player.choose(view, legal)`` gets the seat's typed view
(``game.view(seat)``: a ``UPView`` or ``KKView``, public information and the seat's own secrets) and the seat's
legal moves, and returns one of them; it never sees the live game. That is the one way the built-in players
(``RandomBot``, each engine's ``HeuristicBot``, ``railkit.lab``'s search players) and any player a learner writes
are asked for a move::

    def choose(view, legal):                # a whole player: a function ...
        return legal[0]

    class Careful:                          # ... or an object with ``choose``
        def choose(self, view, legal):
            return min(legal, key=lambda action: getattr(action, "amount", 0))

``decide(player, game, seat)`` asks a player for ``seat``'s move in ``game`` that way; ``seated(player)`` turns
a player into a ``Bot`` for the callers that pass the game (the session, ``play_game``).

A ``Bot`` (``choose(game, player)``) is the engines' own, older way of asking: the built-in players still
answer it (their choices are the same either way: they read only the mover's own hand and public facts; a
test changes the hidden parts of positions and checks), because a game played out inside a search (a rollout,
on a game dealt from the searcher's view) asks hundreds of thousands of times and needs no view built each time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from railkit.game import BaseView, Game

__all__ = ["Bot", "Player", "RandomBot", "decide", "play_game", "seated"]

G = TypeVar("G", bound=Game[Any])


@runtime_checkable
class Player(Protocol):
    """A computer player: the move its seat makes now, from the seat's view and its legal moves."""

    def choose(self, view: Any, legal: Sequence[Any]) -> Any: ...


class Bot(Protocol):
    """A computer player asked with the game: the move ``player`` makes now in ``game``."""

    def choose(self, game: Any, player: str) -> Any: ...


PlayerLike = Player | Callable[[Any, Sequence[Any]], Any]  # an object with ``choose(view, legal)``, or a function


def decide(player: PlayerLike, game: Game[Any], seat: str) -> Any:
    """``player``'s move for ``seat`` in ``game``: it is given ``game.view(seat)`` and the seat's legal moves,
    nothing else."""
    view = game.view(seat)
    legal = game.legal_actions(seat)
    choose = getattr(player, "choose", None)
    if choose is None:
        if not callable(player):
            raise TypeError(f"a player is a function (view, legal) or has choose(view, legal); not {player!r}")
        return player(view, legal)
    return choose(view, legal)


class Seated:
    """A ``Player`` asked as a ``Bot``: ``choose(game, seat)`` hands it the seat's view and legal moves only."""

    __slots__ = ("player",)

    def __init__(self, player: PlayerLike) -> None:
        self.player = player

    def choose(self, game: Game[Any], seat: str) -> Any:
        return decide(self.player, game, seat)


def seated(player: PlayerLike) -> Seated:
    """``player`` as a ``Bot`` (``choose(game, seat)``) that hands it only the seat's view and legal moves."""
    return Seated(player)


class RandomBot:
    """Picks uniformly among the legal moves (seeded, so games are reproducible).

    ``choose(view, legal)`` picks from ``legal``; ``choose(game, player)`` (a ``Bot``) asks the game for a uniform
    pick (``game.random_action``), which some games make without listing every move (a bid of 0..money)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, player: Any) -> Any:
        if isinstance(game, BaseView):
            legal = player
            if not legal:
                raise ValueError("there is no legal move to choose from")
            return legal[self.rng.randrange(len(legal))]
        return game.random_action(player, self.rng)


def play_game(game: G, bots: Mapping[str, Bot] | Sequence[Bot], max_actions: int = 100_000) -> G:
    """Let ``bots`` (one per player, by name or in seating order) play ``game`` to the end; returns
    the same game (``game.result()`` is how it ended). A ``Player`` that answers only ``choose(view, legal)``
    plays here as ``seated(player)``."""
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
