"""Wait for the page that takes a pre-rendered Voila kernel, and learn its address.

A preheated kernel runs its lesson before any learner has asked for it; when a page takes the kernel,
Voila sends the page's request (``QUERY_STRING`` and the like) over a websocket at
``<server>voila/query/<kernel id>``, and the kernel sets those variables in ``os.environ``. Voila's own
helper for this, ``voila.utils.wait_for_request``, lives in a module that imports jupyter_server,
jupyterlab_server, nbconvert, jsonschema and babel: about 40 MB of every lesson's kernel (measured with
``benchmarks/kernel.py --live``), for one websocket message. This module speaks the same small protocol
with ``websockets`` alone (a dependency of Voila, so present wherever Voila runs).
"""

from __future__ import annotations

import json
import logging
import os
from typing import Any

log = logging.getLogger(__name__)

# The largest request message accepted: Voila's is a few hundred bytes of environment variables.
MAX_MESSAGE_BYTES = 64 * 1024
OPEN_TIMEOUT_S = 5.0


def query_url() -> str:
    """Where Voila answers this kernel, from the variables Voila put in the kernel's environment."""
    protocol = os.environ.get("VOILA_WS_PROTOCOL", "ws")
    ip = os.environ.get("VOILA_APP_IP", "127.0.0.1")
    port = os.environ.get("VOILA_APP_PORT", "8866")
    base = os.environ.get("VOILA_WS_BASE_URL", os.environ.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{ip}:{port}{base}voila/query/{os.environ.get('VOILA_KERNEL_ID', '')}"


def apply_request(message: str | bytes) -> dict[str, str]:
    """Set the page's request variables from Voila's message; returns them. A message that is not a
    JSON object of strings changes nothing (ValueError)."""
    data: Any = json.loads(message)
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError("Voila's page request is not an object of strings")
    os.environ.update(data)
    return data


def wait_for_page_request(url: str | None = None) -> dict[str, str] | None:
    """Block until a page takes this preheated kernel; then its request variables are in ``os.environ``.
    Outside a preheated kernel, return None at once (the address was in the environment from the start).
    """
    if os.environ.get("VOILA_PREHEAT", "False") == "False":
        return None
    try:
        from websockets.sync.client import connect
    except ImportError:  # an older websockets: Voila's own helper does the same, at its cost in memory
        from voila.utils import wait_for_request

        wait_for_request(url)
        return None
    with connect(url or query_url(), open_timeout=OPEN_TIMEOUT_S, max_size=MAX_MESSAGE_BYTES) as socket:
        return apply_request(socket.recv())
