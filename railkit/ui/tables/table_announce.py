"""What a screen reader says at a class table (WCAG 4.1.3): every move made at the table, the reveal of sealed bids
(KK-A3), a payout (UP-D1), “your turn” and the end of the game, each once, politely, without taking the focus.

A live region is only read reliably when it exists before its text changes and is changed in place; ipywidgets
replace an HTML widget's content on every update, so the region cannot be a widget. The Voila template's script
(``a11y.html.j2``, “Announcements”) makes one ``role=log`` region when the page opens and never rebuilds it. The
kernel feeds it through ``Announcer.widget``, a hidden HTML widget holding the latest announcements, each with a
number (``.railkit-announce-mark``: ``data-feed`` names this panel's feed, ``data-label`` the region's name in the
page's language); the script appends to the region each announcement whose number it has not seen, so a widget
drawn again never says anything twice.

What is said: the engine's new sentences from the table's story (about this seat in the second person), except the
worked explanations of several lines (a payout's company-by-company steps stay in the story, the payout's one-line
summary is said); then “your turn” when the seat's turn begins, and the result when the game ends. The story
itself (``table_html.events_html``) stays a list to read at leisure, with no live region of its own.
"""

from __future__ import annotations

import html
import secrets
from collections import deque
from collections.abc import Mapping
from typing import Any

from railkit.ui.tables.table_game import sentence_text
from railkit.ui.widgets import html_box, set_value

__all__ = ["KEPT", "Announcer"]

KEPT = 30  # announcements kept in the feed: more than any one update brings (the server sends at most 24 sentences)
LONGEST = 600  # characters of one announcement (a sentence longer than that is cut: the story has it whole)


class Announcer:
    """One table panel's announcements (module docstring). ``label`` names the page's region."""

    def __init__(self, label: str) -> None:
        self.widget = html_box("railkit-announce-feed", display="none")
        self.feed = secrets.token_hex(6)
        self.label = label
        self.count = 0
        self.items: deque[tuple[int, str]] = deque(maxlen=KEPT)
        self.told: int | None = None  # the story's sentences told so far (None: nothing from this table yet)
        self.yours = False  # was it this seat's turn in the last state?
        self.over = False

    def reset(self) -> None:
        """Another table (or the same one again, from the start form): its history is not told, only what comes."""
        self.told, self.yours, self.over = None, False, False

    def say(self, text: str) -> None:
        """Announce ``text`` once."""
        text = " ".join(text.split())[:LONGEST]
        if not text:
            return
        self.count += 1
        self.items.append((self.count, text))
        items = "".join(f"<li data-n='{n}'>{html.escape(t)}</li>" for n, t in self.items)
        set_value(self.widget, f"<ol class='railkit-announce-mark' hidden data-feed='{self.feed}' "
                               f"data-label='{html.escape(self.label, True)}'>{items}</ol>")

    def follow(self, state: Mapping[str, Any], yours: bool, turn_words: str, over_words: str) -> bool:
        """A state from the server: announce its new sentences, then the turn (``yours``: the seat may act now) or
        the end. True when this seat's turn has just begun."""
        seat = state.get("seat")
        sentences: list[Any] = list(state.get("narrative", []))
        total = int(state.get("narrative_length", len(sentences)))
        if self.told is not None:
            first = total - len(sentences)
            for index in range(max(self.told, first), total):
                text = sentence_text(sentences[index - first], seat)
                if "\n" not in text.strip():  # a worked explanation stays in the story; its summary is said
                    self.say(text)
        self.told = total
        over = bool(state.get("is_over"))
        began = yours and not self.yours and not over
        if over and not self.over:
            self.say(over_words)
        elif began:
            self.say(turn_words)
        self.yours, self.over = yours and not over, over
        return began
