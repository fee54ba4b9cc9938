"""What the table server needs to know about each game: its engine, its bot, the help it gives a seat and the
review it sends each seat at the end.

What a seat may read of the log is the engine's to say (``Game.seat_action``, ``SEALED``, ``HIDDEN_FOR_GOOD``,
beside ``Game.view``): the server keeps no list of secrets of its own.

Help for a seat (``help``): Kap bis Kairo's "Why" counts the seat's next crossing (KK-B2, KK-C3), which reads
the cards' track numbers, more than a seat's view holds, and a kernel holds only that view. So the server works
it out, for the asking seat only and only while it is to act, with the engine's own sentences about that seat's
next crossing: all public facts or the seat's own, nothing that another seat hides. Whatever a kernel can work
out from the seat's view and the rules alone it works out itself: the choices offered and their rules, the UP-B2
checks of one placement, the board, and the hint (the search player's move, ``railkit.ui.game_review``, which
deals the hidden cards from the seat's view).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from railkit.capecairo.bots import HeuristicBot as KKHeuristicBot
from railkit.capecairo.explain import explain_build
from railkit.capecairo.game import CapeToCairoGame
from railkit.capecairo.review import review_moves as kk_review_moves
from railkit.game import Game
from railkit.session import BotPolicy, position_bots
from railkit.unionpacific.bots import HeuristicBot as UPHeuristicBot
from railkit.unionpacific.game import UnionPacificGame
from railkit.unionpacific.review import review_moves as up_review_moves
from railkit.wire import message_json

__all__ = ["GAMES", "GameKind"]


@dataclass(frozen=True)
class GameKind:
    """One game as the table server sees it."""

    name: str
    cls: type[Game[Any]]
    bot: BotPolicy
    explain: Callable[[Any, str], dict[str, Any]]  # (game, seat to act) -> the seat's explanations
    review: Callable[[Any, str], list[dict[str, Any]]]  # (finished game, seat) -> its weak moves, as JSON


def _kk_explain(game: Any, seat: str) -> dict[str, Any]:
    """KK-B2, KK-C3: the seat's next crossing counted (its own line of cards, the turned-up cards: public)."""
    assert isinstance(game, CapeToCairoGame)
    if game.phase != "build":
        return {}
    numbers = game.build_numbers(seat)
    return {"build": {"sentences": list(explain_build(game, seat).sentences), "min_buy": numbers.min_buy,
                      "cost": numbers.cost, "coin": numbers.card.coin if numbers.card is not None else None}}


def _no_explain(_game: Any, _seat: str) -> dict[str, Any]:
    """UP: the kernel explains the choices from the seat's view and the board (``railkit.ui``)."""
    return {}


def _up_review(game: Any, seat: str) -> list[dict[str, Any]]:
    """The seat's weakest moves as the heuristic player judges them (``railkit.unionpacific.review``): the
    seat's own moves and choices, and public facts."""
    return [{"move": r.move, "turn": r.turn, "played": message_json(r.played), "instead": message_json(r.instead),
             "reason": message_json(r.reason)} for r in up_review_moves(game, seat, limit=5)]


def _kk_review(game: Any, seat: str) -> list[dict[str, Any]]:
    """The seat's weak moves (``railkit.capecairo.review``), each "Move N: why"."""
    return [{"move": w.move, "words": message_json(w.words)} for w in kk_review_moves(game, seat)]


GAMES: dict[str, GameKind] = {
    kind.name: kind
    for kind in (
        GameKind(CapeToCairoGame.GAME, CapeToCairoGame, position_bots(KKHeuristicBot), _kk_explain, _kk_review),
        GameKind(UnionPacificGame.GAME, UnionPacificGame, position_bots(UPHeuristicBot), _no_explain, _up_review),
    )
}
