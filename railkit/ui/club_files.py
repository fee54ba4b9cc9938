"""A club's own data file in the lessons: the real Union Pacific board, the real Kap bis Kairo deck.

railkit ships reconstructions. A club that owns the game can type in the printed
board or card list and play any lesson on it, two ways:

* the teacher, for the whole server: an environment variable names the file (``FileKind.env_var``,
  e.g. ``RAILKIT_UP_BOARD=/path/board.json``; ``make run BOARD=... DECK=...``). A broken file never
  stops a lesson: it shows a banner naming the file and its first problems (the same checker as the
  command line) and plays on the built-in data (``from_environment``);
* a learner, in the browser: the small closed “Use your club's …” box (``ClubFilePanel``). An upload is
  hostile: its size is checked against ``MAX_UPLOAD_BYTES`` before anything is decoded, it is written
  only into a private temporary folder under a name railkit chooses, and it is checked there; a refused
  file changes nothing (``from_upload``).

The engines take a file path (a game's options must be JSON, so a save can carry them); a checked
upload keeps its private path. A save made on a club file records the file's name and content hash
instead of that path (``tag_save``); loading it needs the same file in use (``untag_save``).

Each game supplies a ``FileKind`` (``railkit.ui.unionpacific.club_board``,
``railkit.ui.capecairo.club_deck``).
"""

from __future__ import annotations

import atexit
import hashlib
import html
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from railkit.datafiles import FILE
from railkit.errors import DataError, SaveFileError
from railkit.game import parse_save
from railkit.ui.app import InputError, Messages, Panel, guarded
from railkit.ui.docs import reconstruction_note
from railkit.ui.i18n import format_number, render, tr, trn
from railkit.ui.saves import size_words
from railkit.ui.upload_limit import UploadLimit
from railkit.ui.widgets import button, html_box, row, set_shown

__all__ = ["MAX_UPLOAD_BYTES", "ClubFile", "ClubFilePanel", "FileKind", "LessonData", "from_environment",
           "from_upload", "restart_in_place", "switch", "tag_save", "untag_save"]

log = logging.getLogger("railkit.ui")

MAX_UPLOAD_BYTES = 1_000_000  # the engines' limit for a board or deck file (and a save)
SHOWN_PROBLEMS = 5  # in a banner or a refusal: the first few, then “and N more”
MAX_NAME = 60  # characters of a file name shown
MAX_PATH = 400  # ... and of the teacher's path (the banner must let them find it)
TAG_PREFIX = "club-file:sha256:"  # what a save records instead of a private path

Checker = Callable[[Path], tuple[Any, Sequence[DataError]]]


@dataclass(frozen=True)
class FileKind:
    """One game's data file: how it is named, found, checked and passed to the engine."""

    noun: str  # "board" / "deck" (English; shown through tr)
    env_var: str  # the teacher's server-wide choice
    option: str  # the engine option taking the file's path (``FILE_OPTIONS``)
    check: Checker  # (data, ()) for a good file, (None, problems) for a broken one
    command: str  # the command-line check, named in refusals
    builtin_note: str  # the reconstruction note shown when the built-in data is in use (English)


@dataclass(frozen=True)
class ClubFile:
    """A checked club file: ``data`` is what the checker built (a ``Board``, the deck's cards)."""

    kind: FileKind
    name: str  # the file's name as the club knows it (shown, escaped)
    path: Path  # the checked file (a private copy for an upload)
    data: Any
    digest: str  # sha256 of the content: what a save records
    uploaded: bool

    @property
    def options(self) -> dict[str, str]:
        """The engine options that play on this file."""
        return {self.kind.option: str(self.path)}


