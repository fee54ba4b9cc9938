"""A file upload's size limit, checked in the browser before the file is sent: an over-size file is
refused with a message instead of closing the connection.

An ipywidgets ``FileUpload`` reads the whole file in the browser and sends it to the kernel in one
websocket message; a file over the server's message limit (10 MiB) closes the connection and the learner
sees nothing. railkit's Voila template (``voila_template/railkit/index.html.j2``) therefore checks
``file.size`` when a file is chosen in an upload marked with ``railkit-max-bytes-<limit>``: a file over the
limit is never read nor sent; instead the template writes ``{"name": …, "size": …}`` into the hidden text box
(``railkit-upload-refused``) next to the upload, and ``UploadLimit`` calls back with the name and size, so
the lesson shows the same refusal, in the learner's language, as for a file the kernel received and
measured itself. Without the template (JupyterLab) the kernel's own check still refuses files up to the
server's limit.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import ipywidgets as widgets

__all__ = ["REFUSED_CLASS", "UploadLimit", "limit_class"]

REFUSED_CLASS = "railkit-upload-refused"
MAX_REPORT = 2000  # characters of a report from the page: the box is typed into by the page, so bounded
MAX_NAME = 200  # characters of the reported file name that are kept


def limit_class(limit: int) -> str:
    """The CSS class that tells the template's script an upload's limit in bytes."""
    return f"railkit-max-bytes-{int(limit)}"


class UploadLimit:
    """Marks ``upload`` with its ``limit`` and owns the hidden box the page reports a refused file in;
    ``widget`` goes into the same container as the upload. ``on_refused(name, size)`` is called for each
    refused file (a malformed report is ignored)."""

    def __init__(self, upload: widgets.FileUpload, limit: int, on_refused: Callable[[str, int], object]) -> None:
        self.limit = int(limit)
        upload.add_class(limit_class(self.limit))
        self.box = widgets.Text(value="", continuous_update=True, layout=widgets.Layout(display="none"))
        self.box.add_class(REFUSED_CLASS)
        self._on_refused = on_refused
        self._reports = 0
        self.box.observe(self._changed, names="value")

    @property
    def widget(self) -> widgets.Text:
        return self.box

    def refuse(self, name: str, size: int) -> None:
        """What the page does when a file over the limit is chosen (for tests and scripts)."""
        self._reports += 1
        self.box.value = json.dumps({"name": name, "size": size, "n": self._reports})

    def _changed(self, change: dict[str, object]) -> None:
        text = change["new"]
        if not isinstance(text, str) or not text or len(text) > MAX_REPORT:
            return
        try:
            report = json.loads(text)
        except ValueError:
            return
        if not isinstance(report, dict):
            return
        name, size = report.get("name"), report.get("size")
        if not isinstance(name, str) or isinstance(size, bool) or not isinstance(size, int) or size < 0:
            return
        self._on_refused(name[:MAX_NAME], size)
