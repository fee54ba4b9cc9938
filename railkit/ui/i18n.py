"""One translation layer for every piece of user-facing app text: gettext over railkit's catalogs.

Apps never build user-visible strings any other way::

    from railkit.ui.i18n import tr, trc, trn
    tr("Pay out")                                        # a plain label
    tr("{player} receives {amount}", player="Ann", amount=5)
    trn("{n} share", "{n} shares", n)                    # plural forms (ngettext); fills {n}
    trc("card", "Track")                                 # one English word, two meanings (pgettext)

The English text *is* the message id, so English needs no catalog. The other languages are the
gettext catalogs ``railkit/locale/<lang>/LC_MESSAGES/railkit.po`` (``make messages`` extracts the
ids; Babel compiles them when railkit is built or installed, ``make catalogs`` in a checkout; a missing
``.mo`` leaves its language in English, with a warning).
``set_language("fi")`` switches every later call; an engine's ``railkit.messages.Message`` is put
into the current language by ``render``.

A message missing from a catalog falls back to English, so a partial translation never breaks an
app. Placeholders are ``str.format`` fields; a translation must use the same names (``check_catalogue``
and tests/ui/test_i18n_catalogs.py find mistakes). ``register_catalogue`` adds in-memory messages
(tests, experiments); they win over the compiled catalog of the same language.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Mapping
from functools import cache

from railkit.locale import DOMAIN, LOCALE_DIR, catalog
from railkit.locale import format_number as locale_format_number
from railkit.messages import Message, is_seat_name, set_shown_language

DEFAULT_LANGUAGE = "en"

_catalogues: dict[str, dict[str, str]] = {DEFAULT_LANGUAGE: {}}
_language = DEFAULT_LANGUAGE


def catalog_languages() -> tuple[str, ...]:
    """The languages with a catalog in ``railkit/locale`` (``.po`` or compiled ``.mo``)."""
    found = {p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.[mp]o")}
    return tuple(sorted(found))


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The gettext catalog of ``language`` (``railkit.locale.catalog``), or no translation (English)."""
    return catalog(language) or gettext.NullTranslations()


def _current() -> gettext.NullTranslations:
    return translations(_language)


def _fill(template: str, english: str, fmt: Mapping[str, object]) -> str:
    if not fmt:
        return template
    try:
        return template.format(**fmt)
    except (KeyError, IndexError, ValueError):
        # A broken translation must not break the app: fall back to the English template.
        return english.format(**fmt)


def tr(text: str, /, **fmt: object) -> str:
    """``text`` in the current language, with ``fmt`` filled into its ``{placeholders}``.

    ``text`` is positional-only, so any placeholder name (even ``{text}``) can be filled.
    """
    registered = _catalogues.get(_language, {}).get(text)
    return _fill(registered if registered is not None else _current().gettext(text), text, fmt)


def trn(singular: str, plural: str, n: int, /, **fmt: object) -> str:
    """The form of ``singular``/``plural`` that the current language uses for ``n`` (ngettext);
    ``{n}`` is filled with ``n`` unless ``fmt`` gives it."""
    fmt.setdefault("n", n)
    english = singular if n == 1 else plural
    return _fill(_current().ngettext(singular, plural, n), english, fmt)


def trc(context: str, text: str, /, **fmt: object) -> str:
    """``text`` in the meaning ``context`` (pgettext), for one English word with two meanings."""
    return _fill(_current().pgettext(context, text), text, fmt)


def render(message: Message | str, you: str | None = None) -> str:
    """An engine's structured message (``railkit.messages.Message``) in the current language, its
    numbers formatted for it; a plain string is returned as it is (engine names, English). With ``you``
    (the learner's name), a sentence about the learner in its second-person form (``railkit.messages.addressed``)."""
    if not isinstance(message, Message):
        return str(message)
    return message.render(_current(), number=format_number, you=you)


def player_label(name: str) -> str:
    """A player's name as shown: as typed, but a seat the engine names ("Imaginary third player", UP-2P2) in
    the current language."""
    return tr(name) if is_seat_name(name) else name


# -- numbers and money ---------------------------------------------------------------------------
def format_number(value: float, places: int | None = None) -> str:
    """``value`` as the current language writes it: 1,234.5 (en), 1 234,5 (fi, hu), 1.234,5 (es)
    (``railkit.locale.format_number``)."""
    return locale_format_number(value, _language, places)


def format_money(millions: float) -> str:
    """An amount of Union Pacific money (millions, UP-D13) in words: "12 million", "12 miljoonaa"."""
    n = int(millions) if float(millions).is_integer() else 2  # a fraction takes the plural
    return trn("{amount} million", "{amount} million", n, amount=format_number(millions))


def register_catalogue(language: str, messages: Mapping[str, str]) -> None:
    """Add (or extend) the in-memory catalogue of ``language``: English text -> translated text."""
    if not language or not isinstance(language, str):
        raise ValueError("a language code such as 'fi' is required")
    _catalogues.setdefault(language, {}).update(messages)


def known_language(language: str) -> str | None:
    """``language`` as railkit knows it ('fi', also from 'fi-FI' or 'fi_FI'), or ``None``."""
    known = available_languages()
    for candidate in (language, language.replace("-", "_"), language.replace("_", "-").split("-")[0]):
        if candidate in known:
            return candidate
    return None


def set_language(language: str) -> None:
    """Switch every later ``tr``/``trn``/``trc``/``render`` call to ``language``."""
    global _language
    found = known_language(language) if isinstance(language, str) else None
    if found is None:
        known = ", ".join(available_languages())
        raise ValueError(f"no catalogue for language {language!r}; registered: {known}")
    _language = found
    # a game's notebook card (``_repr_html_``) speaks it too
    set_shown_language(None if found == DEFAULT_LANGUAGE else translations(found), format_number)


def get_language() -> str:
    return _language


def available_languages() -> tuple[str, ...]:
    return tuple(sorted(set(_catalogues) | set(catalog_languages())))


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def check_catalogue(language: str) -> list[str]:
    """Problems in a registered catalogue: translations whose placeholders differ from the English ones."""
    problems = []
    for english, translated in _catalogues.get(language, {}).items():
        if _fields(english) != _fields(translated):
            problems.append(f"{english!r}: placeholders {sorted(_fields(translated))} != {sorted(_fields(english))}")
    return problems
