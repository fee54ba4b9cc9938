"""JupyterLab (headless, token-protected, free loopback port) serves and opens every notebook."""

import json
import os
import secrets

import pytest
from conftest import ARTIFACTS, ROOT, VENV_BIN, free_port, http_get, notebook_ids, start_server

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("lab")]


@pytest.fixture(scope="session")  # once per run: other modules may run between this one's tests
def lab_server():
    port, token = free_port(), secrets.token_hex(16)
    cmd = [str(VENV_BIN / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}", "--ServerApp.open_browser=False"]
    if os.geteuid() == 0:  # CI runs as root
        cmd.append("--allow-root")
    server = start_server(cmd, ROOT, f"http://127.0.0.1:{port}", f"/api/status?token={token}",
                          ARTIFACTS / "jupyterlab.log", env={"JUPYTER_CONFIG_DIR": str(ARTIFACTS / "lab-config")})
    server.token = token
    try:
        yield server
    finally:
        server.stop()


def test_lab_refuses_requests_without_the_token(lab_server):
    status, _ = http_get(f"{lab_server.base}/api/contents/notebooks")
    assert status == 403


@pytest.mark.parametrize("nb", notebook_ids())
def test_lab_serves_and_opens_notebook(lab_server, nb):
    status, page = http_get(f"{lab_server.base}/lab/tree/notebooks/{nb}?token={lab_server.token}")
    assert status == 200 and "JupyterLab" in page
    status, body = http_get(f"{lab_server.base}/api/contents/notebooks/{nb}?token={lab_server.token}")
    assert status == 200
    model = json.loads(body)
    assert model["type"] == "notebook" and model["content"]["cells"]
    assert model["content"]["metadata"]["kernelspec"]["name"] == "python3"
