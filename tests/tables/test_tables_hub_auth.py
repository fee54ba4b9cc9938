"""The table server as a service of the class hub (``--hub-auth``, ``railkit.tables.hub``), without a hub.

A real ``python -m railkit.tables --hub-auth`` process asks a real ``jupyterhub.services.auth.HubAuth`` who holds
each token; the hub it asks is a tiny HTTP server in this test answering ``GET /hub/api/user`` as JupyterHub does
(the user's model with the token's scopes, 403 for a token it does not know). SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from tables_client import ServerProcess, call, free_port
from tables_fixtures import db_url, postgres, start  # noqa: F401 - fixtures
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from railkit.tables.store import Store
from railkit.ui.class_http import ServerProblem
from railkit.ui.tables.table_link import TableLink

pytestmark = pytest.mark.server

SERVICE = "railkit-tables"
ACCESS = f"access:services!service={SERVICE}"
TEACHER_SCOPE = "custom:railkit-teacher"
SERVICE_TOKEN = "service-token-of-the-table-server"

# token -> the model the hub answers for it (JupyterHub's /hub/api/user: the owner and the token's scopes)
MODELS: dict[str, dict[str, Any]] = {
    "ada-token": {"kind": "user", "name": "ada", "scopes": ["read:users:name!user=ada", ACCESS]},
    "bo-token": {"kind": "user", "name": "bo", "scopes": [ACCESS]},
    "ada-without-scope": {"kind": "user", "name": "ada", "scopes": ["read:users:name!user=ada"]},
    "teacher-token": {"kind": "user", "name": "tess", "scopes": [ACCESS, TEACHER_SCOPE]},
    "admin-token": {"kind": "user", "name": "root1", "admin": True, "scopes": [ACCESS]},
    "group-token": {"kind": "user", "name": "gus", "groups": ["teachers"], "scopes": [ACCESS]},
    "a-service": {"kind": "service", "name": "idle-culler", "scopes": [ACCESS]},
}


class FakeHubAPI(BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        token = self.headers.get("Authorization", "").removeprefix("token ")
        type(self).seen.append(token)
        model = MODELS.get(token) if self.path == "/hub/api/user" else None
        body = json.dumps(model if model else {"status": 403, "message": "Forbidden"}).encode()
        self.send_response(200 if model else 403)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def hub_api() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeHubAPI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hub/api"
    server.shutdown()


@pytest.fixture
def hub_server(start: Callable[..., ServerProcess], db_url: str, hub_api: str,  # noqa: F811
               tmp_path: Path) -> Iterator[ServerProcess]:
    env = {"JUPYTERHUB_API_URL": hub_api, "JUPYTERHUB_API_TOKEN": SERVICE_TOKEN, "JUPYTERHUB_SERVICE_NAME": SERVICE,
           "RAILKIT_TEACHER_KEY": "the-teacher-key-of-make-run"}
    server = ServerProcess(db_url, ["--hub-auth", "--teacher-key-file", str(tmp_path / "teacher.key")], env=env).start()
    try:
        yield server
    finally:
        server.stop()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"token {token}"}


def base(server: ServerProcess) -> str:
    return f"http://127.0.0.1:{server.port}/api"


def new_table(server: ServerProcess, token: str, take: str = "Anna") -> tuple[int, dict[str, Any]]:
    return call("POST", f"{base(server)}/tables", {"game": "cape_to_cairo", "seats": [take, "Player 2", "Computer 1"],
                                                   "bots": ["Computer 1"], "take": take, "seed": 7}, headers=auth(token))


def tables_seen_by_teacher(server: ServerProcess) -> list[dict[str, Any]]:
    status, answer = call("GET", f"{base(server)}/teacher/tables", headers=auth("teacher-token"))
    assert status == 200, answer
    return list(answer["tables"])


@pytest.mark.parametrize("headers", [{}, auth("nobody-knows-this"), auth("ada-without-scope"), auth("a-service"),
                                     {"Authorization": "Basic YWRhOnB3"}])
def test_TABLES_HUB_a_request_without_a_learner_token_with_the_scope_gets_403_and_changes_nothing(
        hub_server: ServerProcess, headers: dict[str, str]) -> None:
    body = {"game": "cape_to_cairo", "seats": ["Anna", "Bo", "Computer 1"], "bots": ["Computer 1"], "take": "Anna"}
    status, answer = call("POST", f"{base(hub_server)}/tables", body, headers=headers)
    assert status == 403 and answer["error"] == "not_signed_in" and answer["rule"] == "TABLES-HUB", answer
    assert "hub" in answer["message"]
    for method, path in (("GET", "/tables/ABC234"), ("POST", "/records"), ("GET", "/teacher/tables")):
        status, answer = call(method, f"{base(hub_server)}{path}", {} if method == "POST" else None, headers=headers)
        assert (status, answer["rule"]) == (403, "TABLES-HUB"), (path, answer)
    assert tables_seen_by_teacher(hub_server) == []
    # The teacher key of `make run` opens nothing on the hub: the hub says who teaches.
    status, answer = call("GET", f"{base(hub_server)}/teacher/tables",
                          headers={"X-Railkit-Teacher-Key": "the-teacher-key-of-make-run"})
    assert (status, answer["rule"]) == (403, "TABLES-HUB")


def test_TABLES_HUB_learners_sit_and_are_recorded_under_their_hub_names(hub_server: ServerProcess) -> None:
    status, made = new_table(hub_server, "ada-token", take="Anna")
    assert status == 201, made
    assert made["seat"] == "ada" and list(made["seats"]) == ["ada", "Player 2", "Computer 1"], made
    code = made["table"]
    # bo types another name: the hub's name wins.
    status, joined = call("POST", f"{base(hub_server)}/tables/{code}/join", {"name": "Someone Else"},
                          headers=auth("bo-token"))
    assert status == 200 and joined["seat"] == "bo", joined
    status, shown = call("GET", f"{base(hub_server)}/tables/{code}", headers=auth("ada-token"))
    assert status == 200 and list(shown["seats"]) == ["ada", "bo", "Computer 1"], shown
    # A learning record names its hub user, whatever the lesson sent.
    record = {"event": "opened", "learner": "bo", "lesson": "kk_auction", "visit": "visit-of-ada-1"}
    status, answer = call("POST", f"{base(hub_server)}/records", record, headers=auth("ada-token"))
    assert status == 201, answer
    status, answer = call("GET", f"{base(hub_server)}/teacher/learners", headers=auth("teacher-token"))
    # ada's record (never bo's: the hub says who sent it); bo is listed too, seated under his hub name
    rows = {r["learner"]: r for r in answer["learners"]}
    assert status == 200 and list(rows) == ["ada", "bo"], answer
    assert rows["ada"]["started"] == ["kk_auction"] and rows["bo"]["started"] == [] and rows["bo"]["tables"] == [code]


def test_TABLES_HUB_the_websocket_needs_the_token_too(hub_server: ServerProcess) -> None:
    code = new_table(hub_server, "ada-token")[1]["table"]
    url = f"ws://127.0.0.1:{hub_server.port}/api/tables/{code}/ws"
    for headers in ({}, auth("ada-without-scope")):
        with pytest.raises(InvalidStatus) as refused:
            connect(url, additional_headers=headers, open_timeout=10)
        assert refused.value.response.status_code == 403
        assert json.loads(refused.value.response.body)["rule"] == "TABLES-HUB"
    with connect(url, additional_headers=auth("bo-token"), open_timeout=10) as socket:
        socket.send(json.dumps({"type": "hello"}))  # a spectator: no seat token
        state = json.loads(socket.recv(timeout=30))
    assert state["type"] == "state" and state["seat"] is None


@pytest.mark.parametrize("token, allowed", [("teacher-token", True), ("admin-token", True), ("group-token", True),
                                            ("ada-token", False)])
def test_TEACHER_HUB_the_hubs_teachers_read_the_teacher_pages_and_learners_do_not(
        hub_server: ServerProcess, token: str, allowed: bool) -> None:
    new_table(hub_server, "ada-token")
    for path in ("class", "tables", "learners"):
        status, answer = call("GET", f"{base(hub_server)}/teacher/{path}", headers=auth(token))
        if allowed:
            assert status == 200, answer
        else:
            assert (status, answer["error"], answer["rule"]) == (403, "not_teacher", "TEACHER-HUB"), answer
    status, answer = call("POST", f"{base(hub_server)}/teacher/forget", {"confirm": "forget this class"},
                          headers=auth(token))
    assert status == (200 if allowed else 403), answer
    assert len(tables_seen_by_teacher(hub_server)) == (0 if allowed else 1)


def test_TABLES_HUB_a_lesson_kernel_on_the_hub_plays_with_its_hub_token(hub_server: ServerProcess,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``TableLink`` (the lessons' client) sends ``$JUPYTERHUB_API_TOKEN`` on HTTP and on the WebSocket."""
    states: list[dict[str, Any]] = []
    problems: list[ServerProblem] = []
    got = threading.Event()

    def on_state(state: dict[str, Any]) -> None:
        states.append(state)
        got.set()

    url = f"http://127.0.0.1:{hub_server.port}"
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    with pytest.raises(ServerProblem) as refused:
        TableLink(on_state, problems.append, url).create("cape_to_cairo", ["Anna", "Player 2"], [], "Anna")
    assert refused.value.code == "not_signed_in" and refused.value.rule == "TABLES-HUB"
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "ada-token")
    link = TableLink(on_state, problems.append, url)
    made = link.create("cape_to_cairo", ["Anna", "Player 2", "Computer 1"], ["Computer 1"], "Anna")
    assert made["seat"] == "ada"
    try:
        link.connect()
        assert got.wait(30), problems
        assert states[-1]["seat"] == "ada" and not problems
    finally:
        link.close()


