"""railkit's message catalogs: ``<lang>/LC_MESSAGES/railkit.po`` (the source, kept in git) and the
template ``railkit.pot`` (written by ``make messages``).

The ``.mo`` files gettext reads are not kept in git: the wheel build compiles them (``setup.py``),
``make catalogs`` compiles them in a checkout, and ``railkit.ui.i18n`` compiles a ``.po`` in memory
when its ``.mo`` is missing or older (an editable install from a fresh clone needs no build step).
``mofile`` does the compiling with the standard library only, so neither the build nor the apps need
Babel; Babel is the developers' tool for extracting and updating the catalogs.
"""

from __future__ import annotations

import gettext
import io
import json
import os
from functools import cache
from pathlib import Path

DOMAIN = "railkit"
LOCALE_DIR = Path(__file__).resolve().parent


def catalog(language: str) -> gettext.GNUTranslations | None:
    """The compiled catalog of ``language``: its ``.mo``, or its ``.po`` compiled in memory when the
    ``.mo`` is missing or older (a fresh checkout); ``None`` when railkit has no such catalog."""
    if not language.isalpha():  # a language code names a folder: never a path
        return None
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    if po.is_file():
        from railkit.locale.mofile import mo_bytes, read_po

        return gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(po.read_text(encoding="utf-8")))))
    return None


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
