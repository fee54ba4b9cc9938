"""Nothing lost on reload: a play lesson keeps its game in a file while it is played.

Each game on screen has a random key; the page carries it in its address (``?game=…``: the template's
script copies it from the hidden ``.railkit-game-key`` mark, as it does a table seat). After a reload, Back
and Forward, a reopened tab or a restarted kernel, the lesson finds the key in the address and replays the
kept game (a save, so the same checks as “Load” apply). The key is the only way to a kept game, so learners
sharing one server cannot open each other's games.

The files live in ``RAILKIT_SAVES_DIR`` (``make run`` sets ``.railkit/games``), else ``~/.railkit/games``
(Binder, JupyterLab, the class hub: the learner's own home). Games untouched for ``KEEP_DAYS`` days are
removed.

The browser's storage. In the static site the kernel is Pyodide, whose files vanish with the page, and it
never sees the page address. There (and wherever ``RAILKIT_SAVES_DIR=browser``: a server that should keep
no learner's game) the game goes to the page instead: after every move the kernel puts ``seq|key|text`` into
a hidden text box (``.railkit-game-store``), and the template's script (``voila_template/railkit/
kept_games.html.j2``) writes it into the browser's ``localStorage`` under the lesson and the key, and the key
into the address. After a reload the script finds the address's key in the storage and hands the kept game to
the kernel through another hidden box (``.railkit-game-kept``: ``key|text``); ``on_kept`` hears it and the
lesson replays it (``KeepsGame``), so nothing is lost on the static site either.
"""

from __future__ import annotations

import html
import json
import logging
import os
import re
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import ipywidgets as widgets

from railkit.game import MAX_SAVE_BYTES
from railkit.ui.records.learner import address_fields

__all__ = ["BROWSER", "KEEP_DAYS", "SAVES_VARIABLE", "GameKeeper", "game_key_from_query", "in_browser_storage",
           "saves_folder"]

SAVES_VARIABLE = "RAILKIT_SAVES_DIR"
KEEP_DAYS = 30
KEY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")  # what ``secrets.token_urlsafe`` gives; nothing else is read
LESSON_PATTERN = re.compile(r"^[a-z_]{1,32}$")
log = logging.getLogger(__name__)


BROWSER = "browser"  # RAILKIT_SAVES_DIR=browser: kept games live in the learner's browser, not on the server


def in_browser_storage() -> bool:
    """True where kept games go to the browser's storage: the static site's Pyodide (no file outlives the
    page), or ``RAILKIT_SAVES_DIR=browser``."""
    return sys.platform == "emscripten" or os.environ.get(SAVES_VARIABLE, "").strip() == BROWSER


def saves_folder() -> Path | None:
    """Where kept games live, or None where they live in the browser (``in_browser_storage``)."""
    if in_browser_storage():
        return None
    chosen = os.environ.get(SAVES_VARIABLE, "").strip()
    return Path(chosen) if chosen else Path.home() / ".railkit" / "games"


def game_key_from_query(query: str | None = None) -> str | None:
    """The ``?game=`` key of the page address, if it is one this module could have made."""
    values = address_fields(query).get("game", [])
    return values[0] if len(values) == 1 and KEY_PATTERN.match(values[0]) else None


