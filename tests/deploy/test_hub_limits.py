"""A learner on the class hub cannot lock themselves out, nor slow another learner (deploy/, issue 33 item 7).

On a fresh hub (install.sh into .cache/deploy, start-hub.sh on loopback; as root each learner is a Unix user of their
own, as in production without systemd):

* Ada, in Chromium, opens every lesson, her kernels are restarted (the server's kernel API, as a learner may call
  it), and she opens every lesson once more: each page shows its lesson, no kernel of hers dies for
  want of threads ("can't start new thread", "Resource temporarily unavailable"), her server never runs more than
  ``RailkitKernelManager.max_kernels`` kernels and her threads stay under her process limit. Past the cap with every
  page open in a tab, a new page is refused in words, not left without an answer; every kernel of hers is restarted;
  she closes a tab, reloads the refused page and gets its lesson.
* Then code in one of Ada's kernels keeps trying to hold 3.2 GB in four processes of 0.8 GB (each under the 1 GB
  per-process limit) for 25 s; the memory guard ends them past 1 GB for Ada as a whole (between two of its looks,
  half a second apart, a process may still grow: Ada's samples stay under 2.5 GB, never the 3.2 GB asked for).
  Bo's lesson page times before and while are recorded (tests/artifacts/deploy_hub_limits_figures.json); Bo gets
  his lesson each time, and none of Bo's processes is touched.

Figures are recorded, not asserted as speeds (CONTRIBUTING: speed goals live in benchmarks).
"""

from __future__ import annotations

import json
import os
import pwd
import re
import secrets
import ssl
import statistics
import subprocess
import threading
import time
import uuid
from urllib.parse import urlsplit

import pytest
import requests
from conftest import ARTIFACTS, ERROR_PAGE_TEXT, NOTEBOOKS_DIR, has_app, notebooks, open_app, wait_for_address
from hub_runner import PASSWORD, Hub, can_create_users, children, environ, install, login, remove_unix_users, wait_for_landing

from railkit.lessons import LAB_NOTEBOOKS

pytestmark = [pytest.mark.slow, pytest.mark.hub, pytest.mark.server, pytest.mark.browser,
              pytest.mark.xdist_group("deploy_hub")]

MEM_LIMIT, LIMIT_BYTES = "1G", 2**30
PROCESS_LIMIT = 128
KERNEL_LIMIT = 7  # jupyterhub_config.py's kernel_limit() for 128 processes: (128 - 8 - 14) // 14
HOG = """
import subprocess, sys, time
hold = "import time; block = bytearray(800 * 2**20); block[::4096] = b'x' * len(block[::4096]); time.sleep(60)"
children, end = [], time.time() + 25
while time.time() < end:  # four processes of 0.8 GB, started again as soon as one is gone
    children = [c for c in children if c.poll() is None]
    while len(children) < 4:
        children.append(subprocess.Popen([sys.executable, "-c", hold]))
    time.sleep(0.3)
for c in children:
    c.kill()
"""


@pytest.fixture(scope="session")
def installed():
    return install()


def unix_user(name: str, local: bool) -> str:
    return f"jupyter-{name}" if local else pwd.getpwuid(os.geteuid()).pw_name


def threads_of(user: str) -> int:
    out = subprocess.run(["ps", "-L", "-u", user, "--no-headers"], capture_output=True, text=True).stdout
    return len(out.splitlines())


def private_gb(user: str) -> float:
    """What a Unix user's processes hold privately (resident, not file-backed), in GB."""
    uid, total = pwd.getpwnam(user).pw_uid, 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid != uid:
                    continue
                resident, shared = (int(x) for x in open(f"/proc/{entry}/statm").read().split()[1:3])
            except (OSError, ValueError):
                continue
            total += max(0, resident - shared) * os.sysconf("SC_PAGE_SIZE")
    return total / 2**30


def lessons() -> list[str]:
    """The index, the rulings and every lesson; not the strategy lab's code notebooks (each page plays a ladder)."""
    return [nb.relative_to(NOTEBOOKS_DIR).as_posix() for nb in notebooks() if nb.stem not in LAB_NOTEBOOKS]


def rendered(session: requests.Session, hub: Hub, name: str, lesson: str) -> float:
    """Seconds for ``name``'s server to render ``lesson`` (the whole page, its cells run); fails on an error."""
    start = time.monotonic()
    reply = session.get(f"{hub.base}/user/{name}/voila/render/{lesson}", timeout=300)
    assert reply.status_code == 200 and ERROR_PAGE_TEXT not in reply.text, f"{name}: {lesson} HTTP {reply.status_code}"
    return time.monotonic() - start


