"""The table server's schema migrations (``railkit.tables.migrations``, Alembic): a database made by the landed
version of issue 33 (``data/landed_issue33.sqlite``, made by that version's own server: ``data/make_landed_db.py``)
is upgraded at the first start and keeps everything (its tables replay, the closed code stays closed, the
records and progress keys still open), names in NFC and compared as one; the same rows in PostgreSQL, in the
landed schema, upgrade the same way; the migrations end at exactly the schema the code declares."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from tables_client import Client, ServerProcess, call

from railkit.classroom.records import metadata as records_metadata
from railkit.tables import migrations
from railkit.tables.store import database_url
from railkit.tables.store import metadata as tables_metadata

pytestmark = pytest.mark.server

LANDED = Path(__file__).parent / "data" / "landed_issue33.sqlite"
# What make_landed_db.py printed when it made the file (the codes are random; the keys only it knew).
KK, UP, NAMED, CLOSED = "SHDNDJ", "M73RKJ", "WCCWDA", "38W8K2"
KEYS = {"Ann": "9EQ-JNKINklydJFVLN4faNO1q6FSnJkR", "ann": "uBnW5IlhLmJJ7Ec2yUujSBGVPIq4Lyni",
        "Jose\u0301": "5vKr2TV4D6G0IMIULbvjdArZ98szF9fH", "Jos\u00e9": "K9JMBxy4Hme8kcRVbOtikQWvmjsJXVLD"}
LANDED_TABLES = ("rk_tables", "rk_seats", "rk_actions", "rk_closed_tables", "rk_records", "rk_learner_keys")


def schema_drift(url: str) -> list[Any]:
    """What differs between the migrated database and the schema the code declares (nothing, we hope)."""
    declared = sa.MetaData()
    for metadata in (tables_metadata, records_metadata):
        for table in metadata.tables.values():
            table.to_metadata(declared)
    engine = sa.create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), declared))
    finally:
        engine.dispose()


def check_upgraded(server: ServerProcess) -> None:
    base = f"http://127.0.0.1:{server.port}/api"
    kk = call("GET", f"{base}/tables/{KK}")[1]
    assert kk["seq"] == 1 and kk["seats"] == {"Ann": "human", "Ben": "open", "Cy": "open"}
    assert not kk["chosen_deal"]  # the old API allowed a seed; nothing says which tables used it
    up = call("GET", f"{base}/tables/{UP}")[1]
    assert up["is_over"] and up["seq"] == 135
    replay = Client(server, UP).state["replay"]  # a finished table made before the change replays as everyone saw it
    assert len(replay["steps"]) == 136 and "seed" not in json.dumps(replay)
    named = call("GET", f"{base}/tables/{NAMED}")[1]  # the seat named in decomposed Unicode, in NFC now
    assert named["seats"] == {"Kim": "human", "José": "human"}
    assert call("GET", f"{base}/tables/{CLOSED}")[0] == 410
    for typed, key in KEYS.items():  # each key still opens its learner's records, now one learner per name as compared
        status, mine = call("GET", f"{base}/records?learner={quote(typed)}", headers={"X-Railkit-Learner-Key": key})
        assert status == 200 and mine["total"] == 2, (typed, mine)


def test_MIGRATIONS_a_sqlite_database_of_the_landed_version_upgrades_and_keeps_everything(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"
    shutil.copy(LANDED, db)
    with sqlite3.connect(db) as conn:
        assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} == set(LANDED_TABLES)
    server = ServerProcess(f"sqlite:///{db}").start()
    try:
        check_upgraded(server)
    finally:
        server.stop()
    assert migrations.current(sa.create_engine(f"sqlite:///{db}")) == migrations.HEAD
    assert schema_drift(f"sqlite:///{db}") == []
    server.start()  # a second start finds the work done
    server.stop()


def test_MIGRATIONS_the_same_rows_in_postgresql_upgrade_the_same_way(postgres: Any) -> None:
    url = postgres.new_database()
    engine = sa.create_engine(database_url(url))
    try:
        with engine.begin() as conn:  # the landed schema (migration 0001 is its copy), no alembic_version: as
            config = migrations._config()  # a database made before the migrations
            config.attributes["connection"] = conn
            command.upgrade(config, "0001")
            conn.execute(sa.text("DROP TABLE alembic_version"))
            landed = sqlite3.connect(LANDED)
            landed.row_factory = sqlite3.Row
            for name in LANDED_TABLES:
                table = sa.Table(name, sa.MetaData(), autoload_with=conn)
                rows = [dict(r) for r in landed.execute(f"SELECT * FROM {name}")]  # noqa: S608 - our own names
                for row in rows:
                    for column in table.columns:
                        if isinstance(column.type, sa.JSON) and isinstance(row.get(column.name), str):
                            row[column.name] = json.loads(row[column.name])
                        if isinstance(column.type, sa.Boolean) and row.get(column.name) is not None:
                            row[column.name] = bool(row[column.name])
                if rows:
                    conn.execute(table.insert(), rows)
            conn.execute(sa.text("SELECT setval('rk_tables_id_seq', (SELECT max(id) FROM rk_tables))"))
            conn.execute(sa.text("SELECT setval('rk_records_id_seq', (SELECT max(id) FROM rk_records))"))
            landed.close()
    finally:
        engine.dispose()
    server = ServerProcess(url).start()
    try:
        check_upgraded(server)
    finally:
        server.stop()
    assert schema_drift(url) == []
