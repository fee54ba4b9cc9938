"""The teacher's page (``notebooks/teacher/teacher.ipynb``): the class's progress and tables, for the teacher only.

It is no lesson (``railkit.lessons`` does not list it, the learners' index does not link it) and shows
nothing without the teacher key (``make run`` prints it; ``?key=`` in the page address or typed in). Its
kernel asks the table server's teacher endpoints (``railkit.classroom.teacher``) with the key. On the class hub
there is no key: the kernel's hub token says who the teacher is (the hub's admins and its ``teachers`` group):

* every learner: lessons started and finished, answers right at the first try, the rules most often wrong;
* the class's hardest exercises (lowest right-at-first-try rate first);
* every table: game, seats and who holds them, whose turn and for how long, moves, stalled tables first;
* filtering by lesson and learner, sorting the learners; the answers as CSV; “forget this class”, confirmed;
* per table: a link to watch it (or replay it, once over) in its play lesson as a spectator, a computer player
  in a seat or out of it, and closing it (confirmed);
* charts (``railkit.ui.teacher.teacher_charts``), the HTML tables (``railkit.ui.teacher.teacher_html``) and links for the class
  (``railkit.ui.teacher.teacher_links``);
* live: while “Keep up to date” is ticked, a background thread asks again every ``LIVE_SECONDS`` with the
  filters of the data shown, and the widgets change in place (the teacher's choices stay). When the class server
  does not answer (it is being restarted after a crash), the page says so without blaming anyone, keeps asking
  (also when it was down at the first “Show the class”) and says it is back with the first answer: each ask is
  a fresh request, and the message of the failure is replaced then, not left standing.
"""

from __future__ import annotations

import base64
import html
import json
import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlencode

import ipywidgets as widgets

from railkit.errors import InputError
from railkit.lessons import LESSONS
from railkit.messages import N_
from railkit.ui.app import App, guarded
from railkit.ui.class_http import ServerProblem, ask, hub_headers, place, tables_url
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import tr, trn
from railkit.ui.records.learner import LearnerName, address_fields, check_name, follow_page_address
from railkit.ui.teacher.teacher_charts import GAME_NAMES, first_try_chart, timeline_chart
from railkit.ui.teacher.teacher_html import exercises_html, learners_html, tables_html
from railkit.ui.teacher.teacher_links import ClassLinkPanel
from railkit.ui.widgets import button, html_box, row, set_options, set_value
from railkit.wire import CLOSE_WORDS, FORGET_WORDS, TEACHER_KEY_HEADER

__all__ = ["KEY_PARAMETER", "TeacherApp", "TeacherClient"]

KEY_PARAMETER = "key"  # teacher/teacher.ipynb?key=...
KEY_HEADER = TEACHER_KEY_HEADER  # the header the server reads the key from (railkit.wire)
LIVE_SECONDS = 5.0  # the page asks the server again this often while “Keep up to date” is ticked
DOWN_RETRY_SECONDS = 1.0  # ... and this often while the server does not answer (it says "back" as soon as it is)
MAX_KEY_LENGTH = 200
log = logging.getLogger(__name__)
MAX_ANSWER_BYTES = 64 * 1024 * 1024  # the CSV of a full server is far below this


class ServerDown(InputError):
    """The class server did not answer (it may be restarting); the page asks again by itself."""


class TeacherClient:
    """The teacher endpoints of the table server at ``base`` with ``key``."""

    def __init__(self, key: str, base: str | None = None) -> None:
        self.key = key
        self.base = (base or tables_url()).rstrip("/")

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> bytes:
        return ask(method, f"{self.base}/api/teacher/{path}", body, {KEY_HEADER: self.key} if self.key else {},
                   timeout=20, max_bytes=MAX_ANSWER_BYTES)

    def get(self, path: str, **query: str) -> Any:
        shown = {k: v for k, v in query.items() if v}
        return json.loads(self._call("GET", path + (f"?{urlencode(shown)}" if shown else "")))

    def csv(self) -> bytes:
        return self._call("GET", "records.csv")

    def seat_bot(self, code: str, seat: str, bot: bool) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(self._call("POST", f"tables/{quote(code, safe='')}/bot",
                                                       {"seat": seat, "bot": bot}))
        return answer

    def close(self, code: str) -> None:
        self._call("POST", f"tables/{quote(code, safe='')}/close", {"confirm": CLOSE_WORDS})

    def forget(self) -> dict[str, int]:
        answer: dict[str, int] = json.loads(self._call("POST", "forget", {"confirm": FORGET_WORDS}))
        return answer


