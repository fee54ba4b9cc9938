"""The Vom Kap bis Kairo play lesson (``notebooks/kk_play.ipynb``; rules KK-S, KK-A, KK-B, KK-R, KK-E).

Three tabs and a legend:

* Game — a complete game against one to three computer players (``HeuristicBot``) in a
  ``railkit.session.Session``: the race to Cairo (crossed terrain and the line of cards in front of each
  train), money, bonus tracks, the cards turned up this building round, whose turn it is. The learner
  bids and chooses (``panels.AuctionPanel``), and builds or passes (``BuildPanel``): before building
  the app shows the engine's explanation of the attempt (``explain_build``: the track sources, pieces
  to buy, cost, affordable or not) and offers exactly the purchases the engine allows
  (``legal_actions``). The computer players act until it is the learner's turn again; everything that
  happened is listed in the engine's words (``narrative``). Undo takes back the learner's last move by
  replaying the log; save and load keep the game (``railkit.ui.saves``); the end shows the winner
  (KK-E1) or the stall ending (KK-B8).
* Exercise — what does the next crossing cost? (``exercise.ExercisePanel``).
* Play with others — the same game at a class table, each learner at their own screen
  (``railkit.ui.tables.table_play``, ``together``).

Nothing here decides a rule: legality, order, costs and the end come from ``railkit.capecairo``.
"""

from __future__ import annotations

import html
import json
import random
from typing import Any

import ipywidgets as widgets

from railkit.capecairo import Bid, Build, CapeToCairoGame, Choose, Pass, explain_build
from railkit.messages import N_, Message, addressed, addressed_group, names_message
from railkit.session import Session, SessionError
from railkit.ui.app import InputError, guarded, legend_html, others_words
from railkit.ui.autosave import GameKeeper, KeepsGame
from railkit.ui.capecairo import club_deck
from railkit.ui.capecairo.common import (
    KK_STYLE,
    AuctionNotes,
    as_learner,
    card_title,
    choosing_place,
    events_html,
    kk_bots,
    log_html,
    ordinal,
    pieces_count,
    pounds,
    race_html,
)
from railkit.ui.capecairo.common import MAX_BOT_MOVES as KK_MAX_BOT_MOVES
from railkit.ui.capecairo.panels import AuctionPanel, KkSession, KkSessionApp, StartPanel, start_session
from railkit.ui.capecairo.play.build import NO_BUILD, BuildPanel
from railkit.ui.capecairo.play.exercise import ExercisePanel
from railkit.ui.capecairo.play.hints import hint_html, review_html
from railkit.ui.capecairo.play.puzzles import PUZZLES_TAB, kk_puzzles
from railkit.ui.capecairo.play.together import KK_TABLE, kk_measures
from railkit.ui.capecairo.race_panel import RaceMapPanel
from railkit.ui.club_files import ClubFile, ClubFilePanel, LessonData, switch, tag_save, untag_save
from railkit.ui.game_review import GameReviewPanel
from railkit.ui.game_review import hint_html as search_hint_html
from railkit.ui.i18n import render, tr, trn
from railkit.ui.records.learner import is_default_learner, name_from_address
from railkit.ui.records.lesson_record import game_finished, note_why
from railkit.ui.saves import SaveFile, SaveLoadPanel, saved_words
from railkit.ui.tables.class_link import class_options, link_to_deal
from railkit.ui.tables.table_play import TablePlayPanel
from railkit.ui.tables.table_replay import HistoryChart
from railkit.ui.widgets import button, html_box, row

# The end of the game said to the learner (railkit.messages.addressed, addressed_group).
addressed("{who} wins by {rule}!", "You win by {rule}!", subject="who")
addressed_group("{who} share the win by {rule}!", "You and {other} share the win by {rule}!",
                "You, {others} and {last} share the win by {rule}!", subject="who")

LENGTHS = (8, 5, 3)  # win_crossings: the full game (KK-E1) and two short teaching games


