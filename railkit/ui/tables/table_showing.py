"""The “Play with others” panel on screen (``TableShowing``, a part of ``railkit.ui.tables.table_play.TablePlayPanel``): its
widgets filled from the seat's last state (the lobby, the turn, the seat's moves, the help, the board, the story, the
review, “Review my game”), what a screen reader is told (``railkit.ui.tables.table_announce``), and where the keyboard
focus goes next.

The focus follows the game (WCAG 2.4.3): a table that opens takes it to the seat's move, or to the lobby while the
table waits; after the seat's move it goes to the seat's next move, or to the table's story while the others play;
a turn that begins takes it to the seat's move, unless the learner went to another control meanwhile.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Mapping
from typing import Any

from railkit.game import BaseView
from railkit.ui.app import Messages
from railkit.ui.i18n import tr
from railkit.ui.tables.table_game import Action, TableGame, unavailable_words
from railkit.ui.tables.table_html import LOBBY_FOCUS, events_html, lobby_html, offline_html, turn_html
from railkit.ui.tables.table_link import TableLink
from railkit.ui.tables.table_moves import MoveSender
from railkit.ui.tables.table_review import table_review
from railkit.ui.tables.table_widgets import STORY, TableWidgets
from railkit.ui.widgets import set_shown, set_value

__all__ = ["WAITING_PLACES", "TableShowing"]

# Where the focus may be for a turn that begins to take it to the seat's move: nowhere (a control that was hidden),
# the story or the lobby, where the panel put it; never a control the learner went to meanwhile.
WAITING_PLACES = f"body, {STORY}, {LOBBY_FOCUS}"


class TableShowing(TableWidgets):
    """Draws the panel from its state (see the module docstring); the panel keeps the state and the connection."""

    messages: Messages
    game: TableGame
    where: str
    state: dict[str, Any] | None
    view: BaseView | None
    legal: list[Action]
    help: dict[str, Any] | None
    moves: MoveSender
    link: TableLink | None
    creator: bool
    _lock: threading.RLock
    _offline: bool
    _mine: int
    _seen_narrative: int
    _map_key: Any
    _first_state: bool
    _into_view: bool
    _acted_at: int | None

    def _legal(self) -> list[Action]:
        return list(self.legal) if self.state is not None else []

    def _words(self, action: Action) -> str:
        return self.game.action_words(action, self.view) if self.view is not None else str(action)

    def _pass_move(self) -> Action | None:
        """The seat's move that hands the turn on without acting, when there is exactly one."""
        passes = [a for a in self._legal() if self.game.passes(a)]
        return passes[0] if len(passes) == 1 else None

    def refresh(self) -> None:
        with self._lock:
            self._refresh()

    def _refresh(self) -> None:
        words = unavailable_words(self.where)
        set_value(self.note, f"<p class='railkit-table-unavailable'>{html.escape(words)}</p>" if words else (
            "<p>" + html.escape(tr("Play this game with others, each at their own screen: one learner starts a "
                                   "table and shares its code, the others join with the code and their name.")) + "</p>"))
        state = self.state
        set_shown(self.start_box, self.where == "server" and (state is None or bool(state.get("is_over"))))
        set_shown(self.game_box, state is not None)
        if state is None:
            set_shown(self.bid_row, False)
            set_shown(self.pick_row, False)
            set_shown(self.creator_row, False)
            return
        view, seat = self.view, state.get("seat")
        assert view is not None  # typed with the state
        set_value(self.lobby, self._lobby_html(state))
        waiting = self._words(self.moves.waiting[1]) if self.moves.waiting is not None else None
        set_value(self.turn, offline_html(waiting) if self._offline else self._turn_html(state))
        progress = self.game.progress_words(view)  # said by the story's sentences (“Ann hands in a sealed bid”)
        set_value(self.progress, f"<p>{html.escape(progress)}</p>" if progress else "")
        # a learner's seat, or one waiting for a learner: only a seat a computer player holds is a computer's
        learners = [n for n, h in state.get("seats", {}).items() if h != "bot"]
        set_value(self.board, self.game.board_html(view, seat, learners))
        self._refresh_moves(state, view)
        self._refresh_help(state, view)
        others = [(n, n) for n in state.get("seats", {}) if n != seat]
        if list(self.seat_pick.options) != others:
            self.seat_pick.options = others
        if self.seat_pick.value is None and others:
            self.seat_pick.value = others[0][1]
        set_shown(self.creator_row, self.creator and bool(others) and not state.get("is_over"))
        set_value(self.events, self._events_html(state))
        review = ""
        if state.get("is_over") and state.get("replay") and seat is not None:
            try:
                review = self.game.review_html(state["replay"], seat)
            except Exception:  # noqa: BLE001 - the review is a help; the result stands without it
                review = ""
        set_value(self.review, review)
        self._refresh_game_review(state, view)
        if self.replay is not None:
            self.replay.load(state.get("replay") if state.get("is_over") else None)

    def _refresh_game_review(self, state: Mapping[str, Any], view: BaseView) -> None:
        """“Review my game” once the seat's game is over: the seat's own decisions, fetched from the table server
        when asked (``railkit.ui.tables.table_review``); never for a spectator."""
        seat, link = state.get("seat"), self.link
        if not state.get("is_over") or seat is None or link is None or self.game.engine is None:
            self.game_review.show_source(None, None, None)
            return
        self.game_review.show_source((state.get("table"), seat, state.get("seq")), str(seat),
                                     table_review(self.game, link, str(seat), view))

    def _refresh_help(self, state: Mapping[str, Any], view: BaseView) -> None:
        """"Why" while the seat is to act (with the server's explanations once they are in), the picked move."""
        legal, seat = self._legal(), state.get("seat")
        shown = bool(legal) and seat is not None
        set_shown(self.hint_button, shown)
        if not shown:
            set_value(self.why, "")
        else:
            explain = (self.help or {}).get("explain") if self.help is not None else None
            if explain is None and not self.game.explains_on_server(view):
                explain = {}
            set_value(self.why, self.game.why_html(view, str(seat), legal, explain))
        self._refresh_pick(view, state)

    def _picked(self) -> Action | None:
        legal, index = self._legal(), self.pick.value
        if self.pick_row.layout.display == "none" or index is None or not 0 <= int(index) < len(legal):
            return None
        return legal[int(index)]

    def _refresh_pick(self, view: BaseView, state: Mapping[str, Any]) -> None:
        picked = self._picked()
        set_value(self.move_note, self.game.move_html(view, picked) if picked is not None else "")
        if self.map_view is not None and self.game.board_figure is not None:
            key, make = self.game.board_figure(view, picked)
            if key != self._map_key:
                self._map_key = key
                self.map_view.show(make())

    def _refresh_moves(self, state: Mapping[str, Any], view: BaseView) -> None:
        legal = [] if self.moves.waiting is not None else self._legal()  # a move waits to be sent: nothing more now
        amounts = [amount for a in legal if (amount := self.game.bid_amount(a)) is not None]
        if legal and len(amounts) == len(legal):
            self.amount.min, self.amount.max = min(amounts), max(amounts)
            set_shown(self.bid_row, True)
            set_shown(self.pick_row, False)
            set_shown(self.pass_row, False)
            return
        set_shown(self.bid_row, False)
        # The one move that hands the turn on has its own button; the list starts on a move that acts, and when
        # it holds only moves that hand the turn on (UP-T4's discards), on no move at all: a deliberate pick.
        passing = self._pass_move() if self.moves.waiting is None else None
        if passing is not None:
            label = self.game.action_words(passing, view)
            if self.pass_button.description != label:
                self.pass_button.description = label
        set_shown(self.pass_row, passing is not None)
        choices = [(i, a) for i, a in enumerate(legal) if a is not passing]
        set_shown(self.pick_row, bool(choices))
        options = [(self.game.action_words(a, view), i) for i, a in choices]
        if list(self.pick.options) != options:
            self.pick.options = options
            first = next((i for i, a in choices if not self.game.passes(a)), None)
            self.pick.value = first

    def _lobby_html(self, state: Mapping[str, Any]) -> str:
        return lobby_html(state)

    def _turn_html(self, state: Mapping[str, Any]) -> str:
        assert self.view is not None
        return turn_html(self.game, self.view, state)

    def _events_html(self, state: Mapping[str, Any]) -> str:
        shown, self._seen_narrative = events_html(state, self._mine)
        return shown

    # ------------------------------------------------------------------ what is said, where the focus goes
    def _may_act(self, state: Mapping[str, Any]) -> bool:
        seat, view = state.get("seat"), self.view
        return seat is not None and view is not None and seat in view.to_act and bool(state.get("legal"))

    def _turn_words(self) -> str:
        return tr("Your turn!") + " " + tr("Choose your move below.")

    def _over_words(self) -> str:
        return tr("The game is over.") + " " + (self.game.result_words(self.view) if self.view is not None else "")

    def _focus_next(self, state: Mapping[str, Any], began: bool) -> None:
        """Take the keyboard focus on (WCAG 2.4.3): into the table when it opens (the seat's move, else the lobby);
        after this seat's move, to its next move, or to the story while the others play; to the seat's move when
        its turn begins, unless the learner went to another control meanwhile."""
        acted = self._acted_at is not None and int(state.get("seq", 0)) > self._acted_at
        control = self.move_control() if self._may_act(state) and self.moves.waiting is None else None
        if self._first_state:
            self._first_state = self._into_view = False
            self.messages.focus(control or LOBBY_FOCUS)
        elif control is not None and (acted or began):
            self.messages.focus(control, only_from="" if acted else WAITING_PLACES)
        elif acted:
            self.messages.focus(STORY)
        if acted:
            self._acted_at = None
