"""Class tables: one server holds every shared game, learners play from their own pages.

The server is the authority (a learner's page can neither cheat nor peek): a table's game is the replay
of its action log, stored one row per action in SQLite (default) or PostgreSQL; each seat receives only
its own view, and the log it is sent hides what other seats have not yet shown (sealed bids, face-down shares).

    python -m railkit.tables --host 127.0.0.1 --port 8867 --db sqlite:///tables.sqlite

Modules: the shared base of the class server, which the classroom (``railkit.classroom``: records, progress, the
teacher's endpoints) uses too: ``store`` (the database) and ``migrations`` (its schema, Alembic), ``names`` (names in
NFC, compared case- and form-insensitively), ``hub`` (sign-in through JupyterHub when the server is a service of the
class hub, ``--hub-auth``), ``limits`` (the server's limits), ``web`` (a request's bounded body, the client, refusals).
The live tables: ``games`` (each game's engine, its bot, the help and the review it gives a seat; what a seat may read
is the engine's to say), ``decisions`` (a seat's own decisions at the end, for the search review at the table),
``table`` (one table in memory), ``connection`` (one WebSocket and its outbox), ``sockets``
(the WebSocket route), ``live`` (every table of this process), ``overview`` (the tables as the teacher sees them),
``listen`` (PostgreSQL's notices between server processes). Above both: ``server`` (the Starlette app, mounting the
live tables' routes and the classroom's) and ``__main__`` (the command). The messages, their constants and the state
deltas are ``railkit.wire``'s.
"""
