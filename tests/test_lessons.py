"""The lesson registry (``railkit/lessons.py``, the one list of lessons) agrees with the notebooks, the apps and
the packages: a lesson or a game is added there, and these tests say what else it needs."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from railkit.lessons import GAMES, LAB_NOTEBOOKS, LESSONS, game, lesson, lessons_of

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
NOT_LESSONS = {"index", "rulings", *LAB_NOTEBOOKS}  # notebooks that show no lesson app


def code_cells(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]).strip() for c in cells if c["cell_type"] == "code"]


def test_ids_are_unique_and_every_lesson_belongs_to_a_game_in_its_package():
    assert len({x.id for x in LESSONS}) == len(LESSONS) and len({g.id for g in GAMES}) == len(GAMES)
    for x in LESSONS:
        assert x.module.startswith(game(x.game).ui + "."), f"{x.id}: {x.module} is not in {game(x.game).ui}"
        assert x.id.startswith(game(x.game).rule_prefix.lower() + "_"), f"{x.id}: name it {game(x.game).rule_prefix.lower()}_..."
    assert all(lessons_of(g.id) for g in GAMES), "a game without lessons"


def test_every_notebook_is_a_lesson_of_the_registry_or_a_page():
    found = {p.stem for p in NOTEBOOKS.glob("*.ipynb")}
    assert found - NOT_LESSONS == {x.id for x in LESSONS}, "add the lesson to railkit/lessons.py (or its notebook)"


@pytest.mark.parametrize("x", LESSONS, ids=lambda x: x.id)
def test_the_notebook_shows_the_registered_app_with_its_title(x):
    assert code_cells(NOTEBOOKS / x.notebook) == [x.cell]
    app = x.load()
    assert app.title == x.title, f"{x.module}.{x.app}.title must be the registry's title msgid"


@pytest.mark.parametrize("g", GAMES, ids=lambda g: g.id)
def test_every_game_has_an_engine_and_a_ui_package(g):
    assert importlib.util.find_spec(g.engine) and importlib.util.find_spec(g.ui)


def test_lookups_name_the_known_ids():
    assert lesson("up_play").app == "PlayApp" and game("capecairo").rule_prefix == "KK"
    with pytest.raises(KeyError, match="up_play"):
        lesson("nowhere")
    with pytest.raises(KeyError, match="unionpacific"):
        game("nowhere")
