"""The play lesson's “New game and options” form: against the computer or hot seat, the players' names,
the share deck (UP-S7, UP-S7-FI, UP-V1), the variants (each with its rule ID) and the game number.

``read(rng)`` checks everything typed and returns a ``NewGame`` (or raises ``InputError``); the engine
checks the names and options again when the game is made.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets

from railkit.messages import N_
from railkit.ui.app import Messages, Panel, parse_whole
from railkit.ui.i18n import tr, trn
from railkit.ui.records.learner import DEFAULT_LEARNER, check_name, default_learner, seat_players, typed_names
from railkit.ui.records.learner import seat_options as learner_seats
from railkit.ui.unionpacific.common import DECKS, option_name
from railkit.ui.widgets import button, html_box, row, submit_on_enter

VS_BOTS, HOT_SEAT = "bots", "hotseat"
BOT_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eva", "Finn")
DEFAULT_NAME = DEFAULT_LEARNER  # “You”, unless the page address names the learner
MIN_PLAYERS, MAX_PLAYERS = 2, 6
WIDE = {"description_width": "120px"}

# (option, label, rule, default) — the engine's options (railkit.unionpacific.options) offered here.
TOGGLES: tuple[tuple[str, str, str, bool], ...] = (
    ("direct_up_draw", N_("UP shares may be drawn directly"), N_("UP-B3; unchecked: UP-B3-FI"), True),
    ("safe_round", N_("Safe round"), "UP-V2", False),
    ("countable_deck", N_("Deck count is public"), "UP-V3", False),
    ("removed_to_bottom", N_("Removed shares go under the deck"), "UP-V4", False),
    ("public_money", N_("Money is public"), "UP-D13", True),
)


@dataclass(frozen=True)
class NewGame:
    players: tuple[str, ...]
    humans: tuple[str, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1


def hot_seat_names(text: str, n: int) -> list[str]:
    """Names typed for a hot-seat game, separated by commas; seats left unnamed are “Player k”."""
    return typed_names(text, n, tr("Names"), [tr("Player {i}", i=i) for i in range(1, MAX_PLAYERS + 2)])


def seat_options(n: int) -> list[tuple[str, int]]:
    """“1st — starts (UP-S8)”, “2nd”, … for ``n`` players: the seat decides who plays first."""
    return learner_seats(n, tr("starts (UP-S8)"))


class NewGamePanel(Panel):
    """The form in a closed accordion (``widget``); its Start button calls ``on_start``."""

    def __init__(self, messages: Messages, on_start: Callable[[], object]) -> None:
        super().__init__(messages)
        self.mode = widgets.ToggleButtons(
            options=[(tr("Against the computer"), VS_BOTS), (tr("Hot seat (all human)"), HOT_SEAT)],
            value=VS_BOTS, style={"button_width": "200px"},
            tooltips=[tr("You and 1–5 computer players"), tr("Everyone at one screen; hands hidden between turns")])
        self.mode.add_class("railkit-mode")
        self.players = widgets.Dropdown(options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), value=4,
                                        description=tr("Players"), style=WIDE, layout=widgets.Layout(width="220px"))
        self.players.add_class("railkit-players")
        self.name = widgets.Text(value=default_learner(), description=tr("Your name"), style=WIDE,
                                 layout=widgets.Layout(width="300px"))
        self.name.add_class("railkit-name")
        self.seat = widgets.Dropdown(options=seat_options(4), value=0, description=tr("Your seat"), style=WIDE,
                                     layout=widgets.Layout(width="300px"))
        self.seat.add_class("railkit-seat")
        self.names = widgets.Text(value="", placeholder=tr("Player 1, Player 2, …"), description=tr("Names"),
                                  style=WIDE, layout=widgets.Layout(width="440px", display="none"))
        self.names.add_class("railkit-names")
        self.deck = widgets.Dropdown(options=[(option_name(d, False), d) for d in DECKS], value="standard",
                                     description=tr("Share deck"), style=WIDE, layout=widgets.Layout(width="440px"))
        self.deck.add_class("railkit-deck")
        self.toggles = {
            key: widgets.Checkbox(value=default, description=f"{tr(label)} ({tr(rule)})", indent=False,
                                  layout=widgets.Layout(width="auto"))
            for key, label, rule, default in TOGGLES
        }
        self.quiz = widgets.Checkbox(value=True, description=tr("Payout exercise: ask me before showing each "
                                                                "payout's breakdown"),
                                     indent=False, layout=widgets.Layout(width="auto"))
        self.seed = widgets.Text(value="", placeholder=tr("random"), description=tr("Game number"), style=WIDE,
                                 layout=widgets.Layout(width="300px"))
        self.seed.add_class("railkit-seed")
        self.start_button = button(tr("Start a new game"), "railkit-new-game", "play", "primary")
        self.start_button.on_click(lambda _b: on_start())
        for typed in (self.name, self.names, self.seed):  # Enter in a field starts, as the button does
            submit_on_enter(typed, on_start)
        self.hint = html_box()
        self.mode.observe(lambda _c: self._sync(), names="value")
        self.players.observe(lambda _c: self._sync(), names="value")
        self._sync()
        body = widgets.VBox([
            self.mode, row([self.players, self.hint]), row([self.name, self.seat]), self.names, self.deck,
            row(list(self.toggles.values())), self.quiz, row([self.seed, self.start_button]),
            widgets.HTML("<span class='railkit-muted'>" + tr("The same game number and options deal the same game. The "
                                                             "options are explained on the rulings page.") + "</span>"),
        ])
        self.widget = widgets.Accordion(children=[body], titles=(tr("New game and options"),))
        self.widget.selected_index = None
        self.widget.add_class("railkit-setup")

    def _sync(self) -> None:
        bots = self.mode.value == VS_BOTS
        self.name.layout.display = None if bots else "none"
        self.seat.layout.display = None if bots else "none"
        self.names.layout.display = "none" if bots else None
        n = int(self.players.value)
        seat = self.seat.value if self.seat.value is not None and self.seat.value < n else 0
        self.seat.options = seat_options(n)
        self.seat.value = seat
        self.hint.value = (trn("you and {n} computer player", "you and {n} computer players", n - 1) if bots
                           else tr("all at this screen"))

    def preset(self, players: int, hot_seat: bool, name: str, names: str, game_number: int | None,
               options: dict[str, Any], seat: int = 0) -> None:
        """Fill the form (the app's arguments)."""
        self.mode.value = HOT_SEAT if hot_seat else VS_BOTS
        self.players.value = players
        self.name.value = name
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} does not exist with {players} players")
        self.seat.value = seat
        self.names.value = names
        self.seed.value = "" if game_number is None else str(game_number)
        for key, value in options.items():
            if key == "deck":
                self.deck.value = value
            elif key in self.toggles:
                self.toggles[key].value = value
            else:
                raise TypeError(f"unknown option {key!r}")

    def read(self, rng: random.Random) -> NewGame:
        """The game the form describes; ``InputError`` names the first field that cannot be used."""
        n = int(self.players.value)  # the dropdown offers 2..6 only; the engine checks UP-S8 again
        seed_text = str(self.seed.value).strip()
        seed = (parse_whole(seed_text, tr("Game number"), minimum=0, maximum=999_999_999) if seed_text
                else rng.randrange(1, 1_000_000))
        options: dict[str, Any] = {key: bool(box.value) for key, box in self.toggles.items()}
        options["deck"] = self.deck.value
        if self.mode.value == VS_BOTS:
            name = check_name(self.name.value, tr("Your name"))
            bots = [b for b in BOT_NAMES if b.casefold() != name.casefold()][: n - 1]
            # the engine seats players in the order given; the first seat starts (UP-S8)
            return NewGame(tuple(seat_players(name, bots, int(self.seat.value or 0))), (name,), seed, options)
        players = tuple(hot_seat_names(self.names.value, n))
        return NewGame(players, players, seed, options)
