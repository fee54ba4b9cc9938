"""Options follow one convention: a wrong type is a TypeError, a value the rules forbid a
RuleError naming the rule."""

from pathlib import Path

import pytest

from railkit.capecairo import new_game
from railkit.errors import RuleError

DECK = str(Path(__file__).parent / "fixtures" / "kk_test_deck.json")


@pytest.mark.parametrize("options, message", [
    ({"win_crossings": "8"}, "win_crossings must be a whole number"),
    ({"win_crossings": 8.0}, "win_crossings must be a whole number"),
    ({"win_crossings": True}, "win_crossings must be a whole number"),
    ({"river_bonus_for_builder": 1}, "river_bonus_for_builder must be True or False"),
    ({"river_bonus_for_builder": "no"}, "river_bonus_for_builder must be True or False"),
    ({"deck": 5}, "deck must be the path"),
    ({"deck": ["a.json"]}, "deck must be the path"),
    ({"stack": "V01"}, "stack must be a list of card ids"),
    ({"stack": [1, 2]}, "stack must be a list of card ids"),
    ({"stack": 3}, "stack must be a list of card ids"),
])
def test_KK_S1_options_of_the_wrong_type_are_type_errors(options, message):
    with pytest.raises(TypeError, match=message):
        new_game(2, **options)


@pytest.mark.parametrize("options, rule, message", [
    ({"win_crossings": 0}, "KK-E1", "from 1 to 8"),
    ({"win_crossings": 9}, "KK-E1", "from 1 to 8"),
    ({"win_crossings": -(10**40)}, "KK-E1", "a number of about 41 digits"),
    ({"stack": ["V01", "V01"]}, "KK-S1", "twice"),
    ({"stack": ["V01"] * 51}, "KK-S1", "holds only 50"),
    ({"stack": ["Q99", "V01"]}, "KK-C4", "not in the deck: 'Q99'"),
    ({"colour": "red"}, "KK-S1", "unknown option"),
])
def test_KK_E1_KK_S1_KK_C4_option_values_the_rules_forbid_name_the_rule(options, rule, message):
    with pytest.raises(RuleError, match=message) as err:
        new_game(2, deck=DECK, **options)
    assert err.value.rule == rule


def test_KK_E1_every_allowed_option_value_is_kept_and_saved():
    game = new_game(["Ann", "Bob"], deck=DECK, win_crossings=1, river_bonus_for_builder=False, stack=["V01", "S09"])
    assert game.table.win_crossings == 1 and game.table.river_bonus_for_builder is False
    assert game.options["stack"] == ("V01", "S09") and game.state.offer == ["V01", "S09"]
    saved = game.to_dict()["options"]
    assert saved == {"deck": DECK, "win_crossings": 1, "river_bonus_for_builder": False, "stack": ("V01", "S09")}
    assert not hasattr(game, "opt")  # one name for the options: game.options
