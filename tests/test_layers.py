"""The layers of railkit (CONTRIBUTING.md, "The layers"): import-linter's contracts in pyproject.toml
(``[tool.importlinter]``), run by ``lint-imports`` (``make lint``) and here, so that ``pytest`` alone
enforces them too.

* The rules and the core never import the teaching layer (``railkit.ui``) or its libraries (ipywidgets,
  plotly, IPython, anywidget), not even indirectly; ``railkit.ui`` above ``railkit.session`` above the two
  engines (independent of each other) above the core.
* In ``railkit.ui`` the framework never imports a game; the games' UIs are independent; in each game the
  lessons are independent of each other (no lesson imports another) and its shared modules import no lesson.

The games and lessons the contracts name must be those of the registry, ``railkit/lessons.py``: a new
lesson or game that is not in the contracts fails here, saying which.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from railkit.lessons import GAMES, lessons_of

ROOT = Path(__file__).resolve().parent.parent
CONTRACTS = {c["id"]: c for c in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]}
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
WIDGET_LIBRARIES = ("ipywidgets", "plotly", "IPython", "anywidget")


def siblings(layer: str) -> set[str]:
    return {name.strip() for part in layer.split("|") for name in part.split(":")}


def lint_imports(cwd: Path, *extra: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--config", str(ROOT / "pyproject.toml"), "--no-cache", *extra],
                          cwd=cwd, capture_output=True, text=True, timeout=300, env=env)


# -- the contracts name the registry's games and lessons -----------------------------------------
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_each_games_lessons_are_independent_layers_of_its_ui(game):
    contract = CONTRACTS.get(f"{game.id}-lessons")
    assert contract, f"add a contract {game.id}-lessons to pyproject.toml (copy capecairo-lessons)"
    assert contract["type"] == "layers" and contract["containers"] == [game.ui] and contract["exhaustive"]
    lessons = {x.module.removeprefix(game.ui + ".") for x in lessons_of(game.id)}
    top = contract["layers"][0]
    assert "|" in top or len(lessons) == 1, "the lessons must be independent siblings (a | b)"
    assert siblings(top) == lessons, f"pyproject.toml's {game.id}-lessons must list railkit/lessons.py's lessons"


def test_the_games_are_independent_in_the_core_and_in_the_ui():
    games = {g.id for g in GAMES}
    assert siblings(CONTRACTS["ui-framework"]["layers"][0]) == games
    assert "|" in CONTRACTS["ui-framework"]["layers"][0]
    engines = next(layer for layer in CONTRACTS["layers"]["layers"] if games & siblings(layer))
    assert siblings(engines) == games and "|" in engines
    forbidden = CONTRACTS["rules-without-widgets"]
    assert {g.engine for g in GAMES} <= set(forbidden["source_modules"])
    assert {"railkit.ui", *WIDGET_LIBRARIES} <= set(forbidden["forbidden_modules"])


# -- lint-imports keeps them ---------------------------------------------------------------------
def test_lint_imports_keeps_every_contract():
    out = lint_imports(ROOT)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken" in out.stdout


def test_lint_imports_finds_a_lesson_importing_another_and_the_rules_importing_widgets(tmp_path):
    """The contracts can fail: a copy of railkit where one lesson imports another, and an engine ipywidgets."""
    copy = tmp_path / "railkit"
    shutil.copytree(ROOT / "railkit", copy, ignore=shutil.ignore_patterns("data", "__pycache__", "*.mo"))
    play = copy / "ui" / "unionpacific" / "play" / "app.py"
    play.write_text(play.read_text(encoding="utf-8") + "\nimport railkit.ui.unionpacific.setup  # noqa\n", encoding="utf-8")
    board = copy / "unionpacific" / "board.py"
    board.write_text(board.read_text(encoding="utf-8") + "\nimport ipywidgets  # noqa\n", encoding="utf-8")
    env = {"PATH": str(LINT_IMPORTS.parent), "PYTHONPATH": str(tmp_path), "HOME": str(tmp_path)}
    out = lint_imports(tmp_path, env=env)
    assert out.returncode == 1, out.stdout[-4000:] + out.stderr[-2000:]
    assert "railkit.ui.unionpacific.play.app -> railkit.ui.unionpacific.setup" in out.stdout
    assert "railkit.unionpacific.board -> ipywidgets" in out.stdout
    assert "2 broken" in out.stdout


def test_rules_never_import_widgets_or_the_teaching_layer_at_run_time():
    """What import-linter cannot see: imports made while the rules run (importlib, plugins)."""
    rules = ["railkit.game", "railkit.session", "railkit.cli", *(g.engine for g in GAMES), *(f"{g.engine}.bots" for g in GAMES)]
    script = (
        "import sys\n"
        f"for name in {rules!r}:\n"
        "    __import__(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {list(WIDGET_LIBRARIES)!r} or m.startswith('railkit.ui')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", f"the rules pulled in: {out.stdout.strip()}"
