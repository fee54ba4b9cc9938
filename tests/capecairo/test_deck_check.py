"""``python -m railkit.capecairo check-deck FILE`` (``railkit.capecairo.deck_check``): every problem of a
deck file, each naming its card or item (KK-C2..C4); exit code 1 for a deck that cannot be used; a deck
it accepts is one ``load_deck`` accepts."""

import json

import pytest

from railkit.capecairo.__main__ import main as tools_main
from railkit.capecairo.deck import MAX_DECK_BYTES, default_deck_path, load_deck
from railkit.capecairo.deck_check import check_deck_file, main
from railkit.errors import DataError


def shipped() -> dict:
    return json.loads(default_deck_path().read_text(encoding="utf-8"))


def write(tmp_path, data, name="deck.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_the_shipped_deck_passes_and_equals_load_deck(capsys):
    cards, problems = check_deck_file(default_deck_path())
    assert problems == () and cards == load_deck()
    assert main([str(default_deck_path())]) == 0
    assert capsys.readouterr().out.startswith("OK: 50 cards (10 river, 10 mountains")


def test_KK_C2_C4_every_broken_card_is_named(tmp_path, capsys):
    data = shipped()
    data["cards"][0]["terrain"] = "lava"  # KK-C3
    data["cards"][1]["tracks"] = 4  # KK-C2
    data["cards"][2]["coin"] = 0  # KK-C4
    data["cards"][3]["colour"] = "red"  # unknown field
    data["cards"][5]["id"] = data["cards"][4]["id"]  # duplicate id
    path = write(tmp_path, data)
    cards, problems = check_deck_file(path)
    assert cards is None and len(problems) == 5
    items = [p.item for p in problems]
    assert items[:4] == [f"card {data['cards'][i]['id']!r}" for i in range(4)]
    text = " ".join(p.problem for p in problems)
    for words in ("unknown terrain 'lava'", "(KK-C3)", "(KK-C2)", "(KK-C4)", "unknown field 'colour'", "duplicate id"):
        assert words in text
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    assert "5 problems found; the deck cannot be used" in err and "lava" in err


def test_KK_C2_a_deck_of_the_wrong_size_is_refused(tmp_path):
    data = shipped()
    data["cards"] = data["cards"][:49]
    _cards, problems = check_deck_file(write(tmp_path, data))
    assert [(p.item, "KK-C2" in p.problem) for p in problems] == [("cards", True)]


@pytest.mark.parametrize("content, item, words", [
    ("{not json", "line 1 column 2", "not valid JSON"),
    ("[]", "top level", "JSON object"),
    ('{"format": "other", "cards": 3}', "format", "railkit-cape-to-cairo-deck"),
    ('{"cards": "none"}', "cards", "not a list"),
])
def test_broken_files_are_refused_in_words(tmp_path, content, item, words):
    cards, problems = check_deck_file(write(tmp_path, content))
    assert cards is None and problems[0].item == item and words in problems[0].problem


def test_a_file_too_large_or_not_a_file_is_refused_before_parsing(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_DECK_BYTES + 1))
    for path, words in ((big, "bytes"), (tmp_path, "not a regular file"), (tmp_path / "none.json", "cannot be read")):
        cards, problems = check_deck_file(path)
        assert cards is None and words in problems[0].problem and isinstance(problems[0], DataError)


def test_the_command_line_tools(capsys):
    assert tools_main(["check-deck", str(default_deck_path())]) == 0
    assert tools_main(["--help"]) == 0 and "check-deck" in capsys.readouterr().out
    assert tools_main([]) == 2


@pytest.mark.parametrize("text, key", [
    ('{"format": "junk", "format": "railkit-cape-to-cairo-deck", "cards": []}', "'format'"),
    (None, "'coin'"),
])
def test_a_key_given_twice_is_refused_naming_the_key(tmp_path, text, key):
    """JSON would keep the last of two equal keys silently; a deck file names each once."""
    if text is None:
        body = json.dumps(shipped())
        text = body.replace('"coin": ', '"coin": 99, "coin": ', 1)
        assert text != body
    path = write(tmp_path, text)
    cards, problems = check_deck_file(path)
    assert cards is None
    assert [(p.item, p.problem) for p in problems] == [
        ("file", f"the key {key} appears twice in one object; write each key once")]
    with pytest.raises(DataError, match="appears twice"):
        load_deck(path)
