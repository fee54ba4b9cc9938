# railkit's class hub: JupyterHub + configurable-http-proxy, every learner lands on the Voila apps.
#
# Start it with deploy/start-hub.sh (after deploy/install.sh). Settings come from environment
# variables so that this file never needs editing; deploy/README.md lists them. Anything given on
# the command line (e.g. --JupyterHub.bind_url=...) overrides this file.
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from railkit_hub import (  # noqa: E402
    TABLES_SERVICE,
    TEACHER_SCOPE,
    USERNAME_PATTERN,
    load_accounts,
    self_signed_certificate,
    tables_service_user,
)

c = get_config()  # noqa: F821 - provided by JupyterHub when it loads this file


def setting(name: str, default: str) -> str:
    return os.environ.get(name) or default


PREFIX = Path(setting("RAILKIT_HUB_PREFIX", "/opt/railkit-hub"))  # where install.sh put the two venvs
STATE = Path(setting("RAILKIT_HUB_STATE", str(PREFIX / "state")))  # database, secrets, passwords
NOTEBOOKS = Path(setting("RAILKIT_NOTEBOOKS", str(HERE.parent / "notebooks")))  # served read-only
MEM_LIMIT = setting("RAILKIT_MEM_LIMIT", "1G")  # per learner's server (see README: sizing); "none": no limit
CULL_AFTER = int(setting("RAILKIT_CULL_SECONDS", "3600"))  # stop a learner's server idle this long
PROCESS_LIMIT = int(setting("RAILKIT_PROCESS_LIMIT", "128"))  # processes + threads per learner; 0: no cap
# Threads of a learner's server and of one lesson's kernel (measured: 6 and 11-14): both the rlimit and systemd's
# TasksMax count threads, so a learner's kernels are capped to what the process limit holds, with one kernel's
# threads to spare (a restart, a kernel a lesson's page is just being given).
SERVER_THREADS, KERNEL_THREADS = 8, 14


