"""A monkey in every lesson: no button, list, field or upload ever shows a learner
“Something went wrong”.

Each lesson app — the one a notebook's single code cell builds (``notebooks/*.ipynb``: the index and every
lesson of both games) — is driven headless with random actions over several seeds, in English and in
Finnish: clicks on any button (now and then a hidden or disabled one too: a double click, or a click the
page sent before it hid the button), choices in lists, tabs and accordions, typed values (numbers, junk,
huge and hostile text, names from the board), map clicks, uploads and the language picker. It fails on any
unexpected error: an exception out of a widget, an error logged by ``guarded`` or by ipywidgets' callbacks,
or the words “Something went wrong” on the page.

The default run is short (``STEPS`` = 30 actions per lesson, seed 0 in English and seed 1 in Finnish: about a
minute); ``RAILKIT_MONKEY_STEPS=300 RAILKIT_MONKEY_SEEDS=3`` runs a longer one (about 20 minutes on two
cores). A failure names the app, seed, language and the actions that led to it, so it can be replayed.
"""

from __future__ import annotations

import datetime
import gc
import importlib
import inspect
import json
import logging
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from railkit.lessons import LAB_NOTEBOOKS
from railkit.ui import i18n
from railkit.ui.app import App
from railkit.ui.i18n import tr
from railkit.unionpacific.board import load_board

ROOT = Path(__file__).resolve().parent.parent.parent
NOTEBOOKS = ROOT / "notebooks"
STEPS = int(os.environ.get("RAILKIT_MONKEY_STEPS", "30"))
LANGUAGES = ("en", "fi")
# By default seed 0 in English and seed 1 in Finnish (about a minute for all lessons); RAILKIT_MONKEY_SEEDS=N
# runs seeds 0..N-1 in both languages.
RUNS = ([(seed, language) for seed in range(int(os.environ["RAILKIT_MONKEY_SEEDS"])) for language in LANGUAGES]
        if os.environ.get("RAILKIT_MONKEY_SEEDS") else [(0, "en"), (1, "fi")])
CELL = re.compile(r"^from (?P<module>[\w.]+) import (?P<name>\w+); (?P=name)\(\)$")

_BOARD = load_board()
TYPED = ("", " ", "0", "1", "2", "3", "5", "7", "12", "15", "40", "100", "101", "-1", "-0", "2.5", "1e9", "½",
         "99999999999999999999999999", "abc", "Ann", "You", "ann", "Ann, Ben, Cleo", "A" * 41, "x" * 5000,
         "<b>bold</b>", "\x00", "a\nb", "\u202eevil", "🚂", "EPRG", "up", "UP", "plains", "general",
         "display:0", "deck", "{}", '{"format": "railkit-session"}', "Ann,,Ann", ",,,")
MAP_POINTS = tuple(_BOARD.sections) + tuple(_BOARD.cities) + ("", "nowhere", "x" * 300)


