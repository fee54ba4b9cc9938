"""Packaging by convention: one version, ranges in pyproject.toml, pins in generated locks, and a
plain wheel that works on its own.

The fast tests read the repository's files. The slow ones build a wheel from a copy of the source,
install it with the apps lock into a fresh venv (pip's download cache makes that quick) and check,
from a folder outside the source tree, that the engines play, the data and the Voila template
come from site-packages and every lesson app builds.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import railkit

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
APPS_LOCK = ROOT / "requirements.lock"
TEST_LOCK = ROOT / "requirements-test.lock"
TEST_ONLY = {"pytest", "pytest-xdist", "hypothesis", "nbmake", "playwright", "ruff", "mypy", "pip-tools"}
COPY_IGNORE = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", ".pytest_cache", ".hypothesis",
                                     "artifacts", "node_modules", "build", "dist", ".ipynb_checkpoints")


def pins(lock: Path) -> dict[str, str]:
    """``{normalized name: version}`` of a pip-compile lock (comment lines and annotations skipped)."""
    found = {}
    for line in lock.read_text().splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            name, version = line.split("==")
            found[re.sub(r"[-_.]+", "-", name).lower()] = version.strip()
    return found


def requirements(*extras: str) -> list[Requirement]:
    project = PYPROJECT["project"]
    texts = list(project["dependencies"]) + [r for e in extras for r in project["optional-dependencies"][e]]
    return [Requirement(t) for t in texts]


# -- one version -------------------------------------------------------------------------------
def test_version_is_written_only_in_railkit_init():
    assert PYPROJECT["project"]["dynamic"] == ["version"] and "version" not in PYPROJECT["project"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "railkit.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", railkit.__version__)
    written = re.compile(rf"(?<![\w.=]){re.escape(railkit.__version__)}(?![\w.])")
    places = [ROOT / "pyproject.toml", ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "Makefile",
              *ROOT.glob("docs/*.md"), *ROOT.glob("binder/*"), *(ROOT / "railkit").rglob("*.py")]
    repeated = [p.relative_to(ROOT).as_posix() for p in places
                if p != ROOT / "railkit" / "__init__.py" and p.is_file() and written.search(p.read_text())]
    assert not repeated, f"the version {railkit.__version__} is repeated in {repeated}"


# -- ranges in pyproject.toml, pins in the locks ------------------------------------------------
def test_pyproject_dependencies_are_ranges_not_pins():
    for req in requirements("app", "test"):
        operators = {spec.operator for spec in req.specifier}
        assert ">=" in operators, f"{req} has no lower bound"
        assert not operators & {"==", "==="}, f"{req} is pinned: pins belong in the lock files"


@pytest.mark.parametrize("lock, extras", [(APPS_LOCK, ("app",)), (TEST_LOCK, ("app", "test"))], ids=["apps", "test"])
def test_lock_header_records_its_pip_compile_command(lock, extras):
    header = [line for line in lock.read_text().splitlines()[:8] if "pip-compile " in line]
    assert header, f"{lock.name} does not record the command that generated it"
    command = header[-1].lstrip("# ").split()
    assert f"--output-file={lock.name}" in command and command[-1] == "pyproject.toml"
    assert {f"--extra={e}" for e in extras} <= set(command)
    assert "--no-emit-index-url" in command and "--no-emit-find-links" in command  # no local paths in a lock


@pytest.mark.parametrize("lock, extras", [(APPS_LOCK, ("app",)), (TEST_LOCK, ("app", "test"))], ids=["apps", "test"])
def test_lock_pins_fall_inside_the_pyproject_ranges(lock, extras):
    pinned = pins(lock)
    for req in requirements(*extras):
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        assert name in pinned, f"{lock.name} does not pin {req.name}"
        assert req.specifier.contains(pinned[name]), f"{lock.name} pins {name}=={pinned[name]} outside {req}"


def test_test_lock_repeats_every_apps_pin_and_the_apps_lock_has_no_test_tools():
    apps, test = pins(APPS_LOCK), pins(TEST_LOCK)
    differing = {n: (v, test.get(n)) for n, v in apps.items() if test.get(n) != v}
    assert not differing, f"the test lock pins these differently from the apps lock: {differing}"
    assert not TEST_ONLY & apps.keys(), f"the apps lock (Binder, make run) installs test tools: {TEST_ONLY & apps.keys()}"


def test_binder_requirements_are_the_apps_lock():
    binder = (ROOT / "binder" / "requirements.txt").read_text()
    assert binder.partition("\n")[2] == APPS_LOCK.read_text(), "run `make locks` to copy requirements.lock to binder/"


def test_build_requirements_are_pinned_as_in_the_test_lock():
    # setuptools builds; Babel compiles the catalogs (setup.py). `make venv` builds without isolation, so
    # the test lock's versions are the ones a developer's build uses.
    required = {r.name.lower(): r for r in (Requirement(t) for t in PYPROJECT["build-system"]["requires"])}
    assert set(required) == {"setuptools", "babel"}
    for name, req in required.items():
        assert str(req.specifier) == f"=={pins(TEST_LOCK)[name]}", f"pin {name} as requirements-test.lock does"


def test_mypy_is_strict_on_every_package():
    """Strict for all of railkit (the core, the engines of the registry, the session, the lessons, the tables);
    no override may switch it off for a part."""
    mypy = PYPROJECT["tool"]["mypy"]
    assert mypy.get("strict") is True and mypy["files"] == ["railkit"]
    loosened = [o["module"] for o in mypy.get("overrides", []) if o.get("strict") is False]
    assert not loosened, f"mypy must stay strict everywhere; these overrides turn it off: {loosened}"


def test_the_template_and_kernel_spec_are_wheel_data_from_the_package():
    data = PYPROJECT["tool"]["setuptools"]["data-files"]
    assert data["share/jupyter/voila/templates/railkit"] == ["railkit/ui/voila_template/railkit/*"]
    assert data["share/jupyter/kernels/railkit-lesson"] == ["railkit/ui/voila_template/railkit-lesson/kernel.json"]
    from railkit.ui.voila_template.lesson_kernel import spec

    assert spec()["argv"][2] == "railkit.ui.voila_template.lesson_kernel"


def test_venv_is_reinstalled_when_a_lock_changes():
    makefile = (ROOT / "Makefile").read_text()
    stamp_rule = re.search(r"^\$\(STAMP\):(.*)$", makefile, re.M)
    assert stamp_rule and "$(APPS_LOCK)" in stamp_rule[1] and "$(TEST_LOCK)" in stamp_rule[1]
    assert re.search(r"^test: .*\blint\b", makefile, re.M), "make test runs the linters first"


def test_packaged_rulings_equal_docs_rulings():
    # railkit.ui.docs shows the rulings page; a wheel has no docs/, so a copy ships as package data.
    assert (ROOT / "railkit/data/rulings.md").read_text() == (ROOT / "docs/rulings.md").read_text(), \
        "copy docs/rulings.md to railkit/data/rulings.md"


# -- the wheel, installed into a fresh venv -----------------------------------------------------
def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 600) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


# Session scope, not module: pytest-xdist's loadgroup keeps the packaging tests on one worker but may run other
# modules' tests between them, and a module fixture is torn down and made again at each such switch (the fresh
# venv was built two or three times per run).
@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """A plain wheel built from a copy of the source (so no stale build/ folder can leak into it)."""
    tmp = tmp_path_factory.mktemp("wheel")
    shutil.copytree(ROOT, tmp / "src", ignore=COPY_IGNORE)
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(tmp / "dist"), str(tmp / "src")], tmp)
    (built,) = (tmp / "dist").glob("railkit-*.whl")
    return built


@pytest.fixture(scope="session")
def installed(wheel, tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    """(python, a folder outside the source tree, env) of a fresh venv holding the apps lock + the wheel."""
    tmp = tmp_path_factory.mktemp("fresh")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_PATH")}
    cache = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True)
    if cache.returncode == 0:  # keep pip's download cache although HOME moves (no user config leaks in)
        env["PIP_CACHE_DIR"] = cache.stdout.strip()
    env.update(HOME=str(tmp / "home"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    run([sys.executable, "-m", "venv", str(tmp / "venv")], tmp, env)
    python = tmp / "venv" / "bin" / "python"
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    run([str(python), "-m", "pip", "install", "--quiet", "-r", str(APPS_LOCK), str(wheel)], tmp, env)
    run([str(python), "-m", "pip", "check"], tmp, env)
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    return python, elsewhere, env


def check_in_fresh_venv(installed, script: str) -> str:
    python, elsewhere, env = installed
    return run([str(python), "-c", textwrap.dedent(script)], elsewhere, env, timeout=300)


@pytest.mark.slow
@pytest.mark.xdist_group("packaging")
def test_wheel_holds_the_package_its_data_and_template_but_no_tests(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    dist_info = f"railkit-{railkit.__version__}.dist-info/"
    data = f"railkit-{railkit.__version__}.data/data/share/jupyter/"
    assert {n.split("/")[0] + "/" for n in names} == {"railkit/", dist_info, data.split("/")[0] + "/"}, \
        "only railkit/, its metadata and its data"
    assert {data + "voila/templates/railkit/index.html.j2", data + "kernels/railkit-lesson/kernel.json"} <= names
    catalogs = {p.relative_to(ROOT).with_suffix(".mo").as_posix() for p in ROOT.glob("railkit/locale/*/LC_MESSAGES/railkit.po")}
    assert catalogs and catalogs <= names, "setup.py compiles every catalog into the wheel"
    source = ROOT / "railkit"
    expected = {p.relative_to(ROOT).as_posix() for p in source.rglob("*")
                if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    assert expected - names == set(), f"missing from the wheel: {sorted(expected - names)}"
    assert "railkit/py.typed" in names and "railkit/data/rulings.md" in names
    metadata = zipfile.ZipFile(wheel).read(dist_info + "METADATA").decode()
    assert f"\nVersion: {railkit.__version__}\n" in metadata
    assert not re.search(r"^Requires-Dist: [^;\n]*==", metadata, re.M), "the wheel's dependencies are ranges"


@pytest.mark.slow
@pytest.mark.xdist_group("packaging")
def test_fresh_venv_has_the_apps_but_no_test_tools(installed):
    out = check_in_fresh_venv(installed, f"""
        import importlib.metadata as md, importlib.util
        import railkit
        assert md.version("railkit") == railkit.__version__ == {railkit.__version__!r}
        for tool in ("pytest", "playwright", "hypothesis"):
            assert importlib.util.find_spec(tool) is None, tool + " is installed with the apps"
        for app in ("voila", "jupyterlab", "ipykernel"):
            assert importlib.util.find_spec(app), app + " is missing"
        print("ok")
    """)
    assert out.strip() == "ok"


@pytest.mark.slow
@pytest.mark.xdist_group("packaging")
def test_installed_engines_play_from_data_in_site_packages(installed):
    out = check_in_fresh_venv(installed, """
        import sysconfig
        from pathlib import Path
        import railkit.capecairo, railkit.unionpacific
        from railkit.capecairo import bots as kk_bots
        from railkit.capecairo.deck import load_deck
        from railkit.paths import data_dir
        from railkit.unionpacific import bots as up_bots, load_board
        site = Path(sysconfig.get_paths()["purelib"])
        assert data_dir().is_relative_to(site / "railkit"), data_dir()
        assert load_board() and load_deck()
        for engine, bots in ((railkit.unionpacific, up_bots), (railkit.capecairo, kk_bots)):
            game = engine.new_game(3, seed=7)
            bots.play_game(game, {p: bots.RandomBot(i) for i, p in enumerate(game.players)})
            assert game.result().is_over and len(game.log) > 10, (engine.__name__, len(game.log))
        print("ok")
    """)
    assert out.strip() == "ok"


@pytest.mark.slow
@pytest.mark.xdist_group("packaging")
def test_installed_wheel_brings_the_voila_template_kernel_spec_and_catalogs(installed):
    out = check_in_fresh_venv(installed, """
        import subprocess, sys
        from pathlib import Path
        from jupyter_client.kernelspec import KernelSpecManager
        from railkit.locale import catalog
        target = Path(sys.prefix) / "share/jupyter/voila/templates/railkit"
        assert (target / "index.html.j2").is_file() and not target.is_symlink()  # wheel data, no command run
        assert KernelSpecManager().get_kernel_spec("railkit-lesson").argv[2] == "railkit.ui.voila_template.lesson_kernel"
        assert catalog("fi").gettext("Pay out") != "Pay out"  # the wheel's compiled .mo
        before = (target / "index.html.j2").stat().st_mtime_ns
        subprocess.run([sys.executable, "-m", "railkit.ui.voila_template"], check=True)  # the fallback: nothing to do
        assert (target / "index.html.j2").stat().st_mtime_ns == before
        print("ok")
    """)
    assert out.strip().endswith("ok")


@pytest.mark.slow
@pytest.mark.xdist_group("packaging")
def test_every_ui_module_imports_and_every_lesson_app_builds(installed):
    # Leaf subclasses of railkit.ui.app.App are the lesson apps (bases like KkApp are not built).
    out = check_in_fresh_venv(installed, """
        import importlib, inspect, pkgutil
        import railkit.ui
        from railkit.ui.app import App
        names = [m.name for m in pkgutil.walk_packages(railkit.ui.__path__, "railkit.ui.")
                 if not m.name.endswith(".__main__")]  # __main__ modules act on import
        modules = [importlib.import_module(name) for name in names]
        apps = {c for m in modules for c in vars(m).values() if inspect.isclass(c) and issubclass(c, App)}
        leaves = sorted((c for c in apps if not any(o is not c and issubclass(o, c) for o in apps)),
                        key=lambda c: c.__name__)
        assert len(leaves) >= 3, leaves
        for app in leaves:
            app()
            print("built", app.__name__)
    """)
    assert out.count("built ") >= 3, out


@pytest.mark.slow
@pytest.mark.xdist_group("packaging")
def test_installed_rulings_page_reads_the_packaged_copy(installed):
    check_in_fresh_venv(installed, """
        from railkit.ui.docs import rulings_markdown
        assert "could not be read" not in rulings_markdown().data
    """)
