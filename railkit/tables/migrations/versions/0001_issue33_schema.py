"""The schema as issue 33 left it (made by ``metadata.create_all``, before the migrations): made here when missing.

A database made before the migrations has these tables already and no ``alembic_version``: this step then makes
nothing and only marks the database as at 0001.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tz() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "rk_tables" not in present:
        op.create_table(
            "rk_tables",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("code", sa.String(12), nullable=False, unique=True),
            sa.Column("game", sa.String(40), nullable=False),
            sa.Column("players", sa.JSON, nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("options", sa.JSON, nullable=False),
            sa.Column("creator_hash", sa.String(64), nullable=False),
            sa.Column("created", _tz(), nullable=False),
        )
    if "rk_seats" not in present:
        op.create_table(
            "rk_seats",
            sa.Column("table_id", sa.Integer, sa.ForeignKey("rk_tables.id"), primary_key=True),
            sa.Column("seat", sa.String(60), primary_key=True),
            sa.Column("holder", sa.String(10), nullable=False),
            sa.Column("token_hash", sa.String(64)),
        )
    if "rk_actions" not in present:
        op.create_table(
            "rk_actions",
            sa.Column("table_id", sa.Integer, sa.ForeignKey("rk_tables.id"), primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True),
            sa.Column("seat", sa.String(60), nullable=False),
            sa.Column("action", sa.JSON, nullable=False),
            sa.Column("at", _tz(), nullable=False),
        )
    if "rk_closed_tables" not in present:
        op.create_table(
            "rk_closed_tables",
            sa.Column("code", sa.String(12), primary_key=True),
            sa.Column("closed", _tz(), nullable=False),
        )
    if "rk_records" not in present:
        op.create_table(
            "rk_records",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("at", _tz(), nullable=False),
            sa.Column("learner", sa.String(60), nullable=False, index=True),
            sa.Column("lesson", sa.String(40), nullable=False),
            sa.Column("event", sa.String(10), nullable=False),
            sa.Column("visit", sa.String(64), nullable=False),
            sa.Column("exercise", sa.String(60)),
            sa.Column("right", sa.Boolean),
            sa.Column("attempt", sa.Integer),
            sa.Column("hints", sa.Integer),
            sa.Column("why", sa.Integer),
            sa.Column("seconds", sa.Integer),
            sa.Column("rules", sa.JSON),
        )
    if "rk_learner_keys" not in present:
        op.create_table(
            "rk_learner_keys",
            sa.Column("learner", sa.String(60), primary_key=True),
            sa.Column("key_hash", sa.String(64), nullable=False),
            sa.Column("made", _tz(), nullable=False),
        )


def downgrade() -> None:
    for name in ("rk_learner_keys", "rk_records", "rk_closed_tables", "rk_actions", "rk_seats", "rk_tables"):
        op.drop_table(name)
