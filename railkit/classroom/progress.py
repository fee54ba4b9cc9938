"""A learner's records in and out: ``POST /api/records`` stores one, ``GET /api/records`` reads a learner's own
(RECORDS-KEY: a learner sees only their own).

``POST /api/records`` one event of a learner's lesson (``railkit.classroom.records``) -> 201 ``{"ok": true}`` (with
``"learner_key"``, the name's progress key, after the first record under a name); on the hub a learner's records are
theirs, under their hub user name. Per name and per client rates (RECORDS-RATE, RECORDS-NAMES): one client's flood is
refused on its own.

Who is asking decides whose records come back, never a name alone:

* on the class hub (``--hub-auth``) the hub user: their own records; ``?learner=`` naming anyone else is refused
  unless the hub says they teach;
* under ``make run``: ``?learner=NAME`` and that name's **progress key** in the header ``X-Railkit-Learner-Key``.
  The server gives the key once, in its answer to the first record stored under the name
  (``railkit.classroom.records``); the lesson keeps it in the page address and the browser. Typing another
  learner's name opens nothing without their key; a seat or creator token is no progress key;
* the teacher key (or a hub teacher) reads any learner's (``?learner=`` required: the whole class is the CSV).

The answer: ``{"learner", "summary", "records", "total"}``, ``records`` the newest ``MAX_SHOWN`` first. A refusal
is 403 with the rule and what to do, and carries no record.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from railkit.classroom.records import MAX_KEY_LENGTH, Record, Records, check_learner, parse_record
from railkit.classroom.teacher import is_teacher
from railkit.tables.hub import hub_user
from railkit.tables.names import same_name
from railkit.tables.store import Store
from railkit.tables.web import client_of, read_body
from railkit.wire import LEARNER_KEY_HEADER, ProtocolError

__all__ = ["LEARNER_KEY_HEADER", "MAX_SHOWN", "progress_routes", "progress_summary", "record_json"]

MAX_SHOWN = 200  # records sent back, the newest first (the summary counts them all)
TOP_RULES = 3


def progress_summary(records: list[Record]) -> dict[str, Any]:
    """One learner's records in short: lessons opened and finished (in the order first seen), answers, first tries
    and how many were right, the rule IDs most often in a wrong answer."""
    opened: dict[str, None] = {}
    finished: dict[str, None] = {}
    answers = first_tries = first_right = 0
    wrong: Counter[str] = Counter()
    for r in records:
        opened.setdefault(r.lesson)
        if r.event == "finished":
            finished.setdefault(r.lesson)
        elif r.event == "answer":
            answers += 1
            if r.attempt == 1:
                first_tries += 1
                first_right += int(bool(r.right))
            if not r.right:
                wrong.update(r.rules)
    top = sorted(wrong.items(), key=lambda item: (-item[1], item[0]))[:TOP_RULES]
    return {"opened": list(opened), "finished": list(finished), "answers": answers, "first_tries": first_tries,
            "first_try_right": first_right, "wrong_rules": [[rule, n] for rule, n in top]}


def record_json(r: Record) -> dict[str, Any]:
    return {"at": r.at.isoformat(timespec="seconds") if r.at else None, "lesson": r.lesson, "event": r.event,
            "exercise": r.exercise, "right": r.right, "attempt": r.attempt, "hints": r.hints, "why": r.why,
            "seconds": r.seconds, "rules": list(r.rules)}


def _refuse(message: str) -> ProtocolError:
    return ProtocolError("not_learner", "RECORDS-KEY", message)


async def whose(request: Request, records: Records, store: Store, teacher_key: str | None) -> str:
    """The learner whose records this request may read; ``ProtocolError`` (403 RECORDS-KEY) otherwise. Names are
    compared as ``railkit.tables.names.name_key`` compares them."""
    asked = request.query_params.get("learner")
    name = None if asked is None else check_learner(asked)
    user = hub_user(request)
    if user is not None:  # on the hub the hub user is the identity
        if name is None or same_name(name, user.name):
            return user.name
        if user.teacher:
            return name
        raise _refuse("on the class hub you see your own records only; leave out \"learner\"")
    if name is None:
        raise ProtocolError("bad_record", "RECORDS-NAME", "name the learner: ?learner=YOUR_NAME (with your progress "
                                                          f"key in the header {LEARNER_KEY_HEADER})")
    if is_teacher(request, teacher_key):
        return name
    key = request.headers.get(LEARNER_KEY_HEADER, "").strip()[:MAX_KEY_LENGTH + 1]
    if not key:
        raise _refuse(f"your records open with your progress key (header {LEARNER_KEY_HEADER}); the lessons keep it "
                      "in the page address: open your progress from a lesson you opened under your name")
    if not await store.run(records.key_matches, name, key):
        raise _refuse(f"this is not the progress key of {name!r}; each learner reads only their own records")
    return name


def progress_routes(records: Records, store: Store, teacher_key: str | None) -> list[Route]:
    """The records' routes: one stored (POST), a learner's own read (GET)."""

    async def add(request: Request) -> JSONResponse:
        body = await read_body(request)
        user = hub_user(request)
        if user is not None:
            body["learner"] = user.name  # on the hub a learner's records are theirs, under their hub user name
        record = parse_record(body)
        records.admit(record, client_of(request))
        await store.run(records.add, record)
        out: dict[str, Any] = {"ok": True}
        if user is None:  # the first record under a name brings its progress key
            key = await store.run(records.issue_key, record.learner)
            if key is not None:
                out["learner_key"] = key
        return JSONResponse(out, status_code=201)

    async def mine(request: Request) -> JSONResponse:
        learner = await whose(request, records, store, teacher_key)
        found = await store.run(records.of, learner)
        return JSONResponse({"learner": learner, "summary": progress_summary(found),
                             "records": [record_json(r) for r in reversed(found[-MAX_SHOWN:])],
                             "total": len(found)})

    return [Route("/api/records", add, methods=["POST"]), Route("/api/records", mine, methods=["GET"])]
