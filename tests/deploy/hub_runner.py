"""Run deploy/'s class hub on loopback for the tests, and look at its processes through /proc.

``install()`` runs ``deploy/install.sh`` into ``.cache/deploy/prefix`` (pinned, from PyPI and npm;
the second run only checks the pins). ``Hub`` starts ``deploy/start-hub.sh`` on free ports with a
fresh state folder holding the teacher's account and the class list (``deploy/accounts.sh``) and a
self-signed certificate; ``login()`` logs a learner in over HTTPS (checked against that certificate),
``Hub.stop()`` ends the hub and returns every process it had started that is still alive (after
killing it).
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import requests
from conftest import ARTIFACTS, ROOT, free_port, own_log_path

DEPLOY = ROOT / "deploy"
CACHE = ROOT / ".cache" / "deploy"
PREFIX = CACHE / "prefix"
PASSWORD = "class-password-1"
TEACHER, TEACHER_PASSWORD = "teacher", "teachers-own-secret-9"


def install() -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    (CACHE / ".gitignore").write_text("*\n")  # keep the cache out of git without touching the root .gitignore
    done = subprocess.run([str(DEPLOY / "install.sh")], env={**os.environ, "RAILKIT_HUB_PREFIX": str(PREFIX)},
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"deploy/install.sh failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return PREFIX


def can_create_users() -> bool:
    return os.geteuid() == 0 and shutil.which("useradd") is not None


# --- /proc ----------------------------------------------------------------------------------------------

def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of a process, or None when it has gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), int(fields[19])


def descendants(root: int) -> dict[int, int]:
    """Every live descendant of ``root``: pid -> start time (to tell a reused pid apart)."""
    table = {int(p): _stat(int(p)) for p in os.listdir("/proc") if p.isdigit()}
    found: dict[int, int] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, info in table.items():
            if info and info[0] == parent and pid not in found:
                found[pid] = info[1]
                frontier.append(pid)
    return found


def children(pid: int) -> list[int]:
    return [p for p, info in ((int(p), _stat(int(p))) for p in os.listdir("/proc") if p.isdigit()) if info and info[0] == pid]


def start_time(pid: int) -> int:
    info = _stat(pid)
    assert info is not None, f"process {pid} has gone"
    return info[1]


def alive(pid: int, started: int) -> bool:
    info = _stat(pid)
    return info is not None and info[1] == started


def environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode(errors="replace").split("=", 1) for item in raw if b"=" in item)


def cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")


def address_space_limit(pid: int) -> tuple[str, str]:
    """Soft and hard 'Max address space' from /proc/<pid>/limits."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max address space"):
            soft, hard = line.split()[3:5]
            return soft, hard
    raise AssertionError(f"no address-space line in /proc/{pid}/limits")


