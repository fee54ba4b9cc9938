#!/usr/bin/env bash
# Run railkit's class hub in the foreground (Ctrl-C stops it and every learner's server).
# Settings: environment variables listed in deploy/README.md; extra arguments go to jupyterhub,
# e.g.  deploy/start-hub.sh --JupyterHub.bind_url=http://127.0.0.1:8000
set -euo pipefail
DEPLOY="$(cd "$(dirname "$0")" && pwd)"
export RAILKIT_HUB_PREFIX="${RAILKIT_HUB_PREFIX:-/opt/railkit-hub}"
STATE="${RAILKIT_HUB_STATE:-$RAILKIT_HUB_PREFIX/state}"
mkdir -p -m 700 "$STATE"
cd "$STATE"  # JupyterHub writes a few files into the folder it starts in
exec "$RAILKIT_HUB_PREFIX/hub/bin/jupyterhub" -f "$DEPLOY/jupyterhub_config.py" "$@"
