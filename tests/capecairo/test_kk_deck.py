"""KK-C1..C5: the components, and the deck as validated data."""

import json
from collections import Counter

import pytest

from railkit.capecairo import REQUIREMENT, Bid, load_deck, new_game
from railkit.capecairo.deck import default_deck_path, parse_deck
from railkit.errors import DataError, RuleError


def shipped_cards() -> list[dict]:
    return json.loads(default_deck_path().read_text())["cards"]


def write_deck(tmp_path, cards, name="deck.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"format": "railkit-cape-to-cairo-deck", "version": 1, "cards": cards}))
    return path


def test_KK_C1_one_colour_per_player_up_to_four():
    game = new_game(["Ann", "Bob", "Cy", "Di"])
    colours = game.view(None)["colours"]
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
    assert all(game.card(c).coin == 1 for c in game.offer)


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
    assert game.money == {"Ann": 100, "Bob": 100}
    with pytest.raises(RuleError) as err:
        game.apply(Bid("Ann", 101))
    assert err.value.rule == "KK-A2" and "KK-C5" in str(err.value)
    game.apply(Bid("Ann", 100))
    game.apply(Bid("Bob", 0))
    assert game.money["Ann"] == 0
