"""The Vom Kap bis Kairo auction lesson (``notebooks/kk_auction.ipynb``, rules KK-A1..KK-A7).

Two tabs and a legend:

* Auction — a real game (``railkit.capecairo.new_game``) against one to three computer players
  (``HeuristicBot``) in a ``railkit.session.Session``. The cards on sale are shown (KK-A1); the computer
  players hand in sealed bids first, and the learner sees only *that* they did (``view``, KK-A2); the
  learner types a bid. The reveal shows every bid, the money left, the choosing order with each
  tie-break step in the engine's words (KK-A3..KK-A5), and which card each player took (KK-A6). When it
  is the learner's turn to choose, one button per card. After the auction, “Next auction” plays the
  building phase quickly — the learner's builds are decided by the computer too — and shows what
  happened, then the next auction begins with the cards left in the deck.
* Who chooses first? — the order exercise (``quiz.QuizPanel``).

The engine decides everything: what a legal bid is, the order, who chooses when.
"""

from __future__ import annotations

import html
import json
import random
from typing import Any

import ipywidgets as widgets

from railkit.capecairo import Bid, CapeToCairoGame, Choose
from railkit.session import Session, SessionError
from railkit.ui.app import InputError, guarded, legend_html
from railkit.ui.autosave import GameKeeper, KeepsGame
from railkit.ui.capecairo import club_deck
from railkit.ui.capecairo.auction.quiz import QuizPanel
from railkit.ui.capecairo.common import (
    KK_STYLE,
    AuctionNotes,
    card_title,
    choosing_place,
    events_html,
    kk_bots,
    ordinal,
    pounds,
)
from railkit.ui.capecairo.common import MAX_BOT_MOVES as KK_MAX_BOT_MOVES
from railkit.ui.capecairo.panels import AuctionPanel, KkSession, KkSessionApp, StartPanel, start_session
from railkit.ui.capecairo.race_panel import RaceMapPanel
from railkit.ui.club_files import ClubFile, ClubFilePanel, LessonData, switch, tag_save, untag_save
from railkit.ui.i18n import render, tr, trn
from railkit.ui.records.learner import is_default_learner, name_from_address
from railkit.ui.saves import SaveFile
from railkit.ui.tables.class_link import class_options, link_to_deal
from railkit.ui.widgets import button, html_box, row


def building(game: Any, _player: str | None = None) -> bool:
    return bool(game.phase == "build")


