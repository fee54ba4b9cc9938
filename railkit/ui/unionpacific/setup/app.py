"""The Union Pacific setup lesson (``notebooks/up_setup.ipynb``; rules UP-S1..S8, UP-S7-FI, UP-V1, UP-V2,
UP-2P).

Three tabs and a legend:

* Set up a game (``steps.StepsPanel``) — choose 2–6 players, the share-deck option and the safe round,
  then step through the setup with Next: starting trains on the map (UP-S1), track cards (UP-S2), UP
  shares (UP-S3), company shares (UP-S4), the first investment made together with computer players
  (UP-S5), the display (UP-S6), the share deck (UP-S7 / UP-S7-FI / UP-V1 / UP-V2) and who starts
  (UP-S8). The state is a real game (``new_game``) and the learner sees only what ``view("You")``
  shows them.
* The share deck — the piles top to bottom and where dividend cards can lie, side by side for the
  standard deck, the Finnish deck, the dividend-card variant and the safe round (``deck``).
* Exercise (``quiz.QuizPanel``) — questions about the deck, answered from ``deck_layout``.
"""

from __future__ import annotations

import html
import random

import ipywidgets as widgets

from railkit.ui.app import App, guarded, legend_html
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import tr
from railkit.ui.records.learner import default_learner, follow_page_address, greet_learner
from railkit.ui.tables.class_link import link_to_deal
from railkit.ui.unionpacific.club_board import board_of, lesson_board
from railkit.ui.unionpacific.common import DECKS, LESSON_STYLE, option_name
from railkit.ui.unionpacific.setup.deck import deck_figure, layout, piles_table_html
from railkit.ui.unionpacific.setup.quiz import QuizPanel
from railkit.ui.unionpacific.setup.steps import MAX_PLAYERS, MIN_PLAYERS, StepsPanel, deck_note


class SetupApp(App):
    """Step through a real setup against computer players; the share deck; an exercise."""

    title = "Union Pacific: setting up"

    def __init__(self, seed: int | None = None) -> None:
        self.board_file = lesson_board()  # a club's own board (RAILKIT_UP_BOARD), or the built-in one
        self.board = board_of(self.board_file)
        self.club_note = self.board_file.banner_html() or (self.board_file.note_html() if self.board_file.club else "")
        self.rng = random.Random(seed)
        self._deck_drawn = False
        super().__init__()
        # The learner named once: the page address's name fills “Your name”.
        self.steps.name.value = greet_learner(self, tr("Choose the number of players and the share deck, then press "
                                                       "“Deal”."), use=self.steps.use_learner_name)
        self.on_class_link()
        follow_page_address(lambda _found: self.on_class_link())  # a pre-rendered page learns its link later

    def on_class_link(self) -> bool:
        """The class's link (``railkit.ui.tables.class_link``) sets the players, the share deck and the game number of
        the first deal, so every learner sets up the same game; refused values are said in words."""
        link = link_to_deal("up_setup", self.show_error, self.steps.game is not None)  # dealt: the game stays
        if link is None:
            return False
        if link.players is not None:
            self.steps.players.value = link.players
        if link.variant is not None:
            self.steps.deck.value = link.variant
        self.steps.link_seed = link.seed
        return True

    # ------------------------------------------------------------------ widgets
    def build(self) -> widgets.Widget:
        self.steps = StepsPanel(self.messages, self.board, self.rng, self.board_file.options)
        self.quiz = QuizPanel(self.messages, self.rng)
        self.tabs = widgets.Tab(children=[self.steps.widget, self._build_deck(), self.quiz.widget])
        for i, name in enumerate([tr("Set up a game"), tr("The share deck"), tr("Exercise")]):
            self.tabs.set_title(i, name)
        self.tabs.observe(lambda _c: self.on_tab(), names="selected_index")
        self.legend = widgets.HTML(self._legend_html())
        self.legend.add_class("railkit-legend")
        return widgets.VBox([widgets.HTML(LESSON_STYLE), widgets.HTML(self.club_note), self.tabs, self.legend])

    def _build_deck(self) -> widgets.Widget:
        self.deck_players = widgets.Dropdown(options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), value=4,
                                             description=tr("Players"), style={"description_width": "110px"},
                                             layout=widgets.Layout(width="200px"))
        self.deck_players.observe(lambda _c: self.on_deck_players(), names="value")
        self.deck_text = widgets.HTML("")
        self.deck_view = FigureView()
        return widgets.VBox([
            widgets.HTML(tr(
                "<p>The share deck is built from the company shares left after the hands (UP-S4) and the display "
                "(UP-S6). Four dividend cards go in, but never among the top six cards. Each gold pile holds "
                "dividend cards shuffled in among its shares, so they can lie anywhere in it. The safe round "
                "(UP-V2) works with any deck; it is shown here with the standard deck.</p>")),
            self.deck_players, self.deck_view.widget, widgets.HTML(deck_note()), self.deck_text,
        ])


    def _legend_html(self) -> str:
        items = [
            (tr("Players, Share deck, Safe round"), tr("the game to set up: 2–6 players; the standard deck (UP-S7), "
                                                       "the Finnish deck (UP-S7-FI) or the dividend-card variant "
                                                       "(UP-V1); the safe round (UP-V2) with any of them")),
            (tr("Your name"), tr("the name of your seat (default “{you}”); the others are computer players",
                                   you=default_learner())),
            (tr("Deal"), tr("starts a new setup with those choices")),
            (tr("Next step"), tr("goes through the setup in the rulebook's order, UP-S1 to UP-S8")),
            (tr("Step buttons"), tr("green steps were already shown: press one to see it again; grey ones come "
                                    "later")),
            (tr("Lay it face down"), tr("at UP-S5: your first share; the computer players choose at the same time "
                                        "and all are revealed together")),
            (tr("Map"), tr("starting trains are filled squares on their coloured starting spaces; stars are "
                           "headquarters")),
            (tr("The share deck"), tr("each column is one way of building the deck, top card at the top; gold "
                                      "piles hold dividend cards somewhere inside; hover for card positions")),
            (tr("Exercise"), tr("answer with Yes/No or a number, then Check; New question deals another")),
        ]
        return legend_html(items)

    # ------------------------------------------------------------------ the deck tab
    @guarded
    def on_tab(self) -> None:
        self.clear_message()  # a message belongs to the tab it was made on
        if self.tabs.selected_index == 1 and not self._deck_drawn:
            self.draw_deck()

    @guarded
    def on_deck_players(self) -> None:
        self.draw_deck()

    def draw_deck(self) -> None:
        n = int(self.deck_players.value)
        columns = [(d, False) for d in DECKS] + [("standard", True)]
        self.deck_view.show(deck_figure(n, columns))
        tables = "".join(
            f"<div><b>{html.escape(option_name(d, s))}</b>{piles_table_html(layout(d, n, s))}</div>"
            for d, s in columns)
        self.deck_text.value = f"<div class='railkit-deck-tables'>{tables}</div>"
        self._deck_drawn = True
