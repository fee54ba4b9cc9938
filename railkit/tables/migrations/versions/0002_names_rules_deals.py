"""Issue 34: each table's rules version and whether its deal was chosen; every stored name in one Unicode form;
records and progress keys found by the name as compared (NFC, case folded).

* ``rk_tables.rules_version`` (the tables made before are version 1, the rules they were played under) and
  ``rk_tables.chosen_deal`` (false: a deal chosen through the old API cannot be told apart now);
* seat names, the players' lists, the log's ``player`` and ``seat`` and the records' learners in NFC: a name typed
  in decomposed form ("Jose" + a combining accent) had made its table fail to replay. A table where two seats
  become one name is left as it is (the server sets it aside and says why);
* ``rk_records.learner_key``: the name as compared, so "José" typed either way, or "ann" and "Ann", is one learner;
* ``rk_progress_keys`` in place of ``rk_learner_keys``: the keys by that compared name; a learner who had a key
  under either spelling keeps it.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def _key(name: str) -> str:
    """``railkit.tables.names.name_key`` as it was written for this step (a later change there changes no row)."""
    return unicodedata.normalize("NFC", " ".join(name.split())).casefold()


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def upgrade() -> None:
    bind = op.get_bind()
    # Plain ALTER TABLE ... ADD COLUMN (SQLite takes it with a default): a rebuilt rk_tables would break the seats'
    # and actions' foreign keys.
    op.add_column("rk_tables", sa.Column("rules_version", sa.Integer, nullable=False, server_default="1"))
    op.add_column("rk_tables", sa.Column("chosen_deal", sa.Boolean, nullable=False, server_default=sa.false()))
    _names_in_nfc(bind)
    op.add_column("rk_records", sa.Column("learner_key", sa.String(120)))
    records = sa.table("rk_records", sa.column("learner", sa.String), sa.column("learner_key", sa.String))
    for (learner,) in bind.execute(sa.select(records.c.learner).distinct()).all():  # one statement per name
        bind.execute(records.update().where(records.c.learner == learner)
                     .values(learner=_nfc(learner), learner_key=_key(learner)))
    with op.batch_alter_table("rk_records") as batch:
        batch.alter_column("learner_key", existing_type=sa.String(120), nullable=False)
        batch.create_index("ix_rk_records_learner_key", ["learner_key"])
    op.create_table(
        "rk_progress_keys",
        sa.Column("learner_key", sa.String(120), primary_key=True),
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("learner", sa.String(60), nullable=False),
        sa.Column("made", sa.DateTime(timezone=True), nullable=False),
    )
    old = sa.table("rk_learner_keys", sa.column("learner", sa.String), sa.column("key_hash", sa.String),
                   sa.column("made", sa.DateTime(timezone=True)))
    new = sa.table("rk_progress_keys", sa.column("learner_key", sa.String), sa.column("key_hash", sa.String),
                   sa.column("learner", sa.String), sa.column("made", sa.DateTime(timezone=True)))
    rows = [{"learner_key": _key(r.learner), "key_hash": r.key_hash, "learner": _nfc(r.learner), "made": r.made}
            for r in bind.execute(sa.select(old.c.learner, old.c.key_hash, old.c.made)).all()]
    if rows:
        bind.execute(new.insert(), rows)
    op.drop_table("rk_learner_keys")


def _names_in_nfc(bind: Any) -> None:
    tables = sa.table("rk_tables", sa.column("id", sa.Integer), sa.column("players", sa.JSON))
    seats = sa.table("rk_seats", sa.column("table_id", sa.Integer), sa.column("seat", sa.String))
    actions = sa.table("rk_actions", sa.column("table_id", sa.Integer), sa.column("seq", sa.Integer),
                       sa.column("seat", sa.String), sa.column("action", sa.JSON))
    for row in bind.execute(sa.select(tables.c.id, tables.c.players)).all():
        players = [str(p) for p in _json(row.players)]
        normal = [_nfc(p) for p in players]
        if normal == players:
            continue
        if len({_key(p) for p in normal}) < len(normal):
            continue  # two seats would be one name: the server sets the table aside and says why
        bind.execute(tables.update().where(tables.c.id == row.id).values(players=normal))
        for old in players:
            if _nfc(old) != old:
                bind.execute(seats.update().where(seats.c.table_id == row.id, seats.c.seat == old)
                             .values(seat=_nfc(old)))
        for a in bind.execute(sa.select(actions.c.seq, actions.c.seat, actions.c.action)
                              .where(actions.c.table_id == row.id)).all():
            action = dict(_json(a.action))
            if isinstance(action.get("player"), str):
                action["player"] = _nfc(action["player"])
            bind.execute(actions.update().where(actions.c.table_id == row.id, actions.c.seq == a.seq)
                         .values(seat=_nfc(a.seat), action=action))


def downgrade() -> None:
    raise NotImplementedError("the names were put in one Unicode form; there is no way back to the forms typed")
