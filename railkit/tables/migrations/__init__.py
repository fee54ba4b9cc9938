"""The table server's database schema, migrated with Alembic: ``upgrade(engine)`` brings any database this server
or an earlier one made up to the newest schema, at every start (``railkit.tables.store.Store``).

``versions/`` holds one file per step, in order: ``0001`` is the schema as issue 33 left it (made when missing, so
a database from before the migrations needs no step of its own), ``0002`` what issue 34 added (each table's rules
version and whether its deal was chosen, names in one Unicode form, progress keys per name as compared). A new
step is a new file whose ``down_revision`` names the last one; ``tests/tables/test_tables_migrations.py`` checks
that the steps end at the schema the code declares and upgrades a database made by the landed version.

Two server processes may start together on one database: the upgrade runs inside one transaction that first
takes a lock only one of them can hold (PostgreSQL: an advisory lock; SQLite: ``BEGIN IMMEDIATE``), so the second
finds the work done.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

__all__ = ["HEAD", "current", "upgrade"]

FOLDER = Path(__file__).resolve().parent
ADVISORY_LOCK = 7_341_034  # any number of our own: the migrations' lock on PostgreSQL


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(FOLDER))
    return config


HEAD = ScriptDirectory.from_config(_config()).get_current_head()


def upgrade(engine: Engine) -> None:
    """The database of ``engine`` at the newest schema (nothing happens when it is there already)."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # the one writer from here to the commit
        elif engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
        if MigrationContext.configure(conn).get_current_revision() != HEAD:
            config = _config()
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
        conn.commit()


def current(engine: Engine) -> str | None:
    """The schema revision the database is at (None: made by no migration)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
