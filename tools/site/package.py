"""The ``railkit`` wheel for the browser: the plain wheel, built from the checkout with ``pip wheel``.

Nothing is added to it or changed in it afterwards: the data (``railkit/data/**``, the rulings page) and
the compiled catalogs are package data of every wheel (pyproject.toml, setup.py), and the browser-only fix
for widget updates is part of railkit (``railkit.patches.send_nulls_in_comm_data``, applied by
``railkit.ui.app`` when it runs under Pyodide). The build only checks that the wheel holds every data file
and a compiled catalog per language, and stops when one is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from wheelfile import read_wheel

SOURCES = ("pyproject.toml", "setup.py", "README.md", "railkit")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", ".ipynb_checkpoints")


def railkit_wheel(root: Path, work: Path, out_dir: Path, epoch: int) -> Path:
    """Build the wheel from a copy of the checkout's sources (so no build/ or egg-info lands in the
    checkout) into ``out_dir``; SystemExit when it lacks a data file or a catalog."""
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
    out_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(dist), str(src)], check=True, env=env, cwd=work)
    built = next(dist.glob("railkit-*.whl"))
    names = set(read_wheel(built))
    wanted = {p.relative_to(root).as_posix() for p in (root / "railkit" / "data").rglob("*")
              if p.is_file() and "__pycache__" not in p.parts}
    catalogs = (root / "railkit" / "locale").glob("*/LC_MESSAGES/railkit.po")
    wanted |= {p.relative_to(root).with_suffix(".mo").as_posix() for p in catalogs}
    if wanted - names:
        raise SystemExit(f"site: the railkit wheel lacks {sorted(wanted - names)[:5]} (pyproject.toml package-data, setup.py)")
    target = out_dir / built.name
    shutil.copy2(built, target)
    return target
