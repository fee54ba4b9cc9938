"""The Vom Kap bis Kairo lessons.

Shared by every lesson here: ``common`` (words, the look, the computer players, what is remembered
about each auction, the HTML of cards, players, the race and the reveal) and ``panels`` (starting a
game, an auction at the table). One package per lesson: ``auction``, ``play``. A lesson imports the app
framework (``railkit.ui``), these shared modules and the engine — never another lesson
(``tests/test_layers.py`` checks it).
"""
