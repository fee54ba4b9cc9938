"""A ``.po`` catalog compiled in memory the way the build compiles it (Babel: ``pybabel compile``,
setup.py), for tests that read a catalog's source rather than the installed ``.mo``."""

from __future__ import annotations

import gettext
import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po


def read(po: Path) -> Catalog:
    with po.open("rb") as f:
        return read_po(f, locale=po.parent.parent.name)


def translations(catalog: Catalog) -> gettext.GNUTranslations:
    """``catalog`` as gettext reads it once compiled (fuzzy and untranslated entries left out)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return gettext.GNUTranslations(io.BytesIO(buffer.getvalue()))


def compiled(po: Path) -> gettext.GNUTranslations:
    return translations(read(po))


def header(catalog: Catalog, name: str) -> str:
    """A header line's value, as written in the ``.po`` (``Plural-Forms``)."""
    return next(value for key, value in catalog.mime_headers if key == name)


def translated(message) -> bool:  # noqa: ANN001 - a babel Message
    strings = (message.string,) if isinstance(message.string, str) else message.string
    return bool(message.id) and all(strings)


def gettext_key(message) -> str:  # noqa: ANN001
    """The key gettext looks a message up by: the msgid, plural forms joined by NUL."""
    return message.id if isinstance(message.id, str) else "\0".join(message.id)
