"""No English a learner can see: every lesson app, driven through its states in Finnish, Hungarian and Spanish,
shows no English message and no English word but names and rule IDs.

Each lesson app (``notebooks/*.ipynb``) is driven headless by a seeded series of learner actions (clicks, list
choices, tabs, typed names and numbers, map clicks) in each language. After every action the test reads every
text on screen: widget descriptions, tooltips, placeholders, HTML and labels (text and ``title`` attributes),
options, tab titles, and the figures' titles, axis and legend titles, legends, hover texts, text labels and
annotations. A text fails when

* it is an English message of the catalog (its msgid, the placeholders standing for anything) that the
  language's translators did not keep as it is (Spanish "General"), or
* it holds an English word (a word of the catalog's msgids or of the same app driven in English) that the
  language's own catalog never uses and that is no name (players, companies, cities, languages).

``RAILKIT_SCREEN_STEPS`` (default 40) and ``RAILKIT_SCREEN_SEEDS`` (default 1) drive longer runs. A failure
lists each English text with the words that gave it away.
"""

from __future__ import annotations

import functools
import gc
import html
import os
import random
import re
from html.parser import HTMLParser
from typing import Any

import ipywidgets as widgets
import pytest
from babel.messages.pofile import read_po

from railkit.locale import LOCALE_DIR
from railkit.ui import i18n, language
from railkit.ui.app import App
from railkit.ui.figure_view import MIME
from railkit.unionpacific.board import load_board
from tests.ui.test_monkey import APPS, MAP_POINTS, build, walk

LANGUAGES = ("fi", "hu", "es")
STEPS = int(os.environ.get("RAILKIT_SCREEN_STEPS", "40"))
SEEDS = range(int(os.environ.get("RAILKIT_SCREEN_SEEDS", "1")))
_BOARD = load_board()
# What the driver types: names and numbers a learner would (junk typed back in an error is the monkey's test).
TYPED = ("Ann", "Kim", "Ann, Ben", "0", "1", "2", "3", "5", "7", "12", "40", "100",
         *(c.name for c in _BOARD.companies[:3]), *list(_BOARD.cities)[:3])
# Names every language prints as they are, and the learner's name as the driver types it.
NAMES = ({"English", "suomi", "magyar", "español", "Union", "Pacific", "Vom", "Kap", "bis", "Kairo", "railkit",
          "Ann", "Ben", "Cleo", "Dev", "Eva", "Finn", "Kim", "Plotly", "JSON", "CSV"}
         | {w for c in _BOARD.companies for w in re.findall(r"\w+", c.name)}
         | {w for c in _BOARD.cities.values() for w in re.findall(r"\w+", c.name)}
         | {w for key in _BOARD.cities for w in re.findall(r"\w+", str(key))})
NAME_WORDS = frozenset(w.lower() for w in NAMES)
RULE_ID = re.compile(r"\b(?:UP|KK)-[A-Z0-9]+(?:-[A-Z]+)?\b")
WORD = re.compile(r"[^\W\d_]{3,}")
PLACEHOLDER = re.compile(r"%?\{[^{}]*\}")


