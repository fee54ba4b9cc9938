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
from railkit_hub import USERNAME_PATTERN  # noqa: E402

c = get_config()  # noqa: F821 - provided by JupyterHub when it loads this file


def setting(name: str, default: str) -> str:
    return os.environ.get(name) or default


PREFIX = Path(setting("RAILKIT_HUB_PREFIX", "/opt/railkit-hub"))  # where install.sh put the two venvs
STATE = Path(setting("RAILKIT_HUB_STATE", str(PREFIX / "state")))  # database, secrets, passwords
NOTEBOOKS = Path(setting("RAILKIT_NOTEBOOKS", str(HERE.parent / "notebooks")))  # served read-only
MEM_LIMIT = setting("RAILKIT_MEM_LIMIT", "1G")  # per learner's server (see README: sizing); "none": no limit
CULL_AFTER = int(setting("RAILKIT_CULL_SECONDS", "3600"))  # stop a learner's server idle this long
STATE.mkdir(mode=0o700, parents=True, exist_ok=True)

# --- The hub and its proxy -------------------------------------------------------------------------
c.JupyterHub.bind_url = f"http://{setting('RAILKIT_HUB_IP', '0.0.0.0')}:{setting('RAILKIT_HUB_PORT', '8000')}"
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.command = [str(HERE / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every learner's server

# --- Who may log in ----------------------------------------------------------------------------------
# FirstUseAuthenticator (also TLJH's default): the first login with a new name sets that name's
# password (stored as a bcrypt hash in STATE). Anyone who can reach the hub can claim an unused
# name, so run it on a closed class network, have learners log in during the first lesson, and give
# the teacher an admin name (RAILKIT_HUB_ADMINS) to delete users, which resets their password.
c.JupyterHub.authenticator_class = "firstuseauthenticator.FirstUseAuthenticator"
c.FirstUseAuthenticator.dbm_path = str(STATE / "passwords.dbm")
c.FirstUseAuthenticator.create_users = True
c.Authenticator.username_pattern = USERNAME_PATTERN  # names become Unix user names
c.Authenticator.admin_users = {n.strip() for n in setting("RAILKIT_HUB_ADMINS", "").split(",") if n.strip()}
c.Authenticator.allow_all = True  # on a closed class network; else set c.Authenticator.allowed_users

# --- Each learner's server: Voila apps, read-only lessons, a memory limit ------------------------------
c.Spawner.cmd = [str(PREFIX / "users" / "bin" / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = str(NOTEBOOKS)  # the lessons; learners cannot change them
# The landing page: the lesson index if notebooks/ has one, else Voila's list of notebooks.
c.Spawner.default_url = "/voila/render/index.ipynb" if (NOTEBOOKS / "index.ipynb").exists() else "/voila/tree"
c.Spawner.mem_limit = None if MEM_LIMIT.lower() == "none" else MEM_LIMIT
c.Spawner.http_timeout = 120  # a busy 2-core server can take a while to start a learner's server
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
    c.SystemdSpawner.isolate_tmp = True
elif spawner == "local":
    # Unix user jupyter-<name> per learner, created on first start; RLIMIT_AS enforces MEM_LIMIT.
    c.JupyterHub.spawner_class = "railkit_hub.LocalUserSpawner"
elif spawner == "shared":
    # Demo / tests without root: every server runs as the hub's own user, no separation of learners.
    c.JupyterHub.spawner_class = "railkit_hub.SharedUserSpawner"
    c.SharedUserSpawner.home_dir_template = str(STATE / "homes" / "{username}")
    c.SharedUserSpawner.args = ["--allow-root"] if os.geteuid() == 0 else []
else:
    raise ValueError(f"RAILKIT_HUB_SPAWNER={spawner!r}: use auto, systemd, local or shared")

# --- Stop idle learners' servers (frees their memory) ---------------------------------------------
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={CULL_AFTER}"],
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
