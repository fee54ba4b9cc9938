"""What the table server needs to know about each game: its engine, its bot and what it hides.

The engines' views already hide hands and pending bids; the action log is the other way a secret
could leak, so each game lists the action fields that stay sealed (``sealed``) and says, from the
public view, when the sealed actions made so far have been revealed (``revealed``). Fields in
``never_revealed`` stay hidden from other seats for good (a share put face down into the box).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from railkit.capecairo.bots import HeuristicBot as KKHeuristicBot
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


def _kk_revealed(public: BaseView) -> bool:
    """KK-A2: the bids are opened together once every player has handed one in."""
    assert isinstance(public, KKView)
    return not public.bids_handed_in


def _up_revealed(public: BaseView) -> bool:
    """UP-S5/UP-S6: the first shares are turned up together; the display appears then."""
    assert isinstance(public, UPView)
    return public.display is not None


GAMES: dict[str, GameKind] = {
    kind.name: kind
    for kind in (
        GameKind(CapeToCairoGame.GAME, CapeToCairoGame, position_bots(KKHeuristicBot),
                 {"bid": ("amount",)}, frozenset(), _kk_revealed),
        GameKind(UnionPacificGame.GAME, UnionPacificGame, position_bots(UPHeuristicBot),
                 {"choose_first_share": ("card",), "exchange_for_up": ("card",)},
                 frozenset({"exchange_for_up"}), _up_revealed),
    )
}