@dataclass(frozen=True)
class LessonData:
    """What a lesson plays on: a club file or the built-in data (``club`` None), and the banner about a
    broken server-wide file (``problem``, plain text, '' when there is none)."""

    kind: FileKind
    club: ClubFile | None = None
    problem: str = ""

    @property
    def options(self) -> dict[str, str]:
        return self.club.options if self.club else {}

    def note_html(self) -> str:
        """The short note under a map or deck view: reconstruction, or the club's file in use."""
        if self.club is None:
            return reconstruction_note(tr(self.kind.builtin_note))
        return (f"<div class='railkit-reconstruction railkit-club-note' style='font-size:13px;color:#14461b;"
                f"margin:2px 0 6px 0'>{html.escape(playing_on(self.club))}</div>")

    def not_used_html(self, why: str) -> str:
        """For a lesson that cannot use the file: the broken file's banner, or ``why`` it plays on the
        built-in data although a club file is set ('' when neither)."""
        if self.problem or self.club is None:
            return self.banner_html()
        note = tr("Your club's {noun} {name} is set for this server.", noun=tr(self.kind.noun), name=self.club.name)
        return (f"<div class='railkit-msg info railkit-club-banner' role='status'>{html.escape(note)} "
                f"{html.escape(why)}</div>")

    def banner_html(self) -> str:
        if not self.problem:
            return ""
        return f"<div class='railkit-msg error railkit-club-banner' role='alert'>{html.escape(self.problem)}</div>"


def playing_on(club: ClubFile) -> str:
    who = tr("your club's {noun}", noun=tr(club.kind.noun))
    return tr("Playing on {name} ({who}).", name=club.name, who=who)


def shown_name(name: str, limit: int = MAX_NAME) -> str:
    name = "".join(ch for ch in str(name) if ch.isprintable()).strip() or "?"
    return name if len(name) <= limit else name[: limit - 1] + "…"


def problems_text(problems: Sequence[DataError]) -> str:
    # item and problem are the checkers' Messages (a JSON key path such as ``track_deck`` stays as typed)
    shown = "; ".join(f"{render(p.item)}: {render(p.problem)}" for p in problems[:SHOWN_PROBLEMS])
    more = len(problems) - SHOWN_PROBLEMS
    return shown + (" " + trn("(and {n} more)", "(and {n} more)", more) if more > 0 else "")


def _digest(path: Path) -> str:
    with path.open("rb") as handle:  # the checker has read it already: within the limit
        return hashlib.sha256(handle.read(MAX_UPLOAD_BYTES + 1)).hexdigest()


# -- the teacher's choice: an environment variable -------------------------------------------
def from_environment(kind: FileKind, environ: Mapping[str, str] | None = None) -> LessonData:
    """The server-wide file named by ``kind.env_var``; a broken one gives a banner and the built-in data."""
    value = (os.environ if environ is None else environ).get(kind.env_var, "").strip()
    if not value:
        return LessonData(kind)
    path = Path(value)
    try:
        data, problems = kind.check(path)
    except Exception as exc:  # noqa: BLE001 - a lesson must start whatever the file holds
        data, problems = None, [DataError(path, FILE, str(exc) or type(exc).__name__)]
    if data is None:
        problem = tr("The {noun} file {path} (set by {var}) cannot be used, so this lesson plays on the built-in "
                     "{noun}: {problems}. Check it with “{command} FILE”.", noun=tr(kind.noun),
                     path=shown_name(value, MAX_PATH), var=kind.env_var, problems=problems_text(problems), command=kind.command)
        return LessonData(kind, problem=problem)
    return LessonData(kind, ClubFile(kind, shown_name(path.name), path, data, _digest(path), uploaded=False))


# -- a learner's upload ----------------------------------------------------------------------
_private: Path | None = None


def private_folder() -> Path:
    """This process's folder for uploads (readable by its owner only), made once."""
    global _private
    if _private is None or not _private.is_dir():
        _private = Path(tempfile.mkdtemp(prefix="railkit-club-"))
        atexit.register(shutil.rmtree, _private, ignore_errors=True)  # the kernel's uploads go with it
    return _private