# -- reading the screen -----------------------------------------------------------------------------
class _Text(HTMLParser):
    """An HTML fragment's text nodes and the texts of its ``title``, ``alt`` and ``aria-label`` attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        self.parts += [value for name, value in attrs if name in ("title", "alt", "aria-label") and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data)


INLINE = re.compile(r"</?(?:a|abbr|b|code|em|i|kbd|mark|s|small|span|strong|sub|sup|u)\b[^>]*>")


def html_texts(value: str) -> list[str]:
    """The text nodes of ``value``, and its sentences whole (a sentence split by ``<b>`` … ``</b>`` as one)."""
    parser = _Text()
    parser.feed(value)
    whole = _Text()
    whole.feed(INLINE.sub("", re.sub(r"(</[^>]+>)(<)", r"\1 \2", value)))  # side by side elements stay apart
    return parser.parts + [t for t in whole.parts if t not in parser.parts]


def figure_texts(figure: dict[str, Any]) -> list[str]:
    """What a learner can read in a plotly figure: titles, legends, hover texts, labels, annotations."""
    texts: list[str] = []

    def title(value: Any) -> None:
        if isinstance(value, dict):
            value = value.get("text")
        if isinstance(value, str):
            texts.append(value)

    def strings(value: Any) -> None:
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                strings(item)

    layout = figure.get("layout") or {}
    title(layout.get("title"))
    for key, value in layout.items():
        if re.fullmatch(r"[xy]axis\d*", key) and isinstance(value, dict):
            title(value.get("title"))
            strings(value.get("ticktext"))
    title((layout.get("legend") or {}).get("title"))
    for annotation in layout.get("annotations") or ():
        strings(annotation.get("text"))
        strings(annotation.get("hovertext"))
    for menu in [*(layout.get("updatemenus") or ()), *(layout.get("sliders") or ())]:
        for item in [*(menu.get("buttons") or ()), *(menu.get("steps") or ())]:
            strings(item.get("label"))
    for trace in figure.get("data") or ():
        if trace.get("showlegend") is not False and trace.get("name"):
            strings(trace["name"])
        for key in ("text", "hovertext", "hovertemplate", "texttemplate", "labels"):
            strings(trace.get(key))
        title(trace.get("legendgrouptitle") or {})
    cleaned = []
    for text in texts:
        text = re.sub(r"<extra>.*?</extra>|%\{[^}]*\}", " ", text)  # plotly's own fields
        cleaned += html_texts(text)
    return cleaned


def output_texts(output: widgets.Output) -> list[str]:
    texts: list[str] = []
    for item in output.outputs:
        data = item.get("data") or {}
        if MIME in data:
            texts += figure_texts(data[MIME])
        elif "text/html" in data:
            texts += html_texts(data["text/html"])
        elif "text/plain" in data:
            texts.append(data["text/plain"])
        if item.get("output_type") == "stream":
            texts.append(item.get("text", ""))
    return texts


def screen_texts(app: App) -> set[str]:
    """Every text a learner can read in ``app`` now (hidden widgets and closed tabs left out)."""
    found: list[str] = []
    for w, hidden in walk(app.widget):
        if hidden:
            continue
        for name in ("description", "tooltip", "placeholder"):
            found.append(getattr(w, name, "") or "")
        if isinstance(w, widgets.HTML | widgets.Label | widgets.HTMLMath):
            found += html_texts(w.value)
        found += list(getattr(w, "_options_labels", ()) or ())
        found += list(getattr(w, "tooltips", ()) or ())
        if isinstance(w, widgets.Tab | widgets.Accordion):
            found += [w.get_title(i) or "" for i in range(len(w.children))]
        if isinstance(w, widgets.Output):
            found += output_texts(w)
    return {" ".join(html.unescape(t).split()) for t in found if t and t.strip()}


# -- driving the lesson -----------------------------------------------------------------------------
CONTROLS = (widgets.Button, widgets.ToggleButton, widgets.Checkbox, widgets.Dropdown, widgets.RadioButtons,
            widgets.ToggleButtons, widgets.Select, widgets.SelectMultiple, widgets.Text, widgets.Textarea,
            widgets.IntText, widgets.BoundedIntText, widgets.FloatText, widgets.IntSlider, widgets.Tab,
            widgets.Accordion)


def act(rng: random.Random, app: App) -> None:
    """One learner action on a visible, enabled control (never the language picker or an upload)."""
    usable = []
    for w, hidden in walk(app.widget):
        classes = set(getattr(w, "_dom_classes", ()))
        if "railkit-map-click" in classes:
            usable.append(w)
        elif not hidden and not getattr(w, "disabled", False) and isinstance(w, CONTROLS) \
                and "railkit-language" not in classes and not classes & {"railkit-figure-ack", "railkit-upload-refused"}:
            usable.append(w)
    if not usable:
        return
    buttons = [w for w in usable if isinstance(w, widgets.Button)]
    w = rng.choice(buttons) if buttons and rng.random() < 0.5 else rng.choice(usable)
    if isinstance(w, widgets.Button):
        w.click()
    elif isinstance(w, widgets.ToggleButton | widgets.Checkbox):
        w.value = not w.value
    elif isinstance(w, widgets.Dropdown | widgets.RadioButtons | widgets.ToggleButtons | widgets.Select):
        if w.options:
            w.index = rng.randrange(len(w.options))
    elif isinstance(w, widgets.SelectMultiple):
        n = len(w.options)
        w.index = tuple(sorted(rng.sample(range(n), rng.randint(0, n)))) if n else ()
    elif isinstance(w, widgets.Tab | widgets.Accordion):
        if w.children:
            w.selected_index = rng.randrange(len(w.children))
    elif isinstance(w, widgets.IntSlider | widgets.BoundedIntText):
        w.value = rng.randint(w.min, w.max)
    elif isinstance(w, widgets.IntText | widgets.FloatText):
        w.value = rng.choice([0, 1, 3, 10])
    elif "railkit-map-click" in set(w._dom_classes):
        w.value = f"{rng.choice(MAP_POINTS[:-3])}|{rng.randint(1, 10**6)}"
    else:
        w.value = rng.choice(TYPED)


def drive(lesson: str, seed: int, lang: str) -> set[str]:
    """Every text shown while ``lesson`` is driven for ``STEPS`` actions in ``lang``."""
    i18n.set_language(lang)
    try:
        app = build(APPS[lesson], seed)
        rng = random.Random(f"{lesson}-{seed}")
        seen = set(screen_texts(app))
        for _ in range(STEPS):
            act(rng, app)
            seen |= screen_texts(app)
        return seen
    finally:
        i18n.set_language("en")
        language._listeners.clear()
        gc.collect()


# -- what is English --------------------------------------------------------------------------------
@functools.cache
def catalog(lang: str) -> tuple[tuple[str, str], ...]:
    """(English msgid, its translation) for every message and plural form of ``lang``'s catalog."""
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "railkit.po").open("rb") as f:
        pairs = []
        for m in read_po(f):
            if not m.id:
                continue
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            pairs += [(msgid, string) for msgid in ids for string in strings]
        return tuple(pairs)


