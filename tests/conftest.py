"""Shared fixtures for the notebook, Voila and browser tests (reusable by every lesson's tests).

* ``voila_server`` (session): Voila serving ``notebooks/`` in tree mode from that folder, so it reads
  ``notebooks/voila.json`` exactly as ``make run`` does; on a free loopback port. ``.url(nb)`` gives
  a notebook's app URL, ``.log()`` the server log.
* ``browser`` (session): headless Debian Chromium through Playwright. Missing Chromium skips the
  browser tests with the reason when ``CI`` is unset and fails them when ``CI=true``.
* ``offline_page``: a fresh page whose every request to a non-loopback host is aborted and recorded;
  the test fails at teardown if any was attempted (the apps must work offline).
* ``open_app(page, url, ready=".railkit-app")``: navigate and wait until the app is interactive.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator
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


def start_server(cmd: list[str], cwd: Path, base: str, ready_path: str, log_path: Path,
                 timeout: float = 120.0, env: dict | None = None) -> Server:
    log_path.parent.mkdir(parents=True, exist_ok=True)
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


@pytest.fixture(scope="session")
def voila_server() -> Iterator[Server]:
    server = start_voila(NOTEBOOKS_DIR, ARTIFACTS / "voila_server.log")
    try:
        wait_for_pools(server, notebook_ids())
        yield server
    finally:
        server.stop()


def chromium_or_skip() -> Path:
    if CHROMIUM.exists():
        return CHROMIUM
    reason = (f"Chromium not found at {CHROMIUM}: install it with `apt-get install -y chromium` "
              "(.ci/run does this in CI)")
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(reason + " — browser tests are required in CI")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    chromium = chromium_or_skip()
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
    given, that element (the app's root) and at least one of its buttons or inputs are visible.
    """
    start = time.monotonic()
    page.goto(url, timeout=timeout * 1000)
    page.wait_for_selector("#rendered_cells", state="visible", timeout=timeout * 1000)
    if ready:
        page.wait_for_selector(ready, state="visible", timeout=timeout * 1000)
        page.wait_for_selector(f"{ready} :is(button, input, select)", state="visible", timeout=timeout * 1000)
    return time.monotonic() - start


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
