"""The shape both games share: the action log is the game.

A ``Game`` is built from (players, seed, options) by a deterministic setup; every change
afterwards is an action passed to ``apply``. Saving writes the log; loading, undo and
replay all rebuild the game by applying the log again to a fresh setup.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Sequence

from railkit.actions import ActionRegistry
from railkit.errors import GameOverError, RuleError

SAVE_FORMAT = "railkit-game"
SAVE_VERSION = 1


class SaveFileError(ValueError):
    """A saved game cannot be read. The message says what is wrong and where."""


def normalize_players(players: int | Sequence[str], lo: int, hi: int, rule: str) -> tuple[str, ...]:
    """``3`` becomes ``("Player 1", "Player 2", "Player 3")``; names must be unique and non-empty."""
    if isinstance(players, int):
        names = tuple(f"Player {i + 1}" for i in range(players))
    else:
        names = tuple(str(p) for p in players)
    if not lo <= len(names) <= hi:
        raise RuleError(rule, f"this game takes {lo} to {hi} players, not {len(names)}")
    if any(not n.strip() for n in names):
        raise RuleError(rule, "every player needs a non-empty name")
    if len(set(names)) != len(names):
        raise RuleError(rule, f"player names must be different: {list(names)}")
    return names


class Game(ABC):
    """Base class of both engines. Subclasses implement setup, rules and views."""

    GAME: ClassVar[str]
    registry: ClassVar[ActionRegistry]

    players: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    log: list[Any]

    # -- the rules, per game -------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> str | None:
        """Who acts next; ``None`` once the game is over. In a simultaneous step
        (sealed bids, first investment) the first player still to act."""

    def players_to_act(self) -> tuple[str, ...]:
        """Everyone who may act now (several during a simultaneous step)."""
        player = self.current_player
        return () if player is None else (player,)

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_actions(self, player: str | None = None) -> list[Any]:
        """Every legal action for ``player`` (default: the current player)."""

    @abstractmethod
    def check(self, action: Any) -> None:
        """Raise ``RuleError`` if ``action`` is illegal now. Never changes the state."""

    @abstractmethod
    def _perform(self, action: Any) -> list[str]:
        """Carry out a checked action; return what happened, in plain words."""

    @abstractmethod
    def result(self) -> Any: ...

    @abstractmethod
    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: a spectator, public information only)."""

    @abstractmethod
    def state_dict(self) -> dict[str, Any]:
        """The whole state, hidden parts included, as JSON types (for tests and debugging)."""

    # -- shared machinery ----------------------------------------------------
    def apply(self, action: Any) -> list[str]:
        """Check and carry out ``action``; append it to the log; return the events in words.

        A rejected action raises ``RuleError`` and leaves the game exactly as it was.
        """
        if self.is_over:
            raise GameOverError(self._game_over_rule(), "the game is over; no more actions")
        self.check(action)
        events = self._perform(action)
        self.log.append(action)
        return events

    def _game_over_rule(self) -> str:
        return "END"

    def is_legal(self, action: Any) -> bool:
        try:
            self.check(action)
        except RuleError:
            return False
        return not self.is_over

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.GAME,
            "players": list(self.players),
            "seed": self.seed,
            "options": dict(self.options),
            "actions": [self.registry.to_dict(a) for a in self.log],
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Game":
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveFileError("not a railkit saved game (missing 'format': 'railkit-game')")
        if data.get("game") != cls.GAME:
            raise SaveFileError(f"this save is for {data.get('game')!r}, not {cls.GAME!r}")
        if data.get("version") != SAVE_VERSION:
            raise SaveFileError(f"unsupported save version {data.get('version')!r}")
        try:
            game = cls(data["players"], seed=data["seed"], **data.get("options", {}))
        except KeyError as exc:
            raise SaveFileError(f"the save has no {exc.args[0]!r}") from exc
        for index, raw in enumerate(data.get("actions", [])):
            try:
                game.apply(cls.registry.from_dict(raw))
            except (RuleError, ValueError, TypeError) as exc:
                raise SaveFileError(f"action {index + 1} of the save cannot be replayed: {exc}") from exc
        return game

    @classmethod
    def from_json(cls, text: str) -> "Game":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveFileError(f"the save is not valid JSON: {exc}") from exc
        return cls.from_dict(data)

    def replay(self, upto: int | None = None) -> "Game":
        """A fresh game rebuilt from the first ``upto`` actions of this one's log."""
        data = self.to_dict()
        data["actions"] = data["actions"][: len(self.log) if upto is None else upto]
        return type(self).from_dict(data)

    def undo(self, count: int = 1) -> "Game":
        """The game as it was ``count`` actions ago (rebuilt by replay)."""
        if count < 0 or count > len(self.log):
            raise ValueError(f"cannot undo {count} actions; the log holds {len(self.log)}")
        return self.replay(len(self.log) - count)
