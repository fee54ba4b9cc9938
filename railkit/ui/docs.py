"""Project documents shown inside the apps (Voila serves notebooks, not markdown files)."""

from __future__ import annotations

from typing import Any

from IPython.display import Markdown

from railkit.paths import PROJECT_ROOT
from railkit.ui.i18n import tr

RULINGS = PROJECT_ROOT / "docs" / "rulings.md"


def rulings_markdown() -> Markdown:
    """``docs/rulings.md`` as rendered Markdown, read when the notebook runs (always current)."""
    try:
        text = RULINGS.read_text(encoding="utf-8")
    except OSError:
        text = tr("The rulings page ({path}) could not be read.", path="docs/rulings.md")
    markdown: Any = Markdown  # IPython's display classes are untyped
    shown: Markdown = markdown(text)
    return shown
