"""Player names are text, never markup, in every app (headless): a hostile name is escaped in every HTML
widget and figure, and a typed name longer than the engine allows is refused with a clear message."""

import html
import random

import ipywidgets as widgets
import pytest

from railkit.game import MAX_NAME_LENGTH
from railkit.ui.capecairo.auction import KkAuctionApp
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.unionpacific.building import BuildingApp
from railkit.ui.unionpacific.dividends import DividendsApp
from railkit.ui.unionpacific.play import PlayApp
from railkit.ui.unionpacific.setup import SetupApp
from railkit.unionpacific import new_game

HOSTILE = "<img src=x onerror=alert(1)>"
assert len(HOSTILE) <= MAX_NAME_LENGTH


def shown_markup(app) -> list[str]:
    """Every piece of HTML the app shows: HTML widgets, and the text fields of the figures on screen."""
    seen, out, stack = set(), [], [app.widget]
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        if isinstance(w, (widgets.HTML, widgets.HTMLMath)):
            out.append(w.value)
        if isinstance(w, widgets.Output):
            out.append(str(w.outputs))  # the plotly JSON: names, text, hover text
        stack.extend(getattr(w, "children", ()) or ())
    return out


def assert_no_markup_from_names(app):
    raw = [m for m in shown_markup(app) if "<img" in m]
    assert not raw, f"a name was shown as markup: {raw[0][:300]}"


def assert_shown_as_text(app):
    assert any(html.escape(HOSTILE) in m for m in shown_markup(app)), "the name is not shown at all"


def play_up(app, moves):
    for _ in range(moves):
        if app.game.is_over:
            return
        if app.session.hot_seat and app.session.revealed_to != app.session.acting:
            app.on_show_hand()
        assert app.act(lambda p, g=app.game: g.legal_actions(p)[0]) is True, app.message_text


def test_up_play_against_the_computer_with_a_hostile_name():
    app = PlayApp(seed=1, players=3, name=HOSTILE, game_number=5)
    assert app.game.players[0] == HOSTILE
    play_up(app, 60)
    app.log.widget.selected_index = 0
    assert_no_markup_from_names(app)
    assert_shown_as_text(app)


def test_up_play_hot_seat_with_hostile_names_and_a_payout():
    app = PlayApp(seed=2, players=2, hot_seat=True, names=f"{HOSTILE}, Bob", game_number=9)
    assert app.game.players == (HOSTILE, "Bob") and app.session.hot_seat
    app.on_show_hand()
    while not app.game.state.payouts:
        play_up(app, 1)
    app.exercise.on_skip()
    app.log.widget.selected_index = 0
    assert_no_markup_from_names(app)
    assert_shown_as_text(app)
    app.show_info(app.next_words())  # the message bar escapes its text itself
    assert HOSTILE in app.message_text or "Bob" in app.message_text
    assert_no_markup_from_names(app)


def test_up_play_loads_a_save_with_hostile_names_as_text():
    app = PlayApp(seed=3, players=2, game_number=2)
    app.saves.area.value = new_game([HOSTILE, "Ann"], seed=4).to_json()
    assert app.saves.on_load() is True, app.message_text
    play_up(app, 10)
    assert_no_markup_from_names(app)
    assert_shown_as_text(app)


@pytest.mark.parametrize("make", [lambda: KkPlayApp(seed=1), lambda: KkAuctionApp(seed=1)], ids=["kk_play", "kk_auction"])
def test_kap_bis_kairo_apps_with_a_hostile_name(make):
    app = make()
    app.start.name_field.value = HOSTILE
    app.on_new_game()
    assert app.game.players[0] == HOSTILE, app.message_text
    rng = random.Random(1)
    for _ in range(8):
        game = app.game
        if game.is_over:
            break
        if game.phase == "bid":
            app.auction.bid_field.value = str(rng.randint(0, 10))
            app.on_bid()
        elif game.phase == "choose" and HOSTILE in game.players_to_act():
            app.on_choose(game.state.offer[0])
        elif isinstance(app, KkPlayApp):
            app.on_pass()
        else:
            app.on_next_auction()
    assert_no_markup_from_names(app)
    assert_shown_as_text(app)


def test_lessons_with_fixed_names_escape_them_too(monkeypatch):
    import railkit.ui.unionpacific.dividends.app as dividends
    import railkit.ui.unionpacific.setup.steps as steps

    monkeypatch.setattr(dividends, "PLAYER_NAMES", (HOSTILE, "Ben", "Cleo", "Dev", "Eva", "Finn"))
    app = DividendsApp(seed=1)
    assert app.on_pay() is not None, app.message_text
    app.on_deal()
    assert_no_markup_from_names(app)
    assert_shown_as_text(app)

    monkeypatch.setattr(steps, "BOT_NAMES", (HOSTILE, "Ben", "Cleo", "Dev", "Eva"))
    setup = SetupApp(seed=1)
    setup.steps.on_deal()
    assert_no_markup_from_names(setup)
    assert_shown_as_text(setup)
    assert_no_markup_from_names(BuildingApp(seed=1))  # no player names at all


# -- long names --------------------------------------------------------------------------------------
LONG = "A" * (MAX_NAME_LENGTH + 1)


def test_up_play_refuses_a_name_longer_than_the_engine_allows():
    app = PlayApp(seed=1, players=2, game_number=1)
    game = app.game
    app.setup.name.value = LONG
    assert app.on_new_game() is None and app.game is game
    assert app.message_kind == "error" and f"at most {MAX_NAME_LENGTH} characters" in app.message_text
    app.setup.name.value = "B" * MAX_NAME_LENGTH  # the longest name is fine
    assert app.on_new_game() is True and app.game.players[0] == "B" * MAX_NAME_LENGTH


@pytest.mark.parametrize("names, words", [
    (f"Ann, {LONG}", f"at most {MAX_NAME_LENGTH} characters"),
    ("Ann, Ann", "different name"),
    ("Ann, Ben, Cleo", "3 names for 2 players"),
])
def test_up_play_hot_seat_names_are_checked(names, words):
    app = PlayApp(seed=1, players=2, hot_seat=True, game_number=1)
    game = app.game
    app.setup.names.value = names
    assert app.on_new_game() is None and app.game is game
    assert app.message_kind == "error" and words in app.message_text


def test_up_play_hot_seat_names_fill_the_seats_in_order():
    app = PlayApp(seed=1, players=3, hot_seat=True, names="Zoe", game_number=1)
    assert app.game.players == ("Zoe", "Player 1", "Player 2")


def test_kap_bis_kairo_refuses_a_long_name():
    app = KkPlayApp(seed=1)
    game = app.game
    app.start.name_field.value = LONG
    app.on_new_game()
    assert app.game is game and app.message_kind == "error"
    assert f"at most {MAX_NAME_LENGTH} characters" in app.message_text
