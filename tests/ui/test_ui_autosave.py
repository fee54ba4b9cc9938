"""Nothing lost on reload (railkit.ui.autosave): the play lessons keep their game under a key that the page
carries in its address; a new page with that address gets the same game back, any other page does not."""

import pytest
from test_ui_kk_play import play_one_move
from test_ui_up_play import act, first_legal

from railkit.ui.autosave import KEEP_DAYS, GameKeeper, game_key_from_query
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.unionpacific.play import PlayApp


@pytest.fixture(autouse=True)
def own_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("RAILKIT_SAVES_DIR", str(tmp_path / "games"))
    monkeypatch.delenv("QUERY_STRING", raising=False)
    return tmp_path / "games"


def reload_with(monkeypatch, key: str) -> None:
    """What a reload gives the new kernel: the page's address, ``?game=`` included."""
    monkeypatch.setenv("QUERY_STRING", f"name=Alex&game={key}")


def test_up_play_a_reload_brings_the_game_back_where_it_was(monkeypatch):
    app = PlayApp(seed=7, players=4, game_number=11, name="Alex")
    for _ in range(6):
        act(app, first_legal(app))
    log, key = app.game.log, app.keeper.key
    assert f"data-game='{key}'" in app.keeper.mark.value  # the page writes it into its address
    reload_with(monkeypatch, key)
    again = PlayApp(seed=8, players=4, name="Alex")
    assert again.game.log == log and again.game.seed == 11
    assert "Your game is back where you left it" in again.message_text
    assert again.keeper.key == key


def test_kk_play_a_reload_brings_the_game_back_and_a_stranger_gets_a_new_one(monkeypatch):
    import random

    app = KkPlayApp(seed=3)
    rng = random.Random(1)
    for _ in range(4):
        play_one_move(app, rng)
    log = app.game.log
    reload_with(monkeypatch, app.keeper.key)
    assert KkPlayApp(seed=9).game.log == log
    reload_with(monkeypatch, "A" * 24)  # a well-formed key nobody's game has
    stranger = KkPlayApp(seed=9)
    assert stranger.game.log != log and "back where you left it" not in stranger.message_text


def test_a_game_without_a_move_of_the_learner_is_not_kept(own_folder):
    PlayApp(seed=7, players=4, game_number=11, name="Alex")
    assert not own_folder.exists() or not list(own_folder.glob("*.json"))


@pytest.mark.parametrize("query", ["game=../../etc/passwd", "game=short", "game=a&game=b", "game=" + "x" * 65,
                                   "&".join(f"f{i}=1" for i in range(50))])
def test_only_keys_this_module_makes_are_read_from_the_address(query):
    assert game_key_from_query(query) is None


def test_a_broken_kept_file_is_refused_in_words_and_a_new_game_goes_on(monkeypatch, own_folder):
    own_folder.mkdir(parents=True)
    key = "B" * 24
    (own_folder / f"up_play-{key}.json").write_text("{not json")
    reload_with(monkeypatch, key)
    app = PlayApp(seed=7, players=4, name="Alex")
    assert "could not be brought back" in app.message_text and app.message_kind == "error"
    assert app.keeper.key != key and app.session.last_human_move() is None  # a fresh deal


