"""The record of learning: what each named learner did in the lessons, one row per event, in the table
server's database (beside its tables).

A lesson's kernel sends ``POST /api/records`` with one event (``parse_record`` says what is accepted):

* ``{"event": "opened", "learner", "lesson", "visit"}``: the learner opened a lesson page. Openings of one lesson by
  one learner less than ``SAME_OPENING_SECONDS`` apart are one opening (only the first is stored): a page that
  loads itself again at once (to take the learner's language or progress key into its address) starts a second
  kernel, which says "opened" too;
* ``{"event": "finished", ...}``: the learner finished it (enough exercises right, or a game played to its end);
* ``{"event": "answer", ..., "exercise", "right", "attempt", "hints", "why", "seconds", "rules"}``: one checked
  answer to an exercise (``attempt`` 1 is the first check of that question).

Only what the learner typed as their name (or their hub user name) identifies them; nothing else about them
is stored. Every field is bounded and every refusal names its limit (``RECORDS-*``) and stores nothing.
The teacher reads the records (``railkit.tables.teacher``); a learner reads only their own
(``railkit.tables.progress``): off the hub with the **progress key** the server gives back with the first record
stored under a name (``{"ok": true, "learner_key": KEY}``, once; kept as a SHA-256 digest in ``rk_learner_keys``),
on the hub as the hub user.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import secrets
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Column, DateTime, Engine, Integer, MetaData, String, delete, func, insert, select
from sqlalchemy import Table as SqlTable
from sqlalchemy.exc import IntegrityError

from railkit.game import MAX_NAME_LENGTH
from railkit.lessons import LESSONS
from railkit.tables.protocol import ProtocolError, RateLimiter

__all__ = ["CSV_COLUMNS", "EVENTS", "LESSON_IDS", "MAX_RECORDS", "MAX_RECORDS_PER_LEARNER", "SAME_OPENING_SECONDS", "Record",
           "RecordLimits", "Records",
           "check_learner", "csv_text", "key_hash", "parse_record", "rk_learner_keys", "rk_records"]

EVENTS = ("opened", "finished", "answer")
LESSON_IDS = frozenset(x.id for x in LESSONS)
MAX_RECORDS = 200_000  # RECORDS-COUNT: 30 learners answering 2,000 exercises each in a term stay far below
MAX_RECORDS_PER_LEARNER = 20_000  # RECORDS-COUNT: per learner name
MAX_RULES = 8  # rule IDs one answer may name
MAX_COUNT = 1000  # attempt, hints and why: more is no real learner's number
MAX_SECONDS = 24 * 3600
SAME_OPENING_SECONDS = 30  # two "opened" of one lesson by one learner closer than this are one opening
_EXERCISE = re.compile(r"[a-z0-9][a-z0-9_.-]{0,59}")
_VISIT = re.compile(r"[A-Za-z0-9_-]{8,64}")
_RULE = re.compile(r"[A-Z]{2,6}-[A-Za-z0-9.-]{1,16}")

# The CSV export's columns, one row per checked answer (README, "What the teacher's room stores").
CSV_COLUMNS = ("time", "learner", "lesson", "exercise", "right", "attempt", "hints", "why", "seconds", "rules")

metadata = MetaData()

rk_records = SqlTable(
    "rk_records", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("learner", String(MAX_NAME_LENGTH * 2), nullable=False, index=True),
    Column("lesson", String(40), nullable=False),
    Column("event", String(10), nullable=False),
    Column("visit", String(64), nullable=False),  # one opening of a lesson page (a random word from its kernel)
    Column("exercise", String(60)),
    Column("right", Boolean),
    Column("attempt", Integer),
    Column("hints", Integer),
    Column("why", Integer),
    Column("seconds", Integer),
    Column("rules", JSON),
)

# Each learner name's progress key (RECORDS-KEY): only its SHA-256 digest, so a copy of the database reads no one's.
rk_learner_keys = SqlTable(
    "rk_learner_keys", metadata,
    Column("learner", String(MAX_NAME_LENGTH * 2), primary_key=True),
    Column("key_hash", String(64), nullable=False),
    Column("made", DateTime(timezone=True), nullable=False),
)
MAX_KEY_LENGTH = 200


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True, slots=True)
class Record:
    """One event, checked (``parse_record``) or read back from the database."""

    learner: str
    lesson: str
    event: str
    visit: str
    exercise: str | None = None
    right: bool | None = None
    attempt: int | None = None
    hints: int | None = None
    why: int | None = None
    seconds: int | None = None
    rules: tuple[str, ...] = ()
    at: datetime | None = None


def _refuse(rule: str, message: str) -> ProtocolError:
    return ProtocolError("bad_record", rule, message)


def check_learner(value: object) -> str:
    """A learner's name as the lessons accept one: 1 to ``MAX_NAME_LENGTH`` characters, no control
    characters, spaces tidied."""
    if not isinstance(value, str) or len(value) > 4 * MAX_NAME_LENGTH:
        raise _refuse("RECORDS-NAME", f"\"learner\" is the learner's name: text of at most {MAX_NAME_LENGTH} "
                                      "characters")
    if any(unicodedata.category(ch)[0] == "C" for ch in value):
        raise _refuse("RECORDS-NAME", "\"learner\" cannot hold control characters")
    name = " ".join(value.split())
    if not name or len(name) > MAX_NAME_LENGTH:
        raise _refuse("RECORDS-NAME", f"\"learner\" is the learner's name: 1 to {MAX_NAME_LENGTH} characters")
    return name


def _count(data: Mapping[str, Any], key: str, lo: int, hi: int, default: int | None = None) -> int | None:
    value = data.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _refuse("RECORDS-FIELD", f"\"{key}\" is a whole number from {lo} to {hi}")
    return value


def parse_record(data: Mapping[str, Any]) -> Record:
    """One event from a lesson, every field checked; ``ProtocolError`` naming the field otherwise."""
    known = {"event", "learner", "lesson", "visit", "exercise", "right", "attempt", "hints", "why", "seconds", "rules"}
    strangers = sorted(str(k)[:20] for k in data if k not in known)
    if strangers:
        raise _refuse("RECORDS-FIELD", f"unknown field {strangers[0]!r}; a record has {', '.join(sorted(known))}")
    event = data.get("event")
    if event not in EVENTS:
        raise _refuse("RECORDS-EVENT", f"\"event\" is one of {', '.join(EVENTS)}")
    learner = check_learner(data.get("learner"))
    lesson = data.get("lesson")
    if lesson not in LESSON_IDS:
        raise _refuse("RECORDS-LESSON", f"\"lesson\" is one of the lessons: {', '.join(sorted(LESSON_IDS))}")
    visit = data.get("visit")
    if not isinstance(visit, str) or not _VISIT.fullmatch(visit):
        raise _refuse("RECORDS-FIELD", "\"visit\" is 8 to 64 letters, digits, '-' or '_'")
    if event != "answer":
        extra = sorted(k for k in data if k not in ("event", "learner", "lesson", "visit"))
        if extra:
            raise _refuse("RECORDS-FIELD", f"an {event} record has no {extra[0]!r}")
        return Record(learner, str(lesson), str(event), visit)
    exercise = data.get("exercise")
    if not isinstance(exercise, str) or not _EXERCISE.fullmatch(exercise):
        raise _refuse("RECORDS-EXERCISE", "\"exercise\" is 1 to 60 lower-case letters, digits, '_', '.' or '-'")
    right = data.get("right")
    if not isinstance(right, bool):
        raise _refuse("RECORDS-FIELD", "\"right\" is true or false")
    rules = data.get("rules", [])
    if not isinstance(rules, list) or len(rules) > MAX_RULES \
            or not all(isinstance(r, str) and _RULE.fullmatch(r) for r in rules):
        raise _refuse("RECORDS-RULES", f"\"rules\" is a list of at most {MAX_RULES} rule IDs such as \"UP-D4\"")
    return Record(learner, str(lesson), "answer", visit, exercise, right,
                  _count(data, "attempt", 1, MAX_COUNT, 1), _count(data, "hints", 0, MAX_COUNT, 0),
                  _count(data, "why", 0, MAX_COUNT, 0), _count(data, "seconds", 0, MAX_SECONDS),
                  tuple(dict.fromkeys(rules)))


@dataclass(frozen=True)
class RecordLimits:
    per_learner_per_second: float = 5.0  # RECORDS-RATE (bursts of twice that)
    per_server_per_second: float = 200.0  # RECORDS-RATE: all learners together
    max_records: int = MAX_RECORDS
    max_records_per_learner: int = MAX_RECORDS_PER_LEARNER


class Records:
    """The records' table on the tables' database engine."""

    MAX_LIMITERS = 10_000  # learner names with a rate limiter in memory (the oldest go first)

    def __init__(self, engine: Engine, limits: RecordLimits | None = None) -> None:
        self.engine = engine
        self.limits = limits or RecordLimits()
        metadata.create_all(engine)
        self._limiters: OrderedDict[str, RateLimiter] = OrderedDict()
        self._server_limiter = RateLimiter(self.limits.per_server_per_second)
        self._counts: dict[str, int] | None = None  # records per learner, read once then kept
        self._total = 0
        self._cache: list[Record] = []  # every record read so far, in id order (the teacher's reports)
        self._cache_last = 0  # the id of the last one
        self._keyed: set[str] = set()  # names known to have a progress key (none is ever taken back but by forget)

    def _load_counts(self) -> dict[str, int]:
        if self._counts is None:
            with self.engine.connect() as conn:
                self._counts = {r.learner: int(r.n) for r in conn.execute(
                    select(rk_records.c.learner, func.count().label("n")).group_by(rk_records.c.learner))}
            self._total = sum(self._counts.values())
        return self._counts

    def _limiter(self, learner: str) -> RateLimiter:
        limiter = self._limiters.pop(learner, None) or RateLimiter(self.limits.per_learner_per_second)
        self._limiters[learner] = limiter
        while len(self._limiters) > self.MAX_LIMITERS:
            self._limiters.popitem(last=False)
        return limiter

    def add(self, record: Record) -> bool:
        """Store one checked record; ``ProtocolError`` (nothing stored) when a limit is reached. False (nothing
        stored) for an opening that repeats one made less than ``SAME_OPENING_SECONDS`` ago."""
        counts = self._load_counts()
        if not self._limiter(record.learner).allow() or not self._server_limiter.allow():
            raise ProtocolError("too_fast", "RECORDS-RATE", f"at most {self.limits.per_learner_per_second:g} records "
                                                            "a second per learner; send again in a moment")
        if self._total >= self.limits.max_records or counts.get(record.learner, 0) >= self.limits.max_records_per_learner:
            raise ProtocolError("limit", "RECORDS-COUNT", "this server keeps no more records (for this learner); the "
                                                          "teacher can export them and forget the class")
        now = record.at or datetime.now(UTC)
        with self.engine.begin() as conn:
            if record.event == "opened":
                last = conn.execute(select(func.max(rk_records.c.at)).where(
                    rk_records.c.learner == record.learner, rk_records.c.lesson == record.lesson,
                    rk_records.c.event == "opened")).scalar_one_or_none()
                if last is not None and (now - _utc(last)).total_seconds() < SAME_OPENING_SECONDS:
                    return False
            conn.execute(insert(rk_records).values(
                at=now, learner=record.learner, lesson=record.lesson, event=record.event,
                visit=record.visit, exercise=record.exercise, right=record.right, attempt=record.attempt,
                hints=record.hints, why=record.why, seconds=record.seconds,
                rules=list(record.rules) if record.event == "answer" else None))
        counts[record.learner] = counts.get(record.learner, 0) + 1
        self._total += 1
        return True

    def issue_key(self, learner: str) -> str | None:
        """A new progress key for ``learner`` if the name has none yet (the first record under it), else None:
        a key is given out once, to whoever recorded first under the name."""
        if learner in self._keyed:
            return None
        if len(self._keyed) > self.MAX_LIMITERS:
            self._keyed.clear()
        self._keyed.add(learner)
        key = secrets.token_urlsafe(24)
        try:
            with self.engine.begin() as conn:
                if conn.execute(select(rk_learner_keys.c.learner).where(rk_learner_keys.c.learner == learner)).first():
                    return None
                conn.execute(insert(rk_learner_keys).values(learner=learner, key_hash=key_hash(key),
                                                            made=datetime.now(UTC)))
        except IntegrityError:  # another process gave this name its key just now
            return None
        return key

    def key_matches(self, learner: str, key: str) -> bool:
        """Is ``key`` the progress key of ``learner``? (A name without a key matches nothing.)"""
        if not key or len(key) > MAX_KEY_LENGTH:
            return False
        with self.engine.connect() as conn:
            stored = conn.execute(select(rk_learner_keys.c.key_hash)
                                  .where(rk_learner_keys.c.learner == learner)).scalar_one_or_none()
        return stored is not None and secrets.compare_digest(str(stored), key_hash(key))

    def of(self, learner: str) -> list[Record]:
        """Every record of one learner, in the order they came (at most ``max_records_per_learner``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(rk_records).where(rk_records.c.learner == learner)
                                .order_by(rk_records.c.id).limit(self.limits.max_records_per_learner)).all()
        return [Record(r.learner, r.lesson, r.event, r.visit, r.exercise, r.right, r.attempt, r.hints, r.why,
                       r.seconds, tuple(r.rules or ()), _utc(r.at)) for r in rows]

    def all(self) -> list[Record]:
        """Every record in the order they came. Records are only ever added or all deleted, so what was read
        before is kept and only newer rows are read (another server process may have added them too)."""
        with self.engine.connect() as conn:
            count, last = conn.execute(select(func.count(), func.max(rk_records.c.id))).one()
            if count == len(self._cache) and (last or 0) == self._cache_last:
                return list(self._cache)
            newer = int(count) - len(self._cache)
            query = select(rk_records).order_by(rk_records.c.id)
            if self._cache and newer > 0:  # unless a forget came between: then everything again
                rows = conn.execute(query.where(rk_records.c.id > self._cache_last)).all()
                if len(rows) != newer:
                    self._cache, rows = [], conn.execute(query).all()
            else:
                self._cache, rows = [], conn.execute(query).all()
        self._cache.extend(Record(r.learner, r.lesson, r.event, r.visit, r.exercise, r.right, r.attempt, r.hints,
                                  r.why, r.seconds, tuple(r.rules or ()), _utc(r.at)) for r in rows)
        self._cache_last = int(rows[-1].id) if rows else self._cache_last if self._cache else 0
        return list(self._cache)

    def forget(self) -> int:
        """Delete every record and every learner's progress key; how many records there were."""
        with self.engine.begin() as conn:
            gone = conn.execute(delete(rk_records)).rowcount
            conn.execute(delete(rk_learner_keys))
        self._counts, self._total = None, 0
        self._cache, self._cache_last = [], 0
        self._limiters.clear()
        self._keyed.clear()
        return int(gone or 0)


def _utc(at: datetime) -> datetime:
    """SQLite gives back naive datetimes: they were stored as UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def csv_text(records: Iterable[Record]) -> str:
    """The answers as CSV, one row per checked answer, columns ``CSV_COLUMNS`` (times in UTC, ISO 8601;
    ``right`` is 1 or 0; ``rules`` separated by spaces)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for r in records:
        if r.event != "answer":
            continue
        writer.writerow([r.at.isoformat(timespec="seconds") if r.at else "", _cell(r.learner), r.lesson, r.exercise,
                         int(bool(r.right)), r.attempt if r.attempt is not None else "", r.hints or 0, r.why or 0,
                         r.seconds if r.seconds is not None else "", " ".join(r.rules)])
    return out.getvalue()


def _cell(text: str) -> str:
    """A learner's name as a spreadsheet reads it: never as a formula (a name may start with = + - @)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
