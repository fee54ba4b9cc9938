"""“My progress”: a lesson's closed-by-default section where a learner reads their own record of learning.

It is there when the lesson records (a class server, ``railkit.ui.records.lesson_record``). Opened, it asks the table
server for the learner's records (``GET /api/records``, ``railkit.classroom.progress``) and shows a summary
(lessons opened and finished, exercises right at the first try, the rules most often missed) and the newest
records. The server answers only for the learner themselves (RECORDS-KEY): on the class hub the kernel's hub
token says who they are; under ``make run`` the name's progress key, which the server gave the first lesson that
recorded under the name. A hidden mark hands that key to the Voila template, which keeps it in the page address
(``&progress=``) and the browser's storage and carries it to the next lessons with the name.
"""

from __future__ import annotations

import html
import logging
from typing import Any
from urllib.parse import urlencode

import ipywidgets as widgets

from railkit.lessons import LESSONS
from railkit.ui.class_http import ServerProblem, ask_json, hub_headers, tables_url
from railkit.ui.i18n import tr, trn
from railkit.ui.records import lesson_record
from railkit.ui.widgets import button, html_box
from railkit.wire import LEARNER_KEY_HEADER

__all__ = ["LEARNER_KEY_HEADER", "MyProgress", "fetch_progress"]

MAX_ANSWER_BYTES = 4 * 1024 * 1024  # 200 records and a summary are far below this
log = logging.getLogger(__name__)


def fetch_progress(name: str | None, key: str | None) -> dict[str, Any]:
    """The learner's own records from the table server; on the hub (``name`` None) the hub user's."""
    query = "" if name is None else "?" + urlencode({"learner": name})
    answer: dict[str, Any] = ask_json("GET", f"{tables_url()}/api/records{query}", None,
                                      {LEARNER_KEY_HEADER: key} if key else {}, max_bytes=MAX_ANSWER_BYTES)
    return answer


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


class MyProgress:
    """The section: a button that opens and closes it, the summary and the newest records inside."""

    def __init__(self) -> None:
        self.shown = False
        self.data: dict[str, Any] | None = None
        self.problem = ""
        self.key_mark = html_box("railkit-progress-key")  # hidden: the template reads its data-* fields
        self.key_mark.layout.display = "none"
        self.widget = widgets.VBox(layout=widgets.Layout(align_items="flex-start"))  # buttons as wide as their words
        self.widget.add_class("railkit-my-progress-section")
        lesson_record.on_progress_key(self._mark)
        self.build()
        try:  # the key may have come before this section was built (the lesson's opening is recorded first)
            name = lesson_record.learner()
            key = None if name is None else lesson_record.progress_key(name)
            if name is not None and key is not None:
                self._mark(name, key)
        except Exception:  # noqa: BLE001 - never in the lesson's way
            log.exception("railkit: the progress key could not be marked")

    def build(self) -> widgets.Widget:
        """The widgets in the current language (a language switch builds them again, open or closed as before)."""
        self.toggle = button(self._toggle_label(), "railkit-my-progress-toggle",
                             tip=tr("Your own records in the lessons: what you opened, finished and answered."))
        self.toggle.on_click(lambda _b: self.on_toggle())
        self.refresh_button = button(tr("Look again"), "railkit-my-progress-refresh")
        self.refresh_button.on_click(lambda _b: self.load())
        self.body = html_box("railkit-my-progress")
        self.inner = widgets.VBox([self.refresh_button, self.body], layout=widgets.Layout(align_items="flex-start"))
        self.inner.layout.display = None if self.shown else "none"
        self.widget.children = [self.key_mark, self.toggle, self.inner]
        self.render()
        return self.widget

    def _toggle_label(self) -> str:
        return ("▾ " if self.shown else "▸ ") + tr("My progress")

    def on_toggle(self) -> None:
        self.shown = not self.shown
        self.toggle.description = self._toggle_label()
        self.inner.layout.display = None if self.shown else "none"
        if self.shown:
            self.load()
        else:
            self.render()

    def _mark(self, name: str, key: str) -> None:
        value = f"<span class='railkit-progress-key-mark' hidden data-name='{_esc(name)}' data-key='{_esc(key)}'></span>"
        if self.key_mark.value != value:
            self.key_mark.value = value

    def load(self) -> None:
        """Ask the server again (never raises: a problem is shown in the section)."""
        self.data, self.problem = None, ""
        try:
            on_hub = bool(hub_headers())
            name = lesson_record.learner()
            if name is None:
                self.problem = tr("Type your name on the lesson index first: your progress is kept under your name.")
                return
            key = None if on_hub else lesson_record.progress_key(name)
            if key is not None:
                self._mark(name, key)
            try:
                self.data = fetch_progress(None if on_hub else name, key)
            except ServerProblem as exc:
                self.problem = self._words(exc, name, key)
        except Exception:  # noqa: BLE001 - the lesson never breaks over its progress section
            log.exception("railkit: the learner's progress could not be shown")
            self.problem = tr("Your progress cannot be shown just now; try again in a moment.")
        finally:
            self.render()

    @staticmethod
    def _words(exc: ServerProblem, name: str, key: str | None) -> str:
        if exc.code == "not_learner" and key is None:
            return tr("Your records open only with your progress key. The class server gave it to the first lesson "
                      "you opened as “{name}”: open your lessons from that page's links, or in the same browser.",
                      name=name)
        if exc.code == "not_learner":
            return tr("The progress key in this page's address is not the one of “{name}”: each learner sees only "
                      "their own records.", name=name)
        if exc.code == "offline":
            return tr("The class server is not answering just now; it is probably restarting. Press “{button}” in a "
                      "moment.", button=tr("Look again"))
        return tr("The class server refused: {why}", why=exc.message)

    def render(self) -> None:
        if not self.shown:
            self.body.value = ""
        elif self.problem:
            self.body.value = f"<p class='railkit-my-progress-problem'>{_esc(self.problem)}</p>"
        elif self.data is not None:
            self.body.value = progress_html(self.data)


