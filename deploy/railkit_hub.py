"""Spawners for railkit's class hub where systemd is not running (containers, small VMs).

On a host where systemd is PID 1, ``jupyterhub_config.py`` uses SystemdSpawner instead: it puts each
learner's server and kernels in one cgroup with ``MemoryMax``, which is the better limit. Without
systemd, these spawners enforce the same ``Spawner.mem_limit`` with ``RLIMIT_AS`` (address space),
set before the single-user server starts; every kernel it starts inherits it. That limit is per
process, not per learner: a learner with two lessons open may use twice the limit. Kernel culling
(``jupyter_server_config.json``) keeps the number of forgotten kernels down.

* ``LocalUserSpawner`` (production without systemd, hub runs as root): each hub user ``name`` runs as
  the Unix user ``jupyter-name``, created on first start with ``useradd`` (TLJH uses the same naming),
  so learners cannot read each other's files.
* ``SharedUserSpawner`` (a demo on one's own machine, or a test run without root): every server runs
  as the hub's own Unix user with a home folder of its own. No separation between learners.
"""

from __future__ import annotations

import os
import pwd
import resource
import subprocess
from collections.abc import Callable
from typing import Any

from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner
from traitlets import Unicode

# Hub user names become Unix user names; keep them to what useradd accepts everywhere.
USERNAME_PATTERN = r"^[a-z][a-z0-9_-]{0,23}$"


def limit_address_space(limit: int | None, then: Callable[[], None]) -> Callable[[], None]:
    """A preexec function: cap the address space at ``limit`` bytes (soft and hard, so the learner's
    code cannot raise it again), then run ``then`` (which may drop root)."""

    def preexec() -> None:
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        then()

    return preexec


class MemoryLimitMixin:
    """Enforce ``Spawner.mem_limit`` (e.g. ``"1500M"``) as RLIMIT_AS on the server and its kernels."""

    mem_limit: int | None

    def make_preexec_fn(self, name: str) -> Callable[[], None]:
        return limit_address_space(self.mem_limit, super().make_preexec_fn(name))  # type: ignore[misc]

    def get_env(self) -> dict[str, str]:
        env: dict[str, str] = super().get_env()  # type: ignore[misc]
        # glibc reserves 64 MB of address space per thread arena; with a few threads per kernel this
        # would use the address-space limit up without using memory.
        env["MALLOC_ARENA_MAX"] = "2"
        return env


class LocalUserSpawner(MemoryLimitMixin, LocalProcessSpawner):
    """Each learner runs as their own Unix user, created on first start (the hub must run as root)."""

    unix_name_template = Unicode("jupyter-{username}", config=True,
                                 help="Unix user name for a hub user; {username} is the hub name.")

    def unix_name(self) -> str:
        return self.unix_name_template.format(username=self.user.name)

    def ensure_unix_user(self) -> pwd.struct_passwd:
        name = self.unix_name()
        try:
            return pwd.getpwnam(name)
        except KeyError:
            self.log.info("Creating Unix user %s for %s", name, self.user.name)
            subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", "--comment", "railkit learner", name],
                           check=True, capture_output=True)
            account = pwd.getpwnam(name)
            os.chmod(account.pw_dir, 0o700)  # learners' work stays their own
            return account

    async def start(self) -> Any:
        self.ensure_unix_user()
        return await super().start()

    def make_preexec_fn(self, name: str) -> Callable[[], None]:
        return super().make_preexec_fn(self.unix_name())

    def user_env(self, env: dict[str, str]) -> dict[str, str]:
        account = pwd.getpwnam(self.unix_name())
        env.update(USER=account.pw_name, HOME=account.pw_dir, SHELL=account.pw_shell or "/bin/bash")
        return env


class SharedUserSpawner(MemoryLimitMixin, SimpleLocalProcessSpawner):
    """All servers run as the hub's Unix user, each with its own home folder. Demo and tests only."""
