"""Analysis of a position for one seat (railkit/lab/analysis.py): every move asked about is evaluated with the
finish and money it leads to, the best first."""

from __future__ import annotations

from lab_positions import positions

from railkit.lab.analysis import HINT_PLAYERS, analyse, hint_player


def test_analyse_evaluates_the_learners_own_move_too_best_first():
    for game in ("kk", "up"):
        real, seat = positions(game, range(1), every=41 if game == "kk" else 97)[1]
        legal = real.legal_actions(seat)
        mine = legal[-1]  # a move the heuristic ranks last
        found = analyse(real.view(seat), legal, include=[mine], seed=2, player="flatmc:8")
        by_move = {e.action: e for e in found}
        assert mine in by_move and by_move[mine].visits > 0
        assert all(e.action in legal for e in found)
        for e in found:
            if e.visits:
                assert 1 <= e.place <= len(real.players) and 0 <= e.wins <= 1 and e.money >= 0


def test_the_hint_players_are_search_players_by_name():
    assert set(HINT_PLAYERS) == {"kk", "up"}
    for game in HINT_PLAYERS:
        assert hasattr(hint_player(game), "evaluate")
