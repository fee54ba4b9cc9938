"""Binder: a fresh virtual environment built from binder/ alone runs every notebook.

Like repo2docker: ``pip install -r binder/requirements.txt``, then ``binder/postBuild`` from the repo
root, then execute each notebook with that environment's Python. pip may reuse its download cache.
Runs on a copy of the repo so the editable install does not touch the working tree.
"""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from conftest import ROOT, notebook_ids

pytestmark = [pytest.mark.slow, pytest.mark.build, pytest.mark.kernel, pytest.mark.xdist_group("binder")]
IGNORE = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", ".pytest_cache", ".hypothesis",
                                "artifacts", "node_modules", "build", "dist", ".ipynb_checkpoints")


def run(cmd, cwd, env, timeout):
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def test_binder_environment_runs_every_notebook(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=IGNORE)
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp_path, os.environ.copy(), 120)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_PATH")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["HOME"] = str(tmp_path / "home")  # no user-level Jupyter config or kernels leak in
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    py = str(venv / "bin" / "python")
    run([py, "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"], repo, env, 900)
    run(["bash", "binder/postBuild"], repo, env, 300)
    assert (venv / "share/jupyter/voila/templates/railkit/index.html.j2").is_file()
    assert (venv / "etc/jupyter/voila.json").is_file()
    script = textwrap.dedent(f"""
        import railkit
        from railkit.ui.headless import execute_notebook
        assert railkit.__file__.startswith({str(repo)!r}), railkit.__file__
        for nb in {notebook_ids()!r}:
            execute_notebook({str(repo / 'notebooks')!r} + '/' + nb)
            print('ok', nb)
    """)
    proc = run([py, "-c", script], repo, env, 900)
    assert proc.stdout.count("ok ") == len(notebook_ids())