def from_upload(kind: FileKind, files: Any) -> ClubFile:
    """A ``FileUpload`` value, checked: the club file, or ``InputError`` saying why (nothing changes)."""
    if not files:
        raise InputError(tr("No file was chosen. Nothing was changed."))
    upload = files[0]
    name = shown_name(str(upload.get("name", "")))
    content = upload.get("content")
    if content is None:
        raise InputError(tr("“{name}” arrived empty. Nothing was changed.", name=name))
    size = max(int(upload.get("size") or 0), len(content))  # before anything is decoded
    if size > MAX_UPLOAD_BYTES:
        raise InputError(too_big(kind, name, size))
    data = bytes(content)
    digest = hashlib.sha256(data).hexdigest()
    # railkit's own name in a private folder: the uploaded name never becomes a path
    path = private_folder() / f"{kind.noun}-{digest[:24]}.json"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    checked, problems = kind.check(path)
    if checked is None:
        path.unlink(missing_ok=True)
        raise InputError(tr("“{name}” is not a {noun} railkit can use: {problems}. Nothing was changed.",
                            name=name, noun=tr(kind.noun),
                            problems=problems_text([_renamed(p, name) for p in problems])))
    return ClubFile(kind, name, path, checked, digest, uploaded=True)


def too_big(kind: FileKind, name: str, size: int) -> str:
    """The refusal of an uploaded ``kind`` file of ``size`` bytes, over ``MAX_UPLOAD_BYTES``."""
    return tr("“{name}” is {size}; a {noun} file is at most {limit}. Nothing was changed.", name=shown_name(name),
              size=size_words(size), noun=tr(kind.noun), limit=size_words(MAX_UPLOAD_BYTES))


def _renamed(problem: DataError, name: str) -> DataError:
    return DataError(name, problem.item, problem.problem)  # the club's file name, not the private path


# -- saves -----------------------------------------------------------------------------------
def tag_save(save: dict[str, Any], data: LessonData) -> dict[str, Any]:
    """A session's or game's save dict with the club file's private path replaced by its name and hash."""
    game = save.get("game") if isinstance(save.get("game"), dict) else save
    options = game.get("options") if isinstance(game, dict) else None
    if data.club is not None and isinstance(options, dict) and options.get(data.kind.option) is not None:
        options[data.kind.option] = f"{TAG_PREFIX}{data.club.digest}:{data.club.name}"
    return save


def untag_save(raw: str | bytes, data: LessonData) -> tuple[Mapping[str, Any], bool]:
    """A save ready for ``Session.load``: ``(save, allow_files)``. The save must be of the lesson's
    own file (the same content hash) or of the built-in data when no club file is used; anything else
    is a ``SaveFileError`` in plain words. Only the lesson's own checked path is ever put back."""
    save = parse_save(raw)  # the size is checked before anything is decoded
    game = save.get("game") if isinstance(save.get("game"), Mapping) else save
    options = game.get("options") if isinstance(game, Mapping) else None
    named = options.get(data.kind.option) if isinstance(options, Mapping) else None
    noun = tr(data.kind.noun)
    if named is None:
        if data.club is not None:
            raise SaveFileError(tr("it was played on the built-in {noun}, and this lesson is on {name}; "
                                   "press “Back to the built-in {noun}” first", noun=noun, name=data.club.name))
        return save, False
    if not isinstance(named, str) or not named.startswith(TAG_PREFIX):
        return save, False  # a path: Game.load refuses it (allow_files=False)
    digest, _, name = named[len(TAG_PREFIX):].partition(":")
    if data.club is None or data.club.digest != digest:
        raise SaveFileError(tr("it was played on the club {noun} “{name}”; load that {noun} with “Use your club's "
                               "{noun}” first", noun=noun, name=shown_name(name)))
    assert isinstance(game, Mapping) and isinstance(options, Mapping)  # named came from them
    new_game = {**game, "options": {**options, data.kind.option: str(data.club.path)}}
    if game is save:
        return new_game, True
    return {**save, "game": new_game}, True


