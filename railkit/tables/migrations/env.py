"""Alembic's entry: the migrations run on the connection ``railkit.tables.migrations.upgrade`` opened (inside its
transaction, under its lock)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
