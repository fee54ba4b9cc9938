"""The index page's “Your name” field (``notebooks/index.ipynb``): the learner types a
name once and every lesson link carries it (``up_play.ipynb?name=Kim``), so each lesson greets them,
seats them and speaks to them by it. The name follows the engines' rules (``railkit.ui.records.learner``); a
name that breaks them is refused with a message and the links stay without a name (“You”).

In Voila, the template's script copies ``?name=`` from the page address onto the links to other lessons,
so the name travels from lesson to lesson too.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from railkit.errors import InputError
from railkit.lessons import LESSONS
from railkit.ui import i18n
from railkit.ui.app import App, guarded
from railkit.ui.i18n import tr
from railkit.ui.language import LANG_PARAMETER
from railkit.ui.records.learner import (
    DEFAULT_LEARNER,
    LearnerName,
    check_name,
    default_learner,
    follow_page_address,
    is_default_learner,
    name_from_address,
    name_query,
)
from railkit.ui.widgets import button, html_box, row

LINK_STYLE = "color:#1a4fa0;text-decoration:underline"  # widget HTML has no link colour of its own


def lesson_links_html(name: str) -> str:
    """The lessons as links that carry ``name`` (URL-encoded; none for the default learner)."""
    query = name_query(name)
    language = i18n.get_language()
    if language != i18n.DEFAULT_LANGUAGE:  # the lessons open in the language the index speaks
        query += f"{'&' if query else '?'}{LANG_PARAMETER}={language}"
    query = html.escape(query, quote=True)
    links = " · ".join(f"<a class='railkit-lesson-link' href='{lesson.notebook}{query}' "
                       f"style='{LINK_STYLE}'>{html.escape(tr(lesson.link))}</a>" for lesson in LESSONS)
    who = (tr("Links for {name}:", name=name) if not is_default_learner(name) else tr("Lessons:"))
    return f"<span class='railkit-lesson-links'><b>{html.escape(who)}</b> {links}</span>"


class IndexApp(App):
    """“Your name” and the lesson links that carry it."""

    def __init__(self) -> None:
        super().__init__()
        found = name_from_address()
        self.name.value = found.name if found.given else ""
        if found.problem:
            self.show_error(found.problem)
        self.on_name()
        follow_page_address(self.on_address)

    def build(self) -> widgets.Widget:
        self.name = widgets.Text(value="", placeholder=default_learner(), description=tr("Your name"),
                                 continuous_update=False, style={"description_width": "90px"},
                                 layout=widgets.Layout(width="300px"))
        self.name.add_class("railkit-learner-name")
        self.name.observe(lambda _c: self.on_name(), names="value")
        self.use_button = button(tr("Use this name"), "railkit-use-name", "check", "primary",
                                 tr("Write this name into every lesson link"))
        self.use_button.on_click(lambda _b: self.on_use())
        self.links = html_box("railkit-index-links")
        hint = widgets.HTML("<span class='railkit-legend'>" + html.escape(tr(
            "Type your name once: every lesson then greets you, seats you and says “you” in its "
            "sentences about you. Leave it empty to be “{you}”.", you=default_learner())) + "</span>")
        return widgets.VBox([row([self.name, self.use_button, hint]), self.links])

    @property
    def learner(self) -> str:
        """The name the links carry: the typed one when the engines accept it, else “You”."""
        typed = str(self.name.value)
        if not typed.strip():
            return DEFAULT_LEARNER
        try:
            return check_name(typed, tr("Your name"))
        except InputError:
            return DEFAULT_LEARNER

    @guarded
    def on_name(self) -> None:
        typed = str(self.name.value)
        self.links.value = lesson_links_html(self.learner)
        if typed.strip():
            name = check_name(typed, tr("Your name"))  # an InputError becomes the message
            self.show_ok(tr("The lessons will call you {name}.", name=name))
        else:
            self.clear_message()

    @guarded
    def on_use(self) -> None:
        """The button: the typed name (the field also takes it on Enter or when left)."""
        if not str(self.name.value).strip():
            self.show_info(tr("Type your name first; without one the lessons call you “{you}”.", you=default_learner()))
            return
        self.on_name()

    def redraw(self) -> None:
        """After a language switch: the links again, carrying the new language."""
        self.links.value = lesson_links_html(self.learner)

    def on_address(self, found: LearnerName) -> None:
        """The page address arrived after a pre-rendered start (Voila): its name fills an empty field."""
        if found.problem:
            self.show_error(found.problem)
        elif found.given and not str(self.name.value).strip():
            self.name.value = found.name
