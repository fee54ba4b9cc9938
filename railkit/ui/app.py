"""The shared pattern of every railkit app.

An app is a class that builds an ipywidgets tree in ``__init__`` and is displayed by one notebook
cell (``DividendsApp()`` as the cell's last line). Its callbacks are ordinary methods, so tests
build the app headless, set widget values and call them, then read ``app.message_text`` and the
app's state; no browser is needed for the logic.

Rules every app keeps:

* All user-facing text goes through ``tr()`` (``railkit.ui.i18n``).
* A callback never lets an exception reach the page. Bad input (``InputError``) and rule
  violations from the engines (``RuleError``) become a clear message in the app's message bar, and
  the app's state is left as it was: callbacks parse and check everything first, then change state.
  Anything unexpected becomes a short "something went wrong" message (logged, no traceback).
* Engines decide what is legal; apps never re-implement a rule.
"""

from __future__ import annotations

import functools
import html
import logging
from typing import Any, Callable, Sequence, TypeVar

import ipywidgets as widgets

from railkit.errors import RuleError
from railkit.ui.i18n import tr

log = logging.getLogger("railkit.ui")

F = TypeVar("F", bound=Callable[..., Any])

# Shared look: larger text for projectors, message bar colours, tables. Sent once per app.
STYLE = """
<style>
.railkit-app { font-size: 16px; line-height: 1.45; max-width: 1100px;
  --jp-widgets-font-size: 16px; --jp-widgets-inline-height: 32px; --jp-widgets-inline-label-width: 110px; }
.railkit-app .lm-TabBar-tab { flex: 0 0 auto !important; min-width: 150px; max-width: none !important; font-size: 16px; }
.railkit-app table.railkit-table { border-collapse: collapse; margin: 6px 0 10px 0; }
.railkit-app table.railkit-table th, .railkit-app table.railkit-table td {
  border: 1px solid #c8c8c8; padding: 4px 10px; text-align: right; }
.railkit-app table.railkit-table th { background: #f0f0f0; }
.railkit-app table.railkit-table td.name, .railkit-app table.railkit-table th.name { text-align: left; }
.railkit-app td.hl, .railkit-app th.hl { background: #fff3c4; font-weight: bold; }
.railkit-app .railkit-msg { padding: 8px 12px; border-radius: 4px; margin: 4px 0; }
.railkit-app .railkit-msg.error { background: #fde8e8; border-left: 5px solid #c62828; color: #7f1010; }
.railkit-app .railkit-msg.info { background: #e8f1fd; border-left: 5px solid #1e63c4; color: #0d3569; }
.railkit-app .railkit-msg.ok { background: #e6f4ea; border-left: 5px solid #2e7d32; color: #14461b; }
.railkit-app .railkit-legend { color: #333; font-size: 14px; }
.railkit-app .railkit-right { color: #1b5e20; font-weight: bold; }
.railkit-app .railkit-wrong { color: #b71c1c; font-weight: bold; }
.railkit-app ol.railkit-steps li { margin-bottom: 3px; }
</style>
"""


class InputError(ValueError):
    """A field the learner typed cannot be used; the message says which and what to type."""


def parse_whole(text: str, label: str, minimum: int = 0, maximum: int | None = None) -> int:
    """A whole number typed into a field, or ``InputError`` naming the field (``label``)."""
    raw = str(text).strip()
    if not raw:
        raise InputError(tr("“{field}” is empty: type a whole number.", field=label))
    try:
        value = int(raw)
    except ValueError:
        raise InputError(tr("“{field}” must be a whole number, not “{text}”.", field=label, text=raw)) from None
    if value < minimum:
        raise InputError(tr("“{field}” cannot be less than {minimum} (you typed {value}).",
                            field=label, minimum=minimum, value=value))
    if maximum is not None and value > maximum:
        raise InputError(tr("“{field}” cannot be more than {maximum} (you typed {value}).",
                            field=label, maximum=maximum, value=value))
    return value


