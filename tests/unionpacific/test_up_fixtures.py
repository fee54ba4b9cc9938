"""Complete saved games, kept as JSON, replay to the results stored with them.

The fixtures were played by the bots (different player counts and options). If a rule
change alters how a saved game plays out, this test fails and names the game; when the
change is intended, regenerate with
``.venv/bin/python tests/unionpacific/test_up_fixtures.py --regenerate`` and say why in
the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from railkit.unionpacific import IMAGINARY, load_game, new_game
from railkit.unionpacific.bots import HeuristicBot, RandomBot, play_game

FIXTURES = Path(__file__).parent / "fixtures"

# name -> (players, seed, options, seats played by HeuristicBot)
GAMES = {
    "up_2p_standard": (2, 101, {}, (0,)),
    "up_3p_finnish_safe_countable": (["Ada", "Bo", "Cy"], 202,
                                     {"deck": "finnish", "safe_round": True, "countable_deck": True}, (1,)),
    "up_4p_dividend_cards_fi_bottom_hidden": (
        4, 303, {"deck": "dividend_cards", "direct_up_draw": False, "removed_to_bottom": True, "public_money": False}, (0, 2)),
    "up_6p_safe_round": (6, 404, {"safe_round": True}, ()),
}


def stored_result(game) -> dict:
    """The outcome in the fixtures' JSON shape."""
    outcome = game.result()
    return {"is_over": outcome.is_over, "end_reason": outcome.end_reason, "money": dict(outcome.money),
            "winners": list(outcome.winners), "imaginary_player": outcome.details["imaginary_player"],
            "payouts": outcome.details["payouts"]}


def play(name: str) -> dict:
    players, seed, options, heuristic = GAMES[name]
    game = new_game(players, seed=seed, **options)
    bots = {p: (HeuristicBot(seed + i) if i in heuristic else RandomBot(seed + i)) for i, p in enumerate(game.players)}
    play_game(game, bots)
    return {
        "about": f"{name}: a complete game played by railkit's bots (HeuristicBot seats {list(heuristic)}), "
                 "stored with its result; see tests/unionpacific/test_up_fixtures.py",
        "save": game.to_dict(),
        "result": stored_result(game),
        "last_event": game.narrative[-1],
    }


@pytest.mark.parametrize("name", sorted(GAMES))
def test_saved_game_replays_to_its_stored_result(name):
    stored = json.loads((FIXTURES / f"{name}.json").read_text())
    game = load_game(stored["save"])
    assert game.is_over, f"{name} no longer ends where it did"
    assert stored_result(game) == stored["result"]
    assert game.narrative[-1] == stored["last_event"]
    assert game.to_dict() == stored["save"]
    assert len(game.state.payouts) == (3 if len(game.players) == 2 else 4)
    if len(game.players) == 2:
        assert IMAGINARY in game.result().money


def test_fixture_games_cover_player_counts_and_options():
    counts = set()
    options: dict[str, set] = {}
    for path in FIXTURES.glob("up_*.json"):
        save = json.loads(path.read_text())["save"]
        counts.add(len(save["players"]))
        for k, v in save["options"].items():
            options.setdefault(k, set()).add(json.dumps(v))
    assert counts >= {2, 3, 4, 6}
    assert all(len(v) >= 2 for k, v in options.items() if k != "board")


if __name__ == "__main__" and "--regenerate" in sys.argv:
    FIXTURES.mkdir(exist_ok=True)
    for fixture in GAMES:
        data = play(fixture)
        (FIXTURES / f"{fixture}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        print(fixture, data["result"]["winners"], len(data["save"]["actions"]), "actions")