def _titles() -> dict[str, str]:
    return {x.id: tr(x.link) for x in LESSONS}


def progress_html(data: dict[str, Any]) -> str:
    """The summary and the newest records as HTML (every value escaped)."""
    titles = _titles()
    summary = data.get("summary") or {}
    total = int(data.get("total") or 0)
    if total == 0:
        nothing = tr("Nothing is recorded for you yet: answer an exercise and look again.")
        return f"<p class='railkit-muted'>{_esc(nothing)}</p>"
    opened = [titles.get(x, x) for x in summary.get("opened", [])]
    finished = [titles.get(x, x) for x in summary.get("finished", [])]
    tries, right = int(summary.get("first_tries", 0)), int(summary.get("first_try_right", 0))
    wrong = ", ".join(f"{rule} ×{n}" for rule, n in summary.get("wrong_rules", [])) or "—"
    facts = [
        (tr("Lessons you opened"), ", ".join(opened) or "—"),
        (tr("Lessons you finished"), ", ".join(finished) or "—"),
        (tr("Right at the first try"), trn("{right} of {n} exercise", "{right} of {n} exercises", tries, right=right)),
        (tr("Rules you missed most often"), wrong),
    ]
    whose = tr("These are your own records: other learners cannot see them, your teacher can.")
    count = trn("You have {n} record on the class server; the newest come first.",
                "You have {n} records on the class server; the newest come first.", total)
    head = f"<p class='railkit-my-progress-who'>{_esc(whose)} {_esc(count)}</p>"
    summary_rows = "".join(f"<tr><th class='name'>{_esc(k)}</th><td class='name'>{_esc(v)}</td></tr>" for k, v in facts)
    events = {"opened": tr("lesson opened"), "finished": tr("lesson finished")}
    columns = "".join(f"<th class='name'>{_esc(h)}</th>" for h in (tr("when (UTC)"), tr("lesson"), tr("what"), tr("try"),
                                                                   tr("rules")))
    rows = ""
    for r in data.get("records", []):
        what = events.get(str(r.get("event")), "") if r.get("event") != "answer" else (
            tr("right") if r.get("right") else tr("wrong"))
        when = str(r.get("at") or "")[:16].replace("T", " ")
        rows += ("<tr class='railkit-my-progress-row'>" + "".join(f"<td class='name'>{_esc(v)}</td>" for v in (
            when, titles.get(str(r.get("lesson")), r.get("lesson")), what,
            r.get("attempt") if r.get("event") == "answer" else "", " ".join(r.get("rules") or []))) + "</tr>")
    return (head + f"<table class='railkit-table railkit-my-progress-summary'>{summary_rows}</table>"
            f"<table class='railkit-table railkit-my-progress-records'><tr>{columns}</tr>{rows}</table>")
