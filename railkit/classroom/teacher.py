"""The teacher's side of the class server: the teacher key and the reports and actions only the teacher may use.

The live tables' part of the reports and the actions on a table are asked of the live tables through
``ClassTables`` (``railkit.tables.live.TableServer`` gives it; the app, ``railkit.tables.server``, hands it here):
this package never imports the live tables, nor they it.

On the class hub (``railkit.tables.hub``) the hub's admins and its ``teachers`` group may use them, and no key is
needed. Elsewhere every ``/api/teacher/...`` request carries the teacher key (header ``X-Railkit-Teacher-Key: KEY`` or
``Authorization: Bearer KEY``). The key is ``$RAILKIT_TEACHER_KEY`` or a random word kept in a file of the
server's data folder (made on first start, readable by its owner only); ``make run`` prints it. A learner's
seat or creator token is never a teacher key (a different random word, compared in constant time).

* ``GET /api/teacher/learners[?lesson=&learner=]``: per learner, lessons started and finished, answers, answers
  right at the first try, the rule IDs they most often got wrong, and the tables they sit at. A learner seated at a
  table is listed by their seat's name (their hub name on the hub) even with no record (no name typed on the
  index page); a seat and a record of the same name (``railkit.tables.names``) are one learner.
* ``GET /api/teacher/exercises[?lesson=&learner=]``: per exercise, the class's right-at-first-try rate, hardest first.
* ``GET /api/teacher/tables[?stalled=SECONDS]``: every table: game, seats and holders, whose turn and for how
  long, moves so far, finished, stalled (no move for ``stalled`` seconds, default 300; a whole number in the digits
  0-9), whether its creator chose the deal; and ``set_aside``: the stored tables this server cannot play (their log
  does not replay here), each with the reason. Their moves are kept; closing one deletes it.
* ``GET /api/teacher/class[?lesson=&learner=&stalled=]``: the three above in one answer (the teacher's page).
* ``GET /api/teacher/records.csv``: the answers as CSV (``railkit.classroom.records.CSV_COLUMNS``).
* ``POST /api/teacher/tables/{code}/bot`` ``{"seat", "bot": true|false}``: a computer player in a seat or out of
  it, in any seat at any time (the creator must wait until a learner has been away a while); its answer: the
  table's seats. The seat's learner is told the teacher did it.
* ``POST /api/teacher/tables/{code}/close`` ``{"confirm": "close this table"}``: the table's seats and spectators
  are told the teacher closed it; the table and its moves are deleted.
* ``POST /api/teacher/forget`` ``{"confirm": "forget this class"}``: delete every record and every table.

``python -m railkit.classroom.teacher KEY_FILE`` prints the key (making it first when there is none).
"""

from __future__ import annotations

import os
import secrets
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from railkit.classroom.records import LESSON_IDS, Record, Records, check_learner, csv_text
from railkit.tables.hub import TEACHER_GROUP, TEACHER_SCOPE, hub_user
from railkit.tables.names import name_key
from railkit.tables.store import Store, tables_data_dir
from railkit.tables.web import read_body
from railkit.wire import CLOSE_WORDS, FORGET_WORDS, TEACHER_KEY_HEADER, ProtocolError, whole_number

__all__ = ["CLOSE_WORDS", "FORGET_WORDS", "check_teacher", "is_teacher",
           "ClassTables", "KEY_HEADER", "KEY_VARIABLE", "STALLED_SECONDS", "exercise_report", "learner_report",
           "load_key", "teacher_routes"]

KEY_VARIABLE = "RAILKIT_TEACHER_KEY"
KEY_FILE_NAME = "teacher.key"
KEY_HEADER = TEACHER_KEY_HEADER
MIN_KEY_LENGTH = 16
MAX_KEY_LENGTH = 200
STALLED_SECONDS = 300  # a table with no move for five minutes is highlighted as stalled
TOP_RULES = 3


