"""Every lesson app in every language: built headless, no English left in its
widgets but names and rule IDs; the language picker switches an app in place; ``?lang=`` is read safely.

Each app is built once in English and once in each language with the same seed; a text that is the same in
both is English left over, unless it is a name (companies, cities, players, languages) or has no words."""

from __future__ import annotations

import functools
import gc
import re

import pytest
from babel.messages.pofile import read_po

from railkit.lessons import LESSONS
from railkit.locale import LOCALE_DIR
from railkit.ui import i18n, language
from railkit.ui.index import IndexApp
from railkit.ui.teacher.page import TeacherApp
from railkit.ui.unionpacific.dividends import DividendsApp
from railkit.ui.unionpacific.play import PlayApp
from railkit.ui.unionpacific.setup import SetupApp
from railkit.unionpacific.board import load_board
from tests.ui.test_i18n_catalogs import widget_texts

LANGUAGES = ("fi", "hu", "es")
# The seed and players each lesson app of railkit/lessons.py is built with (not named here: seed=3 alone).
SETTINGS = {"up_play": {"seed": 3, "players": 3, "game_number": 2}, "kk_auction": {"seed": 3, "players": 3},
            "kk_play": {"seed": 3, "players": 3}}


def teacher_with_a_class() -> TeacherApp:
    """The teacher's page showing a learner, an exercise and a stalled table (no server needed)."""
    app = TeacherApp()
    app.data = {"learners": [{"learner": "Ann", "started": ["up_setup"], "finished": [], "answers": 2, "first_tries": 2,
                              "first_try_right": 1, "wrong_rules": [["UP-S7", 1]], "last_seen": None}],
                "exercises": [{"lesson": "up_setup", "exercise": "bottom", "learners": 1, "answers": 2,
                               "first_tries": 2, "first_try_right": 1, "rules": ["UP-S7"], "rate": 0.5}],
                "tables": [{"table": "ABC234", "game": "cape_to_cairo", "moves": 3, "is_over": False,
                            "seats": [{"seat": "Ann", "holder": "human"}, {"seat": "Ben", "holder": "open"}],
                            "to_move": ["Ben"], "waiting_seconds": 40, "last_change": None, "stalled": True}]}
    app.loaded = True
    app.refresh()
    return app


APPS = {"index": lambda: IndexApp(), "teacher": teacher_with_a_class,
        **{x.id: (lambda x=x: x.load()(**SETTINGS.get(x.id, {"seed": 3}))) for x in LESSONS}}
# Words every language prints as they are: the games', companies', cities' and languages' names, the
# computer players' names, units and abbreviations.
_BOARD = load_board()
NAMES = ({"English", "suomi", "magyar", "español", "Union Pacific", "Vom Kap bis Kairo", "railkit", "UP", "KK",
          "Ann", "Ben", "Cleo", "Dev", "Eva", "Finn", "ABC234", "cape_to_cairo", "bottom"}
         | {c.name for c in _BOARD.companies} | {c.key for c in _BOARD.companies} | {c.name for c in _BOARD.cities.values()})


NAMES_LONGEST_FIRST = sorted(NAMES, key=len, reverse=True)  # a long name goes whole before a shorter one inside it


def is_name_or_code(text: str) -> bool:
    """A text with no word of its own: names, rule IDs (UP-D3), numbers, symbols, “Name: 3”."""
    rest = text
    for name in NAMES_LONGEST_FIRST:
        rest = rest.replace(name, " ")
    rest = re.sub(r"\b(UP|KK)-[A-Z0-9]+(-[A-Z]+)?\b|\$|\bM\b|\bx\b", " ", rest)
    return not re.search(r"[A-Za-z]{2,}", rest)