def test_TABLES_HUB_without_the_hubs_environment_the_server_says_what_is_missing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTERHUB_")}
    done = subprocess.run([sys.executable, "-m", "railkit.tables", "--hub-auth", "--port", str(free_port()), "--db",
                           f"sqlite:///{tmp_path / 't.sqlite'}"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "TABLES-HUB" in done.stderr and "JUPYTERHUB_API_TOKEN" in done.stderr, done.stderr


def test_TEACHER_HUB_the_teachers_page_on_the_hub_needs_no_key(hub_server: ServerProcess,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The teacher's page (``TeacherApp``) in a kernel of the hub: its hub token, not a key, opens the class."""
    from railkit.ui.teacher.page import TeacherApp

    new_table(hub_server, "ada-token")
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "group-token")
    page = TeacherApp(f"http://127.0.0.1:{hub_server.port}")
    assert page.loaded and page.message_kind == "ok", page.message_text
    assert page.key_field.layout.display == "none" and "ada" in page.tables_html.value
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "ada-token")
    learner = TeacherApp(f"http://127.0.0.1:{hub_server.port}")
    assert not learner.loaded and learner.message_kind == "error" and "teachers" in learner.message_text


def test_TABLES_HUB_when_the_hub_does_not_answer_the_server_says_so_and_changes_nothing(db_url: str,  # noqa: F811
                                                                                       tmp_path: Path) -> None:
    env = {"JUPYTERHUB_API_URL": f"http://127.0.0.1:{free_port()}/hub/api", "JUPYTERHUB_API_TOKEN": SERVICE_TOKEN,
           "JUPYTERHUB_SERVICE_NAME": SERVICE}
    server = ServerProcess(db_url, ["--hub-auth", "--teacher-key-file", str(tmp_path / "teacher.key")], env=env).start()
    try:
        status, answer = new_table(server, "ada-token")
        assert (status, answer["error"], answer["rule"]) == (503, "hub_down", "TABLES-HUB"), answer
        assert "try again" in answer["message"]
    finally:
        server.stop()
    store = Store(db_url)
    assert store.count_tables() == 0
    store.close()
