"""Headless: one learner, named once in the page address (``?name=Aino``, else “You”) and
used by every lesson; a bad name is refused with a message; seats and the other players' names; the
engines' third-person sentences read in the second person for the learner, in both games."""

from __future__ import annotations

import html
import random
import re
import time

import pytest
from test_ui_names import shown_markup

from railkit.capecairo import new_game as kk_new_game
from railkit.capecairo.bots import HeuristicBot as KkBot
from railkit.errors import InputError
from railkit.lessons import LESSONS as REGISTRY
from railkit.ui.capecairo.auction import KkAuctionApp
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.index import IndexApp
from railkit.ui.records.learner import (
    DEFAULT_LEARNER,
    VERBS,
    check_name,
    name_from_address,
    name_query,
    seat_players,
    second_person,
    typed_names,
)
from railkit.ui.unionpacific.dividends import DividendsApp
from railkit.ui.unionpacific.setup import SetupApp
from railkit.unionpacific import new_game as up_new_game
from railkit.unionpacific.bots import HeuristicBot as UpBot

HOSTILE = "<img src=x onerror=alert(1)>"
OTHER_DEFAULTS = ("Alex", "Kim")  # names earlier lessons gave the learner


# -- the name in the page address -------------------------------------------------------------------
@pytest.mark.parametrize(("query", "name"), [
    ("name=Aino", "Aino"), ("?name=%20Li%20%20Na%20", "Li Na"), ("", DEFAULT_LEARNER), ("other=1", DEFAULT_LEARNER),
    ("name=", DEFAULT_LEARNER), ("name=A&name=Bo", "Bo"), ("name=%C3%84ij%C3%A4", "Äijä"), ("name=" + "x" * 30, "x" * 30),
])
def test_the_name_comes_from_the_page_address(query, name):
    found = name_from_address(query)
    assert found.name == name and found.problem == ""
    assert found.given == (name != DEFAULT_LEARNER)


@pytest.mark.parametrize(("query", "words"), [
    ("name=" + "x" * 31, "at most 30 characters"),
    ("name=" + "x" * 10_000, "at most 30 characters"),  # 10 KB: refused before it is tidied or copied
    ("name=Ai%0Ano", "control characters"), ("name=Ai%07no", "control characters"),
    ("name=%1B%5B31m", "control characters"), ("name=Ai%E2%80%8Eno", "control characters"),  # a direction mark
])
def test_a_bad_name_is_refused_with_a_message_and_You_is_used(query, words):
    found = name_from_address(query)
    assert found.name == DEFAULT_LEARNER and not found.given
    assert words in found.problem and "You" in found.problem
    assert len(found.problem) < 400  # the message never repeats a huge name


def test_a_page_address_with_very_many_fields_is_not_read():
    assert name_from_address("&".join(f"f{i}=1" for i in range(5000)) + "&name=Aino").name == DEFAULT_LEARNER


def test_a_name_like_markup_is_a_name_and_travels_url_encoded():
    assert name_from_address("name=" + HOSTILE.replace(" ", "%20")).name == HOSTILE
    assert name_query(HOSTILE) == "?name=%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E"
    assert name_query("Li Na & Bo") == "?name=Li%20Na%20%26%20Bo" and name_query(DEFAULT_LEARNER) == ""


def test_typed_names_follow_the_engines_rules():
    assert check_name("  Li   Na ", "Your name") == "Li Na"
    for bad in ("", "   ", "x" * 31, "A\tB", "x" * 10_000):
        with pytest.raises(InputError, match="Your name"):
            check_name(bad, "Your name")


def test_seats_and_the_other_players_names():
    assert seat_players("Aino", ["Ann", "Ben"], 0) == ["Aino", "Ann", "Ben"]
    assert seat_players("Aino", ["Ann", "Ben"], 2) == ["Ann", "Ben", "Aino"]
    assert typed_names("Bo, Cy", 3, "Others", ["Ann", "Ben", "Cleo"], taken=("Aino",)) == ["Bo", "Cy", "Ann"]
    assert typed_names("", 2, "Others", ["Ann", "Aino", "Ben"], taken=("aino",)) == ["Ann", "Ben"]
    for text, words in (("Bo, bo", "different name"), ("Aino", "different name"), ("A, B, C", "3 names for 2"),
                        ("Bo, " + "x" * 31, "at most 30"), ("x" * 10_000, "too long")):
        with pytest.raises(InputError, match=words):
            typed_names(text, 2, "Others", ["Ann", "Ben"], taken=("Aino",))


