"""The gettext catalogs railkit/locale/{fi,hu,es}: they compile, hold no fuzzy guesses, keep
every placeholder, translate the first slice completely, and the dividends lesson (UP-D2..UP-D11)
built in Finnish shows no English but names.
"""

from __future__ import annotations

import gettext
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import ipywidgets as widgets
import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from railkit.locale import LOCALE_DIR
from railkit.ui import i18n, language
from railkit.unionpacific import payouts

LANGUAGES = ("fi", "hu", "es")
ROOT = Path(__file__).resolve().parents[2]
# The first translated slice: the dividends lesson, the app framework, the engine's payout explanations.
SLICE = ("railkit/ui/unionpacific/dividends/", "railkit/ui/app.py", "railkit/messages.py",
         "railkit/unionpacific/payouts.py", "railkit/locale/dynamic.py", "railkit/ui/i18n.py",
         "railkit/lessons.py")  # the lesson titles and links (in dynamic.py until the next `make messages`)
# Text that stays as printed in every language: people, companies, rule IDs, numbers.
NAMES = {"You",  # the default learner is a player name; a translated default comes with the language picker
         "Ann", "Ben", "Cleo", "Dev", "Eva", "Finn", "Union Pacific", "El Paso & Rio Grande, 3/2/1 (UP-D7)",
         "Sioux Falls Royal Blue, 4/2/1 (UP-D7)", "{label}: {note} {book}",
         "English", "suomi", "magyar", "español"}  # the language picker names each language in itself


@pytest.fixture(autouse=True)
def english_again():
    yield
    i18n.set_language("en")


def catalog(lang: str):
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "railkit.po").open("rb") as f:
        return read_po(f, locale=lang)


def fields(text: str) -> set[str]:
    """``{name}`` placeholders and plotly's ``%{name}`` ones."""
    return set(re.findall(r"%?\{[^{}]*\}", text))


def in_slice(message) -> bool:
    return any(path.startswith(SLICE) for path, _ in message.locations)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_compiles_without_errors_and_the_installed_mo_is_current(lang):
    """The build compiles the .po with Babel (setup.py, ``make catalogs``); the .mo the apps read is that
    compilation of today's .po (a stale one: run ``make catalogs``)."""
    messages = catalog(lang)
    # as setup.py: Babel's %-format check misreads a {}-format message ("{floor}% or more"); the {} fields
    # are checked by test_placeholders_are_identical_in_msgid_and_msgstr
    problems = [(m.id, errors) for m, errors in messages.check() if "python-brace-format" not in m.flags]
    assert not problems, f"{lang}: the build (setup.py) stops on these"
    babel_mo = io.BytesIO()
    write_mo(babel_mo, messages)
    theirs = gettext.GNUTranslations(io.BytesIO(babel_mo.getvalue()))
    installed = LOCALE_DIR / lang / "LC_MESSAGES" / "railkit.mo"
    assert installed.is_file(), f"{installed} is missing: `make catalogs` (make venv compiles them)"
    with installed.open("rb") as f:
        ours = gettext.GNUTranslations(f)
    assert ours._catalog == theirs._catalog, f"{installed} is stale: `make catalogs`"  # type: ignore[attr-defined]
    assert i18n.translations(lang).gettext("Pay out") == messages.get("Pay out").string


def test_a_missing_catalog_speaks_english_and_says_what_to_run(tmp_path, monkeypatch, caplog):
    import railkit.locale as locale

    folder = tmp_path / "fi" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "railkit.po").write_bytes((LOCALE_DIR / "fi" / "LC_MESSAGES" / "railkit.po").read_bytes())
    monkeypatch.setattr(locale, "LOCALE_DIR", tmp_path)
    locale._warn_once.cache_clear()
    with caplog.at_level("WARNING", logger="railkit.locale"):
        assert locale.catalog("fi") is None
    assert "make catalogs" in caplog.text and "railkit.mo is missing" in caplog.text
    assert locale.cli_language("fi") == "en"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_fuzzy_entries(lang):
    fuzzy = [m.id for m in catalog(lang) if m.id and m.fuzzy]
    assert not fuzzy, f"{lang}: review these fuzzy entries and drop the flag: {fuzzy[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_are_identical_in_msgid_and_msgstr(lang):
    problems = []
    for m in catalog(lang):
        if not m.id or not m.string:
            continue
        ids = (m.id,) if isinstance(m.id, str) else m.id
        strings = (m.string,) if isinstance(m.string, str) else m.string
        for i, text in enumerate(strings):
            if text:
                english = ids[0] if i == 0 else ids[-1]
                if fields(text) != fields(english):
                    problems.append(f"{english!r} -> {text!r}")
    assert not problems, f"{lang}: placeholders differ:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_first_slice_is_completely_translated(lang):
    slice_ = [m for m in catalog(lang) if m.id and in_slice(m)]
    assert len(slice_) > 100
    untranslated = [m.id for m in slice_ if not m.string or (not isinstance(m.string, str) and not all(m.string))]
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_is_completely_translated(lang):
    """Every message of the apps and the engines is translated in every language (an empty entry would show English)."""
    slice_ = [m for m in catalog(lang) if m.id]
    assert len(slice_) > 1000
    untranslated = [m.id for m in slice_ if not m.string or (not isinstance(m.string, str) and not all(m.string))]
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"


