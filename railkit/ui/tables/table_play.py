"""“Play with others”: a play lesson's panel for a class table (the server is ``railkit.tables``).

A learner creates a table (how many seats, how many of them computer players) and shares its code, or
joins one with a code and their name. The lobby says who is seated, whom the table waits for and the
code to share; then the seat's view, as the server pushes it, is shown with the game's own renderers
(``TableGame``, given by the lesson), the moves the engine allows this seat, the engine's words for
every move made at the table (the others' appear as they happen), an unmistakable “your turn”, and at
the end the game's review. The seat's token goes into the page address (the template's script writes
``?table=…&seat=…`` from ``.railkit-table-address``), so a reload takes the same seat back.

Nothing here knows a game: the lesson hands in a ``TableGame`` (``railkit.ui.tables.table_game``, with the server's
sentences read back); the widgets are built by ``railkit.ui.tables.table_widgets``; the lobby, the turn and the table's
story are drawn by ``railkit.ui.tables.table_html``. The
view arrives as JSON and is typed once (``BaseView.from_json``); every hook reads the typed view. Widgets are
updated from the connection's thread under one lock; nothing is displayed from there.

While the table server does not answer (a crash, a restart) the page says so in the turn's place, never “your
turn”; a move made meanwhile waits and is sent as soon as the server is back, if the game is still where it was
(else the page says it was not sent; ``railkit.ui.tables.table_moves``). A move that hands the turn on without acting (a
pass) has its own button and is never what “Your move” starts on. When the teacher or
the table's creator puts a computer player in this seat, or gives the seat back, the learner is told.

What a screen reader hears (every move, the reveal, a payout, the turn, the end: once each, from one live region)
is ``railkit.ui.tables.table_announce``; where the keyboard focus goes after each change is ``railkit.ui.tables.table_showing``.
“Leave the table” lets the seat go from this page (its learner is then away; the creator or the teacher may seat a
computer player there) and takes the seat out of the page address.

Help at a table is the play lessons' help: the choices and their rules (“Why”), the picked move explained,
the board, and the search player's move on request (Hint, worked out here from the seat's view alone,
``railkit.ui.game_review``); at the end, “Review my game” reviews the seat's own decisions, which the server sends
that seat only (``railkit.ui.tables.table_review``). The kernel holds only its seat's view, so what needs more than
that view and the rules (Kap bis Kairo's build count) is asked of the server, which answers for this seat only
(``railkit.tables.games``, "Help for a seat").
"""

from __future__ import annotations

import html
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from railkit.errors import InputError
from railkit.game import BaseView
from railkit.ui.app import Messages, Panel, guarded, parse_name
from railkit.ui.class_http import ServerProblem
from railkit.ui.game_review import hint_text
from railkit.ui.i18n import tr, trn
from railkit.ui.records.learner import LearnerName, follow_page_address, is_default_learner
from railkit.ui.tables.table_game import Action, TableGame, message_from_json, unavailable_words
from railkit.ui.tables.table_html import (
    TABLE_STYLE,
    problem_words,
    stand_in_words,
)
from railkit.ui.tables.table_link import (
    TableLink,
    creator_from_query,
    place,
    seat_from_query,
    table_from_query,
    watch_from_query,
)
from railkit.ui.tables.table_moves import MoveSender
from railkit.ui.tables.table_showing import TableShowing
from railkit.ui.tables.table_widgets import NAME_FIELD
from railkit.ui.widgets import set_value

__all__ = ["TABLE_STYLE", "TableGame", "TablePlayPanel", "message_from_json", "unavailable_words"]

log = logging.getLogger(__name__)
LEFT_SEATS: set[str] = set()  # seat tokens this kernel's learner left: the page address does not take them back


def _ignore(*_args: Any) -> None:
    """What a connection the page has let go of calls (a state or a problem still on its way)."""