def switch(app: Any, data: LessonData, club: ClubFile | None, rebuild: Callable[[LessonData], None]) -> None:
    """Start ``app`` again on ``club`` (None: the built-in data), in the widget already on the page. Should
    the lesson fail to start on it, it starts on the built-in data and says so."""
    new = LessonData(data.kind, club)
    message = playing_on(club) if club else tr("Back on the built-in {noun}.", noun=tr(data.kind.noun))
    shell = app.widget
    try:
        restart_in_place(app, lambda: rebuild(new), message)
    except Exception as exc:  # noqa: BLE001 - the page must never show a traceback
        log.exception("a lesson could not start on a club file")
        app.widget = shell
        restart_in_place(app, lambda: rebuild(LessonData(data.kind)), "")
        app.messages.show_error(tr("The lesson could not start on {name} ({error}), so it plays on the built-in "
                                   "{noun}.", name=club.name if club else "?", error=str(exc)[:200] or
                                   type(exc).__name__, noun=tr(data.kind.noun)))


# -- the panel -------------------------------------------------------------------------------
class ClubFilePanel(Panel):
    """A closed accordion “Use your club's board”: an upload, the file in use, and a way back.

    ``on_change(club)`` is called with an accepted ``ClubFile`` (or None: back to the built-in data)
    and restarts the lesson on it."""

    def __init__(self, messages: Messages, data: LessonData, on_change: Callable[[ClubFile | None], Any],
                 intro: str = "") -> None:
        super().__init__(messages)
        self.data = data
        self.on_change = on_change
        noun = tr(data.kind.noun)
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False,
                                         description=tr("Choose a {noun} file", noun=noun),
                                         layout=widgets.Layout(width="auto"))
        self.upload.add_class("railkit-club-upload")
        self.upload.observe(lambda _c: self.on_upload(), names="value")
        self.limit = UploadLimit(self.upload, MAX_UPLOAD_BYTES, self.on_refused)  # checked in the browser too
        self.builtin_button = button(tr("Back to the built-in {noun}", noun=noun), "railkit-club-builtin", "undo")
        self.builtin_button.on_click(lambda _b: self.on_builtin())
        set_shown(self.builtin_button, data.club is not None)
        self.status = html_box("railkit-club-status", self._status_html())
        # Above the lesson: the broken server file's banner, or the club file in use (empty otherwise).
        self.banner = html_box("railkit-club-banner-box", data.banner_html() if data.problem else
                               (data.note_html() if data.club else ""))
        text = intro or tr("If your club owns the game, type the printed {noun} into a file (the format is in "
                           "railkit's data folder) and choose it here: the lesson starts again on it. A file is "
                           "at most {limit} bytes; a broken one is refused and nothing changes.",
                           noun=noun, limit=format_number(MAX_UPLOAD_BYTES))
        body = widgets.VBox([widgets.HTML(f"<span style='font-size:14px'>{html.escape(text)}</span>"),
                             row([self.upload, self.limit.widget, self.builtin_button]), self.status])
        self.widget = widgets.Accordion(children=[body], titles=(tr("Use your club's {noun}", noun=noun),))
        self.widget.selected_index = None
        self.widget.add_class("railkit-club")

    def _status_html(self) -> str:
        return self.data.note_html() + self.data.banner_html()

    @guarded
    def on_upload(self) -> ClubFile | None:
        files: Any = self.upload.value
        if not files:
            return None  # the upload was just cleared
        try:
            club = from_upload(self.data.kind, files)
        finally:
            self.upload.value = ()  # the same file can be chosen again
        self.on_change(club)
        return club

    @guarded
    def on_refused(self, name: str, size: int) -> None:
        """The page refused a file over the limit before sending it (``UploadLimit``): the same words."""
        raise InputError(too_big(self.data.kind, name, size))

    @guarded
    def on_builtin(self) -> None:
        if self.data.club is None:
            raise InputError(tr("This lesson already plays on the built-in {noun}.", noun=tr(self.data.kind.noun)))
        self.on_change(None)


def restart_in_place(app: Any, rebuild: Callable[[], None], message: str) -> None:
    """Build ``app`` again (``rebuild`` runs its ``__init__``) inside the widget already on the page."""
    shell = app.widget
    rebuild()
    shell.children = app.widget.children
    app.widget = shell
    app.messages.show_ok(message)
