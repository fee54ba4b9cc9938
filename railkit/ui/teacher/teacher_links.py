"""“Links for the class” on the teacher's page: pick a lesson and its options (game number, players, variant,
language, a table's code) and get the one address to give the class (``railkit.ui.tables.class_link``)."""

from __future__ import annotations

import html

import ipywidgets as widgets

from railkit.errors import InputError
from railkit.lessons import LESSONS
from railkit.messages import N_
from railkit.ui.app import Messages, Panel, parse_whole
from railkit.ui.i18n import get_language, tr
from railkit.ui.language import LANGUAGE_NAMES
from railkit.ui.tables.class_link import LINK_FIELDS, MAX_SEED, LinkFields, class_link
from railkit.ui.tables.table_link import is_table_code
from railkit.ui.widgets import button, html_box, row

__all__ = ["ClassLinkPanel"]

WIDE = {"description_width": "110px"}
CHOICE_WIDTH = "min(440px, 100%)"  # as wide as "as the learner chooses", "Finnish deck (UP-S7-FI)" in every language
VARIANT_NAMES = {"standard": N_("standard deck (UP-S7)"), "finnish": N_("Finnish deck (UP-S7-FI)"),
                 "dividend_cards": N_("dividend cards (UP-V1)"), "8": N_("8 terrains to win (KK-E1)"),
                 "5": N_("5 terrains (short)"), "3": N_("3 terrains (short)")}


class ClassLinkPanel(Panel):
    """The link maker; ``link`` shows the address made last (``made`` holds it)."""

    def __init__(self, messages: Messages) -> None:
        super().__init__(messages)
        self.made = ""
        self.lesson = widgets.Dropdown(options=[(tr(x.link), x.id) for x in LESSONS], value="up_play",
                                       description=tr("Lesson"), style=WIDE)
        self.lesson.add_class("railkit-link-lesson")
        self.seed = widgets.Text(value="", placeholder=tr("random"), description=tr("Game number"), style=WIDE)
        self.seed.add_class("railkit-link-seed")
        self.players = widgets.Dropdown(options=[], description=tr("Players"), style=WIDE,
                                        layout=widgets.Layout(width=CHOICE_WIDTH))
        self.variant = widgets.Dropdown(options=[], description=tr("Variant"), style=WIDE,
                                        layout=widgets.Layout(width=CHOICE_WIDTH))
        self.language = widgets.Dropdown(options=[(name, code) for code, name in LANGUAGE_NAMES.items()],
                                         value=get_language(), description=tr("Language"), style=WIDE)
        self.table = widgets.Text(value="", placeholder="ABC234", description=tr("Table code"), style=WIDE)
        self.make_button = button(tr("Make the link"), "railkit-link-make", "link", "primary")  # the page wires it
        self.link = html_box("railkit-link")
        self.lesson.observe(lambda _c: self._sync(), names="value")
        self._sync()
        self.widget = widgets.VBox([
            html_box("", "<p>" + html.escape(tr("One link per lesson: every learner who opens it starts on the same "
                                                "game, in the language you choose. They add their own name.")) + "</p>"),
            row([self.lesson, self.language]), row([self.seed, self.players]), row([self.variant, self.table]),
            row([self.make_button]), self.link])

    def fields(self) -> LinkFields:
        return LINK_FIELDS.get(str(self.lesson.value), LinkFields())

    def _sync(self) -> None:
        """Only the options the chosen lesson takes are offered."""
        spec = self.fields()
        low, high = spec.players or (0, -1)
        self.players.options = [(tr("as the learner chooses"), 0)] + [(str(n), n) for n in range(low, high + 1)]
        self.players.value = 0
        self.variant.options = [(tr("as the learner chooses"), "")] + [(tr(VARIANT_NAMES.get(v, v)), v)
                                                                        for v in spec.variants]
        self.variant.value = ""
        for box, shown in ((self.seed, spec.seed), (self.players, spec.players is not None),
                           (self.variant, bool(spec.variants)), (self.table, spec.table)):
            box.layout.display = None if shown else "none"

    def on_make(self) -> str:
        """The link for the form's choices; an ``InputError`` names a field that cannot be used."""
        spec = self.fields()
        raw = str(self.seed.value).strip()
        seed = parse_whole(raw, tr("Game number"), minimum=0, maximum=MAX_SEED) if raw and spec.seed else None
        code = "".join(str(self.table.value).split()).upper()
        if code and spec.table and not is_table_code(code):
            raise InputError(tr("“Table code” is 6 letters and digits, as the table's creator sees it."))
        self.made = class_link(str(self.lesson.value), seed, int(self.players.value) or None,
                               str(self.variant.value) or None, str(self.language.value), code or None)
        shown = html.escape(self.made, True)
        how = tr("Right-click the link and copy its address (or open it and copy the address bar), then give it "
                 "to the class.")
        self.link.value = (f"<p><a class='railkit-class-link' href='{shown}' target='_blank'>{html.escape(self.made)}"
                           f"</a></p><p class='railkit-muted'>{html.escape(how)}</p>")
        return self.made
