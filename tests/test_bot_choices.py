"""The HeuristicBots choose as recorded in benchmarks/bot_choices.json: speed changes must not change a move.

The fast tier replays the first games of each engine, the bots asked with the game and with the seat's view;
``python -m benchmarks.bot_choices [--views]`` replays all 200."""

import importlib.util
from pathlib import Path

import pytest

BOT_CHOICES = Path(__file__).resolve().parent.parent / "benchmarks" / "bot_choices.py"


def load_bot_choices():
    spec = importlib.util.spec_from_file_location("benchmarks_bot_choices", BOT_CHOICES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("engine", ["up", "kk"])
def test_heuristic_bots_make_the_recorded_moves(engine):
    bot_choices = load_bot_choices()
    assert len(bot_choices.load_record()[engine]) == bot_choices.GAMES
    assert bot_choices.differences(engine, 15) == []


@pytest.mark.parametrize("engine", ["up", "kk"])
def test_heuristic_bots_asked_with_the_seats_view_make_the_recorded_moves(engine):
    """Asked as Players (the seat's view and legal moves only), the bots choose as recorded: they read nothing
    of the game that the view does not hold."""
    bot_choices = load_bot_choices()
    assert bot_choices.differences(engine, 6, views=True) == []
