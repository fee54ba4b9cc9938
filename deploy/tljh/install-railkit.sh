#!/usr/bin/env bash
# Put railkit's lessons on a host that runs The Littlest JupyterHub (TLJH), as root, from a checkout
# every user can read (e.g. `sudo git clone ... /opt/railkit && sudo /opt/railkit/deploy/tljh/install-railkit.sh`).
# Safe to run again after `git pull`. Uses PyPI only. TLJH keeps its own hub, proxy (traefik),
# authenticator and spawner; this adds railkit to TLJH's user environment and points learners at it.
set -euo pipefail
umask 022
TLJH_DIR="$(cd "$(dirname "$0")" && pwd)"
DEPLOY="$(dirname "$TLJH_DIR")"
REPO="$(dirname "$DEPLOY")"
TLJH="${TLJH_PREFIX:-/opt/tljh}"
USER_PY="$TLJH/user/bin/python"
MEM_LIMIT="${RAILKIT_MEM_LIMIT:-1G}"

"$USER_PY" -c 'import sys; assert sys.version_info >= (3, 11), f"railkit needs Python 3.11+, TLJH user env has {sys.version}"'

# 1. railkit's pinned apps environment and railkit itself (editable: a git pull updates the lessons).
"$USER_PY" "$DEPLOY/lock_for_python.py" "$REPO/requirements.lock" > "$TLJH/railkit-lock.txt"
"$USER_PY" -m pip install --quiet -r "$TLJH/railkit-lock.txt"
"$USER_PY" -m pip install --quiet --no-deps --no-build-isolation -e "$REPO"
"$USER_PY" -m railkit.ui.voila_template --prefix "$TLJH/user"

# 2. Voila's settings as `make run` uses them; the server: no MathJax from a CDN, idle kernels culled.
mkdir -p "$TLJH/user/etc/jupyter"
cp "$REPO/notebooks/voila.json" "$TLJH/user/etc/jupyter/voila.json"
# Merged into the environment's jupyter_server_config.json, which may hold settings of TLJH or of the admin.
"$USER_PY" - "$TLJH_DIR/jupyter_server_config.json" "$TLJH/user/etc/jupyter/jupyter_server_config.json" <<'PY'
import json, sys
from pathlib import Path
ours, target = (Path(p) for p in sys.argv[1:])
config = json.loads(target.read_text()) if target.exists() else {}
for section, values in json.loads(ours.read_text()).items():
    config.setdefault(section, {}).update(values)
target.write_text(json.dumps(config, indent=2) + "\n")
PY

# 3. Learners land on the Voila apps; memory limit and idle culling through tljh-config.
mkdir -p "$TLJH/config/jupyterhub_config.d"
sed "s|@RAILKIT_CHECKOUT@|$REPO|" "$TLJH_DIR/railkit.py" > "$TLJH/config/jupyterhub_config.d/railkit.py"
tljh-config set limits.memory "$MEM_LIMIT"
tljh-config set services.cull.timeout 3600
tljh-config reload hub
echo "railkit is installed: learners log in and land on the lessons."
