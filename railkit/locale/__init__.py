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
import os
from pathlib import Path

DOMAIN = "railkit"
LOCALE_DIR = Path(__file__).resolve().parent


def cli_translations(language: str | None = None) -> gettext.NullTranslations | None:
    """The catalog a command-line tool speaks: ``language``, else ``RAILKIT_LANG`` ('fi', 'hu-HU', 'es_ES');
    ``None`` (English) when neither names a language railkit has. Reads the ``.po`` (or a newer ``.mo``)."""
    wanted = (language if language is not None else os.environ.get("RAILKIT_LANG", "")).strip()
    code = wanted.replace("-", "_").split("_")[0].lower()
    if not code.isalpha() or len(code) > 3:
        return None
    folder = LOCALE_DIR / code / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    if po.is_file():
        from railkit.locale.mofile import mo_bytes, read_po

        return gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(po.read_text(encoding="utf-8")))))
    return None
