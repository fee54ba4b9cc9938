"""A club's own board or deck in the lessons (``railkit.ui.club_files``): the teacher's
environment variable (a good file is used, a broken one gives a banner and the built-in data), a learner's
upload (bounded, checked, refused without changing anything, accepted → the lesson restarts on it), saves
made on a club file, and every lesson app built with the variables set."""

import datetime
import html
import json
import os
import re
import stat

import pytest

from railkit.capecairo.deck import default_deck_path
from railkit.paths import data_dir
from railkit.ui.capecairo import club_deck
from railkit.ui.capecairo.auction import KkAuctionApp
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.club_files import MAX_UPLOAD_BYTES, TAG_PREFIX, from_environment, private_folder
from railkit.ui.figure_view import figure_spec
from railkit.ui.unionpacific import club_board
from railkit.ui.unionpacific.building import BuildingApp
from railkit.ui.unionpacific.dividends import DividendsApp
from railkit.ui.unionpacific.play import PlayApp
from railkit.ui.unionpacific.setup import SetupApp
from railkit.unionpacific import load_board

EXAMPLE = data_dir() / "union_pacific" / "example_board.json"
SHIPPED_BOARD = data_dir() / "union_pacific" / "board.json"


@pytest.fixture
def broken_board(tmp_path):
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["companies"][1]["trains"] = 5  # UP-C1: red has 19
    data["companies"][2]["hex"] = "yellow"  # a colour is drawn from #rrggbb
    path = tmp_path / "our_board.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def club_deck_file(tmp_path):
    data = json.loads(default_deck_path().read_text(encoding="utf-8"))
    data["cards"][0]["coin"] = 9 if data["cards"][0]["coin"] != 9 else 8  # another deck than the shipped one
    path = tmp_path / "real_deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def upload(panel, content: bytes, name: str = "our_board.json", size: int | None = None) -> None:
    """What the browser sends when a file is chosen (the observer acts at once)."""
    panel.upload.value = ({"name": name, "type": "application/json", "size": len(content) if size is None else size,
                           "content": memoryview(content), "last_modified": datetime.datetime.now()},)


