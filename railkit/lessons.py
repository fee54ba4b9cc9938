"""The one list of railkit's games and lessons: add a game or a lesson here.

Everything that has to know every lesson reads these two tuples instead of keeping its own list:

* ``railkit/ui/index.py`` — the index page's lesson links, in this order;
* ``railkit/locale/dynamic.py`` — the lesson titles and link texts ``make messages`` extracts (the
  ``N_`` calls below) and the apps translate with ``tr(variable)``;
* ``railkit/ui/voila_template/class_config.py`` — which names ``make run LESSON=...`` accepts;
* the tests: the layers (``tests/test_layers.py`` checks the import-linter contracts in
  ``pyproject.toml`` name exactly these lessons and engines), the notebooks (``tests/test_lessons.py``,
  ``tests/notebooks/test_nb_files.py``), every app in every language (``tests/ui/test_i18n_apps.py``),
  the learner's name (``tests/ui/test_learner_name.py``), the lesson kernels' imports
  (``tests/ui/test_ui_lesson_imports.py``), the rule coverage (``tests/test_rule_coverage.py``) and the
  strict mypy modules (``tests/test_packaging.py``).

This module imports nothing but the message marker, so ``make run`` and the engines' tools may read it.
A third game needs more than a line here: CONTRIBUTING.md, "Adding a game", lists what.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from railkit.messages import N_


@dataclass(frozen=True)
class GameInfo:
    """A game: its engine ``railkit.<id>``, its lessons' package ``railkit.ui.<id>``."""

    id: str  # "unionpacific": the engine's package name (and the UI's subpackage)
    rule_prefix: str  # "UP": rule IDs are UP-B2e...; lesson notebooks are named up_*.ipynb
    name: str  # the game's printed name (never translated)

    @property
    def engine(self) -> str:
        return f"railkit.{self.id}"

    @property
    def ui(self) -> str:
        return f"railkit.ui.{self.id}"


@dataclass(frozen=True)
class Lesson:
    """A lesson: notebook ``notebooks/<id>.ipynb`` whose one code cell is ``from <module> import <app>; <app>()``."""

    id: str  # "up_setup": the notebook's name without .ipynb (and ``make run LESSON=up_setup``)
    game: str  # a GameInfo.id
    module: str  # "railkit.ui.unionpacific.setup": the lesson's package, importing nothing of another lesson
    app: str  # "SetupApp": the App subclass the notebook shows
    title: str  # the app's title (App.title), an N_-marked English msgid
    link: str  # the index page's link text, an N_-marked English msgid

    @property
    def notebook(self) -> str:
        return f"{self.id}.ipynb"

    @property
    def cell(self) -> str:
        """The notebook's one code cell."""
        return f"from {self.module} import {self.app}; {self.app}()"

    def load(self) -> type:
        """The lesson's App class, imported (``railkit.ui``: for the teaching layer and the tests only)."""
        return getattr(importlib.import_module(self.module), self.app)  # type: ignore[no-any-return]


GAMES: tuple[GameInfo, ...] = (
    GameInfo("unionpacific", "UP", "Union Pacific"),
    GameInfo("capecairo", "KK", "Vom Kap bis Kairo"),
)

# In teaching order, as the index lists them.
LESSONS: tuple[Lesson, ...] = (
    Lesson("up_setup", "unionpacific", "railkit.ui.unionpacific.setup", "SetupApp",
           N_("Union Pacific: setting up"), N_("UP: Setting up")),
    Lesson("up_building", "unionpacific", "railkit.ui.unionpacific.building", "BuildingApp",
           N_("Union Pacific: building track"), N_("UP: Building track")),
    Lesson("up_dividends", "unionpacific", "railkit.ui.unionpacific.dividends", "DividendsApp",
           N_("Union Pacific dividends"), N_("UP: Dividends")),
    Lesson("up_play", "unionpacific", "railkit.ui.unionpacific.play", "PlayApp",
           N_("Union Pacific: play a game"), N_("UP: Play a game")),
    Lesson("kk_auction", "capecairo", "railkit.ui.capecairo.auction", "KkAuctionApp",
           N_("Vom Kap bis Kairo: the auction"), N_("KK: The auction")),
    Lesson("kk_play", "capecairo", "railkit.ui.capecairo.play", "KkPlayApp",
           N_("Vom Kap bis Kairo: play a game"), N_("KK: Play a game")),
)

# The strategy lab's notebooks (``notebooks/<id>.ipynb``): code first, for JupyterLab and Binder (a learner writes a
# player in a cell and rates it on a small ladder: ``railkit.lab.notebook``, ``railkit.ui.lab_view``). They are no
# lessons of the list above (several code cells, no App, nothing recorded); as Voila apps they show the example
# player's results. The index links them in a section of their own.
LAB_NOTEBOOKS: tuple[str, ...] = ("up_lab", "kk_lab")

# The exercises the lessons record (``railkit.ui.records.lesson_record.ExerciseRecord(lesson, exercise, rules)``): the id the
# records and the CSV carry -> the exercise's own heading in its lesson, which the teacher's page shows.
EXERCISES: dict[tuple[str, str], str] = {
    ("up_setup", "first_k"): N_("The share deck"),
    ("up_building", "legal_sections"): N_("Which placements are legal?"),
    ("up_dividends", "company_payout"): N_("How much does each player receive?"),
    ("up_play", "payout_company"): N_("Exercise: a payout (UP-D3..UP-D11)"),
    ("kk_auction", "choosing_order"): N_("Who chooses first?"),
    ("kk_play", "build_cost"): N_("What does the next crossing cost?"),
    # the play lessons' puzzles (railkit.ui.puzzles): real positions, one exercise per question
    ("up_play", "puzzle_share"): N_("Which share?"),
    ("up_play", "puzzle_build"): N_("Where to build?"),
    ("kk_play", "puzzle_bid"): N_("Which bid?"),
}


def game(game_id: str) -> GameInfo:
    """The game with ``game_id`` (KeyError naming the known ones otherwise)."""
    for found in GAMES:
        if found.id == game_id:
            return found
    raise KeyError(f"no game {game_id!r} in railkit/lessons.py (one of: {', '.join(g.id for g in GAMES)})")


def lesson(lesson_id: str) -> Lesson:
    """The lesson with ``lesson_id`` (``up_play``; KeyError naming the known ones otherwise)."""
    for found in LESSONS:
        if found.id == lesson_id:
            return found
    raise KeyError(f"no lesson {lesson_id!r} in railkit/lessons.py (one of: {', '.join(x.id for x in LESSONS)})")


def lessons_of(game_id: str) -> tuple[Lesson, ...]:
    return tuple(x for x in LESSONS if x.game == game_id)
