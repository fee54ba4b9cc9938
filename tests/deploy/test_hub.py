"""The class-hub recipe in deploy/ works on this machine, on loopback.

deploy/install.sh installs the hub, the proxy and the learners' environment into .cache/deploy (pinned,
PyPI and npm only); deploy/start-hub.sh starts JupyterHub with deploy/jupyterhub_config.py. Two learners
log in at the same time, each lands on their own Voila lesson index and gets a lesson rendered without
errors; one lesson is opened in Chromium until its app answers; the memory limit is in force on every
learner process; stopping the hub leaves no process behind. As root, learners run as Unix users of
their own (LocalUserSpawner, removed afterwards); otherwise as this user (SharedUserSpawner).

The figures (memory, seconds) go to tests/artifacts/deploy_hub_figures.json for deploy/README.md; they
are not asserted (CONTRIBUTING: speed goals live in benchmarks). The machine is shared: they are noisy.
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
import requests
from conftest import (
    ARTIFACTS,
    CHROMIUM,
    ERROR_PAGE_TEXT,
    NOTEBOOKS_DIR,
    has_app,
    notebooks,
    open_app,
    same_address,
    wait_for_address,
    wait_text,
)
from hub_runner import (
    DEPLOY,
    PASSWORD,
    TEACHER,
    TEACHER_PASSWORD,
    Hub,
    address_space_limit,
    can_create_users,
    children,
    cmdline,
    environ,
    install,
    login,
    memory_mb,
    niceness,
    remove_unix_users,
    rlimit,
    start_time,
    threads,
    try_login,
    uid,
    wait_for_landing,
)
from tables_client import Postgres, call, free_port

pytestmark = [pytest.mark.slow, pytest.mark.hub, pytest.mark.server, pytest.mark.browser, pytest.mark.xdist_group("deploy_hub")]

MEM_LIMIT = "1G"
MEM_LIMIT_BYTES = str(2**30)
PROCESS_LIMIT = "128"  # RAILKIT_PROCESS_LIMIT's default
CPU_SECONDS = "3600"  # LocalUserSpawner.cpu_seconds_limit's default


# Session scope, not module: pytest-xdist's loadgroup keeps this module's tests on one worker but may run other
# modules' tests between them, and a module fixture is torn down and made again at each such switch (the hub was
# installed twice and started twice per run).
@pytest.fixture(scope="session")
def prefix():
    return install()


def landing_path() -> str:
    """Where the config sends a learner: the lesson index if there is one, else Voila's tree."""
    return "/voila/render/index.ipynb" if (NOTEBOOKS_DIR / "index.ipynb").exists() else "/voila/tree"


def app_lesson() -> str:
    """The first lesson (sorted) that builds an app: whatever notebooks/ holds today."""
    lessons = [nb for nb in notebooks() if has_app(nb)]
    assert lessons, "no lesson in notebooks/ builds an app"
    return lessons[0].relative_to(NOTEBOOKS_DIR).as_posix()


def learner(hub: Hub, name: str) -> dict:
    """Log in, land on the lesson index, get one app lesson rendered; the seconds each step took."""
    start = time.monotonic()
    session = login(hub, name)
    landing = wait_for_landing(session, hub.base, name)
    landed = time.monotonic() - start
    # The path, not the exact URL: the hub may add a query on the way (``?redirects=1`` on a busy machine).
    assert same_address(landing.url, f"/user/{name}{landing_path()}", base=hub.base), f"{name} landed on {landing.url}"
    assert landing.status_code == 200 and ERROR_PAGE_TEXT not in landing.text, f"{name}'s landing page failed"
    lesson = session.get(f"{hub.base}/user/{name}/voila/render/{app_lesson()}", timeout=180)
    assert lesson.status_code == 200, f"{name}: {app_lesson()} answered HTTP {lesson.status_code}"
    assert ERROR_PAGE_TEXT not in lesson.text, f"{name}: a cell of {app_lesson()} failed under the hub"
    return {"session": session, "login_to_index_s": round(landed, 1),
            "login_to_lesson_html_s": round(time.monotonic() - start, 1)}


