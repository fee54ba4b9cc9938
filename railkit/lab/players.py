"""The lab's players by name, as the ladder's command line names them.

* ``random``: ``railkit.bots.RandomBot``; ``heuristic``: the game's ``HeuristicBot``;
* ``ismcts:BUDGET``, ``flatmc:BUDGET``: the search players (``railkit.lab.search``), BUDGET in iterations
  (``ismcts:200``) or seconds (``ismcts:1.5s``); ``:hN`` after it plays each playout only N steps of the game
  (Union Pacific: payouts) and estimates the rest, ``:hend`` plays every playout to the end;
* ``package.module:Name``: a learner's own, anything ``railkit.bots.Player`` describes: a function
  ``choose(view, legal)``, an object with ``choose(view, legal)``, or a class making one (called with
  ``seed=`` when it takes a seed, else with nothing).

Every player is made per game and seat (``make_player(name, seed)``), so its random choices are reproducible, and
is asked with the seat's view and legal moves only (``railkit.bots.decide``).
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Sequence
from typing import Any

from railkit.bots import RandomBot
from railkit.game import BaseView
from railkit.lab.rules import rules_for
from railkit.lab.search import ISMCTS, Budget, FlatMC

__all__ = ["HeuristicPlayer", "check_name", "make_player", "register"]

MAX_NAME = 120
_MODULE_PATH = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
_REGISTERED: dict[str, Any] = {}  # name -> a player, a function or a class, as ``register`` was given it


class HeuristicPlayer:
    """The game's heuristic player (``railkit.unionpacific.bots`` or ``railkit.capecairo.bots``), for either
    game: the game is told by the view."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._bots: dict[str, Any] = {}

    def choose(self, view: BaseView, legal: Sequence[Any]) -> Any:
        rules = rules_for(view)
        bot = self._bots.get(rules.name)
        if bot is None:
            bot = self._bots[rules.name] = rules.policy(self.seed)
        return bot.choose(view, legal)


class _FunctionPlayer:
    """A function ``choose(view, legal)`` as a player."""

    def __init__(self, function: Any) -> None:
        self.function = function

    def choose(self, view: BaseView, legal: Sequence[Any]) -> Any:
        return self.function(view, legal)


def check_name(name: str) -> str:
    """``name`` if it names a player (see the module docstring); ``ValueError`` in words otherwise."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise ValueError(f"a player's name is text of 1 to {MAX_NAME} characters, not {name!r}")
    name = name.strip()
    kind, _, budget = name.partition(":")
    if name in ("random", "heuristic"):
        return name
    if kind in ("ismcts", "flatmc"):
        _search_options(budget)  # ValueError in words
        return name
    if _MODULE_PATH.match(name):
        return name
    raise ValueError(f"unknown player {name!r}: use random, heuristic, ismcts:ITERATIONS, flatmc:ITERATIONS "
                     "or package.module:Name")


def _search_options(text: str) -> tuple[Budget, int | None | str]:
    """``BUDGET``, ``BUDGET:hN`` (each playout N steps, then estimated) or ``BUDGET:hend`` (to the end)."""
    budget, _, horizon = text.partition(":")
    if not horizon:
        return Budget.parse(budget), "game"
    if horizon == "hend":
        return Budget.parse(budget), None
    if re.fullmatch(r"h[1-9]", horizon):
        return Budget.parse(budget), int(horizon[1:])
    raise ValueError(f"a search's horizon is hN (N payouts, 1-9) or hend (to the end), not {horizon!r}")


def register(name: str, player: Any) -> str:
    """Give ``player`` (what ``package.module:Name`` may name: a function ``choose(view, legal)``, an object with
    ``choose`` or a class making one) the ``name`` (``module:Name`` form) in this process; the name, checked."""
    name = check_name(name)
    if not _MODULE_PATH.match(name):
        raise ValueError(f"a player of your own is named like module:Name, not {name!r}")
    if not (callable(player) or hasattr(player, "choose")):
        raise ValueError(f"{name} is not a player: give a function choose(view, legal) or a class with a "
                         "choose(view, legal) method")
    _REGISTERED[name] = player
    return name


def make_player(name: str, seed: int = 0) -> Any:
    """A fresh player named ``name`` (see the module docstring), seeded with ``seed``."""
    name = check_name(name)
    kind, _, rest = name.partition(":")
    if name == "random":
        return RandomBot(seed)
    if name == "heuristic":
        return HeuristicPlayer(seed)
    if kind in ("ismcts", "flatmc"):
        budget, horizon = _search_options(rest)
        return (ISMCTS if kind == "ismcts" else FlatMC)(budget, seed, horizon=horizon)
    if name in _REGISTERED:
        return _made(_REGISTERED[name], name, seed)
    return _learners_player(kind, rest, seed)


def _learners_player(module_name: str, attribute: str, seed: int) -> Any:
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import {module_name!r} for the player {module_name}:{attribute} ({exc})") from None
    try:
        made = getattr(module, attribute)
    except AttributeError:
        raise ValueError(f"{module_name} has no {attribute!r}") from None
    return _made(made, f"{module_name}:{attribute}", seed)


def _made(made: Any, name: str, seed: int) -> Any:
    """A fresh player from what a learner gave: a class is made (with ``seed=`` when it takes one)."""
    if inspect.isclass(made):
        try:
            takes_seed = "seed" in inspect.signature(made).parameters
        except (TypeError, ValueError):
            takes_seed = False
        made = made(seed=seed) if takes_seed else made()  # type: ignore[call-arg]
    if hasattr(made, "choose"):
        return made
    if callable(made):
        return _FunctionPlayer(made)
    raise ValueError(f"{name} is not a player: give a function choose(view, legal) or a class "
                     "with a choose(view, legal) method")
