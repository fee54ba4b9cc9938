"""Errors. Every error railkit raises on purpose is a ``RailkitError``.

One convention everywhere: an argument of the wrong Python type is a ``TypeError``; a value
that breaks a rule is a ``RuleError`` naming the rule ID; a broken save is a ``SaveFileError``;
a broken data file (board, deck) is a ``DataError``. All but ``TypeError`` are ``ValueError``s,
as python-chess does, so ``except ValueError`` catches every refused input.

    RailkitError
    ├── RuleError (ValueError)        an action or setting breaks rule ``rule``
    │   ├── NotYourTurnError
    │   └── GameOverError
    ├── SaveFileError (ValueError)    a saved game cannot be read; says what is wrong in words
    ├── HistoryError (ValueError)     replay or undo asked for moves the log does not hold
    ├── DataError (ValueError)        a data file is broken; names the file, item and problem
    └── InputError (ValueError)       a field typed into a lesson cannot be read (teaching layer)
"""

from __future__ import annotations

__all__ = [
    "DataError",
    "GameOverError",
    "HistoryError",
    "InputError",
    "NotYourTurnError",
    "RailkitError",
    "RuleError",
    "SaveFileError",
]


class RailkitError(Exception):
    """The root of every error railkit raises on purpose."""


class RuleError(RailkitError, ValueError):
    """An action breaks a rule. ``rule`` is the rule ID from the digest (e.g. ``UP-B2c``).

    The game state is left exactly as it was before the rejected action.
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{message} [{rule}]")

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, str]]:
        return (type(self), (self.rule, self.message))


class NotYourTurnError(RuleError):
    """An action by a player who is not to act now."""


class GameOverError(RuleError):
    """An action after the game has ended."""


class SaveFileError(RailkitError, ValueError):
    """A saved game cannot be read. The message says what is wrong, in words a player reads."""


class HistoryError(RailkitError, ValueError):
    """``replay`` or ``undo`` was asked for more moves than the game's log holds (or fewer than none)."""


class DataError(RailkitError, ValueError):
    """A data file (board, deck) is broken. Names the file, the item and the problem."""

    def __init__(self, path: object, item: str, problem: str) -> None:
        # item and problem are usually ``railkit.messages.Message``s (English ``str``s that a lesson can
        # translate); JSON key paths such as ``track_deck`` stay plain strings, as typed in the file.
        self.path = str(path)
        self.item = item
        self.problem = problem
        super().__init__(f"{self.path}: {item}: {problem}")

    def __reduce__(self) -> tuple[type[DataError], tuple[str, str, str]]:
        return (type(self), (self.path, self.item, self.problem))


class InputError(RailkitError, ValueError):
    """A value typed into a lesson cannot be used; the message says which field and why."""