class KkAuctionApp(KeepsGame, KkSessionApp):
    """Bid in a real game against computer players, see the reveal and choose; the order quiz."""

    title = "Vom Kap bis Kairo: the auction"

    def __init__(self, seed: int | None = None, players: int = 3, name: str | None = None, seat: int = 0,
                 others: str = "", deck_file: LessonData | None = None) -> None:
        self._learner = (name_from_address().name if name is None else name, seat, others)
        self.deck_file = club_deck.lesson_deck(deck_file)  # a club's own deck, or the built-in one
        self.rng = random.Random(seed)
        self.session: KkSession | None = None
        self.building_events: list[str] = []  # the story of the last round: reveal, choices, building
        self._round_start = 0  # where in the narrative the learner's last bid begins
        link = class_options("kk_auction")  # the class's link: the same deal for everyone (railkit.ui.tables.class_link)
        self._deal = link.seed  # the first game's number, when the link gives one
        self._start_players = link.players or players
        self._learner = (self._learner[0], min(seat, self._start_players - 1), others)
        # the game survives a reload and a language switch (railkit.ui.autosave): the translated page opens it
        self.keeper = GameKeeper("kk_auction")
        super().__init__()
        self.on_new_game()
        self.quiz.on_new_question()
        if name is None:
            self.greet_learner()
        self.follow_the_page(link.problems)

    def on_class_link(self) -> bool:
        """The page address arrived with a class link: deal its game, unless the learner has bid already."""
        session = self.session
        link = link_to_deal("kk_auction", self.show_error, session is None or session.last_human_move() is not None)
        if link is None:
            return False
        if link.players is not None:
            self.start.players.value = link.players
        self._deal = link.seed
        self.on_new_game()
        return True

    # ------------------------------------------------------------------ building the widgets
    def build(self) -> widgets.Widget:
        m = self.messages
        self.start = StartPanel(m, self._start_players,
                                tr("Start a new game: everyone at £100, a freshly shuffled deck (KK-S1)"),
                                self.on_new_game_pressed, name_width="260px", players_width="280px", new_width=None,
                                name=self._learner[0])
        self.start.seat.value, self.start.others.value = self._learner[1], self._learner[2]
        self.auction = AuctionPanel(m, on_bid=self.on_bid, on_choose=self.on_choose)
        self.auction.deck_note = self.deck_file.note_html()
        self.status = html_box("railkit-kk-status")
        self.next_button = button(tr("Next auction"), "railkit-kk-next", "forward", "primary",
                                  tr("Play the building phase quickly, then turn up new cards (KK-A1)"), "200px")
        self.next_button.on_click(lambda _b: self.on_next_auction())
        self.building_html = html_box("railkit-kk-building")
        self.race_map = RaceMapPanel(height=520)
        a = self.auction
        game_tab = widgets.VBox([
            row([self.start.name_field, self.start.players, self.start.new_button]), self.start.seat_row,
            self.status, a.offer_html, a.bid_row, a.choose_box, self.next_button,
            a.reveal, a.players_html, self.building_html, self.race_map.widget,
        ])
        self.quiz = QuizPanel(m, self.rng)
        self.tabs = widgets.Tab(children=[game_tab, self.quiz.widget])
        for i, title in enumerate([tr("Auction"), tr("Who chooses first?")]):
            self.tabs.set_title(i, title)
        # a message belongs to the tab it was made on: switching tabs clears it
        self.tabs.observe(lambda _c: self.clear_message(), names="selected_index")
        self.legend = html_box("railkit-legend", self._legend_html())
        self.club = ClubFilePanel(m, self.deck_file, self.on_club_deck)
        self.race_map.note.value = club_deck.race_note(self.deck_file, self.race_map.note.value)
        return widgets.VBox([widgets.HTML(KK_STYLE), self.club.banner, self.tabs, self.legend, self.club.widget,
                             self.keeper.widget])

    @guarded
    def on_club_deck(self, club: ClubFile | None) -> None:
        switch(self, self.deck_file, club,
               lambda data: KkAuctionApp.__init__(self, players=self._start_players, deck_file=data))

    def _legend_html(self) -> str:
        return legend_html([
            (tr("Your name, Players, New game"), tr("start a game against 1 to 3 computer players; everyone has £100 "
                                                     "(KK-S1)")),
            (tr("Your seat, Others"), tr("where you sit and the computer players' names; nobody starts: all bid at "
                                         "once (KK-A2) and the auction winner opens the building (KK-A7)")),
            (tr("Cards on sale"), tr("one per player (KK-A1): the terrain, the tracks needed to cross it (KK-C3), "
                                     "its track pieces (▮ = one piece) and the coin paid for crossing it")),
            (tr("Your bid £ / Hand in sealed bid"), tr("a whole number from 0 up to your money (KK-A2). The others' "
                                                       "bids stay hidden until yours is in; everyone pays their own "
                                                       "bid, winner or not (KK-A3)")),
            (tr("Reveal"), tr("all bids, the money left, and how the engine settled the choosing order, step by step "
                              "(KK-A4, KK-A5)")),
            (tr("Take …"), tr("when it is your turn to choose, take one card; it joins the end of your line (KK-A6)")),
            (tr("Next auction"), tr("plays the building phase quickly — your builds are decided by the computer — "
                                    "and lists what happened; then new cards go on sale")),
            (tr("Players table"), tr("money, terrain crossed, bonus tracks and the line of cards in front of each "
                                     "train, the next to cross first (bold edge)")),
            (tr("Who chooses first?"), tr("pick the choosing order for 1st, 2nd, … and press Check; New situation "
                                          "deals another")),
        ])

    # ------------------------------------------------------------------ the game
    def _bots(self, **how: Any) -> list[str]:
        """The computer players move (``how``: ``stop`` or ``autopilot``, see ``Session.run_bots``)."""
        session = self._session()
        events = session.run_bots(**how)
        if session.paused:
            raise SessionError(tr("the computer players did not finish their moves; start a new game"))
        return events

    @guarded
    def on_new_game(self) -> None:
        you, _n = self.start.read()
        seed = self._deal if self._deal is not None else self.rng.randrange(1_000_000)
        self._deal = None  # “New game” later deals afresh
        self.session = start_session(you, self.start.read_table(), seed=seed, **self.deck_file.options)
        self.building_events, self._round_start = [], 0
        self._bots(stop=building)  # the computer players hand in their sealed bids
        self.auction.bid_field.value = ""
        self.refresh()
        self.show_info(trn("A new game: {n} card is on sale. The computer players have handed in their sealed "
                           "bids; type yours and press “Hand in sealed bid”.",
                           "A new game: {n} cards are on sale. The computer players have handed in their sealed "
                           "bids; type yours and press “Hand in sealed bid”.", len(self.view().offer)))

    @guarded
    def on_new_game_pressed(self) -> None:
        """The learner's “New game” (or Enter in a start field): asks once before a game in progress is thrown
        away; then a new game, and the bid to hand in."""
        if not self.confirm_new_game():
            return
        self.on_new_game()
        if self.message_kind != "error":
            self.focus_next(".railkit-kk-bid input")

    @guarded
    def on_bid(self) -> None:
        amount = self.auction.read_bid()
        session = self._session()
        start = len(self.game.narrative)
        session.play(Bid(self.you, amount), bots=False)  # the engine refuses a bad bid; nothing changes
        self._round_start, self.building_events = start, []
        self.auction.bid_field.value = ""
        try:
            self._bots(stop=building)  # computer players who choose before you
        finally:
            self.refresh()
        v = self.view()
        place = choosing_place(v, self.you)
        if v.phase == "choose" and v.current_player == self.you:
            self.show_ok(tr("Bids revealed. You paid {bid} and choose {place}: take a card.",
                            bid=pounds(amount), place=ordinal(place)) + "\n" + self._bids_words())
            self.focus_next(".railkit-kk-choose button.kk-take")
        else:
            self.show_ok(tr("Bids revealed. You paid {bid} and chose {place}. See the reveal below.",
                            bid=pounds(amount), place=ordinal(place)) + "\n" + self._bids_words())
            self.focus_next(".railkit-kk-next")

    def _bids_words(self) -> str:
        """The auction's result in one sentence, for the message bar (a screen reader reads it out)."""
        record = self.view().last_auction
        if not record:
            return ""
        bids = ", ".join(tr("{player} {bid}", player=p, bid=pounds(b)) for p, b in record["bids"].items())
        return tr("Bids: {bids}; choosing order: {order}.", bids=bids, order=" → ".join(record["order"]))

    @guarded
    def on_choose(self, card_id: str) -> None:
        self._session().play(Choose(self.you, card_id), bots=False)  # the engine checks turn and card (KK-A4)
        try:
            self._bots(stop=building)
        finally:
            self.refresh()
        card = self.game.card(card_id).to_dict()
        self.show_ok(tr("You took {card}; it is now at the end of your line (KK-A6). Press “Next auction” to go on.",
                        card=card_title(card)))
        self.focus_next(".railkit-kk-next")

    @guarded
    def on_next_auction(self) -> None:
        game = self.game
        if game.is_over:
            raise InputError(tr("The game is over: press “New game” to play again."))
        if game.phase != "build":
            raise InputError(tr("Finish this auction first: hand in your bid, or take your card."))
        try:
            self._bots(autopilot=building)  # building phase, then the next sealed bids
        finally:
            self.building_events = self.game.narrative[self._round_start:]
            self.refresh()
        if self.game.is_over:
            self.show_info(tr("The game is over: {result}", result=render(self.game.result().words, self.you)))
            self.focus_next(".railkit-kk-new")
        else:
            self.show_info(tr("The building phase is over. Auction {n}: new cards are on sale; the computer players "
                              "have bid, now it is your turn.", n=self.game.state.auction_no))
            self.focus_next(".railkit-kk-bid input")

    # ------------------------------------------------------------------ kept game (railkit.ui.autosave)
    def save_file(self) -> SaveFile:
        session = self._session()
        text = json.dumps(tag_save(session.to_dict(), self.deck_file), ensure_ascii=False)  # no private path
        return SaveFile(text, f"kap_bis_kairo_auction_{session.game.seed}.json", "")

    def load_save(self, data: str | bytes) -> str:
        """Replace the game by a kept one (a ``SaveFileError`` changes nothing); the message to show."""
        save, own_deck = untag_save(data, self.deck_file)
        session = Session.load(save, CapeToCairoGame, kk_bots, allow_files=own_deck, max_bot_moves=KK_MAX_BOT_MOVES,
                               notes=[AuctionNotes()])
        if session.you is None:
            session = Session(session.game, session.humans[:1], kk_bots, max_bot_moves=KK_MAX_BOT_MOVES,
                              notes=session.notes)
        self.session = session
        self.building_events, self._round_start = [], len(session.game.narrative)
        self.auction.bid_field.value = ""
        self.refresh()
        if is_default_learner(self.you):  # no name to tell: “you play Sinä” would read as a third person
            return trn("Loaded: {n} move replayed. {next}", "Loaded: {n} moves replayed. {next}", len(session.game.log),
                       next="").strip()
        return trn("Loaded: {n} move replayed; you play {player}. {next}",
                   "Loaded: {n} moves replayed; you play {player}. {next}", len(session.game.log), player=self.you,
                   next="").strip()

    # ------------------------------------------------------------------ showing
    def refresh(self) -> None:
        self.keep_game()
        v = self.view()
        phase, record = v.phase, v.last_auction
        if phase == "over":
            text, cls = render(self.game.result().words, self.you), "kk-over"
        elif phase == "bid":
            text = tr("Auction {n}: the computer players have handed in sealed bids ({who}). Hand in yours: how much "
                      "is choosing early worth to you? (KK-A2)", n=v.auction,
                      who=", ".join(v.bids_handed_in) or tr("none yet"))
            cls = "kk-you"
        elif phase == "choose":
            text = tr("Auction {n}: it is your turn to choose a card (KK-A4).", n=v.auction)
            cls = "kk-you"
        elif record and record["order"][0] == self.you:
            text = tr("Auction {n} is over: you chose first and open the building phase (KK-A7). Press “Next "
                      "auction” to play the building phase quickly and go on.", n=v.auction)
            cls = ""
        else:
            text = tr("Auction {n} is over: {winner} chose first and opens the building phase (KK-A7). Press “Next "
                      "auction” to play the building phase quickly and go on.", n=v.auction,
                      winner=record["order"][0] if record else "")
            cls = ""
        self.status.value = f"<div class='kk-banner {cls}'>{html.escape(text)}</div>"
        self.auction.refresh(self._session())
        self.race_map.refresh(v)
        self.next_button.layout.display = "" if phase == "build" else "none"
        if self.building_events:
            heading = tr("What happened last round: the reveal, the choices and the building phase played by "
                         "the computer (KK-A, KK-B)")
            self.building_html.value = (
                f"<details open><summary><b>{html.escape(heading)}</b></summary>"
                f"<div class='kk-log'>{events_html(self.building_events, you=self.you)}</div></details>")
        else:
            self.building_html.value = ""
