"""The static site: what a learner's browser downloads and how soon a lesson is usable.

    .venv/bin/python benchmarks/site.py                       # builds site/ if needed (make site)
    .venv/bin/python benchmarks/site.py --lessons up_dividends.ipynb kk_auction.ipynb up_building.ipynb

One Chromium with a profile on disk (a learner's browser: its HTTP cache keeps Pyodide and the wheels),
no host but loopback resolvable (any attempt is reported). Opens the lessons one after another in that browser and prints,
per lesson: seconds from navigation to usable (the app's controls visible), bytes the server sent
(tools/site/serve.py, gzip on, as ``make serve-site``), and Chromium's resident memory. The first
lesson is the cold load; the next ones reuse the cache. Results also go to benchmarks/results/site.json.
Goals: first load <= 25 MB, usable <= 10 s cold and <= 5 s for a second lesson.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "site"))

from site_helpers import (  # noqa: E402
    NO_OTHER_HOSTS,
    SiteServer,
    build_site,
    chromium_memory_mb,
    guard_offline,
    open_lesson,
    page_url,
    problems,
    watch,
)

CHROMIUM = os.environ.get("RAILKIT_CHROMIUM", "/usr/lib/chromium/chromium")


def measure(lessons: list[str]) -> list[dict]:
    from playwright.sync_api import sync_playwright

    server = SiteServer(build_site())
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="railkit-site-profile-") as profile, sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True,
                                                            args=NO_OTHER_HOSTS, viewport={"width": 1280, "height": 1600})
            offline = guard_offline(context, route=False)  # routing would turn the HTTP cache off
            for i, notebook in enumerate(lessons):
                server.sent.clear()
                page = context.new_page()
                log = watch(page)
                seconds = open_lesson(page, page_url(server.base, notebook), notebook)
                page.wait_for_timeout(500)
                biggest = [f"{path} {size / 1e6:.1f} MB" for path, size in server.sent.most_common(4)]
                rows.append({"lesson": notebook, "load": "cold" if i == 0 else "cached", "usable_s": round(seconds, 1),
                             "sent_mb": round(sum(server.sent.values()) / 1e6, 1), "requests": len(server.sent),
                             "chromium_mb": round(chromium_memory_mb()), "biggest": biggest,
                             "problems": problems(page, log)})
                page.close()
            context.close()
            if offline.blocked:
                raise SystemExit(f"the site tried to reach other hosts: {offline.blocked}")
    finally:
        server.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", nargs="+", default=["up_dividends.ipynb", "kk_auction.ipynb", "up_building.ipynb"])
    args = parser.parse_args(argv)
    rows = measure(args.lessons)
    print(f"{'lesson':24} {'load':7} {'usable s':>9} {'sent MB':>8} {'requests':>9} {'Chromium MB':>12}")
    for r in rows:
        print(f"{r['lesson']:24} {r['load']:7} {r['usable_s']:9.1f} {r['sent_mb']:8.1f} {r['requests']:9d} "
              f"{r['chromium_mb']:12d}")
    print("largest downloads of the cold load:", "; ".join(rows[0]["biggest"]))
    for r in rows:
        if r["problems"]:
            print(f"problems on {r['lesson']}: {r['problems']}")
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "site.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
          "(other work on the machine slows every figure)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