class KeyProblem(ValueError):
    """The teacher key given to the server is unusable (too short, control characters)."""


def _checked(key: str, where: str) -> str:
    key = key.strip()
    if not MIN_KEY_LENGTH <= len(key) <= MAX_KEY_LENGTH or not key.isprintable() or " " in key:
        raise KeyProblem(f"TEACHER-KEY: the teacher key in {where} must be {MIN_KEY_LENGTH} to {MAX_KEY_LENGTH} "
                         "printable characters without spaces")
    return key


def default_key_file() -> Path:
    return tables_data_dir() / KEY_FILE_NAME


def load_key(key_file: Path | None = None) -> str:
    """``$RAILKIT_TEACHER_KEY``, else the key in ``key_file`` (default: ``teacher.key`` in ``$RAILKIT_TABLES_DATA``),
    made there at random (mode 0600) when the file does not exist. ``KeyProblem`` for an unusable key."""
    given = os.environ.get(KEY_VARIABLE)
    if given:
        return _checked(given, f"${KEY_VARIABLE}")
    path = key_file or default_key_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _checked(path.read_text(encoding="utf-8", errors="replace")[: MAX_KEY_LENGTH + 2], str(path))
    key = secrets.token_urlsafe(24)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(key + "\n")
    return key


# -- reports (plain functions of the records, so the tests and the benchmark call them directly) -------------
def _filtered(records: Iterable[Record], lesson: str | None, learner: str | None) -> list[Record]:
    key = None if learner is None else name_key(learner)
    return [r for r in records if (lesson is None or r.lesson == lesson) and (key is None or name_key(r.learner) == key)]


def _learner_row(name: str) -> dict[str, Any]:
    return {"learner": name, "started": set(), "finished": set(), "answers": 0, "first_tries": 0,
            "first_try_right": 0, "last_seen": None, "tables": []}


