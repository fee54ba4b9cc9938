"""A lesson's kernel imports only what it needs at run time: building every lesson app
pulls in no nbformat, jsonschema or nbclient (plotly's renderer chain, ~2.4 s per kernel)."""

import json
import re
import subprocess
import sys
from pathlib import Path

from railkit.lessons import LESSONS

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("nbformat", "jsonschema", "rfc3987_syntax", "nbclient", "pytest", "playwright")


def app_cells() -> list[str]:
    """The lesson notebooks' code cells (``from railkit.ui....``), in notebook order."""
    cells = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            source = "".join(cell["source"]).strip()
            if cell["cell_type"] == "code" and re.match(r"from railkit\.ui\.", source):
                cells.append(source)
    return cells


def test_every_lesson_app_is_found():
    assert {x.cell for x in LESSONS} <= set(app_cells()), "a lesson of railkit/lessons.py has no notebook cell"


def test_building_every_lesson_imports_nothing_heavy_and_no_plotly():
    """Every lesson app built, with its first figures shown, in one fresh interpreter (a kernel's start): nothing
    heavy is imported, and neither is plotly. Figures are railkit.ui.plot.Plot JSON: plotly's Python objects (and
    the 3.2 MB schema they load, ~21 MB per kernel) stay out of every lesson kernel."""
    code = ("import sys\n" + "\n".join(app_cells())
            + f"\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
            + "print(sorted(m for m in sys.modules if m.split('.')[0] in ('plotly', '_plotly_utils', 'narwhals')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    heavy, plotly = out.stdout.strip().splitlines()[-2:]
    assert heavy == "[]", heavy
    assert plotly == "[]", plotly