def words(text: str) -> set[str]:
    text = re.sub(r"<[^>]*>", " ", PLACEHOLDER.sub(" ", RULE_ID.sub(" ", text)))
    return {w.lower() for w in WORD.findall(text)}


@functools.cache
def own_words(lang: str) -> frozenset[str]:
    """Every word ``lang``'s catalog uses (its translators' words), names included."""
    return frozenset(w for _msgid, string in catalog(lang) for w in words(string)) | NAME_WORDS


@functools.cache
def english_messages(lang: str) -> tuple[re.Pattern[str], ...]:
    """The English messages that ``lang`` translates (not kept as they are), as patterns of a whole text."""
    kept = {msgid for msgid, string in catalog(lang) if string == msgid}
    patterns = []
    for msgid in sorted({msgid for msgid, _string in catalog(lang)} - kept):
        text = re.sub(r"<[^>]*>", "", msgid)
        if not words(text) - NAME_WORDS:
            continue
        parts = PLACEHOLDER.split(" ".join(text.split()))
        patterns.append(re.compile(".+?".join(re.escape(p) for p in parts)))
    return tuple(patterns)


@functools.cache
def english_words(lesson: str, seed: int) -> frozenset[str]:
    """The words of every English msgid and of ``lesson`` driven in English."""
    found = {w for msgid, _string in catalog("fi") for w in words(msgid)}
    for text in drive(lesson, seed, "en"):
        found |= words(text)
    return frozenset(found - NAME_WORDS)


def english_left(texts: set[str], lang: str, english: frozenset[str]) -> dict[str, list[str]]:
    """text → why it is English (the message it is, or its English words)."""
    left: dict[str, list[str]] = {}
    ours = own_words(lang)
    for text in texts:
        bare = " ".join(RULE_ID.sub("", text).split())
        stray = sorted((words(bare) & english) - ours)
        if stray:
            left[text] = stray
        elif words(bare) - NAME_WORDS and any(p.fullmatch(bare) for p in english_messages(lang)):
            left[text] = ["the English message"]
    return left


