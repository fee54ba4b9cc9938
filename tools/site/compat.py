"""Browser-only fix, added to the site's railkit wheel as ``railkit/_site_compat.py`` (tools/site/package.py).

jupyterlite-pyodide-kernel 0.7.0 hands each comm message to JavaScript with ``toJs()``, which turns
Python ``None`` into ``undefined``, not ``null``. ipywidgets sends ``None`` to clear a style: after
``box.layout.display = None`` the front end receives ``display: undefined``, ignores it, and a box
hidden with ``"none"`` stays hidden (the auction's "take a card" buttons never appeared). Sending
Pyodide's ``jsnull`` instead of ``None`` in comm data gives the front end the ``null`` it expects.
Under Voila and JupyterLab (CPython) this module does nothing.
"""

from __future__ import annotations

import sys
from typing import Any


def _with_nulls(value: Any, null: Any) -> Any:
    if value is None:
        return null
    if isinstance(value, dict):
        return {k: _with_nulls(v, null) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_with_nulls(v, null) for v in value]
    return value


def install() -> None:
    if sys.platform != "emscripten":
        return
    try:
        from pyodide.ffi import jsnull
        from pyodide_kernel import comm as kernel_comm
    except ImportError:
        return
    original = kernel_comm.Comm.publish_msg
    if getattr(original, "railkit_nulls", False):
        return

    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):  # noqa: ANN001
        return original(self, msg_type, None if data is None else _with_nulls(data, jsnull), metadata, buffers, **keys)

    publish_msg.railkit_nulls = True  # type: ignore[attr-defined]
    kernel_comm.Comm.publish_msg = publish_msg


install()