def processes_of(hub: Hub, name: str) -> tuple[int, list[int]]:
    server = hub.server_pid(name)
    return server, children(server)


def lesson_in_browser(browser, hub: Hub, name: str) -> dict:
    """Log in through the form, land on the index, open the app lesson until its app answers."""
    context = browser.new_context(viewport={"width": 1280, "height": 1600}, ignore_https_errors=True)  # self-signed
    page = context.new_page()
    blocked: list[str] = []
    page.route("**/*", lambda r: r.continue_() if urlsplit(r.request.url).hostname in ("127.0.0.1", "localhost")
               else (blocked.append(r.request.url), r.abort()))
    try:
        start = time.monotonic()
        page.goto(f"{hub.base}/hub/login", timeout=60_000)
        page.fill("#username_input", name)
        page.fill("#password_input", PASSWORD)
        page.click("#login_submit")
        wait_for_address(page, f"/user/{name}{landing_path()}", timeout=120_000)
        landed = time.monotonic() - start
        interactive = open_app(page, f"{hub.base}/user/{name}/voila/render/{app_lesson()}", timeout=150)
        assert ERROR_PAGE_TEXT not in page.inner_text("body"), f"{app_lesson()} shows an error in Chromium"
        assert not blocked, f"the lesson tried to reach other hosts: {blocked}"
        server, kernels = processes_of(hub, name)
        for pid in kernels:
            assert address_space_limit(pid) == (MEM_LIMIT_BYTES, MEM_LIMIT_BYTES)
        newest = max(kernels, key=start_time)
        return {"browser_login_to_index_s": round(landed, 1), "browser_lesson_interactive_s": round(interactive, 1),
                "learner_with_lesson_open_mb": {
                    "server": memory_mb(server), "lesson_kernel_in_chromium": memory_mb(newest),
                    "all_kernels": [memory_mb(k) for k in sorted(kernels, key=start_time)],
                    "note": "one kernel per page requested: index and lesson by HTTP, then in Chromium"}}
    finally:
        context.close()


