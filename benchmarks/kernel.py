"""What one lesson costs a kernel: import time and memory.

For every lesson notebook, a fresh Python runs the notebook's app cell (the same line Voila runs) with
ipykernel's comm machinery stubbed by ``ipywidgets``' own no-frontend mode, and reports:

* import time of the lesson module (wall clock, best of ``--runs``),
* the time to build the app,
* the process's peak resident memory after building it (``ru_maxrss``),
* whether nbformat/jsonschema were imported (they must not be: FigureView builds plotly's bundle itself).

Usage: ``.venv/bin/python benchmarks/kernel.py [--runs 3] [--importtime]``; ``--importtime`` also prints
the ten slowest entries of ``python -X importtime`` for the heaviest lesson.

``--live``: instead, the memory of real kernels. Voila is started as ``make run`` starts it (voila.json:
preheated pools, the railkit-lesson kernel), each lesson is opened in headless Chromium (every
non-loopback request aborted) and, once its page and map are up, the RSS and USS of the kernel serving
that page are read, with the heavy modules it holds (a kernel is asked over its connection file).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/apps.py, for --live
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


HELD = ("debugpy", "voila", "jupyter_server", "nbconvert", "jsonschema", "plotly.graph_objs._figure", "networkx")
# (a module blocked with None in sys.modules, as debugpy in the lesson kernel, is not held)
HELD_CODE = f"import sys; print(','.join(m for m in {HELD!r} if sys.modules.get(m)) or 'none')"


def kernel_modules(connection_file: str) -> str:
    """The heavy modules a running kernel holds, asked through its connection file."""
    from jupyter_client import BlockingKernelClient

    client = BlockingKernelClient(connection_file=connection_file)
    client.load_connection_file()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=30)
        out: list[str] = []
        client.execute_interactive(HELD_CODE, timeout=30, store_history=False,
                                   output_hook=lambda m: out.append(m["content"].get("text", "")))
        return "".join(out).strip()
    finally:
        client.stop_channels()


def live(settle_s: float) -> None:
    """RSS of the kernel behind each open lesson page under Voila (see the module's docstring)."""
    import psutil
    from apps import CHROMIUM, NOTEBOOKS, Voila, has_app  # benchmarks/apps.py: Voila as `make run` starts it
    from playwright.sync_api import sync_playwright

    names = [f"{name}.ipynb" for name in app_cells() if has_app(NOTEBOOKS / f"{name}.ipynb")]
    server = Voila(names)
    print(f"load average {os.getloadavg()[0]:.1f}; Voila as `make run`, one page per lesson\n")
    print("| lesson | kernel RSS | USS | kernel | heavy modules held |")
    print("|---|---|---|---|---|")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
            for name in names:
                page = browser.new_page()
                page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(server.base) else r.abort())
                page.goto(f"{server.base}/voila/render/{name}", timeout=120_000)
                page.wait_for_selector(".railkit-app", timeout=120_000)
                time.sleep(settle_s)  # the deferred first map (first_paint) and its comm traffic
                used = re.findall(rf"Using pre-heated kernel: ([0-9a-f-]+) for {re.escape(name)}", server.log())
                for proc in psutil.Process(server.proc.pid).children(recursive=True):
                    command = proc.cmdline()
                    if used and any(used[-1] in part for part in command):
                        info = proc.memory_full_info()
                        kind = "railkit-lesson" if "railkit.ui.voila_template.lesson_kernel" in command else "python3"
                        held = kernel_modules(command[command.index("-f") + 1])
                        print(f"| {Path(name).stem} | {info.rss / 2**20:.0f} MB | {info.uss / 2**20:.0f} MB | "
                              f"{kind} | {held} |")
                page.close()
            browser.close()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--importtime", action="store_true")
    parser.add_argument("--live", action="store_true", help="real kernels behind open pages under Voila")
    parser.add_argument("--settle", type=float, default=5.0, help="--live: seconds to wait after a page is up")
    args = parser.parse_args()
    if args.live:
        live(args.settle)
        return
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
