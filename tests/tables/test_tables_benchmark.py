"""The class-tables benchmark runs as its docs say (a short run): simulated learners over real WebSockets,
two server processes on one throwaway PostgreSQL, hostile clients among them, every acknowledged move found in
the database and none lost."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[2]


def test_TABLES_benchmark_two_processes_on_postgres_lose_no_move() -> None:
    run = subprocess.run([sys.executable, "benchmarks/tables.py", "--tables", "2", "--seats", "3", "--seconds", "6",
                          "--pace", "0.5", "--postgres", "--processes", "2", "--hostile", "40", "--sample-every", "2"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    for key in ("tables", "seats", "actions", "lost_actions", "p50_ms", "p95_ms", "server_rss_mb", "rss_window_mb",
                "rss_window_change_pct", "hostile"):
        assert key in result, key
    assert result["processes"] == 2
    assert result["actions"] > 0
    assert result["lost_actions"] == 0
    assert result["acknowledged_checked"] >= result["actions"] > 0 and result["acknowledged_lost"] == 0
    assert result["hostile"]["hostile clients"] == 4
