"""What a play lesson tells the “Play with others” panel about its game (``TableGame``), and the table server's
words read back: the engine's sentences, sent as JSON, as ``Message``s again in this page's language.

Nothing here shows anything: ``railkit.ui.tables.table_play`` is the panel, ``railkit.ui.tables.table_html`` draws the lobby,
the turn and the table's story from what the server sent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from railkit.game import BaseView, Game
from railkit.messages import Message
from railkit.ui.i18n import render, tr
from railkit.ui.plot import Plot
from railkit.ui.tables.table_replay import Measures
from railkit.wire import message_from_json

__all__ = ["Action", "TableGame", "message_from_json", "sentence_text", "unavailable_words"]


Action = Any  # one of the engine's actions (a frozen dataclass), typed from the server's JSON once it arrives


def _nothing(*_args: Any) -> str:
    return ""


def _never(_view: Any) -> bool:
    return False


def _no_amount(_action: Any) -> int | None:
    return None


def _acts(_action: Any) -> bool:
    return False


@dataclass(frozen=True)
class TableGame:
    """What a lesson tells the panel about its game. ``view`` is the game's typed view (``view_type``, made
    from the JSON the server sent); actions are the engine's own actions (``engine.registry``), typed from the
    server's JSON once when a state arrives (``actions``) and sent back as JSON (``action_json``)."""

    game: str  # the engine's GAME name, as the server knows it
    seats: tuple[int, int]  # the fewest and most players
    view_type: type[BaseView]
    board_html: Callable[[Any, str | None, Sequence[str]], str]  # (view, seat, learners' seats) -> HTML
    action_words: Callable[[Action, Any], str]  # (action, view) -> a legal move in words
    progress_words: Callable[[Any], str]  # view -> e.g. "3 of 4 bids in" ("" when nothing to say)
    review_html: Callable[[Mapping[str, Any], str], str]  # (the finished game's replay, seat) -> the review
    result_words: Callable[[Any], str]  # view of a finished game -> who won
    # (view, seat, legal moves, the server's explanations for this seat or None while asked) -> "Why" HTML
    why_html: Callable[[Any, str, Sequence[Action], Mapping[str, Any] | None], str] = _nothing
    explains_on_server: Callable[[Any], bool] = _never  # view -> does "Why" need the server's explanations?
    move_html: Callable[[Any, Action], str] = _nothing  # (view, the picked move) -> the move explained
    offers_hint: bool = False  # a Hint button (the search player's move, worked out in the kernel: game_review)
    # (view, the picked move) -> (what the map shows, to compare; how to draw it), drawn when the first changes
    board_figure: Callable[[Any, Action | None], tuple[Any, Callable[[], Plot]]] | None = None
    engine: type[Game[Any]] | None = None  # its registry types the moves; replays a finished table move by move
    measures: Measures | None = None  # game -> what the replay's chart draws per player (money, ...)
    bid_amount: Callable[[Action], int | None] = _no_amount  # a sealed bid's amount (a bid box instead of a list)
    # Does the move hand the turn on without acting (KK's Pass, UP's end of turn)? Such a move gets a button of its
    # own and is never what “Your move” starts on, so no stray Enter gives the turn away.
    passes: Callable[[Action], bool] = _acts

    def actions(self, sent: Sequence[Mapping[str, Any]]) -> list[Action]:
        """The server's moves as the engine's actions (its registry checks each; ``ValueError`` if one is not
        a move of this game)."""
        if self.engine is None:
            raise ValueError(f"the table game {self.game!r} names no engine to read its moves")
        return [self.engine.registry.from_dict(a) for a in sent]

    def action_json(self, action: Action) -> dict[str, Any]:
        """A move as the server takes it (the engine's action dict)."""
        if self.engine is None:
            raise ValueError(f"the table game {self.game!r} names no engine to write its moves")
        return self.engine.registry.to_dict(action)


def unavailable_words(where: str) -> str:
    """One sentence: why a class table cannot be played here and what to use instead ("" when it can)."""
    if where == "browser":
        return tr("Play with others needs the class's table server, which a lesson running inside your browser "
                  "cannot reach: open the lessons from a server started with “make run” or your class's JupyterHub.")
    if where == "binder":
        return tr("Play with others is not available on Binder, where every learner has a separate short-lived "
                  "server: start the lessons on one machine for the class with “make run”, or use your class's "
                  "JupyterHub.")
    if where == "none":
        return tr("Play with others needs the class's table server: start the lessons with “make run”, which "
                  "starts it too.")
    return ""


def sentence_text(value: Any, you: str | None = None) -> str:
    """An engine sentence from the server in this page's language; about the seat ``you``, in the second person
    (``railkit.messages.addressed``: "you draw a track card", never "Te húz")."""
    found = message_from_json(value)
    try:
        return render(found, you=you) if isinstance(found, Message) else str(found)
    except Exception:  # noqa: BLE001 - a sentence this railkit cannot fill is shown in English
        return str(found)
