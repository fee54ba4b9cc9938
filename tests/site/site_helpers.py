"""Helpers for the static site's browser test and benchmark (``tests/site/``, ``benchmarks/site.py``).

* ``build_site()``: ``make -f Makefile -f site.mk site`` once (the build skips itself when nothing
  changed, so a second session costs a second); returns ``site/``.
* ``SiteServer``: tools/site/serve.py in a thread on a free loopback port, counting the bytes it sends.
* ``offline_context(browser)``: a browser context whose requests to any non-loopback host are aborted
  and recorded (Chromium's own background services are aborted but not counted).
* ``open_lesson(page, url)``: navigate and wait until the lesson is usable; ``problems(page, log)``.
"""

from __future__ import annotations

import collections
import fcntl
import functools
import http.server
import importlib.util
import json
import os
import re
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent.parent
SITE = ROOT / "site"
NOTEBOOKS = ROOT / "notebooks"
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
# Chromium talks to these on its own (updates, safe browsing, field trials); not the page's doing.
CHROMIUM_SERVICES = re.compile(r"(^|\.)(googleapis\.com|gvt1\.com|clients\d?\.google\.com|accounts\.google\.com)$")
APP_CALL = re.compile(r"\b[A-Z]\w*App\(")
APP_READY = ".railkit-app :is(button, input, select, textarea):visible"


def lessons() -> list[str]:
    """Every notebook the site is built from (the build takes whatever ``notebooks/*.ipynb`` exist)."""
    return sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


def page_url(base: str, notebook: str) -> str:
    return f"{base}/voici/render/{notebook[:-len('.ipynb')]}.html"


def code_cells(notebook: str) -> list[str]:
    nb = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]


def has_app(notebook: str) -> bool:
    return any(APP_CALL.search(src) for src in code_cells(notebook))


def build_site(timeout: float = 1200) -> Path:
    """Build ``site/`` with the Make target (needs python3, make, node/npm, PyPI and npm)."""
    missing = [tool for tool in ("make", "npm", "node") if shutil.which(tool) is None]
    if missing:
        raise RuntimeError(f"building the static site needs {', '.join(missing)}")
    # pytest-xdist workers each open a session: one builds while the others wait on the lock, then
    # find the site up to date (the build skips itself when nothing changed).
    lock_path = ROOT / ".cache" / "site-build.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        result = subprocess.run(["make", "-f", "Makefile", "-f", "site.mk", "site"], cwd=ROOT, capture_output=True,
                                text=True, timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"make site failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return SITE


def _serve_module():
    spec = importlib.util.spec_from_file_location("railkit_site_serve", ROOT / "tools" / "site" / "serve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class SiteServer:
    """The site served as ``make serve-site`` serves it (gzip included), in a thread; ``sent`` counts the
    bytes of each response body by path (what crossed the wire)."""

    directory: Path
    sent: collections.Counter = field(default_factory=collections.Counter)

    def __post_init__(self) -> None:
        serve, sent = _serve_module(), self.sent

        class Counting(serve.Handler):
            def copyfile(self, source, outputfile):  # noqa: ANN001 - the base class's signature
                data = source.read()
                sent[urlparse(self.path).path] += len(data)
                outputfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(self.directory)))
        self.base = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@dataclass
class Offline:
    blocked: list[str] = field(default_factory=list)  # the page's attempts at other hosts
    background: list[str] = field(default_factory=list)  # Chromium's own services


# For a browser launched with these arguments every host but loopback is unknown: requests to them
# fail without routing (Playwright's routing turns the HTTP cache off, which a benchmark of cached
# loads cannot have).
NO_OTHER_HOSTS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"]


def guard_offline(context, route: bool = True) -> Offline:
    """Record every request of ``context`` (pages, workers) to a host that is not loopback, and abort it
    (``route=False``: only record; the browser must then be launched with ``NO_OTHER_HOSTS``)."""
    record = Offline()

    def outside(url: str) -> bool:
        host = urlparse(url).hostname or ""
        if url.startswith(("data:", "blob:", "about:")) or host in LOOPBACK:
            return False
        (record.background if CHROMIUM_SERVICES.search(host) else record.blocked).append(url)
        return True

    if route:
        context.route("**/*", lambda r: r.abort() if outside(r.request.url) else r.continue_())
    else:
        context.on("request", lambda r: outside(r.url))
    return record


def watch(page) -> list[str]:
    """Collect the page's uncaught errors and console errors (a kernel's failure shows there)."""
    log: list[str] = []

    def console(message) -> None:
        # A missing file is reported below with its address; the console's own line does not name it.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            log.append(f"console {message.type}: {message.text[:500]}")

    def response(r) -> None:
        # The kernel's /drive asks the site's contents API (api/...) whether a file exists, e.g. when
        # IPython's Markdown() checks if its text names a file: "no" is a 404 and harmless.
        if r.status >= 400 and not (r.status == 404 and urlparse(r.url).path.startswith("/api/")):
            log.append(f"HTTP {r.status}: {r.url}")

    page.on("pageerror", lambda e: log.append(f"page error: {e}"))
    page.on("console", console)
    page.on("response", response)
    return log


LAST_CELL_SHOWN = """() => {
  const cells = document.querySelectorAll('.jp-CodeCell');
  return cells.length > 0 && cells[cells.length - 1].querySelector('.jp-OutputArea-output') !== null;
}"""


def open_lesson(page, url: str, notebook: str, timeout: float = 120.0) -> float:
    """Open a lesson's page and wait until it is usable; returns the seconds it took.

    Usable: for an app, its root and one of its controls are visible (the kernel has run the app);
    otherwise, the last code cell shows an output (the cells run in order; a code lesson's cells that only define
    things show none), or, without code cells, the page is rendered."""
    start = time.monotonic()
    page.goto(url, timeout=timeout * 1000)
    if has_app(notebook):
        page.wait_for_selector(APP_READY, timeout=timeout * 1000)
    else:
        page.wait_for_selector("#rendered_cells", state="visible", timeout=timeout * 1000)
        if code_cells(notebook):
            page.wait_for_function(LAST_CELL_SHOWN, timeout=timeout * 1000)
    return time.monotonic() - start


def problems(page, log: list[str]) -> list[str]:
    """Signs that a lesson is broken: a traceback or error output on the page, console errors."""
    found = list(log)
    text = page.inner_text("body")
    for sign in ("Traceback (most recent call last)", "There was an error when executing cell", "could not be read"):
        if sign in text:
            found.append(f"the page shows {sign!r}")
    error_outputs = '[data-mime-type="application/vnd.jupyter.stderr"], .jp-OutputArea-output[data-mime-type*="error"]'
    for el in page.query_selector_all(error_outputs):
        found.append("error output: " + el.inner_text()[:300])
    return found


def chromium_memory_mb(root_pid: int | None = None) -> float:
    """Resident memory (MB) of every Chromium process under ``root_pid`` (default: this process)."""
    root_pid = root_pid or os.getpid()
    parents, rss, exe = {}, {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/status") as f:
                rss[int(entry)] = next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
            exe[int(entry)] = os.readlink(f"/proc/{entry}/exe")
        except (OSError, ValueError, IndexError):
            continue

    def under(pid: int) -> bool:
        while pid > 1:
            if pid == root_pid:
                return True
            pid = parents.get(pid, 0)
        return False

    return sum(rss[p] for p in rss if "chromium" in exe.get(p, "") and under(p)) / 1024
