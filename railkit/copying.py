"""Copying a game's state from its fields, so a field added later cannot be missed by ``copy()``.

``copy_state(state)`` builds a new dataclass of the same type field by field, with a copier made
once per class from the fields' declared types: every list, dict and set is copied (nested ones
too), a ``random.Random`` gets the same position in a new generator, an object with its own
``copy()`` method (the Union Pacific network) copies itself, a dataclass that is not frozen is
copied the same way, and immutable values (text, numbers, tuples of them, frozen records of
them) are shared. The copy shares nothing mutable.
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

__all__ = ["copy_state", "copy_value"]

T = TypeVar("T")
Copier = Callable[[Any], Any] | None  # None: the value is immutable and shared as it is

_IMMUTABLE = (str, int, float, bool, type(None), frozenset)


def copy_value(value: Any) -> Any:
    """``value`` copied so that nothing mutable is shared (used where a type says ``Any``)."""
    if isinstance(value, _IMMUTABLE):
        return value
    if isinstance(value, dict):
        return {k: copy_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple(copy_value(v) for v in value)
    if isinstance(value, set):
        return {copy_value(v) for v in value}
    if isinstance(value, random.Random):
        return _copy_rng(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return copy_state(value)
    method = getattr(value, "copy", None)
    if callable(method):
        return method()
    raise TypeError(f"cannot copy a {type(value).__name__} held by a game's state")


def copy_state(state: T) -> T:
    """A new ``type(state)`` whose every field is copied (see the module docstring)."""
    copier: Callable[[T], T] = _state_copier(type(state))  # type: ignore[arg-type]
    return copier(state)


def _copy_rng(rng: random.Random) -> random.Random:
    new = random.Random()
    new.setstate(rng.getstate())
    return new


def _frozen(cls: type) -> bool:
    params = getattr(cls, "__dataclass_params__", None)
    return bool(params is not None and params.frozen)


@cache
def _state_copier(cls: type) -> Callable[[Any], Any]:
    return _class_copier(cls) or (lambda state: state)


@cache
def _class_copier(cls: type) -> Copier:
    """How to copy a dataclass: field by field; ``None`` when it is frozen and holds only immutable values."""
    hints = typing.get_type_hints(cls)
    parts = [(f.name, _copier(hints[f.name])) for f in dataclasses.fields(cls)]
    shared = [name for name, copier in parts if copier is None]
    copied = [(name, copier) for name, copier in parts if copier is not None]
    if not copied and _frozen(cls):
        return None

    def copy(state: Any) -> Any:
        values = {name: getattr(state, name) for name in shared}
        for name, copier in copied:
            values[name] = copier(getattr(state, name))
        return cls(**values)

    return copy


def _copier(tp: Any) -> Copier:  # noqa: PLR0911 - one case per kind of type
    """How to copy a value of declared type ``tp`` (``None``: share it, it is immutable)."""
    if tp in _IMMUTABLE:
        return None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in args if a is not type(None)]
        if len(kinds) == 1:
            inner = _copier(kinds[0])
            return None if inner is None else (lambda v: None if v is None else inner(v))  # type: ignore[misc]
        return copy_value
    if origin in (dict, Mapping):
        inner = _copier(args[1]) if args else copy_value
        if inner is None:
            return dict
        return lambda d: {k: inner(v) for k, v in d.items()}  # type: ignore[misc]
    if origin in (list, Sequence):
        inner = _copier(args[0]) if args else copy_value
        if inner is None:
            return list
        return lambda items: [inner(v) for v in items]
    if origin is tuple:
        return None if all(_copier(a) is None for a in args if a is not Ellipsis) else copy_value
    if tp is random.Random:
        return _copy_rng
    if typing.is_typeddict(tp):
        return copy_value
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _class_copier(tp)
    if isinstance(origin, type) and dataclasses.is_dataclass(origin):  # a generic record, e.g. Explanation[str]
        return _class_copier(origin)
    if isinstance(tp, type) and callable(getattr(tp, "copy", None)):
        return lambda v: v.copy()
    return copy_value  # Any, a TypedDict, ...: copied by what the value is
