"""One translation function for every piece of user-facing app text.

Apps never build user-visible strings any other way::

    from railkit.ui.i18n import tr
    tr("Pay out")                                  # a plain label
    tr("{player} receives {amount}", player="Ann", amount=5)

The English text *is* the message key, so the English catalogue is the identity and needs no
file. Adding a language later (Finnish, Hungarian, Spanish, ...) is one call, made before the
apps are built, and touches no app::

    register_catalogue("fi", {"Pay out": "Maksa osingot", "{player} receives {amount}": "..."})
    set_language("fi")

A key missing from the active catalogue falls back to English, so a partial translation never
breaks an app. Placeholders are ``str.format`` fields; the translated template must use the same
names (``check_catalogue`` finds mistakes).
"""

from __future__ import annotations

import string
from collections.abc import Mapping

DEFAULT_LANGUAGE = "en"

_catalogues: dict[str, dict[str, str]] = {DEFAULT_LANGUAGE: {}}
_language = DEFAULT_LANGUAGE


def tr(text: str, /, **fmt: object) -> str:
    """``text`` in the current language, with ``fmt`` filled into its ``{placeholders}``.

    ``text`` is positional-only, so any placeholder name (even ``{text}``) can be filled.
    """
    template = _catalogues.get(_language, {}).get(text, text)
    if not fmt:
        return template
    try:
        return template.format(**fmt)
    except (KeyError, IndexError, ValueError):
        # A broken translation must not break the app: fall back to the English template.
        return text.format(**fmt)


def register_catalogue(language: str, messages: Mapping[str, str]) -> None:
    """Add (or extend) the catalogue of ``language``: English text -> translated text."""
    if not language or not isinstance(language, str):
        raise ValueError("a language code such as 'fi' is required")
    _catalogues.setdefault(language, {}).update(messages)


def set_language(language: str) -> None:
    """Switch every later ``tr`` call to ``language`` (registered first; 'en' always exists)."""
    global _language
    if language not in _catalogues:
        known = ", ".join(sorted(_catalogues))
        raise ValueError(f"no catalogue for language {language!r}; registered: {known}")
    _language = language


def get_language() -> str:
    return _language


def available_languages() -> tuple[str, ...]:
    return tuple(sorted(_catalogues))


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def check_catalogue(language: str) -> list[str]:
    """Problems in a catalogue: translations whose placeholders differ from the English ones."""
    problems = []
    for english, translated in _catalogues.get(language, {}).items():
        if _fields(english) != _fields(translated):
            problems.append(f"{english!r}: placeholders {sorted(_fields(translated))} != {sorted(_fields(english))}")
    return problems
