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

Besides the memory limit, each learner's server (and so every kernel it starts) gets, without systemd:
a cap on processes (``RLIMIT_NPROC``, counted per Unix user, so a fork bomb stops there), a cap on CPU
seconds per process (``RLIMIT_CPU``: a kernel spinning for ever is ended), a lower priority (nice 10:
the hub and the other learners stay responsive) and a ``/tmp`` of its own (``~/.tmp``, mode 700,
mounted on /tmp in a mount namespace of the learner's server where the hub may, and ``TMPDIR``).

Without systemd there is no cgroup per learner, so ``RLIMIT_AS`` alone would let a learner use the limit
once per process (and code in a kernel can start more processes). The hub therefore runs ``memory-guard``
(``python railkit_hub.py guard``, a managed service, as root) with ``LocalUserSpawner``: twice a second it adds
up the private memory (resident, not file-backed: what a learner's code allocates) of each learner's processes
and, past ``Spawner.mem_limit``, ends that learner's largest processes other than their server (SIGKILL, as the
kernel's OOM killer would in a cgroup) until they are under it again, with a line in the hub's log. The other
learners are never touched. A lesson whose kernel was ended says "reload the page".

Accounts (``ClassListAuthenticator``): only the names in ``accounts.json`` in the hub's state folder
may log in, each with a password the teacher set or that was generated and printed once; there is no
sign-up. ``python railkit_hub.py`` (``deploy/accounts.sh``) manages the file: ``admin NAME``,
``add FILE``, ``password NAME``, ``remove NAME``, ``list``; ``certificate`` makes the hub's
self-signed TLS certificate.
"""

from __future__ import annotations

import argparse
import datetime
import getpass
import ipaddress
import json
import os
import pwd
import re
import resource
import secrets
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from traitlets import HasTraits, Integer, Unicode

try:  # the CLI (accounts, certificate) runs without JupyterHub's pieces being importable too
    from jupyterhub.auth import Authenticator
    from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner
except ImportError:  # pragma: no cover - only the hub's venv runs the hub
    Authenticator = LocalProcessSpawner = SimpleLocalProcessSpawner = object  # type: ignore[assignment,misc]

# Hub user names become Unix user names; keep them to what useradd accepts everywhere.
USERNAME_PATTERN = r"^[a-z][a-z0-9_-]{0,23}$"


def tmp_binder(folder: str | None) -> Callable[[], bool]:
    """A function for a preexec: give the process (and its children) a mount namespace of its own in
    which ``folder`` is mounted on ``/tmp``; False where that is not allowed (not root, or a container
    without CAP_SYS_ADMIN: then only TMPDIR points there). libc is looked up here, in the hub, so the
    child only calls it."""
    if not folder:
        return lambda: False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    unshare, mount = libc.unshare, libc.mount
    source = folder.encode()
    clone_newns, ms_rec, ms_private, ms_bind = 0x20000, 0x4000, 0x40000, 0x1000

    def bind() -> bool:
        return (unshare(clone_newns) == 0 and mount(b"none", b"/", None, ms_rec | ms_private, None) == 0
                and mount(source, b"/tmp", None, ms_bind, None) == 0)

    return bind


def under_tmp(paths: Iterable[Path | None]) -> bool:
    """Whether any of ``paths`` lies in /tmp, which a private /tmp mount would hide."""
    tmp = Path("/tmp").resolve()
    return any(path is not None and (path.resolve() == tmp or tmp in path.resolve().parents) for path in paths)


def limit_address_space(limit: int | None, then: Callable[[], None], processes: int = 0, cpu_seconds: int = 0,
                        nice: int = 0, tmp: str | None = None) -> Callable[[], None]:
    """A preexec function: cap the address space at ``limit`` bytes, the processes of the (new) Unix
    user at ``processes`` and the CPU time of each process at ``cpu_seconds`` (soft and hard, so the
    learner's code cannot raise them again; 0 or None: no cap), lower the priority by ``nice``, mount
    the folder ``tmp`` on /tmp for this process alone (``tmp_binder``), then run ``then`` (which may
    drop root: RLIMIT_NPROC counts the processes of the user it switches to)."""
    bind_tmp = tmp_binder(tmp)

    def preexec() -> None:
        bind_tmp()
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if processes:
            resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
        if cpu_seconds:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
        if nice:
            os.nice(nice)
        then()

    return preexec


class MemoryLimitMixin(HasTraits):
    """Enforce ``Spawner.mem_limit`` (e.g. ``"1500M"``) as RLIMIT_AS on the server and its kernels, and
    the process, CPU-time and priority limits of the module's docstring."""

    mem_limit: int | None
    process_limit = Integer(128, config=True, help="Processes (and threads) per learner's Unix user; 0: no cap.")
    cpu_seconds_limit = Integer(3600, config=True,
                                help="CPU seconds per process (a kernel that spins is ended); 0: no cap.")
    nice = Integer(10, config=True, help="Niceness of learners' processes (the hub keeps priority).")

    def make_preexec_fn(self, name: str) -> Callable[[], None]:
        tmp = self.private_tmp_dir()
        needed = [Path(self.cmd[0]) if self.cmd else None, Path(__file__).resolve()]  # type: ignore[attr-defined]
        if tmp and under_tmp(needed):
            # Mounting the learner's folder on /tmp would hide the server's own program (an installation
            # or checkout under /tmp): the server could not start. TMPDIR still points to the folder.
            self.log.warning("railkit is installed under /tmp: learners' servers keep the shared /tmp "  # type: ignore[attr-defined]
                             "(TMPDIR is still their own); install elsewhere for a private /tmp")
            tmp = None
        return limit_address_space(self.mem_limit, super().make_preexec_fn(name),  # type: ignore[misc]
                                   processes=self.process_limit, cpu_seconds=self.cpu_seconds_limit, nice=self.nice,
                                   tmp=tmp)

    def private_tmp_dir(self) -> str | None:
        """The learner's own folder to mount on /tmp (made by ``start``)."""
        return None

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
            # No login shell: the account exists only to run the learner's server.
            subprocess.run(["useradd", "--create-home", "--shell", "/usr/sbin/nologin", "--comment", "railkit learner",
                            name], check=True, capture_output=True)
            account = pwd.getpwnam(name)
            os.chmod(account.pw_dir, 0o700)  # learners' work stays their own
            return account

    async def start(self) -> Any:
        account = self.ensure_unix_user()
        private_tmp(Path(account.pw_dir) / ".tmp", account.pw_uid, account.pw_gid)
        return await super().start()

    def make_preexec_fn(self, name: str) -> Callable[[], None]:
        return super().make_preexec_fn(self.unix_name())

    def private_tmp_dir(self) -> str | None:
        return f"{pwd.getpwnam(self.unix_name()).pw_dir}/.tmp"

    def user_env(self, env: dict[str, str]) -> dict[str, str]:
        account = pwd.getpwnam(self.unix_name())
        env.update(USER=account.pw_name, HOME=account.pw_dir, SHELL="/bin/sh", TMPDIR=f"{account.pw_dir}/.tmp")
        return env


def private_tmp(folder: Path, uid: int = -1, gid: int = -1) -> Path:
    """A temporary folder only its owner may enter (the learner's ``TMPDIR``)."""
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chown(folder, uid, gid)
    os.chmod(folder, 0o700)
    return folder


class SharedUserSpawner(MemoryLimitMixin, SimpleLocalProcessSpawner):
    """All servers run as the hub's Unix user, each with its own home folder. Demo and tests only."""

    async def start(self) -> Any:
        home = Path(self.home_dir)
        home.mkdir(parents=True, exist_ok=True)
        private_tmp(home / ".tmp")
        return await super().start()

    def user_env(self, env: dict[str, str]) -> dict[str, str]:
        env = super().user_env(env)
        env["TMPDIR"] = str(Path(self.home_dir) / ".tmp")
        return env

    def private_tmp_dir(self) -> str | None:
        return str(Path(self.home_dir) / ".tmp")


# --- Memory per learner as a whole, without systemd: the memory guard ------------------------------------

UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def parse_bytes(text: str) -> int:
    """``1G``, ``1500M``, ``512K`` or a number of bytes (JupyterHub's units: powers of 1024)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)B?\s*", text.upper())
    if not match:
        raise ValueError(f"{text!r}: write a size such as 1G or 1500M")
    return int(float(match.group(1)) * UNITS[match.group(2)])


def private_bytes(pid: int) -> int:
    """The resident memory of a process that is not file-backed (its heap: what its code allocated), or 0."""
    try:
        resident, shared = (int(x) for x in Path(f"/proc/{pid}/statm").read_text().split()[1:3])
    except (OSError, ValueError):
        return 0
    return max(0, resident - shared) * resource.getpagesize()


def learners_processes(prefix: str) -> dict[str, list[tuple[int, int, str]]]:
    """Unix user -> [(pid, private bytes, command line)] for every user whose name starts with ``prefix``."""
    found: dict[str, list[tuple[int, int, str]]] = {}
    names: dict[int, str | None] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            owner = os.stat(f"/proc/{entry}").st_uid
            if owner not in names:
                try:
                    names[owner] = pwd.getpwuid(owner).pw_name
                except KeyError:
                    names[owner] = None
            name = names[owner]
            if name is None or not name.startswith(prefix):
                continue
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # gone meanwhile
            continue
        if command:  # (a zombie has none, and no memory)
            found.setdefault(name, []).append((int(entry), private_bytes(int(entry)), command))
    return found


def guard_once(limit: int, prefix: str = "jupyter-", log: Callable[[str], None] = print) -> list[int]:
    """End the largest processes (never the server itself) of each learner whose processes together hold more
    private memory than ``limit``, until they fit; the pids ended."""
    ended = []
    for name, processes in learners_processes(prefix).items():
        total = sum(size for _, size, _ in processes)
        if total <= limit:
            continue
        for pid, size, command in sorted(processes, key=lambda p: p[1], reverse=True):
            if total <= limit:
                break
            if "jupyterhub-singleuser" in command or size == 0:
                continue
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                continue
            log(f"railkit memory guard: {name} held {total / 2**30:.2f} GB (limit {limit / 2**30:.2f} GB): "
                f"ended process {pid} ({command[:80]}), {size / 2**30:.2f} GB")
            total -= size
            ended.append(pid)
    return ended


def guard(limit: int, prefix: str, interval: float) -> None:
    """``guard_once`` every ``interval`` seconds, for ever (a managed service of the hub). The hub stops a service
    with SIGINT, then SIGTERM: both end it at once, even when it was started with SIGINT ignored (a hub run in
    the background of a shell without job control), so a hub's stop never waits on the guard."""
    import signal
    import time

    def leave(signum: int, _frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGINT, leave)
    signal.signal(signal.SIGTERM, leave)
    print(f"railkit memory guard: {limit / 2**30:.2f} GB per learner ({prefix}*), checked every {interval:g} s",
          flush=True)
    while True:
        guard_once(limit, prefix, lambda line: print(line, flush=True))
        time.sleep(interval)


# --- The class tables' server, a managed service of the hub -----------------------------------------------

TABLES_SERVICE = "railkit-tables"  # the service's name: its access scope is access:services!service=railkit-tables
TEACHER_SCOPE = "custom:railkit-teacher"  # railkit.tables.hub.TEACHER_SCOPE (the hub's venv has no railkit)
TABLES_UNIX_USER = "railkit-tables"


def tables_service_user(data: Path) -> str | None:
    """Make the table server's data folder (mode 700); as root, the Unix user the server runs as: a system user
    of its own (made once, no login shell) owning that folder, so it never runs as root. Otherwise None: it runs
    as the hub's own user."""
    data.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return None
    try:
        account = pwd.getpwnam(TABLES_UNIX_USER)
    except KeyError:
        useradd = shutil.which("useradd") or "/usr/sbin/useradd"  # a root shell's PATH may lack /usr/sbin
        subprocess.run([useradd, "--system", "--no-create-home", "--home-dir", str(data), "--shell",
                        "/usr/sbin/nologin", "--comment", "railkit table server", TABLES_UNIX_USER],
                       check=True, capture_output=True)
        account = pwd.getpwnam(TABLES_UNIX_USER)
    os.chown(data, account.pw_uid, account.pw_gid)
    os.chmod(data, 0o700)
    return TABLES_UNIX_USER


# --- Accounts: the teacher's class list ------------------------------------------------------------------

ACCOUNTS_FILE = "accounts.json"  # in the hub's state folder (mode 600): name -> bcrypt hash, admin or not
MIN_PASSWORD = 8
# Generated passwords: no look-alike characters (0/o, 1/l/i), easy to copy from a printed list.
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def generate_password() -> str:
    """Ten random characters in two groups of five, e.g. ``kq7dm-3xwpa`` (about 49 bits)."""
    chars = "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(10))
    return f"{chars[:5]}-{chars[5:]}"


def hash_password(password: str) -> str:
    import bcrypt

    return bcrypt.hashpw(password.encode(), bcrypt.gensalt()).decode()


def password_matches(password: str, hashed: str) -> bool:
    import bcrypt

    try:
        return bcrypt.checkpw(password.encode(), hashed.encode())
    except ValueError:
        return False


def load_accounts(state: Path) -> dict[str, dict[str, Any]]:
    path = state / ACCOUNTS_FILE
    if not path.exists():
        return {}
    accounts: dict[str, dict[str, Any]] = json.loads(path.read_text())
    return accounts


def save_accounts(state: Path, accounts: dict[str, dict[str, Any]]) -> None:
    """Write the file (mode 600) through a temporary file, so a hub reading it never sees half of it."""
    state.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = state / (ACCOUNTS_FILE + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(accounts, out, indent=1, sort_keys=True)
    os.replace(tmp, state / ACCOUNTS_FILE)


def check_name(name: str) -> str:
    if not re.fullmatch(USERNAME_PATTERN, name):
        raise ValueError(f"{name!r}: names are 1-24 lowercase letters, digits, - or _, starting with a letter")
    return name


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"a password needs at least {MIN_PASSWORD} characters")
    return password


def set_account(state: Path, name: str, password: str, admin: bool = False) -> None:
    accounts = load_accounts(state)
    accounts[check_name(name)] = {"hash": hash_password(check_password(password)), "admin": admin}
    save_accounts(state, accounts)


def read_class_list(lines: Iterable[str]) -> list[tuple[str, str | None]]:
    """``name`` or ``name password`` per line; blank lines and ``#`` comments are skipped."""
    entries = []
    for number, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) > 2:
            raise ValueError(f"line {number}: write 'name' or 'name password'")
        entries.append((check_name(words[0].lower()), check_password(words[1]) if len(words) == 2 else None))
    return entries


def add_class(state: Path, entries: list[tuple[str, str | None]], reset: bool = False) -> list[tuple[str, str]]:
    """Add the learners; returns (name, password) for each account made or reset (generated passwords
    are shown only here). Existing learners keep their password unless ``reset``; admins are never
    changed from a class list."""
    accounts = load_accounts(state)
    made = []
    for name, password in entries:
        old = accounts.get(name)
        if old and (old.get("admin") or not reset):
            continue
        password = password or generate_password()
        accounts[name] = {"hash": hash_password(password), "admin": False}
        made.append((name, password))
    save_accounts(state, accounts)
    return made


class ClassListAuthenticator(Authenticator):  # type: ignore[misc,valid-type]
    """Only the accounts in ``<state>/accounts.json`` log in, with their own password; no sign-up, and
    no account is made by logging in. The file is read at every login, so learners added with
    ``accounts.sh`` can log in without restarting the hub. Deleting a user in the hub's admin panel
    does not touch the file (the learner keeps their password)."""

    state_dir = Unicode(config=True, help="The folder holding accounts.json.")

    def accounts(self) -> dict[str, dict[str, Any]]:
        return load_accounts(Path(self.state_dir))

    def check_allowed(self, username: str, authentication: Any = None) -> bool:
        return username in self.accounts()

    async def authenticate(self, handler: Any, data: dict[str, str]) -> dict[str, Any] | None:
        name = (data.get("username") or "").strip().lower()
        account = self.accounts().get(name)
        if account is None or not password_matches(data.get("password") or "", account["hash"]):
            self.log.warning("Refused login as %r: %s", name, "no such account" if account is None else "wrong password")
            return None
        return {"name": name, "admin": bool(account.get("admin"))}


# --- HTTPS: the hub's certificate -----------------------------------------------------------------------

def machine_names() -> tuple[list[str], list[str]]:
    """DNS names and IP addresses the hub may be reached at (for the certificate's subject names)."""
    names = {"localhost", socket.gethostname(), socket.getfqdn()}
    addresses = {"127.0.0.1", "::1"}
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5).stdout
        addresses.update(out.split())
    except (OSError, subprocess.SubprocessError):
        pass
    return sorted(n for n in names if n), sorted(addresses)


def self_signed_certificate(cert: Path, key: Path, days: int = 825) -> str:
    """Make a self-signed certificate for this machine's names and addresses (Python's ``cryptography``,
    pinned in the hub's venv); returns its SHA-256 fingerprint, which learners' browsers show."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    names, addresses = machine_names()
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0] if names[0] != "localhost" else names[-1]),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME, "railkit class hub")])
    now = datetime.datetime.now(datetime.UTC)
    alt = [x509.DNSName(n) for n in names] + [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    certificate = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        # Its own issuer: a client that trusts this file (tests, a school's managed browsers) needs it to
        # be a CA that may sign itself and nothing below it, as `openssl req -x509` makes them.
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, key_encipherment=False, content_commitment=False,
                                     data_encipherment=False, key_agreement=True, key_cert_sign=True, crl_sign=False,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(private.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(private.public_key()), critical=False)
        .sign(private, hashes.SHA256())
    )
    key.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return certificate.fingerprint(hashes.SHA256()).hex(":")


# --- The command line (deploy/accounts.sh) ----------------------------------------------------------------

def ask_password(name: str) -> str:
    """The password for ``name``: typed twice at a terminal, or one line on standard input."""
    if not sys.stdin.isatty():
        return check_password(sys.stdin.readline().rstrip("\n"))
    first = getpass.getpass(f"Password for {name} ({MIN_PASSWORD}+ characters): ")
    if getpass.getpass("The same again: ") != first:
        raise ValueError("the two passwords differ")
    return check_password(first)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="railkit class hub: accounts and certificate")
    parser.add_argument("--state", default=os.environ.get("RAILKIT_HUB_STATE")
                        or str(Path(os.environ.get("RAILKIT_HUB_PREFIX", "/opt/railkit-hub")) / "state"))
    commands = parser.add_subparsers(dest="command", required=True)
    admin = commands.add_parser("admin", help="make or change the teacher's (admin) account; asks for the password")
    admin.add_argument("name")
    add = commands.add_parser("add", help="add learners from a class list: 'name' or 'name password' per line "
                                          "('-': standard input); prints the passwords it generated, once")
    add.add_argument("file")
    add.add_argument("--reset", action="store_true", help="give learners already there a new password too")
    password = commands.add_parser("password", help="a new generated password for a learner (printed)")
    password.add_argument("name")
    remove = commands.add_parser("remove", help="remove accounts (they can no longer log in)")
    remove.add_argument("names", nargs="+")
    commands.add_parser("list", help="the accounts")
    cert = commands.add_parser("certificate", help="make a self-signed certificate unless one is there")
    cert.add_argument("--force", action="store_true")
    watch = commands.add_parser("guard", help="the memory guard: each learner's processes together under a limit")
    watch.add_argument("--limit", required=True, help="per learner, e.g. 1G")
    watch.add_argument("--prefix", default="jupyter-", help="the learners' Unix user names start with this")
    watch.add_argument("--interval", type=float, default=0.5, help="seconds between checks (one takes ~1-5 ms)")
    args = parser.parse_args(argv)
    if args.command == "guard":
        guard(parse_bytes(args.limit), args.prefix, args.interval)
        return 0
    state = Path(args.state)
    try:
        if args.command == "admin":
            set_account(state, check_name(args.name), ask_password(args.name), admin=True)
            print(f"admin account {args.name} is set")
        elif args.command == "add":
            lines = sys.stdin if args.file == "-" else Path(args.file).read_text().splitlines()
            made = add_class(state, read_class_list(lines), reset=args.reset)
            for name, pw in made:
                print(f"{name}\t{pw}")
            print(f"{len(made)} account(s) made; print or copy the list now, it is not kept", file=sys.stderr)
        elif args.command == "password":
            accounts = load_accounts(state)
            if args.name not in accounts or accounts[args.name].get("admin"):
                raise ValueError(f"{args.name} is not a learner's account (admins: use 'admin NAME')")
            new = generate_password()
            set_account(state, args.name, new)
            print(f"{args.name}\t{new}")
        elif args.command == "remove":
            accounts = load_accounts(state)
            for name in args.names:
                accounts.pop(name, None)
            save_accounts(state, accounts)
        elif args.command == "list":
            for name, account in sorted(load_accounts(state).items()):
                print(f"{name}\t{'admin' if account.get('admin') else 'learner'}")
        elif args.command == "certificate":
            tls = state / "tls"
            if args.force or not (tls / "hub.crt").exists():
                fingerprint = self_signed_certificate(tls / "hub.crt", tls / "hub.key")
                print(f"self-signed certificate {tls / 'hub.crt'}, SHA-256 fingerprint {fingerprint}")
    except ValueError as exc:
        print(f"accounts: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
