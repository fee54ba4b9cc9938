#!/usr/bin/env bash
# The class hub's accounts: only these names can log in (no sign-up). Run as root (the state folder is
# root's), after deploy/install.sh; the hub need not be restarted.
#
#   deploy/accounts.sh admin teacher          # the teacher's (admin) account: asks for the password
#   deploy/accounts.sh add class.txt          # learners: 'name' or 'name password' per line; prints the
#                                             # passwords it generated, once: hand them out
#   deploy/accounts.sh password ada           # a new password for a learner who forgot theirs (printed)
#   deploy/accounts.sh remove ada bo          # they can no longer log in
#   deploy/accounts.sh list
set -euo pipefail
DEPLOY="$(cd "$(dirname "$0")" && pwd)"
export RAILKIT_HUB_PREFIX="${RAILKIT_HUB_PREFIX:-/opt/railkit-hub}"
umask 077
exec "$RAILKIT_HUB_PREFIX/hub/bin/python" "$DEPLOY/railkit_hub.py" "$@"
