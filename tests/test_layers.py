"""The layers of railkit, checked on the source (``ast``) and in a fresh interpreter (``sys.modules``).

* The rules (``railkit.game``, ``railkit.session``, the shared core and both engines) never import the
  teaching layer's libraries: ipywidgets, plotly, IPython, anywidget, nor ``railkit.ui``.
* In ``railkit.ui`` the framework (``railkit/ui/*.py``) never imports a game's lessons; a game's shared
  modules never import its lessons; a lesson imports only the framework, its own game's shared modules,
  its own modules and the engines — never another lesson, never the other game's modules.

The lessons are found from the notebooks: each app cell imports ``railkit.ui.<game>.<lesson>``.
"""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "railkit"
UI = PACKAGE / "ui"
WIDGET_LIBRARIES = ("ipywidgets", "plotly", "IPython", "anywidget", "railkit.ui")
RULES = ["railkit.game", "railkit.session", "railkit.errors", "railkit.actions", "railkit.words", "railkit.paths",
         "railkit.unionpacific", "railkit.capecairo"]
GAMES = ("unionpacific", "capecairo")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in the file (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # `from pkg import module`
    return found


def within(name: str, prefixes: tuple[str, ...] | list[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def rule_files() -> list[Path]:
    modules = [PACKAGE / f"{m.split('.')[1]}.py" for m in RULES]
    files = [path for path in modules if path.is_file()]  # the single-module parts of the rules
    for game in GAMES:
        files += sorted((PACKAGE / game).rglob("*.py"))
    return files


def lessons() -> dict[str, set[str]]:
    """game -> the lesson module names the notebooks import."""
    found: dict[str, set[str]] = {g: set() for g in GAMES}
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            for name in imports_of_source("".join(cell["source"])):
                parts = name.split(".")
                if len(parts) >= 4 and parts[:2] == ["railkit", "ui"] and parts[2] in GAMES:
                    found[parts[2]].add(".".join(parts[:4]))
    return found


def imports_of_source(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def layer_problems(name: str, imported: set[str], lesson_names: dict[str, set[str]]) -> list[str]:
    """What is wrong with module ``name`` importing ``imported`` (empty: nothing)."""
    problems = []
    parts = name.split(".")
    game = parts[2] if len(parts) > 2 and parts[2] in GAMES else None
    own = next((lesson for lesson in lesson_names.get(game or "", ()) if within(name, [lesson])), None)
    for target in sorted(imported):
        if not target.startswith("railkit.ui."):
            continue
        t_parts = target.split(".")
        t_game = t_parts[2] if t_parts[2] in GAMES else None
        if t_game is None:
            continue  # the framework: every module of railkit.ui may use it
        if game is None:
            problems.append(f"{name} (framework) imports {target} (a game's lessons)")
        elif t_game != game:
            problems.append(f"{name} imports {target} (the other game)")
        else:
            t_lesson = next((lesson for lesson in lesson_names[game] if within(target, [lesson])), None)
            if t_lesson is not None and t_lesson != own:
                kind = f"the {own.rsplit('.', 1)[-1]} lesson" if own else "a shared module"
                problems.append(f"{name} ({kind}) imports {target} (another lesson)")
    return problems


# -- the rules never import the teaching layer ---------------------------------------------------
@pytest.mark.parametrize("path", rule_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_never_import_widgets_or_the_teaching_layer_in_source(path):
    bad = sorted(name for name in imports(path) if within(name, WIDGET_LIBRARIES))
    assert not bad, f"{module_name(path)} imports {bad}"


def test_rules_never_import_widgets_or_the_teaching_layer_at_run_time():
    script = (
        "import sys\n"
        f"for name in {RULES!r} + ['railkit.unionpacific.bots', 'railkit.capecairo.bots']:\n"
        "    __import__(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {['ipywidgets', 'plotly', 'IPython', 'anywidget']!r}"
        " or m.startswith('railkit.ui')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", f"the rules pulled in: {out.stdout.strip()}"


# -- the teaching layer: framework, a game's shared modules, lessons ----------------------------------
def test_every_lesson_notebook_imports_a_lesson_of_one_game():
    found = lessons()
    assert found["unionpacific"] == {f"railkit.ui.unionpacific.{n}" for n in ("setup", "building", "dividends", "play")}
    assert found["capecairo"] == {"railkit.ui.capecairo.auction", "railkit.ui.capecairo.play"}


@pytest.mark.parametrize("path", sorted(UI.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_lesson_imports_only_the_framework_its_games_shared_modules_and_itself(path):
    assert layer_problems(module_name(path), imports(path), lessons()) == []


def test_the_layer_check_finds_a_lesson_importing_another():
    found = {"unionpacific": {"railkit.ui.unionpacific.play", "railkit.ui.unionpacific.setup"}, "capecairo": set()}
    assert layer_problems("railkit.ui.unionpacific.play.app", {"railkit.ui.unionpacific.setup.deck"}, found)
    assert layer_problems("railkit.ui.unionpacific.common", {"railkit.ui.unionpacific.play"}, found)
    assert layer_problems("railkit.ui.app", {"railkit.ui.unionpacific.common"}, found)
    assert layer_problems("railkit.ui.capecairo.common", {"railkit.ui.unionpacific.common"}, found)
    assert not layer_problems("railkit.ui.unionpacific.play.app",
                              {"railkit.ui.unionpacific.play.moves", "railkit.ui.unionpacific.common",
                               "railkit.ui.app", "railkit.unionpacific"}, found)
