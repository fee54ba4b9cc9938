"""The Union Pacific game: the ``Game`` interface over one ``UPState``.

The action log is the game (``railkit.game.Game``). The changing state is one visible
object, ``game.state`` (``state.py``); the board never changes and is shared by copies. The
rules are plain functions over ``(board, state)``: ``checks.check`` (raises ``RuleError``,
changes nothing), ``perform.perform`` (setup and what each action does), ``dividends``
(share-deck draws and payouts), ``moves`` (legal-action lists), ``views`` (what players may
see), ``describe`` (an action in words, the notebook status card). Outsiders read the state
through ``game.state`` (a copy) or ``game.view(player)``; nothing they get changes the game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from railkit.game import Game, Outcome
from railkit.messages import Message
from railkit.unionpacific import checks, moves, perform, views
from railkit.unionpacific.actions import (
    Build,
    UPAction,
    registry,
)
from railkit.unionpacific.board import Board, load_board
from railkit.unionpacific.describe import describe_action, status_card
from railkit.unionpacific.dividends import compute_payout
from railkit.unionpacific.moves import MoveCache, invest_choices
from railkit.unionpacific.options import OPTION_DEFAULTS, check_options
from railkit.unionpacific.placement import PlacementExplanation, explain_placement
from railkit.unionpacific.state import (
    DISPLAY,
    HAND_SHARES,
    HAND_TRACK,
    UP,
    UP_SHARES,
    PayoutRecord,
    UPState,
)
from railkit.unionpacific.views import UPView

__all__ = [
    "DISPLAY", "HAND_SHARES", "HAND_TRACK", "OPTION_DEFAULTS", "UP_SHARES", "UnionPacificGame",
    "invest_choices", "new_game", "check_options",
]


class UnionPacificGame(Game[UPAction]):
    """A game of Union Pacific for 2–6 players. Build it with ``new_game``."""

    GAME = "union_pacific"
    TITLE = "Union Pacific"
    PLAYER_RANGE = (2, 6)
    PLAYER_RULE = "UP-S8"
    OPTIONS_RULE = "UP-V"
    ACTIONS_RULE = "UP-T3"
    OPTION_DEFAULTS = OPTION_DEFAULTS
    FILE_OPTIONS = ("board",)
    registry = registry
    VIEW = UPView
    # UP-S5: a first share is chosen face down until all are turned up together; UP-B4: an exchanged share goes
    # face down into the box, hidden from everyone for good.
    SEALED = {"choose_first_share": ("card",), "exchange_for_up": ("card",)}
    HIDDEN_FOR_GOOD = frozenset({"exchange_for_up"})

    board: Board
    _state: UPState  # the live state: only the engine reads it directly
    _cache: MoveCache

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return check_options(options)

    def _setup(self) -> None:
        self.board = load_board(self.options["board"])
        self._state, words = perform.setup(self.board, self.players, self.options, self.rng)
        self._narrative.extend(words)
        self._cache = MoveCache()

    @property
    def state(self) -> UPState:
        """The whole state, as a copy: changing it changes nothing in the game (only ``apply`` does)."""
        return self._state.copy()

    # -- copying and pickling --------------------------------------------------------------
    def copy(self) -> UnionPacificGame:
        """An independent game in the same state, fast: the state is copied, the board shared."""
        new = object.__new__(type(self))
        new.players = self.players
        new.seed = self.seed
        new._state = self._state.copy()
        new.options = new._state.options  # the copy's own dict (the state keeps the game's options)
        new._log = list(self._log)
        new._narrative = list(self._narrative)
        new.board = self.board
        new.rng = new._state.rng
        new._cache = self._cache  # immutable action objects: safe to share
        return new

    def __getstate__(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data.pop("_cache", None)  # a speed cache, not state
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self._cache = MoveCache()

    # -- Game interface --------------------------------------------------------------------
    @property
    def current_player(self) -> str | None:
        return self._state.current_player()

    def players_to_act(self) -> tuple[str, ...]:
        return self._state.players_to_act()

    @property
    def phase(self) -> str:
        return self._state.phase

    def _turn_rule(self) -> str:
        return {"draw": "UP-B3", "exchange": "UP-B4"}.get(self._state.step, self.PLAYER_RULE)

    def _turn_task(self) -> Message | None:
        return checks.step_words(self._state) if self._state.step in ("action", "draw", "exchange") else None

    def _game_over_rule(self) -> str:
        return "UP-D12"

    def _simultaneous(self) -> bool:
        return self._state.step == "first_share"  # UP-S5: everyone chooses a first share at once

    def _check_rules(self, action: UPAction) -> None:
        checks.check(self.board, self._state, action)

    def _perform(self, action: UPAction) -> list[str]:
        return perform.perform(self.board, self._state, action)

    def legal_actions(self, player: str | None = None) -> list[UPAction]:
        return moves.legal_actions(self._state, self._cache, player)

    def random_action(self, player: str, rng: random.Random) -> UPAction:
        return self._legal_draw(moves.random_action(self._state, self._cache, player, rng))

    def legal_placements(self, player: str | None = None) -> list[Build]:
        """Every legal ``Build`` for ``player`` (default: the one to act) with the cards in hand."""
        return moves.legal_placements(self._state, self._cache, player)

    def explain_placement(self, company: str, section: str, card: str) -> PlacementExplanation:
        """Why a ``company`` train may or may not go on ``section`` with ``card`` right now (UP-B2)."""
        net = self._state.net
        return explain_placement(self.board, net.trains_on, net.supply, company, section, card)

    @property
    def payouts(self) -> tuple[int, int]:
        """Payouts made so far and in all (UP-D12; UP-2P1: three with two players)."""
        return len(self._state.payouts), self._state.max_payouts

    def compute_payout(self, number: int, explain: bool = True) -> PayoutRecord:
        """Payout ``number`` for the current board and tables, without paying it."""
        return compute_payout(self.board, self._state, number, explain)

    def view(self, player: str | None) -> UPView:
        """What ``player`` may see; ``None`` is a spectator (public information only)."""
        self._check_seat(player)
        return views.view(self._state, self.GAME, len(self._log), player, self.legal_actions(player) if player else [])

    def sealed_from(self) -> int:
        """UP-S5/UP-S6: the first shares stay face down until every player has chosen one."""
        return 0 if self._state.step == "first_share" else len(self._log)

    def state_dict(self) -> dict[str, Any]:
        """Everything, hidden parts included, as JSON types."""
        return views.state_dict(self._state, self.GAME, len(self._log), self.seed, len(self._narrative))

    def result(self) -> Outcome:
        return views.result(self._state)

    def describe(self, action: UPAction) -> str:
        """``action`` in plain words (hidden cards stay hidden: a first share is not named)."""
        self.registry.type_name(action)  # TypeError for anything else
        return describe_action(self.board, action)

    # -- how a game shows itself ------------------------------------------------------------
    def __repr__(self) -> str:
        s = self._state
        if s.is_over:
            where = f"over after payout {len(s.payouts)}"
        else:
            where = f"turn {s.turn_number}, {s.phase}, {', '.join(s.players_to_act())} to act"
        return (f"<UnionPacificGame {', '.join(self.players)}: {len(self._log)} moves, {where}; "
                f"payouts {len(s.payouts)} of {s.max_payouts}>")

    def _repr_html_(self) -> str:
        """A status card: step, who acts, payouts, companies' values, money when public."""
        outcome = self.result().words if self._state.is_over else ""
        return status_card(self.board, self._state, self.TITLE, len(self._log), outcome)

    # -- what the board says about the companies ---------------------------------------------
    @property
    def company_order(self) -> tuple[str, ...]:
        """Company keys in summary-card order (UP-D8)."""
        return self._state.net.idx.company_order

    @property
    def company_names(self) -> dict[str, str]:
        """Company key (and ``"UP"``) -> printed name."""
        names = {c.key: c.name for c in self.board.companies}
        names[UP] = "Union Pacific"
        return names


def new_game(players: int | Sequence[str], seed: int = 0, **options: Any) -> UnionPacificGame:
    """A new game of Union Pacific. ``players``: 2–6, or a list of unique names."""
    return UnionPacificGame(players, seed=seed, **options)
