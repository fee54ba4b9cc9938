"""Run a lesson notebook headless (tests, Binder check, benchmarks): ``execute_notebook(path)``.

nbclient is imported lazily (it is a test/CI tool, not needed by the apps).

Widget state is never stored (``store_widget_state=False``: a FigureWidget would add ~5 MB). nbclient
0.11 then raises ``KeyError`` as soon as an ``ipywidgets.Output`` captures output while a cell runs
(its Output-widget emulation writes into the widget-state dict it did not fill), which is exactly
what ``FigureView.show`` does when an app draws its first figure. ``HeadlessClient`` keeps that
bookkeeping in a throw-away dict and never writes widget metadata into the notebook.
"""

from __future__ import annotations

import collections
from pathlib import Path
from typing import Any


def _client_class() -> type:
    from nbclient import NotebookClient

    class HeadlessClient(NotebookClient):
        def reset_execution_trackers(self) -> None:
            super().reset_execution_trackers()
            self.widget_state = collections.defaultdict(dict)  # Output-widget emulation writes here

        def set_widgets_metadata(self) -> None:  # never store widget state in the notebook
            return None

    return HeadlessClient


def execute_notebook(path: str | Path, timeout: int = 180, kernel_name: str = "python3") -> Any:
    """Execute ``path`` in its own folder; returns the executed notebook. Raises on a failing cell."""
    import nbformat

    path = Path(path)
    read: Any = nbformat.read  # untyped
    notebook = read(path, as_version=4)
    client = _client_class()(notebook, timeout=timeout, kernel_name=kernel_name, store_widget_state=False,
                             resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    return notebook
