"""Panels both Vom Kap bis Kairo lessons show: starting a game, and an auction at the table.

* ``StartPanel`` — “Your name”, “Players”, “New game” (KK-S1);
* ``AuctionPanel`` — the cards on sale (KK-A1), the sealed bid (KK-A2), one “Take …” button per card
  when it is the learner's turn to choose (KK-A4, KK-A6), the reveal of the last auction (KK-A3..KK-A5)
  and the players table.

``new_session`` seats the learner against ``HeuristicBot`` players in a ``railkit.session.Session``
that remembers each auction (``AuctionNotes``).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from railkit.capecairo import CapeToCairoGame, new_game
from railkit.session import Session
from railkit.ui.app import App, InputError, Messages, Panel, parse_name
from railkit.ui.capecairo.common import (
    DEFAULT_NAME,
    MAX_BOT_MOVES,
    AuctionNotes,
    card_title,
    cards_html,
    kk_bots,
    ordinal,
    players_table_html,
    pounds,
    read_bid,
    reveal_html,
    seat_names,
)
from railkit.ui.i18n import tr
from railkit.ui.widgets import button, html_box, row

KkSession = Session[CapeToCairoGame]


class KkSessionApp(App):
    """A Vom Kap bis Kairo lesson that plays one session: its game, the learner and the learner's view."""

    session: KkSession | None = None

    @property
    def game(self) -> CapeToCairoGame:
        return self._session().game

    @property
    def you(self) -> str:
        you = self._session().you
        assert you is not None
        return you

    def view(self) -> dict[str, Any]:
        return dict(self.game.view(self.you))

    def _session(self) -> KkSession:
        if self.session is None:
            raise InputError(tr("Press “New game” first."))
        return self.session


def new_session(game: CapeToCairoGame, you: str) -> KkSession:
    """``game`` with the learner ``you`` and computer players in the other seats."""
    return Session(game, (you,), kk_bots, max_bot_moves=MAX_BOT_MOVES, notes=[AuctionNotes()])


def start_session(you: str, players: int, seed: int, **options: Any) -> KkSession:
    return new_session(new_game(seat_names(you, players), seed=seed, **options), you)


def notes_of(session: KkSession) -> AuctionNotes:
    return next(n for n in session.notes if isinstance(n, AuctionNotes))


class StartPanel(Panel):
    """“Your name”, “Players” and “New game” (KK-S1); the lesson lays them out. ``read()`` checks them."""

    def __init__(self, messages: Messages, players: int, new_tip: str, on_new: Callable[[], object],
                 name_width: str, players_width: str, new_width: str | None) -> None:
        super().__init__(messages)
        self.name_field = widgets.Text(value=DEFAULT_NAME, description=tr("Your name"),
                                       style={"description_width": "90px"}, layout=widgets.Layout(width=name_width))
        self.name_field.add_class("railkit-kk-name")
        self.players = widgets.Dropdown(
            options=[(tr("{n} (you + {bots} computer)", n=n, bots=n - 1), n) for n in (2, 3, 4)],
            value=players, description=tr("Players"), style={"description_width": "70px"},
            layout=widgets.Layout(width=players_width))
        self.players.add_class("railkit-kk-players-count")
        self.new_button = button(tr("New game"), "railkit-kk-new", "refresh", "warning", new_tip, new_width)
        self.new_button.on_click(lambda _b: on_new())

    def read(self) -> tuple[str, int]:
        """The learner's name (an ``InputError`` when empty or too long) and the number of players."""
        return parse_name(self.name_field.value, tr("Your name")), int(self.players.value)


class AuctionPanel(Panel):
    """The auction at the table; the bid button calls ``on_bid``, a “Take …” button ``on_choose(card id)``."""

    def __init__(self, messages: Messages, on_bid: Callable[[], object], on_choose: Callable[[str], object],
                 show_auction_number: bool = False) -> None:
        super().__init__(messages)
        self.on_choose = on_choose
        self.show_auction_number = show_auction_number  # the players table says which auction a bid was in
        self.offer_html = html_box("railkit-kk-offer")
        self.bid_field = widgets.Text(value="", placeholder=tr("0 up to your money"), description=tr("Your bid £"),
                                      style={"description_width": "90px"}, layout=widgets.Layout(width="240px"))
        self.bid_field.add_class("railkit-kk-bid")
        self.bid_button = button(tr("Hand in sealed bid"), "railkit-kk-bid-button", "envelope", "primary",
                                 tr("Your bid stays secret until everyone has bid (KK-A2)"), "210px")
        self.bid_button.on_click(lambda _b: on_bid())
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
        self.bid_row.layout.display = "" if v["phase"] == "bid" and you in v["to_act"] else "none"
        self.bid_field.placeholder = tr("0 to {money}", money=v["money"][you])
        self._show_choosing(v, you)
        body = self._reveal_html(v, session)
        record = v["last_auction"]
        if fold_reveal and body and record is not None and v["phase"] != "choose":
            body = (f"<details><summary><b>{tr('The last auction (auction {n})', n=record['number'])}</b></summary>"
                    f"{body}</details>")
        self.reveal.value = body
        if v["phase"] == "bid":
            column = {p: (tr("sealed ✔") if p in v["bids_handed_in"] else tr("not yet")) for p in v["players"]}
        elif record:
            column = {p: self._paid_text(record, p) for p in v["players"]}
        else:
            column = {}
        self.players_html.value = players_table_html(v, column)

    def _show_offer(self, v: Mapping[str, Any]) -> None:
        """The cards on sale while the auction bids (KK-A1) and chooses; nothing otherwise."""
        if v["phase"] == "bid":
            title = tr("On sale in auction {n} (KK-A1)", n=v["auction"])
        elif v["phase"] == "choose":
            title = tr("Cards still on sale")
        else:
            self.offer_html.value = ""
            return
        self.offer_html.value = f"<b>{html.escape(title)}</b>" + cards_html(v["offer"], note=True)

    def _show_choosing(self, v: Mapping[str, Any], you: str) -> None:
        """One “Take …” button per card on sale when it is the learner's turn to choose (KK-A4, KK-A6)."""
        if v["phase"] == "choose" and you in v["to_act"]:
            place = v["last_auction"]["order"].index(you) + 1
            self.choose_prompt.value = tr("<b>You choose {place}.</b> Which card do you take?", place=ordinal(place))
            buttons = []
            for card in v["offer"]:
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
    def _reveal_html(v: Mapping[str, Any], session: KkSession) -> str:
        """The reveal of the last auction; empty before the first and while a new one takes bids."""
        record = v["last_auction"]
        if not record or v["phase"] == "bid":
            return ""
        notes = notes_of(session)
        return reveal_html(v, session.game, notes.taken.get(record["number"], {}),
                           notes.money_left.get(record["number"], {}))

    def _paid_text(self, record: Mapping[str, Any], player: str) -> str:
        """What the players table says ``player`` bid in the last auction."""
        if self.show_auction_number:
            return tr("{bid} (auction {n})", bid=pounds(record["bids"][player]), n=record["number"])
        return pounds(record["bids"][player])
