"""Links for the class (``railkit.ui.tables.class_link``): the teacher's link sets a play lesson's game number, players
and variant so every learner starts on the same game; hostile or out-of-range values are refused in words and
the lesson starts with its defaults; a table's code in the link fills “Play with others”."""

from __future__ import annotations

import os

import pytest

from railkit.ui.capecairo.auction import KkAuctionApp
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.tables.class_link import class_link, class_options
from railkit.ui.unionpacific.play import PlayApp
from railkit.ui.unionpacific.setup import SetupApp


@pytest.fixture(autouse=True)
def no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAILKIT_TABLES_URL", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    for key in [k for k in os.environ if k.startswith("BINDER_")]:
        monkeypatch.delenv(key)


def test_CLASS_LINK_the_fields_are_read_bounded_and_refused_in_words() -> None:
    found = class_options("up_play", "seed=42&players=3&variant=finnish&lang=fi")
    assert (found.seed, found.players, found.variant, found.problems) == (42, 3, "finnish", ())
    for hostile in ("seed=-1", "seed=1000000000", "seed=%3Cscript%3E", "seed=１２", "players=7", "players=1",
                    "players=x", "variant=../../etc", "variant=" + "a" * 500):
        found = class_options("up_play", hostile)
        assert not found.given and len(found.problems) == 1, hostile
        assert "was not used" in found.problems[0] and "default" in found.problems[0]
    assert class_options("kk_play", "players=5&variant=5").players is None
    assert class_options("kk_play", "variant=5").variant == "5"
    assert not class_options("up_dividends", "seed=3&players=3").given  # that lesson deals no game from a link
    assert class_options("kk_auction", "seed=5&players=4&variant=5") == class_options("kk_auction", "seed=5&players=4")


def test_CLASS_LINK_the_teacher_gets_one_link_per_lesson_with_the_fields_it_takes() -> None:
    assert class_link("up_play", 42, 3, "finnish", "fi") == "../up_play.ipynb?seed=42&players=3&variant=finnish&lang=fi"
    assert class_link("kk_play", 7, 2, "5", None, "ABC234") == "../kk_play.ipynb?seed=7&players=2&variant=5&table=ABC234"
    assert class_link("up_dividends", 42, 3, "finnish", "hu") == "../up_dividends.ipynb?lang=hu"
    with pytest.raises(ValueError):
        class_link("up_play", players=9)
    with pytest.raises(ValueError):
        class_link("kk_play", table="<b>")


def test_CLASS_LINK_UP_every_learner_gets_the_same_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "seed=4242&players=3&variant=finnish")
    first, second = PlayApp(), PlayApp(seed=99)
    for app in (first, second):
        game = app.game
        assert game.seed == 4242 and len(game.players) == 3 and game.options["deck"] == "finnish"
    assert first.game.view(None).display == second.game.view(None).display


def test_CLASS_LINK_KK_the_link_deals_the_first_game_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "seed=77&players=2&variant=5")
    app = KkPlayApp()
    assert app.game.seed == 77 and len(app.game.players) == 2 and app.game.options["win_crossings"] == 5
    assert KkPlayApp(seed=3).game.state.deck == app.game.state.deck
    app.on_new_game()
    assert app.game.seed != 77 or app.game.state.deck != KkPlayApp().game.state.deck


def test_CLASS_LINK_hostile_values_leave_the_defaults_and_say_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "seed=99999999999&players=40&variant=%00")
    app = PlayApp()
    assert app.message_kind == "error" and "was not used" in app.message_text
    assert len(app.game.players) == 4 and app.game.options["deck"] == "standard"
    kk = KkPlayApp()
    assert kk.message_kind == "error" and len(kk.game.players) == 3 and kk.game.options["win_crossings"] == 8


def test_CLASS_LINK_a_table_code_in_the_link_fills_play_with_others(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILKIT_TABLES_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("QUERY_STRING", "table=abc234")
    app = KkPlayApp(seed=1)
    assert app.together.code.value == "ABC234" and app.together.link is None and app.tabs.selected_index == 2
    monkeypatch.setenv("QUERY_STRING", "table=ABC%3Cb%3E")
    assert KkPlayApp(seed=1).together.code.value == ""


def test_CLASS_LINK_KK_A1_the_auction_lesson_deals_the_links_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "seed=31&players=4")
    first, second = KkAuctionApp(), KkAuctionApp(seed=8)
    for app in (first, second):
        assert app.session is not None
        game = app.session.game
        assert game.seed == 31 and len(game.players) == 4
    assert first.view().offer == second.view().offer  # the same cards on sale
    assert class_link("kk_auction", 31, 4, None, "es") == "../kk_auction.ipynb?seed=31&players=4&lang=es"
    monkeypatch.setenv("QUERY_STRING", "seed=x&players=9")
    refused = KkAuctionApp()
    assert refused.message_kind == "error" and "was not used" in refused.message_text
    assert refused.session is not None and len(refused.session.game.players) == 3


def test_CLASS_LINK_UP_S7_the_setup_lesson_deals_the_links_game_at_the_first_deal(monkeypatch: pytest.MonkeyPatch) \
        -> None:
    monkeypatch.setenv("QUERY_STRING", "seed=515&players=5&variant=dividend_cards")
    first, second = SetupApp(), SetupApp(seed=4)
    for app in (first, second):
        assert (app.steps.players.value, app.steps.deck.value) == (5, "dividend_cards")
        app.steps.on_deal()
        game = app.steps.dealt
        assert game.seed == 515 and len(game.players) == 5 and game.options["deck"] == "dividend_cards"
    assert first.steps.dealt.state.deck == second.steps.dealt.state.deck  # the same deal for the class
    first.steps.on_deal()  # “Deal” again: a fresh game
    assert first.steps.dealt.seed != 515 or first.steps.dealt.state.deck != second.steps.dealt.state.deck
    assert first.on_class_link() is False  # a learner's dealt game stays when the address arrives later
    monkeypatch.setenv("QUERY_STRING", "players=1&variant=german")
    refused = SetupApp()
    assert refused.message_kind == "error" and "was not used" in refused.message_text
    assert (refused.steps.players.value, refused.steps.deck.value) == (4, "standard")
