"""The shared machinery: errors and action serialization."""

import dataclasses

import pytest

from railkit.actions import ActionRegistry
from railkit.errors import DataError, RuleError
from railkit.game import normalize_players


def test_rule_error_is_a_value_error_naming_its_rule():
    err = RuleError("UP-B2c", "that space is a starting space")
    assert isinstance(err, ValueError)
    assert err.rule == "UP-B2c"
    assert "UP-B2c" in str(err) and "starting space" in str(err)


def test_data_error_names_file_item_and_problem():
    err = DataError("data/x.json", "city 'Nowhere'", "unknown city")
    assert str(err) == "data/x.json: city 'Nowhere': unknown city"


def test_action_registry_round_trips_tuples():
    reg = ActionRegistry("demo")

    @reg.register("move")
    @dataclasses.dataclass(frozen=True)
    class Move:
        player: str
        cards: tuple[int, ...]

    move = Move("Ann", (1, 2))
    data = reg.to_dict(move)
    assert data == {"type": "move", "player": "Ann", "cards": [1, 2]}
    assert reg.from_dict(data) == move
    with pytest.raises(ValueError, match="is not a kind of move"):
        reg.from_dict({"type": "jump"})


def test_players_are_named_and_counted():
    assert normalize_players(2, 2, 6, "UP-S") == ("Player 1", "Player 2")
    with pytest.raises(RuleError, match="2 to 6 players"):
        normalize_players(["solo"], 2, 6, "UP-S")
    with pytest.raises(RuleError, match="different"):
        normalize_players(["A", "A"], 2, 6, "UP-S")