# -- every lesson shows the learner's name ------------------------------------------------------------
def shown(app) -> str:
    """Everything the app shows: HTML widgets and figures (``test_ui_names.shown_markup``)."""
    return "\n".join(shown_markup(app))


def use_the_lesson(app) -> None:
    """What a learner does first, so the lesson shows the players."""
    if isinstance(app, SetupApp):
        app.steps.on_deal()
    elif isinstance(app, DividendsApp):
        app.on_deal()


# Every lesson of railkit/lessons.py; built with no arguments unless named here.
SETTINGS = {"up_play": {"seed": 1, "players": 3, "game_number": 7}, "kk_auction": {"seed": 1},
            "kk_play": {"seed": 1, "win_crossings": 3}}
LESSONS = {x.id: (lambda x=x: x.load()(**SETTINGS.get(x.id, {}))) for x in REGISTRY}


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lesson_uses_the_name_in_the_page_address(lesson, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "name=Aino")
    app = LESSONS[lesson]()
    use_the_lesson(app)
    text = shown(app) + "\n" + app.message_text
    assert "Aino" in text, f"{lesson} does not show the learner's name"
    for other in OTHER_DEFAULTS:
        assert other not in text, f"{lesson} shows {other}"
    # a table cell naming a player “You” (“You: choose a first share” speaks to the learner, and is right)
    assert not re.search(r"<td[^>]*>(?:<[^>]+>)*\s*You\s*<|You \(you\)|You[’']s", text), f"{lesson}: “You” as a player"
    if hasattr(app, "session") and app.session is not None:
        assert app.session.you == "Aino" and "You" not in app.game.players


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lesson_without_a_name_calls_the_learner_You(lesson, monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    app = LESSONS[lesson]()
    use_the_lesson(app)
    text = shown(app) + "\n" + app.message_text
    for other in OTHER_DEFAULTS:
        assert other not in text, f"{lesson} shows {other}"
    if hasattr(app, "session") and app.session is not None:
        assert app.session.you == DEFAULT_LEARNER


@pytest.mark.parametrize("lesson", LESSONS)
@pytest.mark.parametrize("query", ["name=" + "x" * 10_000, "name=Ai%0Ano"])
def test_every_lesson_refuses_a_bad_name_with_a_message(lesson, query, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", query)
    app = LESSONS[lesson]()
    assert app.message_kind == "error" and "was not used" in app.message_text, lesson
    assert "x" * 31 not in shown(app) and "Ai\nno" not in shown(app)
    if hasattr(app, "session") and app.session is not None:
        assert app.session.you == DEFAULT_LEARNER


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lesson_shows_a_name_like_markup_as_text(lesson, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "name=" + HOSTILE.replace(" ", "%20"))
    app = LESSONS[lesson]()
    use_the_lesson(app)
    markup = shown(app)
    assert "<img" not in markup.replace(HOSTILE, ""), f"{lesson} shows the name as markup"
    assert html.escape(HOSTILE) in markup or HOSTILE in app.message_text


def test_the_index_field_writes_the_name_into_every_lesson_link(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    app = IndexApp()
    assert app.name.value == "" and "?name" not in app.links.value and app.links.value.count("<a ") == 6
    app.name.value = "Li Na"
    assert app.links.value.count("?name=Li%20Na'") == 6 and "Li Na" in app.message_text
    app.name.value = HOSTILE
    assert "<img" not in app.links.value and "?name=%3Cimg%20src%3Dx" in app.links.value
    app.name.value = "x" * 10_000
    assert app.message_kind == "error" and "?name" not in app.links.value
    app.name.value = ""
    app.on_use()
    assert app.message_kind == "info" and "“You”" in app.message_text and "?name" not in app.links.value
    monkeypatch.setenv("QUERY_STRING", "name=Aino")
    assert IndexApp().links.value.count("?name=Aino'") == 6


# -- seats and opponents in Kap bis Kairo ------------------------------------------------------------
@pytest.mark.parametrize("App", [KkPlayApp, KkAuctionApp])
def test_kk_the_learner_chooses_a_seat_and_names_the_others(App):
    app = App(seed=2, players=3, name="Aino", seat=2, others="Bo, Cy")
    assert app.game.players == ("Bo", "Cy", "Aino") and app.you == "Aino"
    app.start.players.value = 4
    app.start.seat.value = 1
    app.start.others.value = "Dee"
    app.on_new_game()
    assert app.game.players == ("Dee", "Aino", "Ann", "Ben")
    app.start.players.value = 2  # seat 2 of 4 no longer exists? the 2nd still does
    assert app.start.seat.value == 1 and len(app.start.seat.options) == 2
    app.start.others.value = "Aino"
    app.on_new_game()
    assert app.message_kind == "error" and "different name" in app.message_text
    assert app.game.players == ("Dee", "Aino", "Ann", "Ben")  # a refused table changes nothing


def test_kk_a_name_arriving_later_deals_again_until_the_learner_moves():
    from railkit.ui.records.learner import LearnerName

    app = KkPlayApp(seed=3, players=2, win_crossings=3, name=None)
    assert app.on_learner(LearnerName("Aino", given=True)) is True and app.you == "Aino"
    app.on_auto()
    assert app.on_learner(LearnerName("Bo", given=True)) is False and app.you == "Aino"


# -- the second person over real games ----------------------------------------------------------------
THIRD_PERSON = sorted(k for k, v in VERBS.items() if k != v)
NOT_VERBS = {"and", "coin"}  # “Kim and Ben both bid 9”, “Draws: Kim coin 3”


def play_out(game, bot, limit=4000):
    bots = {p: bot(i) for i, p in enumerate(game.players)}
    for _ in range(limit):
        if game.is_over:
            break
        player = game.view(None).to_act[0]
        game.apply(bots[player].choose(game, player))
    return game.narrative


def check_second_person(lines, name):
    subject = re.compile(rf"(?:^|[:;] |\d\. |\n){re.escape(name)}(?: \(\d+\))? ([a-z]+)\b")
    bad_you = re.compile(rf"\b[Yy]ou(?: \(\d+\))? ({'|'.join(THIRD_PERSON)})\b")
    changed = 0
    for line in lines:
        for verb in subject.findall(line):
            assert verb in VERBS or verb in NOT_VERBS, f"an engine verb the page does not know: {verb!r} in {line!r}"
        out = second_person(line, name)
        assert not bad_you.search(out), f"wrong English: {out!r}"
        assert not re.search(r"\b[Yy]ou[’']s\b", out), out
        if name != DEFAULT_LEARNER:
            assert not [v for v in subject.findall(out) if v in VERBS], f"still third person: {out!r}"
        if line.startswith(name + " ") and not line.startswith(name + " and"):
            assert out.startswith("You "), out
        changed += out != line
    return changed


@pytest.mark.parametrize("seed", range(20))
def test_kk_engine_sentences_about_the_learner_read_in_the_second_person(seed):
    name = ("Kim", DEFAULT_LEARNER, "Aino", "Li Na")[seed % 4]
    players = [name, "Ann", "Ben", "Cleo"][: 2 + seed % 3]
    random.Random(seed).shuffle(players)
    lines = play_out(kk_new_game(players, seed=seed, win_crossings=3 + seed % 4), KkBot)
    assert check_second_person(lines, name) > 0


@pytest.mark.parametrize("seed", range(20))
def test_up_engine_sentences_about_the_learner_read_in_the_second_person(seed):
    name = ("Kim", DEFAULT_LEARNER, "Aino", "Li Na")[seed % 4]
    players = [name, "Ann", "Ben", "Cleo"][: 2 + seed % 3]
    random.Random(seed).shuffle(players)
    game = up_new_game(players, seed=seed)
    lines = play_out(game, UpBot)
    steps = [s for p in game.state.payouts for s in getattr(p, "steps", ())]
    assert check_second_person(lines + steps, name) > 0


def test_the_engines_keep_the_third_person():
    game = kk_new_game(["You", "Ann"], seed=1)
    play_out(game, KkBot, limit=10)
    assert any(line.startswith("You hands in") for line in game.narrative)


def test_a_preheated_lesson_waits_for_the_page_address_in_the_background(monkeypatch):
    from railkit.ui.records.learner import follow_page_address

    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    assert follow_page_address(print) is None  # not a pre-rendered kernel: the address was read at the start
    import railkit.ui.page_request as page_request

    monkeypatch.setattr(page_request, "wait_for_page_request",
                        lambda: monkeypatch.setenv("QUERY_STRING", "name=Aino"))  # the page has opened
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    heard = []
    follow_page_address(heard.append).join(timeout=10)
    assert [h.name for h in heard] == ["Aino"]
    monkeypatch.delenv("QUERY_STRING")
    app = KkAuctionApp(seed=4, players=2)  # starts as “You”, then hears the address in the background
    deadline = time.monotonic() + 60  # a generous deadline: the name usually arrives within milliseconds
    while app.you != "Aino" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert app.you == "Aino" and app.start.name_field.value == "Aino"
