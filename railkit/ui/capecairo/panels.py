"""Panels both Vom Kap bis Kairo lessons show: starting a game, and an auction at the table.

* ``StartPanel`` — “Your name”, “Players”, “New game” (KK-S1), the learner's seat and the others' names;
* ``AuctionPanel`` — the cards on sale (KK-A1), the sealed bid (KK-A2), one “Take …” button per card
  when it is the learner's turn to choose (KK-A4, KK-A6), the reveal of the last auction (KK-A3..KK-A5)
  and the players table.

``new_session`` seats the learner against ``HeuristicBot`` players in a ``railkit.session.Session``
that remembers each auction (``AuctionNotes``).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from railkit.capecairo import CapeToCairoGame, new_game
from railkit.capecairo.views import KKView
from railkit.session import Session
from railkit.ui.app import App, InputError, Messages, Panel
from railkit.ui.capecairo.common import (
    BOT_NAMES,
    MAX_BOT_MOVES,
    AuctionNotes,
    card_title,
    cards_html,
    choosing_place,
    kk_bots,
    ordinal,
    players_table_html,
    pounds,
    read_bid,
    reveal_html,
    seat_names,
)
from railkit.ui.i18n import tr, trn
from railkit.ui.records.learner import (
    LearnerName,
    check_name,
    default_learner,
    follow_page_address,
    name_from_address,
    seat_options,
    typed_names,
)
from railkit.ui.widgets import button, html_box, row, submit_on_enter

KkSession = Session[CapeToCairoGame]


class KkSessionApp(App):
    """A Vom Kap bis Kairo lesson that plays one session: its game, the learner and the learner's view."""

    session: KkSession | None = None
    start: StartPanel

    @property
    def game(self) -> CapeToCairoGame:
        return self._session().game

    @property
    def you(self) -> str:
        you = self._session().you
        assert you is not None
        return you

    def view(self) -> KKView:
        return self.game.view(self.you)

    def _session(self) -> KkSession:
        if self.session is None:
            raise InputError(tr("Press “New game” first."))
        return self.session

    # -- the learner's name, from the page address --------------------------------
    def greet_learner(self) -> None:
        """After the first game is dealt: say why a name in the page address was refused, and in a
        pre-rendered Voila kernel wait for the address (``railkit.ui.records.learner``)."""
        found = name_from_address()
        if found.problem:
            self.show_error(found.problem)
        follow_page_address(self.on_learner)

    def on_learner(self, found: LearnerName) -> bool:
        """The page address names the learner: deal again with that name unless the learner has moved.
        True when the game was dealt again."""
        if found.problem:
            self.show_error(found.problem)
            return False
        session = self.session
        if (not found.given or session is None or session.you == found.name
                or session.last_human_move() is not None):
            return False
        self.start.name_field.value = found.name
        self.on_new_game()
        return self.session is not None and self.session.you == found.name

    def on_new_game(self) -> None:
        raise NotImplementedError


def new_session(game: CapeToCairoGame, you: str) -> KkSession:
    """``game`` with the learner ``you`` and computer players in the other seats."""
    return Session(game, (you,), kk_bots, max_bot_moves=MAX_BOT_MOVES, notes=[AuctionNotes()])


def start_session(you: str, players: int | Sequence[str], seed: int, **options: Any) -> KkSession:
    """A new game for the learner ``you``: ``players`` is a count (the learner first) or the whole table in
    seating order (``StartPanel.read_table``)."""
    table = seat_names(you, players) if isinstance(players, int) else list(players)
    return new_session(new_game(table, seed=seed, **options), you)


def notes_of(session: KkSession) -> AuctionNotes:
    return next(n for n in session.notes if isinstance(n, AuctionNotes))


