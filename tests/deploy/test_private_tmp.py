"""The class hub gives each learner's server a private /tmp, unless that would hide the server's own files."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy"))

from railkit_hub import under_tmp  # noqa: E402


def test_an_installation_under_tmp_is_seen_as_hidden_by_a_private_tmp():
    assert under_tmp([Path("/tmp/clone/.cache/deploy/prefix/users/bin/jupyterhub-singleuser")])
    assert under_tmp([None, Path("/tmp")])


def test_an_installation_elsewhere_keeps_the_private_tmp():
    assert not under_tmp([Path("/opt/railkit-hub/users/bin/jupyterhub-singleuser"), None])
    assert not under_tmp([Path("/tmpfiles/railkit")])  # a name that only starts like /tmp