def test_two_learners_on_the_class_hub(prefix, tmp_path, request):
    # RAILKIT_HUB_SPAWNER=shared tries the no-root path as root.
    spawner = os.environ.get("RAILKIT_HUB_SPAWNER") or ("local" if can_create_users() else "shared")
    local = spawner == "local"
    tag = secrets.token_hex(3)
    names = [f"ada{tag}", f"bo{tag}"]
    unix_names = [f"jupyter-{n}" for n in names]
    hub = Hub(state=tmp_path / "state", spawner=spawner, mem_limit=MEM_LIMIT, learners=names)
    figures: dict = {"spawner": hub.spawner, "mem_limit": MEM_LIMIT, "lesson": app_lesson()}
    try:
        start = time.monotonic()
        hub.start()
        figures["hub_start_s"] = round(time.monotonic() - start, 1)
        figures["idle_hub_mb"] = {part: memory_mb(pid) for part, pid in hub.parts().items()}

        # Two learners at once: each lands on the lesson index of their own server.
        with ThreadPoolExecutor(2) as pool:
            results = dict(zip(names, pool.map(lambda n: learner(hub, n), names), strict=True))
        figures["two_learners_at_once"] = {n: {k: v for k, v in r.items() if k != "session"} for n, r in results.items()}

        # A learner's server is theirs alone: the other's session is refused.
        other = results[names[0]]["session"].get(f"{hub.base}/user/{names[1]}{landing_path()}", timeout=60)
        assert other.status_code == 403, f"{names[0]} reached {names[1]}'s server: HTTP {other.status_code} at {other.url}"
        # Learners' servers serve Voila only: no JupyterLab (and so no terminals) behind the lessons.
        lab = results[names[0]]["session"].get(f"{hub.base}/user/{names[0]}/lab", timeout=60)
        assert lab.status_code == 404, f"JupyterLab answers on a learner's server: HTTP {lab.status_code}"

        # The memory limit is in force on each server and on every kernel it started.
        uids = set()
        for name, unix_name in zip(names, unix_names, strict=True):
            server, kernels = processes_of(hub, name)
            assert kernels, f"{name}'s server has no kernel although two pages were rendered"
            for pid in [server, *kernels]:
                assert address_space_limit(pid) == (MEM_LIMIT_BYTES, MEM_LIMIT_BYTES), \
                    f"{name}'s process {pid} is not limited to {MEM_LIMIT}: {address_space_limit(pid)}"
                # One learner must not starve the others: CPU seconds per process, a lower priority, a private TMPDIR; as a
                # Unix user of their own, a cap on their processes (a fork bomb stops there).
                assert rlimit(pid, "Max cpu time") == (CPU_SECONDS, CPU_SECONDS), f"{name}'s process {pid}: CPU time"
                assert niceness(pid) == 10, f"{name}'s process {pid} runs at nice {niceness(pid)}"
                tmp = Path(environ(pid)["TMPDIR"])
                assert tmp.is_dir() and tmp.stat().st_mode & 0o777 == 0o700 and tmp.stat().st_uid == uid(pid)
                # ... and that folder is the process's /tmp (its own mount namespace; as root here), unless the
                # installation itself lives under /tmp (a clone there): a private /tmp would hide it, so the
                # spawner keeps the shared one and says so in the hub's log.
                seen_tmp = os.stat(f"/proc/{pid}/root/tmp")
                private = (seen_tmp.st_dev, seen_tmp.st_ino) == (tmp.stat().st_dev, tmp.stat().st_ino)
                if Path(prefix).resolve().is_relative_to(Path("/tmp").resolve()):
                    assert not private and "installed under /tmp" in hub.log(), hub.log()[-2000:]
                else:
                    assert private, f"{name}'s process {pid} sees the shared /tmp"
                if local:
                    assert rlimit(pid, "Max processes") == (PROCESS_LIMIT, PROCESS_LIMIT), f"{name}'s process {pid}"
            figures.setdefault("threads", {})[name] = {"server": threads(server), "kernels": [threads(k) for k in kernels]}
            if local:
                assert uid(server) == pwd.getpwnam(unix_name).pw_uid != 0, f"{name}'s server is not run as {unix_name}"
                assert pwd.getpwnam(unix_name).pw_shell == "/usr/sbin/nologin", f"{unix_name} has a login shell"
            uids.add(uid(server))
        assert not local or len(uids) == 2, "the two learners' servers share a Unix user"

        # One learner opens the app lesson in Chromium (skipped here, with a note, when there is none).
        if CHROMIUM.exists():
            figures |= lesson_in_browser(request.getfixturevalue("browser"), hub, names[0])
        else:
            figures["browser"] = f"skipped: no Chromium at {CHROMIUM}"
        figures["busy_hub_mb"] = {part: memory_mb(pid) for part, pid in hub.parts().items()}
    finally:
        took, strays = hub.stop()
        if local:
            remove_unix_users(unix_names)
        figures["hub_stop_s"] = round(took, 1)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "deploy_hub_figures.json").write_text(json.dumps(figures, indent=2) + "\n")
        print(json.dumps(figures, indent=2))
    assert not strays, f"processes left running after the hub stopped: {strays}"
    assert took < 60, f"the hub took {took:.0f} s to stop"


