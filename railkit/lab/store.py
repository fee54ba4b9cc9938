"""Ladder results in a SQLite file: one row per game played, appended as games finish.

A run is its ``LadderSpec`` (game, players, bots, games, seed): the same command run again finds the games it
already played (``done``) and plays only the rest, so an interrupted run resumes where it stopped; several
runs share one file and can be compared (``runs``). Each game keeps its action log, so any game can be replayed
(``railkit.lab.ladder.replay``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import asdict
from pathlib import Path

from railkit.lab.records import GameRecord, LadderSpec

__all__ = ["Store"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run TEXT PRIMARY KEY,
    spec TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    run TEXT NOT NULL,
    idx INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (run, idx)
);
"""


class Store:
    """One results file (SQLite, WAL): the runs and their games."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if self.path.parent and not self.path.parent.exists():
            raise FileNotFoundError(f"the folder of {self.path} does not exist")
        with closing(self._connect()) as db:
            db.executescript(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=60)
        db.execute("PRAGMA journal_mode=WAL")
        return db

    def begin(self, spec: LadderSpec) -> None:
        """Record the run (once; the same spec again is the same run)."""
        with closing(self._connect()) as db, db:
            db.execute("INSERT OR IGNORE INTO runs (run, spec) VALUES (?, ?)", (spec.key(), json.dumps(asdict(spec))))

    def done(self, spec: LadderSpec) -> set[int]:
        """The game numbers of ``spec`` already played."""
        with closing(self._connect()) as db:
            return {i for (i,) in db.execute("SELECT idx FROM games WHERE run = ?", (spec.key(),))}

    def add(self, spec: LadderSpec, records: Iterable[GameRecord]) -> int:
        """Append finished games (a game already stored is kept as it was); how many were new."""
        rows = [(spec.key(), r.index, json.dumps(asdict(r), ensure_ascii=False)) for r in records]
        with closing(self._connect()) as db, db:
            before = db.total_changes
            db.executemany("INSERT OR IGNORE INTO games (run, idx, record) VALUES (?, ?, ?)", rows)
            return db.total_changes - before

    def records(self, spec: LadderSpec) -> list[GameRecord]:
        """The games of ``spec`` played so far, in game order."""
        return list(self._records(spec.key()))

    def _records(self, run: str) -> Iterator[GameRecord]:
        with closing(self._connect()) as db:
            for (text,) in db.execute("SELECT record FROM games WHERE run = ? ORDER BY idx", (run,)):
                yield GameRecord.from_dict(json.loads(text))

    def runs(self) -> list[tuple[LadderSpec, int]]:
        """Every run in the file with the number of its games played."""
        with closing(self._connect()) as db:
            rows = db.execute("SELECT r.spec, COUNT(g.idx) FROM runs r LEFT JOIN games g ON g.run = r.run "
                              "GROUP BY r.run ORDER BY r.rowid").fetchall()
        return [(LadderSpec.from_dict(json.loads(spec)), count) for spec, count in rows]

    def record(self, spec: LadderSpec, index: int) -> GameRecord | None:
        with closing(self._connect()) as db:
            row = db.execute("SELECT record FROM games WHERE run = ? AND idx = ?", (spec.key(), index)).fetchone()
        return None if row is None else GameRecord.from_dict(json.loads(row[0]))

    def __repr__(self) -> str:
        return f"<Store {self.path}>"