def kernel_limit() -> int:
    """Kernels one learner's server may run at once (RAILKIT_KERNEL_LIMIT, else what PROCESS_LIMIT holds, at most 8)."""
    if setting("RAILKIT_KERNEL_LIMIT", ""):
        return int(setting("RAILKIT_KERNEL_LIMIT", ""))
    if not PROCESS_LIMIT:
        return 8
    return max(1, min(8, (PROCESS_LIMIT - SERVER_THREADS - KERNEL_THREADS) // KERNEL_THREADS))


KERNEL_LIMIT = kernel_limit()
STATE.mkdir(mode=0o700, parents=True, exist_ok=True)


def memory_gb() -> float:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) / 2**20
    return 4.0


# --- The hub and its proxy: HTTPS unless RAILKIT_HUB_HTTP=1 ----------------------------------------------
ADDRESS = f"{setting('RAILKIT_HUB_IP', '0.0.0.0')}:{setting('RAILKIT_HUB_PORT', '8000')}"
if setting("RAILKIT_HUB_HTTP", "0") == "1":
    c.JupyterHub.bind_url = f"http://{ADDRESS}"  # passwords cross the network readable: a closed network only
else:
    c.JupyterHub.bind_url = f"https://{ADDRESS}"
    CERT = Path(setting("RAILKIT_HUB_CERT", str(STATE / "tls" / "hub.crt")))
    KEY = Path(setting("RAILKIT_HUB_KEY", str(STATE / "tls" / "hub.key")))
    if not CERT.exists() and "RAILKIT_HUB_CERT" not in os.environ:  # install.sh makes it; a fresh state folder too
        self_signed_certificate(CERT, KEY)
    c.JupyterHub.ssl_cert = str(CERT)
    c.JupyterHub.ssl_key = str(KEY)
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.command = [str(HERE / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every learner's server

# --- Who may log in: the teacher's class list, no sign-up ---------------------------------------------
# Only the accounts in STATE/accounts.json log in (deploy/accounts.sh: `admin NAME` sets the teacher's
# password at install, `add FILE` the learners' from a class list). Typing a new name makes nothing.
c.JupyterHub.authenticator_class = "railkit_hub.ClassListAuthenticator"
c.ClassListAuthenticator.state_dir = str(STATE)
c.Authenticator.username_pattern = USERNAME_PATTERN  # names become Unix user names
c.Authenticator.allow_all = False
if not any(a.get("admin") for a in load_accounts(STATE).values()):
    print(f"railkit hub: no admin account in {STATE}: run deploy/accounts.sh admin NAME", file=sys.stderr)

# --- How many at once: servers (memory) and server starts (CPU) -------------------------------------------
# About 0.25 GB per learner with a lesson open (README, Sizing), 1 GB for the system and the hub; past
# the cap a learner is told the hub is full. Ten starts at a time keep a 2-4 core server answering.
c.JupyterHub.active_server_limit = int(setting("RAILKIT_MAX_SERVERS", str(max(2, int((memory_gb() - 1) / 0.3)))))
c.JupyterHub.concurrent_spawn_limit = int(setting("RAILKIT_CONCURRENT_SPAWNS", "10"))

# --- Each learner's server: Voila apps, read-only lessons, a memory limit ------------------------------
c.Spawner.cmd = [str(PREFIX / "users" / "bin" / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = str(NOTEBOOKS)  # the lessons; learners cannot change them
# The landing page: the lesson index if notebooks/ has one, else Voila's list of notebooks.
c.Spawner.default_url = "/voila/render/index.ipynb" if (NOTEBOOKS / "index.ipynb").exists() else "/voila/tree"
c.Spawner.mem_limit = None if MEM_LIMIT.lower() == "none" else MEM_LIMIT
c.Spawner.http_timeout = 120  # a busy 2-core server can take a while to start a learner's server
# A learner's server runs railkit's kernel manager (jupyter_server_config.json): no ready kernels (Voila keeps pools
# only in its own app, `make run`), at most KERNEL_LIMIT kernels; at that cap a closed page's kernel makes way for a
# new page, and when all are open the new page is refused in words ("close a lesson's tab") instead of kernels dying
# for want of threads.
c.Spawner.args = [f"--RailkitKernelManager.max_kernels={KERNEL_LIMIT}"]
c.Spawner.start_timeout = 180

spawner = setting("RAILKIT_HUB_SPAWNER", "auto")  # auto | systemd | local | shared
if spawner == "auto":
    systemd_running = Path("/run/systemd/system").is_dir()  # what sd_booted() checks
    spawner = "systemd" if systemd_running and shutil.which("systemd-run") else "local"
if spawner == "systemd":
    # One transient unit per learner with its own dynamic Unix user; MemoryMax covers server + kernels.
    c.JupyterHub.spawner_class = "systemdspawner.SystemdSpawner"
    c.SystemdSpawner.dynamic_users = True
    c.SystemdSpawner.cpu_limit = float(setting("RAILKIT_CPU_LIMIT", "1"))
    c.SystemdSpawner.isolate_tmp = True  # a private /tmp per learner
    c.SystemdSpawner.disable_user_sudo = True
    if PROCESS_LIMIT:
        c.SystemdSpawner.unit_extra_properties = {"TasksMax": str(PROCESS_LIMIT)}
elif spawner == "local":
    # Unix user jupyter-<name> per learner (no login shell), created on first start; rlimits enforce
    # MEM_LIMIT (address space per process), processes per learner, CPU seconds per process; nice 10.
    c.JupyterHub.spawner_class = "railkit_hub.LocalUserSpawner"
    c.LocalUserSpawner.process_limit = PROCESS_LIMIT
elif spawner == "shared":
    # Demo / tests without root: every server runs as the hub's own user, no separation of learners.
    c.JupyterHub.spawner_class = "railkit_hub.SharedUserSpawner"
    c.SharedUserSpawner.home_dir_template = str(STATE / "homes" / "{username}")
    c.SharedUserSpawner.args = ["--allow-root"] if os.geteuid() == 0 else []
    c.SharedUserSpawner.process_limit = 0  # counted per Unix user: it would count the hub's own processes
else:
    raise ValueError(f"RAILKIT_HUB_SPAWNER={spawner!r}: use auto, systemd, local or shared")

# --- The class tables' server ("Play with others", the teacher's room): a managed service of the hub ------
# The hub starts it (and restarts it if it dies) in the learners' venv, listening on loopback only; it is given
# no URL, so the proxy does not route to it: the lessons' kernels, on this machine, reach it directly at
# RAILKIT_TABLES_URL, and learners' browsers never do. Every request carries the kernel's hub API token
# ($JUPYTERHUB_API_TOKEN), which the server checks with the hub (railkit.tables.hub): learners are the hub's
# users, the admins and the "teachers" group are the teachers. Store: PostgreSQL when RAILKIT_DB is a
# postgresql:// URL (one database per class: README), else SQLite in the service's data folder.
TABLES_PORT = int(setting("RAILKIT_TABLES_PORT", "8867"))
TABLES_DATA = Path(setting("RAILKIT_TABLES_DATA", str(PREFIX / "tables")))
TABLES_DB = setting("RAILKIT_DB", f"sqlite:///{TABLES_DATA / 'tables.sqlite'}")
TABLES_ACCESS = f"access:services!service={TABLES_SERVICE}"
tables_service = {
    "name": TABLES_SERVICE,
    "command": [str(PREFIX / "users" / "bin" / "python"), "-m", "railkit.tables", "--hub-auth",
                "--host", "127.0.0.1", "--port", str(TABLES_PORT), "--db", TABLES_DB,
                "--teacher-key-file", str(TABLES_DATA / "teacher.key")],  # made, but the hub says who teaches
    "cwd": str(TABLES_DATA),
}
tables_user = tables_service_user(TABLES_DATA)  # as root: a system user of its own, never root
if tables_user:
    tables_service["user"] = tables_user
c.Spawner.environment = {"RAILKIT_TABLES_URL": f"http://127.0.0.1:{TABLES_PORT}"}
# The token each learner's server (and so each kernel) gets: what JupyterHub gives by default, plus the table
# server's access scope and the teacher's scope; the hub keeps only those the user holds (roles below).
c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server", TABLES_ACCESS, TEACHER_SCOPE]
c.JupyterHub.custom_scopes = {TEACHER_SCOPE: {"description": "See the class's records and tables (railkit)"}}
c.JupyterHub.load_groups = {"teachers": {"users": []}}  # members: in the admin panel (Groups); kept across restarts
ADMINS = sorted(name for name, account in load_accounts(STATE).items() if account.get("admin"))

# --- Stop idle learners' servers (frees their memory) ---------------------------------------------
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={CULL_AFTER}"],
}, tables_service]
# --- Memory per learner as a whole where there is no systemd: the memory guard (railkit_hub.py) ------------------
# SystemdSpawner's MemoryMax covers all of a learner's processes; RLIMIT_AS only each one. As root with a Unix user
# per learner, the guard adds up each learner's processes every second and ends the largest past MEM_LIMIT.
if spawner == "local" and c.Spawner.mem_limit and os.geteuid() == 0:
    c.JupyterHub.services.append({
        "name": "memory-guard",
        "command": [sys.executable, str(HERE / "railkit_hub.py"), "guard", "--limit", MEM_LIMIT,
                    "--prefix", "jupyter-"],
    })
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}, {
    "name": "user",  # every hub user: their own things (JupyterHub's default) and the class tables
    "scopes": ["self", TABLES_ACCESS],
}, {
    "name": "railkit-teacher",  # the teacher's room: the hub's admins and the teachers group
    "scopes": [TEACHER_SCOPE, TABLES_ACCESS],
    "users": ADMINS,
    "groups": ["teachers"],
}]
