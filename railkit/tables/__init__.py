"""Class tables: one server holds every shared game, learners play from their own pages.

The server is the authority (a learner's page can neither cheat nor peek): a table's game is the replay
of its action log, stored one row per action in SQLite (default) or PostgreSQL; each seat receives only
its own view, and the log it is sent hides what other seats have not yet shown (sealed bids, face-down shares).

    python -m railkit.tables --host 127.0.0.1 --port 8867 --db sqlite:///tables.sqlite

Modules: ``games`` (each game's engine, its bot, the help and the review it gives a seat; what a seat may read is
the engine's to say), ``limits`` (the server's limits; the messages, their constants and the state deltas are ``railkit.wire``'s),
``names`` (names in NFC, compared case- and form-insensitively), ``store`` (the database) and ``migrations`` (its
schema, Alembic), ``table`` (one table in memory), ``connection`` (one WebSocket and its outbox), ``sockets`` (the
WebSocket route), ``server`` (the Starlette app), ``records``, ``progress`` and ``teacher`` (the learners' records,
their own progress, the teacher's reports), ``hub`` (sign-in through JupyterHub when the server is a service of the
class hub, ``--hub-auth``), ``listen`` (PostgreSQL's notices between server processes), ``__main__`` (the command).
"""
