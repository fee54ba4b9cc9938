"""Widget helpers every app uses: one place for rows, HTML boxes, buttons and in-place updates.

* ``row``, ``html_box``, ``button`` build widgets with the CSS class the style and the browser tests
  find them by;
* ``set_value``, ``set_shown``, ``set_options`` and ``choose`` change a widget only when the value
  really changes: every write is a message to the browser.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

__all__ = ["button", "choose", "html_box", "row", "set_options", "set_shown", "set_value", "submit_on_enter"]

def row(children: Sequence[widgets.Widget], **layout: Any) -> widgets.HBox:
    """An HBox whose children are spaced and wrap (class ``railkit-row``, spaced by ``app.STYLE``: ipywidgets
    8.1's Layout has no ``gap``)."""
    box = widgets.HBox(list(children), layout=widgets.Layout(**layout))
    box.add_class("railkit-row")
    return box


def html_box(css: str = "", value: str = "", **layout: Any) -> widgets.HTML:
    """An HTML widget with the CSS class ``css`` (how the style and the browser tests find it)."""
    box = widgets.HTML(value, layout=widgets.Layout(**layout))
    if css:
        box.add_class(css)
    return box


def button(label: str, css: str = "", icon: str = "", style: str = "", tip: str = "",
           width: str | None = "auto") -> widgets.Button:
    """A button with the CSS class ``css``; ``width=None`` keeps ipywidgets' default width. Each button
    gets a Layout of its own (a shared one would hide them all together)."""
    b = widgets.Button(description=label, icon=icon, button_style=style, tooltip=tip,
                       layout=widgets.Layout(width=width))
    if css:
        b.add_class(css)
    return b


def submit_on_enter(field: widgets.Text, action: Callable[[], object]) -> None:
    """Enter in the text box ``field`` does what its form's button does (``action``), as the keyboard expects.
    The page sends the box's text before its "submit" event, so ``action`` reads what was typed."""
    field.on_msg(lambda _w, content, _b: action() if content.get("event") == "submit" else None)


def set_value(widget: Any, value: Any) -> None:
    """Write ``value`` only when it differs (each write is a message to the browser)."""
    if widget.value != value:
        widget.value = value


def set_shown(widget: Any, shown: bool) -> None:
    """Show or hide ``widget`` (its layout's ``display``), writing only when that changes."""
    want = None if shown else "none"
    if widget.layout.display != want:
        widget.layout.display = want


def set_options(widget: Any, options: Sequence[tuple[str, Any]], fresh: bool, default: Any = None) -> None:
    """New options for a picker; keep the current choice unless a new move starts (then ``default``,
    or nothing chosen)."""
    keep = widget.value
    if tuple(widget.options) != tuple(options):
        widget.options = list(options)
    values = [value for _, value in options]
    if fresh:
        choose(widget, default if default in values else None)
    else:
        choose(widget, keep if keep in values else None)


def choose(widget: Any, value: Any) -> None:
    """Select ``value``; None selects a leading “— pick … —” option when there is one, so it shows."""
    options = list(widget.options)
    if value is None and options and options[0][1] is None:
        # ipywidgets maps a value of None to "no selection" (index None), also when index 0 is set while another
        # option is selected: clear the value first, then select the placeholder (its value is None already).
        if widget.value is not None:
            widget.value = None
        if widget.index != 0:
            widget.index = 0
    elif widget.value != value or (value is None and widget.index is not None):
        widget.value = value
