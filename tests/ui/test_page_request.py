"""A preheated lesson learns its page's address from Voila without importing Voila."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest
from websockets.sync.server import serve

from railkit.ui.page_request import apply_request, query_url, wait_for_page_request


@pytest.fixture(autouse=True)
def kept_environment():
    """``wait_for_page_request`` writes ``os.environ`` itself, as in a kernel: put it back afterwards."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture
def voila_query_server():
    """A stand-in for Voila's ``voila/query/<kernel id>`` websocket: it sends the page's request on connect."""
    paths: list[str] = []

    def handler(socket):
        paths.append(socket.request.path)
        socket.send(json.dumps({"QUERY_STRING": "name=Aino&lang=fi", "SCRIPT_NAME": "/voila/render/up_play.ipynb"}))

    with serve(handler, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield server.socket.getsockname()[1], paths
        server.shutdown()


def test_the_page_request_reaches_the_environment(voila_query_server, monkeypatch):
    port, paths = voila_query_server
    for key, value in {"VOILA_PREHEAT": "True", "VOILA_APP_PORT": str(port), "VOILA_KERNEL_ID": "k-1",
                       "VOILA_SERVER_URL": "/"}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.delenv("SCRIPT_NAME", raising=False)
    assert query_url() == f"ws://127.0.0.1:{port}/voila/query/k-1"
    got = wait_for_page_request()
    assert got is not None and got["QUERY_STRING"] == "name=Aino&lang=fi"
    assert os.environ["QUERY_STRING"] == "name=Aino&lang=fi"
    assert paths == ["/voila/query/k-1"]


def test_outside_a_preheated_kernel_nothing_waits(monkeypatch):
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    assert wait_for_page_request("ws://127.0.0.1:9/never") is None


@pytest.mark.parametrize("message", ['["QUERY_STRING"]', '{"QUERY_STRING": 5}', "not json"])
def test_a_strange_request_message_changes_nothing(message, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "name=Kim")
    with pytest.raises(ValueError):
        apply_request(message)
    assert os.environ["QUERY_STRING"] == "name=Kim"


def test_following_the_address_does_not_import_voila(voila_query_server):
    """Voila's helper module brings jupyter_server, nbconvert and jsonschema into the kernel (~40 MB)."""
    port, _paths = voila_query_server
    code = ("import sys, os\n"
            "from railkit.ui.records.learner import follow_page_address\n"
            "heard = []\n"
            "follow_page_address(heard.append).join(timeout=20)\n"
            "print([h.name for h in heard], sorted(m for m in ('voila', 'jupyter_server', 'nbconvert', 'jsonschema')"
            " if m in sys.modules))\n")
    env = {**os.environ, "VOILA_PREHEAT": "True", "VOILA_APP_PORT": str(port), "VOILA_KERNEL_ID": "k-2",
           "VOILA_SERVER_URL": "/"}
    env.pop("QUERY_STRING", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "['Aino'] []"