class GameKeeper:
    """The kept game of one lesson page: ``keep(text)`` after every move, ``kept()`` after a reload."""

    def __init__(self, lesson: str, folder: Path | None = None, key: str | None = None) -> None:
        if not LESSON_PATTERN.match(lesson):
            raise ValueError(f"a lesson name of lower-case letters and '_', not {lesson!r}")
        self.lesson = lesson
        self.folder = saves_folder() if folder is None else folder
        self.browser = self.folder is None  # kept in the browser's storage (see the module's docstring)
        self.key = key if key is not None and KEY_PATTERN.match(key) else secrets.token_urlsafe(18)
        self.mark = widgets.HTML()
        self.mark.add_class("railkit-game-key")
        # the browser's side: what the kernel keeps (seq|key|text) and what the page brings back (key|text)
        self.store = widgets.Text("", layout=widgets.Layout(display="none"))
        self.store.add_class("railkit-game-store")
        self.kept_box = widgets.Text("", continuous_update=True, layout=widgets.Layout(display="none"))
        self.kept_box.add_class("railkit-game-kept")
        self.kept_box.observe(self._brought_back, names="value")
        self._callbacks: list[Callable[[str, str], None]] = []
        self._stored = 0
        self.widget = widgets.Box([self.mark, self.store, self.kept_box], layout=widgets.Layout(display="none"))
        self._show_key()

    def _show_key(self) -> None:
        store = f" data-store='browser' data-lesson='{self.lesson}'" if self.browser else ""
        self.mark.value = (f"<span class='railkit-game-key-mark' hidden data-game='{html.escape(self.key, True)}'"
                           f"{store}></span>")

    def on_kept(self, callback: Callable[[str, str], None]) -> None:
        """In the browser's storage: ``callback(key, text)`` when the page brings a kept game back."""
        self._callbacks.append(callback)

    def _brought_back(self, change: dict[str, object]) -> None:
        key, _, text = str(change["new"]).partition("|")
        if not KEY_PATTERN.match(key) or not text or len(text.encode("utf-8")) > MAX_SAVE_BYTES:
            return
        for callback in self._callbacks:
            callback(key, text)

    @property
    def path(self) -> Path | None:
        return None if self.folder is None else self.folder / f"{self.lesson}-{self.key}.json"

    def adopt(self, key: str) -> None:
        """Follow the key of the page address (a reload): the game kept under it is this page's now."""
        if KEY_PATTERN.match(key):
            self.key = key
            self._show_key()

    def renew(self) -> None:
        """A new game: a new key, so the address of the old one still opens the old one."""
        self.key = secrets.token_urlsafe(18)
        self._show_key()

    def kept(self) -> str | None:
        """The kept game's text, or None (no file, too large, unreadable; in the browser's storage it comes
        later, through ``on_kept``)."""
        path = self.path
        try:
            if path is None or not path.is_file() or path.stat().st_size > MAX_SAVE_BYTES:
                return None
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            log.warning("kept game %s could not be read", path, exc_info=True)
            return None

    def keep(self, text: str) -> bool:
        """Write the game (atomically: a crash leaves the old file or the new one). Never raises: a full disk
        must not stop the lesson. True when written."""
        path = self.path
        if len(text.encode("utf-8")) > MAX_SAVE_BYTES:
            return False
        if self.browser:  # the page's script writes it into the browser's storage
            self._stored += 1
            self.store.value = f"{self._stored}|{self.key}|{text}"
            return True
        if path is None:
            return False
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            draft = path.with_suffix(f".{os.getpid()}.tmp")
            draft.write_text(text, encoding="utf-8")
            os.replace(draft, path)
            self._tidy()
            return True
        except OSError:
            log.warning("the game could not be kept in %s", path, exc_info=True)
            return False

    def _tidy(self) -> None:
        """Remove this lesson's games nobody has touched for ``KEEP_DAYS`` days (at most once an hour)."""
        assert self.folder is not None
        stamp = self.folder / ".tidied"
        now = time.time()
        try:
            if stamp.exists() and now - stamp.stat().st_mtime < 3600:
                return
            stamp.touch()
            for old in self.folder.glob("*.json"):
                if now - old.stat().st_mtime > KEEP_DAYS * 86400:
                    old.unlink(missing_ok=True)
        except OSError:
            log.debug("tidying %s failed", self.folder, exc_info=True)


