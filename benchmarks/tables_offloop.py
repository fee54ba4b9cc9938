"""Does one slow database call hold up every table? The table server with a class's worth of records (``--records``,
written straight into its SQLite database), learners playing ``--tables`` tables (``benchmarks/tables.py``'s
simulated learners), and the teacher exporting the records as CSV again and again (each export reads every record:
a slow database call). Measured: the learners' latency (a move → every other seat has it) and the exports' times.

With ``--code DIR`` the server runs from another checkout's ``railkit`` (e.g. the landed version, before the
database calls left the event loop: ``git archive main railkit | tar -x -C /tmp/landed``), so both are measured on
the same machine one after the other. The last line printed is one JSON object.

    .venv/bin/python benchmarks/tables_offloop.py --tables 20 --seconds 60 --records 150000
    .venv/bin/python benchmarks/tables_offloop.py --tables 20 --seconds 60 --records 150000 --code /tmp/landed
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from tables import ROOT, TEACHER_KEY, free_port, play, wait_for_port  # benchmarks/ is on the path

from railkit.wire import TEACHER_KEY_HEADER


def prefill(db: str, records: int) -> None:
    """``records`` answers under 30 names, straight into the records' table (its columns as that server made them)."""
    engine = sa.create_engine(db)
    with engine.begin() as conn:
        columns = {c["name"] for c in sa.inspect(conn).get_columns("rk_records")}
        rows = []
        for i in range(records):
            name = f"Learner {i % 30:02d}"
            row = {"at": datetime.now(UTC), "learner": name, "lesson": "kk_auction", "event": "answer",
                   "visit": f"visit-{i % 30:04d}", "exercise": f"q{i % 50}", "right": i % 3 != 0, "attempt": 1,
                   "hints": 0, "why": 0, "seconds": 12, "rules": ["KK-A4"]}
            if "learner_key" in columns:
                row["learner_key"] = name.casefold()
            rows.append(row)
        table = sa.Table("rk_records", sa.MetaData(), autoload_with=conn)
        conn.execute(table.insert(), rows)
    engine.dispose()


def export_loop(base: str, stop: threading.Event, times: list[float]) -> None:
    while not stop.is_set():
        request = urllib.request.Request(f"{base}/api/teacher/records.csv", headers={TEACHER_KEY_HEADER: TEACHER_KEY})
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=300) as response:
            response.read()
        times.append((time.perf_counter() - started) * 1000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--records", type=int, default=150_000)
    parser.add_argument("--pace", type=float, default=2.0)
    parser.add_argument("--code", type=Path, default=None, help="run the server from this checkout's railkit")
    args = parser.parse_args()
    load_before = os.getloadavg()
    env = {**os.environ, "RAILKIT_TEACHER_KEY": TEACHER_KEY}
    if args.code is not None:
        env["PYTHONPATH"] = str(args.code)
    with tempfile.TemporaryDirectory(prefix="railkit-offloop-") as tmp:
        db = f"sqlite:///{tmp}/tables.sqlite"
        port = free_port()
        extra = [] if args.code is not None else ["--chosen-deals"]
        server = subprocess.Popen([sys.executable, "-m", "railkit.tables", "--port", str(port), "--db", db,
                                   "--max-tables", "400", *extra], cwd=args.code or ROOT, env=env)
        try:
            wait_for_port(port, server)
            prefill(db, args.records)
            base = f"http://127.0.0.1:{port}"
            stop, exports = threading.Event(), []
            exporter = threading.Thread(target=export_loop, args=(base, stop, exports))
            exporter.start()
            tally, _codes, _hostile = asyncio.run(play([base], args.tables, 4,
                                                       args.seconds, args.pace, 1))
            stop.set()
            exporter.join()
        finally:
            server.terminate()
            server.wait(30)
    lat = sorted(tally.latencies_ms)
    result = {"code": str(args.code or "this checkout"), "tables": args.tables, "records": args.records,
              "seconds": args.seconds, "moves": tally.accepted,
              "p50_ms": round(statistics.median(lat), 1) if lat else None,
              "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 1) if lat else None,
              "max_ms": round(lat[-1], 1) if lat else None,
              "exports": len(exports), "export_p50_ms": round(statistics.median(exports), 1) if exports else None,
              "load_before": [round(x, 1) for x in load_before], "load_after": [round(x, 1) for x in os.getloadavg()]}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
