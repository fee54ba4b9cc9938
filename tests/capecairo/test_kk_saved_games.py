"""Complete saved games (fixtures) replay to their stored result; saves are checked on load."""

import json
from pathlib import Path

import pytest

from railkit.capecairo import Bid, load_game, new_game
from railkit.game import SaveFileError

HERE = Path(__file__).parent
SAVED = sorted((HERE / "fixtures").glob("kk_saved_*.json"))


def load_fixture(path):
    data = json.loads(path.read_text())
    save = data["save"]
    save["options"]["deck"] = str(HERE / save["options"]["deck"])  # stored relative to this folder
    return data, save


def test_there_are_saved_game_fixtures_for_both_endings():
    endings = {json.loads(p.read_text())["expected_result"]["end_reason"] for p in SAVED}
    assert len(SAVED) >= 3 and endings == {"KK-E1", "KK-B8"}


@pytest.mark.parametrize("path", SAVED, ids=[p.stem for p in SAVED])
def test_KK_E1_KK_B8_saved_game_replays_to_its_stored_result(path):
    data, save = load_fixture(path)
    game = load_game(save)
    assert game.is_over
    assert len(game.log) == data["expected_actions"]
    outcome = game.result()
    stored = {"is_over": outcome.is_over, "winners": list(outcome.winners), "end_reason": outcome.end_reason,
              "crossings": dict(outcome.score), "money": dict(outcome.money)}
    assert stored == data["expected_result"]
    # text and dict saves agree, and saving again gives the same actions
    assert load_game(json.dumps(save)).state_dict() == game.state_dict()
    assert game.to_dict()["actions"] == save["actions"]


def test_saved_game_with_a_tampered_action_is_refused_with_its_place():
    data, save = load_fixture(SAVED[0])
    first_bid = next(i for i, a in enumerate(save["actions"]) if a["type"] == "bid")
    save["actions"][first_bid]["amount"] = 1000
    with pytest.raises(SaveFileError, match=f"move {first_bid + 1} .*KK-A2"):
        load_game(save)


def test_save_for_another_game_or_bad_json_is_refused():
    game = new_game(2, seed=1)
    game.apply(Bid("Player 1", 3))
    data = game.to_dict()
    assert load_game(data).view("Player 1").your_bid == 3
    with pytest.raises(SaveFileError, match="union_pacific"):
        load_game({**data, "game": "union_pacific"})
    with pytest.raises(SaveFileError, match="its text is broken on line 1"):
        load_game("{nope")


def test_uploaded_save_naming_a_deck_file_is_refused():
    """A save from outside may not make the server open a file of its choosing."""
    game = new_game(2, seed=1)
    data = {**game.to_dict(), "options": {**game.options, "deck": "/etc/passwd"}}
    with pytest.raises(SaveFileError, match="names a file on the computer"):
        type(game).load(data, allow_files=False)
    assert type(game).load(game.to_dict(), allow_files=False).state_dict() == game.state_dict()
