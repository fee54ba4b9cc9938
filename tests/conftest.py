"""Shared fixtures for the notebook, Voila and browser tests (reusable by every lesson's tests).

* ``voila_server`` (session): Voila serving ``notebooks/`` in tree mode from that folder, so it reads
  ``notebooks/voila.json`` exactly as ``make run`` does; on a free loopback port. Ready once every
  notebook's preheated kernel pool is filled and has finished pre-rendering (``wait_until_idle``).
  ``.url(nb)`` gives a notebook's app URL, ``.log()`` the server log.
* Every server started here logs to a file of its own in ``tests/artifacts/`` (port and process id in
  the name, e.g. ``voila_server-41523-pid812.log``), so concurrent test sessions never share one.
* ``browser`` (session): headless Debian Chromium through Playwright. Missing Chromium fails the browser
  tests with the way to install it (a skipped browser test would hide a broken app).
* ``offline_page``: a fresh page whose every request to a non-loopback host is aborted and recorded;
  the test fails at teardown if any was attempted (the apps must work offline).
* ``open_app(page, url, ready=".railkit-app")``: navigate and wait until the app is interactive.
* Page helpers for the lesson tests: ``wait_text``, ``fill``, ``shot``.
* ``kernel_pids(server)``: the kernels a server has started and that are running now (read from /proc).
* ``ARTIFACTS``: where screenshots go (``tests/artifacts/``, gitignored).

Tests that use the Voila server carry ``@pytest.mark.xdist_group("voila")`` so that ``pytest -n 2``
(with ``--dist loadgroup`` from pyproject) runs them in one worker against one server.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS_DIR = ROOT / "notebooks"
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = Path(os.environ.get("RAILKIT_CHROMIUM", "/usr/lib/chromium/chromium"))
VENV_BIN = Path(sys.executable).parent
ERROR_PAGE_TEXT = "There was an error when executing cell"
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
APP_CALL = re.compile(r"\b[A-Z]\w*App\(")


def notebooks() -> list[Path]:
    """Every lesson notebook (checkpoints excluded), sorted."""
    return sorted(p for p in NOTEBOOKS_DIR.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def notebook_ids() -> list[str]:
    return [p.relative_to(NOTEBOOKS_DIR).as_posix() for p in notebooks()]


def has_app(nb_path: Path) -> bool:
    """True when a code cell builds a railkit app (``SomethingApp(...)``): wait for ``.railkit-app``."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    return any(c["cell_type"] == "code" and APP_CALL.search("".join(c["source"])) for c in nb["cells"])


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url: str, timeout: float = 60.0) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 - loopback only
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


