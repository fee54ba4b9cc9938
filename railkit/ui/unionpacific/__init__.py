"""The Union Pacific lessons.

Shared by every lesson here: ``common`` (names, labels, deck options, the engine's explanations as
HTML, the style), ``basemap`` (the offline US map) and ``board_map`` (the board as a plotly figure).
One module or package per lesson: ``setup``, ``building``, ``dividends``, ``play``. A lesson imports
the app framework (``railkit.ui``), these shared modules and the engine — never another lesson
(``tests/test_layers.py`` checks it).
"""
