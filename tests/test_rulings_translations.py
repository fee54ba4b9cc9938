"""The rulings page in the rulebooks' languages: docs/rulings.<lang>.md, packaged beside the
English page, shown by the rulings lesson in the learner's language, and unable to drift silently."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from railkit.ui import docs, i18n

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = ROOT / "docs" / "rulings.md"
LANGUAGES = ("fi", "hu", "es")
RULE_ID = re.compile(r"\b(?:UP|KK)-[A-Z0-9][A-Za-z0-9]*")
CODE = re.compile(r"`[^`]+`")


def translation(language: str) -> str:
    return (ROOT / "docs" / f"rulings.{language}.md").read_text(encoding="utf-8")


def code_names(text: str) -> set[str]:
    """Every `code` span, white space folded (a span may break across lines)."""
    return {" ".join(span.split()) for span in CODE.findall(text)}


def shape(text: str) -> list[str]:
    """The page's skeleton: heading levels and bullet markers, in order."""
    return [line.split(" ", 1)[0] for line in text.splitlines() if re.match(r"(#+|-) ", line)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_translation_names_the_english_page_it_was_made_from(language):
    made_from = docs.translated_from(translation(language))
    assert made_from == hashlib.sha256(ENGLISH.read_bytes()).hexdigest(), (
        f"docs/rulings.md changed since docs/rulings.{language}.md was translated: bring the translation up to "
        "date, then put the new sha256 of docs/rulings.md in its first line")


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_translation_is_packaged(language):
    packaged = ROOT / "railkit" / "data" / f"rulings.{language}.md"
    assert packaged.read_text(encoding="utf-8") == translation(language), \
        f"copy docs/rulings.{language}.md to railkit/data/rulings.{language}.md"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_translation_keeps_every_heading_item_rule_id_and_code_name(language):
    english, translated = ENGLISH.read_text(encoding="utf-8"), translation(language)
    assert shape(translated) == shape(english)
    assert set(RULE_ID.findall(english)) <= set(RULE_ID.findall(translated))
    missing = code_names(english) - code_names(translated)
    assert not missing, f"code names changed or lost in rulings.{language}.md: {sorted(missing)[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rulings_lesson_shows_the_page_in_the_learners_language(language):
    try:
        i18n.set_language(language)
        shown = docs.rulings_markdown().data
    finally:
        i18n.set_language("en")
    assert shown == docs.rulings_path(language).read_text(encoding="utf-8")
    assert shown != ENGLISH.read_text(encoding="utf-8")


def test_a_stale_translation_gives_the_english_page_with_a_note(tmp_path, monkeypatch):
    (tmp_path / "rulings.md").write_text("# Rulings\n\n- UP-D5 example\n", encoding="utf-8")
    (tmp_path / "rulings.fi.md").write_text(f"<!-- translated from docs/rulings.md sha256 {'0' * 64} -->\n\n"
                                            "# Päätökset\n", encoding="utf-8")
    monkeypatch.setattr(docs, "RULINGS", tmp_path / "rulings.md")
    try:
        i18n.set_language("fi")
        shown = docs.rulings_markdown().data
        note = i18n.tr("This page is not yet translated into your language; here it is in English.")
    finally:
        i18n.set_language("en")
    assert "Päätökset" not in shown and shown.endswith("# Rulings\n\n- UP-D5 example\n")
    assert note in shown and note != "This page is not yet translated into your language; here it is in English."


def test_english_is_the_page_itself():
    assert docs.rulings_markdown().data == ENGLISH.read_text(encoding="utf-8")


@pytest.mark.parametrize("language", (*LANGUAGES, "en"))
def test_no_wrapped_line_starts_a_numbered_list_by_accident(language):
    """Markdown reads "  2. payout" at a line's start inside a bullet as a new numbered list."""
    text = ENGLISH.read_text(encoding="utf-8") if language == "en" else translation(language)
    assert not [line for line in text.splitlines() if re.match(r"\s+\d+\. ", line)]