def legend_html(items: Sequence[tuple[str, str]]) -> str:
    """An app's legend: an open “Legend” box listing each control or element with what it does."""
    rows = "".join(f"<li><b>{html.escape(k)}</b> — {html.escape(v)}</li>" for k, v in items)
    return f"<details open><summary><b>{tr('Legend')}</b></summary><ul>{rows}</ul></details>"


def verdict_html(right: bool, tag: str = "span") -> str:
    """An exercise's mark for one answer: a green “✔ right” or a red “✘ wrong” (``STYLE``), in ``tag``."""
    cls, text = ("railkit-right", "✔ " + tr("right")) if right else ("railkit-wrong", "✘ " + tr("wrong"))
    return f"<{tag} class='{cls}'>{text}</{tag}>"


class Score(list):
    """An exercise's score as a list, ``[right first time, questions checked]``.

    A question counts once, at its first check: checking it again only shows the explanation again.
    Call ``next_question()`` whenever a new question is shown.
    """

    def __init__(self) -> None:
        super().__init__([0, 0])
        self.counted = False  # the question on show has been counted

    @property
    def right(self) -> int:
        return self[0]

    @property
    def total(self) -> int:
        return self[1]

    def next_question(self) -> None:
        self.counted = False

    def record(self, right: bool) -> None:
        """Count the answer to the question on show, unless it was counted already."""
        if not self.counted:
            self[1] += 1
            self[0] += int(right)
            self.counted = True


def guarded(method: F) -> F:
    """Decorate an app callback: errors become a message in the app, never a traceback."""

    @functools.wraps(method)
    def wrapper(self: "App", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except InputError as exc:
            self.show_error(str(exc))
        except RuleError as exc:
            self.show_error(tr("{message} (rule {rule})", message=exc.message, rule=exc.rule))
        except Exception as exc:  # noqa: BLE001 - the page must never show a traceback
            log.exception("railkit app callback %s failed", method.__name__)
            self.show_error(tr("Something went wrong: {error}. Nothing was changed.", error=str(exc) or type(exc).__name__))
        return None

    return wrapper  # type: ignore[return-value]


class App:
    """Base class: ``self.widget`` is the whole app; ``self.message`` its message bar."""

    title: str = ""

    def __init__(self) -> None:
        self.message = widgets.HTML(value="")
        self.message.add_class("railkit-message")
        self._message_kind = ""
        self._message_text = ""
        body = self.build()
        children: list[widgets.Widget] = [widgets.HTML(STYLE)]
        if self.title:
            children.append(widgets.HTML(f"<h3 style='margin:4px 0'>{html.escape(tr(self.title))}</h3>"))
        children += [self.message, body]
        self.widget = widgets.VBox(children)
        self.widget.add_class("railkit-app")

    # -- to implement -----------------------------------------------------------------
    def build(self) -> widgets.Widget:
        raise NotImplementedError

    # -- messages ------------------------------------------------------------------------
    def _set_message(self, kind: str, text: str) -> None:
        self._message_kind, self._message_text = kind, text
        self.message.value = f"<div class='railkit-msg {kind}' role='status'>{html.escape(text)}</div>" if text else ""

    def show_error(self, text: str) -> None:
        self._set_message("error", text)

    def show_info(self, text: str) -> None:
        self._set_message("info", text)

    def show_ok(self, text: str) -> None:
        self._set_message("ok", text)

    def clear_message(self) -> None:
        self._set_message("", "")

    def report_answer(self, right: bool, well_done: str, not_quite: str) -> bool:
        """The message after an exercise's check: ``well_done`` (ok) when right, else ``not_quite`` (info)."""
        if right:
            self.show_ok(well_done)
        else:
            self.show_info(not_quite)
        return right

    @property
    def message_text(self) -> str:
        return self._message_text

    @property
    def message_kind(self) -> str:
        """'error', 'info', 'ok' or '' (no message)."""
        return self._message_kind

    # -- display -------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)
