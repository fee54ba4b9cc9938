"""A finished game replayed move by move (``railkit.ui.tables.table_replay``): the log is the truth, every position
comes from the engine replaying it, each move shows the engine's words, and the chart follows each player's
money over the game; a log that does not replay hides the panel and leaves the rest of the page alone."""

from __future__ import annotations

import html
import re

from railkit.capecairo.bots import HeuristicBot as KKHeuristicBot
from railkit.capecairo.game import CapeToCairoGame
from railkit.session import Session, seat_bots
from railkit.tables.table import public_replay
from railkit.ui.capecairo.play.together import KK_TABLE, kk_measures
from railkit.ui.tables.table_replay import ReplayPanel, history_plot, replay_steps
from railkit.ui.unionpacific.play.together import up_measures
from railkit.unionpacific import UP, UnionPacificGame, new_game
from railkit.unionpacific.bots import HeuristicBot


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def finished_up() -> UnionPacificGame:
    game = new_game(["Ann", "Ben", "Cleo"], seed=3)
    Session(game, (), seat_bots(HeuristicBot), max_bot_moves=5000).run_bots()
    assert game.is_over
    return game


def test_REPLAY_UP_D12_each_position_and_the_money_come_from_the_log() -> None:
    game = finished_up()
    steps = replay_steps(UnionPacificGame, game.to_dict(), up_measures)
    assert [s.move for s in steps] == list(range(len(game.log) + 1))
    assert steps[-1].measures["Money"] == game.state.money  # the replay ends where the game ended
    assert steps[0].measures["Money"] == {"Ann": 0, "Ben": 0, "Cleo": 0}
    # UP-D2: a company share on the table is worth its company's value (trains + 1); UP shares are not counted.
    state = game.state
    assert steps[-1].measures["Shares' worth on the table"] == {
        p: sum(n * (state.net.on_board(k) + 1) for k, n in state.table[p].items() if k != UP) for p in game.players}
    assert any(v > 0 for v in steps[-1].measures["Shares' worth on the table"].values())
    assert sum(len(s.words) for s in steps) == len(game.narrative)
    plot = history_plot(steps, ["Ann", "Ben", "Cleo"])
    assert [t["name"] for t in plot.traces] == ["Ann", "Ben", "Cleo"] * 2
    assert plot.traces[0]["y"][-1] == game.state.money["Ann"] and plot.traces[3]["yaxis"] == "y2"
    assert plot.figure.layout.yaxis.title.text == "Money"  # plotly accepts the figure


def test_REPLAY_KK_the_panel_steps_through_the_game_with_the_engines_words() -> None:
    game = CapeToCairoGame(["Ann", "Ben"], seed=5, win_crossings=3)
    Session(game, (), seat_bots(KKHeuristicBot), max_bot_moves=5000).run_bots()
    assert game.is_over
    panel = ReplayPanel(CapeToCairoGame, lambda view, learners: KK_TABLE.board_html(view, None, learners), kk_measures)
    assert panel.widget.layout.display == "none"
    panel.load({**public_replay(game), "learners": ["Ann"]})  # as the table server sends it: Ann a learner, Ben a computer
    assert panel.widget.layout.display != "none" and panel.slider.max == len(game.log)
    assert "Players: Ann (learner), Ben (computer)" in text(panel.players.value)
    # the buttons say in words what they do (a label a screen reader reads out; no symbol a font may lack)
    assert [b.description for b in panel.buttons] == ["Back to the deal", "One move back", "Next move",
                                                      "The end of the game"]
    assert "The deal, before the first move" in text(panel.words.value)
    panel.buttons[2].click()  # one move forward
    assert f"Move 1 of {len(game.log)}: Ann hands in a sealed bid" in text(panel.words.value)  # no amount yet
    panel.buttons[3].click()  # the end
    assert panel.slider.value == len(game.log) and "KK-" in text(panel.words.value)
    assert "Ann" in text(panel.board.value)
    panel.go(-5)
    assert panel.slider.value == 0
    broken = {**public_replay(game), "steps": [{"view": {"no_such_field": 1}, "words": []}]}
    panel.load(broken)
    assert panel.widget.layout.display == "none"