def text(html_value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", html_value))


def section_ids(app) -> set[str]:
    return set(app.board.sections)


# -- the teacher's environment variable -------------------------------------------------------
def test_env_var_with_a_good_board_plays_every_UP_map_lesson_on_it(monkeypatch):
    monkeypatch.setenv("RAILKIT_UP_BOARD", str(EXAMPLE))
    building = BuildingApp(seed=1)
    assert section_ids(building) == set(load_board(EXAMPLE).sections)
    assert "Playing on example_board.json (your club's board)." in text(building.club.banner.value)
    assert building.trains_on == {s.id: list(s.starting) for s in building.board.sections.values() if s.starting}
    building.set_choice("BNL", "general", None)
    assert building.legal and set(building.legal) <= section_ids(building)
    notes = [a.text for a in building.map_view.figure.layout.annotations]
    assert any("your club's board" in t for t in notes) and not any("reconstruction" in t for t in notes)
    sent = [a["text"] for a in figure_spec(building.map_view.figure)[1]["annotations"]]  # what the page gets
    assert any("your club's board" in t for t in sent) and not any("reconstruction" in t for t in sent)
    play = PlayApp(seed=2)
    assert play.game.options["board"] == str(EXAMPLE) and play.game.board.cities.keys() == building.board.cities.keys()
    figure = play.moves.build.map_view.figure
    assert figure is not None  # the play map, drawn by its panel, names the club's board too
    assert any("your club's board" in a.text for a in figure.layout.annotations)


def test_the_building_exercise_and_the_setup_deal_on_the_club_board(monkeypatch):
    monkeypatch.setenv("RAILKIT_UP_BOARD", str(EXAMPLE))
    building = BuildingApp(seed=1)
    situation = building.exercise.situation  # UP-B2: candidates and legal ones from the club's sections
    assert situation.candidates and set(situation.candidates) <= section_ids(building)
    assert situation.legal <= set(situation.candidates)
    building.exercise.on_new_situation()
    assert set(building.exercise.situation.candidates) <= section_ids(building)
    setup = SetupApp(seed=1)
    setup.steps.on_deal()
    assert setup.steps.game.options["board"] == str(EXAMPLE)
    assert setup.board.cities.keys() == building.board.cities.keys()


def test_env_var_with_a_broken_board_shows_a_banner_and_uses_the_built_in_board(monkeypatch, broken_board):
    monkeypatch.setenv("RAILKIT_UP_BOARD", str(broken_board))
    app = BuildingApp(seed=1)
    banner = text(app.club.banner.value)
    assert "our_board.json" in banner and "RAILKIT_UP_BOARD" in banner and "built-in board" in banner
    assert "UP-C1 gives red 19 trains" in banner  # the checker's first problems, naming the item
    assert "check-board" in banner
    assert section_ids(app) == set(load_board().sections)
    assert PlayApp(seed=3).game.options["board"] is None


@pytest.mark.parametrize("value", ["/no/such/board.json", "/dev/zero", "/"])
def test_env_var_naming_no_board_never_crashes(monkeypatch, value):
    monkeypatch.setenv("RAILKIT_UP_BOARD", value)
    data = from_environment(club_board.UP_BOARD)
    assert data.club is None and value in data.problem
    assert section_ids(BuildingApp(seed=1)) == set(load_board().sections)


def test_env_var_with_a_deck_plays_both_KK_lessons_on_it(monkeypatch, club_deck_file):
    monkeypatch.setenv("RAILKIT_KK_DECK", str(club_deck_file))
    for app in (KkAuctionApp(seed=1), KkPlayApp(seed=1)):
        assert app.game.options["deck"] == str(club_deck_file)
        note = text(app.race_map.note.value)
        assert "real_deck.json" in note and "deck of 50 cards is railkit's reconstruction" not in note
        assert "Playing on real_deck.json (your club's deck)." in text(app.club.banner.value)


def test_env_var_with_a_broken_deck_shows_a_banner(monkeypatch, tmp_path):
    bad = tmp_path / "deck.json"
    bad.write_text('{"cards": [{"id": "X", "terrain": "lava", "tracks": 1, "coin": 1}]}', encoding="utf-8")
    monkeypatch.setenv("RAILKIT_KK_DECK", str(bad))
    app = KkPlayApp(seed=1)
    assert app.game.options["deck"] is None
    banner = text(app.club.banner.value)
    assert "RAILKIT_KK_DECK" in banner and "KK-C2" in banner and "lava" in banner and "check-deck" in banner


@pytest.mark.parametrize("make", [SetupApp, BuildingApp, DividendsApp, PlayApp, KkAuctionApp, KkPlayApp])
def test_every_lesson_app_builds_with_the_env_vars_set(monkeypatch, make, club_deck_file):
    monkeypatch.setenv("RAILKIT_UP_BOARD", str(EXAMPLE))
    monkeypatch.setenv("RAILKIT_KK_DECK", str(club_deck_file))
    app = make(seed=5)
    assert app.message_kind != "error", app.message_text
    assert app.widget.children


def test_lessons_that_cannot_use_a_board_say_so(monkeypatch):
    monkeypatch.setenv("RAILKIT_UP_BOARD", str(EXAMPLE))
    assert "same on any board" in text(DividendsApp(seed=1).club_note)
    assert "example_board.json" in text(SetupApp(seed=1).club_note)


# -- a learner's upload -----------------------------------------------------------------------
@pytest.fixture
def app(monkeypatch):
    monkeypatch.delenv("RAILKIT_UP_BOARD", raising=False)
    return BuildingApp(seed=7)


def test_an_uploaded_board_restarts_the_lesson_on_it(app):
    shell = app.widget
    upload(app.club, EXAMPLE.read_bytes(), name="club board.json")
    assert app.widget is shell  # the same widget on the page, filled anew
    assert section_ids(app) == set(load_board(EXAMPLE).sections)
    assert app.message_kind == "ok" and app.message_text == "Playing on club board.json (your club's board)."
    assert "club board.json" in text(app.club.banner.value)
    path = app.board_file.club.path
    assert path.parent == private_folder() and path.name != "club board.json"  # railkit's own name
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    app.company.value = "EPRG"
    app.card.value = "general"
    assert app.legal and set(app.legal) <= section_ids(app)
    app.club.on_builtin()
    assert section_ids(app) == set(load_board().sections) and app.message_text == "Back on the built-in board."


@pytest.mark.parametrize("content, size, words", [
    (b"{}", MAX_UPLOAD_BYTES + 1, "at most 1,000,000 bytes"),  # the size the browser reports
    (b" " * (MAX_UPLOAD_BYTES + 1), None, "at most 1,000,000 bytes"),
    (b"\xff\xfe not text", None, "not UTF-8"),
    (b"{not json", None, "not valid JSON"),
    (b"[1, 2]", None, "one JSON object"),
])
def test_a_hostile_upload_is_refused_and_changes_nothing(app, content, size, words):
    before = (app.board, dict(app.trains_on), app.widget.children)
    upload(app.club, content, size=size)
    assert app.message_kind == "error" and words in app.message_text and "Nothing was changed." in app.message_text
    assert (app.board, dict(app.trains_on), app.widget.children) == before
    assert app.club.upload.value == ()
    assert not any(private_folder().glob("*.json")) or all(
        p.read_bytes() != content for p in private_folder().glob("*.json"))


def test_a_broken_board_upload_names_its_problems(app, broken_board):
    before = app.board
    upload(app.club, broken_board.read_bytes())
    assert app.message_kind == "error" and app.board is before
    text = app.message_text
    assert text.startswith("“our_board.json” is not a board railkit can use:")
    assert "company 'BNL'" in text and "UP-C1" in text and "company 'SGR'" in text  # every problem, by item
    assert str(private_folder()) not in text


def test_a_deck_upload_restarts_the_KK_play_lesson(monkeypatch, club_deck_file):
    monkeypatch.delenv("RAILKIT_KK_DECK", raising=False)
    kk = KkPlayApp(seed=4)
    upload(kk.club, b'{"cards": []}', name="deck.json")
    assert kk.message_kind == "error" and "KK-C2" in kk.message_text and kk.game.options["deck"] is None
    upload(kk.club, club_deck_file.read_bytes(), name="real_deck.json")
    assert kk.message_text == "Playing on real_deck.json (your club's deck)."
    assert kk.game.options["deck"] == str(kk.deck_file.club.path)


# -- saves on a club file ---------------------------------------------------------------------
def test_a_save_on_a_club_board_records_its_hash_and_needs_that_board(monkeypatch):
    monkeypatch.setenv("RAILKIT_UP_BOARD", str(EXAMPLE))
    play = PlayApp(seed=8)
    text = play.save_file().text
    named = json.loads(text)["game"]["options"]["board"]
    assert named.startswith(TAG_PREFIX) and str(EXAMPLE) not in text  # no path of this machine
    play.load_save(text)  # the same board: loads
    monkeypatch.delenv("RAILKIT_UP_BOARD")
    other = PlayApp(seed=8)
    before = other.game
    other.saves.area.value = text
    other.saves.on_load()
    assert other.message_kind == "error" and "club board “example_board.json”" in other.message_text
    assert other.game is before
    # ... and a save of the built-in board on a club board
    built_in = other.save_file().text
    monkeypatch.setenv("RAILKIT_UP_BOARD", str(EXAMPLE))
    club = PlayApp(seed=8)
    club.saves.area.value = built_in
    club.saves.on_load()
    assert club.message_kind == "error" and "built-in board" in club.message_text


def test_a_save_naming_a_path_is_still_refused(monkeypatch):
    monkeypatch.delenv("RAILKIT_UP_BOARD", raising=False)
    play = PlayApp(seed=9)
    data = json.loads(play.save_file().text)
    data["game"]["options"]["board"] = str(SHIPPED_BOARD)
    play.saves.area.value = json.dumps(data)
    play.saves.on_load()
    assert play.message_kind == "error" and "names a file" in play.message_text


def test_the_deck_adapter_reads_its_variable(monkeypatch, club_deck_file):
    monkeypatch.setenv("RAILKIT_KK_DECK", str(club_deck_file))
    data = club_deck.lesson_deck()
    assert data.club is not None and len(data.club.data) == 50 and data.options == {"deck": str(club_deck_file)}


def test_a_club_file_over_the_limit_refused_by_the_page_gets_the_same_words(app):
    """The page never sends a file over the limit (it would close the connection); the lesson says what it says for a file
    it received and measured."""
    assert "railkit-max-bytes-1000000" in app.club.upload._dom_classes
    before = (app.board, app.widget.children)
    upload(app.club, b"{}", name="big board.json", size=20_000_000)
    received = app.message_text
    app.clear_message()
    app.club.limit.refuse("big board.json", 20_000_000)
    assert app.message_kind == "error" and app.message_text == received
    assert "is 20,000,000 bytes; a board file is at most 1,000,000 bytes" in received
    assert (app.board, app.widget.children) == before
