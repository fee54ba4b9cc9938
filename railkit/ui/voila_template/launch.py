"""``make run``: the class tables' server and the lessons (Voila, the ``room``), started, watched and stopped together.

``make run`` calls ``python -m railkit.ui.voila_template.launch`` with its variables. The launcher

1. makes the teacher key if there is none (``python -m railkit.classroom.teacher``, in ``.railkit/teacher.key``);
2. starts the table server (``python -m railkit.tables`` on 127.0.0.1:``TABLES_PORT``) and waits until it
   listens: if it cannot start (the port is taken, ``DB=`` is wrong) everything stops with its message;
3. starts Voila (``room``, in ``notebooks/``) with ``RAILKIT_TABLES_URL``, ``RAILKIT_SAVES_DIR`` and the club's
   board and deck (``BOARD=``, ``DECK=``), the class's pools (``CLASS=``, ``LESSON=``) and ``VOILA_ARGS``;
4. once Voila answers, the index's ready kernel is there and Voila's start-up lines have ended, prints the
   two links, last: the learners' (the index) and the teacher's (the teacher's room, with its key).
   Voila's own "running at" banner is left out (Voila's root address is a blank page);
5. watches both: **a table server that dies is started again** within a second (a line says so, with its
   exit code or signal, and another when it answers again; the lessons and the teacher's page reconnect by
   themselves). One that dies again within ``QUICK_DEATH_S`` of its start waits longer each time (up to
   ``MAX_DELAY_S``) so that a broken database does not spin. Voila stopping stops everything;
6. on Ctrl-C (SIGINT), SIGTERM or SIGHUP stops both (Voila shuts its kernels down) and waits for them;
   whatever is still running after ``STOP_GRACE_S`` is killed, kernels included. The children run in
   process groups of their own (the terminal's Ctrl-C reaches only the launcher, which stops them in
   order) and are told to stop if the launcher itself is killed (Linux's parent-death signal), as the
   launcher is when ``make`` is.

The launcher is one thread: it reads both children's output through ``selectors`` and prints it whole lines
at a time. It imports nothing of ``railkit.tables`` (the layers: the teaching layer and the table server are
independent); it runs it.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from railkit.errors import InputError
from railkit.ui.voila_template import class_config

NOTEBOOKS = class_config.NOTEBOOKS
QUICK_DEATH_S = 10.0  # a table server that dies sooner than this after its start is restarted more slowly
FIRST_DELAY_S = 0.2  # before restarting a table server that ran for a while
MAX_DELAY_S = 30.0
STOP_GRACE_S = 25.0  # Voila shuts every kernel down before it exits
INDEX_WAIT_S = 60.0  # after Voila answers, how long the links wait for the index's ready kernel
QUIET_S = 3.0  # ... and for Voila's start-up lines to end (the other pools), so that the links come last
BANNER = "is running at:"  # Voila's own banner: this line and the address after it are not printed
INDEX_READY = "Kernel pool of index.ipynb is filled"
PR_SET_PDEATHSIG = 1


def log(text: str) -> None:
    print(f"[railkit] {text}", flush=True)


def how_it_ended(code: int) -> str:
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


def reachable_host(host: str) -> str:
    """The address to print for ``host``: this machine's address on its network for 0.0.0.0 (no packet is sent)."""
    if host not in ("", "0.0.0.0", "::"):
        return f"[{host}]" if ":" in host else host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def stop_with_parent() -> Callable[[], None] | None:
    """A preexec function: the child gets SIGTERM when the launcher dies, even by ``kill -9`` (Linux)."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def descendants(root: int) -> list[int]:
    """Every live descendant of ``root`` (Voila's kernels), read from /proc; [] where there is none."""
    parents: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if entry.isdigit():
            try:
                parents[int(entry)] = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                found.append(pid)
                frontier.append(pid)
    return found


@dataclass
class Child:
    """A child process whose output the launcher passes on, line by line."""

    name: str
    cmd: list[str]
    env: dict[str, str]
    cwd: Path | None = None
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    answered: bool = False  # listened since its last start
    partial: bytes = b""
    skip_next: bool = False  # the line after Voila's banner (its address)
    last_line: float = 0.0  # when the child last said something (monotonic)
    seen: list[str] = field(default_factory=list)  # lines the launcher waits for

    def start(self, selector: selectors.BaseSelector) -> None:
        self.proc = subprocess.Popen(self.cmd, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, process_group=0,
                                     preexec_fn=stop_with_parent())
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        selector.register(self.proc.stdout, selectors.EVENT_READ, self)
        self.started, self.answered, self.partial = time.monotonic(), False, b""

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def read(self, stream: IO[bytes], selector: selectors.BaseSelector) -> None:
        """Pass on the whole lines that have come (all that is left once the child has closed its output)."""
        try:
            chunk = os.read(stream.fileno(), 65536)
        except BlockingIOError:
            return
        if not chunk:
            selector.unregister(stream)
            stream.close()
            chunk, self.partial = self.partial + b"\n" if self.partial else b"", b""
        *lines, self.partial = (self.partial + chunk).split(b"\n")
        for raw in lines:
            self.show(raw.decode("utf-8", "replace"))

    def show(self, line: str) -> None:
        self.last_line = time.monotonic()
        if self.skip_next:
            self.skip_next = False
            if line.startswith(("http://", "https://")):
                return
        if BANNER in line:
            self.skip_next = True
            return
        if INDEX_READY in line:
            self.seen.append(INDEX_READY)
        print(line, flush=True)


class Launcher:
    """The two children and the loop that watches them (see the module)."""

    def __init__(self, tables: Child, voila: Child, tables_port: int, voila_host: str, voila_port: int,
                 links: tuple[str, str]) -> None:
        self.tables, self.voila = tables, voila
        self.tables_port, self.voila_probe, self.voila_port = tables_port, voila_host, voila_port
        self.links = links
        self.selector = selectors.DefaultSelector()
        self.stop_signal: int | None = None
        self.restart_at: float | None = None
        self.delay = FIRST_DELAY_S

    # -- signals -----------------------------------------------------------------------------------------
    def _on_signal(self, signum: int, _frame: object) -> None:
        if self.stop_signal is not None:  # a second Ctrl-C: no more waiting
            self.kill_all()
        self.stop_signal = signum

    def catch_signals(self) -> None:
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_read, False)
        os.set_blocking(wake_write, False)
        signal.set_wakeup_fd(wake_write)  # a signal wakes the select below at once
        self.selector.register(wake_read, selectors.EVENT_READ, None)
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, self._on_signal)

    # -- the loop ----------------------------------------------------------------------------------------
    def pump(self, timeout: float) -> None:
        for key, _ in self.selector.select(timeout):
            if key.data is None:  # the signal pipe
                try:
                    os.read(key.fd, 512)
                except BlockingIOError:
                    pass
            else:
                key.data.read(key.fileobj, self.selector)

    def start_tables(self) -> bool:
        """Start the table server and wait until it listens; False (its message shown) when it cannot."""
        self.tables.start(self.selector)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.stop_signal is None:
            self.pump(0.1)
            if listening("127.0.0.1", self.tables_port):
                self.tables.answered = True
                return True
            if not self.tables.running:
                break
        self.drain()
        return False

    def run(self) -> int:
        self.catch_signals()
        for name, host, port in (("TABLES_PORT", "127.0.0.1", self.tables_port),
                                 ("PORT", self.voila_probe, self.voila_port)):
            if listening(host, port):
                log(f"{name}={port} is taken by another program (an earlier `make run` still running?): stop it, "
                    f"or choose another port: make run {name}=...")
                return 1
        if not self.start_tables():
            if self.stop_signal is None:
                code = self.tables.proc.poll() if self.tables.proc else None
                log(f"the table server did not start ({how_it_ended(code) if code is not None else 'no answer in 60 s'}):"
                    f" is TABLES_PORT={self.tables_port} taken by another program, or is DB= wrong? See its message above.")
            self.stop()
            return 1
        self.voila.start(self.selector)
        ready_at: float | None = None
        printed = False
        while self.stop_signal is None:
            self.pump(0.2)
            now = time.monotonic()
            if not self.voila.running:
                code = self.voila.proc.poll() if self.voila.proc else -1
                log(f"Voila stopped ({how_it_ended(code or 0)}): is PORT={self.voila_port} taken by another program? "
                    "Stopping the table server.")
                self.stop()
                return 1
            self.watch_tables(now)
            if ready_at is None and listening(self.voila_probe, self.voila_port):
                ready_at = now
            settled = self.voila.seen and now - self.voila.last_line > QUIET_S
            if ready_at is not None and not printed and (settled or now - ready_at > INDEX_WAIT_S):
                self.print_links()
                printed = True
        log(f"stopping ({signal.Signals(self.stop_signal).name}): the lessons, their kernels and the table server")
        self.stop()
        log("stopped")
        return 0

    def watch_tables(self, now: float) -> None:
        """Restart a table server that has died; say when it answers again."""
        if self.restart_at is None and not self.tables.running:
            code = self.tables.proc.poll() if self.tables.proc else 0
            ran = now - self.tables.started
            self.delay = FIRST_DELAY_S if ran >= QUICK_DEATH_S else min(MAX_DELAY_S, max(1.0, self.delay * 2))
            self.drain()
            log(f"the table server stopped ({how_it_ended(code or 0)}) after {ran:.0f} s; starting it again"
                + (f" in {self.delay:.0f} s" if self.delay >= 1 else ""))
            self.restart_at = now + self.delay
        elif self.restart_at is not None and now >= self.restart_at:
            self.restart_at = None
            self.tables.start(self.selector)
            log(f"the table server is starting again (pid {self.tables.proc.pid if self.tables.proc else '?'})")
        elif self.tables.running and not self.tables.answered and listening("127.0.0.1", self.tables_port):
            self.tables.answered = True
            log(f"the table server answers again, {now - self.tables.started:.1f} s after its restart")

    def drain(self) -> None:
        """Pass on what a child that has ended still had to say."""
        for key in list(self.selector.get_map().values()):
            if key.data is not None and not key.data.running:
                for _ in range(100):
                    if key.fileobj not in [k.fileobj for k in self.selector.get_map().values()]:
                        break
                    key.data.read(key.fileobj, self.selector)

    def print_links(self) -> None:
        learners, teacher = self.links
        print(flush=True)
        log("ready. Ctrl-C stops the lessons and the table server.")
        print(f"  Learners: {learners}", flush=True)
        print(f"  Teacher:  {teacher}   (keep this link to yourself)", flush=True)
        print(flush=True)

    # -- stopping ----------------------------------------------------------------------------------------
    def stop(self) -> None:
        """SIGTERM both (Voila stops its kernels), wait, then kill what is left, kernels included."""
        self.restart_at = None
        kernels: list[int] = []
        for child in (self.voila, self.tables):
            if child.running and child.proc is not None:
                kernels += descendants(child.proc.pid)
                child.proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_S
        while (self.voila.running or self.tables.running) and time.monotonic() < deadline:
            self.pump(0.1)
        self.kill_all(kernels)
        self.drain()

    def kill_all(self, also: Sequence[int] = ()) -> None:
        pids = list(also)
        for child in (self.voila, self.tables):
            if child.proc is not None:
                pids += descendants(child.proc.pid)
                if child.proc.poll() is None:
                    log(f"{child.name} did not stop in time: killing it")
                    child.proc.kill()
                    child.proc.wait(5)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def teacher_key(key_file: Path) -> str:
    """The teacher key, made in ``key_file`` on the first start (``railkit.classroom.teacher``; RAILKIT_TEACHER_KEY wins)."""
    done = subprocess.run([sys.executable, "-m", "railkit.classroom.teacher", str(key_file)], capture_output=True,
                          text=True, timeout=60)
    if done.returncode:
        raise InputError(done.stderr.strip() or f"the teacher key in {key_file} could not be read")
    return done.stdout.strip()