class TablePlayPanel(TableShowing, Panel):
    """Create or join a class table, the lobby, and the game from this seat's view (module docstring)."""

    def __init__(self, messages: Messages, game: TableGame, name: str = "",
                 previous: TablePlayPanel | None = None) -> None:
        super().__init__(messages)
        self.game = game
        self.where = place()
        self.link: TableLink | None = None
        self.state: dict[str, Any] | None = None
        self.view: BaseView | None = None  # the state's view, typed once when the state arrives
        self.legal: list[Action] = []  # the seat's legal moves, the engine's actions, typed once when it arrives
        self.help: dict[str, Any] | None = None  # the server's last help for this seat (``railkit.tables``)
        self._asked: int | None = None  # the log position help was last asked at
        self._map_key: Any = None
        self.creator = False
        self._lock = threading.RLock()
        self._seen_narrative = 0  # the engine's sentences already shown (new ones are marked)
        self._mine = 0  # the narrative's length at this seat's last move
        self.moves = MoveSender(game.action_json)  # the seat's last move on its way (railkit.ui.tables.table_moves)
        self._offline = False  # the connection was lost; the next state says it is back
        self._holder: str | None = None  # who held this seat in the last state (a change is told)
        self.opened_as: str | None = None  # how the page address brought this panel to a table: seat, watch, code
        self.opened_words = ""
        self._into_view = False  # the lobby is to be brought into view once drawn (the page opened at the table)
        self._first_state = False  # the next state is a new connection's first: the focus goes into the table
        self._acted_at: int | None = None  # the log position of this seat's last move, until a later state came
        self.on_open: Callable[[str], object] | None = None  # the app opens the table's section then
        self.on_over: Callable[[], object] | None = None  # a seated learner's game ended: the lesson records it
        self.build_widgets(game, name)
        if previous is not None and previous.link is not None:
            self._adopt(previous)  # the app was built again (another language): same table, same seat
        self.refresh()
        if self.where == "server" and self.link is None:
            self.rejoin()
            follow_page_address(self._on_address)

    def _on_address(self, found: LearnerName) -> None:
        """A pre-rendered page learns its address: the learner's name (``?name=``) fills an empty name field."""
        if found.given and not found.problem and not self.name.value and not is_default_learner(found.name):
            self.name.value = found.name
        self.rejoin()

    def _adopt(self, previous: TablePlayPanel) -> None:
        """Carry on ``previous``'s connection in these widgets."""
        with previous._lock:
            link = previous.link
            assert link is not None
            self.link, self.state, self.creator = link, previous.state, previous.creator
            self.view, self.help, self.legal = previous.view, previous.help, previous.legal
            self._mine, self.moves, self._offline = previous._mine, previous.moves, previous._offline
            self._holder, self.opened_as, self.opened_words = previous._holder, previous.opened_as, ""
            told = previous.announcer
            self.announcer.told, self.announcer.yours, self.announcer.over = told.told, told.yours, told.over
            self.address.value = previous.address.value
            self.game_review.adopt(previous.game_review)  # a review made stays, in the new language
            previous.link = None
            link.on_state, link.on_problem, link.on_help = self._on_state, self._on_problem, self._on_help

    # ------------------------------------------------------------------ seats
    def rejoin(self) -> bool:
        """The page address holds a seat (a reload, another device): take it back; or a table to watch (the
        teacher's link), or a table's code to join (the class's link). True when it connected."""
        found = seat_from_query()
        if self.link is not None:
            return False
        if found is None:
            watched = watch_from_query()
            if watched is not None:
                self._connect(self._new_link(), watched, None)
                self._opened("watch", tr("Watching table {code}: you see what every player may see.", code=watched))
                return True
            given = table_from_query()
            if given is not None and not self.code.value:
                self.code.value = given
                self._opened("code", tr("Your class's table is {code}: type your name and press “Join”.", code=given))
            return False
        code, token = found
        if token in LEFT_SEATS:
            return False
        link = self._new_link()
        link.code = code
        creator = creator_from_query()
        if creator is not None:  # the creator's controls come back too, once the server knows the token
            try:
                self.creator = link.claim_creator(creator)
            except ServerProblem:
                self.creator = False
        self._connect(link, code, token)
        self._opened("seat", tr("Taking your seat back at table {code} …", code=code))
        return True

    def _opened(self, how: str, words: str) -> None:
        """The page address brought this panel to a table (``how``: seat, watch, code): the app shows the table's
        section (``on_open``), then the learner reads ``words`` (``greet`` says them again)."""
        self.opened_as, self.opened_words, self._into_view = how, words, True
        if self.on_open is not None:
            try:
                self.on_open(how)
            except Exception:  # noqa: BLE001 - the table works without its section opened
                log.exception("the lesson could not open its table section")
        self.show_info(words)

    def greet(self) -> None:
        """Say again how the page came to the table (after the lesson's own first words)."""
        if self.opened_words:
            self.show_info(self.opened_words)

    def _new_link(self) -> TableLink:
        return TableLink(self._on_state, self._on_problem, on_help=self._on_help)

    def _connect(self, link: TableLink, code: str, token: str | None) -> None:
        """Connect to table ``code`` with a seat's ``token`` (None: watch as a spectator)."""
        with self._lock:
            if self.link is not None:
                self.link.close()
            self.link, self.state, self.view, self.help, self._asked = link, None, None, None, None
            self.legal, self._holder, self._offline = [], None, False
            self.moves = MoveSender(self.game.action_json)
            self._seen_narrative = self._mine = 0
            self.announcer.reset()
            self._first_state, self._acted_at = True, None
            creator = (f" data-creator='{html.escape(link.creator_token, True)}'"
                       if self.creator and link.creator_token else "")
            self.address.value = "" if token is None else (
                f"<span class='railkit-table-seat' hidden data-table='{html.escape(code, True)}' "
                f"data-seat='{html.escape(token, True)}'{creator}></span>")
        link.connect(code, token)

    def _check_here(self) -> None:
        if self.where != "server":
            raise InputError(unavailable_words(self.where))

    @guarded
    def on_create(self) -> None:
        self._check_here()
        you = self._seat_name()
        n, bots = int(self.players.value), int(self.bots.value)
        if bots >= n:
            raise InputError(trn("Leave at least one seat for a learner: {n} players, {bots} computer player.",
                                 "Leave at least one seat for a learner: {n} players, {bots} computer players.", bots,
                                 n=n, bots=bots))
        others = [tr("Player {n}", n=i) for i in range(2, n - bots + 1)]
        computers = [tr("Computer {n}", n=i) for i in range(1, bots + 1)]
        seats = [you, *others, *computers]
        if len(set(seats)) < len(seats):
            raise InputError(tr("Choose a name other than {name}: a seat already has it.", name=you))
        link = self._new_link()
        made = self._call(lambda: link.create(self.game.game, seats, computers, you))
        self.creator = True
        self._connect(link, made["table"], made["token"])
        self.show_ok(tr("Table {code} is ready. Tell the others its code; they join with it and their name.",
                        code=made["table"]))

    @guarded
    def on_join(self) -> None:
        self._check_here()
        code = "".join(str(self.code.value).split()).upper()
        if not code:
            raise InputError(tr("Type the table's code (6 letters and digits) first."))
        you = self._seat_name()
        link = self._new_link()
        joined = self._call(lambda: link.join(code, you))
        self.creator = False
        self._connect(link, joined["table"], joined["token"])
        self.show_ok(tr("You sit at table {code} as {seat}.", code=joined["table"], seat=joined["seat"]))

    def _seat_name(self) -> str:
        """The typed name this seat takes; never the default learner's, which the other seats would read as a
        third person's name (“Te húz …”) or, on an English page, as “You”."""
        you = parse_name(self.name.value, tr("Your name"))
        if is_default_learner(you):
            raise InputError(tr("Type your own name in “{field}”: the others at the table see it.", field=tr("Your name")))
        return you

    def _call(self, request: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        try:
            return request()
        except ServerProblem as exc:
            raise InputError(self._request_words(exc)) from None

    def _request_words(self, problem: ServerProblem) -> str:
        """A request that is not a move (create, join, a computer player, a hint) is not kept for later: while the
        server does not answer, the learner is asked to try again."""
        if problem.code == "offline":
            return tr("The table server is not answering just now; it is probably restarting. Try again in a moment.")
        return self._problem_words(problem)

    # ------------------------------------------------------------------ moves
    def _act(self, action: Action) -> None:
        link, state = self.link, self.state
        if link is None or state is None:
            raise InputError(tr("Create or join a table first."))
        if self.moves.waiting is not None:
            raise InputError(tr("Your move waits and is sent then: {move}.", move=self._words(self.moves.waiting[1])))
        self._mine = int(state.get("narrative_length", 0))
        self._acted_at = int(state["seq"])  # the next state after it takes the focus on (``_focus_next``)
        try:
            sent = self.moves.send(link, action, int(state["seq"]))
        except ServerProblem as exc:
            raise InputError(self._problem_words(exc)) from None
        if not sent:  # the server is down (restarting): the move waits and goes as soon as it is back
            with self._lock:
                self._offline = True
                self._refresh()
            self.show_info(tr("Your move waits and is sent then: {move}.", move=self._words(action)) + " "
                           + tr("The table server is not answering just now; it is probably restarting. This page "
                                "carries on by itself as soon as it is back."))
            return
        self.clear_message()

    @guarded
    def on_bid(self) -> None:
        legal = self._legal()
        bids = [a for a in legal if self.game.bid_amount(a) == self.amount.value]
        if not bids:
            raise InputError(tr("You cannot bid {amount} now.", amount=self.amount.value))
        self._act(bids[0])

    @guarded
    def on_play(self) -> None:
        legal = self._legal()
        index = self.pick.value
        if legal and index is None:
            raise InputError(tr("Pick your move in “{field}” first.", field=tr("Your move")))
        if index is None or not 0 <= int(index) < len(legal):
            raise InputError(tr("It is not your turn."))
        self._act(legal[int(index)])

    @guarded
    def on_pass(self) -> None:
        """The seat's one move that hands the turn on (its own button)."""
        move = self._pass_move()
        if move is None:
            raise InputError(tr("It is not your turn."))
        self._act(move)

    @guarded
    def on_seat_bot(self, bot: bool) -> None:
        link, seat = self.link, self.seat_pick.value
        if link is None or not self.creator or not seat:
            raise InputError(tr("Only the table's creator can seat a computer player."))
        try:
            link.set_bot(str(seat), bot)
        except ServerProblem as exc:
            raise InputError(self._request_words(exc)) from None
        self.show_ok(tr("A computer player now plays {seat}.", seat=seat) if bot
                     else tr("{seat} is free for its learner again.", seat=seat))

    @guarded
    def on_hint(self) -> None:
        """The search player's move for this seat and the next best, evaluated from the seat's view alone."""
        state, view = self.state, self.view
        if state is None or view is None or not self.legal or state.get("seat") is None:
            raise InputError(tr("There is no move to give a hint for now."))
        self.show_info(hint_text(view, self._legal(), str(state["seat"])))

    def on_pick(self) -> None:
        """Another move picked: its explanation and the board follow it."""
        with self._lock:
            if self.view is not None and self.state is not None:
                self._refresh_pick(self.view, self.state)

    # ------------------------------------------------------------------ what the server says
    def _on_state(self, state: dict[str, Any]) -> None:
        with self._lock:
            self.state, self.view = state, self.game.view_type.from_json(state["view"])
            self.legal = self.game.actions(state.get("legal") or [])
            if self.help is not None and self.help.get("seq") != state.get("seq"):
                self.help = None  # help for an earlier position
            if self._offline:  # the connection is back (after a restart of the table server, say)
                self._offline = False
                self._back(state)
            self.moves.arrived(state)
            self._tell_holder(state)
            if state.get("is_over") and state.get("seat") is not None and self.on_over is not None:
                self.on_over()
            self._ask_explanations(state)
            self.refresh()
            # said once the page shows it (the page applies the kernel's updates in order): what is announced is there
            began = self.announcer.follow(state, self._may_act(state), self._turn_words(), self._over_words())
            self._focus_next(state, began)

    def _back(self, state: Mapping[str, Any]) -> None:
        """The server answers again: the move made while it was down goes now, and so does a move sent just as it
        went down, when the game is where it was and the move is still allowed; the learner reads which."""
        link = self.link
        if link is None:
            return
        try:
            outcome, action = self.moves.back(link, state, self.legal)
        except ServerProblem as exc:
            self.show_error(self._problem_words(exc))
            return
        if outcome == "sent":
            self.show_info(tr("Back at the table: your move was sent ({move}).", move=self._words(action)))
        elif outcome == "not_sent":
            self.show_error(tr("Back at the table, but your move was not sent ({move}): the game changed meanwhile. "
                               "Make your move again.", move=self._words(action)))
        else:
            self.show_info(tr("Back at the table: the game goes on."))

    def _tell_holder(self, state: Mapping[str, Any]) -> None:
        """A computer player took this seat, or gave it back: the learner is told (a page that comes back to a seat
        already held is told by its turn box)."""
        seat = state.get("seat")
        if seat is None:
            return
        holder = str(state.get("seats", {}).get(seat, ""))
        previous, self._holder = self._holder, holder
        if previous is None or previous == holder:
            return
        if holder == "bot":
            self.show_info(stand_in_words(str(state.get("stand_ins", {}).get(seat, ""))))
        elif previous == "bot" and holder == "human":
            self.show_info(tr("Your seat is yours again: you play it from now on."))

    def _ask_explanations(self, state: Mapping[str, Any]) -> None:
        """The seat is to act and its "Why" needs the server's explanations: ask once per position."""
        link, view = self.link, self.view
        if link is None or view is None or not state.get("legal") or self._asked == state.get("seq"):
            return
        if self.game.explains_on_server(view):
            self._asked = state.get("seq")
            try:
                link.ask_help()
            except ServerProblem:
                self._asked = None  # asked again with the next state

    def _on_help(self, answer: dict[str, Any]) -> None:
        """The server's help for this seat: its explanations go into "Why"."""
        with self._lock:
            state, view = self.state, self.view
            if state is None or view is None or answer.get("seq") != state.get("seq"):
                return  # help for a position already left
            self.help = answer
            seat = str(state.get("seat"))
            set_value(self.why, self.game.why_html(view, seat, self._legal(), answer.get("explain") or {}))

    def _on_problem(self, problem: ServerProblem) -> None:
        with self._lock:
            if problem.code == "closed":  # the teacher closed the table: back to the start form
                self.link, self.state, self.view, self.creator = None, None, None, False
                self.address.value = ""
                self.refresh()
                self.show_error(self._problem_words(problem))
                self.messages.focus(NAME_FIELD)  # the start form, where the learner goes on
                return
            if problem.code == "offline" and not self._offline:
                self._offline = True
                self._refresh()  # the turn's place says the server is not answering, never “your turn”
            link = self.link
            # Another seat's move came first (a sealed bid at the same moment, say): ours goes again from the new
            # position while it is still allowed.
            if problem.code == "stale" and link is not None and self.moves.retry_stale(link, self._legal()):
                return
            self.show_error(self._problem_words(problem))

    def _problem_words(self, problem: ServerProblem) -> str:
        return problem_words(problem, self.state.get("seat") if self.state is not None else None)

    @guarded
    def on_leave(self) -> None:
        """Leave the table: this page lets go of its seat (the others see its learner away; the creator or the teacher
        may seat a computer player there) and shows the start form again, with the focus in it."""
        with self._lock:
            link, state = self.link, self.state
            if link is None:
                raise InputError(tr("Create or join a table first."))
            code = str((state or {}).get("table", link.code or ""))
            found = seat_from_query()
            if found is not None:
                LEFT_SEATS.add(found[1])
            if link.token:
                LEFT_SEATS.add(link.token)
            link.on_state, link.on_problem, link.on_help = _ignore, _ignore, _ignore  # a last word of the socket
            link.close()
            self.link, self.state, self.view, self.creator, self.legal = None, None, None, False, []
            self.address.value = "<span class='railkit-table-seat' hidden data-table='' data-seat=''></span>"
            self.announcer.reset()
            self.refresh()
        self.show_info(tr("You left table {code}. Your seat stays there for now: the table's creator or your teacher "
                          "may put a computer player in it.", code=code))
        self.messages.focus(NAME_FIELD)
