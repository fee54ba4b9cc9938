"""Apps in the browser and under load (results: docs/benchmarks.md, section of the same name).

    .venv/bin/python benchmarks/apps.py            # everything (about 5 minutes on 2 cores)
    .venv/bin/python benchmarks/apps.py --learners 10 --runs 2

Works for whatever notebooks exist in notebooks/. Measures, against a warm Voila server started the
way ``make run`` starts it (notebooks/voila.json: preheated pools, railkit template):

1. per notebook, in headless Chromium (every non-loopback request aborted): seconds from navigation
   to interactive, and bytes received (HTTP bodies + websocket frames) beyond the baseline page
   (benchmarks/baseline.ipynb: one button, Voila's own weight);
2. click to updated result, for apps with a probe in ``CLICK_PROBES``;
3. the figure choice: the UP board as a re-rendered go.Figure in an Output (benchmarks/figure_output.ipynb)
   vs one go.FigureWidget (benchmarks/figure_widget.ipynb): bytes, time to interactive, redraw time;
4. seconds to execute every notebook headless (nbclient, in sequence);
5. a load run: N simulated learners (plain HTTP to 127.0.0.1 only, one request each, bounded by a
   timeout, then the script stops) opening the apps at once: how many got a working page, how long
   it took, and the memory of each kernel.

Chromium: /usr/lib/chromium/chromium (or RAILKIT_CHROMIUM). Nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
BENCH = ROOT / "benchmarks"
BIN = Path(sys.executable).parent
CHROMIUM = os.environ.get("RAILKIT_CHROMIUM", "/usr/lib/chromium/chromium")
ERROR_TEXT = "There was an error when executing cell"
EXTRA = ["baseline.ipynb", "figure_output.ipynb", "figure_widget.ipynb"]

# notebook -> JS run in the page after open: clicks something and resolves to the ms until the
# visible result changed. Add one per lesson when it has a main action.
CLICK_PROBES = {
    "up_dividends.ipynb": """async () => {
        const table = () => document.querySelector('.railkit-result').innerText;
        const before = table();
        const input = document.querySelector('.railkit-value input');
        input.value = String(5 + Math.floor(Math.random() * 15));
        input.dispatchEvent(new Event('change', {bubbles: true}));
        await new Promise(r => setTimeout(r, 300));
        const t0 = performance.now();
        document.querySelector('.railkit-pay').click();
        while (table() === before) { await new Promise(r => setTimeout(r, 2)); if (performance.now() - t0 > 10000) return -1; }
        const tTable = performance.now() - t0;
        while (!document.querySelector('.railkit-figure .js-plotly-plot .bars')) {
            await new Promise(r => setTimeout(r, 2)); if (performance.now() - t0 > 10000) return -1; }
        return [tTable, performance.now() - t0];
    }""",
    "figure_output.ipynb": """async () => {
        const old = document.querySelector('.js-plotly-plot');
        const t0 = performance.now();
        document.querySelector('.bench-redraw').click();
        while (true) { const now = document.querySelector('.js-plotly-plot');
            if (now && now !== old && now.querySelector('.scatterlayer')) break;
            await new Promise(r => setTimeout(r, 2)); if (performance.now() - t0 > 10000) return -1; }
        return [performance.now() - t0, performance.now() - t0];
    }""",
    "figure_widget.ipynb": """async () => {
        const plot = document.querySelector('.js-plotly-plot');
        let done = false; plot.on('plotly_afterplot', () => { done = true; });
        const t0 = performance.now();
        document.querySelector('.bench-redraw').click();
        while (!done) { await new Promise(r => setTimeout(r, 2)); if (performance.now() - t0 > 10000) return -1; }
        return [performance.now() - t0, performance.now() - t0];
    }""",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, timeout: float) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:  # noqa: S310 - loopback only
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, ""


class Voila:
    """Voila in tree mode over a temp copy of notebooks/ plus the benchmark notebooks."""

    def __init__(self, names: list[str]) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="railkit-bench-"))
        for name in names:
            if (NOTEBOOKS / name).exists():
                shutil.copy(NOTEBOOKS / name, self.dir)
        for name in EXTRA:
            shutil.copy(BENCH / name, self.dir)
        shutil.copy(NOTEBOOKS / "voila.json", self.dir)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = self.dir / "voila.log"
        self.proc = subprocess.Popen(
            [str(BIN / "voila"), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={self.port}", "."],
            cwd=self.dir, stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT, start_new_session=True)
        self.names = names
        self.wait_filled({n: 1 for n in names}, timeout=300)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def filled(self, name: str) -> int:
        return self.log().count(f"Kernel pool of {name} is filled")

    def wait_filled(self, counts: dict[str, int], timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self.filled(n) >= c for n, c in counts.items()):
                return
            time.sleep(0.3)
        print(f"warning: kernel pools not refilled within {timeout}s; measuring anyway", file=sys.stderr)

    def kernel_rss_mb(self) -> list[float]:
        import psutil

        procs = psutil.Process(self.proc.pid).children(recursive=True)
        return [p.memory_info().rss / 2**20 for p in procs if "ipykernel" in " ".join(p.cmdline())]

    def stop(self) -> None:
        if self.proc.poll() is None:
            pgid = os.getpgid(self.proc.pid)
            os.killpg(pgid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)


def has_app(path: Path) -> bool:
    nb = json.loads(path.read_text())
    return any("App(" in "".join(c["source"]) or "railkit-app" in "".join(c["source"])
               for c in nb["cells"] if c["cell_type"] == "code")


def browser_runs(server: Voila, names: list[str], runs: int) -> dict[str, dict]:
    from playwright.sync_api import sync_playwright

    results: dict[str, dict] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        for name in names:
            rec = results.setdefault(name, {"tti": [], "bytes": [], "click": [], "blocked": []})
            ready = ".railkit-app" if has_app(server.dir / name) else None
            for run in range(runs):
                server.wait_filled({name: run + 1})  # a warm, preheated kernel for every run
                context = browser.new_context(viewport={"width": 1280, "height": 1400})
                page = context.new_page()

                def route(r, rec=rec):
                    u = r.request.url
                    if u.startswith(("data:", "blob:")) or urlparse(u).hostname in ("127.0.0.1", "localhost"):
                        r.continue_()
                    else:
                        rec["blocked"].append(u)
                        r.abort()

                page.route("**/*", route)
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                total = [0]
                cdp.on("Network.loadingFinished", lambda e, total=total: total.__setitem__(0, total[0] + e["encodedDataLength"]))
                cdp.on("Network.webSocketFrameReceived",
                       lambda e, total=total: total.__setitem__(0, total[0] + len(e["response"]["payloadData"])))
                t0 = time.monotonic()
                try:
                    page.goto(f"{server.base}/voila/render/{name}", timeout=120_000)
                    page.wait_for_selector("#rendered_cells", state="visible", timeout=120_000)
                    if ready:
                        page.wait_for_selector(f"{ready} :is(button, input, select)", state="visible", timeout=120_000)
                except Exception as exc:  # a broken lesson is reported, the others still measured
                    rec.setdefault("errors", []).append(f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
                    context.close()
                    continue
                rec["tti"].append(time.monotonic() - t0)
                page.wait_for_timeout(1500)  # let late frames (widget state, plots) arrive
                rec["bytes"].append(total[0])
                if name in CLICK_PROBES:
                    for _ in range(5):
                        value = page.evaluate(CLICK_PROBES[name])
                        if value != -1:
                            rec["click"].append(value)
                        page.wait_for_timeout(200)
                context.close()
        browser.close()
    return results


def execute_all(names: list[str]) -> tuple[float, dict[str, float]]:
    from railkit.ui.headless import execute_notebook

    per = {}
    start = time.monotonic()
    for name in names:
        t = time.monotonic()
        execute_notebook(NOTEBOOKS / name, timeout=300)
        per[name] = time.monotonic() - t
    return time.monotonic() - start, per


def load_run(server: Voila, names: list[str], learners: int, timeout: float) -> dict:
    """``learners`` threads, each one GET of an app page at the same moment; loopback only."""
    barrier = threading.Barrier(learners)
    outcomes: list[tuple[str, bool, float]] = [None] * learners  # type: ignore[list-item]

    def learner(i: int) -> None:
        name = names[i % len(names)]
        barrier.wait()
        t = time.monotonic()
        try:
            status, body = get(f"{server.base}/voila/render/{name}", timeout=timeout)
            ok = status == 200 and ERROR_TEXT not in body and "rendered_cells" in body
        except OSError:
            ok = False
        outcomes[i] = (name, ok, time.monotonic() - t)

    threads = [threading.Thread(target=learner, args=(i,), daemon=True) for i in range(learners)]
    start = time.monotonic()
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout + 30)
    wall = time.monotonic() - start
    done = [o for o in outcomes if o is not None]
    times = sorted(o[2] for o in done if o[1])
    rss = server.kernel_rss_mb()
    return {
        "learners": learners, "ok": sum(o[1] for o in done), "wall_s": wall,
        "median_s": statistics.median(times) if times else None, "max_s": max(times) if times else None,
        "kernels": len(rss), "kernel_mb_median": statistics.median(rss) if rss else None,
        "kernel_mb_max": max(rss) if rss else None, "kernel_mb_total": sum(rss),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="railkit apps: browser timings, page weight, load")
    parser.add_argument("--runs", type=int, default=3, help="page opens per notebook (default 3)")
    parser.add_argument("--learners", type=int, default=30, help="simultaneous learners in the load run")
    parser.add_argument("--timeout", type=float, default=240, help="seconds a learner waits for a page")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument("--skip", nargs="*", default=[], help="notebooks to leave out (e.g. one being fixed)")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)")

    lessons = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb") if p.name not in args.skip)
    names = ["baseline.ipynb"] + lessons + ["figure_output.ipynb", "figure_widget.ipynb"]
    print(f"notebooks: {', '.join(lessons)}")
    t = time.monotonic()
    server = Voila(names)
    print(f"Voila warm (all pools filled) in {time.monotonic() - t:.1f} s")
    out: dict = {}
    try:
        out["browser"] = browser_runs(server, names, args.runs)
        server.wait_filled({n: args.runs + 1 for n in names}, timeout=300)
        apps = [n for n in lessons if has_app(NOTEBOOKS / n)] or lessons
        out["load"] = load_run(server, apps, args.learners, args.timeout)
    finally:
        server.stop()
    out["execute"] = execute_all(lessons)

    base = statistics.median(out["browser"]["baseline.ipynb"]["bytes"])
    print(f"\nBaseline page (one button): {base / 1e6:.2f} MB, interactive in "
          f"{statistics.median(out['browser']['baseline.ipynb']['tti']):.2f} s (median of {args.runs})")
    print("\n| notebook | interactive (median s) | bytes beyond baseline (MB) | click → table / figure (median ms) |")
    print("|---|---|---|---|")
    for name in names[1:]:
        rec = out["browser"][name]
        if not rec["tti"]:
            print(f"| {name} | not interactive: {rec.get('errors', ['?'])[0]} | | |")
            continue
        click = ""
        if rec["click"]:
            click = (f"{statistics.median(c[0] for c in rec['click']):.0f} / "
                     f"{statistics.median(c[1] for c in rec['click']):.0f}")
        print(f"| {name} | {statistics.median(rec['tti']):.2f} | {(statistics.median(rec['bytes']) - base) / 1e6:+.2f} "
              f"| {click} |")
        if rec["blocked"]:
            print(f"  !! {name} tried to reach other hosts: {sorted(set(rec['blocked']))}")
    total, per = out["execute"]
    print(f"\nExecute all {len(per)} notebooks headless (nbclient, sequential): {total:.1f} s "
          f"({', '.join(f'{k} {v:.1f}' for k, v in per.items())})")
    ld = out["load"]
    print(f"\nLoad: {ld['learners']} learners at once over loopback HTTP: {ld['ok']} got a working page; "
          f"median {ld['median_s']:.1f} s, slowest {ld['max_s']:.1f} s, wall {ld['wall_s']:.1f} s; "
          f"{ld['kernels']} kernels, {ld['kernel_mb_median']:.0f} MB median each "
          f"(max {ld['kernel_mb_max']:.0f}, total {ld['kernel_mb_total'] / 1024:.1f} GB)")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    main()
