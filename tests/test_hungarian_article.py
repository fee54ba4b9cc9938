"""Hungarian's definite article, chosen by the word or number that follows (railkit/locale/hungarian.py)."""

from __future__ import annotations

import pytest

from railkit.locale import catalog
from railkit.locale.hungarian import ArticleTemplate, article


@pytest.mark.parametrize(("number", "expected"), [
    (0, "a"), (1, "az"), (2, "a"), (3, "a"), (5, "az"), (6, "a"), (10, "a"), (11, "a"), (15, "a"),
    (20, "a"), (50, "az"), (55, "az"), (100, "a"), (150, "a"), (500, "az"), (1000, "az"), (1500, "az"),
    (2000, "a"), (5000, "az"), (11000, "a"), (50000, "az"), (100000, "a"), (1000000, "az"),
    (2000000, "a"),
])
def test_numbers_take_the_article_of_their_first_spoken_word(number: int, expected: str) -> None:
    assert article(str(number)) == expected
    assert article(f"{number}.") == expected  # the ordinal: első, ötödik, második


def test_grouped_numbers_are_read_whole() -> None:
    assert article("1\u00a0500") == "az"  # ezerötszáz
    assert article("2\u00a0000") == "a"  # kétezer
    assert article("£50") == "az"


@pytest.mark.parametrize(("word", "expected"), [
    ("Ann", "az"), ("Bob", "a"), ("El Paso & Rio Grande", "az"), ("Denver Midland", "a"),
    ("Omaha", "az"), ("Union Pacific", "a"), ("Ütős", "az"), ("sivatag", "a"), ("„Építés”", "az"),
    ("UP", "az"), ("UP-B2e", "az"), ("KK-A5", "a"), ("BNL", "a"), ("SFRB", "az"), ("EP&RG", "az"),
    ("(Ann)", "az"), ("", "a"),
])
def test_words_and_abbreviations_take_the_article_of_their_first_sound(word: str, expected: str) -> None:
    assert article(word) == expected


def test_a_template_writes_the_article_the_filled_word_needs() -> None:
    template = ArticleTemplate("A {company} mozdonya visszakerült a dobozba; a {n}. hely a {who} jár.")
    assert template.format(company="El Paso & Rio Grande", n=1, who="Bob") == (
        "Az El Paso & Rio Grande mozdonya visszakerült a dobozba; az 1. hely a Bob jár.")
    assert template.format(company="Denver Midland", n=2, who="Ann") == (
        "A Denver Midland mozdonya visszakerült a dobozba; a 2. hely az Ann jár.")
    assert ArticleTemplate("az {x} és {y}").format_map({"x": "Bob", "y": "Ann"}) == "a Bob és Ann"


def test_text_without_an_article_before_a_placeholder_is_plain_format() -> None:
    assert ArticleTemplate("{a} és {b}").format(a="x", b="y") == "x és y"
    assert ArticleTemplate("haza {x}").format(x="Ann") == "haza Ann"  # "a" inside a word is no article
    with pytest.raises(KeyError):
        ArticleTemplate("a {missing}").format(other=1)


def test_the_hungarian_catalog_gives_article_templates() -> None:
    hungarian = catalog("hu")
    assert hungarian is not None
    assert isinstance(hungarian.gettext("Mountains"), ArticleTemplate)
    assert isinstance(hungarian.ngettext("{n} terrain", "{n} terrains", 2), ArticleTemplate)
    finnish = catalog("fi")
    assert finnish is not None and not isinstance(finnish.gettext("Mountains"), ArticleTemplate)


def test_a_message_missing_from_the_catalog_stays_english() -> None:
    hungarian = catalog("hu")
    assert hungarian is not None
    english = "a {kind} card that no catalog has"
    assert hungarian.gettext(english).format(kind="old") == "a old card that no catalog has"
    plural = "a {kind} cards that no catalog has"
    assert hungarian.ngettext(english, plural, 2).format(kind="old") == "a old cards that no catalog has"
