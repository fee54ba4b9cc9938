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
* Names typed by people (players, save files) are text, never markup: every HTML string escapes them.

An app is built from panels (``Panel``): each owns its widgets (``panel.widget``) and reports to the
app's message bar (``Messages``); a play app composes panels around a ``railkit.session.Session``.
"""

from __future__ import annotations

import functools
import html
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import ipywidgets as widgets

from railkit import patches
from railkit.errors import InputError, RailkitError, RuleError, SaveFileError
from railkit.game import MAX_NAME_LENGTH
from railkit.messages import Message
from railkit.session import save_problem
from railkit.ui import language
from railkit.ui.i18n import render, tr, trn
from railkit.ui.records import lesson_record
from railkit.ui.records.my_progress import MyProgress


def _browser_comm_nulls() -> None:
    """The static site's browser kernel only (tools/site; ``sys.platform`` is ``emscripten`` under Pyodide):
    widget updates send ``null`` where ipywidgets sends ``None`` (``railkit.patches.send_nulls_in_comm_data``).
    Under Voila and JupyterLab (CPython) nothing changes."""
    if sys.platform != "emscripten":
        return
    try:
        from pyodide.ffi import jsnull
        from pyodide_kernel import comm
    except ImportError:  # Pyodide without the JupyterLite kernel: no comms to fix
        return
    patches.send_nulls_in_comm_data(comm.Comm, jsnull)


_browser_comm_nulls()

__all__ = ["STYLE", "App", "InputError", "Messages", "Panel", "Score", "error_text", "guarded", "legend_html",
           "others_words", "parse_name", "parse_whole", "verdict_html"]

log = logging.getLogger("railkit.ui")

F = TypeVar("F", bound=Callable[..., Any])

# Shared look: larger text for projectors, message bar colours, tables. Sent once per app.
STYLE = """
<style>
.railkit-app { font-size: 16px; line-height: 1.45; max-width: 1100px;
  --jp-widgets-font-size: 16px; --jp-widgets-inline-height: 32px; --jp-widgets-inline-label-width: 110px; }