def uid(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError(f"no Uid in /proc/{pid}/status")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_mb(pid: int) -> dict[str, float]:
    """Resident (RSS) and proportional (PSS: shared pages split between their users) memory in MB."""
    values = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("Rss", "Pss"):
            values[key.lower()] = round(int(rest.split()[0]) / 1024, 1)
    return values


# --- the hub --------------------------------------------------------------------------------------------

@dataclass
class Hub:
    state: Path
    spawner: str
    mem_limit: str
    learners: list[str] = field(default_factory=list)  # the class list: each with PASSWORD
    env: dict[str, str] = field(default_factory=dict)  # more settings for start-hub.sh (RAILKIT_DB, ...)
    base: str = ""
    proc: subprocess.Popen | None = None
    log_path: Path | None = None
    seen: dict[int, int] = field(default_factory=dict)  # every process of the hub's tree seen so far

    @property
    def certificate(self) -> Path:
        return self.state / "tls" / "hub.crt"

    def accounts(self, *args: str, stdin: str = "") -> str:
        """``deploy/accounts.sh ARGS`` on this hub's state folder; its standard output."""
        env = {**os.environ, "RAILKIT_HUB_PREFIX": str(PREFIX), "RAILKIT_HUB_STATE": str(self.state)}
        done = subprocess.run([str(DEPLOY / "accounts.sh"), *args], env=env, input=stdin, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, f"accounts.sh {' '.join(args)} failed: {done.stderr}"
        return done.stdout

    def start(self, timeout: float = 120.0) -> Hub:
        port, hub_port, api_port = free_port(), free_port(), free_port()
        self.base = f"https://127.0.0.1:{port}"
        # What install.sh does: a certificate, the teacher's account, the class list.
        self.accounts("certificate")
        self.accounts("admin", TEACHER, stdin=TEACHER_PASSWORD + "\n")
        if self.learners:
            self.accounts("add", "-", stdin="".join(f"{n} {PASSWORD}\n" for n in self.learners))
        env = {**os.environ, "RAILKIT_HUB_PREFIX": str(PREFIX), "RAILKIT_HUB_STATE": str(self.state),
               "RAILKIT_HUB_SPAWNER": self.spawner, "RAILKIT_MEM_LIMIT": self.mem_limit,
               "RAILKIT_HUB_IP": "127.0.0.1", "RAILKIT_HUB_PORT": str(port),
               "RAILKIT_TABLES_PORT": str(free_port()), **self.env}
        self.log_path = own_log_path(ARTIFACTS / "deploy_hub.log", self.base)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen(
                [str(DEPLOY / "start-hub.sh"), f"--JupyterHub.hub_port={hub_port}",
                 f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{api_port}"],
                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"the hub exited ({self.proc.returncode}):\n{self.log()[-3000:]}"
            try:
                if requests.get(self.base + "/hub/api", timeout=5, verify=self.certificate).status_code == 200:
                    return self
            except requests.ConnectionError:
                pass
            time.sleep(0.3)
        raise AssertionError(f"the hub did not answer within {timeout} s:\n{self.log()[-3000:]}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path else ""

    def track(self) -> dict[int, int]:
        """Remember the hub's current processes (proxy, culler, learners' servers, kernels)."""
        assert self.proc is not None
        self.seen.update(descendants(self.proc.pid))
        return self.seen

    def parts(self) -> dict[str, int]:
        """The process ids of the hub, its proxy and its idle culler."""
        assert self.proc is not None
        found = {"hub": self.proc.pid}
        for pid in self.track():
            try:
                cmd = cmdline(pid)
            except OSError:
                continue
            if "configurable-http-proxy" in cmd:
                found["proxy"] = pid
            elif "jupyterhub_idle_culler" in cmd:
                found["idle_culler"] = pid
            elif "railkit.tables" in cmd:
                found["table_server"] = pid
        return found

    def server_pid(self, user: str) -> int:
        """The process id of ``user``'s single-user server."""
        for pid in self.track():
            try:
                if "jupyterhub-singleuser" in cmdline(pid) and environ(pid).get("JUPYTERHUB_USER") == user:
                    return pid
            except OSError:
                continue
        raise AssertionError(f"no single-user server process for {user}")

    def stop(self, timeout: float = 90.0) -> tuple[float, list[str]]:
        """SIGTERM the hub (it stops the learners' servers and the proxy); returns the seconds it took
        and the processes still alive afterwards, which are then killed."""
        if self.proc is None:
            return 0.0, []
        self.track()
        start = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        took = time.monotonic() - start
        strays = []
        deadline = time.monotonic() + 10  # the hub reaps its children last: give them a moment
        while (left := [p for p, t in self.seen.items() if alive(p, t)]) and time.monotonic() < deadline:
            time.sleep(0.2)
        for pid in left:
            strays.append(f"{pid}: {cmdline(pid)[:120]}")
            os.kill(pid, signal.SIGKILL)
        return took, strays


def try_login(hub: Hub, name: str, password: str = PASSWORD) -> tuple[requests.Session, requests.Response]:
    """Post the login form over HTTPS (the hub's certificate checked); the session and the answer."""
    session = requests.Session()
    session.trust_env = False  # else REQUESTS_CA_BUNDLE would replace the hub's certificate
    session.verify = str(hub.certificate)
    session.get(hub.base + "/hub/login", timeout=30)
    reply = session.post(hub.base + "/hub/login", data={"username": name, "password": password,
                                                         "_xsrf": session.cookies.get("_xsrf", "")},
                         allow_redirects=False, timeout=60)  # on to the learner's server: wait_for_landing
    return session, reply


def login(hub: Hub, name: str, password: str = PASSWORD, spawn: bool = True) -> requests.Session:
    """Log ``name`` in (an account of the class list, or the teacher's); with ``spawn``, go where the
    hub sends a fresh login (which starts the learner's server)."""
    session, reply = try_login(hub, name, password)
    assert reply.status_code in (302, 303), f"login of {name} failed: HTTP {reply.status_code}"
    if spawn:
        session.get(hub.base + reply.headers["Location"] if reply.headers["Location"].startswith("/")
                    else reply.headers["Location"], timeout=120)
    return session


def wait_for_landing(session: requests.Session, base: str, name: str, timeout: float = 150.0) -> requests.Response:
    """Follow the hub's redirects (spawn, spawn-pending) until the learner's own server answers."""
    deadline = time.monotonic() + timeout
    retried = False
    while time.monotonic() < deadline:
        reply = session.get(f"{base}/user/{name}/", timeout=120)
        if reply.status_code >= 500 and not retried:
            # The spawner's random port can be taken between its pick and the server's start by another process of
            # a parallel test run (seen once: a kernel's ZMQ socket answered the hub's check); a learner would press
            # the hub's "start my server" again: so does this, once, and the hub picks another port.
            retried = True
            session.get(f"{base}/hub/spawn/{name}", timeout=120)
            continue
        assert reply.status_code < 500, f"{name}'s server failed to start: HTTP {reply.status_code} at {reply.url}"
        if urlsplit(reply.url).path.startswith(f"/user/{name}/voila/"):  # a query (?redirects=1) may follow
            return reply
        time.sleep(0.5)
    raise AssertionError(f"{name}'s server did not start within {timeout} s")


def remove_unix_users(names: list[str]) -> None:
    for name in names:
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        subprocess.run(["userdel", "--remove", name], capture_output=True)


def rlimit(pid: int, name: str) -> tuple[str, str]:
    """Soft and hard value of the /proc/<pid>/limits line starting with ``name`` (e.g. 'Max processes')."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith(name):
            soft, hard = line[len(name):].split()[:2]
            return soft, hard
    raise AssertionError(f"no {name!r} line in /proc/{pid}/limits")


def niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError(f"no Threads in /proc/{pid}/status")
