"""``copy()`` checked over every field of a game's state dataclass (both games' ``test_*_state.py``).

The field list comes from ``dataclasses.fields``, so a field added to ``UPState`` or ``KKState`` is checked
without touching the tests: right after copying, every field of the copy equals the original's (by content:
containers, dataclasses and slotted objects by their parts, a random generator by its internal state); then
each field of the copy is changed in place, through every mutable container it holds, and the original must
stay exactly as it was. A field that ``copy()`` forgets, or copies shallowly, fails by name.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any


class Changed:
    """A value no game ever holds: what the mutation writes."""

    def __repr__(self) -> str:
        return "<changed by the copy test>"


CHANGED = Changed()


def _attributes(value: Any) -> list[str] | None:
    """The attribute names of a plain or slotted object, or None for anything else (a ``str`` subclass such as
    ``railkit.messages.Message`` is a value)."""
    if isinstance(value, (str, bytes, int, float, complex)):
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [f.name for f in dataclasses.fields(value)]
    slots = [name for cls in type(value).__mro__ for name in getattr(cls, "__slots__", ())]
    if slots:
        return [name for name in slots if hasattr(value, name)]
    if hasattr(value, "__dict__") and not callable(value) and type(value).__module__.startswith("railkit"):
        return list(vars(value))
    return None


def snapshot(value: Any, shared: tuple[type, ...] = ()) -> Any:
    """A picture of ``value`` that compares by content; instances of ``shared`` (immutable by design, such as
    the board) by identity."""
    if isinstance(value, shared):
        return ("shared", type(value).__name__, id(value))
    if isinstance(value, random.Random):
        return ("random", value.getstate())
    if isinstance(value, dict):
        return ("dict", {key: snapshot(item, shared) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [snapshot(item, shared) for item in value])
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, frozenset(value))
    names = _attributes(value)
    if names is not None:
        return (type(value).__name__, {name: snapshot(getattr(value, name), shared) for name in names})
    return value


def _is_frozen(value: Any) -> bool:
    params = getattr(type(value), "__dataclass_params__", None)
    return bool(params and params.frozen)


def mutate(value: Any, shared: tuple[type, ...] = ()) -> bool:
    """Change ``value`` in place through every mutable container it holds; True when something changed."""
    if isinstance(value, shared):
        return False
    if isinstance(value, random.Random):
        value.random()  # moves the generator's state on
        return True
    if isinstance(value, dict):
        for item in list(value.values()):
            mutate(item, shared)
        value[CHANGED] = CHANGED  # type: ignore[index]
        return True
    if isinstance(value, list):
        for item in value:
            mutate(item, shared)
        value.append(CHANGED)
        return True
    if isinstance(value, set):
        value.add(CHANGED)
        return True
    if isinstance(value, tuple):
        return any([mutate(item, shared) for item in value])
    names = _attributes(value)
    if names is None or _is_frozen(value):  # a frozen record is a value: shared as it is, never changed
        return False
    for name in names:
        mutate(getattr(value, name), shared)
        object.__setattr__(value, name, CHANGED)
    return True


def check_copy_over_every_field(original: Any, copied: Any, shared: tuple[type, ...] = (),
                                fixed: frozenset[str] = frozenset()) -> list[str]:
    """Assert that ``copied`` (a copy of the state dataclass ``original``) equals it field by field and that
    changing any field of the copy leaves the original unchanged. ``fixed`` names fields that are set once for
    the game and may be shared on purpose: when the copy holds the very same object it is not changed (a copy
    of its own is checked like any other field). Returns the fields checked."""
    assert dataclasses.is_dataclass(original) and type(copied) is type(original)
    assert copied is not original
    names = [f.name for f in dataclasses.fields(original)]
    for name in names:  # right after copying, every field is equal
        assert snapshot(getattr(copied, name), shared) == snapshot(getattr(original, name), shared), \
            f"the copy's {name} differs from the original's right after copying"
    before = {name: snapshot(getattr(original, name), shared) for name in names}
    for name in names:
        if name in fixed and getattr(copied, name) is getattr(original, name):
            continue
        changed = mutate(getattr(copied, name), shared)
        if changed:  # the change was real: the copy's field now differs
            assert snapshot(getattr(copied, name), shared) != before[name], name
        after = {n: snapshot(getattr(original, n), shared) for n in names}
        spoiled = [n for n in names if after[n] != before[n]]
        assert not spoiled, f"changing the copy's {name} changed the original's {', '.join(spoiled)}"
        object.__setattr__(copied, name, CHANGED)  # and replacing it does not reach the original either
        assert snapshot(getattr(original, name), shared) == before[name], name
    return names
