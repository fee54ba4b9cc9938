"""Actions are small frozen dataclasses; each game keeps one ``registry`` to (de)serialize them.

An action serializes to a flat dict ``{"type": <name>, <field>: <value>, ...}`` whose values
are JSON types (tuples become lists and are turned back into tuples on load). Decoding is
bounded: a hostile save cannot make a field larger than ``MAX_TEXT`` characters or
``MAX_ITEMS`` items, nor a number larger than ``MAX_NUMBER``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar

from railkit.brief import brief
from railkit.messages import N_, Grouped, Message

__all__ = ["Action", "ActionRegistry", "MAX_ITEMS", "MAX_NUMBER", "MAX_TEXT", "json_kind"]

MAX_TEXT = 200  # characters in one text field of an action
MAX_ITEMS = 64  # items in one list field of an action
MAX_NUMBER = 10**9  # size of one number field of an action


class Action(Protocol):
    """What every action has: the player who takes it."""

    @property
    def player(self) -> str: ...


A = TypeVar("A")
T = TypeVar("T")


class ActionRegistry(Generic[A]):
    """Maps action type names to the dataclasses of one game."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._by_name: dict[str, type[Any]] = {}
        self._by_class: dict[type[Any], str] = {}

    def register(self, name: str) -> Callable[[type[T]], type[T]]:
        def decorate(cls: type[T]) -> type[T]:
            if not dataclasses.is_dataclass(cls):
                raise TypeError(f"{cls.__name__} must be a dataclass")
            if name in self._by_name:
                raise TypeError(f"action type {name!r} registered twice")
            self._by_name[name] = cls
            self._by_class[cls] = name
            return cls

        return decorate

    def knows(self, action: object) -> bool:
        """Whether ``action`` is one of this game's actions."""
        return type(action) in self._by_class

    def type_name(self, action: object) -> str:
        try:
            return self._by_class[type(action)]
        except KeyError:
            raise TypeError(f"{brief(action)} is not a {self.game} action") from None

    def to_dict(self, action: A) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type_name(action)}
        for field in dataclasses.fields(action):  # type: ignore[arg-type]
            value = getattr(action, field.name)
            out[field.name] = list(value) if isinstance(value, tuple) else value
        return out

    def from_dict(self, data: Mapping[str, Any]) -> A:
        """The action ``data`` describes; ``ValueError`` saying what is wrong otherwise (its one argument a
        ``railkit.messages.Message``, so a lesson shows it in the learner's language)."""
        if not isinstance(data, Mapping):
            raise ValueError(Message(N_("a move must be a JSON object, not {kind}"), {"kind": json_kind(data)}))
        name = data.get("type")
        cls = self._by_name.get(name) if isinstance(name, str) else None
        if cls is None:
            shown = repr(name)[:40] if isinstance(name, str) else json_kind(name)
            raise ValueError(Message(N_("{kind} is not a kind of move in this game (known: {known})"),
                                     {"kind": shown, "known": ", ".join(self.names())}))
        fields = {f.name for f in dataclasses.fields(cls)}
        extra = sorted(str(k)[:40] for k in data if k != "type" and k not in fields)
        if extra:
            raise ValueError(Message(N_("a {move} move has no field {fields}"),
                                     {"move": repr(name), "fields": ", ".join(map(repr, extra))}))
        kwargs = {key: _bounded(key, value) for key, value in data.items() if key != "type"}
        try:
            return cls(**kwargs)  # type: ignore[no-any-return]
        except TypeError as exc:
            missing = sorted(fields - set(kwargs))
            if not missing:
                raise ValueError(Message(N_("a {move} move lacks a field"), {"move": repr(name)})) from exc
            raise ValueError(Message(N_("a {move} move lacks {fields}"),
                                     {"move": repr(name), "fields": ", ".join(map(repr, missing))})) from exc

    def names(self) -> list[str]:
        return sorted(self._by_name)


_KINDS = {dict: N_("an object"), list: N_("a list"), str: N_("text"), int: N_("a number"), float: N_("a number"),
          bool: N_("true/false"), type(None): N_("null")}


def json_kind(value: object) -> Message | str:
    """What a JSON value is, in words (a Python type's own name for anything else)."""
    words = _KINDS.get(type(value))
    return Message(words) if words is not None else type(value).__name__


def _bounded(key: str, value: Any) -> Any:
    """``value`` as an action field (lists become tuples), refused when oversized or nested."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if abs(value) > MAX_NUMBER:
            raise ValueError(Message(N_("field {field} holds a number larger than {most}"),
                                     {"field": repr(key), "most": Grouped(MAX_NUMBER)}))
        return value
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise ValueError(Message(N_("field {field} is longer than {most} characters"),
                                     {"field": repr(key), "most": MAX_TEXT}))
        return value
    if isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise ValueError(Message(N_("field {field} holds more than {most} items"),
                                     {"field": repr(key), "most": MAX_ITEMS}))
        for item in value:
            if isinstance(item, bool) or not isinstance(item, (str, int)):
                raise ValueError(Message(N_("field {field} must be a list of texts or numbers"), {"field": repr(key)}))
            _bounded(key, item)
        return tuple(value)
    raise ValueError(Message(N_("field {field} cannot be {kind}"), {"field": repr(key), "kind": json_kind(value)}))