class KkPlayApp(KeepsGame, KkSessionApp):
    """A complete game of Vom Kap bis Kairo against computer players, and the cost exercise."""

    title = "Vom Kap bis Kairo: play a game"

    def __init__(self, seed: int | None = None, players: int = 3, win_crossings: int = 8, name: str | None = None,
                 seat: int = 0, others: str = "", deck_file: LessonData | None = None) -> None:
        self._learner = (name_from_address().name if name is None else name, seat, others)
        self.deck_file = club_deck.lesson_deck(deck_file)  # a club's own deck, or the built-in one
        self.rng = random.Random(seed)
        self.session: KkSession | None = None
        self.last_events: list[str] = []  # what happened since the learner's last move
        link = class_options("kk_play")  # the class's link: the same deal for everyone (railkit.ui.tables.class_link)
        self._deal = link.seed  # the first game's number, when the link gives one
        self._start = (link.players or players, int(link.variant) if link.variant else win_crossings)
        self._learner = (self._learner[0], min(seat, self._start[0] - 1), others)
        self.keeper = GameKeeper("kk_play")  # the game survives a reload (railkit.ui.autosave)
        super().__init__()
        self.on_new_game()
        self.exercise.on_new_question()
        if name is None:
            self.greet_learner()
        self.together.greet()  # a page opened at a class table says so, not the game's first words
        self.follow_the_page(link.problems)

    # ------------------------------------------------------------------ building the widgets
    def build(self) -> widgets.Widget:
        m = self.messages
        players, length = self._start
        self.start = StartPanel(m, players, tr("Start again: everyone at £100, a freshly shuffled deck (KK-S1)"),
                                self.on_new_game_pressed, name_width="250px", players_width="270px", new_width="auto",
                                name=self._learner[0])
        self.start.seat.value, self.start.others.value = self._learner[1], self._learner[2]
        self.length = widgets.Dropdown(
            options=[(trn("{n} terrain (full game)", "{n} terrains (full game)", n) if n == 8
                      else trn("{n} terrain (short)", "{n} terrains (short)", n), n)
                     for n in LENGTHS],
            value=length, description=tr("To win"), style={"description_width": "60px"},
            layout=widgets.Layout(width="270px"))
        self.length.add_class("railkit-kk-length")
        self.status = html_box("railkit-kk-status")
        self.race = html_box("railkit-kk-race")
        self.race_map = RaceMapPanel()
        self.auction = AuctionPanel(m, on_bid=self.on_bid, on_choose=self.on_choose, show_auction_number=True)
        self.auction.deck_note = self.deck_file.note_html()
        self.building = BuildPanel(m, on_build=self.on_build, on_pass=self.on_pass)
        self.building.deck_note = self.deck_file.note_html()
        self.undo_button = button(tr("Undo my last move"), "railkit-kk-undo", "undo", "",
                                  tr("Take back your last move (the game is replayed without it)"))
        self.undo_button.on_click(lambda _b: self.on_undo())
        self.auto_button = button(tr("Computer plays my move"), "railkit-kk-auto", "magic", "",
                                  tr("Let the computer make this one move for you"))
        self.auto_button.on_click(lambda _b: self.on_auto())
        self.hint_button = widgets.ToggleButton(value=False, description=tr("Why? (hint)"), icon="question",
                                                tooltip=tr("Explain the moves you may make now, with rule IDs"),
                                                layout=widgets.Layout(width="auto"))
        self.hint_button.add_class("railkit-kk-hint-button")
        self.hint_button.observe(self._on_hint_toggle, names="value")
        self.hint_html = html_box("railkit-kk-hint")
        self.review_html = html_box("railkit-kk-review")
        self.history = HistoryChart(kk_measures)  # each player's money and terrains over the finished game
        self.game_review = GameReviewPanel()  # “Review my game”: the search player on each decision
        self._search_hint: tuple[object, str] = (None, "")  # (the position it was made for, its words)
        self.events_html = html_box("railkit-kk-events")
        self.log_html = html_box("railkit-kk-log")
        self.club = ClubFilePanel(m, self.deck_file, self.on_club_deck)
        self.race_map.note.value = club_deck.race_note(self.deck_file, self.race_map.note.value)
        self.saves = SaveLoadPanel(m, save=self.save_file, load=self.load_save, intro=tr(
            "A saved game is the list of moves from a numbered deal; loading replays it, so the same game comes "
            "back exactly."))
        a = self.auction
        game_tab = widgets.VBox([
            row([self.start.name_field, self.start.players, self.length, self.start.new_button]), self.start.seat_row,
            self.status, self.review_html, self.game_review.widget, self.history.widget, self.race, self.race_map.widget,
            a.offer_html, a.bid_row, a.choose_box, self.building.widget,
            row([self.hint_button, self.undo_button, self.auto_button]), self.hint_html, a.reveal,
            self.events_html, a.players_html, self.log_html, self.saves.widget, self.club.widget,
        ])
        self.exercise = ExercisePanel(m, self.rng)
        self.together = TablePlayPanel(m, KK_TABLE, name=self._learner[0], previous=getattr(self, "together", None))
        self.puzzles = kk_puzzles(m, previous=getattr(self, "puzzles", None))  # the last tab: PUZZLES_TAB
        self.tabs = widgets.Tab(children=[game_tab, self.exercise.widget, self.together.widget, self.puzzles.widget])
        for i, title in enumerate([tr("Game"), tr("Exercise"), tr("Play with others"), tr("Puzzles")]):
            self.tabs.set_title(i, title)
        self.tabs.observe(lambda c: self.puzzles.open() if c["new"] == PUZZLES_TAB else None, names="selected_index")
        if self.together.link is not None or self.together.code.value:  # a seat, a watched table, a class's code
            self.tabs.selected_index = 2
        # a message belongs to the tab it was made on: switching tabs clears it
        self.tabs.observe(lambda _c: self.clear_message(), names="selected_index")
        self.together.on_open = self.on_table_opened  # a pre-rendered page learns its address later
        self.together.on_over = lambda: game_finished("kk_play")  # a class table's game played to its end
        self.legend = html_box("railkit-legend", self._legend_html())
        return widgets.VBox([widgets.HTML(KK_STYLE), self.club.banner, self.tabs, self.legend, self.keeper.widget])

    def on_table_opened(self, _how: str) -> None:
        """The page address brought the lesson to a class table (a seat, the teacher's Watch or Replay, a class's
        code): the page opens at the table, its tab chosen (the panel brings its lobby into view)."""
        self.tabs.selected_index = 2

    @guarded
    def on_club_deck(self, club: ClubFile | None) -> None:
        players, length = self._start
        switch(self, self.deck_file, club,
               lambda data: KkPlayApp.__init__(self, players=players, win_crossings=length, deck_file=data))

    def _legend_html(self) -> str:
        return legend_html([
            (tr("Your name, Players, To win, New game"), tr("start a game against 1 to 3 computer players; the full "
                                                           "game is won by crossing 8 terrains (KK-E1), the short "
                                                           "ones end sooner")),
            (tr("Your seat, Others"), tr("where you sit and the computer players' names; nobody starts: all bid at "
                                         "once (KK-A2), the auction winner opens the building (KK-A7) and a pass "
                                         "goes to the left, in seat order (KK-B3)")),
            (tr("The race"), tr("one row per player: filled cells are terrain crossed, dashed cells the cards "
                                "waiting in front of the train (solid edge: the next to cross)")),
            (tr("Cards"), tr("terrain and the tracks it needs (KK-C3), ▮ = one track piece printed on the card, "
                             "£ = the coin paid for crossing it")),
            (tr("Hand in sealed bid"), tr("a whole number from 0 up to your money; everybody pays their bid (KK-A2, "
                                          "KK-A3)")),
            (tr("Take …"), tr("your turn to choose: the card joins the end of your line (KK-A6)")),
            (tr("Buy / Build / Pass"), tr("the explanation counts your tracks (KK-B2); Buy lists the purchases the "
                                         "engine allows — buying more keeps bonus tracks; Pass hands the turn to "
                                         "the left (KK-B3)")),
            (tr("Why? (hint)"), tr("explains the moves you may make now and why, with rule IDs")),
            (tr("Undo my last move"), tr("takes back your last move; the game is replayed without it")),
            (tr("Computer plays my move"), tr("the computer makes your next move for you")),
            (tr("Since your last move / Whole game log"), tr("what happened, in plain words, with rule IDs")),
            (tr("Save and load"), tr("the game as text and as a file; Load replays a pasted game, Load a file an "
                                     "uploaded one of at most 1 MB (a broken one is refused and nothing changes)")),
            (tr("Exercise"), tr("type the pieces to buy and their cost, say whether the player can pay, then Check; "
                                "New situation deals another position")),
            (tr("Puzzles"), tr("real positions from games between computer players where one move was clearly best: pick a "
                               "move and Check; the answer shows how each choice did when played on, with the rules "
                               "behind it; Previous and Next walk through them")),
            (tr("Play with others"), tr("create a table and share its code, or join one with a code and your name; "
                                        "each learner plays at their own screen")),
        ])

    # ------------------------------------------------------------------ the game
    def install(self, session: KkSession) -> None:
        """Make ``session`` the game on screen (its computer players move first if they are to act)."""
        self.session = session
        self.last_events = []
        self._own_events = 0
        self.auction.bid_field.value = ""
        try:
            session.run_bots()
            self._check_paused()
        finally:
            self.refresh()

    def _check_paused(self) -> None:
        if self._session().paused:
            raise SessionError(tr("the computer players did not finish their moves; undo or start a new game"))

    @guarded
    def on_new_game_pressed(self) -> None:
        """The learner's “New game”: asks once before a game in progress is thrown away."""
        if self.confirm_new_game():
            self.on_new_game()
            if self.message_kind != "error":
                self.focus_next(self._next_control())

    def on_class_link(self) -> bool:
        """The page address arrived with a class link: deal its game, unless the learner has moved already."""
        session = self.session
        link = link_to_deal("kk_play", self.show_error, session is None or session.last_human_move() is not None)
        if link is None:
            return False
        if link.players is not None:
            self.start.players.value = link.players
        if link.variant is not None:
            self.length.value = int(link.variant)
        self._deal = link.seed
        self.on_new_game()
        return True

    @guarded
    def on_new_game(self) -> None:
        you, _n = self.start.read()
        seed = self._deal if self._deal is not None else self.rng.randrange(1_000_000)
        self._deal = None  # “New game” later deals afresh
        session = start_session(you, self.start.read_table(), seed=seed,
                                win_crossings=int(self.length.value), **self.deck_file.options)
        self.install(session)
        self.show_info(tr("A new game. Auction 1: the computer players have handed in sealed bids; hand in yours."))

    def _move(self, action: Any) -> list[str]:
        """The learner's action (checked by the engine first), then the computer players until the
        learner's next turn."""
        session = self._session()
        played = session.play(action, bots=False)  # a RuleError here changes nothing
        events = list(played.own)
        self._own_events = len(events)
        try:
            events += session.run_bots()
            self._check_paused()
        finally:
            self.last_events = events
            self.refresh()
        return events

    def _after_move(self, done: str) -> None:
        """The message after the learner's move (with what the computer players did then, for a screen reader
        too), and the keyboard focus on the next thing to do."""
        others = others_words([as_learner(e, self.you) for e in self.last_events[self._own_events:]])
        if others:
            done += " " + others
        if self.game.is_over:
            game_finished("kk_play")
            self.show_ok(tr("{done} The game is over: {result}", done=done, result=render(self.game.result().words, self.you)))
        else:
            self.show_ok(tr("{done} Now: {next}", done=done, next=self._next_text()))
        self.focus_next(self._next_control())

    def _next_control(self) -> str:
        """The CSS selector of the control the learner uses next (``_after_move`` focuses it)."""
        phase = self.view().phase
        return {"bid": ".railkit-kk-bid input", "choose": ".railkit-kk-choose button.kk-take",
                "build": ".railkit-kk-buy select, .railkit-kk-build:enabled, .railkit-kk-pass"}.get(phase, ".railkit-kk-new")

    @guarded
    def on_bid(self) -> None:
        amount = self.auction.read_bid()
        self._move(Bid(self.you, amount))
        self.auction.bid_field.value = ""
        self._after_move(tr("You bid {bid}.", bid=pounds(amount)))

    @guarded
    def on_choose(self, card_id: str) -> None:
        self._move(Choose(self.you, card_id))
        self._after_move(tr("You took {card}.", card=card_title(self.game.card(card_id).to_dict())))

    @guarded
    def on_build(self) -> None:
        game, you = self.game, self.you
        if game.phase != "build" or you not in game.players_to_act():  # a second press, or one sent late
            raise InputError(tr("It is not your building turn: {next}", next=self._next_text() or tr(
                "the game is over. Press “New game”.")))
        buy = self.building.buy.value
        if buy is None or buy == NO_BUILD:
            raise InputError(tr("You cannot build now: {why} Pass instead.", why=self._why_not()))
        action = Build(you, int(buy))
        game.check(action)  # a purchase the engine no longer allows is refused by its rule (KK-B2)
        crossed = game.state.queues[you][0]
        self._move(action)
        self._after_move(tr("You crossed {card}.", card=card_title(self.game.card(crossed).to_dict())))

    @guarded
    def on_pass(self) -> None:
        self._move(Pass(self.you))
        self._after_move(tr("You passed."))

    @guarded
    def on_auto(self) -> None:
        session = self._session()
        if session.acting != self.you:
            raise InputError(tr("There is no move of yours to make: the game is over. Press “New game”."))
        action = session.bot_move(self.you)
        self._move(action)
        self._after_move(tr("The computer made your move: {what}", what=self._action_words(action)))

    @guarded
    def on_undo(self) -> None:
        session = self._session()
        if session.last_human_move() is None:
            raise InputError(tr("There is nothing to undo: you have not made a move in this game yet."))
        undone = session.undo()  # replay the log up to just before your last move
        self.last_events = []
        self.auction.bid_field.value = ""
        self.refresh()
        self.show_info(tr("Taken back: {what} It is your move again.", what=self._action_words(undone)))

    # ------------------------------------------------------------------ save and load
    def save_file(self) -> SaveFile:
        session = self._session()
        n = len(session.game.log)
        text = json.dumps(tag_save(session.to_dict(), self.deck_file), ensure_ascii=False)  # no private path
        return SaveFile(text, f"kap_bis_kairo_game_{session.game.seed}_move_{n}.json", saved_words(n))

    def load_save(self, data: str | bytes) -> str:
        """Replace the game by a saved one (a ``SaveFileError`` changes nothing); the message to show."""
        save, own_deck = untag_save(data, self.deck_file)  # a club deck's save needs that deck in use
        session = Session.load(save, CapeToCairoGame, kk_bots, allow_files=own_deck, max_bot_moves=KK_MAX_BOT_MOVES,
                               notes=[AuctionNotes()])
        if session.you is None:
            session = Session(session.game, session.humans[:1], kk_bots, max_bot_moves=KK_MAX_BOT_MOVES,
                              notes=session.notes)  # this lesson seats one learner; the others play by computer
        self.install(session)
        after = self._next_text() if not self.game.is_over else render(self.game.result().words, self.you)
        if is_default_learner(self.you):  # no name to tell (an English save's “You” is no name on a Finnish page)
            return trn("Loaded: {n} move replayed. {next}", "Loaded: {n} moves replayed. {next}", len(session.game.log),
                       next=after)
        return trn("Loaded: {n} move replayed; you play {player}. {next}",
                   "Loaded: {n} moves replayed; you play {player}. {next}", len(session.game.log), player=self.you,
                   next=after)

    # ------------------------------------------------------------------ words
    def _action_words(self, action: Any) -> str:
        if isinstance(action, Bid):
            return tr("a bid of {bid}.", bid=pounds(action.amount))
        if isinstance(action, Choose):
            return tr("taking {card}.", card=card_title(self.game.card(action.card_id).to_dict()))
        if isinstance(action, Build):
            return tr("building (buying {pieces}).", pieces=pieces_count(action.buy or 0))
        return tr("passing.")

    def _why_not(self) -> str:
        e = explain_build(self.game, self.you)
        return " ".join(render(s, self.you) for s in e.sentences[-2:]) if e.sentences else ""

    def _next_text(self) -> str:
        v = self.view()
        phase = v.phase
        if phase == "bid":
            return tr("auction {n} — hand in your sealed bid (KK-A2).", n=v.auction)
        if phase == "choose":
            place = choosing_place(v, self.you)
            return tr("you choose {place} — take a card (KK-A4).", place=ordinal(place))
        if phase == "build":
            return tr("your building turn — build or pass (KK-B2, KK-B3).")
        return ""

    # ------------------------------------------------------------------ showing
    def _on_hint_toggle(self, change: dict[str, Any]) -> None:
        if change.get("new"):
            note_why("kk_play")  # the record of learning counts the explanations opened
        self.show_hint()

    def show_hint(self) -> None:
        """The “Why?” box: the legal choices of the prompt on screen, from the engine (KK-A, KK-B)."""
        if self.session is None or not self.hint_button.value:
            self.hint_html.value = ""
            return
        hint = hint_html(self.game, self.you) or html.escape(tr("There is no move of yours to explain now."))
        self.hint_html.value = f"<div class='railkit-hint kk-log'>{self._search_words()}{hint}</div>"

    def _search_words(self) -> str:
        """The search player's move and the next best, evaluated (within HINT_SECONDS), once per position."""
        game, you = self.game, self.you
        if game.is_over or you not in game.players_to_act():
            return ""
        key = (game.seed, len(game.log))
        if self._search_hint[0] != key:
            self._search_hint = (key, search_hint_html(game.view(you), game.legal_actions(you), you))
        return self._search_hint[1]

    def refresh(self) -> None:
        session = self.session
        if session is None:
            return
        self.keep_game()
        v, you, game = self.view(), self.you, self.game
        if v.phase == "over":
            result = game.result()
            rule = tr("the stall ending (KK-B8)") if result.end_reason == "KK-B8" else tr("KK-E1")
            winners = list(result.winners)
            if len(winners) == 1:  # "You win by …" to the learner (railkit.messages.addressed)
                head = render(Message(N_("{who} wins by {rule}!"), {"who": winners[0], "rule": rule}), you)
            else:  # the learner among the winners: the second person plural (addressed_group), "Ann y tú compartís"
                head = render(Message(N_("{who} share the win by {rule}!"), {"who": names_message(winners),
                                                                             "rule": rule}), you)
            if you in winners:
                head += " " + tr("Well done!")
            self.status.value = (f"<div class='kk-banner kk-over'><b>{html.escape(head)}</b> "
                                 f"{html.escape(render(result.words, you))}</div>")
        else:
            deck = trn("Deck: {n} card, discard pile: {discard}.", "Deck: {n} cards, discard pile: {discard}.", v.deck_count,
                       discard=v.discard_count)
            self.status.value = (f"<div class='kk-banner kk-you'><b>{html.escape(tr('Your move'))}:</b> "
                                 f"{html.escape(self._next_text())} <span class='kk-muted'>{html.escape(deck)}</span></div>")
        self.race.value = race_html(v)
        self.review_html.value = review_html(game, you) if v.phase == "over" else ""
        self.history.show(game if v.phase == "over" else None)
        self.game_review.show(game if v.phase == "over" else None, you)
        self.show_hint()
        self.race_map.refresh(v)
        self.auction.refresh(session, fold_reveal=True)
        self.building.refresh(game, you)
        self.undo_button.disabled = session.last_human_move() is None
        self.auto_button.disabled = you not in v.to_act
        nothing = tr("Nothing yet: the game has just begun or your move was taken back.")
        self.events_html.value = (f"<b>{tr('Since your last move')}</b><div class='kk-log'>"
                                  f"{events_html(self.last_events, empty=nothing, you=you)}</div>")
        whole = trn("Whole game log ({n} entry)", "Whole game log ({n} entries)", len(game.narrative))
        self.log_html.value = (f"<details><summary><b>{whole}</b>"
                               f"</summary>{log_html(game.narrative, you)}</details>")
