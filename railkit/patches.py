"""Every change railkit makes to another library's private API, in one module: a library upgrade
breaks in one known place.

Each patch names the library and the versions it was written and tested against (``SUPPORTED``) and
checks the installed version before it patches anything: a library that has moved on fails loudly with a
``LibraryChanged`` naming the library, the versions expected and the version found, instead of a lesson
that silently misbehaves. After checking the patch against the new version, add its series here.

* ``argparse_speaking`` — argparse's module globals ``_`` and ``ngettext`` (its words: “usage:”, “show
  this help message and exit”), swapped so that ``python -m railkit.unionpacific check-board --help``
  speaks the learner's language (``railkit.cli.speaking``). Python's version is argparse's.
* ``after_control_message`` — ipywidgets' ``Widget._handle_control_comm_msg`` (the control comm's
  handler), wrapped to learn when a Voila page has asked for its widgets (``railkit.ui.first_paint``).
* ``send_nulls_in_comm_data`` — the browser kernel's (pyodide_kernel, the static site only)
  ``Comm.publish_msg``, wrapped so that ``None`` reaches the page as ``null`` (``railkit.ui.app``).

This module imports no library it patches: the caller hands over the class, so the engines (which use
``argparse_speaking`` through ``railkit.cli``) never import ipywidgets, not even on paper (import-linter).
jupyter_server's private ``_tz.utcnow`` and ``_kernels`` are no longer used: the kernel manager
(``railkit.ui.voila_template.kernels``) takes the time from ``datetime`` and kernels from ``get_kernel``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import platform
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# library (a distribution name, or "python" for the standard library) -> the release series the patches
# were checked against: "8.1" accepts 8.1.0, 8.1.9, ... but not 8.2.0.
SUPPORTED: dict[str, tuple[str, ...]] = {
    "python": ("3.11", "3.12", "3.13"),
    "ipywidgets": ("8.1",),
    "pyodide-kernel": ("0.7",),
}


class LibraryChanged(RuntimeError):
    """A library railkit patches is not a version the patch was written for."""

    def __init__(self, library: str, patch: str, found: str | None) -> None:
        self.library, self.patch, self.found = library, patch, found
        expected = " or ".join(f"{series}.x" for series in SUPPORTED.get(library, ())) or "(none listed)"
        super().__init__(
            f"railkit patches {library}'s {patch}, written for {library} {expected}, but found "
            f"{library} {found or '(not installed)'}: check railkit/patches.py against this version, then add "
            f"it to SUPPORTED (or install a supported {library})")


def installed_version(library: str) -> str | None:
    """The installed version of ``library`` (``"python"``: the interpreter's); None when not installed."""
    if library == "python":
        return platform.python_version()
    try:
        return importlib.metadata.version(library)
    except importlib.metadata.PackageNotFoundError:
        return None


def supported(library: str, version: str | None) -> bool:
    return version is not None and any(version == s or version.startswith(s + ".") for s in SUPPORTED.get(library, ()))


def check(library: str, patch: str, version: str | None = None) -> str:
    """The installed version of ``library`` when a patch was written for it; ``LibraryChanged`` otherwise."""
    found = installed_version(library) if version is None else version
    if not supported(library, found):
        raise LibraryChanged(library, patch, found)
    assert found is not None
    return found


def _require(library: str, patch: str, owner: Any, *names: str) -> None:
    check(library, patch)
    missing = [name for name in names if not hasattr(owner, name)]
    if missing:
        raise LibraryChanged(library, f"{patch} (missing: {', '.join(missing)})", installed_version(library))


# -- argparse (railkit.cli) ---------------------------------------------------------------------------
@contextmanager
def argparse_speaking(gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> Iterator[None]:
    """argparse's words through ``gettext``/``ngettext`` inside the block (argparse looks its module
    globals ``_`` and ``ngettext`` up at each call); restored afterwards."""
    patch = "module globals _ and ngettext"
    _require("python", f"argparse {patch}", argparse, "_", "ngettext")
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = gettext  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


# -- ipywidgets (railkit.ui.first_paint) --------------------------------------------------------------
def after_control_message(widget_class: type, callback: Callable[[dict[str, Any]], None]) -> None:
    """Call ``callback(msg)`` after ipywidgets' ``Widget._handle_control_comm_msg`` has handled each
    message of the control comm (``request_states``: the page asks for every widget's state).
    ``widget_class`` is ``ipywidgets.Widget``."""
    _require("ipywidgets", "Widget._handle_control_comm_msg", widget_class, "_handle_control_comm_msg")
    original = widget_class._handle_control_comm_msg  # type: ignore[attr-defined]

    def handle(cls: type, msg: dict[str, Any]) -> None:
        original(msg)
        callback(msg)

    widget_class._handle_control_comm_msg = classmethod(handle)  # type: ignore[attr-defined]


# -- pyodide_kernel (the static site's browser kernel; railkit.ui.app) ---------------------------------
def _with_nulls(value: Any, null: Any) -> Any:
    if value is None:
        return null
    if isinstance(value, dict):
        return {k: _with_nulls(v, null) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_with_nulls(v, null) for v in value]
    return value


def send_nulls_in_comm_data(comm_class: type, null: Any) -> None:
    """``comm_class.publish_msg`` (pyodide_kernel's ``Comm``) with every ``None`` in the data as ``null``.

    jupyterlite-pyodide-kernel 0.7 hands each comm message to JavaScript with ``toJs()``, which turns
    ``None`` into ``undefined``, not ``null``. ipywidgets sends ``None`` to clear a style: after
    ``box.layout.display = None`` the page received ``display: undefined``, ignored it, and a box hidden
    with ``"none"`` stayed hidden (the auction's “take a card” buttons never appeared)."""
    original = getattr(comm_class, "publish_msg", None)
    if getattr(original, "railkit_nulls", False):
        return
    _require("pyodide-kernel", "Comm.publish_msg", comm_class, "publish_msg")

    def publish_msg(self: Any, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None,
                    **keys: Any) -> Any:
        return original(self, msg_type, None if data is None else _with_nulls(data, null), metadata, buffers, **keys)  # type: ignore[misc]

    publish_msg.railkit_nulls = True  # type: ignore[attr-defined]
    comm_class.publish_msg = publish_msg  # type: ignore[attr-defined]
