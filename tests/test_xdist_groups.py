"""The suite's ``xdist_group`` marks work: tests of one group run on one pytest-xdist worker.

Shared servers, the hub, the packaging venv and the static site are set up once per worker; the groups keep
each on one worker. pytest 9.2 broke this silently for pytest-xdist 3.8 (its "@group" suffix no longer reached
the scheduler, so every worker set each of them up again): this runs a tiny suite under ``-n 2 --dist
loadgroup`` and asks each test where it ran."""

import json
import os
import subprocess
import sys
import textwrap


def test_tests_of_one_xdist_group_run_on_one_worker(tmp_path):
    (tmp_path / "test_grouped.py").write_text(textwrap.dedent("""
        import json, os, pathlib
        import pytest

        @pytest.mark.xdist_group("shared_server")
        @pytest.mark.parametrize("case", range(8))
        def test_in_the_group(case, tmp_path_factory):
            out = pathlib.Path(os.environ["WHERE_THEY_RAN"]) / f"{case}.json"
            out.write_text(json.dumps(os.environ["PYTEST_XDIST_WORKER"]))

        @pytest.mark.parametrize("case", range(8))
        def test_elsewhere(case):
            pass
    """))
    where = tmp_path / "where"
    where.mkdir()
    # only pytest-xdist is loaded (every other installed plugin costs each of the three processes seconds at start)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "xdist", "-n", "2",
                           "--dist", "loadgroup", "test_grouped.py"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "WHERE_THEY_RAN": str(where), "PYTEST_ADDOPTS": "",
                                            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    workers = {json.loads(p.read_text()) for p in where.glob("*.json")}
    assert len(list(where.glob("*.json"))) == 8
    assert len(workers) == 1, f"one xdist_group ran on several workers: {sorted(workers)}"
