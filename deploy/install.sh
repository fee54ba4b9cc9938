#!/usr/bin/env bash
# Install railkit's class hub; safe to run again (after `git pull`, say): finished steps are skipped.
#
#   sudo deploy/install.sh --admin teacher                  # into /opt/railkit-hub; asks for teacher's password
#   sudo deploy/install.sh --admin teacher --class class.txt   # and the learners (prints their passwords once)
#   sudo RAILKIT_HUB_CERT=site.crt RAILKIT_HUB_KEY=site.key deploy/install.sh   # the school's certificate
#   RAILKIT_HUB_PREFIX=/somewhere deploy/install.sh
# Without a certificate, a self-signed one is made (once) in the state folder; accounts: deploy/accounts.sh.
#
# Needs: Python 3.11+ with venv that every user may run (default: Debian's /usr/bin/python3; a Python
# under /root would not do), node >= 18 and npm (Debian: apt-get install python3-venv nodejs npm).
# Downloads from PyPI and npm only. Makes:
#   $PREFIX/hub/     the hub's venv (deploy/requirements.txt): JupyterHub, idle culler, authenticator
#   $PREFIX/users/   the learners' venv: railkit's lock + jupyterhub-singleuser, railkit (editable,
#                    from this checkout), its Voila template and the Voila / kernel-culling settings
#   deploy/node_modules/  configurable-http-proxy, exactly as deploy/package-lock.json pins it
set -euo pipefail
umask 022  # learners' servers run as other Unix users: they must read both venvs and this checkout

DEPLOY="$(cd "$(dirname "$0")" && pwd)"
REPO="$(dirname "$DEPLOY")"
PREFIX="${RAILKIT_HUB_PREFIX:-/opt/railkit-hub}"
PYTHON="${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}"
USERS_LOCK="${RAILKIT_USERS_LOCK:-$REPO/requirements.lock}"  # the pins of the learners' environment
PIP_FLAGS=(--quiet --disable-pip-version-check --no-input)
STATE="${RAILKIT_HUB_STATE:-$PREFIX/state}"  # accounts, certificate, hub database (mode 700)
ADMIN="" CLASS_LIST=""
while [ $# -gt 0 ]; do
  case "$1" in
    --admin) ADMIN="$2"; shift 2 ;;
    --class) CLASS_LIST="$(realpath "$2")"; shift 2 ;;
    *) echo "install.sh: unknown argument $1 (use --admin NAME, --class FILE)" >&2; exit 2 ;;
  esac
done

mkdir -p "$PREFIX"
exec 9>"$PREFIX/.install.lock"
flock 9  # two installs at once into one prefix would corrupt the venvs

say() { printf '== %s\n' "$*"; }

# fingerprint FILE...: what the installed state of a step depends on (with the base Python)
fingerprint() { { "$PYTHON" -VV; cat "$@"; } | sha256sum | cut -d' ' -f1; }

# venv DIR STAMP REQUIREMENTS...: create DIR and install the pins unless STAMP already records them
venv() {
  local dir="$1" stamp="$2"; shift 2
  local want; want="$(fingerprint "$@")"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    say "$dir is up to date"
    return
  fi
  say "installing $dir"
  "$PYTHON" -m venv --clear "$dir"  # from scratch: no leftovers of older pins
  "$dir/bin/python" -m pip install "${PIP_FLAGS[@]}" pip==26.3  # the pip railkit's Makefile uses
  local args=()
  for req in "$@"; do args+=(-r "$req"); done
  "$dir/bin/python" -m pip install "${PIP_FLAGS[@]}" "${args[@]}"
  echo "$want" > "$stamp"
}

"$PYTHON" -c 'import sys; assert sys.version_info >= (3, 11), "railkit needs Python 3.11+"'

# 1. The hub.
venv "$PREFIX/hub" "$PREFIX/hub/.railkit-installed" "$DEPLOY/requirements.txt"

