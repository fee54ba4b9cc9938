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
is stored. The name is kept in NFC and compared as ``railkit.tables.names.name_key`` compares it: "José" typed
with a combining accent, "JOSÉ" and "José" are one learner, with one set of records and one progress key. Every
field is bounded and every refusal names its limit (``RECORDS-*``) and stores nothing.

Fair to every learner (RECORDS-RATE, RECORDS-NAMES): each learner's name has its own rate, each client (the hub
user on the class hub, else the address the request came from) its own rate and its own allowance of names never
seen before; nothing is shared by all, so a client that floods records, under one name or thousands, is refused
on its own and never crowds out another learner. Under ``make run`` every lesson's kernel calls from the same
machine, so there the kernels share one client's rate (``RecordLimits.per_client_per_second``, sized for a class).
The teacher reads the records (``railkit.classroom.teacher``); a learner reads only their own
(``railkit.classroom.progress``): off the hub with the **progress key** the server gives back with the first record
stored under a name (``{"ok": true, "learner_key": KEY}``, once; kept as a SHA-256 digest in ``rk_progress_keys``),
on the hub as the hub user.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import secrets
import threading
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
from railkit.tables.limits import RateLimiter
from railkit.tables.names import name_key
from railkit.wire import ProtocolError

__all__ = ["CSV_COLUMNS", "EVENTS", "LESSON_IDS", "MAX_RECORDS", "MAX_RECORDS_PER_LEARNER", "SAME_OPENING_SECONDS", "Record",
           "RecordLimits", "Records",
           "check_learner", "csv_text", "key_hash", "parse_record", "rk_progress_keys", "rk_records"]

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
    Column("learner", String(MAX_NAME_LENGTH * 2), nullable=False, index=True),  # NFC, as typed
    Column("learner_key", String(MAX_NAME_LENGTH * 4), nullable=False, index=True),  # name_key(learner)
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