def test_memory_limit_stops_a_process_that_asks_for_more(prefix):
    """RLIMIT_AS as railkit_hub sets it: 300 MB fit under a 1 GB limit, 1.5 GB do not (MemoryError)."""
    script = (
        "import subprocess, sys, railkit_hub\n"
        "limit = railkit_hub.limit_address_space(2**30, lambda: None)\n"
        "for mb in (300, 1536):\n"
        "    run = subprocess.run([sys.executable, '-c', f'bytearray({mb} * 2**20)'], preexec_fn=limit,\n"
        "                         capture_output=True, text=True)\n"
        "    print(mb, run.returncode, 'MemoryError' in run.stderr)\n")
    done = subprocess.run([str(prefix / "hub" / "bin" / "python"), "-c", script], cwd=DEPLOY,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["300 0 False", "1536 1 True"], done.stdout


@pytest.mark.parametrize("spawner, expected", [
    ("systemd", "systemdspawner.SystemdSpawner"),
    ("local", "railkit_hub.LocalUserSpawner"),
    ("shared", "railkit_hub.SharedUserSpawner"),
])
def test_config_loads_for_each_kind_of_host(prefix, tmp_path, spawner, expected):
    """jupyterhub_config.py picks the spawner, the Voila landing page, the limit and the culler."""
    script = (
        "import json, sys\n"
        "from traitlets.config.loader import PyFileConfigLoader\n"
        "from traitlets.utils.importstring import import_item\n"
        "c = PyFileConfigLoader('jupyterhub_config.py', path='.').load_config()\n"
        "import_item(c.JupyterHub.spawner_class)\n"  # the class exists in the hub's venv
        "print(json.dumps({'spawner': c.JupyterHub.spawner_class, 'url': c.Spawner.default_url,\n"
        "                  'mem': c.Spawner.mem_limit, 'services': [s['name'] for s in c.JupyterHub.services],\n"
        "                  'auth': c.JupyterHub.authenticator_class, 'bind': c.JupyterHub.bind_url,\n"
        "                  'servers': c.JupyterHub.active_server_limit, 'spawns': c.JupyterHub.concurrent_spawn_limit,\n"
        "                  'args': c.Spawner.args,\n"
        "                  'tasks': (c.SystemdSpawner.unit_extra_properties.get('TasksMax')\n"
        "                            if 'SystemdSpawner' in c else None)}))\n")
    env = {"PATH": "/usr/bin:/bin", "RAILKIT_HUB_PREFIX": str(prefix), "RAILKIT_HUB_STATE": str(tmp_path),
           "RAILKIT_HUB_SPAWNER": spawner, "RAILKIT_MEM_LIMIT": "1500M"}
    done = subprocess.run([str(prefix / "hub" / "bin" / "python"), "-c", script], cwd=DEPLOY, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown.pop("servers") >= 2
    # Without systemd, as root with a Unix user per learner: the memory guard holds each learner's processes together.
    guard = ["memory-guard"] if spawner == "local" and os.geteuid() == 0 else []
    assert shown == {"spawner": expected, "url": landing_path(), "mem": "1500M",
                     "services": ["idle-culler", "railkit-tables", *guard],
                     "auth": "railkit_hub.ClassListAuthenticator", "bind": "https://0.0.0.0:8000", "spawns": 10,
                     "tasks": "128" if spawner == "systemd" else None,
                     "args": ["--RailkitKernelManager.max_kernels=7"]}  # what 128 processes and threads hold
    assert (tmp_path / "tls" / "hub.crt").exists() and (tmp_path / "tls" / "hub.key").stat().st_mode & 0o077 == 0
    # Plain HTTP only when asked for.
    done = subprocess.run([str(prefix / "hub" / "bin" / "python"), "-c", script], cwd=DEPLOY,
                          env={**env, "RAILKIT_HUB_HTTP": "1"}, capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout)["bind"] == "http://0.0.0.0:8000", done.stderr


def test_only_the_class_list_logs_in_and_the_teacher_is_set_at_install(prefix, tmp_path):
    """The takeover (first login as the admin name with any password) is refused, so is
    a name not on the class list and a wrong password; the teacher's own password gives the admin
    panel, a learner's does not; a learner added while the hub runs logs in without a restart. All over
    HTTPS, checked against the hub's certificate."""
    hub = Hub(state=tmp_path / "state", spawner="shared", mem_limit=MEM_LIMIT, learners=["ada"])
    try:
        hub.start()
        # The attacker's first move: the admin's name with a password of their own.
        session, reply = try_login(hub, TEACHER, "attackers-password-1")
        assert reply.status_code == 403, f"login as {TEACHER} with any password: HTTP {reply.status_code}"
        assert urlsplit(session.get(hub.base + "/hub/admin", timeout=30).url).path == "/hub/login"
        # A new name makes no account (no sign-up), a learner's name needs the learner's password.
        for name, password in (("mallory", "mallorys-password"), ("ada", "not-adas-password"), ("Teacher", "x" * 12)):
            _, reply = try_login(hub, name, password)
            assert reply.status_code == 403, f"login as {name} with a made-up password: HTTP {reply.status_code}"
        assert "mallory" not in hub.accounts("list")
        # The teacher's own password (set at install) opens the admin panel; a learner's does not.
        teacher = login(hub, TEACHER, TEACHER_PASSWORD, spawn=False)
        assert teacher.get(hub.base + "/hub/admin", timeout=30).status_code == 200
        learner_session = login(hub, "ada", spawn=False)
        assert learner_session.get(hub.base + "/hub/admin", timeout=30).status_code == 403
        # Deleting a learner in the admin panel no longer frees their name for someone else's password.
        deleted = teacher.delete(hub.base + "/hub/api/users/ada", headers={"X-XSRFToken": teacher.cookies["_xsrf"]},
                                 timeout=30)
        assert deleted.status_code == 204, f"the teacher could not delete ada: HTTP {deleted.status_code}"
        assert try_login(hub, "ada", "takeover-password")[1].status_code == 403
        login(hub, "ada", spawn=False)  # her own password still works
        # The teacher adds a learner while the hub runs; the generated password is printed once.
        name, password = hub.accounts("add", "-", stdin="bo\n").split()
        assert name == "bo" and len(password) >= 10
        login(hub, "bo", password, spawn=False)
        # Plain HTTP is not served.
        plain = hub.base.replace("https://", "http://")
        try:
            answered = requests.get(plain + "/hub/login", timeout=10).status_code
        except requests.RequestException:
            answered = None
        assert answered != 200, "the hub answers plain HTTP"
    finally:
        _, strays = hub.stop()
    assert not strays


def test_tljh_script_against_a_stand_in(prefix, tmp_path):
    """deploy/tljh/install-railkit.sh on a stand-in TLJH: its Python is the learners' venv, and
    tljh-config only records what it is asked. The snippet it installs sends learners to Voila."""
    tljh = tmp_path / "tljh"
    (tljh / "user" / "bin").mkdir(parents=True)
    python = tljh / "user" / "bin" / "python"
    python.write_text(f'#!/bin/sh\nexec {prefix / "users" / "bin" / "python"} "$@"\n')
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "tljh-config").write_text(f'#!/bin/sh\necho "$@" >> {tmp_path / "tljh-config.log"}\n')
    (tljh / "user" / "etc" / "jupyter").mkdir(parents=True)  # a setting already there is kept
    (tljh / "user" / "etc" / "jupyter" / "jupyter_server_config.json").write_text('{"ServerApp": {"answer_yes": true}}')
    for script in (python, tools / "tljh-config"):
        script.chmod(0o755)
    env = {**os.environ, "TLJH_PREFIX": str(tljh), "PATH": f"{tools}:{os.environ['PATH']}"}
    done = subprocess.run([str(DEPLOY / "tljh" / "install-railkit.sh")], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert (tljh / "user" / "etc" / "jupyter" / "voila.json").read_text() == (NOTEBOOKS_DIR / "voila.json").read_text()
    assert (tljh / "user" / "share" / "jupyter" / "voila" / "templates" / "railkit").exists()
    server_config = json.loads((tljh / "user" / "etc" / "jupyter" / "jupyter_server_config.json").read_text())
    assert server_config["ServerApp"] == {"answer_yes": True, "tornado_settings": {"mathjax_url": None, "mathjax_config": None}}
    assert (tmp_path / "tljh-config.log").read_text().splitlines() == [
        "set limits.memory 1G", "set services.cull.timeout 3600", "reload hub"]
    snippet = tljh / "config" / "jupyterhub_config.d" / "railkit.py"
    script = ("from traitlets.config.loader import PyFileConfigLoader\n"
              f"c = PyFileConfigLoader('railkit.py', path='{snippet.parent}').load_config()\n"
              "print(c.Spawner.notebook_dir, c.Spawner.default_url)\n")
    shown = subprocess.run([str(prefix / "hub" / "bin" / "python"), "-c", script], capture_output=True, text=True,
                           timeout=60)
    assert shown.stdout.split() == [str(NOTEBOOKS_DIR), landing_path()], shown.stderr


def hub_token(hub: Hub, session: requests.Session, name: str, scopes: list[str]) -> str:
    """A new API token of ``name`` with ``scopes``, asked for through the hub's API as a logged-in user does."""
    reply = session.post(f"{hub.base}/hub/api/users/{name}/tokens", json={"scopes": scopes, "note": "test"},
                         headers={"X-XSRFToken": session.cookies.get("_xsrf", path="/hub/") or ""}, timeout=60)
    assert reply.status_code == 201, f"token for {name}: HTTP {reply.status_code} {reply.text[:300]}"
    return str(reply.json()["token"])


@dataclass
class TablesHub:
    """A hub started with deploy/'s config and its ``railkit-tables`` service on PostgreSQL (``tables_hub``)."""

    hub: Hub
    names: list[str]  # two learners of the class list
    database: str
    port: int
    first_answer: tuple[int, dict]  # the service's first answer: no hub token, so 403 TABLES-HUB
    start_to_answer_s: float

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"


@pytest.fixture(scope="session")  # started once per run (see ``prefix``)
def tables_hub(prefix, tmp_path_factory, postgres: Postgres):
    """One hub for the table-service tests of this module (a hub takes minutes to start and stop): stopped at the
    end, with no process left behind and the Unix users it made removed."""
    spawner = os.environ.get("RAILKIT_HUB_SPAWNER") or ("local" if can_create_users() else "shared")
    tag = secrets.token_hex(3)
    names = [f"ada{tag}", f"bo{tag}"]
    database, port = postgres.new_database(), free_port()
    hub = Hub(state=tmp_path_factory.mktemp("tables-hub") / "state", spawner=spawner, mem_limit=MEM_LIMIT,
              learners=names, env={"RAILKIT_DB": database, "RAILKIT_TABLES_PORT": str(port)})
    try:
        start = time.monotonic()
        hub.start()
        deadline = time.monotonic() + 60
        while True:  # the service starts with the hub; its first answer: sign in
            try:
                first = call("GET", f"http://127.0.0.1:{port}/api/tables/ABC234")
                break
            except OSError:
                assert time.monotonic() < deadline, f"the table server did not answer:\n{hub.log()[-3000:]}"
                time.sleep(0.3)
        yield TablesHub(hub, names, database, port, first, round(time.monotonic() - start, 1))
    finally:
        _took, strays = hub.stop()
        if spawner == "local":
            remove_unix_users([f"jupyter-{n}" for n in [*names, TEACHER]])
    assert not strays, f"processes left running after the hub stopped: {strays}"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"token {token}"}


def kernel_token(hub: Hub, name: str) -> str:
    """Log ``name`` in, land on the lesson index; the hub API token their lesson kernel was given."""
    session = login(hub, name)
    wait_for_landing(session, hub.base, name)
    _server, kernels = processes_of(hub, name)
    assert kernels, f"{name}'s lesson index started no kernel"
    return environ(kernels[0])["JUPYTERHUB_API_TOKEN"]


def test_the_table_server_is_a_service_of_the_hub(tables_hub: TablesHub):
    """The hub starts the table server (PostgreSQL, loopback, as a Unix user of its own when root); each learner's
    kernel gets a hub token with the service's scope and the server's address; a learner sits under their hub
    name; no token, or a token without the scope, gets 403; the hub's admin reads the teacher's endpoints and a
    learner does not."""
    hub, names, database, port, base = tables_hub.hub, tables_hub.names, tables_hub.database, tables_hub.port, \
        tables_hub.base
    access = "access:services!service=railkit-tables"
    figures: dict = {"spawner": hub.spawner, "store": "postgresql"}
    try:
        status, answer = tables_hub.first_answer
        assert (status, answer["rule"]) == (403, "TABLES-HUB"), answer
        figures["hub_start_to_table_server_answering_s"] = tables_hub.start_to_answer_s
        server_pid = hub.parts()["table_server"]
        assert f"--port {port}" in cmdline(server_pid) and "--host 127.0.0.1" in cmdline(server_pid)
        if os.geteuid() == 0:
            assert pwd.getpwuid(uid(server_pid)).pw_name == "railkit-tables", "the table server runs as root"

        tokens, sessions = {}, {}
        for name in names:
            sessions[name] = login(hub, name)
            wait_for_landing(sessions[name], hub.base, name)
            _server, kernels = processes_of(hub, name)
            assert kernels, f"{name}'s lesson index started no kernel"
            env = environ(kernels[0])
            assert env.get("RAILKIT_TABLES_URL") == f"http://127.0.0.1:{port}", env.get("RAILKIT_TABLES_URL")
            tokens[name] = env["JUPYTERHUB_API_TOKEN"]

        table = {"game": "cape_to_cairo", "seats": ["Anna", "Player 2", "Computer 1"], "bots": ["Computer 1"],
                 "take": "Anna"}
        asked = time.monotonic()
        status, made = call("POST", f"{base}/tables", table, headers=auth(tokens[names[0]]))
        figures["first_table_created_s"] = round(time.monotonic() - asked, 2)  # the hub asked about the token once
        assert status == 201 and made["seat"] == names[0], made
        status, joined = call("POST", f"{base}/tables/{made['table']}/join", {"name": "Someone"},
                              headers=auth(tokens[names[1]]))
        assert status == 200 and joined["seat"] == names[1], joined
        with psycopg.connect(database) as conn:  # (this table's: another test of the module may have made one)
            seats = dict(conn.execute("SELECT s.seat, s.holder FROM rk_seats s JOIN rk_tables t ON t.id = s.table_id "
                                      "WHERE t.code = %s", (made["table"],)).fetchall())
        assert seats == {names[0]: "human", names[1]: "human", "Computer 1": "bot"}, seats

        # Refused, and nothing changes: no token, a learner's token without the scope.
        narrow = hub_token(hub, sessions[names[0]], names[0], ["read:users:name!user"])
        for headers in ({}, auth(narrow), auth("not-a-hub-token")):
            status, answer = call("POST", f"{base}/tables", table, headers=headers)
            assert (status, answer["rule"]) == (403, "TABLES-HUB"), answer
        # The teacher's endpoints: the hub's admin (the railkit-teacher role), not a learner.
        status, answer = call("GET", f"{base}/teacher/tables", headers=auth(tokens[names[0]]))
        assert (status, answer["rule"]) == (403, "TEACHER-HUB"), answer
        teacher = login(hub, TEACHER, TEACHER_PASSWORD, spawn=False)
        teacher_token = hub_token(hub, teacher, TEACHER, ["custom:railkit-teacher", access])
        status, answer = call("GET", f"{base}/teacher/tables", headers=auth(teacher_token))
        assert status == 200 and made["table"] in [t["table"] for t in answer["tables"]], answer
        figures["table_server_mb"] = memory_mb(server_pid)
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "deploy_hub_tables_figures.json").write_text(json.dumps(figures, indent=2) + "\n")
        print(json.dumps(figures, indent=2))


