"""Copying a game's state from its fields, so a field added later cannot be missed by ``copy()``.

``copy_state(state)`` builds a new dataclass of the same type field by field: every list, dict and
set is copied (nested ones too), a ``random.Random`` gets the same position in a new generator,
an object with its own ``copy()`` method (the Union Pacific network) copies itself, and immutable
values (text, numbers, tuples of them, frozen records) are shared. The copy shares nothing mutable.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, TypeVar

__all__ = ["copy_state", "copy_value"]

T = TypeVar("T")

_SHARED = (str, int, float, bool, type(None), frozenset)


def copy_value(value: Any) -> Any:
    """``value`` copied so that nothing mutable is shared (immutable parts are shared as they are)."""
    if isinstance(value, _SHARED):
        return value
    if isinstance(value, dict):
        return {k: copy_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_value(v) for v in value]
    if isinstance(value, tuple):
        return value if all(isinstance(v, _SHARED) for v in value) else tuple(copy_value(v) for v in value)
    if isinstance(value, set):
        return {copy_value(v) for v in value}
    if isinstance(value, random.Random):
        rng = random.Random()
        rng.setstate(value.getstate())
        return rng
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = getattr(type(value), "__dataclass_params__", None)
        if params is not None and params.frozen:
            return value  # a frozen record (a payout): never changed, safe to share
        return copy_state(value)
    method = getattr(value, "copy", None)
    if callable(method):
        return method()
    raise TypeError(f"cannot copy a {type(value).__name__} held by a game's state")


def copy_state(state: T) -> T:
    """A new ``type(state)`` whose every field is ``copy_value`` of the old one."""
    fields = dataclasses.fields(state)  # type: ignore[arg-type]
    return type(state)(**{f.name: copy_value(getattr(state, f.name)) for f in fields})
