"""Which language the apps speak: the page address (``?lang=fi``), else ``RAILKIT_LANG``, else English;
and a switch while the kernel runs.

A teacher links a class straight to Finnish with ``.../up_dividends.ipynb?lang=fi`` (Voila hands the
kernel the address's query string as ``QUERY_STRING``), or sets ``RAILKIT_LANG=fi`` for a whole server.
An unknown or malformed value is ignored (the page stays English rather than failing).

``set_language`` (railkit.ui.i18n) switches every later ``tr``; the apps built before keep the text
they were built with. An app that offers a switch listens with ``on_language_change`` and rebuilds:
``language_picker()`` is the dropdown that does the switching.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as widgets

from railkit.ui import i18n

LANG_PARAMETER = "lang"
ENV_VARIABLE = "RAILKIT_LANG"
# Each language named in itself, as a picker shows it.
LANGUAGE_NAMES = {"en": "English", "fi": "suomi", "hu": "magyar", "es": "español"}

_listeners: list[Callable[[], Callable[[str], Any] | None]] = []


MAX_QUERY_LENGTH = 4096  # a longer page address is not read for the language
MAX_QUERY_FIELDS = 20


def asked_language(query: str | None = None, environ: Mapping[str, str] | None = None) -> str | None:
    """The language the page or the server asks for (``?lang=`` in ``query``, default Voila's
    ``QUERY_STRING``, else ``RAILKIT_LANG``), or None when neither names a language railkit has.
    Hostile values (huge, many fields, odd characters) are ignored, never an error."""
    environ = os.environ if environ is None else environ
    if query is None:
        query = environ.get("QUERY_STRING", "")
    query = str(query)
    asked = ""
    if len(query) <= MAX_QUERY_LENGTH:
        try:
            fields = parse_qs(query.lstrip("?"), max_num_fields=MAX_QUERY_FIELDS)
        except ValueError:
            fields = {}
        asked = (fields.get(LANG_PARAMETER) or [""])[-1]
    for candidate in (asked, str(environ.get(ENV_VARIABLE, ""))):
        found = i18n.known_language(candidate.strip()) if candidate and len(candidate) <= 20 else None
        if found:
            return found
    return None


def requested_language(query: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language a page asks for: ``?lang=`` in ``query`` (default: Voila's ``QUERY_STRING``),
    else ``RAILKIT_LANG``, else 'en'. Values railkit has no catalog for are skipped."""
    return asked_language(query, environ) or i18n.DEFAULT_LANGUAGE


def use_page_language(query: str | None = None, environ: Mapping[str, str] | None = None,
                      only_if_asked: bool = False) -> str:
    """Switch to ``requested_language`` (an app calls this before it builds); returns the language.
    ``only_if_asked``: when the page and the server ask for nothing, keep the language in use (a
    notebook that chose one, a test)."""
    asked = asked_language(query, environ)
    if asked is None and only_if_asked:
        return i18n.get_language()
    language = asked or i18n.DEFAULT_LANGUAGE
    switch_language(language)
    return language


def follow_page_language() -> threading.Thread | None:
    """Under Voila's pre-rendered kernels the page address arrives after the app was built: wait for it in
    the background (as the learner's name does, ``railkit.ui.records.learner.follow_page_address``) and switch to
    its ``?lang=`` then; elsewhere nothing to do."""
    from railkit.ui.records.learner import follow_page_address  # the learner module speaks through i18n too

    def arrived(_found: object) -> None:
        asked = asked_language(environ={"QUERY_STRING": os.environ.get("QUERY_STRING", "")})
        if asked:
            switch_language(asked)

    return follow_page_address(arrived)


def on_language_change(callback: Callable[[str], Any]) -> None:
    """Call ``callback(language)`` after every ``switch_language`` to another language. Bound methods
    are held weakly, so an app that is gone stops listening."""
    ref: Callable[[], Callable[[str], Any] | None]
    if hasattr(callback, "__self__") and hasattr(callback, "__func__"):
        ref = weakref.WeakMethod(callback)
    else:
        ref = lambda: callback  # noqa: E731 - a plain function lives as long as its module
    _listeners.append(ref)


def switch_language(language: str) -> None:
    """``i18n.set_language`` plus telling the listeners (apps rebuild their widgets)."""
    before = i18n.get_language()
    i18n.set_language(language)
    now = i18n.get_language()
    if now == before:
        return
    for ref in list(_listeners):
        callback = ref()
        if callback is None:
            _listeners.remove(ref)
        else:
            callback(now)


def language_picker() -> widgets.Dropdown:
    """A dropdown of the languages with catalogs, each named in itself; choosing one switches."""
    options = [(LANGUAGE_NAMES.get(code, code), code) for code in ("en", *i18n.catalog_languages())]
    current = i18n.get_language()
    value = current if current in {code for _, code in options} else "en"
    # Labelled (a screen reader needs the select's accessible name); ipywidgets links the description to the select.
    picker = widgets.Dropdown(options=options, value=value, description=i18n.tr("Language"),
                              style={"description_width": "initial"}, layout=widgets.Layout(width="auto"))
    picker.add_class("railkit-language")
    picker.observe(lambda change: switch_language(change["new"]), names="value")
    return picker
