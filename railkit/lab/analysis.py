"""Analysis of one position for one seat: each of its moves with the finish and money it leads to.

``analyse(view, legal)`` is what a hint and a post-game review build on: the search player (``HINT_PLAYERS``:
the budget the ladder's goal games were played at) evaluates the seat's moves from its view alone, and every
move asked about (``include``: the learner's own move) is evaluated even when the heuristic would never try
it. Each ``Evaluation`` holds the mean finishing place (1 = first), money at the end, share of wins and the
number of playouts behind them; the best move comes first. Within ``HINT_SECONDS`` on the project's 2-core
machine (``benchmarks/lab.py`` measures it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from railkit.game import BaseView
from railkit.lab.players import make_player
from railkit.lab.rules import rules_for
from railkit.lab.search import Evaluation

__all__ = ["HINT_PLAYERS", "HINT_SECONDS", "analyse", "hint_player"]

# The search player a hint asks, per game: the one the ladders' goal games were played with (docs/benchmarks.md).
HINT_PLAYERS = {"kk": "ismcts:150", "up": "ismcts:32"}
HINT_SECONDS = 2.0  # the most a hint may take on the project's machine


def hint_player(game: str, seed: int = 0) -> Any:
    """The search player of a hint for ``game`` ("kk" or "up")."""
    return make_player(HINT_PLAYERS[game], seed)


def analyse(view: BaseView, legal: Sequence[Any], *, include: Sequence[Any] = (), seed: int = 0,
            player: str | None = None) -> list[Evaluation]:
    """Every candidate move of ``view.you`` (and every move of ``include``), evaluated, best first.

    ``player`` names the search (default: ``HINT_PLAYERS``' for the game)."""
    rules = rules_for(view)
    search = make_player(player or HINT_PLAYERS[rules.name], seed)
    evaluations = {e.action: e for e in search.evaluate(view, legal)}
    missing = [a for a in include if a in legal and (a not in evaluations or not evaluations[a].visits)]
    best = max(e.visits for e in evaluations.values())
    if missing:  # the learner's move, never tried by the search: played out as often as the best move was
        extra = search.evaluate_moves(view, missing, max(8, best))
        evaluations.update({e.action: e for e in extra})
    # best first: among the moves played out often enough to compare (a quarter of the best's playouts), the
    # highest mean reward; the moves tried a few times only after them
    enough = max(1, min(8, best // 4))
    return sorted(evaluations.values(), key=lambda e: (e.visits < enough, -e.reward, e.prior))