def test_the_dividends_presets_are_messages_of_the_catalog():
    from railkit.ui.unionpacific.dividends.examples import PRESETS

    texts = {t for p in PRESETS for t in (p.label, p.note, p.decision) if t}
    ids = {m.id for m in catalog("fi")}
    assert texts <= ids, sorted(texts - ids)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tr_trn_and_render_speak_the_catalog(lang):
    cat = catalog(lang)
    i18n.set_language(lang)
    assert i18n.tr("Pay out") == cat.get("Pay out").string
    assert i18n.tr("{names} and {last}", names="Ann, Ben", last="Cleo") == \
        cat.get("{names} and {last}").string.format(names="Ann, Ben", last="Cleo")
    plural = cat.get("{amount} million").string
    assert i18n.trn("{amount} million", "{amount} million", 1, amount=1) == plural[0].format(amount=1)
    assert i18n.format_money(12) == plural[-1].format(amount=12)
    step = payouts.explain_union_pacific_payout(3, {"Ann": 3, "Ben": 3, "Cleo": 3, "Dev": 1}).steps[-1]
    assert i18n.render(step) == cat.get("Paid in total: {total}.").string.format(total="42")
    assert i18n.tr("no such message") == "no such message"  # missing: English


def test_set_language_takes_region_codes_and_the_page_address_or_environment():
    i18n.set_language("fi_FI")
    assert i18n.get_language() == "fi"
    assert language.requested_language("lang=hu&name=Kim", {}) == "hu"
    assert language.requested_language("", {"RAILKIT_LANG": "es-ES"}) == "es"
    assert language.requested_language("lang=xx", {"RAILKIT_LANG": "fi"}) == "fi"  # unknown: skipped
    assert language.requested_language("lang=" + "x" * 500, {}) == "en"


def test_switch_language_tells_listeners_and_the_picker_switches():
    heard = []
    language.on_language_change(heard.append)
    picker = language.language_picker()
    assert {"suomi", "magyar", "español", "English"} <= {label for label, _ in picker.options}
    picker.value = "hu"
    assert i18n.get_language() == "hu" and heard[-1] == "hu"
    language.switch_language("hu")  # no change: nobody is told again
    assert heard.count("hu") == 1


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_numbers_follow_babel_without_babel_at_run_time(lang):
    i18n.set_language(lang)
    for value in (7, 1234, 1234567, -2.5, 0.125, 98765.4):
        assert i18n.format_number(value) == format_decimal(value, locale=lang)
    assert i18n.format_number(7 / 3, places=2) == format_decimal(7 / 3, format="#,##0.00", locale=lang)
    table = json.loads((LOCALE_DIR / "numbers.json").read_text(encoding="utf-8"))
    assert set(table) == {"en", *LANGUAGES}


# -- the dividends lesson in Finnish ---------------------------------------------------------
class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.parts.append(data.strip())


def widget_texts(widget: widgets.Widget) -> list[str]:
    """Every piece of text a learner can read in a widget tree (HTML as its text nodes)."""
    texts: list[str] = []
    for name in ("description", "tooltip", "placeholder"):
        texts.append(getattr(widget, name, "") or "")
    if isinstance(widget, widgets.HTML | widgets.Label | widgets.HTMLMath):
        parser = _Text()
        parser.feed(widget.value)
        texts += parser.parts
    for label in getattr(widget, "_options_labels", ()):
        texts.append(label)
    for name in ("tooltips",):
        texts += list(getattr(widget, name, ()) or ())
    if isinstance(widget, widgets.Tab):
        texts += [widget.get_title(i) for i in range(len(widget.children))]
    for child in getattr(widget, "children", ()):
        texts += widget_texts(child)
    return [t for t in texts if t and re.search(r"[A-Za-z]{2,}", t) and not t.lstrip().startswith((".", "@", "<"))]


def build_dividends(lang: str):
    from railkit.ui.unionpacific.dividends import DividendsApp

    i18n.set_language(lang)
    app = DividendsApp(seed=3)
    app.on_deal()  # the quiz's situation text too
    return app


def test_the_dividends_lesson_in_finnish_has_no_english_left_but_names():
    english = set(widget_texts(build_dividends("en").widget))
    finnish = widget_texts(build_dividends("fi").widget)
    left = sorted({t for t in finnish if t in english and t not in NAMES and not re.fullmatch(r"[\W\dA-Z-]*", t)})
    assert not left, f"English left in the Finnish dividends lesson: {left}"
    assert "Maksa osingot" in finnish and "Laskin" in finnish


def test_payout_explanations_render_in_finnish_without_english_words():
    i18n.set_language("fi")
    for explanation in (payouts.explain_company_payout(7, {"Ann": 3, "Ben": 3, "Cleo": 3, "Dev": 1}),
                        payouts.explain_company_payout(5, {"Ann": 4, "Ben": 2, "Cleo": 2, "Dev": 0}),
                        payouts.explain_union_pacific_payout(2, {"Ann": 4, "Ben": 2, "Cleo": 2, "Dev": 2}),
                        payouts.explain_union_pacific_payout(4, dict.fromkeys("ABCDEFG", 1))):
        for message in (explanation.title, *explanation.steps):
            text = i18n.render(message)
            english_words = set(re.findall(r"\b(?:the|and|receives?|shares?|each|holds?|position)\b", text))
            assert not english_words, text


def test_the_extractor_finds_calls_inside_f_strings_with_plurals_and_contexts():
    from babel.messages.extract import extract

    source = (b'x = f"<b>{tr(\'Quiz\')}</b>"\n'
              b'y = trn("{n} share", "{n} shares", n)\n'
              b'z = trc("card", "Track")\n'
              b'w = tr(label)\n')
    keywords = {"tr": None, "trn": (1, 2), "trc": ((1, "c"), 2)}
    found = [(m[1], m[3]) for m in extract("railkit.locale.extract:extract_python", io.BytesIO(source),
                                           keywords=keywords)]
    assert found == [("Quiz", None), (("{n} share", "{n} shares"), None), ("Track", "card")]
