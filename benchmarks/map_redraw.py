"""Map redraw after a click: the fast path (``figure_view`` updates applied with
``Plotly.react`` by the template's script) against the old full re-render of the Output.

    .venv/bin/python benchmarks/map_redraw.py                 # both paths, 12 clicks per lesson each
    .venv/bin/python benchmarks/map_redraw.py --clicks 20 --modes fast

For each mode, Voila is started the way ``make run`` starts it (notebooks/voila.json: railkit template,
preheated pools), over a temp copy of up_building, up_play and the baseline notebook; the full path is
forced with ``RAILKIT_FULL_REDRAW=1`` in the server's (so the kernels') environment. In headless
Chromium (/usr/lib/chromium/chromium or RAILKIT_CHROMIUM; every non-loopback request aborted) it
measures, per lesson:

1. bytes received by the page (HTTP bodies + websocket frames) beyond the baseline page (one button),
   as benchmarks/apps.py does;
2. click on a legal section → the map shows it selected and drawn: from the real mousedown event to
   the first animation frame in which a plot in the map's container holds the selected band (a layout
   shape, ``board_map.band``) on that section and has drawn every shape and every trace (the plot may
   be the same element, updated, or a new one), median of ``--clicks`` clicks, cycling over the legal
   sections.

Also the Python side of one redraw, headless (no browser): the building lesson's click handler up to
the widget state being set, for the update path and for the full render.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
NOTEBOOKS = ROOT / "notebooks"
BIN = Path(sys.executable).parent
CHROMIUM = os.environ.get("RAILKIT_CHROMIUM", "/usr/lib/chromium/chromium")
LESSONS = ["up_building.ipynb", "up_play.ipynb"]
MAP = ".railkit-figure .js-plotly-plot"

# Sections under the magenta band of the first map: [section id, page x, page y] of each, from the hit areas.
# The bands are layout shapes (board_map.band): "M ax,ay L bx,by" per section; their middles, in map km.
BAND_JS = """(gd, name) => {
  const shape = ((gd.layout && gd.layout.shapes) || []).find(s => s.name === name);
  if (!shape) return null;
  const out = [], re = /M(-?[\\d.]+),(-?[\\d.]+)L(-?[\\d.]+),(-?[\\d.]+)/g;
  let m;
  while ((m = re.exec(shape.path)) !== null) out.push([(+m[1] + +m[3]) / 2, (+m[2] + +m[4]) / 2]);
  return out;
}"""
# Sections under the magenta band of the first map: the section id of each, from the hit areas.
LEGAL_JS = """() => {
  const gd = document.querySelector('.railkit-figure .js-plotly-plot');
  const band = (BAND_FN)(gd, 'legal sections'), hits = gd.data.find(t => t.name === 'section hit areas');
  const out = [];
  for (const [mx, my] of band) {
    let best = -1, dist = Infinity;
    for (let i = 1; i < hits.x.length; i += 3) {
      const d = Math.hypot(hits.x[i] - mx, hits.y[i] - my);
      if (d < dist) { dist = d; best = i; }
    }
    out.push(hits.customdata[best]);
  }
  return out;
}""".replace("BAND_FN", BAND_JS)
POINT_JS = """(sid) => {
  const gd = document.querySelector('.railkit-figure .js-plotly-plot');
  const hits = gd.data.find(t => t.name === 'section hit areas');
  const i = hits.customdata.indexOf(sid) + 1;
  const fl = gd._fullLayout, box = gd.getBoundingClientRect();
  return [box.left + fl._size.l + fl.xaxis.l2p(hits.x[i]), box.top + fl._size.t + fl.yaxis.l2p(hits.y[i])];
}"""
# Armed before a click: resolves to [ms from mousedown to drawn, same plot element] or -1 after 15 s.
ARM_JS = """(sid) => {
  const old = document.querySelector('.railkit-figure .js-plotly-plot');
  window.railkitRedraw = new Promise(resolve => {
    let t0 = null;
    const down = e => { t0 = e.timeStamp; };
    window.addEventListener('mousedown', down, {capture: true, once: true});
    const shown = () => {
      const gd = document.querySelector('.railkit-figure .js-plotly-plot');
      if (!gd || !gd.data || !gd._fullLayout) return false;
      const hits = gd.data.find(t => t.name === 'section hit areas');
      const band = (BAND_FN)(gd, 'selected section');
      if (!hits || !band || band.length !== 1) return false;
      const i = hits.customdata.indexOf(sid) + 1;
      const [mx, my] = band[0];
      // the band is drawn (every layout shape has its path) and so is every trace
      return Math.hypot(hits.x[i] - mx, hits.y[i] - my) < 1
        && gd.querySelectorAll('.shapelayer path[data-index]').length === gd._fullLayout.shapes.length
        && gd.querySelectorAll('.scatterlayer .trace').length === gd.data.length;
    };
    const frame = () => {
      if (t0 !== null && shown()) {
        resolve([performance.now() - t0, document.querySelector('.railkit-figure .js-plotly-plot') === old]);
      } else if (t0 !== null && performance.now() - t0 > 15000) {
        resolve(-1);
      } else {
        requestAnimationFrame(frame);
      }
    };
    requestAnimationFrame(frame);
  });
}""".replace("BAND_FN", BAND_JS)


class Voila:
    """Voila in tree mode over a temp copy of the lessons, started from there (reads voila.json)."""

    def __init__(self, names: list[str], env: dict[str, str]) -> None:
        from benchmarks.apps import free_port

        self.dir = Path(tempfile.mkdtemp(prefix="railkit-redraw-"))
        for name in names:
            shutil.copy(NOTEBOOKS / name if (NOTEBOOKS / name).exists() else ROOT / "benchmarks" / name, self.dir)
        shutil.copy(NOTEBOOKS / "voila.json", self.dir)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = self.dir / "voila.log"
        self.proc = subprocess.Popen(
            [str(BIN / "voila"), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={self.port}", "."],
            cwd=self.dir, stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT,  # noqa: SIM115
            start_new_session=True, env={**os.environ, **env})
        self.wait_filled({n: 1 for n in names}, timeout=300)

    def filled(self, name: str) -> int:
        return self.log_path.read_text(errors="replace").count(f"Kernel pool of {name} is filled")

    def wait_filled(self, counts: dict[str, int], timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self.filled(n) >= c for n, c in counts.items()):
                time.sleep(2)  # the pool kernel runs its notebook after it is reported filled
                return
            time.sleep(0.3)
        print(f"warning: kernel pools not refilled within {timeout}s; measuring anyway", file=sys.stderr)

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


def wait_text(page, selector: str, text: str, timeout: float = 60000) -> None:
    page.wait_for_function("([s, t]) => { const e = document.querySelector(s); return e && e.innerText.includes(t); }",
                           arg=[selector, text], timeout=timeout)


def prepare_building(page) -> None:
    page.select_option(".railkit-company select", label="Billings Northern Lights (red)")
    page.click(".railkit-card button:text-is('Mountain')")
    wait_text(page, ".railkit-figure", "legal sections")


def prepare_play(page) -> None:
    """Game 11, first share laid, a card and a company with legal sections chosen (the map shows them)."""
    page.click(".railkit-setup :text('New game and options')")
    page.fill(".railkit-seed input", "11")
    page.locator(".railkit-seed input").press("Tab")
    page.click(".railkit-new-game")
    wait_text(page, ".railkit-message", "Game 11 started")
    page.select_option(".railkit-first-pick select", index=1)
    page.click(".railkit-lay")
    wait_text(page, ".railkit-status", "build, invest or pass (UP-T3)")
    cards = page.locator(".railkit-card button")
    for i in range(cards.count()):
        cards.nth(i).click()
        page.wait_for_function(
            """() => /fits no legal section/.test(document.querySelector('.railkit-legal').innerText)
                  || Array.from(document.querySelector('.railkit-company select').options)
                          .some(o => o.text.startsWith('✔') && o.text.includes('legal'))""")
        page.wait_for_timeout(300)
        labels = page.eval_on_selector(".railkit-company select", "s => Array.from(s.options).map(o => o.text)")
        marked = [j for j, label in enumerate(labels) if label.startswith("✔")]
        if marked:
            page.select_option(".railkit-company select", index=marked[0])
            break
    wait_text(page, ".railkit-figure", "legal sections")


def measure_page(browser, server: Voila, name: str, run: int, clicks: int) -> dict:
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    blocked: list[str] = []

    def route(r):
        u = r.request.url
        if u.startswith(("data:", "blob:")) or urlparse(u).hostname in ("127.0.0.1", "localhost"):
            r.continue_()
        else:
            blocked.append(u)
            r.abort()

    page.route("**/*", route)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    total = [0]
    cdp.on("Network.loadingFinished", lambda e: total.__setitem__(0, total[0] + e["encodedDataLength"]))
    cdp.on("Network.webSocketFrameReceived", lambda e: total.__setitem__(0, total[0] + len(e["response"]["payloadData"])))
    server.wait_filled({name: run + 1})
    page.goto(f"{server.base}/voila/render/{name}", timeout=120_000)
    page.wait_for_selector("#rendered_cells", state="visible", timeout=120_000)
    out: dict = {"blocked": blocked, "ms": [], "same_node": []}
    if name == "baseline.ipynb":
        page.wait_for_selector(".widget-button", state="visible", timeout=120_000)
        page.wait_for_timeout(1500)
        out["bytes"] = total[0]
        context.close()
        return out
    page.wait_for_selector(".railkit-app :is(button, input, select)", state="visible", timeout=120_000)
    page.wait_for_selector(MAP, timeout=60_000)
    page.wait_for_timeout(1500)  # late frames (widget state, plots), as benchmarks/apps.py waits
    out["bytes"] = total[0]
    (prepare_building if name == "up_building.ipynb" else prepare_play)(page)
    page.wait_for_timeout(1500)  # the script answers the kernel; the page settles
    legal = page.evaluate(LEGAL_JS)
    out["legal"] = legal
    for k in range(clicks):
        sid = legal[k % len(legal)] if len(legal) > 1 else legal[0]
        x, y = page.evaluate(POINT_JS, sid)
        page.mouse.move(x, y)
        page.wait_for_timeout(400)  # plotly's hover, which its click needs
        page.evaluate(ARM_JS, sid)
        page.mouse.click(x, y)
        result = page.evaluate("() => window.railkitRedraw")
        if result != -1:
            out["ms"].append(result[0])
            out["same_node"].append(result[1])
        page.wait_for_timeout(600)
    context.close()
    return out


def browser_mode(mode: str, clicks: int, runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    names = ["baseline.ipynb", *LESSONS]
    server = Voila(names, {"RAILKIT_FULL_REDRAW": "1" if mode == "full" else "0"})
    results: dict = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
            for run in range(runs):
                for name in names:
                    rec = measure_page(browser, server, name, run, clicks)
                    agg = results.setdefault(name, {"bytes": [], "ms": [], "same_node": [], "blocked": []})
                    for key in agg:
                        agg[key] += rec.get(key, []) if key != "bytes" else [rec["bytes"]]
            browser.close()
    finally:
        server.stop()
    return results


def python_side(repeats: int = 30) -> dict[str, float]:
    """Median ms of the building lesson's click handler (choose a section → map shown), per path."""
    from railkit.ui.unionpacific.building.app import BuildingApp

    out = {}
    for mode in ("fast", "full"):
        app = BuildingApp()
        app.company.value = "BNL"
        app.card.value = "mountain"
        legal = list(app.highlighted)
        view = app.map_view
        times = []
        for k in range(repeats):
            if mode == "fast":
                view._ready = view._render  # as the template's script answers in the browser
            t = time.perf_counter()
            app.on_map_click(legal[k % len(legal)])
            times.append((time.perf_counter() - t) * 1000)
        out[mode] = statistics.median(times)
        out[f"{mode}_updates"] = view.updates
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="railkit: map redraw after a click, fast path vs full render")
    parser.add_argument("--clicks", type=int, default=12, help="clicks per lesson and page (default 12)")
    parser.add_argument("--runs", type=int, default=1, help="page opens per lesson and mode (default 1)")
    parser.add_argument("--modes", nargs="*", default=["full", "fast"], choices=["full", "fast"])
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)")

    py = python_side()
    print(f"Python side of one redraw (building lesson click handler, median of 30): update {py['fast']:.1f} ms, "
          f"full render {py['full']:.1f} ms")
    rows = {}
    for mode in args.modes:
        t, load = time.monotonic(), os.getloadavg()[0]
        rows[mode] = browser_mode(mode, args.clicks, args.runs)
        print(f"[{mode}] measured in {time.monotonic() - t:.0f} s; load average (1 min) {load:.1f} before, "
              f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores")
    print("\n| lesson | path | click → map redrawn (median ms) | min–max ms | clicks | same plot element "
          "| bytes beyond baseline (MB) |")
    print("|---|---|---|---|---|---|---|")
    for mode, res in rows.items():
        base = statistics.median(res["baseline.ipynb"]["bytes"])
        for name in LESSONS:
            rec = res[name]
            ms = rec["ms"]
            timing = f"{statistics.median(ms):.0f} | {min(ms):.0f}–{max(ms):.0f}" if ms else "no redraw seen | "
            same = f"{sum(rec['same_node'])}/{len(rec['same_node'])}"
            print(f"| {name} | {mode} | {timing} | {len(ms)} | {same} | "
                  f"{(statistics.median(rec['bytes']) - base) / 1e6:+.2f} |")
            if rec["blocked"]:
                print(f"  !! {name} tried to reach other hosts: {sorted(set(rec['blocked']))}")
        print(f"| baseline.ipynb | {mode} | | | | | {base / 1e6:.2f} MB in all |")


if __name__ == "__main__":
    main()