# Each learner's progress key (RECORDS-KEY), by the name as compared: only its SHA-256 digest, so a copy of the
# database reads no one's. A name has one key, given with its first record (two only where the migration of issue
# 34 found one name under two spellings, each with its key: both still open it).
rk_progress_keys = SqlTable(
    "rk_progress_keys", metadata,
    Column("learner_key", String(MAX_NAME_LENGTH * 4), primary_key=True),
    Column("key_hash", String(64), primary_key=True),
    Column("learner", String(MAX_NAME_LENGTH * 2), nullable=False),
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
    """A learner's name as the lessons accept one, in NFC: 1 to ``MAX_NAME_LENGTH`` characters, no control
    characters, spaces tidied."""
    if isinstance(value, str) and len(value) <= 4 * MAX_NAME_LENGTH:
        value = unicodedata.normalize("NFC", value)
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
    per_learner_per_second: float = 5.0  # RECORDS-RATE: per name (bursts of twice that)
    per_client_per_second: float = 60.0  # RECORDS-RATE: per client (a whole class under `make run`)
    new_names_per_minute: float = 30.0  # RECORDS-NAMES: names never seen before, per client ...
    new_names_burst: int = 60  # ... after a first burst of this many (a class arriving at once)
    max_records: int = MAX_RECORDS
    max_records_per_learner: int = MAX_RECORDS_PER_LEARNER


class Records:
    """The records' table on the tables' database engine (made by the migrations: ``railkit.tables.store``)."""

    MAX_LIMITERS = 10_000  # names and clients with a rate limiter in memory (the oldest go first)

    def __init__(self, engine: Engine, limits: RecordLimits | None = None) -> None:
        self.engine = engine
        self.limits = limits or RecordLimits()
        self._limiters: OrderedDict[tuple[str, str], RateLimiter] = OrderedDict()
        self._counts: dict[str, int] | None = None  # records per name (by name_key), read once then kept
        self._total = 0
        self._cache: list[Record] = []  # every record read so far, in id order (the teacher's reports)
        self._cache_last = 0  # the id of the last one
        self._keyed: set[str] = set()  # names (name_key) known to have a progress key (none is taken back but by forget)
        self._lock = threading.Lock()  # the counts and the cache: the database calls run on several threads

    def counts(self) -> None:
        """Read the records' counts per name (once; the server does it at start, off the event loop)."""
        with self._lock:
            self._load_counts()

    def _load_counts(self) -> dict[str, int]:
        if self._counts is None:
            with self.engine.connect() as conn:
                self._counts = {r.learner_key: int(r.n) for r in conn.execute(
                    select(rk_records.c.learner_key, func.count().label("n")).group_by(rk_records.c.learner_key))}
            self._total = sum(self._counts.values())
        return self._counts

    def _limiter(self, kind: str, who: str, rate: float, burst: float | None = None) -> RateLimiter:
        limiter = self._limiters.pop((kind, who), None) or RateLimiter(rate, burst)
        self._limiters[(kind, who)] = limiter
        while len(self._limiters) > self.MAX_LIMITERS:
            self._limiters.popitem(last=False)
        return limiter

    def admit(self, record: Record, client: str) -> None:
        """RECORDS-RATE and RECORDS-NAMES for one record from ``client`` (``ProtocolError``: refused, nothing
        counted against anyone else). Reads the counts from the database once (call it off the event loop then)."""
        key = name_key(record.learner)
        counts = self._load_counts()
        limits = self.limits
        if not self._limiter("client", client, limits.per_client_per_second).allow():
            raise ProtocolError("too_fast", "RECORDS-RATE", f"at most {limits.per_client_per_second:g} records a second "
                                                            "from one place; send again in a moment")
        if key not in counts and not self._limiter("names", client, limits.new_names_per_minute / 60,
                                                   limits.new_names_burst).allow():
            raise ProtocolError("too_fast", "RECORDS-NAMES", f"at most {limits.new_names_per_minute:g} new learners' "
                                                             "names a minute from one place; send again in a minute")
        if not self._limiter("name", key, limits.per_learner_per_second).allow():
            raise ProtocolError("too_fast", "RECORDS-RATE", f"at most {limits.per_learner_per_second:g} records "
                                                            "a second per learner; send again in a moment")

    def add(self, record: Record, client: str | None = None) -> bool:
        """Store one checked record (``admit``-ted first when ``client`` is given); ``ProtocolError`` (nothing
        stored) when a limit is reached. False (nothing stored) for an opening that repeats one made less than
        ``SAME_OPENING_SECONDS`` ago."""
        if client is not None:
            self.admit(record, client)
        key = name_key(record.learner)
        counts = self._load_counts()
        if self._total >= self.limits.max_records or counts.get(key, 0) >= self.limits.max_records_per_learner:
            raise ProtocolError("limit", "RECORDS-COUNT", "this server keeps no more records (for this learner); the "
                                                          "teacher can export them and forget the class")
        now = record.at or datetime.now(UTC)
        with self.engine.begin() as conn:
            if record.event == "opened":
                last = conn.execute(select(func.max(rk_records.c.at)).where(
                    rk_records.c.learner_key == key, rk_records.c.lesson == record.lesson,
                    rk_records.c.event == "opened")).scalar_one_or_none()
                if last is not None and (now - _utc(last)).total_seconds() < SAME_OPENING_SECONDS:
                    return False
            conn.execute(insert(rk_records).values(
                at=now, learner=record.learner, learner_key=key, lesson=record.lesson, event=record.event,
                visit=record.visit, exercise=record.exercise, right=record.right, attempt=record.attempt,
                hints=record.hints, why=record.why, seconds=record.seconds,
                rules=list(record.rules) if record.event == "answer" else None))
        with self._lock:
            counts[key] = counts.get(key, 0) + 1
            self._total += 1
        return True

    def issue_key(self, learner: str) -> str | None:
        """A new progress key for ``learner`` if the name (as compared) has none yet (the first record under it),
        else None: a key is given out once, to whoever recorded first under the name."""
        key_of = name_key(learner)
        if key_of in self._keyed:
            return None
        if len(self._keyed) > self.MAX_LIMITERS:
            self._keyed.clear()
        self._keyed.add(key_of)
        key = secrets.token_urlsafe(24)
        try:
            with self.engine.begin() as conn:
                if conn.execute(select(rk_progress_keys.c.learner_key)
                                .where(rk_progress_keys.c.learner_key == key_of)).first():
                    return None
                conn.execute(insert(rk_progress_keys).values(learner_key=key_of, key_hash=key_hash(key),
                                                             learner=learner, made=datetime.now(UTC)))
        except IntegrityError:  # another process gave this name its key just now
            return None
        return key

    def key_matches(self, learner: str, key: str) -> bool:
        """Is ``key`` a progress key of ``learner`` (the name as compared)? A name without a key matches nothing."""
        if not key or len(key) > MAX_KEY_LENGTH:
            return False
        digest = key_hash(key)
        with self.engine.connect() as conn:
            stored = conn.execute(select(rk_progress_keys.c.key_hash)
                                  .where(rk_progress_keys.c.learner_key == name_key(learner))).scalars().all()
        return any(secrets.compare_digest(str(s), digest) for s in stored)

    def of(self, learner: str) -> list[Record]:
        """Every record of one learner, in the order they came (at most ``max_records_per_learner``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(rk_records).where(rk_records.c.learner_key == name_key(learner))
                                .order_by(rk_records.c.id).limit(self.limits.max_records_per_learner)).all()
        return [Record(r.learner, r.lesson, r.event, r.visit, r.exercise, r.right, r.attempt, r.hints, r.why,
                       r.seconds, tuple(r.rules or ()), _utc(r.at)) for r in rows]

    def all(self) -> list[Record]:
        """Every record in the order they came. Records are only ever added or all deleted, so what was read
        before is kept and only newer rows are read (another server process may have added them too)."""
        with self._lock:
            return self._all()

    def _all(self) -> list[Record]:
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
            conn.execute(delete(rk_progress_keys))
        with self._lock:
            self._counts, self._total = {}, 0
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
