"""Hungarian's definite article: "a" before a consonant sound, "az" before a vowel sound.

A Hungarian message writes the article it needs before a placeholder ("a {company} mozdonya"); the
Hungarian catalog (``railkit.locale.catalog``) hands out its texts as ``ArticleTemplate``, whose
``format`` picks "a" or "az" for the word actually filled in (az El Paso & Rio Grande, a Denver, az 1.,
a 2., az 5, az 50). So no message needs the "a(z)" a reader stumbles over.

The choice follows how the word is read, not how it is spelled: a number by its first spoken word (egy,
öt, ötven, ezer start with a vowel), an abbreviation by its first letter's name (ef, el, em, en, er, es,
iksz: az SFRB, az UP, a BNL), "Union" as the English word (a Union Pacific, as the rulebook writes).
"""

from __future__ import annotations

import gettext
import re
from typing import Any

VOWELS = frozenset("aáeéiíoóöőuúüűAÁEÉIÍOÓÖŐUÚÜŰ")
# Letters whose Hungarian name starts with a vowel (ef, el, em, en, er, es, iksz, ipszilon; the vowels).
VOWEL_LETTER_NAMES = frozenset("AÁEÉIÍOÓÖŐUÚÜŰFLMNRSXY")
# English words a Hungarian reader says with a consonant first although they are spelled with a vowel.
CONSONANT_SOUND_WORDS = ("union", "uni", "euro", "one")
_NUMBER = re.compile(r"\d{1,3}(?:[\u00a0\u202f ]\d{3})+(?!\d)|\d+")
_LEADING_JUNK = re.compile(r"^[\s\"'„”“«»‘’(\[{£$€#*_-]+")
_WORD = re.compile(r"[^\W\d_]+")


def article(word: str) -> str:
    """``"az"`` when ``word`` (or number) is read with a vowel first, else ``"a"``."""
    text = _LEADING_JUNK.sub("", str(word))
    if not text:
        return "a"
    number = _NUMBER.match(text)
    if number:
        return "az" if _number_starts_with_vowel(int(re.sub(r"\D", "", number.group()))) else "a"
    match = _WORD.match(text)
    if not match:
        return "a"
    token = match.group()
    if _is_abbreviation(token, text[len(token):]):
        return "az" if token[0] in VOWEL_LETTER_NAMES else "a"
    lowered = token.lower()
    if any(lowered == w or (lowered.startswith(w) and w == "uni") for w in CONSONANT_SOUND_WORDS):
        return "a"
    return "az" if token[0] in VOWELS else "a"


def _is_abbreviation(token: str, rest: str) -> bool:
    """An all-capitals token read letter by letter (UP, BNL, EP&RG, KK-A5); a single capital only when no
    lowercase letter follows (a name such as "Ann" is a word)."""
    if not token.isupper():
        return False
    return len(token) > 1 or not rest[:1].isalpha()


def _number_starts_with_vowel(n: int) -> bool:
    """Whether ``n`` (or the ordinal ``n.``) is read with a vowel first: its leading group of three
    digits is 1 (egy, ezer, egymillió), or its first digit is 5 (öt, ötven, ötszáz, ötezer)."""
    if n == 0:
        return False  # nulla
    digits = str(n)
    leading_group = int(digits[: (len(digits) - 1) % 3 + 1])
    return leading_group == 1 or digits[0] == "5"


# "a {name}" / "az {name}" / "A {name}" / "Az {name}": an article right before a placeholder.
_ARTICLE_BEFORE_FIELD = re.compile(r"(?<![^\W\d_])([Aa]z?) \{([A-Za-z_]\w*)((?:[.\[][^}:!]*)?(?:![rsa])?(?::[^}]*)?)\}")


class ArticleTemplate(str):
    """A Hungarian message template whose ``format`` writes "a" or "az" before each placeholder that has
    an article in front, by the value filled in; any other text is formatted as ``str.format`` does."""

    __slots__ = ()

    def format(self, *args: Any, **kwargs: Any) -> str:
        return _with_articles(str(self), kwargs).format(*args, **kwargs)

    def format_map(self, mapping: Any) -> str:
        return _with_articles(str(self), mapping).format_map(mapping)


def _with_articles(template: str, values: Any) -> str:
    def choose(match: re.Match[str]) -> str:
        written, name, rest = match.group(1), match.group(2), match.group(3)
        try:
            value = values[name]
        except (KeyError, TypeError):
            return match.group()  # let str.format report the missing field as it would
        chosen = article(format(value, rest.lstrip(":")) if rest.startswith(":") else str(value))
        if written[0] == "A":
            chosen = chosen.capitalize()
        return f"{chosen} {{{name}{rest}}}"

    if "{" not in template:
        return template
    return _ARTICLE_BEFORE_FIELD.sub(choose, template)


class ArticleTranslations(gettext.GNUTranslations):
    """The Hungarian catalog: every text it translates is an ``ArticleTemplate``; a message it lacks falls
    back to the English text as it is (its "a {name}" is English, not an article to choose)."""

    def gettext(self, message: str) -> str:
        return _wrap(super().gettext(message), message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _wrap(super().ngettext(msgid1, msgid2, n), msgid1, msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return _wrap(super().pgettext(context, message), message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return _wrap(super().npgettext(context, msgid1, msgid2, n), msgid1, msgid2)


def _wrap(text: str, *english: str) -> str:
    return text if text in english else ArticleTemplate(text)
