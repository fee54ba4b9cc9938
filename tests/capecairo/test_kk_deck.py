"""KK-C1..C5: the components, and the deck as validated data."""

import json
from collections import Counter

import pytest

from railkit.brief import brief
from railkit.capecairo import REQUIREMENT, Bid, load_deck, load_game, new_game
from railkit.capecairo.deck import default_deck_path, parse_deck
from railkit.errors import DataError, RuleError, SaveFileError


def shipped_cards() -> list[dict]:
    return json.loads(default_deck_path().read_text())["cards"]


def write_deck(tmp_path, cards, name="deck.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"format": "railkit-cape-to-cairo-deck", "version": 1, "cards": cards}))
    return path


def test_KK_C1_one_colour_per_player_up_to_four():
    game = new_game(["Ann", "Bob", "Cy", "Di"])
    colours = game.view(None).colours
    assert set(colours) == {"Ann", "Bob", "Cy", "Di"} and len(set(colours.values())) == 4
    with pytest.raises(RuleError) as err:
        new_game(5)
    assert err.value.rule == "KK-S1"
    with pytest.raises(RuleError):
        new_game(1)


def test_KK_C2_fifty_cards_of_five_terrains_with_0_to_3_tracks_and_a_coin():
    cards = load_deck()
    assert len(cards) == 50
    assert {c.terrain for c in cards} == set(REQUIREMENT)
    assert all(0 <= c.tracks <= 3 for c in cards)
    assert all(1 <= c.coin <= 10 for c in cards)
    assert len({c.id for c in cards}) == 50


def test_KK_C3_track_requirements():
    assert REQUIREMENT == {"river": 10, "mountains": 9, "desert": 8, "village": 7, "savanna": 6}
    assert {c.terrain: c.requirement for c in load_deck()} == REQUIREMENT


def test_KK_C4_shipped_deck_is_the_documented_assumption():
    cards = load_deck()
    per_terrain = Counter(c.terrain for c in cards)
    assert set(per_terrain.values()) == {10}
    average = {t: sum(c.coin for c in cards if c.terrain == t) / 10 for t in REQUIREMENT}
    # harder terrain pays more on average
    order = sorted(REQUIREMENT, key=REQUIREMENT.get)
    assert [average[t] for t in order] == sorted(average.values())
    assert len(set(average.values())) == 5
    readme = (default_deck_path().parent / "README.md").read_text()
    assert "assumption" in readme.lower() and "KK-C4" in readme


def test_KK_C4_a_replacement_deck_is_used(tmp_path):
    cards = shipped_cards()
    for card in cards:
        card["coin"] = 1
    path = write_deck(tmp_path, cards)
    game = new_game(2, deck=str(path))
    assert all(game.card(c).coin == 1 for c in game.state.offer)


@pytest.mark.parametrize(
    "change, item, problem",
    [
        (lambda cs: cs[3].update(terrain="lake"), "card 'R04'", "unknown terrain 'lake'"),
        (lambda cs: cs[0].update(tracks=4), "card 'R01'", "tracks must be"),
        (lambda cs: cs[0].update(tracks=-1), "card 'R01'", "tracks must be"),
        (lambda cs: cs[0].update(tracks=True), "card 'R01'", "tracks must be"),
        (lambda cs: cs[0].update(coin=0), "card 'R01'", "coin must be"),
        (lambda cs: cs[0].update(coin=11), "card 'R01'", "coin must be"),
        (lambda cs: cs[0].update(coin="5"), "card 'R01'", "coin must be"),
        (lambda cs: cs.pop(), "cards", "must hold 50 cards"),
        (lambda cs: cs.append(dict(cs[0], id="X01")), "cards", "found 51"),
        (lambda cs: cs[1].update(id="R01"), "card 'R01'", "duplicate id"),
        (lambda cs: cs[2].pop("id"), "card #3", "non-empty text 'id'"),
        (lambda cs: cs[2].update(colour="red"), "card 'R03'", "unknown field"),
    ],
)
def test_KK_C4_broken_deck_names_file_item_and_problem(tmp_path, change, item, problem):
    cards = shipped_cards()
    change(cards)
    path = write_deck(tmp_path, cards)
    with pytest.raises(DataError) as err:
        load_deck(path)
    assert err.value.path == str(path)
    assert err.value.item == item
    assert problem in err.value.problem


def test_KK_C4_bad_json_reports_line_and_column(tmp_path):
    path = tmp_path / "deck.json"
    path.write_text('{\n "cards": [\n  {"id": "R01",,}\n ]\n}\n')
    with pytest.raises(DataError) as err:
        load_deck(path)
    assert err.value.path == str(path)
    assert err.value.item == "line 3 column 16"
    assert "not valid JSON" in err.value.problem


def test_KK_C4_missing_file_and_wrong_shape(tmp_path):
    with pytest.raises(DataError, match="cannot be read"):
        load_deck(tmp_path / "nope.json")
    with pytest.raises(DataError, match="missing or not a list"):
        parse_deck('{"format": "railkit-cape-to-cairo-deck"}', "x.json")
    with pytest.raises(DataError, match="expected a JSON object"):
        parse_deck("[1, 2]", "x.json")


def test_KK_C5_everyone_starts_at_100_and_money_never_goes_below_zero():
    game = new_game(["Ann", "Bob"])
    assert game.state.money == {"Ann": 100, "Bob": 100}
    with pytest.raises(RuleError) as err:
        game.apply(Bid("Ann", 101))
    assert err.value.rule == "KK-A2" and "KK-C5" in str(err.value)
    game.apply(Bid("Ann", 100))
    game.apply(Bid("Bob", 0))
    assert game.state.money["Ann"] == 0


def test_KK_C4_deck_file_size_is_bounded_before_reading(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 1_000_001)
    with pytest.raises(DataError) as err:
        load_deck(big)
    assert (err.value.path, err.value.item) == (str(big), "file") and "at most 1,000,000" in err.value.problem
    for path, problem in [("/dev/zero", "not a regular file"), (str(tmp_path), "not a regular file")]:
        with pytest.raises(DataError, match=problem):
            new_game(2, deck=path)


@pytest.mark.parametrize("content, item, problem", [
    (b"\xff\xfe{}", "file", "not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000, "file", "too deeply nested"),
    (b'{"cards": [' + b"1" * 5000 + b"]}", "file", "too large"),
    (b'{"format": "' + b"x" * 5000 + b'"}', "format", "found 'xxx"),
])
def test_KK_C4_broken_deck_files_are_refused_in_words(tmp_path, content, item, problem):
    path = tmp_path / "deck.json"
    path.write_bytes(content)
    with pytest.raises(DataError) as err:
        load_deck(path)
    assert (err.value.path, err.value.item) == (str(path), item) and problem in err.value.problem
    assert len(str(err.value)) < len(str(path)) + 200  # a long value is cut short


@pytest.mark.parametrize("change, item, problem", [
    (lambda cs: cs[0].update(id="R" * 500), "card #1", "at most 20 printable characters"),
    (lambda cs: cs[0].update(terrain=["river"]), "card 'R01'", "unknown terrain ['river']"),
    (lambda cs: cs[0].update(coin=10**40), "card 'R01'", "found a number of about 41 digits"),
    (lambda cs: cs[0].update({f"x{i}": 1 for i in range(9)}), "card 'R01'", "unknown fields 'x0', 'x1'"),
])
def test_KK_C4_card_problems_are_named_briefly(tmp_path, change, item, problem):
    cards = shipped_cards()
    change(cards)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"cards": cards}))
    with pytest.raises(DataError) as err:
        load_deck(path)
    assert err.value.item == item and problem in err.value.problem and len(err.value.problem) < 120


def test_values_in_messages_are_cut_short_whatever_their_size():
    assert brief("x" * 1000) == "'" + "x" * 38 + "…"
    assert brief(10**5000) == "a number of about 5,001 digits"
    assert brief(-(10**50)) == "a number of about 51 digits"
    assert brief([1, 2]) == "[1, 2]"


def test_KK_C4_a_broken_deck_in_a_save_names_the_file_once(tmp_path):
    path = tmp_path / "deck.json"
    path.write_text('{"cards": []}')
    save = new_game(2).to_dict()
    save["options"]["deck"] = str(path)
    with pytest.raises(SaveFileError) as err:
        load_game(save)
    message = str(err.value)
    assert message == f"the game it describes cannot be set up: {path}: cards: the deck must hold 50 cards (KK-C2), found 0"
    assert message.count(str(path)) == 1
