"""The board/deck checker, a broken save and the notebook status cards in Finnish, Hungarian and Spanish
(the rest): a broken club board or deck uploaded in a lesson shows its problems (UP-C1..C4,
KK-C2..C4) with no English left; a broken save's “move N cannot be replayed” says why in the language;
the engines build these as ``Message``s (msgid + parameters), never as UI text; ``check-board`` and
``check-deck`` speak ``RAILKIT_LANG``.

“No English left” is the machinery of test_i18n_apps (``is_name_or_code``, the translators' kept words)
applied word by word: a translated text may share no English word with its English original once names,
rule IDs, the values found in the file (quoted) and the file format's own keys are set aside."""

from __future__ import annotations

import datetime
import functools
import gc
import html
import json
import re
from pathlib import Path

import pytest

import railkit.ui.voila_template
from railkit.actions import ActionRegistry
from railkit.capecairo import deck_check
from railkit.capecairo.deck import default_deck_path
from railkit.capecairo.game import CapeToCairoGame
from railkit.errors import DataError
from railkit.messages import Message
from railkit.paths import data_dir
from railkit.ui import i18n, language
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.unionpacific.building import BuildingApp
from railkit.ui.unionpacific.play import PlayApp
from railkit.unionpacific import board_check
from railkit.unionpacific.actions import registry as up_registry
from railkit.unionpacific.board import check_board_file, load_board
from railkit.unionpacific.game import UnionPacificGame
from railkit.unionpacific.sharedeck import DECK_OPTIONS
from tests.ui.test_i18n_apps import LANGUAGES, NAMES, is_name_or_code, same_in

EXAMPLE = data_dir() / "union_pacific" / "example_board.json"
# The file formats' own words (railkit/data/*/README.md): the club types exactly these into the file, so a
# problem names them as they are in every language; likewise the values railkit expects there.
FORMAT_KEYS = {"format", "version", "about", "track_types", "track_deck", "cities", "companies", "sections", "name",
               "lon", "lat", "key", "colour", "hex", "trains", "shares", "headquarters", "invented", "id", "a", "b",
               "track_type", "spaces", "starting", "cards", "terrain", "tracks", "coin", "TRACK_TYPES", "label",
               "plains", "hills", "mountain", "river", "general", "mountains", "desert", "village", "savanna",
               "JSON", "UTF", "EP&RG", "rrggbb", "railkit"}
# A save's kinds of move and their fields (railkit/*/actions.py): the save file's own words.
FORMAT_KEYS |= {word for registry in (up_registry, CapeToCairoGame.registry) for name in registry.names()
                for word in (name, *name.split("_"))} | {"player", "discard", "amount", "card", "card_id", "buy",
                                                          "type", "section", "company", "source", "cards"}
# ... the games' options and their values (a save's "options"), and Python's names of JSON types.
FORMAT_KEYS |= {*UnionPacificGame.OPTION_DEFAULTS, *CapeToCairoGame.OPTION_DEFAULTS, *DECK_OPTIONS,
                "str", "int", "float", "bool", "dict", "NoneType"}


EXTRA_NAMES = {"Key West", "Miami", "Atlantis"}  # the cities the tests' broken boards add


@pytest.fixture(autouse=True)
def english_again():
    yield
    i18n.set_language("en")
    language._listeners.clear()
    gc.collect()


ALL_NAMES_LONGEST_FIRST = sorted(NAMES | EXTRA_NAMES, key=len, reverse=True)


@functools.cache
def kept_words(lang: str) -> frozenset[str]:
    """The words of the messages the translators kept as they are, in lower case."""
    return frozenset(w.lower() for m in same_in(lang) for w in re.findall(r"[^\W\d]{3,}", m))