def learner_report(records: Iterable[Record], seated: dict[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """One row per learner (sorted by name): lessons started and finished, answers, first tries and how many
    were right, the rule IDs most often in a wrong answer, the last time seen, and the tables they sit at
    (``seated``: seat name -> table codes; a seated learner with no record gets a row of their own)."""
    rows: dict[str, dict[str, Any]] = {}  # by name_key: "José" typed two ways, or "ann" and "Ann", is one learner
    wrong: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        row = rows.setdefault(name_key(r.learner), _learner_row(r.learner))
        row["started"].add(r.lesson)
        if r.event == "finished":
            row["finished"].add(r.lesson)
        elif r.event == "answer":
            row["answers"] += 1
            if r.attempt == 1:
                row["first_tries"] += 1
                row["first_try_right"] += int(bool(r.right))
            if not r.right:
                wrong[name_key(r.learner)].update(r.rules)
        if r.at is not None and (row["last_seen"] is None or r.at > row["last_seen"]):
            row["last_seen"] = r.at
    for seat, codes in (seated or {}).items():
        rows.setdefault(name_key(seat), _learner_row(seat))["tables"] += codes
    out: list[dict[str, Any]] = []
    for key in sorted(rows, key=lambda k: (k, rows[k]["learner"])):
        row = rows[key]
        out.append({**row, "started": sorted(row["started"]), "finished": sorted(row["finished"]),
                    "tables": sorted(set(row["tables"])),
                    "wrong_rules": [[rule, n] for rule, n in _top(wrong[key])],
                    "last_seen": row["last_seen"].isoformat(timespec="seconds") if row["last_seen"] else None})
    return out


def _top(counts: Counter[str]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:TOP_RULES]


def exercise_report(records: Iterable[Record]) -> list[dict[str, Any]]:
    """One row per (lesson, exercise) answered: learners, first tries, right at the first try and the rate;
    the hardest (lowest rate, then most tried) first."""
    stats: dict[tuple[str, str], dict[str, Any]] = {}
    for r in records:
        if r.event != "answer" or r.exercise is None:
            continue
        row = stats.setdefault((r.lesson, r.exercise), {"lesson": r.lesson, "exercise": r.exercise, "learners": set(),
                                                        "answers": 0, "first_tries": 0, "first_try_right": 0,
                                                        "rules": Counter()})
        row["learners"].add(r.learner)
        row["answers"] += 1
        row["rules"].update(r.rules)
        if r.attempt == 1:
            row["first_tries"] += 1
            row["first_try_right"] += int(bool(r.right))
    out: list[dict[str, Any]] = []
    for row in stats.values():
        tries = row["first_tries"]
        out.append({**row, "learners": len(row["learners"]), "rules": [rule for rule, _ in row["rules"].most_common()],
                    "rate": round(row["first_try_right"] / tries, 3) if tries else None})
    out.sort(key=lambda r: (2.0 if r["rate"] is None else r["rate"], -r["first_tries"], r["lesson"], r["exercise"]))
    return out


# -- HTTP ----------------------------------------------------------------------------------------------------
def given_key(request: Request) -> str:
    key = request.headers.get(KEY_HEADER, "")
    if not key:
        auth = request.headers.get("Authorization", "")
        key = auth[7:] if auth[:7].lower() == "bearer " else ""
    return key.strip()[:MAX_KEY_LENGTH + 1]


def _query_filters(request: Request) -> tuple[str | None, str | None]:
    lesson = request.query_params.get("lesson") or None
    if lesson is not None and lesson not in LESSON_IDS:
        raise ProtocolError("bad_message", "RECORDS-LESSON", f"\"lesson\" is one of {', '.join(sorted(LESSON_IDS))}")
    learner = request.query_params.get("learner") or None
    return lesson, None if learner is None else check_learner(learner)


def _stalled(request: Request) -> int:
    """``?stalled=SECONDS``: digits 0-9 only (``"²".isdigit()`` is true, ``int("²")`` fails: never a 500)."""
    return whole_number(request.query_params.get("stalled", str(STALLED_SECONDS)), "stalled", 10, 7 * 24 * 3600,
                        "TEACHER-STALLED")


def check_teacher(request: Request, key: str | None) -> None:
    """The request is the teacher's (the hub says so, or it carries the teacher key); ``ProtocolError`` otherwise."""
    user = hub_user(request)
    if user is not None:  # on the class hub the hub says who teaches; the key plays no part there
        if not user.teacher:
            raise ProtocolError("not_teacher", "TEACHER-HUB", f"the teacher's pages are for the hub's admins and "
                                                              f"the {TEACHER_GROUP!r} group (scope {TEACHER_SCOPE})")
        return
    if key is None:
        raise ProtocolError("not_teacher", "TEACHER-KEY", "this server was started without a teacher key")
    if not secrets.compare_digest(given_key(request).encode(), key.encode()):
        raise ProtocolError("not_teacher", "TEACHER-KEY", f"the teacher's pages need the teacher key (header "
                                                          f"{KEY_HEADER}); `make run` prints it")


def is_teacher(request: Request, key: str | None) -> bool:
    try:
        check_teacher(request, key)
    except ProtocolError:
        return False
    return True


class ClassTables(Protocol):
    """What the teacher's endpoints ask of the live tables (``railkit.tables.live.TableServer``)."""

    def seated_learners(self, learner: str | None = None) -> dict[str, list[str]]:
        """Every seat a learner holds at a table (seat name -> table codes), or only ``learner``'s."""

    async def report(self, stalled_after: float) -> dict[str, Any]:
        """``{"tables": [...], "set_aside": [...]}``: every table, public facts only."""

    async def teacher_seat_bot(self, code: str, body: dict[str, Any]) -> dict[str, Any]:
        """A computer player in a seat or out of it (``{"seat", "bot"}``); the table's seats."""

    async def close_table(self, code: str) -> str:
        """Close one table (its learners are told); its code."""

    async def forget_tables(self) -> int:
        """Every table goes; how many there were."""


def teacher_routes(server: ClassTables, records: Records, store: Store, key: str | None) -> list[Route]:
    """The teacher's endpoints over the ``records`` in ``store`` and the live tables ``server``; with no ``key``
    (and no hub) they refuse everyone."""

    def check(request: Request) -> None:
        check_teacher(request, key)

    def seated(lesson: str | None, learner: str | None) -> dict[str, list[str]]:
        """The seated learners for the report: with a lesson filter, those at that lesson's tables are not asked for
        (a table is no lesson's)."""
        return {} if lesson is not None else server.seated_learners(learner)

    async def all_records() -> list[Record]:
        return await store.run(records.all)

    async def tables_now(stalled: int) -> dict[str, Any]:
        return await server.report(stalled)

    async def learners(request: Request) -> JSONResponse:
        check(request)
        lesson, learner = _query_filters(request)
        return JSONResponse({"learners": learner_report(_filtered(await all_records(), lesson, learner),
                                                        seated(lesson, learner))})

    async def exercises(request: Request) -> JSONResponse:
        check(request)
        lesson, learner = _query_filters(request)
        return JSONResponse({"exercises": exercise_report(_filtered(await all_records(), lesson, learner))})

    async def tables(request: Request) -> JSONResponse:
        check(request)
        return JSONResponse(await tables_now(_stalled(request)))

    async def whole_class(request: Request) -> JSONResponse:
        check(request)
        lesson, learner = _query_filters(request)
        stalled = _stalled(request)
        chosen = _filtered(await all_records(), lesson, learner)
        return JSONResponse({"learners": learner_report(chosen, seated(lesson, learner)),
                             "exercises": exercise_report(chosen), **(await tables_now(stalled))})

    async def export(request: Request) -> Response:
        check(request)
        return Response(csv_text(await all_records()), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": "attachment; filename=railkit-answers.csv"})

    async def forget(request: Request) -> JSONResponse:
        check(request)
        body = await read_body(request)
        if body.get("confirm") != FORGET_WORDS:
            raise ProtocolError("bad_message", "TEACHER-CONFIRM", f"to delete every record and table, send "
                                                                  f"{{\"confirm\": \"{FORGET_WORDS}\"}}")
        gone_records = await store.run(records.forget)
        gone_tables = await server.forget_tables()
        return JSONResponse({"records": gone_records, "tables": gone_tables})

    async def seat_bot(request: Request) -> JSONResponse:
        check(request)
        return JSONResponse(await server.teacher_seat_bot(request.path_params["code"], await read_body(request)))

    async def close(request: Request) -> JSONResponse:
        check(request)
        body = await read_body(request)
        if body.get("confirm") != CLOSE_WORDS:
            raise ProtocolError("bad_message", "TEACHER-CONFIRM", f"to close the table, send "
                                                                  f"{{\"confirm\": \"{CLOSE_WORDS}\"}}")
        return JSONResponse({"closed": await server.close_table(request.path_params["code"])})

    return [
        Route("/api/teacher/tables/{code}/bot", seat_bot, methods=["POST"]),
        Route("/api/teacher/tables/{code}/close", close, methods=["POST"]),
        Route("/api/teacher/learners", learners, methods=["GET"]),
        Route("/api/teacher/exercises", exercises, methods=["GET"]),
        Route("/api/teacher/tables", tables, methods=["GET"]),
        Route("/api/teacher/class", whole_class, methods=["GET"]),
        Route("/api/teacher/records.csv", export, methods=["GET"]),
        Route("/api/teacher/forget", forget, methods=["POST"]),
    ]


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    try:
        print(load_key(Path(args[0]) if args else None))
    except KeyProblem as exc:
        sys.exit(str(exc))


if __name__ == "__main__":
    main()
