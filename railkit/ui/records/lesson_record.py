"""The lesson's side of the record of learning: what the learner did, sent to the table server.

When a lesson runs on a class server (``RAILKIT_TABLES_URL``, ``railkit.ui.tables.table_link.place``) and the learner
has a name (their hub user name, else ``?name=`` in the page address), the lesson tells the server
(``POST /api/records``, ``railkit.classroom.records``):

* that the learner opened the lesson (in a pre-rendered Voila kernel: when the page address arrives);
* every checked answer to an exercise (``ExerciseRecord.answer``): which exercise, right or wrong, the attempt
  at that question, the hints and “Why?” explanations used since the last answer, seconds on the question
  (counted from when the question was on the learner's screen: a pre-rendered Voila kernel deals its first
  question before any page exists, so its clock starts when the page takes the kernel),
  and the rule IDs it was about (for a wrong answer, the rules it broke where the lesson knows them);
* that the learner finished the lesson (``FINISHED_AFTER`` answers right, or a game played to its end).

The server's answer to the first record under a name carries that name's progress key (``progress_key``): the
lesson's "My progress" (``railkit.ui.records.my_progress``) reads the learner's own records with it, and the Voila
template keeps it in the page address (``&progress=``) and the browser for the next lessons.

Elsewhere (Binder, the static site, no server, no name) nothing is sent and the lessons work the same. The
records travel on one background thread through a bounded queue: a slow or failing server never holds up
or breaks a lesson (a record it cannot take is dropped and logged).
"""

from __future__ import annotations

import logging
import os
import queue
import re
import secrets
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from railkit.errors import InputError
from railkit.lessons import LESSONS
from railkit.ui.class_http import ask_json, place, tables_url
from railkit.ui.records.learner import LearnerName, address_fields, check_name, follow_page_address, name_from_address

__all__ = ["FINISHED_AFTER", "KEY_PARAMETER", "ExerciseRecord", "game_finished", "learner", "lesson_of", "lesson_opened",
           "note_hint", "note_why", "on_progress_key", "progress_key", "recording", "wait_sent"]

log = logging.getLogger(__name__)

FINISHED_AFTER = 3  # answers right in a lesson's exercises count it as finished
QUEUE_SIZE = 200  # records waiting to be sent; more are dropped (a server that is down must not fill memory)
SEND_TIMEOUT_S = 3.0
HUB_USER_VARIABLE = "JUPYTERHUB_USER"

_queue: queue.Queue[dict[str, Any]] = queue.Queue(QUEUE_SIZE)
_state_lock = threading.Lock()
_sender: dict[str, threading.Thread | None] = {"thread": None}
_visits: dict[str, str] = {}  # lesson -> this kernel's visit word (one lesson page per kernel)
_opened: set[str] = set()
_finished: set[str] = set()
_right: dict[str, int] = {}
_hints: dict[str, list[int]] = {}  # lesson -> [hints, whys] since its last answer
_keys: dict[str, str] = {}  # learner -> the progress key the server gave this kernel
_key_followers: list[weakref.WeakMethod[Callable[[str, str], object]]] = []
KEY_PARAMETER = "progress"  # up_setup.ipynb?name=Kim&progress=KEY (the template keeps it in the address)
# When this kernel's page was shown (monotonic): at once, or in a pre-rendered kernel when a page takes it.
_page: dict[str, float | None] = {"shown": None, "following": None}
_KEY = re.compile(r"[A-Za-z0-9_-]{16,200}")


def lesson_of(app_class: type) -> str | None:
    """The lesson an App class is (``railkit.lessons``), or None (the index, the teacher's page)."""
    for lesson in LESSONS:
        if app_class.__name__ == lesson.app and app_class.__module__.startswith(lesson.module):
            return lesson.id
    return None


def learner(address: LearnerName | None = None) -> str | None:
    """Whom the records are about: the hub user, else the name in the page address, else no one."""
    hub = os.environ.get(HUB_USER_VARIABLE, "")
    if hub:
        try:
            return check_name(hub, "user")
        except InputError:
            return None
    found = address or name_from_address()
    return found.name if found.given else None


def recording() -> bool:
    return place() == "server"


def _visit(lesson: str) -> str:
    with _state_lock:
        return _visits.setdefault(lesson, secrets.token_urlsafe(12))


def _send(record: dict[str, Any], address: LearnerName | None = None) -> None:
    """Queue one record for the server (nothing when there is no server or no learner's name)."""
    if not recording():
        return
    who = learner(address)
    if who is None:
        return
    record = {**record, "learner": who, "visit": _visit(record["lesson"])}
    try:
        _queue.put_nowait(record)
    except queue.Full:
        log.warning("railkit: a learning record was dropped (the table server is not taking them)")
        return
    with _state_lock:
        thread = _sender["thread"]
        if thread is None or not thread.is_alive():
            thread = _sender["thread"] = threading.Thread(target=_send_all, name="railkit-records", daemon=True)
            thread.start()


def _send_all() -> None:
    while True:
        record = _queue.get()
        try:
            _post(record)
        except Exception as exc:  # noqa: BLE001 - a server that fails never breaks the lesson
            log.info("railkit: a learning record was not stored: %s", exc)
        finally:
            _queue.task_done()


def _post(record: dict[str, Any]) -> None:
    url = tables_url()
    if not url:
        return
    answer = ask_json("POST", f"{url}/api/records", record, timeout=SEND_TIMEOUT_S)
    key = answer.get("learner_key") if isinstance(answer, dict) else None
    if isinstance(key, str) and _KEY.fullmatch(key):  # the first record under this name: its progress key
        _keep_key(str(record["learner"]), key)


