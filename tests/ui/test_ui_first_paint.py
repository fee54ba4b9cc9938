"""A lesson's first map waits for its Voila page to have its widgets (railkit.ui.first_paint)."""

from __future__ import annotations

import threading

import pytest
from ipywidgets import Widget
from ipywidgets.widgets import widget as widget_module

from railkit.ui import first_paint
from railkit.ui.first_paint import defer_first_show


class FakeView:
    def __init__(self) -> None:
        self.drawn: list[object] = []

    def show(self, fig: object) -> None:
        self.drawn.append(fig)


class FakeComm:
    def __init__(self) -> None:
        self.sent = 0

    def send(self, *args: object, **kwargs: object) -> None:
        self.sent += 1


@pytest.fixture
def voila(monkeypatch):
    """A kernel started by Voila, with ipywidgets' control comm open and no release delay.

    A fresh kernel holds only its page's widgets: the page's ``request_states`` serialises every live widget, and
    in a test process that has built hundreds of lessons before that took a minute and more."""
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setattr(widget_module, "_instances", {})
    monkeypatch.setattr(Widget, "_handle_control_comm_msg", Widget.__dict__["_handle_control_comm_msg"])
    monkeypatch.setattr(Widget, "_control_comm", FakeComm(), raising=False)
    monkeypatch.setattr(first_paint, "_hooked", False)
    monkeypatch.setattr(first_paint, "_waiting", [])
    monkeypatch.setattr(first_paint, "_page_has_widgets", False)
    monkeypatch.setattr(first_paint, "RELEASE_DELAY_S", 0.0)
    return Widget._control_comm


def page_asks_for_its_widgets() -> None:
    """The page's ``request_states``; returns once the release it started (on a timer thread) has run.

    Only the timers this call started are waited for: the process may hold other tests' and libraries' timers
    (joining every ``threading.Timer`` once made each of these tests take 15 s in the suite)."""
    before = set(threading.enumerate())
    Widget._handle_control_comm_msg({"content": {"data": {"method": "request_states"}}})
    for thread in set(threading.enumerate()) - before:
        if isinstance(thread, threading.Timer):
            thread.join(60)  # a generous deadline: the release delay is 0 here
            assert not thread.is_alive(), "the figures' release did not run within 60 s"


def test_outside_voila_a_figure_is_shown_at_once(monkeypatch):
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    view = FakeView()
    assert defer_first_show(view) is False
    view.show("map")
    assert view.drawn == ["map"]


def test_under_voila_the_newest_figure_is_drawn_once_the_page_has_its_widgets(voila):
    view = FakeView()
    assert defer_first_show(view) is True
    view.show("first map")
    view.show("map after a click")
    assert view.drawn == []  # the page's state goes out with an empty map slot
    page_asks_for_its_widgets()
    assert voila.sent == 1  # ipywidgets still answered the page
    assert view.drawn == ["map after a click"]
    view.show("next map")
    assert view.drawn == ["map after a click", "next map"]  # from then on at once


def test_a_view_with_nothing_to_draw_yet_just_starts_drawing_later(voila):
    view = FakeView()
    defer_first_show(view)
    page_asks_for_its_widgets()
    assert view.drawn == []
    view.show("map")
    assert view.drawn == ["map"]


def test_a_view_made_after_the_page_appeared_draws_at_once(voila):
    """A lesson restarted in place (a club's board uploaded) makes new views: nothing would release them."""
    first = FakeView()
    assert defer_first_show(first) is True  # the lesson as the page first shows it
    page_asks_for_its_widgets()
    view = FakeView()
    assert defer_first_show(view) is False
    view.show("map on the club's board")
    assert view.drawn == ["map on the club's board"]