class StartPanel(Panel):
    """“Your name”, “Players”, “New game” (KK-S1), and the learner's seat with the other players' names
    (``seat_row``); the lesson lays them out. ``read()`` checks them."""

    def __init__(self, messages: Messages, players: int, new_tip: str, on_new: Callable[[], object],
                 name_width: str, players_width: str, new_width: str | None, name: str | None = None) -> None:
        super().__init__(messages)
        self.name_field = widgets.Text(value=name or default_learner(), description=tr("Your name"),
                                       style={"description_width": "90px"}, layout=widgets.Layout(width=name_width))
        self.name_field.add_class("railkit-kk-name")
        self.players = widgets.Dropdown(
            options=[(trn("{n} (you + {bots} computer)", "{n} (you + {bots} computers)", n - 1, n=n, bots=n - 1), n)
                     for n in (2, 3, 4)],
            value=players, description=tr("Players"), style={"description_width": "70px"},
            layout=widgets.Layout(width=players_width))
        self.players.add_class("railkit-kk-players-count")
        self.new_button = button(tr("New game"), "railkit-kk-new", "refresh", "warning", new_tip, new_width)
        self.new_button.on_click(lambda _b: on_new())
        # The seat: nobody starts in this game, all bid at once (KK-A2) and the auction winner opens the
        # building (KK-A7); the seat decides who is on your left when a player passes (KK-B3).
        self.seat = widgets.Dropdown(options=seat_options(players), value=0, description=tr("Your seat"),
                                     style={"description_width": "90px"}, layout=widgets.Layout(width="200px"))
        self.seat.add_class("railkit-kk-seat")
        self.others = widgets.Text(value="", placeholder=", ".join(BOT_NAMES[: players - 1]),
                                   description=tr("Others"), style={"description_width": "70px"},
                                   layout=widgets.Layout(width="340px"),
                                   tooltip=tr("The computer players' names, separated by commas"))
        self.others.add_class("railkit-kk-others")
        for field in (self.name_field, self.others):  # Enter in a start field starts, as “New game” does
            submit_on_enter(field, on_new)
        self.seat_row = row([self.seat, self.others, widgets.HTML(
            "<span class='kk-muted'>" + html.escape(tr("All bid at once (KK-A2); the auction winner opens the "
                                                       "building (KK-A7); a pass goes to the left (KK-B3).")) +
            "</span>")])
        self.players.observe(lambda _c: self._sync_seats(), names="value")

    def _sync_seats(self) -> None:
        n = int(self.players.value)
        seat = self.seat.value if self.seat.value is not None and self.seat.value < n else 0
        self.seat.options = seat_options(n)
        self.seat.value = seat
        self.others.placeholder = ", ".join(BOT_NAMES[: n - 1])

    def read(self) -> tuple[str, int]:
        """The learner's name (an ``InputError`` when empty, too long or holding control characters) and
        the number of players."""
        return check_name(self.name_field.value, tr("Your name")), int(self.players.value)

    def read_table(self) -> list[str]:
        """Everyone in seating order (KK-B3): the learner at the chosen seat, the others as typed (else
        computer names); an ``InputError`` names the field that cannot be used."""
        you, n = self.read()
        others = typed_names(self.others.value, n - 1, tr("Others"), BOT_NAMES, taken=(you,))
        return seat_names(you, n, int(self.seat.value or 0), others)