# 2. The proxy (npm ci installs exactly the lock; skipped when the lock has not changed).
if ! cmp -s "$DEPLOY/package-lock.json" "$DEPLOY/node_modules/.railkit-lock" 2>/dev/null; then
  say "installing configurable-http-proxy"
  npm ci --prefix "$DEPLOY" --omit=dev --no-audit --no-fund --loglevel=error
  cp "$DEPLOY/package-lock.json" "$DEPLOY/node_modules/.railkit-lock"
fi
"$DEPLOY/node_modules/.bin/configurable-http-proxy" --version >/dev/null

# 3. The learners' environment: the apps' pins plus jupyterhub-singleuser, then railkit itself.
USERS="$PREFIX/users"
USERS_REQS="$PREFIX/users-lock-for-this-python.txt"  # the lock, with replacements before Python 3.11.5
"$PYTHON" "$DEPLOY/lock_for_python.py" "$USERS_LOCK" > "$USERS_REQS"
venv "$USERS" "$USERS/.railkit-installed" "$USERS_REQS" "$DEPLOY/requirements-users.txt"
if [ "$(cat "$USERS/.railkit-source" 2>/dev/null)" != "$REPO $(fingerprint "$REPO/pyproject.toml")" ]; then
  say "installing railkit from $REPO (editable: a git pull updates the lessons)"
  "$USERS/bin/python" -m pip install "${PIP_FLAGS[@]}" --no-deps --no-build-isolation -e "$REPO" 2>"$PREFIX/pip-railkit.log" ||
    { cat "$PREFIX/pip-railkit.log" >&2; exit 1; }
  echo "$REPO $(fingerprint "$REPO/pyproject.toml")" > "$USERS/.railkit-source"
fi
"$USERS/bin/python" -m railkit.ui.voila_template --prefix "$USERS" >/dev/null
# The learners' servers read both from the environment's Jupyter config folder: Voila's settings
# (notebooks/voila.json, as `make run` uses them) and the server's (Voila only, kernel culling).
cp "$REPO/notebooks/voila.json" "$USERS/etc/jupyter/voila.json"
cp "$DEPLOY/jupyter_server_config.json" "$USERS/etc/jupyter/jupyter_server_config.json"
"$USERS/bin/python" -c 'import railkit, voila, jupyterhub.singleuser'
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
  # Learners' servers run as other Unix users: check that one of those could start Python here.
  runuser -u nobody -- "$USERS/bin/python" -c 'import railkit, voila, jupyterhub.singleuser' ||
    { echo "other users cannot run $USERS/bin/python (is $PYTHON, or this checkout, private?)" >&2; exit 1; }
fi

# 4. HTTPS and accounts, in the state folder.
mkdir -p -m 700 "$STATE" && chmod 700 "$STATE"
export RAILKIT_HUB_PREFIX="$PREFIX" RAILKIT_HUB_STATE="$STATE"
if [ -n "${RAILKIT_HUB_CERT:-}" ]; then
  say "using the certificate $RAILKIT_HUB_CERT"
  mkdir -p -m 700 "$STATE/tls"
  install -m 644 "$RAILKIT_HUB_CERT" "$STATE/tls/hub.crt"
  install -m 600 "${RAILKIT_HUB_KEY:?RAILKIT_HUB_CERT needs RAILKIT_HUB_KEY}" "$STATE/tls/hub.key"
else
  "$DEPLOY/accounts.sh" certificate  # self-signed, once: learners' browsers warn until they accept it
fi
[ -z "$ADMIN" ] || "$DEPLOY/accounts.sh" admin "$ADMIN"
[ -z "$CLASS_LIST" ] || "$DEPLOY/accounts.sh" add "$CLASS_LIST"
if ! "$DEPLOY/accounts.sh" list | grep -q $'\tadmin$'; then
  say "no admin account yet: $DEPLOY/accounts.sh admin teacher   (nobody can log in until then)"
fi

say "done. Start the hub with: $DEPLOY/start-hub.sh   (RAILKIT_HUB_PREFIX=$PREFIX)"
