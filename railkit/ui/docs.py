"""Project documents shown inside the apps (Voila serves notebooks, not markdown files)."""

from __future__ import annotations

import html
from typing import Any

from IPython.display import Markdown

from railkit.paths import data_dir
from railkit.ui.i18n import tr

# The packaged copy (``railkit/data/rulings.md``, kept identical to ``docs/rulings.md`` by a test), so
# an installed wheel shows the page too.
RULINGS = data_dir() / "rulings.md"


def rulings_markdown() -> Markdown:
    """The rulings page (``docs/rulings.md``, packaged copy) as rendered Markdown, read when the notebook runs."""
    try:
        text = RULINGS.read_text(encoding="utf-8")
    except OSError:
        text = tr("The rulings page ({path}) could not be read.", path=str(RULINGS))
    markdown: Any = Markdown  # IPython's display classes are untyped
    shown: Markdown = markdown(text)
    return shown


RULINGS_PAGE = "rulings.ipynb"  # the lesson that shows this page; lessons sit side by side


def reconstruction_note(what: str) -> str:
    """A short HTML note under a map or deck view: ``what`` is a reconstruction, with a link to the
    rulings page, where each assumption is listed (issue 9, item 4)."""
    link = (f"<a href='{RULINGS_PAGE}' target='_blank' style='color:#1e63c4;text-decoration:underline'>"
            f"{html.escape(tr('the rulings page'))}</a>")
    return (f"<div class='railkit-reconstruction' style='font-size:13px;color:#555;margin:2px 0 6px 0'>"
            f"<b>{html.escape(tr('Note:'))}</b> {html.escape(what)} "
            f"{tr('See {link} for what is assumed and why.', link=link)}</div>")
