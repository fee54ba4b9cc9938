"""Where a static-site lesson's seconds go: the kernel's start steps in its web
worker, the page's first output and controls, the main thread's long tasks.

    .venv/bin/python benchmarks/site_profile.py --lessons up_dividends.ipynb kk_auction.ipynb up_building.ipynb

Works on a *copy* of site/ (built with make site if needed) whose kernel worker script gets
``performance.mark`` calls around jupyterlite-pyodide-kernel's start steps (initRuntime =
loadPyodide with the listed packages, initPackageManager, initKernel = the kernel's imports, the
first execute); the site itself is not touched. One Chromium profile for all lessons, as
benchmarks/site.py: the first lesson is cold, the next ones come from the cache.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "site"))

from site_helpers import NO_OTHER_HOSTS, SiteServer, build_site, open_lesson, page_url  # noqa: E402

CHROMIUM = os.environ.get("RAILKIT_CHROMIUM", "/usr/lib/chromium/chromium")
STEPS = ("await this.initRuntime(e),await this.initFilesystem(e),await this.initPackageManager(e),"
         "await this.initKernel(e),await this.initGlobals(e),")
MARKED = ("performance.mark('runtime-start'),await this.initRuntime(e),performance.mark('loadPyodide-done'),"
          "await this.initFilesystem(e),await this.initPackageManager(e),performance.mark('package-manager-done'),"
          "await this.initKernel(e),performance.mark('kernel-imports-done'),await this.initGlobals(e),")
EXECUTE = "async execute(e,t){"
PAGE_MARKS = """
self.__marks = {}; self.__long = [];
try { new PerformanceObserver(l => { for (const e of l.getEntries()) self.__long.push([e.startTime, e.duration]); })
      .observe({type: 'longtask', buffered: true}); } catch (e) {}
const mark = k => { if (!(k in self.__marks)) self.__marks[k] = performance.now(); };
new MutationObserver(() => {
  if (document.querySelector('.jp-OutputArea-output')) mark('first output');
  const c = document.querySelector('.railkit-app button, .railkit-app input, .railkit-app select');
  if (c && c.offsetParent) mark('a control visible');
  if (document.querySelector('.js-plotly-plot .main-svg')) mark('a plotly figure drawn');
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def marked_copy(site: Path, dest: Path) -> Path:
    shutil.copytree(site, dest)
    patched = 0
    for script in (dest / "extensions").rglob("*.js"):
        text = script.read_text(encoding="utf-8", errors="surrogateescape")
        if STEPS in text and EXECUTE in text and "importScripts" in text:
            text = text.replace(STEPS, MARKED).replace(
                EXECUTE, EXECUTE + "performance.mark('execute '+(self.__n=(self.__n||0)+1));", 1)
            script.write_text(text, encoding="utf-8", errors="surrogateescape")
            patched += 1
    if not patched:
        raise SystemExit("the kernel's worker script has changed: update STEPS in benchmarks/site_profile.py")
    return dest


def profile(lessons: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="railkit-site-profile-") as tmp, sync_playwright() as pw:
        server = SiteServer(marked_copy(build_site(), Path(tmp) / "site"))
        try:
            context = pw.chromium.launch_persistent_context(str(Path(tmp) / "profile"), executable_path=CHROMIUM,
                                                            headless=True, args=NO_OTHER_HOSTS,
                                                            viewport={"width": 1280, "height": 1600})
            context.add_init_script(PAGE_MARKS)
            for i, notebook in enumerate(lessons):
                page = context.new_page()
                workers = []
                page.on("worker", lambda worker, found=workers: found.append(worker))
                seconds = open_lesson(page, page_url(server.base, notebook), notebook)
                page.wait_for_timeout(300)
                origin = page.evaluate("performance.timeOrigin")
                marks, long_tasks = page.evaluate("[self.__marks, self.__long]")
                events = [(t / 1000, "page: " + name) for name, t in marks.items()]
                for worker in workers:
                    try:
                        w_origin, w_marks = worker.evaluate(
                            "[performance.timeOrigin, performance.getEntriesByType('mark').map(m => [m.name, m.startTime])]")
                    except Exception:  # noqa: BLE001 - a worker that has ended
                        continue
                    events += [((w_origin - origin + t) / 1000, "kernel: " + name) for name, t in w_marks]
                print(f"== {notebook} ({'cold' if i == 0 else 'cached'}): usable after {seconds:.2f} s")
                previous = 0.0
                for t, name in sorted(events):
                    print(f"  {t:6.2f} s  (+{t - previous:5.2f})  {name}")
                    previous = t
                slow = [f"{start / 1000:.2f}+{length / 1000:.2f}" for start, length in long_tasks if length > 150]
                print(f"  main-thread long tasks: {sum(d for _, d in long_tasks) / 1000:.2f} s in all; > 0.15 s: "
                      f"{' '.join(slow) or 'none'}")
                page.close()
            context.close()
        finally:
            server.stop()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", nargs="+", default=["up_dividends.ipynb", "kk_auction.ipynb", "up_building.ipynb"])
    profile(parser.parse_args(argv).lessons)
    return 0


if __name__ == "__main__":
    sys.exit(main())