def words(text: str, lang: str) -> set[str]:
    """The words of ``text`` that a translation would have to change: not names, rule IDs, quoted values from
    the file, the format's keys or what the translators kept as it is."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|“[^”]*”|\[[^\]]*\]", " ", text)  # values found in the file, as typed
    text = re.sub(r"\b(UP|KK)-[A-Z0-9]+\b", " ", text)
    for name in ALL_NAMES_LONGEST_FIRST:  # companies, cities, players: as printed
        text = text.replace(name, " ")
    kept = kept_words(lang)
    found = set()
    for word in re.findall(r"[^\W\d][\w&]*", text):  # whole words, accents and snake_case keys included
        if len(word) < 3 or word in FORMAT_KEYS or word.lower() in kept or is_name_or_code(word):
            continue
        found.add(word.lower())
    return found


def english_left(english: str, translated: str, lang: str) -> set[str]:
    return words(english, lang) & words(translated, lang)


def upload(panel, content: bytes, name: str) -> None:
    panel.upload.value = ({"name": name, "type": "application/json", "size": len(content),
                           "content": memoryview(content), "last_modified": datetime.datetime.now()},)


# -- broken files, each broken at one stage (a stage runs only when the earlier ones passed) --------------
def _board(change) -> bytes:
    raw = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    change(raw)
    return json.dumps(raw).encode()


def _cities(raw):
    raw["extra"] = 1
    raw["track_deck"]["plains"] += 1  # UP-C4: 41 cards
    raw["cities"][0]["lon"] = 10.0  # not in the United States
    raw["cities"][1]["name"] = raw["cities"][2]["name"]  # duplicate
    raw["cities"][3]["lat"] = "north"
    raw["cities"][4]["size"] = 3


def _companies(raw):
    raw["companies"][1]["trains"] = 5  # UP-C1: red has 19
    raw["companies"][2]["hex"] = "yellow"
    raw["companies"][3]["headquarters"] = "Atlantis"
    raw["companies"][4]["track_types"] = ["plains", "plains"]
    raw["companies"][5]["track_types"] = ["swamp"]
    raw["companies"][6]["colour"] = "pink"
    raw["companies"][0]["track_types"] = ["plains"]


def _sections(raw):
    s = raw["sections"]
    s[0]["a"] = "Atlantis"
    s[1]["b"] = s[1]["a"]
    s[2]["spaces"] = 7
    s[3]["starting"] = ["NOBODY"]
    s[4]["id"] = s[5]["id"]
    s[6]["track_type"] = "swamp"
    s[7]["starting"] = [1]


BROKEN_BOARDS = {
    "cities-and-deck": _board(_cities),
    "companies": _board(_companies),
    "sections": _board(_sections),
    "not-json": b'{"format": "railkit-union-pacific-board",\n  "version": }',
    "not-an-object": b"[1, 2]",
    "wrong-format": b'{"format": "chess", "version": 1}',
    "not-utf8": b"\xff\xfe{}",
}


def _deck(change) -> bytes:
    raw = json.loads(default_deck_path().read_text(encoding="utf-8"))
    change(raw)
    return json.dumps(raw).encode()


def _cards(raw):
    cards = raw["cards"]
    cards[0]["terrain"] = "swamp"
    cards[1]["tracks"] = 7
    cards[2]["coin"] = 0
    cards[3]["colour"] = "red"
    cards[4]["id"] = cards[5]["id"]
    cards[6] = "V01"
    cards[7]["id"] = ""
    cards[8]["id"] = "x" * 30
    raw["format"] = "chess"
    del cards[9]


BROKEN_DECKS = {
    "cards": _deck(_cards),
    "not-json": b'{"cards": [1, 2,]}',
    "top-level-list": b"[]",
    "no-cards": b'{"format": "railkit-cape-to-cairo-deck"}',
}


def board_problems(tmp_path, key: str) -> tuple[DataError, ...]:
    path = tmp_path / f"{key}.json"
    path.write_bytes(BROKEN_BOARDS[key])
    board, problems = check_board_file(path)
    assert board is None and problems
    return problems


def deck_problems(tmp_path, key: str) -> tuple[DataError, ...]:
    path = tmp_path / f"{key}.json"
    path.write_bytes(BROKEN_DECKS[key])
    cards, problems = deck_check.check_deck_file(path)
    assert cards is None and problems
    return problems


# -- the engines build Messages ----------------------------------------------------------------------------
def test_UP_C1_board_problems_are_messages_with_parameters(tmp_path):
    problems = board_problems(tmp_path, "companies")
    red = next(p for p in problems if str(p.item) == "company 'BNL'")
    assert isinstance(red.item, Message) and red.item.msgid == "company {key}" and red.item.params == {"key": "'BNL'"}
    assert isinstance(red.problem, Message)
    assert red.problem.msgid.startswith("has {trains_found} and {shares_found}; UP-C1 gives {colour}")
    assert red.problem.params["trains"] == 19 and red.problem.params["colour"].msgid == "red"
    assert red.problem.params["trains_found"].n == 5
    assert red.problem == "has 5 trains and 15 shares; UP-C1 gives red 19 trains and 15 shares"  # English as before
    assert str(red) == f"{tmp_path / 'companies.json'}: company 'BNL': {red.problem}"
    colour = next(p for p in problems if "is listed" in p.problem)
    assert colour.problem.params["place"].msgid == "{n}th" and colour.problem.params["place"].params == {"n": 7}
    assert colour.problem == ("colour 'pink' is listed 7th, but UP-C1 puts orange 7th; "
                              "list the companies in UP-C1 table order")


def test_UP_C4_deck_count_and_json_problems_are_plural_messages(tmp_path):
    deck = next(p for p in board_problems(tmp_path, "cities-and-deck") if p.item == "track_deck")
    assert deck.problem.plural == "holds {n} cards; UP-C4 says {size}" and deck.problem.n == 41
    assert deck.problem.params == {"size": 40} and deck.problem == "holds 41 cards; UP-C4 says 40"
    (bad_json,) = board_problems(tmp_path, "not-json")
    assert bad_json.item.msgid == "line {line}, column {column}" and dict(bad_json.item.params) == {"line": 2, "column": 14}
    assert bad_json.problem.msgid == "not valid JSON: {reason}"
    assert bad_json.problem.params["reason"].msgid == "Expecting value"  # Python's own words, as the English
    assert bad_json.problem == "not valid JSON: Expecting value"


def test_KK_C2_deck_problems_are_messages_with_parameters(tmp_path):
    problems = deck_problems(tmp_path, "cards")
    size = next(p for p in problems if p.item == "cards")
    assert size.problem.msgid == "the deck must hold {size} cards (KK-C2), found {found}"
    assert size.problem.params["size"] == 50 and size.problem.params["found"].value == 49
    terrain = next(p for p in problems if "terrain" in p.problem)
    assert terrain.item.msgid == "card {id}" and terrain.problem.msgid.startswith("unknown terrain {found}")
    assert terrain.problem.params["found"] == "'swamp'"
    numbered = next(p for p in problems if isinstance(p.item, Message) and p.item.msgid == "card #{number}")
    assert numbered.item.params["number"] in (7, 8, 9)
    assert all(isinstance(p.problem, Message) for p in problems)


@pytest.mark.parametrize("registry, data, msgid, params", [
    (up_registry, 5, "a move must be a JSON object, not {kind}", {"kind": "a number"}),
    (up_registry, {"type": "fly"}, "{kind} is not a kind of move in this game (known: {known})", {"kind": "'fly'"}),
    (up_registry, {"type": "end_turn", "player": "Ann", "bogus": 1}, "a {move} move has no field {fields}",
     {"move": "'end_turn'", "fields": "'bogus'"}),
    (up_registry, {"type": "end_turn"}, "a {move} move lacks {fields}", {"move": "'end_turn'", "fields": "'player'"}),
    (up_registry, {"type": "end_turn", "player": "x" * 300}, "field {field} is longer than {most} characters",
     {"field": "'player'", "most": "200"}),
    (CapeToCairoGame.registry, {"type": "bid", "player": "Ann", "amount": 10**12},
     "field {field} holds a number larger than {most}", {"field": "'amount'"}),
    (CapeToCairoGame.registry, {"type": "bid", "player": {"a": 1}, "amount": 1}, "field {field} cannot be {kind}",
     {"field": "'player'", "kind": "an object"}),
])
def test_move_refusals_are_messages_with_parameters(registry: ActionRegistry, data, msgid, params):
    with pytest.raises(ValueError) as info:
        registry.from_dict(data)
    message = info.value.args[0]
    assert isinstance(message, Message) and message.msgid == msgid
    for key, value in params.items():
        assert str(message.params[key]) == value
    assert str(info.value) == message  # the English text, as before


# -- in a lesson, in every language ------------------------------------------------------------------------
# One app per language receives every broken file in turn: a refused upload leaves the lesson as it was (asserted
# each time) and clears the upload, so each file meets the same lesson a fresh app would show, for a fraction of
# the cost of building one per file.
def shows_problems_with_no_english_left(shown: str, problems: tuple[DataError, ...], lang: str, key: str) -> None:
    for problem in problems[:5]:  # the lesson names the first five (club_files.SHOWN_PROBLEMS)
        for part in (problem.item, problem.problem):
            translated = i18n.render(part)
            assert translated in shown, (key, translated, shown)
            left = english_left(str(part), translated, lang)
            assert not left, f"English left in {lang} ({key}) for {str(part)!r}: {translated!r} ({sorted(left)})"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_UP_C1_C4_a_broken_board_upload_shows_its_problems_with_no_english_left(tmp_path, monkeypatch, lang):
    monkeypatch.delenv("RAILKIT_UP_BOARD", raising=False)
    i18n.set_language(lang)
    app = BuildingApp(seed=7)
    before = app.board
    for key in sorted(BROKEN_BOARDS):
        problems = board_problems(tmp_path, key)
        upload(app.club, BROKEN_BOARDS[key], "our_board.json")
        assert app.message_kind == "error" and app.board is before, key
        assert app.club.upload.value == (), key  # ready for the next file
        shown = app.message_text
        shows_problems_with_no_english_left(shown, problems, lang, key)
        english = {str(p.problem) for p in problems}
        assert not any(e in shown for e in english if words(e, lang)), (key, shown)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_KK_C2_C4_a_broken_deck_upload_shows_its_problems_with_no_english_left(tmp_path, monkeypatch, lang):
    monkeypatch.delenv("RAILKIT_KK_DECK", raising=False)
    i18n.set_language(lang)
    app = KkPlayApp(seed=4)
    before = app.game
    for key in sorted(BROKEN_DECKS):
        problems = deck_problems(tmp_path, key)
        upload(app.club, BROKEN_DECKS[key], "our_deck.json")
        assert app.message_kind == "error" and app.game is before and app.game.options["deck"] is None, key
        assert app.club.upload.value == (), key
        shows_problems_with_no_english_left(app.message_text, problems, lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_board_and_deck_problem_reads_in_the_language(tmp_path, lang):
    """All problems (not only the five a lesson shows), and the playability warnings of check-board."""
    parts = [part for key in BROKEN_BOARDS for p in board_problems(tmp_path, key) for part in (p.item, p.problem)]
    parts += [part for key in BROKEN_DECKS for p in deck_problems(tmp_path, key) for part in (p.item, p.problem)]
    raw = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    raw["cities"] += [{"name": "Key West", "lon": -81.78, "lat": 24.56}, {"name": "Miami", "lon": -80.19, "lat": 25.76}]
    raw["sections"].append({"id": "kw", "a": "Key West", "b": "Miami", "track_type": "river", "spaces": 2,
                            "starting": []})
    raw["track_deck"].update(plains=4, mountain=16)
    island = tmp_path / "island.json"
    island.write_text(json.dumps(raw), encoding="utf-8")
    report = board_check.check(island, trial_games=1)
    assert report.valid and len(report.warnings) >= 2
    parts += [*report.warnings, board_check.summary(load_board())]
    i18n.set_language(lang)
    for part in parts:
        if isinstance(part, Message):
            translated = i18n.render(part)
            assert not english_left(str(part), translated, lang), (str(part), translated)
        else:
            assert part in FORMAT_KEYS or re.fullmatch(r"\w+\[\d+\]", part), part  # a JSON key path, as typed


def _broken_save(app, action) -> str:
    data = json.loads(app.save_file().text)
    game = data["game"] if "game" in data else data
    game["actions"] = [action, *game["actions"][1:]]
    return json.dumps(data)


BROKEN_MOVES = {
    "not-an-object": 5,
    "unknown-kind": {"type": "fly", "player": "Ann"},
    "extra-field": {"type": "pass", "player": "Ann", "bogus": 1},
    "missing-field": {"type": "pass"},
    "long-text": {"type": "pass", "player": "x" * 300},
    "nested-list": {"type": "pass", "player": [[1]]},
    "huge-number": {"type": "pass", "player": 10**12},
}


def refusals(make, lang: str) -> dict[str, str]:
    """What one app built in ``lang`` says to each broken save, loaded in turn: a refused load leaves the game as it
    was (asserted each time), so every save is cut from, and meets, the game a fresh app would start."""
    i18n.set_language(lang)
    app = make(seed=3)
    before = app.game
    said = {}
    for key, action in BROKEN_MOVES.items():
        app.saves.area.value = _broken_save(app, action)
        app.saves.on_load()
        assert app.message_kind == "error" and app.game is before, (key, app.message_text)
        said[key] = app.message_text
    return said


@functools.cache
def english_refusals(make) -> dict[str, str]:
    return refusals(make, "en")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("make", [PlayApp, KkPlayApp], ids=["up_play", "kk_play"])
def test_a_broken_save_says_why_a_move_cannot_be_replayed_in_the_language(make, lang, monkeypatch):
    monkeypatch.delenv("RAILKIT_UP_BOARD", raising=False)
    monkeypatch.delenv("RAILKIT_KK_DECK", raising=False)
    english = english_refusals(make)
    translated = refusals(make, lang)
    assert len(set(english.values())) == len(set(translated.values())) == len(BROKEN_MOVES)  # each says its own why
    for key in BROKEN_MOVES:
        assert "move 1 cannot be replayed" in english[key], (key, english[key])
        reason = english[key].split("cannot be replayed: ", 1)[1]
        assert reason not in translated[key]
        left = english_left(english[key], translated[key], lang)
        assert not left, f"English left in {lang} ({key}): {translated[key]!r} ({sorted(left)})"


BROKEN_OPTIONS = {"bool-option": {"public_money": "yes"}, "deck-type": {"deck": 3}, "deck-choice": {"deck": "huge"}}


def option_refusals(lang: str) -> dict[str, str]:
    """What one play lesson built in ``lang`` says to each save with broken options, loaded in turn (a refused
    load leaves the game as it was: asserted)."""
    i18n.set_language(lang)
    app = PlayApp(seed=3)
    before = app.game
    said = {}
    for key, options in BROKEN_OPTIONS.items():
        data = json.loads(app.save_file().text)
        data["game"]["options"].update(options)
        app.saves.area.value = json.dumps(data)
        app.saves.on_load()
        assert app.message_kind == "error" and app.game is before, (key, app.message_text)
        said[key] = app.message_text
    return said


@functools.cache
def english_option_refusals() -> dict[str, str]:
    return option_refusals("en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_save_whose_options_are_broken_says_so_in_the_language(lang, monkeypatch):
    monkeypatch.delenv("RAILKIT_UP_BOARD", raising=False)
    english = english_option_refusals()
    translated = option_refusals(lang)
    assert len(set(english.values())) == len(set(translated.values())) == len(BROKEN_OPTIONS)
    for key in BROKEN_OPTIONS:
        assert "cannot be set up" in english[key], (key, english[key])
        left = english_left(english[key], translated[key], lang)
        assert not left, (key, translated[key], sorted(left))


# -- the notebook status cards -------------------------------------------------------------------------------
def _card_text(game) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", game._repr_html_()))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_status_cards_speak_the_language_set(lang):
    up = UnionPacificGame(["Ann", "Ben", "Cleo"], seed=2)
    kk = CapeToCairoGame(["Ann", "Ben"], seed=2)
    english = (_card_text(up), _card_text(kk))
    assert "to act: Ann, Ben, Cleo" in english[0] and "sealed bids" in english[1]
    i18n.set_language(lang)
    for before, game in zip(english, (up, kk), strict=True):
        after = _card_text(game)
        assert after != before and not english_left(before, after, lang), after
    i18n.set_language("en")
    assert (_card_text(up), _card_text(kk)) == english


# -- the command line ----------------------------------------------------------------------------------------
def test_check_board_and_check_deck_speak_RAILKIT_LANG(tmp_path, monkeypatch, capsys):
    board = tmp_path / "board.json"
    board.write_bytes(BROKEN_BOARDS["companies"])
    deck = tmp_path / "deck.json"
    deck.write_bytes(BROKEN_DECKS["cards"])
    monkeypatch.delenv("RAILKIT_LANG", raising=False)
    assert board_check.main([str(board)]) == 1
    assert "problems found; the board cannot be used:" in capsys.readouterr().err
    monkeypatch.setenv("RAILKIT_LANG", "fi")
    assert board_check.main([str(board)]) == 1
    err = capsys.readouterr().err
    assert "ongelmaa; pelilautaa ei voi käyttää:" in err and "  - yhtiö 'BNL': sillä on 5 junaa" in err
    monkeypatch.setenv("RAILKIT_LANG", "es-ES")
    assert deck_check.main([str(deck)]) == 1
    assert "el mazo no se puede usar:" in capsys.readouterr().err
    monkeypatch.setenv("RAILKIT_LANG", "xx")  # unknown: English
    assert deck_check.main([str(deck)]) == 1
    assert "the deck cannot be used:" in capsys.readouterr().err


# -- the page's “went to sleep” banner (the Voila template's script) -----------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sleep_banner_words_ride_in_the_app_header_in_the_language(lang):
    def sleep_words(app) -> dict[str, str]:
        heading = app.widget.children[1].children[0].value
        found = re.search(r"class='railkit-sleep-words' hidden data-sleep='([^']*)' data-reload='([^']*)'", heading)
        assert found, heading
        return {"sleep": html.unescape(found[1]), "reload": html.unescape(found[2])}

    i18n.set_language("en")
    english = sleep_words(BuildingApp(seed=1))
    assert english == {"sleep": "This lesson went to sleep after a few minutes without use — reload the page to "
                                "start again.", "reload": "Reload the page"}
    i18n.set_language(lang)
    app = BuildingApp(seed=1)
    translated = sleep_words(app)
    for key in english:
        assert not english_left(english[key], translated[key], lang), translated[key]
    language.switch_language("en")  # the picker rebuilds the header: the words follow
    assert sleep_words(app) == english
    template = (Path(railkit.ui.voila_template.__file__).parent / "railkit" / "index.html.j2").read_text(encoding="utf-8")
    assert "querySelectorAll('.railkit-sleep-words')" in template and "words.reload ||" in template
