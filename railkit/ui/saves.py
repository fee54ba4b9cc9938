"""The “Save and load” panel both play lessons share (a ``railkit.session.Session`` as text and a file).

* Save writes the session into the box below and offers it as a file to download.
* Load replays a game pasted into the box; an uploaded ``.json`` file loads at once. A save is at most
  ``MAX_SAVE_BYTES`` (1 MB): an upload's size is checked before its content is decoded, a pasted text's
  length before it is parsed. A broken save is refused in plain words and nothing changes.

The app supplies two functions: ``save()`` gives a ``SaveFile`` (text, file name, message) and
``load(data)`` installs the game in ``data`` (text or bytes) and returns the message to show, or
raises ``SaveFileError`` without changing anything.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from railkit.game import MAX_SAVE_BYTES
from railkit.ui.app import InputError, Messages, Panel, guarded
from railkit.ui.i18n import format_number, render, tr, trn
from railkit.ui.upload_limit import UploadLimit
from railkit.ui.widgets import button, html_box, row

__all__ = ["LIMIT_WORDS", "MAX_SAVE_BYTES", "SaveFile", "SaveLoadPanel", "saved_words", "size_words"]


@dataclass(frozen=True)
class SaveFile:
    text: str
    filename: str  # letters, digits, '_', '-' and '.' only (it goes into an HTML attribute)
    message: str


def saved_words(moves: int) -> str:
    """What a play lesson says when it has saved its game of ``moves`` moves into the box."""
    return trn("Saved after {n} move: the game is in the box below, and “Download as a file” keeps a copy. Paste "
               "it back and press Load (or load the file) to continue later.",
               "Saved after {n} moves: the game is in the box below, and “Download as a file” keeps a copy. Paste "
               "it back and press Load (or load the file) to continue later.", moves)


def size_words(size: int) -> str:
    """A size in bytes as people read it: “1,500,000 bytes”."""
    return trn("{n} byte", "{n} bytes", size, n=format_number(size))


LIMIT_WORDS = f"{MAX_SAVE_BYTES / 1_000_000:g} MB"  # MAX_SAVE_BYTES, as the panel says it


class SaveLoadPanel(Panel):
    """Save, Load, a file upload and the text box, in a closed accordion (``widget``)."""

    def __init__(self, messages: Messages, save: Callable[[], SaveFile], load: Callable[[str | bytes], str],
                 intro: str) -> None:
        super().__init__(messages)
        self.save = save
        self.load = load
        self.save_button = button(tr("Save"), "railkit-save", "download", "info",
                                  tr("Write this game into the box below and offer it as a file"), None)
        self.save_button.on_click(lambda _b: self.on_save())
        self.load_button = button(tr("Load"), "railkit-load", "upload", "warning",
                                  tr("Replace this game by the one pasted in the box below"), None)
        self.load_button.on_click(lambda _b: self.on_load())
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False,
                                         description=tr("Load a file"), layout=widgets.Layout(width="auto"))
        self.upload.add_class("railkit-upload")
        self.upload.observe(lambda _c: self.on_upload(), names="value")
        self.limit = UploadLimit(self.upload, MAX_SAVE_BYTES, self.on_refused)  # checked in the browser too
        self.download = html_box("railkit-download")
        self.area = widgets.Textarea(value="", placeholder=tr("Press Save to get this game as text, or paste a saved "
                                                              "game here and press Load."),
                                     layout=widgets.Layout(width="100%", height="120px"))
        self.area.add_class("railkit-save-area")
        limit = tr("A saved game is at most {size} ({bytes}).", size=LIMIT_WORDS, bytes=size_words(MAX_SAVE_BYTES))
        body = widgets.VBox([widgets.HTML(f"{html.escape(intro)} {html.escape(limit)}"),
                             row([self.save_button, self.load_button, self.upload, self.limit.widget, self.download]),
                             self.area])
        self.widget = widgets.Accordion(children=[body], titles=(tr("Save and load"),))
        self.widget.selected_index = None
        self.widget.add_class("railkit-saveload")

    @guarded
    def on_save(self) -> str:
        saved = self.save()
        self.area.value = saved.text
        payload = base64.b64encode(saved.text.encode("utf-8")).decode("ascii")
        self.download.value = (f"<a download='{html.escape(saved.filename)}' "
                               f"href='data:application/json;base64,{payload}'>{tr('Download as a file')}</a>")
        self.show_ok(render(saved.message))
        return saved.text

    @guarded
    def on_load(self) -> bool:
        raw = self.area.value.strip()
        if not raw:
            raise InputError(tr("The box is empty: paste a saved game into it, then press Load."))
        if len(raw) > MAX_SAVE_BYTES:
            raise InputError(tr("That text has {size}; a saved game has at most {limit} ({bytes}). Nothing was changed.",
                                size=trn("{n} character", "{n} characters", len(raw), n=format_number(len(raw))),
                                limit=LIMIT_WORDS,
                                bytes=size_words(MAX_SAVE_BYTES)))
        self.show_ok(render(self.load(raw)))
        return True

    @guarded
    def on_upload(self) -> bool | None:
        files: Any = self.upload.value
        if not files:
            return None  # the upload was just cleared
        try:
            upload = files[0]
            name = str(upload.get("name", ""))[:80]
            size = max(int(upload.get("size") or 0), len(upload["content"]))  # before decoding anything
            if size > MAX_SAVE_BYTES:
                raise InputError(too_big(name, size))
            data = bytes(upload["content"])
        finally:
            self.upload.value = ()  # the same file can be chosen again
        self.show_ok(render(self.load(data)))
        return True

    @guarded
    def on_refused(self, name: str, size: int) -> None:
        """The page refused a file over the limit before sending it (``UploadLimit``): the same words."""
        raise InputError(too_big(name[:80], size))


def too_big(name: str, size: int) -> str:
    """The refusal of an uploaded save of ``size`` bytes, over ``MAX_SAVE_BYTES``."""
    return tr("“{name}” is {size}; a saved game is at most {limit} ({bytes}). Nothing was changed.", name=name,
              size=size_words(size), limit=LIMIT_WORDS, bytes=size_words(MAX_SAVE_BYTES))
