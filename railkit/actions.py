"""Actions are small frozen dataclasses; each game keeps a registry to (de)serialize them.

An action serializes to a flat dict ``{"type": <name>, <field>: <value>, ...}`` whose values
are JSON types (tuples become lists and are turned back into tuples on load).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, TypeVar

T = TypeVar("T")


class ActionRegistry:
    """Maps action type names to dataclasses for one game."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._by_name: dict[str, type] = {}

    def register(self, name: str) -> Callable[[type[T]], type[T]]:
        def decorate(cls: type[T]) -> type[T]:
            if not dataclasses.is_dataclass(cls):
                raise TypeError(f"{cls.__name__} must be a dataclass")
            if name in self._by_name:
                raise TypeError(f"action type {name!r} registered twice")
            self._by_name[name] = cls
            cls.action_type = name  # type: ignore[attr-defined]
            return cls

        return decorate

    def to_dict(self, action: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"type": action.action_type}
        for field in dataclasses.fields(action):
            value = getattr(action, field.name)
            out[field.name] = list(value) if isinstance(value, tuple) else value
        return out

    def from_dict(self, data: dict[str, Any]) -> Any:
        try:
            cls = self._by_name[data["type"]]
        except KeyError as exc:
            raise ValueError(f"unknown {self.game} action: {data!r}") from exc
        kwargs = {}
        for field in dataclasses.fields(cls):
            if field.name in data:
                value = data[field.name]
                kwargs[field.name] = tuple(value) if isinstance(value, list) else value
        return cls(**kwargs)

    def names(self) -> list[str]:
        return sorted(self._by_name)
