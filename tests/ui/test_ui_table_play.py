"""“Play with others” where no table server can be reached: on Binder, in the static
site's browser kernel and without ``make run``'s server, the panel says in one sentence why and what to
use instead, and offers no controls that could not work."""

from __future__ import annotations

import html
import re
import sys

import pytest

from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.i18n import set_language
from railkit.ui.table_link import place, seat_from_query
from railkit.ui.unionpacific.play import PlayApp


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


@pytest.fixture(autouse=True)
def no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAILKIT_TABLES_URL", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    for key in [k for k in __import__("os").environ if k.startswith("BINDER_")]:
        monkeypatch.delenv(key)


@pytest.mark.parametrize("app", [KkPlayApp, PlayApp])
def test_TABLES_on_binder_play_with_others_says_why_not_and_what_instead(app: type,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILKIT_TABLES_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("BINDER_LAUNCH_HOST", "https://mybinder.org/")
    panel = app(seed=1).together
    words = text(panel.note.value)
    assert place() == "binder" and "not available on Binder" in words and "make run" in words
    assert words.count(".") == 1  # one sentence
    assert panel.start_box.layout.display == "none"
    panel.on_create()
    assert "Binder" in panel.messages.text and panel.link is None


def test_TABLES_in_the_browser_kernel_play_with_others_says_why_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")
    panel = KkPlayApp(seed=1).together
    assert place() == "browser" and "inside your browser" in text(panel.note.value)
    assert panel.start_box.layout.display == "none"


def test_TABLES_without_a_table_server_the_lesson_names_make_run(monkeypatch: pytest.MonkeyPatch) -> None:
    panel = KkPlayApp(seed=1).together
    assert place() == "none" and "make run" in text(panel.note.value)
    set_language("fi")
    try:
        panel.refresh()
        assert "make run" in text(panel.note.value) and "pöytäpalvelimen" in text(panel.note.value)
    finally:
        set_language("en")


def test_TABLES_the_seat_comes_from_the_page_address_only_when_it_names_table_and_seat() -> None:
    assert seat_from_query("?table=abc234&seat=tok") == ("ABC234", "tok")
    assert seat_from_query("table=ABC234") is None
    assert seat_from_query("seat=tok") is None
    assert seat_from_query("table=" + "A" * 40 + "&seat=t") is None
