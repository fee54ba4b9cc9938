"""The teacher's room with a class's records: how long the page takes to fetch and show everything.

A table server is started as ``make run`` starts it (its own process, SQLite in a temporary directory
unless ``--db`` names another database, a teacher key file beside it). ``--learners`` learners each open
every lesson and send ``--answers`` checked answers (a third of them wrong, spread over the lessons'
exercises and rules) through ``POST /api/records``; ``--tables`` Vom Kap bis Kairo tables are made, each
with a move. Then the teacher's page (``railkit.ui.teacher.page.TeacherApp``, headless, in this process as in its
kernel) is built with the key in its address and shows the class ``--repeat`` times: the time from building
the page to every table of it filled (three requests to the server and the HTML), p50 and max. This is the
kernel's part of opening the page; Voila's own (a preheated kernel, the page's HTML) comes on top
(docs/benchmarks.md, "Apps in the browser and under load"). The last line printed is one JSON object.

    .venv/bin/python benchmarks/teacher.py                            # 30 learners, 8 tables: the goal <= 3 s
    .venv/bin/python benchmarks/teacher.py --answers 1000             # a term's worth
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from railkit.lessons import LESSONS

EXERCISES = {"up_setup": (["first_k", "above", "bottom"], ["UP-S7"]),
             "up_building": (["legal_sections"], ["UP-B2a", "UP-B2c", "UP-B2e"]),
             "up_dividends": (["company_payout", "up_payout"], ["UP-D4", "UP-D9", "UP-D11"]),
             "up_play": (["payout_company", "payout_up"], ["UP-D3", "UP-D10"]),
             "kk_auction": (["choosing_order"], ["KK-A4", "KK-A5"]),
             "kk_play": (["build_cost"], ["KK-B2", "KK-C3"])}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(url: str, body: Any) -> dict[str, Any]:
    """POST ``body``; a 429 (the server's own limit on records a second, RECORDS-RATE) waits and sends again."""
    while True:
        request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                answer: dict[str, Any] = json.loads(response.read())
                return answer
        except urllib.error.HTTPError as exc:
            if exc.code != 429:
                raise
            time.sleep(0.2)


def fill(base: str, learners: int, answers: int, tables: int, rng: random.Random) -> int:
    sent = 0
    for i in range(learners):
        name = f"Learner {i + 1:02d}"
        visit = f"bench-visit-{i:04d}"
        for lesson in LESSONS:
            post(f"{base}/api/records", {"event": "opened", "learner": name, "lesson": lesson.id, "visit": visit})
            sent += 1
        for n in range(answers):
            lesson = LESSONS[n % len(LESSONS)].id
            exercises, rules = EXERCISES[lesson]
            post(f"{base}/api/records", {"event": "answer", "learner": name, "lesson": lesson, "visit": visit,
                                         "exercise": rng.choice(exercises), "right": rng.random() > 1 / 3,
                                         "attempt": 1 + (n % 3 == 2), "hints": rng.randint(0, 1), "why": 0,
                                         "seconds": rng.randint(5, 90), "rules": rules})
            sent += 1
    for t in range(tables):
        post(f"{base}/api/tables", {"game": "cape_to_cairo", "seats": [f"Learner {2 * t + 1:02d}",
                                                                         f"Learner {2 * t + 2:02d}"], "seed": t})
    return sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--answers", type=int, default=120, help="checked answers per learner")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="railkit-teacher-bench-"))
    db = args.db or f"sqlite:///{folder / 'tables.sqlite'}"
    port = free_port()
    key_file = folder / "teacher.key"
    server = subprocess.Popen([sys.executable, "-m", "railkit.tables", "--port", str(port), "--db", db,
                               "--teacher-key-file", str(key_file), "--records-per-second", "100000"])
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        started = time.perf_counter()
        sent = fill(base, args.learners, args.answers, args.tables, random.Random(7))
        fill_s = time.perf_counter() - started
        os.environ.update({"RAILKIT_TABLES_URL": base, "QUERY_STRING": f"key={key_file.read_text().strip()}"})
        from railkit.ui.teacher.page import TeacherApp

        times = []
        for _ in range(args.repeat):
            begin = time.perf_counter()
            page = TeacherApp()
            times.append(time.perf_counter() - begin)
            assert page.loaded and page.message_kind == "ok", page.message_text
            assert len(page.data["learners"]) == args.learners and len(page.data["tables"]) == args.tables
        result = {"learners": args.learners, "answers_per_learner": args.answers, "tables": args.tables,
                  "records": sent, "fill_s": round(fill_s, 1), "open_p50_s": round(statistics.median(times), 3),
                  "open_max_s": round(max(times), 3)}
        print(json.dumps(result))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