class KeepsGame:
    """For a play lesson (an ``App`` with ``session``, ``save_file()`` and ``load_save()``): keep the game after
    every change, bring it back from the page address, and ask before “New game” throws one away."""

    keeper: GameKeeper
    _new_game_asked: bool = False

    def keep_game(self) -> None:
        self._new_game_asked = False  # the game changed since “New game” asked: ask again next time
        session = getattr(self, "session", None)
        if session is not None and session.last_human_move() is not None:
            self.keeper.keep(self.save_file().text)  # type: ignore[attr-defined]

    def follow_the_page(self, link_problems: Sequence[str], then: Callable[[], None] | None = None) -> None:
        """At the end of a play lesson's constructor: say what was wrong with the class link, deal its game when
        the page address brings one (``on_class_link``), run ``then``, and bring back the game kept for this page,
        now or when a pre-rendered page learns its address."""
        from railkit.ui.records.learner import follow_page_address

        if link_problems:
            self.show_error(" ".join(link_problems))  # type: ignore[attr-defined]
        follow_page_address(lambda _found: self.on_class_link())  # type: ignore[attr-defined]
        if then is not None:
            then()
        self.resume_kept_game()  # the address of a reloaded page names its game
        follow_page_address(lambda _found: self.resume_kept_game())

    def resume_kept_game(self) -> bool:
        """The page address holds a kept game's key: replay that game. True when it came back. In the browser's
        storage the game comes later, when the page's script hands it over (``GameKeeper.on_kept``)."""
        if self.keeper.browser:  # the page brings the game back from the browser's storage, later
            if not self._listening:
                self._listening = True
                self.keeper.on_kept(self._brought_back)
            return False
        key = game_key_from_query()
        if key is None:
            return False
        self.keeper.adopt(key)
        text = self.keeper.kept()
        if text is None:
            return False
        return self._resume(text)

    _listening: bool = False

    def _brought_back(self, key: str, text: str) -> None:
        self.keeper.adopt(key)
        self._resume(text)

    def _resume(self, text: str) -> bool:
        from railkit.errors import SaveFileError
        from railkit.ui.i18n import tr

        try:
            words = self.load_save(text)  # type: ignore[attr-defined]
        except SaveFileError as problem:
            self.keeper.renew()
            self.show_error(tr("The game kept for this page could not be brought back ({problem}); "  # type: ignore[attr-defined]
                               "a new game is on screen.", problem=str(problem)))
            return False
        self.show_info(tr("Your game is back where you left it. {loaded}", loaded=words))  # type: ignore[attr-defined]
        return True

    def confirm_new_game(self) -> bool:
        """True when “New game” may start: no game in progress, or the learner pressed it a second time."""
        from railkit.ui.app import InputError
        from railkit.ui.i18n import trn

        session = getattr(self, "session", None)
        in_progress = (session is not None and session.last_human_move() is not None
                       and not session.game.is_over)
        if in_progress and session is not None and not self._new_game_asked:
            self._new_game_asked = True
            raise InputError(trn("A new game throws this one away ({n} move so far). Press the button again to "
                                 "start a new game, or keep this one with “Save and load” first.",
                                 "A new game throws this one away ({n} moves so far). Press the button again to "
                                 "start a new game, or keep this one with “Save and load” first.",
                                 len(session.game.log), n=len(session.game.log)))
        self._new_game_asked = False
        self.keeper.renew()
        return True


class KeepsState:
    """For a lesson without a game session (up_building): what the learner has done, as a small JSON state
    (``lesson_state``; None when there is nothing to keep), kept the same way under a key in the page address,
    so a reload or the language picker's translated page brings it back (``restore_state``)."""

    keeper: GameKeeper
    _state_listening: bool = False

    def lesson_state(self) -> dict[str, object] | None:
        raise NotImplementedError

    def restore_state(self, state: dict[str, object]) -> str:
        """Put ``state`` on screen (raise ``RailkitError`` or ``ValueError`` when it cannot be); the words to show."""
        raise NotImplementedError

    def keep_state(self) -> None:
        state = self.lesson_state()
        if state:
            self.keeper.keep(json.dumps(state, ensure_ascii=False))

    def resume_kept_state(self) -> bool:
        """The page address names a kept state: put it back. True when it came back (in the browser's storage
        it comes later, through ``GameKeeper.on_kept``)."""
        if self.keeper.browser:
            if not self._state_listening:
                self._state_listening = True
                self.keeper.on_kept(self._state_brought_back)
            return False
        key = game_key_from_query()
        if key is None or key == self.keeper.key:
            return False
        self.keeper.adopt(key)
        text = self.keeper.kept()
        return text is not None and self._restore(text)

    def _state_brought_back(self, key: str, text: str) -> None:
        self.keeper.adopt(key)
        self._restore(text)

    def _restore(self, text: str) -> bool:
        from railkit.errors import RailkitError
        from railkit.ui.i18n import tr

        try:
            state = json.loads(text)
            if not isinstance(state, dict):
                raise ValueError("not a JSON object")
            words = self.restore_state(state)
        except (RailkitError, ValueError, KeyError, TypeError) as problem:
            self.keeper.renew()
            self.show_error(tr("The game kept for this page could not be brought back ({problem}); "  # type: ignore[attr-defined]
                               "a new game is on screen.", problem=str(problem)))
            return False
        self.show_info(tr("Your game is back where you left it. {loaded}", loaded=words).strip())  # type: ignore[attr-defined]
        return True
