"""Project documents shown inside the apps (Voila serves notebooks, not markdown files)."""

from __future__ import annotations

import hashlib
import html
import re
from pathlib import Path
from typing import Any

from IPython.display import Markdown

from railkit.paths import data_dir
from railkit.ui.i18n import get_language, tr

# The packaged copy (``railkit/data/rulings.md``, kept identical to ``docs/rulings.md`` by a test), so
# an installed wheel shows the page too. Translations sit beside it as ``rulings.<lang>.md``;
# each names, in its first line, the sha256 of the English page it was translated from.
RULINGS = data_dir() / "rulings.md"
SOURCE_LINE = re.compile(r"<!-- translated from docs/rulings\.md sha256 ([0-9a-f]{64}) -->")


def rulings_path(language: str) -> Path:
    """The rulings page in ``language`` (``rulings.<lang>.md``), or the English one."""
    return RULINGS if language in ("", "en") else RULINGS.with_name(f"rulings.{language}.md")


def translated_from(text: str) -> str | None:
    """The sha256 of the English page a translation says it was made from (its first line), if any."""
    found = SOURCE_LINE.match(text)
    return found.group(1) if found else None


def english_sha256() -> str:
    return hashlib.sha256(RULINGS.read_bytes()).hexdigest()


def rulings_markdown() -> Markdown:
    """The rulings page in the current language (``docs/rulings.md`` or its translation, packaged copies)
    as rendered Markdown, read when the notebook runs. A language with no translation gets the English
    page; so does one whose translation was made from an older English page, with a note saying so
    (the English is the ruling; a test fails until the translation is brought up to date)."""
    path = rulings_path(get_language())
    note = ""
    if path != RULINGS:
        try:
            text = path.read_text(encoding="utf-8")
            if translated_from(text) == english_sha256():
                return _markdown(text)
        except OSError:
            pass
        note = "*" + tr("This page is not yet translated into your language; here it is in English.") + "*\n\n"
    try:
        text = note + RULINGS.read_text(encoding="utf-8")
    except OSError:
        text = tr("The rulings page ({path}) could not be read.", path=str(RULINGS))
    return _markdown(text)


def _markdown(text: str) -> Markdown:
    markdown: Any = Markdown  # IPython's display classes are untyped
    shown: Markdown = markdown(text)
    return shown


RULINGS_PAGE = "rulings.ipynb"  # the lesson that shows this page; lessons sit side by side


def reconstruction_note(what: str) -> str:
    """A short HTML note under a map or deck view: ``what`` is a reconstruction, with a link to the
    rulings page, where each assumption is listed."""
    link = (f"<a href='{RULINGS_PAGE}' target='_blank' style='color:#1e63c4;text-decoration:underline'>"
            f"{html.escape(tr('the rulings page'))}</a>")
    return (f"<div class='railkit-reconstruction' style='font-size:13px;color:#555;margin:2px 0 6px 0'>"
            f"<b>{html.escape(tr('Note:'))}</b> {html.escape(what)} "
            f"{tr('See {link} for what is assumed and why.', link=link)}</div>")