@functools.cache  # read once per language: the catalogs do not change while the tests run
def same_in(lang: str) -> frozenset[str]:
    """The messages the translators kept as they are (Spanish “General”, “No”)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "railkit.po"
    with path.open("rb") as f:
        return frozenset(m.id for m in read_po(f) if isinstance(m.id, str) and m.id and m.string == m.id)


def english_left(app_key: str, lang: str) -> list[str]:
    i18n.set_language("en")
    app = APPS[app_key]()
    english = set(widget_texts(app.widget))  # the engines' sentences included: they are Messages now
    i18n.set_language(lang)
    built = widget_texts(APPS[app_key]().widget)
    i18n.set_language("en")
    kept = same_in(lang)
    return sorted({t for t in built if t in english and t not in kept and not is_name_or_code(t)})


@pytest.fixture(autouse=True)
def english_again():
    yield
    i18n.set_language("en")
    language._listeners.clear()  # the apps built here stop listening
    gc.collect()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("app_key", sorted(APPS))
def test_every_app_speaks_the_language_with_no_english_left(app_key, lang):
    left = english_left(app_key, lang)
    assert not left, f"English left in {app_key} ({lang}): {left}"


def test_the_picker_switches_a_built_app_in_place_keeping_its_game():
    app = PlayApp(seed=5, players=3, game_number=4)
    shell, session, moves = app.widget, app.session, len(app.game.log)
    seen = {}
    for lang in ("fi", "hu", "en"):
        language.switch_language(lang)
        assert app.widget is shell and app.session is session and len(app.game.log) == moves
        seen[lang] = widget_texts(app.widget)
    assert "Union Pacific: play a game" in seen["en"] and "Undo my last move" in seen["en"]
    assert "Union Pacific: pelaa peli" in seen["fi"] and "Union Pacific: játssz egy játszmát" in seen["hu"]


def calculator_fields(widget) -> list:
    """The dividends calculator's typed fields (company value, shares per player), in page order."""
    found = []
    if type(widget).__name__ == "Text" and {"railkit-value", "railkit-share"} & set(widget._dom_classes):
        found.append(widget)
    for child in getattr(widget, "children", ()):
        found += calculator_fields(child)
    return found


def test_the_header_picker_itself_switches_and_typed_values_stay():
    app = DividendsApp(seed=2)
    picker = app.widget.children[1].children[1]
    fields = calculator_fields(app.widget)
    assert len(fields) == 7, [f.description for f in fields]  # the company's value and six players' shares
    typed = ["9", "5", "0", "4", "1", "2", "7"]
    assert typed != [f.value for f in fields]  # the typing changes every field that it can
    for field, value in zip(fields, typed, strict=True):
        field.value = value
    picker.value = "es"
    assert i18n.get_language() == "es" and "Dividendos de Union Pacific" in widget_texts(app.widget)
    assert app.widget.children[1].children[1].value == "es"  # the new header's picker shows the choice
    after = calculator_fields(app.widget)
    assert [f.value for f in after] == typed  # what the learner typed is still there, in Spanish
    assert after[0].description == "Valor de la empresa"


@pytest.mark.parametrize("query, expected", [
    ("lang=fi", "fi"), ("?lang=hu&name=Kim", "hu"), ("lang=es-ES", "es"), ("lang=FI", "en"),
    ("lang=xx", "en"), ("lang=", "en"), ("lang=fi&lang=<script>", "en"), ("lang=" + "f" * 5000, "en"),
    ("&".join(f"a{i}=1" for i in range(50)) + "&lang=fi", "en"), ("lang=%00fi", "en"), ("lang=../fi", "en"),
    ("lang=fi\nhu", "en"), ("lang=%E2%80%AEfi", "en"), ("%%%", "en"),
])
def test_the_page_language_is_read_safely_from_hostile_addresses(query, expected):
    assert language.requested_language(query, environ={}) == expected


def test_the_environment_sets_the_language_and_the_address_wins():
    assert language.requested_language("", environ={"RAILKIT_LANG": "hu"}) == "hu"
    assert language.requested_language("lang=es", environ={"RAILKIT_LANG": "hu"}) == "es"
    assert language.asked_language("", environ={}) is None


def test_an_app_built_without_a_page_language_keeps_the_one_in_use(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.delenv("RAILKIT_LANG", raising=False)
    i18n.set_language("hu")
    app = SetupApp(seed=1)
    assert i18n.get_language() == "hu" and "Union Pacific: előkészületek" in widget_texts(app.widget)
    monkeypatch.setenv("QUERY_STRING", "lang=fi")
    app = SetupApp(seed=1)
    assert i18n.get_language() == "fi" and "Union Pacific: pelin valmistelu" in widget_texts(app.widget)


def test_the_default_learner_is_you_in_the_language_of_the_start():
    i18n.set_language("fi")
    app = PlayApp(seed=1, players=3, game_number=2)
    assert "Sinä" in app.game.players


def test_the_index_links_carry_the_language_it_speaks():
    app = IndexApp()
    assert "lang=" not in app.links.value
    language.switch_language("fi")
    assert "up_play.ipynb?lang=fi" in app.links.value and "UP: Pelaa peli" in app.links.value
    app.name.value = "Kim"
    assert "up_play.ipynb?name=Kim&amp;lang=fi" in app.links.value