.railkit-app .lm-TabBar-tab { flex: 0 0 auto !important; min-width: 150px; max-width: none !important; font-size: 16px; }
.railkit-app .lm-TabBar-tab:first-child { margin-left: 0 !important; }  /* Lumino overlaps tabs by 1 px: the first stays whole */
.railkit-app table.railkit-table { border-collapse: collapse; margin: 6px 0 10px 0; }
.railkit-app table.railkit-table th, .railkit-app table.railkit-table td {
  border: 1px solid #c8c8c8; padding: 4px 10px; text-align: right; }
.railkit-app table.railkit-table th { background: #f0f0f0; }
.railkit-app table.railkit-table td.name, .railkit-app table.railkit-table th.name { text-align: left; }
.railkit-app td.hl, .railkit-app th.hl { background: #fff3c4; font-weight: bold; }
/* short cells (a place "1.", a verdict "✘ väärin") stay on one line, also where long words may break (phones) */
.railkit-app td.nowrap, .railkit-app th.nowrap { white-space: nowrap; }
.railkit-app .railkit-msg { padding: 8px 12px; border-radius: 4px; margin: 4px 0; white-space: pre-line; }
.railkit-app .railkit-msg.error { background: #fde8e8; border-left: 5px solid #c62828; color: #7f1010; }
.railkit-app .railkit-msg.info { background: #e8f1fd; border-left: 5px solid #1e63c4; color: #0d3569; }
.railkit-app .railkit-msg.ok { background: #e6f4ea; border-left: 5px solid #2e7d32; color: #14461b; }
.railkit-app .railkit-legend { color: #333; font-size: 14px; }
.railkit-app .railkit-right { color: #1b5e20; font-weight: bold; }
.railkit-app .railkit-wrong { color: #b71c1c; font-weight: bold; }
.railkit-app ol.railkit-steps li { margin-bottom: 3px; }
.railkit-app .railkit-row { gap: 8px; flex-wrap: wrap; align-items: center; }
/* A label or button is as wide as its words in every language ("Turvallinen kierros (UP-V2)"): the widths set
   in code are a minimum, never a cut. */
.railkit-app .widget-label, .railkit-app .widget-button, .railkit-app .widget-toggle-button,
.railkit-app .widget-checkbox, .railkit-app .widget-checkbox label { min-width: max-content; }
/* Phones and narrow windows: nothing wider than the screen. Rows wrap, a control takes the whole width under
   its label, tables shrink their padding and break long words, and every button is a comfortable target. */
@media (max-width: 700px) {
  .railkit-app { font-size: 15px; --jp-widgets-font-size: 15px; max-width: 100%; overflow-wrap: anywhere; }
  .railkit-app .widget-hbox, .railkit-app .widget-inline-hbox { flex-wrap: wrap; max-width: 100%; }
  .railkit-app .widget-inline-hbox { width: 100% !important; height: auto !important;
    min-height: var(--jp-widgets-inline-height); }
  .railkit-app .widget-inline-hbox > .widget-label { width: 100% !important; max-width: 100%; text-align: left; }
  .railkit-app .widget-label, .railkit-app .widget-checkbox, .railkit-app .widget-checkbox label {
    min-width: 0; white-space: normal; }
  .railkit-app .widget-inline-hbox > select, .railkit-app .widget-inline-hbox > input,
  .railkit-app .widget-inline-hbox > textarea { flex: 1 1 100%; min-width: 0; max-width: 100%; }
  /* a list or a field a finger can hit (WCAG 2.5.8; 44 px where it fits) */
  .railkit-app .widget-inline-hbox > select, .railkit-app .widget-inline-hbox > input { min-height: 44px; }
  .railkit-app .widget-box, .railkit-app .widget-html, .railkit-app .widget-html-content,
  .railkit-app .widget-output, .railkit-app .jupyter-widgets { max-width: 100%; min-width: 0; }
  /* no side margins: a widget as wide as its box would stick out of it by them and be cut (2 px, the table's
     “Your turn” lost its right border so); rows keep their gap */
  .railkit-app .jupyter-widgets { margin-left: 0; margin-right: 0; }
  .railkit-app .widget-button, .railkit-app .widget-toggle-button { min-height: 44px; max-width: 100%;
    min-width: 0; white-space: normal; height: auto; }
  .railkit-app .widget-toggle-buttons .widget-toggle-button { width: auto !important; }
  .railkit-app table.railkit-table { font-size: 13px; max-width: 100%; }
  .railkit-app table.railkit-table th, .railkit-app table.railkit-table td { padding: 3px 4px; }
  .railkit-app .lm-TabBar-tab { min-width: 0; font-size: 14px; padding: 0 8px; }
  .railkit-app .lm-TabBar-content { flex-wrap: wrap; }
  .railkit-app .lm-TabBar-tab { margin-left: 0 !important; }  /* a tab that starts a wrapped row stays whole too */
}
</style>
"""


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


def parse_name(text: str, label: str) -> str:
    """A player's name typed into a field: spaces tidied, at most ``MAX_NAME_LENGTH`` characters, or
    ``InputError`` naming the field. The name is text: every HTML string escapes it."""
    name = " ".join(str(text).split())
    if not name:
        raise InputError(tr("“{field}” is empty: type a name.", field=label))
    if len(name) > MAX_NAME_LENGTH:
        raise InputError(trn("“{field}” is too long: a name has at most {n} character (this one has {k}).",
                             "“{field}” is too long: a name has at most {n} characters (this one has {k}).",
                             MAX_NAME_LENGTH, field=label, k=len(name)))
    return name


def legend_html(items: Sequence[tuple[str, str]]) -> str:
    """An app's legend: an open “Legend” box listing each control or element with what it does."""
    rows = "".join(f"<li><b>{html.escape(k)}</b> — {html.escape(v)}</li>" for k, v in items)
    return f"<details open><summary><b>{tr('Legend')}</b></summary><ul>{rows}</ul></details>"


def verdict_html(right: bool, tag: str = "span") -> str:
    """An exercise's mark for one answer: a green “✔ right” or a red “✘ wrong” (``STYLE``), in ``tag``."""
    cls, text = ("railkit-right", "✔ " + tr("right")) if right else ("railkit-wrong", "✘ " + tr("wrong"))
    return f"<{tag} class='{cls}{' nowrap' if tag == 'td' else ''}'>{text}</{tag}>"


class Score(list[int]):
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


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop (engine and session words are lower case)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


MOST_SPOKEN_EVENTS = 6  # the message bar names at most this many of the other players' moves


def others_words(lines: Sequence[str]) -> str:
    """What the other players did after the learner's move, for the message bar (and so for a screen reader):
    “Then: …; …” with the newest ``MOST_SPOKEN_EVENTS`` of ``lines``, empty when there are none."""
    lines = [line.strip() for line in lines if line.strip()]
    if not lines:
        return ""
    shown = lines[-MOST_SPOKEN_EVENTS:]
    earlier = len(lines) - len(shown)
    # One sentence a line (the message bar keeps line breaks): on a phone a run of moves reads as a short list,
    # not one long paragraph; a screen reader reads it the same.
    words = "\n".join(sentence(line) for line in shown)
    if earlier:
        return trn("Then ({n} more before, in the latest moves): {events}",
                   "Then ({n} more before, in the latest moves): {events}", earlier, events=words)
    return tr("Then: {events}", events=words)


def error_text(exc: Exception, you: str | None = None) -> str:
    """What the message bar says about ``exc``: the rule for a ``RuleError``, the reason once for a broken
    save, the words of any other railkit error; anything else is “something went wrong”. A refusal about the
    learner ``you`` speaks to them (“you have only 100 …”, ``railkit.messages.addressed``)."""
    if isinstance(exc, InputError):
        return str(exc)
    if isinstance(exc, RuleError):
        return tr("{message} (rule {rule})", message=render(exc.message, you), rule=exc.rule)
    if isinstance(exc, SaveFileError):
        return tr("This save cannot be loaded: {problem}. Nothing was changed.", problem=render(save_problem(exc)))
    if isinstance(exc, RailkitError):
        words = exc.args[0] if len(exc.args) == 1 else None  # an engine's Message, in the learner's language
        return sentence(render(words, you) if isinstance(words, Message) else str(exc))  # “you …” about the learner
    return tr("Something went wrong: {error}. Nothing was changed.", error=str(exc) or type(exc).__name__)


def guarded(method: F) -> F:
    """Decorate a callback of an app or panel: errors become a message, never a traceback."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the page must never show a traceback
            if not isinstance(exc, RailkitError):
                log.exception("railkit app callback %s failed", method.__name__)
            self.show_error(error_text(exc, learner_of(self)))
        return None

    return wrapper  # type: ignore[return-value]


def learner_of(owner: Any) -> str | None:
    """The learner's name an app or panel knows (its ``you``, or its screen's), if any."""
    for holder in (owner, getattr(owner, "screen", None)):
        try:
            you = getattr(holder, "you", None)
        except RailkitError:  # no game yet
            return None
        if isinstance(you, str):
            return you
    return None


class Messages:
    """The message bar of an app: one line, an error, a hint or a success (``STYLE``).

    The bar is the page's live region: the Voila template marks its box (which stays while its text changes)
    ``role=status aria-live=polite``, so a screen reader reads every new message: what a move did, what the
    other players did, a payout, an auction's result. ``focus`` names the control to do next: the template
    moves the keyboard focus there (the kernel cannot), so a keyboard learner goes on without Tabbing from
    the top of the page."""

    def __init__(self) -> None:
        self.widget = widgets.HTML(value="")
        self.widget.add_class("railkit-message")
        self.focus_mark = widgets.HTML(value="", layout=widgets.Layout(display="none"))
        self.focus_mark.add_class("railkit-focus")
        self._focus_requests = 0
        self.kind = ""  # 'error', 'info', 'ok' or '' (no message)
        self.text = ""

    def show(self, kind: str, text: str) -> None:
        """Show ``text``; a line break in it starts a new line on screen (``white-space: pre-line``)."""
        self.kind, self.text = kind, text
        self.widget.value = f"<div class='railkit-msg {kind}'>{html.escape(text)}</div>" if text else ""

    def focus(self, css: str, only_from: str = "") -> None:
        """Move the keyboard focus to the first visible element matching the CSS selector ``css`` in this app
        (the template's script; each request is numbered, so asking for the same control again moves it again).
        ``only_from``: move it only while the focus is nowhere (the page itself) or on an element matching this
        selector, never away from a control the learner went to meanwhile."""
        self._focus_requests += 1
        since = f" data-from='{html.escape(only_from, quote=True)}'" if only_from else ""
        self.focus_mark.value = (f"<span class='railkit-focus-mark' hidden data-n='{self._focus_requests}' "
                                 f"data-focus='{html.escape(css, quote=True)}'{since}></span>")

    def show_error(self, text: str) -> None:
        self.show("error", text)

    def show_info(self, text: str) -> None:
        self.show("info", text)

    def show_ok(self, text: str) -> None:
        self.show("ok", text)

    def clear(self) -> None:
        self.show("", "")


class Speaks:
    """What speaks through a message bar (``self.messages``): an app and each of its panels."""

    messages: Messages

    def show_error(self, text: str) -> None:
        self.messages.show_error(text)

    def show_info(self, text: str) -> None:
        self.messages.show_info(text)

    def show_ok(self, text: str) -> None:
        self.messages.show_ok(text)

    def clear_message(self) -> None:
        self.messages.clear()


class Panel(Speaks):
    """A part of an app that owns its widgets (``self.widget``) and speaks through the app's ``Messages``.

    Panels never write each other's attributes: the app hands each one what it shows (its ``refresh``)
    and the callbacks it may call.
    """

    widget: widgets.Widget

    def __init__(self, messages: Messages) -> None:
        self.messages = messages


def sleep_words() -> str:
    """A hidden element with the words of the page's “went to sleep” banner in the current language: the
    Voila template's script shows it when the lesson's kernel has gone (it cannot ask the kernel then)."""
    sleep = tr("This lesson went to sleep after a few minutes without use — reload the page to start again.")
    reload = tr("Reload the page")
    return (f"<span class='railkit-sleep-words' hidden data-sleep='{html.escape(sleep, quote=True)}' "
            f"data-reload='{html.escape(reload, quote=True)}'></span>")


class App(Speaks):
    """Base class: ``self.widget`` is the whole app; ``self.messages`` its message bar.

    The header carries the title and a language picker: the page's language (``?lang=fi``,
    ``RAILKIT_LANG``) is applied before the first build, and choosing another one rebuilds the app in the
    same outer widget (``relanguage``): the app's state lives in attributes and survives, the fields keep
    what was typed, and ``redraw`` shows the last result again in the new language."""

    title: str = ""

    def __init__(self) -> None:
        if not getattr(self, "_language_followed", False):  # once per app (a club file re-runs __init__)
            self._language_followed = True
            language.use_page_language(only_if_asked=True)
            language.on_language_change(self._relanguage)
            language.follow_page_language()
            try:  # the record of learning (railkit.ui.records.lesson_record): never in the lesson's way
                lesson_record.lesson_opened(lesson_record.lesson_of(type(self)))
            except Exception:  # noqa: BLE001
                log.exception("railkit: the lesson's opening was not recorded")
        self.messages = Messages()
        self.message = self.messages.widget
        self.widget = widgets.VBox(self._frame(self.build()))
        self.widget.add_class("railkit-app")

    def _frame(self, body: widgets.Widget) -> list[widgets.Widget]:
        """The app's children: style, header (title and language picker), message bar, ``body``."""
        title = f"<h3 style='margin:4px 0'>{html.escape(tr(self.title))}</h3>" if self.title else ""
        heading = widgets.HTML(title + sleep_words())
        header = widgets.HBox([heading, language.language_picker()],
                              layout=widgets.Layout(justify_content="space-between", align_items="center"))
        header.add_class("railkit-header")
        return [widgets.HTML(STYLE), header, self.message, self.messages.focus_mark, *self._progress_section(), body]

    def _progress_section(self) -> list[widgets.Widget]:
        """A lesson on a class server has “My progress” (closed until the learner opens it), built again in the new
        language on a switch."""
        if "_my_progress" not in self.__dict__:
            shown = lesson_record.recording() and lesson_record.lesson_of(type(self)) is not None
            self._my_progress = MyProgress() if shown else None
        elif self._my_progress is not None:
            self._my_progress.build()
        return [] if self._my_progress is None else [self._my_progress.widget]

    def _relanguage(self, _language: str) -> None:
        try:
            self.relanguage()
        except Exception:  # noqa: BLE001 - a switch must never break the page
            log.exception("railkit app could not switch language")

    def relanguage(self) -> None:
        """Build the widgets again in the current language, in place, keeping typed values and state."""
        old_body = self.widget.children[-1] if self.widget.children else None
        typed = field_values(old_body) if old_body is not None else []
        self.messages.clear()
        body = self.build()
        self.widget.children = self._frame(body)
        restore_field_values(body, typed)
        self.redraw()

    def redraw(self) -> None:
        """Show the app's state (the last result) again after a rebuild: ``refresh()`` when the app has one."""
        refresh = getattr(self, "refresh", None)
        if callable(refresh):
            refresh()

    # -- to implement -----------------------------------------------------------------
    def build(self) -> widgets.Widget:
        raise NotImplementedError

    # -- messages: show_error, show_info, show_ok, clear_message (Speaks) ----------------------
    def focus_next(self, css: str) -> None:
        """After a move: the keyboard focus goes to the next thing to do (``Messages.focus``)."""
        self.messages.focus(css)

    @property
    def message_text(self) -> str:
        return self.messages.text

    @property
    def message_kind(self) -> str:
        """'error', 'info', 'ok' or '' (no message)."""
        return self.messages.kind

    # -- display -------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


# -- keeping typed values across a language switch ---------------------------------------------------
_FIELDS = (widgets.Text, widgets.Textarea, widgets.IntText, widgets.BoundedIntText, widgets.FloatText,
           widgets.Checkbox, widgets.ToggleButtons, widgets.RadioButtons, widgets.Dropdown, widgets.IntSlider)


def _walk(widget: Any) -> list[Any]:
    found = [widget]
    for child in getattr(widget, "children", ()) or ():
        found += _walk(child)
    return found


def field_values(root: Any) -> list[tuple[type, Any, Any]]:
    """(type, value, selected tab) of every field and tab set under ``root``, in tree order."""
    out: list[tuple[type, Any, Any]] = []
    for w in _walk(root):
        if isinstance(w, _FIELDS):
            out.append((type(w), w.value, None))
        elif isinstance(w, (widgets.Tab, widgets.Accordion)):
            out.append((type(w), None, w.selected_index))
    return out


def restore_field_values(root: Any, saved: list[tuple[type, Any, Any]]) -> None:
    """Put ``field_values`` back into a tree built the same way (a field that changed kind is skipped;
    a value a field no longer offers is left as built)."""
    now = [w for w in _walk(root) if isinstance(w, (*_FIELDS, widgets.Tab, widgets.Accordion))]
    if [type(w) for w in now] != [kind for kind, _, _ in saved]:
        return
    for w, (_kind, value, selected) in zip(now, saved, strict=True):
        try:
            if isinstance(w, (widgets.Tab, widgets.Accordion)):
                if w.selected_index != selected:
                    w.selected_index = selected
            elif w.value != value:
                w.value = value
        except Exception:  # noqa: BLE001 - a field that refuses the old value keeps the new one
            continue