class AuctionPanel(Panel):
    """The auction at the table; the bid button calls ``on_bid``, a “Take …” button ``on_choose(card id)``."""

    def __init__(self, messages: Messages, on_bid: Callable[[], object], on_choose: Callable[[str], object],
                 show_auction_number: bool = False) -> None:
        super().__init__(messages)
        self.deck_note: bool | str = True  # the app sets its deck's note (a club's deck names itself)
        self.on_choose = on_choose
        self.show_auction_number = show_auction_number  # the players table says which auction a bid was in
        self.offer_html = html_box("railkit-kk-offer")
        self.bid_field = widgets.Text(value="", placeholder=tr("0 up to your money"), description=tr("Your bid £"),
                                      style={"description_width": "90px"}, layout=widgets.Layout(width="240px"))
        self.bid_field.add_class("railkit-kk-bid")
        self.bid_button = button(tr("Hand in sealed bid"), "railkit-kk-bid-button", "envelope", "primary",
                                 tr("Your bid stays secret until everyone has bid (KK-A2)"), "210px")
        self.bid_button.on_click(lambda _b: on_bid())
        submit_on_enter(self.bid_field, on_bid)  # Enter hands the bid in, as the button does
        self.bid_row = row([self.bid_field, self.bid_button])
        self.choose_prompt = html_box()
        self.choose_buttons = row([])
        self.choose_box = widgets.VBox([self.choose_prompt, self.choose_buttons])
        self.choose_box.add_class("railkit-kk-choose")
        self.reveal = html_box("railkit-kk-reveal")
        self.players_html = html_box("railkit-kk-players")

    def read_bid(self) -> int:
        return read_bid(self.bid_field.value)

    def refresh(self, session: KkSession, fold_reveal: bool = False) -> None:
        """Everything for the learner's view; ``fold_reveal``: the last auction's reveal folds away once
        its cards are chosen."""
        you = session.you
        assert you is not None
        v = session.game.view(you)
        self._show_offer(v)
        self.bid_row.layout.display = "" if v.phase == "bid" and you in v.to_act else "none"
        self.bid_field.placeholder = tr("0 to {money}", money=v.money[you])
        self._show_choosing(v, you)
        body = self._reveal_html(v, session)
        record = v.last_auction
        if fold_reveal and body and record is not None and v.phase != "choose":
            body = (f"<details><summary><b>{tr('The last auction (auction {n})', n=record['number'])}</b></summary>"
                    f"{body}</details>")
        self.reveal.value = body
        if v.phase == "bid":
            column = {p: (tr("sealed ✔") if p in v.bids_handed_in else tr("not yet")) for p in v.players}
        elif record:
            column = {p: self._paid_text(record, p) for p in v.players}
        else:
            column = {}
        self.players_html.value = players_table_html(v, column)

    def _show_offer(self, v: KKView) -> None:
        """The cards on sale while the auction bids (KK-A1) and chooses; nothing otherwise."""
        if v.phase == "bid":
            title = tr("On sale in auction {n} (KK-A1)", n=v.auction)
        elif v.phase == "choose":
            title = tr("Cards still on sale")
        else:
            self.offer_html.value = ""
            return
        self.offer_html.value = f"<b>{html.escape(title)}</b>" + cards_html(v.offer, note=self.deck_note)

    def _show_choosing(self, v: KKView, you: str) -> None:
        """One “Take …” button per card on sale when it is the learner's turn to choose (KK-A4, KK-A6)."""
        if v.phase == "choose" and you in v.to_act:
            place = choosing_place(v, you)
            self.choose_prompt.value = tr("<b>You choose {place}.</b> Which card do you take?", place=ordinal(place))
            buttons = []
            for card in v.offer:
                b = button(tr("Take {card}", card=card_title(card)), "kk-take", "hand-point-right", "info",
                           tr("Lay {id} at the end of your line (KK-A6)", id=card["id"]))
                b.on_click(lambda _b, cid=card["id"]: self.on_choose(cid))
                buttons.append(b)
            self.choose_buttons.children = buttons
            self.choose_box.layout.display = ""
        else:
            self.choose_buttons.children = []
            self.choose_box.layout.display = "none"

    @staticmethod
    def _reveal_html(v: KKView, session: KkSession) -> str:
        """The reveal of the last auction; empty before the first and while a new one takes bids."""
        record = v.last_auction
        if not record or v.phase == "bid":
            return ""
        notes = notes_of(session)
        return reveal_html(v, session.game, notes.taken.get(record["number"], {}),
                           notes.money_left.get(record["number"], {}))

    def _paid_text(self, record: Mapping[str, Any], player: str) -> str:
        """What the players table says ``player`` bid in the last auction."""
        if self.show_auction_number:
            return tr("{bid} (auction {n})", bid=pounds(record["bids"][player]), n=record["number"])
        return pounds(record["bids"][player])
