"""Measure the class hub on this machine: N learners log in at once in Chromium and open a lesson.

    .venv/bin/python deploy/measure_hub.py --learners 2            # the first lesson with an app
    .venv/bin/python deploy/measure_hub.py --learners 10 --lesson up_play.ipynb
    .venv/bin/python deploy/measure_hub.py --every-lesson          # one learner, each lesson in turn

Runs the same recipe as tests/deploy/test_hub.py (install.sh into .cache/deploy, start-hub.sh on
loopback; as root, learners are Unix users of their own, removed afterwards) and prints JSON: the
hub's own memory, and per learner the seconds from login to the lesson index and to a working app,
and the memory (PSS: shared pages split between their users) of their server and kernels. The
browsers run on the same machine and compete with the hub for its cores: a real class is lighter.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "deploy")]

from conftest import CHROMIUM, NOTEBOOKS_DIR, has_app, notebooks  # noqa: E402
from hub_runner import (  # noqa: E402
    PASSWORD,
    Hub,
    can_create_users,
    children,
    cpu_seconds,
    install,
    memory_mb,
    remove_unix_users,
    start_time,
)


def landing() -> str:
    return "/voila/render/index.ipynb" if (NOTEBOOKS_DIR / "index.ipynb").exists() else "/voila/tree"


async def learner(browser, hub: Hub, name: str, lessons: list[str]) -> dict:
    context = await browser.new_context(viewport={"width": 1280, "height": 1000})
    page = await context.new_page()
    result: dict = {"name": name}
    try:
        start = time.monotonic()
        await page.goto(f"{hub.base}/hub/login", timeout=120_000)
        await page.fill("#username_input", name)
        await page.fill("#password_input", PASSWORD)
        await page.click("#login_submit")
        await page.wait_for_url(f"**/user/{name}{landing()}", timeout=300_000)
        result["login_to_index_s"] = round(time.monotonic() - start, 1)
        for lesson in lessons:
            await page.goto(f"{hub.base}/user/{name}/voila/render/{lesson}", timeout=300_000)
            await page.wait_for_selector(".railkit-app :is(button, input, select, textarea):visible", timeout=300_000)
            result.setdefault("lessons", {})[lesson] = {"login_to_app_s": round(time.monotonic() - start, 1)}
            server = hub.server_pid(name)
            newest = max(children(server), key=start_time)  # the kernel this page started
            result["lessons"][lesson]["kernel_mb"] = memory_mb(newest)["pss"]
        server = hub.server_pid(name)
        result["server_mb"] = memory_mb(server)["pss"]
        result["all_kernels_mb"] = round(sum(memory_mb(k)["pss"] for k in children(server)), 1)
        # CPU used by the learner's server and the kernels still open (closed pages' kernels are gone).
        result["cpu_s"] = round(cpu_seconds(server) + sum(cpu_seconds(k) for k in children(server)), 1)
    finally:
        await context.close()
    return result


async def measure(hub: Hub, names: list[str], lessons: list[str]) -> list[dict]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            return await asyncio.gather(*(learner(browser, hub, n, lessons) for n in names))
        finally:
            await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=2)
    parser.add_argument("--lesson", help="notebook path under notebooks/ (default: the first with an app)")
    parser.add_argument("--every-lesson", action="store_true", help="one learner opens every app lesson in turn")
    parser.add_argument("--mem-limit", default="1G")
    args = parser.parse_args()
    apps = [nb.relative_to(NOTEBOOKS_DIR).as_posix() for nb in notebooks() if has_app(nb)]
    lessons = apps if args.every_lesson else [args.lesson or apps[0]]
    count = 1 if args.every_lesson else args.learners
    tag = secrets.token_hex(2)
    names = [f"l{i:02d}{tag}" for i in range(count)]
    local = can_create_users()
    install()
    with tempfile.TemporaryDirectory() as state:
        hub = Hub(state=Path(state) / "state", spawner="local" if local else "shared", mem_limit=args.mem_limit)
        report: dict = {"learners": count, "lessons": lessons, "spawner": hub.spawner}
        try:
            hub.start()
            report["idle_hub_mb"] = {part: memory_mb(pid)["pss"] for part, pid in hub.parts().items()}
            report["per_learner"] = asyncio.run(measure(hub, names, lessons))
            report["busy_hub_mb"] = {part: memory_mb(pid)["pss"] for part, pid in hub.parts().items()}
        finally:
            took, strays = hub.stop()
            if local:
                remove_unix_users([f"jupyter-{n}" for n in names])
            report["hub_stop_s"] = round(took, 1)
            report["strays"] = strays
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
