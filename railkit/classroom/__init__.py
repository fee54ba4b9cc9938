"""The classroom: what the class server keeps of learning, beside the live tables (``railkit.tables``).

Modules: ``records`` (the learners' records of their lessons: checked, rate-limited, stored, the CSV), ``progress``
(``/api/records``: a record in, a learner's own records out, behind their progress key), ``teacher`` (the teacher
key, the reports and the teacher's actions; what they need of the live tables is asked through ``ClassTables``).

It stands on the class server's shared base in ``railkit.tables`` (``store``: the one database, ``names``, ``hub``,
``limits``, ``web``) and never imports the live tables (``live``, ``table``, ``sockets``, ...), nor they it: the app
(``railkit.tables.server``) mounts both (``pyproject.toml``'s ``tables-classroom`` contracts).
"""