def key_from_address(query: str | None = None) -> str:
    """The teacher key in the page address (``?key=``), or ""."""
    return address_fields(query).get(KEY_PARAMETER, [""])[-1].strip()[:MAX_KEY_LENGTH]


LEARNER_SORTS = ("name", "first_try_rate", "answers", "last_seen")


class TeacherApp(App):
    """The teacher's page; ``client`` is made from the key (tests pass a base URL)."""

    title = N_("The teacher's room")

    def __init__(self, base_url: str | None = None, live_seconds: float = LIVE_SECONDS) -> None:
        self.base_url = base_url
        self.data: dict[str, list[dict[str, Any]]] = {"learners": [], "exercises": [], "tables": []}
        self.loaded = False
        self.applied = ("", "")  # the lesson and learner filters of the data shown (live refresh keeps them)
        self.live_seconds = live_seconds
        self._ask_lock = threading.RLock()
        self._live: threading.Thread | None = None
        self._stop = threading.Event()
        self._charted: tuple[Any, Any] = (None, None)
        self.wanted: tuple[str, str] | None = None  # the filters of the last “Show the class” (tried again live)
        self.down = False  # the class server did not answer the last ask
        super().__init__()
        key = key_from_address()
        if self.on_hub():
            self.key_field.layout.display = "none"  # the hub says who teaches: there is no key to type
            self.on_refresh()
        elif key:
            self.key_field.value = key
            self.on_refresh()
        else:
            self.show_info(tr("Type the teacher key that `make run` printed, then press “Show the class”."))

        def arrived(_address: LearnerName) -> None:  # a pre-rendered page: the address comes later
            later = key_from_address()
            if later:
                self.key_field.value = later
                self.on_refresh()

        follow_page_address(arrived)

    # -- widgets --------------------------------------------------------------------------------
    def build(self) -> widgets.Widget:
        self.key_field = widgets.Password(description=tr("Teacher key"), style={"description_width": "110px"},
                                          layout=widgets.Layout(width="380px"))
        self.refresh_button = button(tr("Show the class"), "railkit-teacher-refresh", "refresh", "info")
        self.refresh_button.on_click(lambda _b: self.on_refresh())
        self.lesson_filter = widgets.Dropdown(options=[(tr("every lesson"), "")] + [(tr(x.link), x.id) for x in LESSONS],
                                              value="", description=tr("Lesson"), style={"description_width": "110px"})
        self.learner_filter = widgets.Text(description=tr("Learner"), placeholder=tr("every learner"),
                                           style={"description_width": "110px"})
        self.sort = widgets.Dropdown(options=[(tr("name"), "name"), (tr("right at the first try"), "first_try_rate"),
                                              (tr("answers"), "answers"), (tr("last seen"), "last_seen")],
                                     value="name", description=tr("Sort by"), style={"description_width": "110px"})
        self.sort.observe(lambda _c: self.refresh(), names="value")
        self.learners_html = html_box("railkit-teacher-learners")
        self.exercises_html = html_box("railkit-teacher-exercises")
        self.tables_html = html_box("railkit-teacher-tables")
        self.csv_button = button(tr("Export the answers (CSV)"), "railkit-teacher-csv", "download")
        self.csv_button.on_click(lambda _b: self.on_export())
        self.csv_link = html_box("railkit-teacher-csv-link")
        self.live = widgets.Checkbox(value=True, indent=False, description=tr("Keep up to date (every {n} s)",
                                                                              n=round(self.live_seconds)))
        self.live.add_class("railkit-teacher-live")
        # one table's controls: a computer player in a seat or out of it, closing the table
        self.table_pick = widgets.Dropdown(options=[], description=tr("Table"), style={"description_width": "110px"},
                                           layout=widgets.Layout(width="min(420px, 100%)"))  # "ABC234 (Vom Kap bis Kairo)"
        self.table_pick.add_class("railkit-teacher-table-pick")
        self.table_pick.observe(lambda _c: self._sync_seats(), names="value")
        self.seat_pick = widgets.Dropdown(options=[], description=tr("Seat"), style={"description_width": "60px"})
        self.seat_pick.add_class("railkit-teacher-seat-pick")
        self.bot_in = button(tr("A computer player takes this seat"), "railkit-teacher-bot-in", "desktop")
        self.bot_in.on_click(lambda _b: self.on_seat_bot(True))
        self.bot_out = button(tr("Give the seat back"), "railkit-teacher-bot-out", "user")
        self.bot_out.on_click(lambda _b: self.on_seat_bot(False))
        self.close_confirm = widgets.Checkbox(value=False, indent=False, description=tr("Yes, close this table"))
        self.close_confirm.add_class("railkit-teacher-close-confirm")
        self.close_button = button(tr("Close the table"), "railkit-teacher-close", "times", "danger")
        self.close_button.on_click(lambda _b: self.on_close())
        self.exercise_chart, self.timeline = FigureView(), FigureView()
        self._charted = (None, None)  # new chart widgets (the page built again in another language) draw afresh
        self.links = ClassLinkPanel(self.messages)
        self.links.make_button.on_click(lambda _b: self.on_make_link())
        self.forget_confirm = widgets.Checkbox(value=False, description=tr("Yes, delete every record and every "
                                                                           "table of this class"), indent=False)
        self.forget_button = button(tr("Forget this class"), "railkit-teacher-forget", "trash", "danger")
        self.forget_button.on_click(lambda _b: self.on_forget())
        return widgets.VBox([
            row([self.key_field, self.refresh_button, self.live]),
            row([self.lesson_filter, self.learner_filter, self.sort]),
            widgets.HTML(f"<h4>{html.escape(tr('Tables'))}</h4>"), self.tables_html,
            row([self.table_pick, self.seat_pick, self.bot_in, self.bot_out]), row([self.close_confirm, self.close_button]),
            self.timeline.widget,
            widgets.HTML(f"<h4>{html.escape(tr('Learners'))}</h4>"), self.learners_html,
            widgets.HTML(f"<h4>{html.escape(tr('The hardest exercises'))}</h4>"), self.exercise_chart.widget,
            self.exercises_html,
            widgets.HTML(f"<h4>{html.escape(tr('Links for the class'))}</h4>"), self.links.widget,
            widgets.HTML(f"<h4>{html.escape(tr('After class'))}</h4>"),
            row([self.csv_button, self.csv_link]), row([self.forget_confirm, self.forget_button]),
        ])

    def on_hub(self) -> bool:
        """On the class hub (a hub token in the kernel's environment) the hub, not a key, says who teaches."""
        return bool(hub_headers()) and (self.base_url is not None or place() == "server")

    def client(self) -> TeacherClient:
        if self.base_url is None and place() != "server":
            raise InputError(tr("The teacher's room needs the class server: start the apps with `make run`."))
        if self.on_hub():
            return TeacherClient("", self.base_url)
        key = self.key_field.value.strip()
        if not key:
            raise InputError(tr("Type the teacher key first (`make run` prints it)."))
        if len(key) > MAX_KEY_LENGTH:
            raise InputError(tr("That is not the teacher key: it is far too long."))
        return TeacherClient(key, self.base_url)

    def _ask(self, call: Callable[[TeacherClient], Any]) -> Any:
        try:
            return call(self.client())
        except ServerProblem as exc:
            if exc.code == "not_teacher" and self.on_hub():
                raise InputError(tr("Your hub account is not a teacher's: the hub's admin can add you to the "
                                    "“teachers” group.")) from None
            if exc.code == "not_teacher":
                raise InputError(tr("That is not the teacher key. `make run` prints it when the apps start.")) from None
            if exc.code == "offline":
                raise ServerDown(tr("The class server is not answering just now; it is probably restarting. This page "
                                    "asks again every second and carries on by itself.")) from None
            raise InputError(tr("The class server refused: {why}", why=exc.message)) from None

    # -- actions --------------------------------------------------------------------------------
    def _load(self, lesson: str, learner: str) -> None:
        try:
            found = self._ask(lambda c: c.get("class", lesson=lesson, learner=learner))
        except ServerDown:
            self.down = True
            raise
        with self._ask_lock:
            self.data = {k: list(found[k]) for k in ("learners", "exercises", "tables")}
            self.applied = (lesson, learner)
            self.loaded = True
            self.refresh()

    @guarded
    def on_refresh(self) -> None:
        lesson = self.lesson_filter.value or ""
        learner = self.learner_filter.value.strip()
        if learner:
            learner = check_name(learner, tr("Learner"))
        self.wanted = (lesson, learner)
        try:
            self._load(lesson, learner)
        except ServerDown:
            self.start_live()  # asks again by itself: the server may be restarting
            raise
        self.down = False
        self.start_live()
        stalled = sum(1 for t in self.data["tables"] if t["stalled"])
        self.show_ok(tr("{learners}, {tables} ({stalled} stalled).",
                        learners=trn("{n} learner", "{n} learners", len(self.data["learners"])),
                        tables=trn("{n} table", "{n} tables", len(self.data["tables"])), stalled=stalled))

    def tick(self) -> bool:
        """One live refresh with the filters of the data shown (or of the last “Show the class”, if the server did
        not answer it); a problem shows as the message, once, and the page tries again next time; the first answer
        after the server did not answer says it is back. True when the data came."""
        if not self.live.value or (not self.loaded and self.wanted is None):
            return False
        try:
            self._load(*(self.applied if self.loaded else self.wanted or ("", "")))
        except InputError as exc:
            if self.message_text != str(exc):
                self.show_error(str(exc))
            return False
        if self.down:
            self.down = False
            self.show_ok(tr("The class server answers again; this page is up to date."))
        return True

    def start_live(self) -> None:
        """Ask the server again every ``live_seconds`` while the page is open, every ``DOWN_RETRY_SECONDS`` while it
        does not answer (one background thread, holding the page only weakly)."""
        if self._live is not None or self.live_seconds <= 0:
            return
        page, stop, every = weakref.ref(self), self._stop, self.live_seconds
        first = min(every, DOWN_RETRY_SECONDS) if self.down else every

        def run() -> None:
            wait = first
            while not stop.wait(wait):
                found = page()
                if found is None:
                    return
                try:
                    found.tick()
                except Exception:  # noqa: BLE001 - the next tick tries again
                    log.exception("the teacher's page could not refresh")
                wait = min(every, DOWN_RETRY_SECONDS) if found.down else every
                del found

        self._live = threading.Thread(target=run, name="railkit-teacher-live", daemon=True)
        self._live.start()

    def stop_live(self) -> None:
        self._stop.set()

    def _table(self) -> dict[str, Any]:
        code = self.table_pick.value
        for table in self.data["tables"]:
            if table["table"] == code:
                return table
        raise InputError(tr("Choose a table first (the tables appear once you press “Show the class”)."))

    @guarded
    def on_seat_bot(self, bot: bool) -> None:
        table, seat = self._table(), self.seat_pick.value
        if not seat:
            raise InputError(tr("Choose a seat first."))
        self._ask(lambda c: c.seat_bot(table["table"], str(seat), bot))
        self._load(*self.applied)
        self.show_ok(tr("A computer player now plays {seat}.", seat=seat) if bot
                     else tr("{seat} is free for its learner again.", seat=seat))

    @guarded
    def on_close(self) -> None:
        table = self._table()
        if not self.close_confirm.value:
            raise InputError(tr("Tick “Yes, close this table” first: its learners leave the table and its game is "
                                "deleted."))
        self._ask(lambda c: c.close(table["table"]))
        self.close_confirm.value = False
        self._load(*self.applied)
        self.show_ok(tr("Table {code} is closed; its learners were told.", code=table["table"]))

    @guarded
    def on_make_link(self) -> None:
        self.links.on_make()
        self.show_ok(tr("The link is ready below: give it to the class."))

    @guarded
    def on_export(self) -> None:
        data = self._ask(lambda c: c.csv())
        rows = max(0, data.count(b"\n") - 1)
        url = "data:text/csv;base64," + base64.b64encode(data).decode()
        words = trn("railkit-answers.csv ({n} answer)", "railkit-answers.csv ({n} answers)", rows)
        self.csv_link.value = f"<a download='railkit-answers.csv' href='{url}'>{html.escape(words)}</a>"
        self.show_ok(tr("The answers are ready: click the link to save the CSV file."))

    @guarded
    def on_forget(self) -> None:
        if not self.forget_confirm.value:
            raise InputError(tr("Tick “Yes, delete every record and every table of this class” first: forgetting "
                                "cannot be undone."))
        gone = self._ask(lambda c: c.forget())
        self.forget_confirm.value = False
        self.data = {"learners": [], "exercises": [], "tables": []}
        self.csv_link.value = ""
        self.refresh()
        self.show_ok(tr("Forgotten: {records} and {tables} were deleted.",
                        records=trn("{n} record", "{n} records", int(gone["records"])),
                        tables=trn("{n} table", "{n} tables", int(gone["tables"]))))

    # -- showing --------------------------------------------------------------------------------
    def refresh(self) -> None:
        if not self.loaded:
            return
        with self._ask_lock:
            set_value(self.tables_html, self.tables_table())
            set_value(self.learners_html, self.learners_table())
            set_value(self.exercises_html, self.exercises_table())
            tables = [(f"{t['table']} ({GAME_NAMES.get(t['game'], t['game'])})", t["table"]) for t in self.data["tables"]]
            set_options(self.table_pick, tables, fresh=False)
            if self.table_pick.value is None and tables:
                self.table_pick.value = tables[0][1]
            self._sync_seats()
            self._charts()

    def _charts(self) -> None:
        """The charts, drawn again only when what they show changed (not at every live refresh)."""
        exercises = [(r["lesson"], r["exercise"], r["first_try_right"], r["first_tries"]) for r in self.data["exercises"]]
        tables = [(t["table"], t["moves"], t["stalled"]) for t in self.data["tables"]]
        if exercises != self._charted[0]:
            self.exercise_chart.show(first_try_chart(self.data["exercises"]))
        if tables != self._charted[1]:
            self.timeline.show(timeline_chart(self.data["tables"]))
        self._charted = (exercises, tables)

    def _sync_seats(self) -> None:
        code = self.table_pick.value
        seats: list[dict[str, Any]] = next((t["seats"] for t in self.data["tables"] if t["table"] == code), [])
        set_options(self.seat_pick, [(s["seat"], s["seat"]) for s in seats], fresh=False)
        if self.seat_pick.value is None and seats:
            self.seat_pick.value = seats[0]["seat"]

    def sorted_learners(self) -> list[dict[str, Any]]:
        rows = list(self.data["learners"])
        how = self.sort.value
        if how == "first_try_rate":
            rows.sort(key=lambda r: r["first_try_right"] / r["first_tries"] if r["first_tries"] else -1.0, reverse=True)
        elif how == "answers":
            rows.sort(key=lambda r: r["answers"], reverse=True)
        elif how == "last_seen":
            rows.sort(key=lambda r: r["last_seen"] or "", reverse=True)
        return rows

    def learners_table(self) -> str:
        return learners_html(self.sorted_learners())

    def exercises_table(self) -> str:
        return exercises_html(self.data["exercises"])

    def tables_table(self) -> str:
        return tables_html(self.data["tables"])