# -- the progress key (railkit.classroom.progress): what lets this learner, and no one else, read their records --
def _keep_key(name: str, key: str) -> None:
    with _state_lock:
        _keys[name] = key
        _key_followers[:] = [f for f in _key_followers if f() is not None]
        followers = [f() for f in _key_followers]
    for follower in followers:
        if follower is None:
            continue
        try:
            follower(name, key)
        except Exception:  # noqa: BLE001 - the page works on without it
            log.exception("railkit: a progress-key follower failed")


def on_progress_key(follower: Callable[[str, str], object]) -> None:
    """Call the bound method ``follower(name, key)`` when the server gives this kernel a learner's progress key
    (kept by a weak reference: an app that is gone is not kept alive)."""
    with _state_lock:
        _key_followers[:] = [f for f in _key_followers if f() is not None]
        _key_followers.append(weakref.WeakMethod(follower))


def progress_key(name: str) -> str | None:
    """``name``'s progress key: the one the server gave this kernel, else the page address's
    (``&progress=KEY``, beside ``?name=`` of the same learner), else None."""
    with _state_lock:
        kept = _keys.get(name)
    if kept:
        return kept
    found = name_from_address()
    key = address_fields().get(KEY_PARAMETER, [""])[-1].strip()
    return key if found.given and found.name == name and _KEY.fullmatch(key) else None


def page_shown_at() -> float | None:
    """When this kernel's page was shown (``time.monotonic``), None while a pre-rendered kernel waits for its page.
    Outside a pre-rendered kernel, the page was there from the start."""
    with _state_lock:
        if _page["following"] is None:
            _page["following"] = 1.0

            def shown(_address: LearnerName) -> None:
                with _state_lock:
                    _page["shown"] = time.monotonic()

            if follow_page_address(shown) is None:  # not pre-rendered: shown when the kernel started
                _page["shown"] = time.monotonic() if _page["shown"] is None else _page["shown"]
        return _page["shown"]


def wait_sent(timeout: float = 10.0) -> bool:
    """Wait until every queued record was sent (or refused); False if that took longer than ``timeout``."""
    deadline = time.monotonic() + timeout
    with _queue.all_tasks_done:
        while _queue.unfinished_tasks:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            _queue.all_tasks_done.wait(left)
    return True


# -- what the lessons call --------------------------------------------------------------------------------
def lesson_opened(lesson: str | None) -> None:
    """The learner opened ``lesson`` (once per kernel). A pre-rendered kernel waits for the page address."""
    if lesson is None or not recording():
        return
    with _state_lock:
        if lesson in _opened:
            return
        _opened.add(lesson)

    def opened(address: LearnerName) -> None:
        _send({"event": "opened", "lesson": lesson}, address)

    if follow_page_address(opened) is None:
        opened(name_from_address())


def lesson_finished(lesson: str) -> None:
    """The learner finished ``lesson`` (sent once per kernel)."""
    with _state_lock:
        if lesson in _finished:
            return
        _finished.add(lesson)
    _send({"event": "finished", "lesson": lesson})


def game_finished(lesson: str) -> None:
    """A game of a play lesson reached its end: the lesson is finished."""
    lesson_finished(lesson)


def note_hint(lesson: str) -> None:
    """The learner asked for a hint; the next answer in ``lesson`` carries it."""
    with _state_lock:
        _hints.setdefault(lesson, [0, 0])[0] += 1


def note_why(lesson: str) -> None:
    """The learner opened a “Why?” explanation; the next answer in ``lesson`` carries it."""
    with _state_lock:
        _hints.setdefault(lesson, [0, 0])[1] += 1


class ExerciseRecord:
    """One exercise panel's questions: ``question()`` when a new one is shown, ``answer(right)`` at each check.
    The first check of a question is attempt 1, the next attempt 2, and so on."""

    def __init__(self, lesson: str, exercise: str, rules: Iterable[str] = ()) -> None:
        self.lesson = lesson
        self.exercise = exercise
        self.rules = tuple(rules)
        self.attempt = 0
        self.shown = time.monotonic()
        page_shown_at()  # starts following the page of a pre-rendered kernel

    def question(self, exercise: str | None = None, rules: Iterable[str] | None = None) -> None:
        """A new question is on show (``exercise`` and ``rules`` when this one is of another kind)."""
        if exercise is not None:
            self.exercise = exercise
        if rules is not None:
            self.rules = tuple(rules)
        self.attempt = 0
        self.shown = time.monotonic()

    def seconds(self) -> int:
        """Whole seconds since the question was on the learner's screen: since it was dealt, or since the page
        took this pre-rendered kernel when that came later."""
        page = page_shown_at()
        start = self.shown if page is None else max(self.shown, page)
        return max(0, min(int(time.monotonic() - start), 24 * 3600))

    def answer(self, right: bool, rules: Iterable[str] | None = None) -> None:
        """One checked answer (``rules``: the rules this answer broke, when the lesson knows them)."""
        self.attempt += 1
        if not recording():
            return
        with _state_lock:
            hints, whys = _hints.pop(self.lesson, [0, 0])
            _right[self.lesson] = _right.get(self.lesson, 0) + int(right)
            done = _right[self.lesson] >= FINISHED_AFTER
        named = list(dict.fromkeys(rules if rules is not None and not right else self.rules))[:8]
        _send({"event": "answer", "lesson": self.lesson, "exercise": self.exercise, "right": bool(right),
               "attempt": min(self.attempt, 1000), "hints": min(hints, 1000), "why": min(whys, 1000),
               "seconds": self.seconds(), "rules": named})
        if done:
            lesson_finished(self.lesson)
