"""“Review my game” (railkit/ui/game_review.py) without a browser: the panel under a finished game reviews the
learner's decisions off the page's thread, lists the marked ones with the rule IDs, and charts the winning chances;
the KK play lesson shows it at the end and its hint gives the search player's move, evaluated."""

from __future__ import annotations

import html
import json
import re

import pytest

from railkit.bots import play_game, seated
from railkit.capecairo import CapeToCairoGame
from railkit.lab.players import make_player
from railkit.lab.review import decisions_of, final_place, review_decisions
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.game_review import GameReviewPanel, ReviewUnavailable
from railkit.ui.i18n import set_language
from railkit.ui.tables.table_review import typed_decisions


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def finished_game() -> CapeToCairoGame:
    game = CapeToCairoGame(["Ann", "Bob", "Cid"], seed=5, win_crossings=3)
    return play_game(game, [seated(make_player("heuristic", i)) for i in range(3)])


def test_KK_the_review_panel_lists_the_decisions_with_marks_and_rules_and_charts_the_chances():
    game = finished_game()
    panel = GameReviewPanel(player="ismcts:12")
    assert panel.widget.layout.display == "none"
    panel.show(game, "Ann")
    assert panel.widget.layout.display is None and panel.button.layout.display is None
    panel.start(wait=True)
    review = panel.review
    assert review is not None and review.seat == "Ann" and review.decisions
    said = text(panel.words.value)
    assert "Review of your decisions by the search player" in said
    assert f"{len(review.decisions)} decisions reviewed" in said and "KK-A2" in said
    assert "You bid" in said  # the learner's own bids, with their amounts (KK-A2), and in the second person
    assert panel.words.value.count("<tr>") == len(review.decisions) + 1  # every decision, in a table
    for d in review.decisions:
        if d.mark:
            assert f"Move {d.move} {d.mark}" in said
    assert panel.progress.layout.display == "none" and panel.chart.widget.layout.display is None
    assert panel.progress.value == panel.progress.max == len(review.decisions)
    panel.show(None, None)
    assert panel.widget.layout.display == "none"


def test_the_review_panel_in_finnish_from_a_tables_decisions_and_when_they_cannot_be_had():
    """At a table the kernel holds only the seat's views: the decisions come as the server sends them (JSON, typed
    here as the table types its states); a source that cannot review says why, and the button stays."""
    set_language("fi")
    try:
        game = finished_game()
        answer = {"seat": "Bob", "decisions": [
            {"move": move, "view": json.loads(json.dumps(view.to_json())), "made": game.registry.to_dict(made),
             "legal": [game.registry.to_dict(a) for a in legal]} for move, view, legal, made in decisions_of(game, "Bob")]}
        table_game = KkPlayApp(seed=1, players=2).together.game
        items = typed_decisions(table_game, answer, "Bob")
        assert [(m, v, lg, md) for m, v, lg, md in items] == list(decisions_of(game, "Bob"))
        place, won = final_place(game.view("Bob"), "Bob")

        def source(progress, player):
            return review_decisions("cape_to_cairo", "Bob", items, place, won, player=player, progress=progress)

        panel = GameReviewPanel(player="flatmc:4")
        panel.show_source(("T", "Bob", 1), "Bob", source)
        assert panel.widget.layout.display is None
        panel.start(wait=True)
        said = text(panel.words.value)
        assert "Review of your decisions" not in said and "KK-A" in said
        assert panel.review is not None and panel.review.seat == "Bob" and panel.review.place == place
        again = GameReviewPanel()  # the page built again in another language keeps the review
        again.adopt(panel)
        assert again.review is panel.review and again.button.layout.display == "none" and "KK-A" in again.words.value

        def down(_progress, _player):
            raise ReviewUnavailable("Palvelin ei vastaa.")

        panel.show_source(("T", "Bob", 2), "Bob", down)
        panel.start(wait=True)
        assert "Palvelin ei vastaa." in text(panel.words.value) and panel.button.layout.display is None
        with pytest.raises(ValueError):
            typed_decisions(table_game, {**answer, "seat": "Ann"}, "Bob")  # not this seat's
        panel.show_source(None, None, None)
        assert panel.widget.layout.display == "none"
    finally:
        set_language("en")


def test_KK_the_play_lessons_hint_is_the_search_players_move_with_the_next_best():
    app = KkPlayApp(seed=3, players=2, win_crossings=3)
    app.hint_button.value = True
    said = text(app.hint_html.value)
    assert "Hint: the search player would play this: You bid" in said and "wins" in said
    assert "Next best:" in said and "KK-A2" in said
    assert app.game_review.widget.layout.display == "none"  # only after the game
    while not app.game.is_over:
        app.on_auto()
    assert app.game_review.widget.layout.display is None


def test_UP_a_tables_decisions_typed_in_the_kernel_are_the_seats_own_and_reviewed():
    """Union Pacific at a table: each decision the server sends (the seat's view with its legal moves, UP-B2 builds
    among them, and its move) typed as the play lesson's view and actions is the same as the game's own, and the
    search player reviews it."""
    from railkit.ui.unionpacific.play import PlayApp
    from railkit.unionpacific.game import UnionPacificGame

    game = play_game(UnionPacificGame(["Ann", "Bob"], seed=3), [seated(make_player("heuristic", i)) for i in range(2)])
    found = list(decisions_of(game, "Ann"))
    answer = {"seat": "Ann", "decisions": [
        {"move": move, "view": json.loads(json.dumps(view.to_json())), "made": game.registry.to_dict(made),
         "legal": [game.registry.to_dict(a) for a in legal]} for move, view, legal, made in found]}
    items = typed_decisions(PlayApp(seed=1).together.game, answer, "Ann")
    assert items == found and len(items) > 50
    review = review_decisions("union_pacific", "Ann", items[:2], *final_place(game.view("Ann"), "Ann"),
                              player="flatmc:2")
    assert review.game == "up" and [d.move for d in review.decisions] == [m for m, *_ in found[:2]]