def api(hub: Hub, name: str, token: str, method: str, path: str) -> requests.Response:
    return requests.request(method, f"{hub.base}/user/{name}/api/{path}", headers={"Authorization": f"token {token}"},
                            verify=str(hub.certificate), timeout=120)


def run_in_kernel(hub: Hub, name: str, token: str, kernel_id: str, code: str) -> None:
    """Send ``code`` to a kernel of ``name``'s over its websocket, as a page does; return once the kernel has taken
    it up (its first message about the request: "busy"), not when the code has run."""
    from websockets.sync.client import connect

    context = ssl.create_default_context(cafile=str(hub.certificate))
    url = f"{hub.base.replace('https://', 'wss://')}/user/{name}/api/kernels/{kernel_id}/channels"
    msg_id = uuid.uuid4().hex
    with connect(url, additional_headers={"Authorization": f"token {token}"}, ssl=context, open_timeout=60) as ws:
        ws.send(json.dumps({"header": {"msg_id": msg_id, "msg_type": "execute_request", "username": name,
                                       "session": uuid.uuid4().hex, "date": "", "version": "5.3"},
                            "parent_header": {}, "metadata": {}, "channel": "shell",
                            "content": {"code": code, "silent": False, "store_history": False,
                                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
        while json.loads(ws.recv(timeout=120)).get("parent_header", {}).get("msg_id") != msg_id:
            pass


def browser_session(browser, hub: Hub, name: str):
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, ignore_https_errors=True)  # self-signed
    page = context.new_page()
    page.route("**/*", lambda r: r.continue_() if urlsplit(r.request.url).hostname in ("127.0.0.1", "localhost")
               else r.abort())
    page.goto(f"{hub.base}/hub/login", timeout=60_000)
    page.fill("#username_input", name)
    page.fill("#password_input", PASSWORD)
    page.click("#login_submit")
    wait_for_address(page, f"/user/{name}/voila/render/index.ipynb", timeout=180_000)
    return context, page


def test_a_learner_can_neither_lock_themselves_out_nor_slow_another(installed, tmp_path, browser):
    spawner = os.environ.get("RAILKIT_HUB_SPAWNER") or ("local" if can_create_users() else "shared")
    local = spawner == "local"
    tag = secrets.token_hex(3)
    ada, bo = f"ada{tag}", f"bo{tag}"
    hub = Hub(state=tmp_path / "state", spawner=spawner, mem_limit=MEM_LIMIT, learners=[ada, bo])
    figures: dict = {"spawner": spawner, "kernel_limit": KERNEL_LIMIT, "process_limit": PROCESS_LIMIT}
    peaks = {"kernels": 0, "threads": 0}
    watching = threading.Event()

    def watch(server: int) -> None:  # Ada's kernels and threads, sampled all along
        while not watching.is_set():
            peaks["kernels"] = max(peaks["kernels"], len(children(server)))
            if local:
                peaks["threads"] = max(peaks["threads"], threads_of(unix_user(ada, local)))
            time.sleep(0.2)

    try:
        hub.start()
        sessions = {name: login(hub, name) for name in (ada, bo)}
        for name in (ada, bo):
            wait_for_landing(sessions[name], hub.base, name)
        watcher = threading.Thread(target=watch, args=(hub.server_pid(ada),), daemon=True)
        watcher.start()

        # Ada opens every lesson, her kernels are restarted, and she opens every lesson once more.
        context, page = browser_session(browser, hub, ada)
        loads, started = 0, time.monotonic()
        try:
            token = environ(children(hub.server_pid(ada))[0])["JUPYTERHUB_API_TOKEN"]
            for round_ in range(2):
                for lesson in lessons():
                    open_app(page, f"{hub.base}/user/{ada}/voila/render/{lesson}",
                             ready=".railkit-app" if has_app(NOTEBOOKS_DIR / lesson) else None, timeout=180)
                    assert ERROR_PAGE_TEXT not in page.inner_text("body"), f"{lesson}, round {round_ + 1}"
                    loads += 1
                if round_ == 0:
                    kernels = api(hub, ada, token, "GET", "kernels").json()
                    for kernel in kernels:
                        restarted = api(hub, ada, token, "POST", f"kernels/{kernel['id']}/restart")
                        assert restarted.status_code == 200, f"restart: HTTP {restarted.status_code}"
                    figures["kernels_restarted"] = len(kernels)
            figures["ada_lesson_loads"] = loads
            figures["ada_lessons_s"] = round(time.monotonic() - started)
            # Every page open in a tab of its own: the one past the cap is refused in words.
            tabs, refusal = [], None
            for lesson in lessons() * 2:
                tab = context.new_page()
                reply = tab.goto(f"{hub.base}/user/{ada}/voila/render/{lesson}", timeout=180_000)
                tabs.append(tab)
                if reply.status != 200:
                    refusal = (reply.status, tab.inner_text("body"))
                    break
                tab.wait_for_selector("#rendered_cells", state="visible", timeout=180_000)
            assert refusal is not None, "no page was refused past the cap"
            assert refusal[0] == 503 and f"lessons are open (at most {KERNEL_LIMIT})" in refusal[1] \
                and "Close the lesson tabs you no longer use" in refusal[1] and "Liian monta" in refusal[1], refusal
            tabs[-1].screenshot(path=str(ARTIFACTS / "hub_too_many_lessons.png"))
            figures["refusal_past_the_cap"] = re.sub(r"\s+", " ", refusal[1])[:200]
            # With every kernel of hers in use, they are all restarted; then she closes a tab and gets the lesson.
            kernels = api(hub, ada, token, "GET", "kernels").json()
            for kernel in kernels:
                restarted = api(hub, ada, token, "POST", f"kernels/{kernel['id']}/restart")
                assert restarted.status_code == 200, f"restart: HTTP {restarted.status_code}"
            figures["kernels_restarted_at_the_cap"] = len(kernels)
            tabs[0].close()
            deadline = time.monotonic() + 60  # the server has seen the closed tab's page go (its connection closed)
            while all(k["connections"] for k in api(hub, ada, token, "GET", "kernels").json()):
                assert time.monotonic() < deadline, "the closed tab's kernel is still connected"
                time.sleep(0.2)
            refused_lesson = urlsplit(tabs[-1].url).path.rsplit("/render/", 1)[1]
            tabs[-1].reload()
            tabs[-1].wait_for_selector("#rendered_cells", state="visible", timeout=180_000)
            assert ERROR_PAGE_TEXT not in tabs[-1].inner_text("body"), refused_lesson
        finally:
            context.close()
        watching.set()
        watcher.join(5)
        figures["ada_peak_kernels"], figures["ada_peak_threads"] = peaks["kernels"], peaks["threads"]
        log = hub.log()
        assert "can't start new thread" not in log and "Resource temporarily unavailable" not in log, log[-3000:]
        assert peaks["kernels"] <= KERNEL_LIMIT, peaks
        assert not local or peaks["threads"] < PROCESS_LIMIT, peaks

        # Bo's lesson, before and while Ada's code tries to hold 3.2 GB.
        lesson = "kk_auction.ipynb"
        figures["bo_page_s_before"] = [round(rendered(sessions[bo], hub, bo, lesson), 2) for _ in range(2)]
        bo_processes = {p: open(f"/proc/{p}/stat").read().split()[21] for p in [hub.server_pid(bo),
                                                                               *children(hub.server_pid(bo))]}
        kernel = api(hub, ada, token, "POST", "kernels")
        assert kernel.status_code == 201, f"a kernel for Ada's code: HTTP {kernel.status_code} {kernel.text[:200]}"
        run_in_kernel(hub, ada, token, kernel.json()["id"], HOG)
        samples, attempt = [], time.monotonic()
        during = []
        while time.monotonic() - attempt < 24:
            if local:
                samples.append(round(private_gb(unix_user(ada, local)), 2))
            if len(during) < 2 and time.monotonic() - attempt > 4:
                during.append(round(rendered(sessions[bo], hub, bo, lesson), 2))
            time.sleep(0.5)
        figures["bo_page_s_while"] = during
        figures["ada_private_gb_every_half_second"] = samples
        ended = re.findall(r"railkit memory guard: jupyter-" + ada + r" held", hub.log())
        figures["ada_processes_ended_by_the_guard"] = len(ended)
        for pid, started_at in bo_processes.items():  # none of Bo's processes was ended
            assert open(f"/proc/{pid}/stat").read().split()[21] == started_at, f"Bo's process {pid} was ended"
        if local:
            assert ended, f"the memory guard ended nothing:\n{hub.log()[-3000:]}"
            # The guard looks twice a second: between two looks a process may grow by up to its own limit (1 GB).
            assert max(samples) < 2.5, f"Ada held her 3.2 GB attempt: {samples}"
            figures["ada_private_gb_median"] = statistics.median(samples)
    finally:
        watching.set()
        took, strays = hub.stop()
        if local:
            remove_unix_users([f"jupyter-{n}" for n in (ada, bo)])
        figures["hub_stop_s"] = round(took, 1)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "deploy_hub_limits_figures.json").write_text(json.dumps(figures, indent=2) + "\n")
        print(json.dumps(figures, indent=2))
    assert not strays, f"processes left running after the hub stopped: {strays}"
