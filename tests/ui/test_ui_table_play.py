"""“Play with others” where no table server can be reached: on Binder, in the static
site's browser kernel and without ``make run``'s server, the panel says in one sentence why and what to
use instead, and offers no controls that could not work."""

from __future__ import annotations

import dataclasses
import html
import random
import re
import sys

import pytest

from railkit.errors import RuleError
from railkit.tables.table import message_json
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.class_http import ServerProblem
from railkit.ui.i18n import set_language
from railkit.ui.tables.table_html import problem_words
from railkit.ui.tables.table_link import place, seat_from_query
from railkit.ui.unionpacific.play import PlayApp
from railkit.unionpacific import new_game


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


# -- what a refusal says (railkit.ui.tables.table_html.problem_words) -----------------------------------------------
PANEL_CODES = ("offline", "stale", "closed", "no_table", "no_seat", "bad_token", "limit", "too_fast", "not_your_seat",
               "not_creator", "name_taken", "seat_connected")


def _first_share_refusal() -> ServerProblem:
    """A real rules refusal as the table server sends it: a seat choosing a second first share (UP-S5)."""
    game = new_game(3, seed=1)
    rng = random.Random(1)
    while len(game.players_to_act()) != 1:
        game.apply(game.random_action(game.players_to_act()[0], rng))
    done = next(p for p in game.players if p not in game.players_to_act())
    action = dataclasses.replace(game.legal_actions(game.players_to_act()[0])[0], player=done)
    with pytest.raises(RuleError) as refused:
        game.apply(action)
    return ServerProblem("rule", str(refused.value.message), refused.value.rule, message_json(refused.value.message))


@pytest.mark.parametrize("language", ["en", "fi"])
def test_TABLES_each_refusal_the_panel_knows_has_its_own_words_in_the_pages_language(language: str) -> None:
    english = {code: problem_words(ServerProblem(code, f"server text {code}"), "Ann") for code in PANEL_CODES}
    teacher_only = ServerProblem("seat_connected", "server text", details={"seat": "Ben", "teacher_only": True})
    assert "only your teacher" in problem_words(teacher_only, "Ann") and "Ben" in problem_words(teacher_only, "Ann")
    set_language(language)
    try:
        said = {code: problem_words(ServerProblem(code, f"server text {code}"), "Ann") for code in PANEL_CODES}
    finally:
        set_language("en")
    assert len(set(said.values())) == len(PANEL_CODES)  # no two read alike
    assert not any("server text" in words for words in said.values())  # the server's English never shows
    if language != "en":
        assert not set(said.values()) & set(english.values())  # every one translated


def test_TABLES_a_rules_refusal_is_told_in_the_engines_words_to_the_seat_with_its_rule() -> None:
    problem = _first_share_refusal()
    seat = problem.words["params"]["player"]
    words = problem_words(problem, seat)
    assert "(UP-S5)" in words and "you have already chosen a first share" in words.lower()
    assert seat not in words  # addressed to the seat, not about it
    set_language("fi")
    try:
        finnish = problem_words(problem, seat)
    finally:
        set_language("en")
    assert "(UP-S5)" in finnish and finnish != words and "already chosen" not in finnish