def browser_login(browser, hub: Hub, name: str, password: str):
    """A Chromium page of ``name`` logged in through the hub's form and landed on their lesson index."""
    context = browser.new_context(viewport={"width": 1280, "height": 1600}, ignore_https_errors=True)  # self-signed
    page = context.new_page()
    page.route("**/*", lambda r: r.continue_() if urlsplit(r.request.url).hostname in ("127.0.0.1", "localhost")
               else r.abort())
    page.goto(f"{hub.base}/hub/login", timeout=60_000)
    page.fill("#username_input", name)
    page.fill("#password_input", password)
    page.click("#login_submit")
    wait_for_address(page, f"/user/{name}{landing_path()}", timeout=180_000)
    return context, page


TEACHER_PAGE = "teacher/teacher.ipynb"  # notebooks/teacher/: on the hub under each user's own server


def test_the_teachers_page_on_the_hub_in_chromium(tables_hub: TablesHub, browser):
    """Item 2/7 of the teacher's room on the real hub: the hub's admin logs in in Chromium, opens the teacher's page
    on their own server and sees a learner's answers and table, live from the table service (the kernel's hub token
    carries the teacher's scope: no key); a plain learner opening the same page gets the refusal in words and none
    of the class's data. Each learner's "My progress" shows their own records only, by their hub identity."""
    hub, (ada, bo) = tables_hub.hub, tables_hub.names
    token = kernel_token(hub, ada)
    table = {"game": "cape_to_cairo", "seats": ["Anna", "Player 2", "Computer 1"], "bots": ["Computer 1"],
             "take": "Anna"}
    status, made = call("POST", f"{tables_hub.base}/tables", table, headers=auth(token))
    assert status == 201 and made["seat"] == ada, made
    answer = {"event": "answer", "learner": "typed", "lesson": "kk_auction", "visit": "visit-hub-0001",
              "exercise": "choosing_order", "right": False, "attempt": 1, "rules": ["KK-A5"]}
    assert call("POST", f"{tables_hub.base}/records", answer, headers=auth(token))[0] == 201

    context, page = browser_login(browser, hub, TEACHER, TEACHER_PASSWORD)
    try:
        open_app(page, f"{hub.base}/user/{TEACHER}/voila/render/{TEACHER_PAGE}", timeout=180)
        wait_text(page, ".railkit-app", ada, timeout=120_000)  # the learner, under their hub name
        wait_text(page, ".railkit-app", made["table"], timeout=60_000)  # and their table
        shown = page.inner_text(".railkit-app")
        assert "KK-A5" in shown and "not a teacher" not in shown, shown[-2000:]
        assert ERROR_PAGE_TEXT not in page.inner_text("body")
    finally:
        context.close()

    # RECORDS-KEY on the hub: ada's own lesson page shows her record under "My progress" (the hub says who she is).
    context, page = browser_login(browser, hub, ada, PASSWORD)
    try:
        open_app(page, f"{hub.base}/user/{ada}/voila/render/kk_auction.ipynb", timeout=180)
        page.click(".railkit-my-progress-toggle")
        wait_text(page, ".railkit-my-progress", "KK-A5 ×1", timeout=60_000)
    finally:
        context.close()

    context, page = browser_login(browser, hub, bo, PASSWORD)
    try:
        open_app(page, f"{hub.base}/user/{bo}/voila/render/kk_auction.ipynb", timeout=180)
        page.click(".railkit-my-progress-toggle")
        wait_text(page, ".railkit-my-progress", "you", timeout=60_000)  # his own (none yet, or this page's opening)
        assert "KK-A5" not in page.inner_text(".railkit-my-progress")
        open_app(page, f"{hub.base}/user/{bo}/voila/render/{TEACHER_PAGE}", timeout=180)
        wait_text(page, ".railkit-app", "not a teacher", timeout=120_000)
        shown = page.inner_text("body")
        assert ada not in shown and made["table"] not in shown and "KK-A5" not in shown, shown[-2000:]
        # ... and another user's server (the teacher's, with the data) is not theirs to open.
        page.goto(f"{hub.base}/user/{TEACHER}/voila/render/{TEACHER_PAGE}", timeout=60_000)
        shown = page.inner_text("body")
        assert ada not in shown and made["table"] not in shown, (page.url, shown[-1000:])
    finally:
        context.close()
