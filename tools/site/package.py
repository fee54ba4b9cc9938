"""The ``railkit`` wheel for the browser, built from the checkout with ``pip wheel``.

Two things a plain wheel may lack, added here (the build says which):
* ``railkit/data/**``: the lessons read it through ``importlib.resources`` (``railkit.paths.data_dir``);
  setuptools packs it only once pyproject declares it as package data.
* ``railkit/_site_compat.py`` (from ``tools/site/compat.py``), imported by ``railkit/__init__.py``:
  a fix for widget updates under the browser kernel (see that file).
* ``docs/rulings.md``: ``railkit.ui.docs`` reads it at ``docs/rulings.md`` in the folder above the
  package; in the browser that is site-packages, so the wheel carries
  the page there (a browser-only copy; nothing else is installed there).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from wheelfile import read_wheel, write_wheel

SOURCES = ("pyproject.toml", "README.md", "railkit")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")


def railkit_wheel(root: Path, work: Path, out_dir: Path, epoch: int) -> tuple[Path, list[str]]:
    """Build the wheel from a copy of the checkout's sources (so no build/ or egg-info lands in the
    checkout); returns the wheel written to ``out_dir`` and the files the build had to add."""
    src, dist = work / "src", work / "dist"
    shutil.rmtree(work, ignore_errors=True)
    src.mkdir(parents=True)
    for name in SOURCES:
        path = root / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=SKIP)
        else:
            shutil.copy2(path, src / name)
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(epoch), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(dist), str(src)], check=True, env=env, cwd=work)
    built = next(dist.glob("railkit-*.whl"))
    files = read_wheel(built)
    added = []
    for path in sorted((root / "railkit" / "data").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            arcname = path.relative_to(root).as_posix()
            if arcname not in files:
                files[arcname] = path.read_bytes()
                added.append(arcname)
    # Browser-only fix for widget updates (tools/site/compat.py), run when railkit is imported.
    files["railkit/_site_compat.py"] = (Path(__file__).parent / "compat.py").read_bytes()
    init = files["railkit/__init__.py"].decode("utf-8")
    hook = "\n\nfrom railkit import _site_compat  # noqa: E402,F401  (static site only)\n"
    files["railkit/__init__.py"] = (init + hook).encode()
    rulings = root / "docs" / "rulings.md"
    if rulings.exists():
        files["docs/rulings.md"] = rulings.read_bytes()
    return write_wheel(out_dir / built.name, files), added
