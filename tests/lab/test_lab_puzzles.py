"""Puzzles from real positions (railkit/lab/puzzles.py): every shipped puzzle replays through the engine to a
position where its seat is to act and every choice is legal; the miner finds one on a tiny budget."""

from __future__ import annotations

import json

import pytest

from railkit.capecairo.actions import Bid
from railkit.lab.cli import main
from railkit.lab.puzzles import QUESTIONS, load_puzzles, question_of, replay, shipped, shipped_path
from railkit.unionpacific.actions import Build, DrawShare

KINDS = {"kk": {"bid": Bid}, "up": {"share": DrawShare, "build": Build}}


@pytest.mark.parametrize("game", ["kk", "up"])
def test_KK_A2_UP_B3_every_shipped_puzzle_replays_and_its_choices_are_legal_there(game):
    puzzles = shipped(game)
    assert len(puzzles) >= 30 and len({p.id for p in puzzles}) == len(puzzles)
    for puzzle in puzzles:
        played = replay(puzzle)  # every logged move checked by the engine on the way
        assert not played.is_over and puzzle.seat in played.players_to_act()
        legal = played.legal_actions(puzzle.seat)
        choices = [played.registry.from_dict(c) for c in puzzle.choices]
        assert 2 <= len(choices) <= 4 and len(set(choices)) == len(choices)
        assert all(c in legal for c in choices), puzzle.id
        assert all(isinstance(c, KINDS[game][puzzle.question]) and c.player == puzzle.seat for c in choices)
        assert question_of(played.view(puzzle.seat), legal) == puzzle.question
        assert 0 <= puzzle.best < len(choices) and len(puzzle.evaluations) == len(choices)
        top = puzzle.evaluations[puzzle.best]
        assert all(top["reward"] > e["reward"] for i, e in enumerate(puzzle.evaluations) if i != puzzle.best)
        assert puzzle.rules == list(QUESTIONS[puzzle.question])


def test_the_miner_finds_a_puzzle_on_a_tiny_budget_and_writes_it(tmp_path, capsys):
    out = tmp_path / "kk.json"
    assert main(["puzzles", "--game", "kk", "--count", "1", "--every", "1", "--analyse", "ismcts:40", "--check", "16",
                 "--bots", "heuristic", "--max-games", "8", "--out", str(out), "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == {"game": "kk", "puzzles": 1,
                                                                      "questions": {"bid": 1}}
    (puzzle,) = load_puzzles(out)
    played = replay(puzzle)
    assert played.registry.from_dict(puzzle.choices[puzzle.best]) in played.legal_actions(puzzle.seat)
    assert json.loads(out.read_text())["about"]["reward_gap"] > 0


def test_a_puzzles_file_that_is_not_one_is_refused_in_words(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"puzzles": 3}')
    with pytest.raises(ValueError, match="not a puzzles file"):
        load_puzzles(bad)
    assert shipped_path("kk").name == "puzzles.json"