@dataclass
class Server:
    """A server subprocess in its own process group; ``stop()`` ends that group only."""

    proc: subprocess.Popen
    base: str
    log_path: Path
    token: str = ""
    extra: dict = field(default_factory=dict)

    def url(self, notebook: str) -> str:
        return f"{self.base}/voila/render/{notebook}"

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        pgid = os.getpgid(self.proc.pid)
        os.killpg(pgid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(pgid, signal.SIGKILL)
            self.proc.wait(timeout=5)
        try:  # kernels started by the server share its group
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, someone else's
        pass
    return True


def own_log_path(log_path: Path, base: str) -> Path:
    """``log_path`` made the server's own: ``voila_server.log`` becomes ``voila_server-<port>-pid<pid>.log``
    (the server's port, this test process's id), so concurrent test sessions never overwrite or read
    each other's log. Such logs left by test processes that have ended are removed."""
    stem, suffix = log_path.stem, log_path.suffix
    for old in log_path.parent.glob(f"{stem}-*-pid*{suffix}"):
        pid = old.name[: len(old.name) - len(suffix)].rsplit("-pid", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            old.unlink(missing_ok=True)
    return log_path.with_name(f"{stem}-{urlparse(base).port}-pid{os.getpid()}{suffix}")


def start_server(cmd: list[str], cwd: Path, base: str, ready_path: str, log_path: Path,
                 timeout: float = 120.0, env: dict | None = None) -> Server:
    """Start ``cmd`` and wait until ``base + ready_path`` answers; it logs to ``own_log_path(log_path)``."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_path = own_log_path(log_path, base)
    log = open(log_path, "w")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, **(env or {})})
    server = Server(proc=proc, base=base, log_path=log_path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited ({proc.returncode}):\n{server.log()[-3000:]}")
        try:
            status, _ = http_get(base + ready_path, timeout=5)
            if status < 500:
                return server
        except OSError:
            pass
        time.sleep(0.3)
    server.stop()
    raise RuntimeError(f"server not ready after {timeout}s:\n{server.log()[-3000:]}")


def start_voila(folder: Path, log_path: Path, extra_args: list[str] | None = None) -> Server:
    """Voila in tree mode, started from ``folder`` (so it reads ``folder/voila.json``), like ``make run``."""
    port = free_port()
    cmd = [str(VENV_BIN / "voila"), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}", *(extra_args or []), "."]
    return start_server(cmd, folder, f"http://127.0.0.1:{port}", "/voila/tree", log_path)


def wait_for_pools(server: Server, names: list[str], timeout: float = 120.0) -> None:
    """Wait until Voila reports the preheated kernel pool of each notebook filled (log lines)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = server.log()
        if all(f"Kernel pool of {n} is filled" in log for n in names):
            return
        time.sleep(0.5)


def _processes() -> dict[int, tuple[int, int, bytes]]:
    """pid -> (parent pid, CPU ticks used, command line) of every process, from /proc."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    cmdline = f.read()
                found[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]), cmdline)
            except (OSError, IndexError, ValueError):
                continue
    return found


def _tree(root: int, processes: dict[int, tuple[int, int, bytes]]) -> set[int]:
    """``root`` and its descendants (a server and the kernels it started)."""
    pids, changed = {root}, True
    while changed:
        changed = False
        for pid, (ppid, _cpu, _cmd) in processes.items():
            if ppid in pids and pid not in pids:
                pids.add(pid)
                changed = True
    return pids


def _tree_cpu(root: int) -> int:
    """CPU ticks used so far by process ``root`` and its descendants (a server and its kernels), or -1
    when ``root`` has gone. Reads /proc."""
    processes = _processes()
    if root not in processes:
        return -1
    return sum(processes[pid][1] for pid in _tree(root, processes) if pid in processes)


def kernel_pids(server: Server) -> set[int]:
    """The kernels ``server`` has started that are running now (Voila has no kernel list to ask)."""
    processes = _processes()
    return {pid for pid in _tree(server.proc.pid, processes)
            if pid in processes and b"ipykernel_launcher" in processes[pid][2]}


def wait_until_idle(server: Server, timeout: float = 240.0, quiet: float = 3.0) -> None:
    """Wait until the Voila server and its kernels use no CPU for ``quiet`` seconds.

    Voila logs “Kernel pool of … is filled” (``wait_for_pools``) once the pool kernels have *started*;
    each then executes its notebook (pre-rendering), and again for the kernel that replaces one a page
    has taken. With Voila 0.5.13, a page requested while its pool kernel is still executing a widget app
    could hang on a busy machine, so wait for the pre-rendering to finish. Reads /proc: elsewhere than
    Linux it returns at once.
    """
    if not os.path.isdir("/proc"):
        return
    root = server.proc.pid
    deadline = time.monotonic() + timeout
    last, calm_since = _tree_cpu(root), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = _tree_cpu(root)
        if now - last > 5:  # more than 0.05 s of CPU in half a second: still rendering
            calm_since = time.monotonic()
        last = now
        if time.monotonic() - calm_since >= quiet:
            return


@pytest.fixture(scope="session")
def voila_server() -> Iterator[Server]:
    server = start_voila(NOTEBOOKS_DIR, ARTIFACTS / "voila_server.log")
    try:
        wait_for_pools(server, notebook_ids())  # every pool kernel has started ...
        wait_until_idle(server)  # ... and has run its notebook
        yield server
    finally:
        server.stop()


def chromium_or_fail() -> Path:
    if CHROMIUM.exists():
        return CHROMIUM
    pytest.fail(f"Chromium not found at {CHROMIUM}: install it with `apt-get install -y chromium` (.ci/run does "
                "this in CI), or point RAILKIT_CHROMIUM at a Chromium binary")


@pytest.fixture(scope="session")
def browser():
    chromium = chromium_or_fail()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(chromium), headless=True)
        try:
            yield b
        finally:
            b.close()


@dataclass
class OfflinePage:
    page: object
    blocked: list[str]


def _is_loopback(url: str) -> bool:
    if url.startswith(("data:", "blob:", "about:")):
        return True
    return urlparse(url).hostname in LOOPBACK_HOSTS


def make_offline_page(browser, viewport=None) -> tuple[object, object, list[str]]:
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 1600})
    page = context.new_page()
    blocked: list[str] = []

    def route(r):
        if _is_loopback(r.request.url):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    return context, page, blocked


@pytest.fixture
def offline_page(browser) -> Iterator[OfflinePage]:
    context, page, blocked = make_offline_page(browser)
    holder = OfflinePage(page=page, blocked=blocked)
    try:
        yield holder
    finally:
        context.close()
    assert not blocked, f"the page tried to reach other hosts (must work offline): {blocked}"


def open_app(page, url: str, ready: str | None = ".railkit-app", timeout: float = 90.0) -> float:
    """Open a Voila page and wait until it is interactive; returns the seconds it took.

    Interactive = Voila has rendered all cells (``#rendered_cells`` visible) and, when ``ready`` is
    given, that element (the app's root) and at least one of its controls (button, input, select,
    textarea) are visible; any one, since an app may start with some controls hidden.
    """
    start = time.monotonic()
    page.goto(url, timeout=timeout * 1000)
    page.wait_for_selector("#rendered_cells", state="visible", timeout=timeout * 1000)
    if ready:
        page.wait_for_selector(ready, state="visible", timeout=timeout * 1000)
        page.wait_for_selector(f"{ready} :is(button, input, select, textarea):visible", state="visible",
                               timeout=timeout * 1000)
    return time.monotonic() - start


def wait_text(page, selector: str, text: str, timeout: float = 60000) -> None:
    """Wait (``timeout`` ms) until the first element matching ``selector`` shows ``text``."""
    page.wait_for_function(
        "([sel, text]) => { const el = document.querySelector(sel); return el && el.innerText.includes(text); }",
        arg=[selector, text], timeout=timeout)


def fill(page, css: str, value: str) -> None:
    """Type ``value`` into the text field of the widget with class ``css``; Tab makes ipywidgets sync it."""
    field = page.locator(f"{css} input")
    field.fill(value)
    field.press("Tab")


def shot(page, name: str, selector: str = ".railkit-app") -> None:
    """Screenshot the viewport into ``ARTIFACTS/name`` with ``selector`` scrolled to its top (Voila scrolls
    inside a container, so a full-page screenshot would only show the lesson text)."""
    page.locator(selector).first.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(200)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=False)


def page_errors(page) -> list[str]:
    """Signs of a broken page: Voila's error text, a traceback, a Python error output."""
    text = page.inner_text("body")
    problems = []
    if ERROR_PAGE_TEXT in text:
        problems.append(ERROR_PAGE_TEXT)
    if "Traceback (most recent call last)" in text:
        problems.append("a traceback is shown")
    if page.query_selector('[data-mime-type="application/vnd.jupyter.stderr"]'):
        problems.append("stderr output is shown: " + page.inner_text('[data-mime-type="application/vnd.jupyter.stderr"]')[:300])
    return problems
