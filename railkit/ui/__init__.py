"""railkit's teaching layer: lessons as apps (ipywidgets), figures (plotly), translation.

Only this package imports ipywidgets and plotly; the engines and ``railkit.session`` never do. Its
shape, checked by import-linter (``[tool.importlinter]`` in pyproject.toml; ``make lint``, ``tests/test_layers.py``):

* the app framework, in this folder: ``app`` (``App``, ``Panel``, ``Messages``, ``guarded``, the parsers
  of typed fields), ``widgets`` (rows, HTML boxes, buttons, in-place updates), ``figure_view``
  (plotly figures without CDN), ``i18n`` (``tr``, every user-facing string), ``saves`` (the save and
  load panel of the play lessons), ``docs``, ``headless`` (running notebooks in tests) and
  ``voila_template`` (the Voila page without CDN links, its kernel culling and “went to sleep” note);
* one subpackage per game, ``unionpacific`` and ``capecairo``: its shared modules, then one module or
  package per lesson. A lesson imports the framework, its own game's shared modules and the engine,
  never another lesson.

Each lesson is an ``App`` shown by a one-line notebook cell, e.g.
``from railkit.ui.unionpacific.dividends import DividendsApp; DividendsApp()``.
"""