def parse(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]]:
    """The launcher's options; what follows ``--`` goes to Voila (``VOILA_ARGS``)."""
    argv = list(argv)
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    own = argv[:argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(prog="python -m railkit.ui.voila_template.launch", allow_abbrev=False,
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="where Voila listens (HOST=)")
    parser.add_argument("--port", type=int, default=8866, help="Voila's port (PORT=)")
    parser.add_argument("--tables-port", type=int, default=8867, help="the table server's port, on loopback (TABLES_PORT=)")
    parser.add_argument("--db", required=True, help="the table server's database URL (DB=)")
    parser.add_argument("--teacher-key-file", type=Path, required=True)
    parser.add_argument("--saves-dir", type=Path, required=True, help="where the lessons keep games (RAILKIT_SAVES_DIR)")
    parser.add_argument("--board", default="", help="a club's own Union Pacific board file (BOARD=)")
    parser.add_argument("--deck", default="", help="a club's own Kap bis Kairo deck file (DECK=)")
    parser.add_argument("--class", dest="class_size", default="", help="learners (CLASS=)")
    parser.add_argument("--lesson", default="", help="the lesson the class opens (LESSON=)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS)
    return parser.parse_args(own), extra


def build(args: argparse.Namespace, extra: list[str]) -> Launcher:
    pools = class_config.voila_args(args.class_size or None, args.lesson or None, args.notebooks)
    if pools:
        print(class_config.memory_note(class_config.pools_config(int(args.class_size), args.lesson or None,
                                                                 args.notebooks), args.notebooks), flush=True)
    args.teacher_key_file.parent.mkdir(parents=True, exist_ok=True)
    key = teacher_key(args.teacher_key_file)
    base = {**os.environ, "PYTHONUNBUFFERED": "1"}
    tables = Child("the table server", [sys.executable, "-m", "railkit.tables", "--host", "127.0.0.1", "--port",
                                        str(args.tables_port), "--db", args.db, "--teacher-key-file",
                                        str(args.teacher_key_file)], base)
    lessons_env = {**base, "RAILKIT_TABLES_URL": f"http://127.0.0.1:{args.tables_port}",
                   "RAILKIT_SAVES_DIR": str(args.saves_dir.resolve())}
    for variable, path in (("RAILKIT_UP_BOARD", args.board), ("RAILKIT_KK_DECK", args.deck)):
        if path:
            lessons_env[variable] = str(Path(path).resolve())
    voila = Child("Voila", [sys.executable, "-m", "railkit.ui.voila_template.room", "--no-browser",
                            f"--Voila.ip={args.host}", f"--port={args.port}", "--Voila.port_retries=0", *pools, *extra,
                            "."], lessons_env, cwd=args.notebooks)
    address = f"http://{reachable_host(args.host)}:{args.port}/voila/render"
    links = (f"{address}/index.ipynb", f"{address}/teacher/teacher.ipynb?key={key}")
    probe = "127.0.0.1" if args.host in ("", "0.0.0.0") else ("::1" if args.host == "::" else args.host)
    return Launcher(tables, voila, args.tables_port, probe, args.port, links)


def main(argv: Sequence[str] | None = None) -> int:
    args, extra = parse(sys.argv[1:] if argv is None else argv)
    try:
        launcher = build(args, extra)
    except InputError as exc:
        print(f"make run: {exc}", file=sys.stderr)
        return 2
    stop_on_parents_death = stop_with_parent()  # make killed (even -9): the launcher stops everything too
    if stop_on_parents_death is not None and os.getppid() != 1:
        stop_on_parents_death()
    log("starting the table server and the lessons; the links follow once they are ready")
    return launcher.run()


if __name__ == "__main__":
    sys.exit(main())
