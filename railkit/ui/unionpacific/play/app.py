"""The Union Pacific play lesson (``notebooks/up_play.ipynb``): a whole game, rules UP-T, UP-B, UP-I, UP-D
and UP-2P.

One learner plays against one to five computer players (``HeuristicBot``), or several people share the
screen (hot seat: every seat human; a player's hand shows only after “Show my hand”). The game and its
seats are a ``railkit.session.Session``; the app asks the engine for everything:

* the moves offered are the engine's ``legal_actions`` for the player to act (``moves``, ``build``); a
  move the engine refuses shows its ``RuleError`` and changes nothing;
* computer players move at once until a human must act again (at most ``MAX_BOT_ACTIONS`` per click);
* the log is the engine's ``narrative``; every payout is shown with the engine's explanations
  (``tables``); undo replays the log up to the last human move; save and load keep the seats
  (``railkit.ui.saves``);
* after each payout the exercise (``exercise``) asks how much one company paid one of the humans.

The app composes the panels; each owns its widgets and is brought up to date by one
``refresh(screen)`` after every change (values change in place; the map only when it must).
"""

from __future__ import annotations

import json
import logging
import random
import threading
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from railkit.session import Session, seat_bots
from railkit.ui.app import App, InputError, guarded, others_words
from railkit.ui.autosave import GameKeeper, KeepsGame
from railkit.ui.club_files import ClubFile, ClubFilePanel, LessonData, switch, tag_save, untag_save
from railkit.ui.first_paint import defer_first_show
from railkit.ui.game_review import GameReviewPanel
from railkit.ui.i18n import tr, trn
from railkit.ui.records.learner import LearnerName, follow_page_address, is_default_learner, name_from_address
from railkit.ui.records.lesson_record import game_finished
from railkit.ui.saves import SaveFile, SaveLoadPanel, saved_words
from railkit.ui.tables.class_link import class_options, link_to_deal
from railkit.ui.tables.table_play import TablePlayPanel
from railkit.ui.unionpacific import club_board
from railkit.ui.unionpacific.common import LESSON_STYLE, engine_text, option_name
from railkit.ui.unionpacific.play.exercise import ExercisePanel
from railkit.ui.unionpacific.play.html import PLAY_STYLE, final_words, play_legend_html, step_words
from railkit.ui.unionpacific.play.moves import MovesPanel
from railkit.ui.unionpacific.play.new_game import NewGamePanel
from railkit.ui.unionpacific.play.puzzles import up_puzzles
from railkit.ui.unionpacific.play.screen import Screen, play_columns
from railkit.ui.unionpacific.play.tables import (
    CompaniesPanel,
    EventsPanel,
    HandPanel,
    LogPanel,
    PayoutsPanel,
    ResultPanel,
    StatusPanel,
    TablePanel,
    shown_events,
)
from railkit.ui.unionpacific.play.together import up_table
from railkit.ui.widgets import button, html_box, row, set_shown
from railkit.unionpacific import UnionPacificGame, new_game
from railkit.unionpacific.bots import HeuristicBot

MAX_BOT_ACTIONS = 200  # per click: the page never waits for more than a moment
log = logging.getLogger(__name__)


