"""A lesson's map drawn just after its page has appeared, not before (time to interactive).

Voila shows a page once every widget on it has been drawn, and a plotly map in an Output is drawn only
after the browser has loaded plotly.js (~3.5 MB) and laid out the figure: with the map in the first
widget state, the Union Pacific lessons were interactive seconds later than the same pages without it
(measured with benchmarks/apps.py). So under Voila the first figure waits: the page gets its widgets
(with an empty map slot) first, and the map follows ``RELEASE_DELAY_S`` later; the learner sees the
controls at once and the map a moment after. (Sent right after the state, the map still arrived while
the page was building its widgets and held it back.)

"The page asks for its widgets" is ipywidgets' ``request_states`` on the control comm: the one message
a Voila page sends when it loads, after the notebook has run (preheated or not). Outside Voila
(JupyterLab, headless tests, the static site) a figure is shown at once.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any

from railkit import patches

log = logging.getLogger(__name__)

_waiting: list[Callable[[], None]] = []  # run once the page has received its widgets' state
_hooked = False
_page_has_widgets = False  # set once the page asked for its widgets: later figures are drawn at once
# Seconds from the page's request for its widgets to the first figures (RAILKIT_FIRST_PAINT_DELAY to try others).
RELEASE_DELAY_S = float(os.environ.get("RAILKIT_FIRST_PAINT_DELAY", "1.0"))


def under_voila() -> bool:
    """Voila sets ``VOILA_PREHEAT`` ("True" or "False") in every kernel it starts."""
    return "VOILA_PREHEAT" in os.environ


def _hook() -> bool:
    """Run ``_waiting`` right after ipywidgets answers the page's ``request_states``."""
    global _hooked
    if _hooked:
        return True
    from ipywidgets import Widget

    def after(msg: dict[str, Any]) -> None:
        global _page_has_widgets
        if (msg.get("content", {}).get("data") or {}).get("method") != "request_states":
            return
        _page_has_widgets = True
        if _waiting:
            # The page builds its widgets from the state just sent, then shows itself: later, the figures.
            timer = threading.Timer(RELEASE_DELAY_S, _release_all)
            timer.daemon = True
            timer.start()

    patches.after_control_message(Widget, after)  # LibraryChanged when ipywidgets is not 8.1.x
    _hooked = True
    return True


def _release_all() -> None:
    while _waiting:
        try:
            _waiting.pop(0)()
        except Exception:  # noqa: BLE001 - one figure failing must not stop the others
            log.exception("a figure waiting for the page failed")


def defer_first_show(view: Any, method: str = "show") -> bool:
    """Under Voila, hold ``view``'s figures (``view.show(fig)``, a ``FigureView``) until the page has its
    widgets, then draw the newest one and let ``show`` work as before. True when it holds."""
    if not under_voila() or _page_has_widgets or not _hook():
        return False  # outside Voila, or a view made after the page appeared (a lesson restarted on a club board)
    original = getattr(view, method)
    held: list[tuple[Any, ...]] = []
    lock = threading.Lock()  # the release runs on a timer thread; a click may draw meanwhile

    def hold(*args: Any) -> None:
        with lock:
            if getattr(view, method) is hold:
                held[:] = [args]  # only the newest figure is worth drawing
                return
        original(*args)

    def release() -> None:
        with lock:
            setattr(view, method, original)
            args = held[0] if held else None
        if args is not None:
            original(*args)

    setattr(view, method, hold)
    _waiting.append(release)
    return True