def test_a_kept_game_that_cannot_be_written_never_stops_the_lesson(monkeypatch, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("RAILKIT_SAVES_DIR", str(blocked / "games"))  # a folder inside a file: cannot exist
    app = PlayApp(seed=7, players=4, game_number=11, name="Alex")
    act(app, first_legal(app))
    assert app.message_kind != "error" and len(app.game.log) >= 1


def test_new_game_asks_once_before_throwing_a_game_in_progress_away():
    app = PlayApp(seed=7, players=4, game_number=11, name="Alex")
    act(app, first_legal(app))
    log, key = app.game.log, app.keeper.key
    app.setup.start_button.click()
    assert app.game.log == log and app.message_kind == "error" and "throws this one away" in app.message_text
    app.setup.start_button.click()
    assert app.game.log != log and app.keeper.key != key  # the old game keeps its own key and file


def test_kk_new_game_asks_first_too():
    import random

    app = KkPlayApp(seed=3)
    play_one_move(app, random.Random(1))
    log = app.game.log
    app.start.new_button.click()
    assert app.game.log == log and "throws this one away" in app.message_text
    app.start.new_button.click()
    assert app.game.log != log


def test_games_untouched_for_a_month_are_tidied_away(own_folder):
    import os
    import time

    own_folder.mkdir(parents=True)
    old = own_folder / ("up_play-" + "C" * 24 + ".json")
    old.write_text("{}")
    past = time.time() - (KEEP_DAYS + 1) * 86400
    os.utime(old, (past, past))
    assert GameKeeper("up_play", folder=own_folder).keep("{}")
    assert not old.exists()


def test_kk_auction_a_reload_or_a_language_switch_brings_the_auction_back(monkeypatch):
    """kk_auction keeps its game too (issue 23): the language picker's new page opens it by its key."""
    from railkit.ui.capecairo.auction import KkAuctionApp

    app = KkAuctionApp(seed=5)
    app.auction.bid_field.value = "10"
    app.on_bid()
    log, key = app.game.log, app.keeper.key
    reload_with(monkeypatch, key)
    again = KkAuctionApp(seed=6)
    assert again.game.log == log and again.keeper.key == key
    assert "Your game is back where you left it" in again.message_text
    assert "the bids are revealed" in again.auction.reveal.value  # the reveal of the kept auction is on screen


def test_in_the_browsers_storage_the_page_keeps_the_game_and_hands_it_back(monkeypatch):
    """RAILKIT_SAVES_DIR=browser (and the static site's Pyodide): no file; the kernel puts ``seq|key|text`` in
    the hidden store box for the page's script, and takes ``key|text`` back from the kept box."""
    import random

    monkeypatch.setenv("RAILKIT_SAVES_DIR", "browser")
    app = KkPlayApp(seed=3)
    assert app.keeper.browser and "data-store='browser'" in app.keeper.mark.value
    rng = random.Random(1)
    for _ in range(4):
        play_one_move(app, rng)
    seq, key, text = app.keeper.store.value.split("|", 2)
    assert key == app.keeper.key and int(seq) >= 1 and app.keeper.kept() is None
    again = KkPlayApp(seed=9)  # a reload: a new game until the page brings the kept one
    assert again.game.log != app.game.log
    again.keeper.kept_box.value = "A" * 24 + "|not a save"  # a broken one: refused, a new game stays
    assert "could not be brought back" in again.message_text
    again.keeper.kept_box.value = f"{key}|{text}"
    assert again.game.log == app.game.log and again.keeper.key == key
    assert "Your game is back where you left it" in again.message_text


def test_up_building_a_reload_brings_the_trains_and_the_choices_back(monkeypatch):
    """up_building has no game session: its trains placed and its three choices are kept the same way
    (``KeepsState``), so the language picker's translated page (or a reload) shows the same board."""
    from railkit.ui.unionpacific.building import BuildingApp

    app = BuildingApp(seed=1)
    assert app.lesson_state() is None  # nothing done yet: nothing kept
    app.load_preset("B2e-linked")
    before = len(app.history)
    app.on_place()
    assert len(app.history) == before + 1  # the preset's trains and the one placed
    placed, choice = list(app.history), [app.company.value, app.card.value, app.section.value]
    reload_with(monkeypatch, app.keeper.key)
    again = BuildingApp(seed=2)
    assert again.history == placed and [again.company.value, again.card.value, again.section.value] == choice
    assert again.trains_on == app.trains_on
    assert "Your game is back where you left it" in again.message_text


def test_up_building_a_kept_state_that_breaks_a_rule_is_refused(monkeypatch, own_folder):
    from railkit.ui.unionpacific.building import BuildingApp

    own_folder.mkdir(parents=True)
    key = "B" * 24
    (own_folder / f"up_building-{key}.json").write_text('{"placed": [["UP", "denver--casper", "plains"]], '
                                                         '"choice": [null, null, null]}')
    reload_with(monkeypatch, key)
    app = BuildingApp(seed=2)
    assert app.history == [] and "could not be brought back" in app.message_text


def test_up_dividends_a_reload_brings_the_last_payout_back(monkeypatch):
    from railkit.ui.unionpacific.dividends import DividendsApp

    app = DividendsApp(seed=1)
    assert app.lesson_state() is None
    app.value_field.value = "9"
    app.share_fields[0].value = "4"
    app.on_pay()
    reload_with(monkeypatch, app.keeper.key)
    again = DividendsApp(seed=2)
    assert again.calculated == app.calculated and again.value_field.value == "9"
    assert again.result_html.value == app.result_html.value
    assert again.message_text.startswith("Your game is back where you left it")
