"""Makes ``landed_issue33.sqlite``: a table server database as the version of issue 33 left it (before the
Alembic migrations), for ``test_tables_migrations.py`` to upgrade.

It drives a table server of that version over HTTP, so it is run against that version's code, not this one's:

    git archive 0de27a4 railkit | tar -x -C /tmp/landed
    PYTHONPATH=/tmp/landed .venv/bin/python tests/tables/data/make_landed_db.py tests/tables/data/landed_issue33.sqlite

What it holds: a Vom Kap bis Kairo table in its first auction (one sealed bid in), a finished Union Pacific table
(computer players), a table whose second seat took the name "José" typed in decomposed form (the landed server
then failed to start: issue 34), a closed table's code, and records under "Ann", "ann" and both forms of "José"
with their progress keys.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

KEY = "landed-teacher-key-0123456789"


def call(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def main(out: Path) -> None:
    out.unlink(missing_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "railkit.tables", "--port", str(port), "--db", f"sqlite:///{out}"],
                            env={**os.environ, "RAILKIT_TEACHER_KEY": KEY})
    base = f"http://127.0.0.1:{port}/api"
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        from websockets.sync.client import connect

        status, kk = call("POST", f"{base}/tables", {"game": "cape_to_cairo", "seats": ["Ann", "Ben", "Cy"],
                                                      "seed": 3, "take": "Ann"})
        assert status == 201, kk
        with connect(f"ws://127.0.0.1:{port}/api/tables/{kk['table']}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "token": kk["token"]}))
            state = json.loads(ws.recv())
            bid = next(a for a in state["legal"] if a["type"] == "bid" and a["amount"] == 7)
            ws.send(json.dumps({"type": "act", "seq": state["seq"], "action": bid}))
            assert json.loads(ws.recv())["seq"] == 1
        status, up = call("POST", f"{base}/tables", {"game": "union_pacific", "seats": ["Ann", "Ben"], "seed": 4,
                                                      "bots": ["Ann", "Ben"]})
        assert status == 201, up
        status, named = call("POST", f"{base}/tables", {"game": "cape_to_cairo", "seats": ["Kim", "Seat 2"],
                                                         "seed": 5, "take": "Kim"})
        assert call("POST", f"{base}/tables/{named['table']}/join", {"name": "Jose\u0301"})[0] == 200
        status, closed = call("POST", f"{base}/tables", {"game": "cape_to_cairo", "seats": ["Ann", "Ben"], "seed": 6})
        assert call("POST", f"{base}/teacher/tables/{closed['table']}/close", {"confirm": "close this table"},
                    {"X-Railkit-Teacher-Key": KEY})[0] == 200
        keys = {}
        for name in ("Ann", "ann", "Jose\u0301", "Jos\u00e9"):
            status, answer = call("POST", f"{base}/records", {"event": "opened", "learner": name, "lesson": "kk_play",
                                                               "visit": f"visit-{len(keys):04d}"})
            assert status == 201, answer
            keys[name] = answer.get("learner_key")
        print(json.dumps({"kk": kk["table"], "up": up["table"], "named": named["table"], "closed": closed["table"],
                          "keys": keys}, indent=1))
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
