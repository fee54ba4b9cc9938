"""Apps in the browser and under load (results: docs/benchmarks.md, section of the same name).

    .venv/bin/python benchmarks/apps.py            # everything (about 5 minutes on 2 cores)
    .venv/bin/python benchmarks/apps.py --learners 10 --runs 2
    .venv/bin/python benchmarks/apps.py --only up_building up_play --cold --no-load --no-execute
    .venv/bin/python benchmarks/apps.py --no-browser --no-execute --learners 30 60 --lesson up_play --class-pools

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
   timeout, then the script stops) opening the apps at once (``--lesson``: all the same lesson, the
   usual class; else spread over the lessons): how many got a working page, how long it took, the
   memory of each kernel and of the whole server (Voila + kernels), right after and once the pools
   have refilled. ``--class-pools`` starts Voila as ``make run CLASS=<learners> LESSON=<lesson>`` does
   (railkit/ui/voila_template/class_config.py); each ``--learners`` count gets a fresh server.
   ``--cold`` also measures 1. against a server without preheated kernels.

Every run prints the machine's load average at its start (the machine may be shared).

Chromium: /usr/lib/chromium/chromium (or RAILKIT_CHROMIUM). Nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
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

    def __init__(self, names: list[str], extra_args: tuple[str, ...] = (), wait: dict[str, int] | None = None) -> None:
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
            [str(BIN / "voila"), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={self.port}", *extra_args, "."],
            cwd=self.dir, stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT, start_new_session=True)
        self.names = names
        self.preheat = "--VoilaConfiguration.preheat_kernel=False" not in extra_args
        try:
            if self.preheat:
                self.wait_filled(wait or {n: 1 for n in names}, timeout=600)
            else:
                deadline = time.monotonic() + 120
                while time.monotonic() < deadline and "running at" not in self.log():
                    time.sleep(0.3)
        except BaseException:  # interrupted while starting: no server (nor its kernels) left behind
            self.stop()
            raise

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def filled(self, name: str) -> int:
        return self.log().count(f"Kernel pool of {name} is filled")

    def wait_filled(self, counts: dict[str, int], timeout: float = 180) -> None:
        if not self.preheat:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self.filled(n) >= c for n, c in counts.items()):
                return
            time.sleep(0.3)
        print(f"warning: kernel pools not refilled within {timeout}s; measuring anyway", file=sys.stderr)

    def wait_quiet(self, timeout: float = 600, busy_percent: float = 10) -> float:
        """Wait until Voila and its kernels have done their work: Voila logs a pool as filled once its
        kernels have started, before they have run the lesson. Returns the seconds waited."""
        import psutil

        start = time.monotonic()
        quiet = 0
        while time.monotonic() - start < timeout and quiet < 2:
            procs = [psutil.Process(self.proc.pid), *psutil.Process(self.proc.pid).children(recursive=True)]
            for proc in procs:
                with contextlib.suppress(psutil.Error):
                    proc.cpu_percent(None)
            time.sleep(1)
            used = 0.0
            for proc in procs:
                with contextlib.suppress(psutil.Error):
                    used += proc.cpu_percent(None)
            quiet = quiet + 1 if used < busy_percent else 0
        return time.monotonic() - start

    def kernel_rss_mb(self) -> list[float]:
        return self.rss_mb()[1]

    def rss_mb(self) -> tuple[float, list[float]]:
        """RSS of the Voila process and of each kernel, in MB (kernels that exit meanwhile are skipped)."""
        import psutil

        root = psutil.Process(self.proc.pid)
        kernels = []
        for p in root.children(recursive=True):
            try:
                command = " ".join(p.cmdline())
                if "ipykernel" in command or "lesson_kernel" in command:
                    kernels.append(p.memory_info().rss / 2**20)
            except psutil.Error:
                pass
        return root.memory_info().rss / 2**20, kernels

    def stop(self) -> None:
        # Voila shuts its kernels down on SIGTERM (they run in sessions of their own, not in its group).
        import psutil

        if self.proc.poll() is None:
            kernels = psutil.Process(self.proc.pid).children(recursive=True)
            pgid = os.getpgid(self.proc.pid)
            os.killpg(pgid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            for kernel in kernels:  # any kernel Voila did not shut down in time
                with contextlib.suppress(psutil.Error):
                    kernel.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


@functools.cache
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
            rec = results.setdefault(name, {"tti": [], "figure": [], "bytes": [], "click": [], "blocked": []})
            ready = ".railkit-app" if has_app(server.dir / name) else None
            for run in range(runs):
                server.wait_filled({name: run + 1})  # a warm, preheated kernel for every run
                if server.preheat:
                    server.wait_quiet(timeout=120)  # ... that has run the lesson already
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
                if page.locator(".railkit-figure").count():  # a lesson with a map: when did it appear?
                    with contextlib.suppress(Exception):
                        page.wait_for_selector(".railkit-figure .js-plotly-plot", state="visible", timeout=60_000)
                        rec["figure"].append(time.monotonic() - t0)
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


def widget_states(base: str, page: str, timeout: float) -> int:
    """Ask the page's kernel for every widget's state, as the page's widget manager does on load
    (ipywidgets' control comm, ``request_states``); returns how many widgets it sent."""
    import asyncio
    import re
    import uuid

    from tornado.websocket import websocket_connect

    found = re.search(r'"kernelId": "([0-9a-f-]+)"', page)
    if not found:
        raise ValueError("the page names no kernel")

    def message(kind: str, content: dict, metadata: dict | None = None) -> str:
        header = {"msg_id": uuid.uuid4().hex, "msg_type": kind, "username": "", "session": "bench", "date": "",
                  "version": "5.3"}
        return json.dumps({"header": header, "parent_header": {}, "metadata": metadata or {}, "content": content,
                           "channel": "shell", "buffers": []})

    async def ask() -> int:
        url = f"ws{base.removeprefix('http')}/api/kernels/{found.group(1)}/channels?session_id={uuid.uuid4()}"
        ws = await websocket_connect(url, max_message_size=64 * 2**20)
        comm = uuid.uuid4().hex
        ws.write_message(message("comm_open", {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}},
                                 {"version": "1.0.0"}))
        ws.write_message(message("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}}))
        try:
            while True:
                raw = await ws.read_message()
                if raw is None:
                    raise ValueError(f"kernel {found.group(1)}: its websocket closed before it sent the states")
                if isinstance(raw, str):
                    msg = json.loads(raw)
                    data = msg["content"].get("data") or {}
                    if msg["msg_type"] == "comm_msg" and data.get("method") == "update_states":
                        if not data["states"]:
                            raise ValueError(f"kernel {found.group(1)} has no widgets")
                        return len(data["states"])
        finally:
            ws.close()

    return asyncio.run(asyncio.wait_for(ask(), timeout))


def load_run(server: Voila, names: list[str], learners: int, timeout: float, refill: bool = True) -> dict:
    """``learners`` threads open a page at the same moment: one GET, then its widgets' states from its
    kernel over the websocket (what a browser waits for before the page works); loopback only."""
    barrier = threading.Barrier(learners)
    outcomes: list[tuple[str, bool, float]] = [None] * learners  # type: ignore[list-item]
    page_times: list[float] = []
    failures: list[str] = []
    load = os.getloadavg()

    def learner(i: int) -> None:
        name = names[i % len(names)]
        barrier.wait()
        t = time.monotonic()
        why = ""
        try:
            status, body = get(f"{server.base}/voila/render/{name}", timeout=timeout)
            ok = status == 200 and ERROR_TEXT not in body and "rendered_cells" in body
            why = "" if ok else f"page: HTTP {status}" + (", a cell failed" if ERROR_TEXT in body else "")
            page_times.append(time.monotonic() - t)
            if ok and has_app(NOTEBOOKS / name):
                ok = widget_states(server.base, body, timeout) > 0
                why = "" if ok else "no widget states from the kernel"
        except Exception as exc:  # noqa: BLE001 - any failure is this learner's, reported below
            ok, why = False, f"{type(exc).__name__}: {exc}"
        outcomes[i] = (name, ok, time.monotonic() - t)
        if not ok:
            failures.append(f"learner {i} ({name}) after {time.monotonic() - t:.1f} s: {why}")

    threads = [threading.Thread(target=learner, args=(i,), daemon=True) for i in range(learners)]
    start = time.monotonic()
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout + 30)
    wall = time.monotonic() - start
    done = [o for o in outcomes if o is not None]
    times = sorted(o[2] for o in done if o[1])
    after = memory(server)
    t = time.monotonic()
    # Each page taken from a pool is replaced and logged once more: wait for all, the class's steady state.
    opened = {n: sum(names[i % len(names)] == n for i in range(learners)) for n in set(names)}
    if refill:
        server.wait_filled({n: 1 + k for n, k in opened.items()}, timeout=600)
        server.wait_quiet()
    refilled = memory(server) if refill else after
    return {
        "learners": learners, "lessons": sorted(set(names)), "load_average": load, "ok": sum(o[1] for o in done),
        "wall_s": wall, "median_s": statistics.median(times) if times else None,
        "max_s": max(times) if times else None, "page_median_s": statistics.median(page_times) if page_times else None,
        "after": after, "refilled": refilled, "failures": failures,
        "refill_s": time.monotonic() - t,
        # the older keys, for scripts reading --json
        "kernels": after["kernels"], "kernel_mb_median": after["kernel_mb_median"],
        "kernel_mb_max": after["kernel_mb_max"], "kernel_mb_total": after["kernel_mb_total"],
    }


def memory(server: Voila) -> dict:
    voila_mb, rss = server.rss_mb()
    return {"voila_mb": voila_mb, "kernels": len(rss), "kernel_mb_median": statistics.median(rss) if rss else 0.0,
            "kernel_mb_max": max(rss, default=0.0), "kernel_mb_total": sum(rss), "server_mb": voila_mb + sum(rss)}


def load_text(ld: dict) -> str:
    a, r = ld["after"], ld["refilled"]
    median = f"{ld['median_s']:.1f}" if ld["median_s"] is not None else "–"
    slowest = f"{ld['max_s']:.1f}" if ld["max_s"] is not None else "–"
    return (f"Load: {ld['learners']} learners at once ({', '.join(ld['lessons'])}) over loopback HTTP, load average "
            f"{ld['load_average'][0]:.2f} at the start: {ld['ok']} got a working page; median {median} s, slowest "
            f"{slowest} s (page alone: median {ld['page_median_s'] or 0:.1f} s), wall {ld['wall_s']:.1f} s. "
            f"Right after: {a['kernels']} kernels, {a['kernel_mb_median']:.0f} MB "
            f"median each (max {a['kernel_mb_max']:.0f}), Voila {a['voila_mb']:.0f} MB, server "
            f"{a['server_mb'] / 1024:.2f} GB." + (" Not waiting for the pools to refill." if a is r else
            f" Pools refilled ({ld['refill_s']:.0f} s later): {r['kernels']} kernels, "
            f"{r['kernel_mb_median']:.0f} MB median, server {r['server_mb'] / 1024:.2f} GB.")
            + "".join(f"\n  not working: {f}" for f in ld.get("failures", [])))


def browser_table(out: dict, names: list[str], runs: int, label: str) -> None:
    browser = out[label]
    base = statistics.median(browser["baseline.ipynb"]["bytes"])
    base_tti = statistics.median(browser["baseline.ipynb"]["tti"])
    print(f"\n{label}: baseline page (one button): {base / 1e6:.2f} MB, interactive in {base_tti:.2f} s "
          f"(median of {runs}); load average {out[label + '_load'][0]:.2f} at the start")
    print("\n| notebook | interactive (median s) | above baseline (s) | first figure drawn (s) "
          "| bytes beyond baseline (MB) | click → table / figure (median ms) |")
    print("|---|---|---|---|---|---|")
    for name in names[1:]:
        rec = browser.get(name)
        if rec is None:
            continue
        if not rec["tti"]:
            print(f"| {name} | not interactive: {rec.get('errors', ['?'])[0]} | | | | |")
            continue
        click = ""
        if rec["click"]:
            click = (f"{statistics.median(c[0] for c in rec['click']):.0f} / "
                     f"{statistics.median(c[1] for c in rec['click']):.0f}")
        tti = statistics.median(rec["tti"])
        figure = f"{statistics.median(rec['figure']):.2f}" if rec.get("figure") else ""
        print(f"| {name} | {tti:.2f} | {tti - base_tti:+.2f} | {figure} | {(statistics.median(rec['bytes']) - base) / 1e6:+.2f} "
              f"| {click} |")
        if rec["blocked"]:
            print(f"  !! {name} tried to reach other hosts: {sorted(set(rec['blocked']))}")


def main() -> None:
    parser = argparse.ArgumentParser(description="railkit apps: browser timings, page weight, load")
    parser.add_argument("--runs", type=int, default=3, help="page opens per notebook (default 3)")
    parser.add_argument("--learners", type=int, nargs="+", default=[30],
                        help="simultaneous learners in the load run; several counts: one fresh server each")
    parser.add_argument("--lesson", help="every learner opens this lesson (e.g. up_play); default: spread")
    parser.add_argument("--class-pools", action="store_true",
                        help="size the pools as `make run CLASS=<learners> LESSON=<lesson>` does")
    parser.add_argument("--timeout", type=float, default=240, help="seconds a learner waits for a page")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument("--skip", nargs="*", default=[], help="notebooks to leave out (e.g. one being fixed)")
    parser.add_argument("--only", nargs="*", default=[], help="lessons for the browser runs (default: all)")
    parser.add_argument("--cold", action="store_true", help="also time pages without preheated kernels")
    parser.add_argument("--no-browser", action="store_true", help="leave out the browser runs")
    parser.add_argument("--no-load", action="store_true", help="leave out the load run")
    parser.add_argument("--no-execute", action="store_true", help="leave out the headless execution")
    parser.add_argument("--no-refill", action="store_true",
                        help="stop after the load run, before the pools refill (a shared machine's memory)")
    args = parser.parse_args()
    if not args.no_browser and not Path(CHROMIUM).exists():
        sys.exit(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)")

    lessons = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb") if p.name not in args.skip)
    only = [n if n.endswith(".ipynb") else f"{n}.ipynb" for n in args.only]
    shown = [n for n in lessons if not only or n in only]
    extras = ["figure_output.ipynb", "figure_widget.ipynb"] if not only else []
    names = ["baseline.ipynb"] + shown + extras
    print(f"notebooks: {', '.join(shown)}")
    out: dict = {}
    if not args.no_browser:
        servers = [("warm (preheated kernels)", ())]
        if args.cold:
            servers.append(("cold (no preheated kernel)", ("--VoilaConfiguration.preheat_kernel=False",)))
        for label, extra in servers:
            out[label + "_load"] = os.getloadavg()
            t = time.monotonic()
            server = Voila(names, extra)
            print(f"Voila ({label}) ready in {time.monotonic() - t:.1f} s")
            try:
                out[label] = browser_runs(server, names, args.runs)
            finally:
                server.stop()
            browser_table(out, names, args.runs, label)
    if not args.no_load:
        from railkit.ui.voila_template.class_config import voila_args

        apps = ([f"{args.lesson.removesuffix('.ipynb')}.ipynb"] if args.lesson
                else [n for n in lessons if has_app(NOTEBOOKS / n)] or lessons)
        out["load"] = []
        for learners in args.learners:
            extra = tuple(voila_args(learners, args.lesson)) if args.class_pools else ()
            t = time.monotonic()
            server = Voila(lessons, extra, wait={n: 1 for n in lessons})
            server.wait_quiet()  # a class arrives after the server has settled
            print(f"\nVoila for {learners} learners{' (' + ' '.join(extra) + ')' if extra else ''}: pools filled in "
                  f"{time.monotonic() - t:.1f} s; idle: {memory(server)['server_mb'] / 1024:.2f} GB")
            try:
                out["load"].append(load_run(server, apps, learners, args.timeout, refill=not args.no_refill))
            finally:
                server.stop()
            print(load_text(out["load"][-1]))
    if not args.no_execute:
        out["execute"] = execute_all(lessons)
        total, per = out["execute"]
        print(f"\nExecute all {len(per)} notebooks headless (nbclient, sequential): {total:.1f} s "
              f"({', '.join(f'{k} {v:.1f}' for k, v in per.items())})")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    main()
