"""Class tables: one server holds every shared game, learners play from their own pages.

The server is the authority (a learner's page can neither cheat nor peek): a table's game is the replay
of its action log, stored one row per action in SQLite (default) or PostgreSQL; each seat receives only
its own view, and the log it is sent hides what other seats have not yet shown (sealed bids, face-down shares).

    python -m railkit.tables --host 127.0.0.1 --port 8867 --db sqlite:///tables.sqlite

Modules: ``games`` (what each game hides and which bot fills a seat), ``protocol`` (message
shapes, limits, error words), ``store`` (the database), ``table`` (one table in memory),
``server`` (the Starlette app), ``hub`` (sign-in through JupyterHub when the server is a service of the class
hub, ``--hub-auth``), ``__main__`` (the command).
"""