def report(lesson: str, lang: str, left: dict[str, list[str]]) -> str:
    lines = [f"{len(left)} English texts in {lesson} ({lang}):"]
    lines += [f"  {text[:160]!r}: {', '.join(why)}" for text, why in sorted(left.items())]
    return "\n".join(lines)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lesson", sorted(APPS))
def test_no_english_on_screen_while_a_lesson_is_played(lesson, lang, seed):
    texts = drive(lesson, seed, lang)
    assert len(texts) > 10, f"{lesson}: too little on screen to judge"
    left = english_left(texts, lang, english_words(lesson, seed))
    assert not left, report(lesson, lang, left)


# -- the test's own judgement -----------------------------------------------------------------------
def test_the_reader_finds_english_in_figures_and_html_and_lets_names_and_rule_ids_pass():
    figure = {"data": [{"type": "scatter", "name": "Ann (red)", "hovertext": ["Cape Town<br>3 spaces"],
                        "hovertemplate": "%{text}<extra></extra>"}],
              "layout": {"title": {"text": "Kilpailukartta"}, "xaxis": {"title": {"text": "kierros"}},
                         "annotations": [{"text": "Imaginary player"}]}}
    output = widgets.Output()
    output.outputs = ({"output_type": "display_data", "data": {MIME: figure}, "metadata": {}},)
    texts = {" ".join(t.split()) for t in output_texts(output)}
    assert {"Ann (red)", "Cape Town", "3 spaces", "Kilpailukartta", "kierros", "Imaginary player"} <= texts
    english = frozenset({"red", "cape", "town", "spaces", "imaginary", "player"})
    left = english_left(texts | {"Ann UP-D7", "Union Pacific 3"}, "fi", english)
    assert set(left) == {"Ann (red)", "Cape Town", "3 spaces", "Imaginary player"}
    assert html_texts('<b title="starting section">Ann</b> takes') == ["starting section", "Ann", " takes", "Ann takes"]
    assert html_texts("<tr><td>Ann</td><td>Ben</td></tr>") == ["Ann", "Ben"]


def test_a_whole_english_message_is_found_even_when_its_words_are_also_the_languages_own():
    # "General" is the Spanish word too, so only the whole message gives it away
    assert english_left({"Undo my last move"}, "es", frozenset()) == {"Undo my last move": ["the English message"]}
    assert english_left({"Deshacer mi última jugada"}, "es", frozenset()) == {}


# -- whole games: the states a short random walk rarely reaches ---------------------------------------
def played_to_the_end(lesson: str, lang: str) -> set[str]:
    """Every text shown while a whole game is played: Union Pacific for two (the imaginary third player,
    UP-2P2) with the six-seat list open, Vom Kap bis Kairo for three (auction ties, the race map, the end)."""
    from tests.ui.test_ui_kk_play import play_one_move
    from tests.ui.test_ui_up_play import act as up_act
    from tests.ui.test_ui_up_play import first_legal

    i18n.set_language(lang)
    try:
        seen: set[str] = set()
        if lesson == "up_play":
            app = APPS[lesson](seed=4, players=2, game_number=3)
            app.setup.players.value = 6  # the seat list of six players
            seen |= screen_texts(app)
            for moves in range(2000):
                if app.game.is_over:
                    break
                up_act(app, first_legal(app))
                if moves % 7 == 0:
                    seen |= screen_texts(app)
        else:
            app = APPS[lesson](seed=5, players=3)
            rng = random.Random(5)
            for _move in range(400):
                if app.game.is_over:
                    break
                play_one_move(app, rng)
                seen |= screen_texts(app)
        assert app.game.is_over
        return seen | screen_texts(app)
    finally:
        i18n.set_language("en")
        language._listeners.clear()
        gc.collect()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lesson", ["up_play", "kk_play"])
def test_no_english_on_screen_in_a_whole_game(lesson, lang):
    english = english_words(lesson, 0) | {w for text in played_to_the_end(lesson, "en") for w in words(text)}
    left = english_left(played_to_the_end(lesson, lang), lang, frozenset(english - NAME_WORDS))
    assert not left, report(lesson, lang, left)