def lesson_apps() -> dict[str, type[App]]:
    """notebook name → the App class its one code cell builds (``from m import C; C()``)."""
    found: dict[str, type[App]] = {}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        if path.stem in LAB_NOTEBOOKS:
            continue  # code lessons (several cells, no app): tests/lab/test_lab_notebook.py
        cells = [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
        assert len(cells) == 1, path
        match = CELL.match("".join(cells[0]["source"]).strip())
        if match is None:
            continue
        cls = getattr(importlib.import_module(match["module"]), match["name"])
        if isinstance(cls, type) and issubclass(cls, App):
            found[path.stem] = cls
    return found


APPS = lesson_apps()


def test_every_lesson_notebook_is_driven():
    assert set(APPS) == {"index", "up_setup", "up_building", "up_dividends", "up_play", "kk_auction", "kk_play"}


# -- the monkey ---------------------------------------------------------------------------------
class Caught(logging.Handler):
    """Errors logged while the monkey plays: ``guarded``'s “callback failed”, ipywidgets' callback
    exceptions, a failed language switch."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.records.append(record)


def walk(widget: Any, hidden: bool = False) -> Iterator[tuple[Any, bool]]:
    """Every widget under ``widget`` with whether a learner could not see it now (hidden, a closed tab)."""
    layout = getattr(widget, "layout", None)
    hidden = hidden or (layout is not None and layout.display == "none")
    yield widget, hidden
    children = getattr(widget, "children", ()) or ()
    selected = getattr(widget, "selected_index", None) if isinstance(widget, (widgets.Tab, widgets.Accordion)) else -1
    for i, child in enumerate(children):
        yield from walk(child, hidden or (selected != -1 and selected != i))


def upload_value(rng: random.Random) -> tuple[dict[str, Any], ...]:
    content = rng.choice([b"", b"{}", b"[1]", b"{not json", b"\xff\xfe", b'{"format": "x", "format": "y"}',
                          b" " * 1_000_001, json.dumps({"cards": []}).encode()])
    size = rng.choice([len(content), len(content), 20_000_000])
    return ({"name": rng.choice(["game.json", "board.json", "x" * 300, "\x00.json"]), "type": "application/json",
             "size": size, "content": memoryview(content), "last_modified": datetime.datetime.now()},)


CHANNELS = {"railkit-map-click", "railkit-upload-refused", "railkit-figure-ack"}  # hidden boxes the page writes


def channel(widget: Any) -> bool:
    return bool(CHANNELS & set(getattr(widget, "_dom_classes", ())))


def act(rng: random.Random, app: App) -> str | None:
    """One random action a learner (or a hasty double click) could make; what it was, or None."""
    pool = [(w, hidden) for w, hidden in walk(app.widget)]
    stale = rng.random() < 0.1  # now and then a control the learner no longer sees or may not use
    usable = [w for w, hidden in pool if stale or channel(w) or (not hidden and not getattr(w, "disabled", False))]
    controls = [w for w in usable if isinstance(w, (widgets.Button, widgets.ToggleButton, widgets.Checkbox,
                                                    widgets.Dropdown, widgets.RadioButtons, widgets.ToggleButtons,
                                                    widgets.Select, widgets.SelectMultiple, widgets.Text,
                                                    widgets.Textarea, widgets.IntText, widgets.BoundedIntText,
                                                    widgets.FloatText, widgets.IntSlider, widgets.Tab,
                                                    widgets.Accordion, widgets.FileUpload))]
    if not controls:
        return None
    buttons = [w for w in controls if isinstance(w, widgets.Button)]
    w = rng.choice(buttons) if buttons and rng.random() < 0.45 else rng.choice(controls)
    classes = " ".join(getattr(w, "_dom_classes", ()))
    what = f"{type(w).__name__}[{classes or getattr(w, 'description', '')}]"
    if isinstance(w, widgets.Button):
        w.click()
        if rng.random() < 0.15:
            w.click()  # a double click
        return f"click {what}"
    if isinstance(w, (widgets.ToggleButton, widgets.Checkbox)):
        w.value = not w.value
        return f"toggle {what}"
    if isinstance(w, (widgets.Dropdown, widgets.RadioButtons, widgets.ToggleButtons, widgets.Select)):
        if "railkit-language" in classes and rng.random() < 0.7:
            return None  # a switch rebuilds the whole lesson: keep it rare
        if not w.options:
            return None
        w.index = rng.randrange(len(w.options))
        return f"choose {what} = {w.value!r}"
    if isinstance(w, widgets.SelectMultiple):
        n = len(w.options)
        w.index = tuple(sorted(rng.sample(range(n), rng.randint(0, n)))) if n else ()
        return f"choose {what}"
    if isinstance(w, (widgets.Tab, widgets.Accordion)):
        n = len(w.children)
        w.selected_index = rng.choice([None, *range(n)]) if isinstance(w, widgets.Accordion) else rng.randrange(n)
        return f"open {what} {w.selected_index}"
    if isinstance(w, widgets.FileUpload):
        w.value = upload_value(rng)
        return f"upload {what}"
    if isinstance(w, (widgets.IntSlider, widgets.BoundedIntText)):
        w.value = rng.randint(w.min, w.max)
        return f"set {what} = {w.value}"
    if isinstance(w, (widgets.IntText, widgets.FloatText)):
        w.value = rng.choice([0, 1, -1, 3, 10**6])
        return f"set {what} = {w.value}"
    if "railkit-map-click" in classes:
        w.value = f"{rng.choice(MAP_POINTS)}|{rng.randint(1, 10**6)}"
    elif "railkit-upload-refused" in classes:
        w.value = rng.choice([json.dumps({"name": "big.json", "size": 12 * 2**20, "n": rng.random()}), "junk"])
    elif "railkit-figure-ack" in classes:
        w.value = rng.choice(["ready|", "miss|", "junk", ""]) + str(rng.randint(0, 9))
    else:
        w.value = rng.choice(TYPED + MAP_POINTS[:5] + tuple(c.name for c in _BOARD.companies[:3]))
    return f"type {what} = {w.value[:40]!r}"


def page_words(app: App) -> str:
    return " ".join(str(getattr(w, "value", "")) for w, _hidden in walk(app.widget)
                    if isinstance(w, (widgets.HTML, widgets.Label)))


def build(cls: type[App], seed: int) -> App:
    params = inspect.signature(cls).parameters
    return cls(seed=seed) if "seed" in params else cls()


@pytest.fixture
def caught() -> Iterator[Caught]:
    handler = Caught()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        i18n.set_language("en")
        gc.collect()  # apps left behind stop listening to language switches


@pytest.mark.parametrize("seed, language", RUNS)
@pytest.mark.parametrize("lesson", sorted(APPS))
def test_no_action_shows_something_went_wrong(lesson, seed, language, caught):
    went_wrong = set()
    for words_in in ("en", *i18n.catalog_languages()):  # the language picker may switch to any of them
        i18n.set_language(words_in)
        went_wrong.add(tr("Something went wrong: {error}. Nothing was changed.", error="\x00").split("\x00")[0].strip())
    i18n.set_language(language)
    app = build(APPS[lesson], seed)
    rng = random.Random(f"{lesson}-{seed}-{language}")
    done: list[str] = []
    for _ in range(STEPS):
        try:
            what = act(rng, app)
        except Exception as exc:  # noqa: BLE001 - a widget must never raise into the page
            pytest.fail(f"{lesson} seed {seed} {language}: {type(exc).__name__}: {exc} after {done[-8:]}")
        if what is None:
            continue
        done.append(what)
        if caught.records:
            record = caught.records[0]
            error = f" ({record.exc_info[1]!r})" if record.exc_info else ""
            pytest.fail(f"{lesson} seed {seed} {language}: {record.getMessage()}{error} after {done[-8:]}")
        words = page_words(app)
        for phrase in went_wrong:
            assert phrase not in words, f"{lesson} seed {seed} {language}: {phrase!r} shown after {done[-8:]}"
    assert done, f"{lesson}: the monkey found nothing to do"
