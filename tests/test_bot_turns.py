"""The one seat policy of a play session and a class table (railkit.bot_turns): which computer seat moves next
and the budget of one go."""

from __future__ import annotations

import pytest

from railkit.bot_turns import PAGE_BOT_MOVES, TABLE_BOT_MOVES, BotTurns, next_computer_seat
from railkit.session import MAX_BOT_MOVES, Session, seat_bots
from railkit.tables.table import MAX_BOT_MOVES as TABLE_MAX
from railkit.unionpacific import new_game as up_game
from railkit.unionpacific.bots import HeuristicBot as UpBot


def test_a_session_and_a_table_take_their_budgets_from_the_one_policy() -> None:
    assert MAX_BOT_MOVES == PAGE_BOT_MOVES and TABLE_MAX == TABLE_BOT_MOVES


def test_the_first_seat_to_act_that_the_computer_plays_moves_and_the_budget_cuts_the_go_short() -> None:
    game = up_game(["Ann", "Ben", "Cleo"], seed=2)
    assert next_computer_seat(game, lambda seat: False) is None
    first = next_computer_seat(game, lambda seat: True)
    assert first == game.players_to_act()[0]
    session = Session(game, [], seat_bots(UpBot))
    turns = BotTurns(lambda: session.game, lambda seat: True, limit=3)
    moved = []
    for seat in turns:
        session._bot_move(seat)
        moved.append(seat)
    assert moved[0] == first and len(moved) == turns.moves == 3 and turns.cut_short
    stopped = BotTurns(lambda: session.game, lambda seat: True, limit=1, stop=lambda g: True)
    assert list(stopped) == [] and not stopped.cut_short
    with pytest.raises(ValueError, match="at least 1"):
        BotTurns(lambda: session.game, lambda seat: True, limit=0)