class PlayApp(KeepsGame, App):
    """A whole game of Union Pacific against computer players or hot seat (see the module docstring).

    ``name``: the learner's name (default: the page address's ``?name=``, else “You”); ``seat``: the
    learner's seat, 0 = first (starts, UP-S8); ``names``: the hot-seat players' names, separated by commas;
    ``options``: the engine's options.
    """

    title = "Union Pacific: play a game"

    def __init__(self, seed: int | None = None, players: int = 4, hot_seat: bool = False,
                 name: str | None = None, game_number: int | None = None, names: str = "", seat: int = 0,
                 board_file: LessonData | None = None, **options: Any) -> None:
        self.board_file = club_board.lesson_board(board_file)  # a club's own board, or the built-in one
        self.board = club_board.board_of(self.board_file)
        self.rng = random.Random(seed)
        self.session: Session[UnionPacificGame] | None = None
        self.new_payout = False  # the last change paid out
        self.keeper = GameKeeper("up_play")  # the game survives a reload (railkit.ui.autosave)
        super().__init__()
        # The learner is named once, in the page address (?name=Kim); without one they are “You”.
        address = name_from_address()
        link = class_options("up_play")  # the class's link: the same deal for everyone (railkit.ui.tables.class_link)
        game_number = link.seed if game_number is None and link.seed is not None else game_number
        players = link.players or players
        options = {**options, "deck": link.variant} if link.variant else options
        self.setup.preset(players, hot_seat, address.name if name is None else name, names, game_number, options,
                          min(seat, players - 1))
        if name is not None:  # the name given here, not the address's, also names the seat at a class table
            self.together.name.value = name
        self.on_new_game()
        self.together.greet()  # a page opened at a class table says so, not the solo game's first words
        self.follow_the_page(link.problems, then=None if name is not None else lambda: self._follow_name(address))

    def _follow_name(self, address: LearnerName) -> None:
        """The learner's name from the page address: what was wrong with it, and the name when it arrives."""
        if address.problem:
            self.show_error(address.problem)
        self.follow_page_address()

    # ================================================================== widgets
    def build(self) -> widgets.Widget:
        m, board = self.messages, self.board
        self.setup = NewGamePanel(m, on_start=self.on_new_game_pressed)
        self.status = StatusPanel(m, on_show_hand=self.on_show_hand)
        self.hand = HandPanel(board)
        self.moves = MovesPanel(board, act=self.act)
        self.table = TablePanel(board)
        self.events = EventsPanel()
        self.exercise = ExercisePanel(board, self.rng, on_change=self.on_exercise_change)
        self.companies = CompaniesPanel(board)
        self.payouts = PayoutsPanel()
        self.result = ResultPanel()
        self.log = LogPanel(m)
        self.game_review = GameReviewPanel()  # “Review my game”: the search player on each of the learner's decisions
        self.saves = SaveLoadPanel(m, save=self.save_file, load=self.load_save, intro=tr(
            "A saved game is the list of moves from a numbered deal; loading replays it, so the same game comes "
            "back exactly."))
        self.undo_button = button(tr("Undo my last move"), "railkit-undo", "undo",
                                  tip=tr("Back to just before your last move (the game is replayed)"))
        self.undo_button.on_click(lambda _b: self.on_undo())
        self.continue_button = button(tr("Let the computer players go on"), "railkit-continue", "forward", "info")
        self.continue_button.layout.display = "none"
        self.continue_button.on_click(lambda _b: self.on_continue())
        self.club = ClubFilePanel(m, self.board_file, self.on_club_board)
        club_board.mark_maps(self.moves.build.map_view, self.board_file)  # its note names the club's board
        defer_first_show(self.moves.build.map_view)  # the page appears without waiting for plotly.js (first_paint)
        legend = html_box("railkit-legend", play_legend_html())
        # Play with others: the same game at a class table, each learner at their own screen (closed until
        # opened, or open at once when the page address brings a seat back).
        self.together = TablePlayPanel(m, up_table(board), name=name_from_address().name,
                                       previous=getattr(self, "together", None))
        self.together_box = widgets.Accordion(children=[self.together.widget], selected_index=None)
        self.together_box.set_title(0, tr("Play with others"))
        self.together_box.add_class("railkit-together")
        # Puzzles: real positions where one move was clearly best (closed until opened; then the first is drawn)
        self.puzzles = up_puzzles(m, previous=getattr(self, "puzzles", None))
        self.puzzles_box = widgets.Accordion(children=[self.puzzles.widget], selected_index=None)
        self.puzzles_box.set_title(0, tr("Puzzles"))
        self.puzzles_box.add_class("railkit-puzzles-box")
        self.puzzles_box.observe(lambda c: self.puzzles.open() if c["new"] == 0 else None, names="selected_index")
        # The first control on the page is always visible (the shared browser helper waits for it).
        toolbar = row([self.undo_button, self.continue_button])
        self.solo = [
            self.club.banner, self.status.status, self.status.steps, toolbar,
            self.status.hotseat_bar, self.result.widget, self.game_review.widget, self.result.chart.widget,
            self.exercise.widget,
            # The map beside the move controls, so the legal sections stay in view while choosing.
            play_columns(self.hand.widget, self.moves.widget, self.moves.build.map_view.widget, self.table.widget,
                         self.events.widget),
            self.companies.widget, self.payouts.widget, self.log.widget, self.setup.widget]
        self.rest = [self.puzzles_box, self.saves.widget, self.club.widget, legend, self.keeper.widget]
        self.body = widgets.VBox([widgets.HTML(LESSON_STYLE + PLAY_STYLE), *self.solo, self.together_box, *self.rest])
        if self.together.opened_as is not None:  # a seat, a watched table, a class's code (the address is here)
            self.on_table_opened(self.together.opened_as)
        self.together.on_open = self.on_table_opened  # a pre-rendered page learns its address later
        self.together.on_over = lambda: game_finished("up_play")  # a class table's game played to its end
        return self.body

    def on_table_opened(self, how: str) -> None:
        """The page address brought the lesson to a class table: the page opens at the table, “Play with others”
        open and first. A spectator (the teacher's Watch or Replay, ``how`` = watch) sees the table only, not a
        game of their own (a seat's learner finds theirs below the table)."""
        self.together_box.selected_index = 0
        solo = [] if how == "watch" else self.solo  # left out of the page, not hidden: their refresh shows them
        self.body.children = [self.body.children[0], self.together_box, *solo, *self.rest]

    @guarded
    def on_club_board(self, club: ClubFile | None) -> None:
        switch(self, self.board_file, club, lambda data: PlayApp.__init__(self, board_file=data))

    # ================================================================== the learner's name
    def follow_page_address(self) -> threading.Thread | None:
        """Voila pre-renders a lesson before anyone opens the page: the address (``?name=Kim``) comes later
        (``railkit.ui.records.learner.follow_page_address``), then ``on_learner``."""
        return follow_page_address(self.on_learner)

    def on_learner(self, found: LearnerName) -> None:
        if found.problem:
            self.show_error(found.problem)
        elif found.given:
            self.on_page_address(found.name)

    def on_class_link(self) -> bool:
        """The page address arrived with a class link (``railkit.ui.tables.class_link``): deal its game, unless the
        learner has moved already. True when the game was dealt again."""
        session = self.session
        link = link_to_deal("up_play", self.show_error, session is None or session.last_human_move() is not None)
        if link is None:
            return False
        if link.seed is not None:
            self.setup.seed.value = str(link.seed)
        if link.players is not None:
            self.setup.players.value = link.players
        if link.variant is not None:
            self.setup.deck.value = link.variant
        return bool(self.on_new_game())

    def on_page_address(self, name: str) -> bool:
        """The page address names the learner: deal the same game again with that name, unless the learner
        has already moved (their game is kept) or plays hot seat. True when the game was dealt again."""
        session = self.session
        if session is None or session.hot_seat or session.you == name or session.last_human_move() is not None:
            return False
        number = self.setup.seed.value
        self.setup.name.value = name
        self.setup.seed.value = str(session.game.seed)
        try:
            return bool(self.on_new_game())
        finally:
            self.setup.seed.value = number

    # ================================================================== the game on screen
    @property
    def game(self) -> UnionPacificGame:
        return self._session().game

    def _session(self) -> Session[UnionPacificGame]:
        if self.session is None:
            raise InputError(tr("Start a game first (New game and options)."))
        return self.session

    def refresh(self) -> None:
        """Bring every panel up to date with the session."""
        session = self.session
        if session is None:
            return
        screen = Screen.of(session, frozenset(self.exercise.hidden))
        for panel in (self.status, self.hand, self.moves, self.table, self.events, self.companies, self.payouts,
                      self.result, self.log):
            panel.refresh(screen)
        self.exercise.refresh(session.game.state.payouts)
        shown = session.game.is_over and not screen.hidden_payouts  # as the result: after the payout exercise
        self.game_review.show(session.game if shown else None, screen.you)
        self.undo_button.disabled = session.last_human_move() is None
        set_shown(self.continue_button, session.paused)
        self.keep_game()

    def on_exercise_change(self) -> None:
        """An answer (or “Show the answer”) revealed a payout: show it, and say what comes next."""
        self.refresh()
        if self.session is not None and self.message_kind != "error":
            self.show_info(self.next_words())

    def install(self, session: Session[UnionPacificGame]) -> None:
        """Make ``session`` the game on screen; its computer players move first if they are to act."""
        self.session = session
        self.undo_button.description = tr("Undo the last move") if session.hot_seat else tr("Undo my last move")
        self.exercise.reset()
        self.events.restart(len(session.game.narrative))
        self.moves.forget()
        self._run(session.run_bots)

    def _run(self, step: Callable[[], object], before: int | None = None) -> None:
        """Run ``step`` (computer players moving), then show the result; a failing computer player is
        shown too, as the message."""
        game = self._session().game
        before = len(game.state.payouts) if before is None else before
        try:
            step()
        finally:
            self._after_change(before)

    def _after_change(self, before_payouts: int) -> None:
        """New payouts get the exercise; then everything on screen is brought up to date."""
        session = self._session()
        records = session.game.state.payouts
        self.new_payout = len(records) > before_payouts
        if self.new_payout and self.setup.quiz.value:
            self.exercise.ask_about(records[-1], session.game.view(None).payouts_total, session.humans,
                                    session.you)
        self.refresh()

    def next_words(self) -> str:
        """What happens next, for the message bar."""
        session = self._session()
        game = session.game
        if game.is_over:
            game_finished("up_play")
            if self.exercise.hidden:  # the final money would give the exercise's answer away
                return tr("The game is over (UP-D12): answer the payout exercise to see the final money.")
            return final_words(game.result(), session.you)
        acting = session.acting
        if acting is None:
            return tr("The computer players are still moving.")
        step = step_words(game.view(None).phase)
        if session.hot_seat:
            if is_default_learner(acting):  # a seat named “You”/“Sinä” is spoken to, never put in a sentence
                return (tr("Your move: {step}.", step=step) if session.revealed_to == acting
                        else tr("Your turn next: take the screen and press “Show my hand” (the others look away)."))
            if session.revealed_to == acting:
                return tr("{player}: {step}.", player=acting, step=step)
            return tr("{player} to play: pass them the screen; they press “Show my hand”.", player=acting)
        return tr("Your move: {step}.", step=step)

    # ================================================================== starting, acting
    @guarded
    def on_new_game_pressed(self) -> bool:
        """The learner's “Start”: asks once before a game in progress is thrown away."""
        return self.confirm_new_game() and bool(self.on_new_game())

    @guarded
    def on_new_game(self) -> bool:
        spec = self.setup.read(self.rng)
        options = {**spec.options, **self.board_file.options}  # on the lesson's board
        game = new_game(list(spec.players), seed=spec.seed, **options)  # a RuleError here changes nothing
        self.install(Session(game, spec.humans, seat_bots(HeuristicBot), max_bot_moves=MAX_BOT_ACTIONS))
        self.setup.widget.selected_index = None
        who = (trn("hot seat for {n} player", "hot seat for {n} players", len(spec.players)) if spec.hot_seat
               else tr("you against {bots}; seats: {order}", bots=", ".join(p for p in spec.players if p not in spec.humans),
                       order=" → ".join(spec.players)))
        self.show_info(tr("Game {number} started: {who}; {deck}. {next}", number=spec.seed, who=who,
                          deck=option_name(spec.options["deck"], spec.options["safe_round"], in_sentence=True),
                          next=self.next_words()))
        return True

    def _acting_or_error(self) -> str:
        session = self._session()
        if session.game.is_over:
            raise InputError(tr("The game is over. Start a new game to play again."))
        if session.paused:
            raise InputError(tr("The computer players are still moving: press “Let the computer players go on”."))
        acting = session.acting
        if acting is None:
            raise InputError(tr("It is not a human player's turn."))
        if session.hot_seat and session.revealed_to != acting:
            raise InputError(tr("Press “Show my hand” first (the others look away).") if is_default_learner(acting)
                             else tr("{player}: press “Show my hand” first (the others look away).", player=acting))
        return acting

    def act(self, make: Callable[[str], Any]) -> bool | None:
        """A human move: ``make(player)`` gives the action of the player to act (an ``InputError`` if a
        choice is missing); the engine checks it (a ``RuleError`` changes nothing, and its words show in the
        moves panel); then the computer players move and everything is shown."""
        done = self.moves.attempt(lambda: self._act(make))
        if done and self.session is not None:
            self.focus_next(self.moves.next_control(Screen.of(self.session, frozenset(self.exercise.hidden))))
        return done

    def _act(self, make: Callable[[str], Any]) -> bool:
        session = self._session()
        player = self._acting_or_error()
        action = make(player)
        game = session.game
        before, mark = len(game.state.payouts), len(game.narrative)
        new_turn = game.view(None).phase in ("first_share", "action")
        played = session.play(action, bots=False)  # a RuleError here changes nothing
        self.events.after_move(mark, len(played.own), new_turn)
        self._run(session.run_bots, before)
        screen = Screen.of(session, frozenset(self.exercise.hidden))
        others = others_words([line for _i, line in shown_events(screen, mark + len(played.own))])
        self._report(player, played.own, others)
        return True

    def _report(self, player: str, events: Sequence[str], others: str = "") -> None:
        """The message after a human move: what the move did (the engine's words), what the other players did
        then (``others``), and what comes next."""
        own = [e for e in events if e.startswith(player)]
        yours = Screen.of(self._session()).you == player  # the hot seat's “You”/“Sinä” seat too
        if own:
            first = engine_text(own[0], player if yours else None)
        else:
            first = tr("You end your turn (UP-B6).") if yours else tr("{player} ends the turn (UP-B6).", player=player)
        q = self.exercise.question
        asked = q is not None and q.number in self.exercise.hidden
        if others:
            first += " " + others
        if self.new_payout and asked:
            self.show_info(tr("{events} A payout has been paid: answer the payout exercise (the yellow box below) "
                              "before you look at its breakdown.", events=first))
        else:
            self.show_ok(first + " " + self.next_words())

    @guarded
    def on_continue(self) -> None:
        session = self._session()
        if not session.paused:
            raise InputError(tr("The computer players have nothing left to do: it is a human's turn."))
        self.events.restart(len(session.game.narrative))
        self._run(session.resume)
        self.show_info(self.next_words())

    @guarded
    def on_show_hand(self) -> None:
        session = self._session()
        if not session.hot_seat or session.acting is None:
            raise InputError(tr("There is no hidden hand to show now."))
        session.toggle_hand()
        self.refresh()
        self.show_info(self.next_words())

    # ================================================================== undo, save, load
    @guarded
    def on_undo(self) -> bool:
        session = self._session()
        if session.last_human_move() is None:
            raise InputError(tr("There is nothing to undo: no human move has been made yet."))
        session.undo()  # the engine rebuilds the game from its log
        game = session.game
        self.exercise.reset(len(game.state.payouts))
        self.events.rewind(len(game.narrative))
        self.moves.forget()
        self.refresh()
        if session.acting is not None and session.acting == session.you:
            self.show_info(tr("Undone: back to just before your last move. {next}", next=self.next_words()))
        else:
            self.show_info(tr("Undone: back to just before the last move by {player}. {next}",
                              player=session.acting or "", next=self.next_words()))
        return True

    def save_file(self) -> SaveFile:
        session = self._session()
        n = len(session.game.log)
        text = json.dumps(tag_save(session.to_dict(), self.board_file), ensure_ascii=False)  # no private path
        return SaveFile(text, f"union_pacific_game_{session.game.seed}_move_{n}.json", saved_words(n))

    def load_save(self, data: str | bytes) -> str:
        """Replace the game by a saved one (a ``SaveFileError`` changes nothing); the message to show."""
        save, own_board = untag_save(data, self.board_file)  # a club board's save needs that board in use
        session = Session.load(save, UnionPacificGame, seat_bots(HeuristicBot), allow_files=own_board,
                               max_bot_moves=MAX_BOT_ACTIONS)
        self.install(session)
        return trn("Loaded: {n} move replayed. {next}", "Loaded: {n} moves replayed. {next}", len(session.game.log),
                   next=self.next_words())
