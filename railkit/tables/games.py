"""What the table server needs to know about each game: its engine, its bot and what it hides.

The engines' views already hide hands and pending bids; the action log is the other way a secret
could leak, so each game lists the action fields that stay sealed (``sealed``) and says, from the
public view, when the sealed actions made so far have been revealed (``revealed``). Fields in
``never_revealed`` stay hidden from other seats for good (a share put face down into the box).

Help for a seat (``help``): the lessons' hints and "Why" need more than a seat's view holds (the heuristic
player's choice reads the engine's state; Kap bis Kairo's build count reads the cards' track numbers), and
a kernel holds only that view. So the server works them out, for the asking seat only and only while it is
to act, with the same engine functions the lessons use against bots: the hint is the heuristic player's
move for that seat (the bots look only at what their own player may know: their hand, the tables, public
counts), and the explanations are the engine's own sentences about that seat's next crossing, all public
facts or the seat's own. Nothing that another seat hides goes into either. Whatever a kernel can work out
from the seat's view and the rules alone (the choices offered and their rules, the UP-B2 checks of one
placement, the board) it works out itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from railkit.capecairo.bots import HeuristicBot as KKHeuristicBot
from railkit.capecairo.explain import explain_build
from railkit.capecairo.game import CapeToCairoGame
from railkit.capecairo.views import KKView
from railkit.game import BaseView, Game
from railkit.session import BotPolicy, position_bots
from railkit.unionpacific.bots import HeuristicBot as UPHeuristicBot
from railkit.unionpacific.game import UnionPacificGame
from railkit.unionpacific.views import UPView

__all__ = ["GAMES", "GameKind"]


@dataclass(frozen=True)
class GameKind:
    """One game as the table server sees it."""

    name: str
    cls: type[Game[Any]]
    bot: BotPolicy
    sealed: Mapping[str, tuple[str, ...]]  # action type -> fields other seats may not see yet
    never_revealed: frozenset[str]  # action types whose sealed fields stay hidden for good
    revealed: Callable[[BaseView], bool]  # spectator's view -> are the sealed actions so far public?
    explain: Callable[[Any, str], dict[str, Any]]  # (game, seat to act) -> the seat's explanations
    hint: Callable[[Any, str], Any]  # (game, seat to act) -> the heuristic player's move for that seat


def _kk_revealed(public: BaseView) -> bool:
    """KK-A2: the bids are opened together once every player has handed one in."""
    assert isinstance(public, KKView)
    return not public.bids_handed_in


def _up_revealed(public: BaseView) -> bool:
    """UP-S5/UP-S6: the first shares are turned up together; the display appears then."""
    assert isinstance(public, UPView)
    return public.display is not None


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


def _up_hint(game: Any, seat: str) -> Any:
    """The heuristic player's move for ``seat``, as the play lesson's Hint button finds it."""
    scored = UPHeuristicBot(0).scores(game, seat)
    return max(scored, key=lambda a_s: a_s[1])[0] if scored else None


def _kk_hint(game: Any, seat: str) -> Any:
    return KKHeuristicBot(0).choose(game, seat)


GAMES: dict[str, GameKind] = {
    kind.name: kind
    for kind in (
        GameKind(CapeToCairoGame.GAME, CapeToCairoGame, position_bots(KKHeuristicBot),
                 {"bid": ("amount",)}, frozenset(), _kk_revealed, _kk_explain, _kk_hint),
        GameKind(UnionPacificGame.GAME, UnionPacificGame, position_bots(UPHeuristicBot),
                 {"choose_first_share": ("card",), "exchange_for_up": ("card",)},
                 frozenset({"exchange_for_up"}), _up_revealed, _no_explain, _up_hint),
    )
}
