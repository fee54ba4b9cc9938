"""railkit's message catalogs: ``<lang>/LC_MESSAGES/railkit.po`` (the source, kept in git) and the
template ``railkit.pot`` (written by ``make messages``).

The ``.mo`` files gettext reads are not kept in git: Babel compiles them at build time, for a wheel and
for an editable install alike (``setup.py``: ``make venv``, Binder, the static site's wheel), and ``make
catalogs`` (or ``make venv``) recompiles a checkout's after a ``.po`` changed. Nothing compiles at run time:
a language whose ``.mo`` is missing speaks English, with a warning in the log saying what to run.
"""

from __future__ import annotations

import gettext
import json
import logging
import os
from functools import cache
from pathlib import Path

from railkit.locale.hungarian import ArticleTranslations

DOMAIN = "railkit"
log = logging.getLogger("railkit.locale")
LOCALE_DIR = Path(__file__).resolve().parent
IN_CHECKOUT = (LOCALE_DIR.parents[1] / "pyproject.toml").is_file()


def catalog(language: str) -> gettext.GNUTranslations | None:
    """The compiled catalog of ``language`` (its ``.mo``); ``None`` when railkit has no such catalog, or
    its ``.mo`` was never compiled (logged once: the caller falls back to English)."""
    if not language.isalpha():  # a language code names a folder: never a path
        return None
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if not mo.is_file():
        if po.is_file():
            _warn_once(language, f"railkit: {mo} is missing, so {language!r} shows English: compile the "
                                 "catalogs with `make catalogs` (or reinstall railkit, whose build compiles them)")
        return None
    # Only a checkout's .po is edited in place; an installed wheel's file times are the archive's, not an edit's.
    if IN_CHECKOUT and po.is_file() and mo.stat().st_mtime < po.stat().st_mtime:
        _warn_once(language, f"railkit: {mo} is older than its .po: run `make catalogs` to see the latest translations")
    with mo.open("rb") as f:
        if language == "hu":  # "a" or "az" by the word filled in after it (railkit/locale/hungarian.py)
            return ArticleTranslations(f)
        return gettext.GNUTranslations(f)


@cache
def _warn_once(language: str, text: str) -> None:
    log.warning(text)


def cli_language(language: str | None = None) -> str:
    """The language a command-line tool speaks: ``language``, else ``RAILKIT_LANG`` ('fi', 'hu-HU',
    'es_ES'), as a code such as ``fi``; ``en`` when neither names a language railkit has."""
    wanted = (language if language is not None else os.environ.get("RAILKIT_LANG", "")).strip()
    code = wanted.replace("-", "_").split("_")[0].lower()
    if not code.isalpha() or len(code) > 3 or catalog(code) is None:
        return "en"
    return code


def cli_translations(language: str | None = None) -> gettext.NullTranslations | None:
    """The catalog a command-line tool speaks (``cli_language``); ``None`` for English."""
    code = cli_language(language)
    return None if code == "en" else catalog(code)


@cache
def number_symbols() -> dict[str, dict[str, str]]:
    """Decimal sign, group separator and minus sign per language, taken from Babel's CLDR data by
    ``railkit/locale/number_table.py`` (``make messages``), so nothing needs Babel at run time."""
    return json.loads((LOCALE_DIR / "numbers.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def format_number(value: float, language: str, places: int | None = None) -> str:
    """``value`` as ``language`` writes it: 1,234.5 (en), 1 234,5 (fi, hu), 1.234,5 (es).

    ``places`` fixes the decimals ("2.50"); without it a whole number has none and a fraction at
    most three, as Babel's ``format_decimal`` does."""
    if places is not None:
        text = f"{value:,.{places}f}"
    elif isinstance(value, int) or float(value).is_integer():
        text = f"{int(value):,}"
    else:
        text = f"{value:,.3f}".rstrip("0").rstrip(".")
    symbols = number_symbols().get(language.split("-")[0].split("_")[0]) or number_symbols()["en"]
    swap = {",": symbols["group"], ".": symbols["decimal"], "-": symbols["minus"]}
    return "".join(swap.get(ch, ch) for ch in text)
