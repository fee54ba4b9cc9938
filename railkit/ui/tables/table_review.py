"""“Review my game” at a class table: the search review of the play lessons (``railkit.lab.review``,
``railkit.ui.game_review``) for a seat whose kernel never held the game.

A table's kernel holds only its seat's views; the replay it is sent at the end has no deal and no card hidden for
good, so it cannot be replayed to the seat's decisions. So the “Review my game” button asks the table server for
them (``TableLink.decisions``; ``railkit.tables.decisions``: the seat's own view at each move where it had a choice,
its legal moves and the move it made, sent to its own token once the game is over), types each view as the table
types every state (``TableGame.view_type``'s ``from_json``) and the moves with the engine's registry, and reviews
them one by one (``review_decisions``) with the place and the win read from the public result (``final_place``). When
the server does not answer or refuses, the panel says so in words (``ReviewUnavailable``) and the result stands.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from railkit.game import BaseView
from railkit.lab.review import GameReview, final_place, review_decisions
from railkit.ui.class_http import ServerProblem
from railkit.ui.game_review import ReviewSource, ReviewUnavailable
from railkit.ui.i18n import tr
from railkit.ui.tables.table_game import TableGame
from railkit.ui.tables.table_html import problem_words
from railkit.ui.tables.table_link import TableLink

__all__ = ["table_review", "typed_decisions"]

Decisions = list[tuple[int, BaseView, list[Any], Any]]


def typed_decisions(game: TableGame, answer: Mapping[str, Any], seat: str) -> Decisions:
    """The server's decisions for ``seat`` as the review takes them: (move number, the typed view, the legal moves
    and the move made as the engine's actions). ``ValueError`` for an answer that is not this seat's."""
    if answer.get("seat") != seat or not isinstance(answer.get("decisions"), list):
        raise ValueError(f"the table server's answer holds no decisions of {seat!r}")
    out: Decisions = []
    for item in answer["decisions"]:
        view = game.view_type.from_json(item["view"])
        legal, made = game.actions(item["legal"]), game.actions([item["made"]])[0]
        if view.you != seat or getattr(made, "player", None) != seat:
            raise ValueError(f"the table server sent a decision that is not {seat!r}'s")
        out.append((int(item["move"]), view, legal, made))
    return out


def unavailable_words(problem: ServerProblem, seat: str) -> str:
    """Why the review cannot be made now, in words: the table's result stands."""
    if problem.code == "offline":
        said = tr("The table server is not answering just now; it is probably restarting. Try again in a moment.")
    else:
        said = problem_words(problem, seat)
    return tr("Your decisions could not be fetched from the table server for the review. {reason}", reason=said)


def table_review(game: TableGame, link: TableLink, seat: str, final: BaseView) -> ReviewSource:
    """The review of ``seat``'s decisions at ``link``'s finished table, as ``GameReviewPanel.show_source`` runs it:
    fetched, typed, reviewed; ``final`` is the seat's view of the finished game (its public result)."""

    def run(progress: Callable[[int, int], object], player: str | None) -> GameReview:
        try:
            answer = link.decisions()
        except ServerProblem as exc:
            raise ReviewUnavailable(unavailable_words(exc, seat)) from None
        items: Sequence[tuple[int, BaseView, list[Any], Any]] = typed_decisions(game, answer, seat)
        place, won = final_place(final, seat)
        return review_decisions(game.game, seat, items, place, won, player=player, progress=progress)

    return run
