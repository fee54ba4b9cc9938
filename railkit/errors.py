"""Errors. Every rejected action raises a ``RuleError`` naming the rule it breaks."""

from __future__ import annotations


class RuleError(ValueError):
    """An action breaks a rule. ``rule`` is the rule ID from the digest (e.g. ``UP-B2c``).

    The game state is left exactly as it was before the rejected action.
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{message} [{rule}]")


class NotYourTurnError(RuleError):
    """An action by a player who is not to act now."""


class GameOverError(RuleError):
    """An action after the game has ended."""


class DataError(ValueError):
    """A data file (board, deck) is broken. Names the file, the item and the problem."""

    def __init__(self, path: object, item: str, problem: str) -> None:
        self.path = str(path)
        self.item = item
        self.problem = problem
        super().__init__(f"{self.path}: {item}: {problem}")
