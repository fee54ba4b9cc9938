"""What one lesson costs a kernel: import time and memory (issue 10, item 1).

For every lesson notebook, a fresh Python runs the notebook's app cell (the same line Voila runs) with
ipykernel's comm machinery stubbed by ``ipywidgets``' own no-frontend mode, and reports:

* import time of the lesson module (wall clock, best of ``--runs``),
* the time to build the app,
* the process's peak resident memory after building it (``ru_maxrss``),
* whether nbformat/jsonschema were imported (they must not be: FigureView builds plotly's bundle itself).

Usage: ``.venv/bin/python benchmarks/kernel.py [--runs 3] [--importtime]``; ``--importtime`` also prints
the ten slowest entries of ``python -X importtime`` for the heaviest lesson.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = r"""
import json, resource, sys, time
t0 = time.perf_counter()
import ipykernel.ipkernel  # a kernel has it loaded before any cell runs
t1 = time.perf_counter()
exec({imports!r})
t2 = time.perf_counter()
exec({build!r})
t3 = time.perf_counter()
print(json.dumps({{"kernel_base_s": t1 - t0, "import_s": t2 - t1, "build_s": t3 - t2,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "heavy": sorted(m for m in ("nbformat", "jsonschema", "rfc3987_syntax") if m in sys.modules)}}))
"""


def app_cells() -> dict[str, tuple[str, str]]:
    """notebook name -> (import statement, build expression) of its app cell."""
    cells = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            source = "".join(cell["source"])
            found = re.match(r"(from railkit\.ui\.[\w.]+ import \w+); (\w+\(\))", source.strip())
            if cell["cell_type"] == "code" and found:
                cells[path.stem] = (found.group(1), found.group(2))
    return cells


def measure(imports: str, build: str) -> dict[str, object]:
    code = PROBE.format(imports=imports, build=build)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    print(f"| lesson | import (best of {args.runs}) | build app | peak RSS | nbformat/jsonschema |")
    print("|---|---|---|---|---|")
    heaviest = ("", 0.0)
    for name, (imports, build) in app_cells().items():
        runs = [measure(imports, build) for _ in range(args.runs)]
        best = min(runs, key=lambda r: float(r["import_s"]))  # type: ignore[arg-type]
        rss = max(float(r["peak_rss_mb"]) for r in runs)  # type: ignore[arg-type]
        print(f"| {name} | {float(best['import_s']):.2f} s | {float(best['build_s']):.2f} s | "  # type: ignore[arg-type]
              f"{rss:.0f} MB | {', '.join(best['heavy']) or 'none'} |")  # type: ignore[arg-type]
        if float(best["import_s"]) > heaviest[1]:  # type: ignore[arg-type]
            heaviest = (imports, float(best["import_s"]))  # type: ignore[arg-type]
    if args.importtime and heaviest[0]:
        out = subprocess.run([sys.executable, "-X", "importtime", "-c", heaviest[0]], capture_output=True,
                             text=True, cwd=ROOT)
        rows = [line for line in out.stderr.splitlines() if line.startswith("import time:") and "|" in line]
        rows = [r for r in rows if r.split("|")[1].strip().isdigit()]
        rows.sort(key=lambda r: -int(r.split("|")[1]))
        print(f"\n`python -X importtime -c '{heaviest[0]}'`, ten largest cumulative entries (µs):\n")
        for row in rows[:10]:
            print("    " + row)


if __name__ == "__main__":
    main()
