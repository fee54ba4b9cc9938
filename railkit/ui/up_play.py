"""The Union Pacific game app (lesson ``notebooks/up_play.ipynb``): a whole game, rules UP-T, UP-B, UP-I,
UP-D and UP-2P.

One learner plays against one to five computer players (``HeuristicBot``), or several people share the
screen (hot seat: every seat human; a player's hand shows only after “Show my hand”). The app asks the
engine for everything:

* the moves offered are the engine's ``legal_actions`` for the player to act (first share UP-S5, swap an
  unusable card UP-T2, build UP-B1/B2, invest UP-I1..I3, pass UP-T4, draw UP-B3, exchange UP-B4, end
  the turn UP-B6); a move the engine refuses shows its ``RuleError`` and changes nothing;
* for a build, the map lights up the legal sections for the chosen track card and company
  (``legal_placements``) and the UP-B2a–f checklist of the chosen section (``explain_placement``);
* computer players move at once until a human must act again (at most ``MAX_BOT_ACTIONS`` per click);
* the log is the engine's ``narrative``; every payout is shown with the engine's explanations
  (``payout_history``); undo replays the log up to the last human move; save and load use the engine's
  save format (``to_dict`` / ``load_game``) plus which seats are human.

The exercise: after each payout the app asks how much one company paid one of the human players, and
shows the payout's breakdown only after the answer (or “Show the answer”).

Widgets are built once; each click updates values in place, and the map (one ``FigureView``) is redrawn
only when what it shows has changed.
"""

from __future__ import annotations

import base64
import html
import json
import random
from collections import Counter
from typing import Any, Mapping, Sequence

import ipywidgets as widgets

from railkit.ui.app import App, InputError, guarded, parse_whole
from railkit.ui.building import building_map, checklist_html
from railkit.ui.dividends import steps_html
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import tr
from railkit.ui.setup_lesson import DECKS, option_name
from railkit.ui.up_common import LESSON_STYLE, card_label, company_html, company_name, row, section_label
from railkit.ui.up_play_panels import (
    PLAY_STYLE,
    PayoutQuestion,
    cards_html,
    companies_html,
    display_html,
    make_question,
    payout_html,
    players_html,
    share_words,
    text_colour,
)
from railkit.unionpacific import (
    UP,
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
    SaveFileError,
    load_board,
    load_game,
    new_game,
)
from railkit.unionpacific.bots import HeuristicBot

VS_BOTS, HOT_SEAT = "bots", "hotseat"
BOT_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eva", "Finn")
DEFAULT_NAME = "Alex"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_NAME = 20
MAX_BOT_ACTIONS = 200  # per click: the page never waits for more than a moment
MAX_SAVE_CHARS = 2_000_000
SEATS_KEY = "railkit_play"  # extra key in a save: which seats are human (the engine ignores it)
MAP_HEIGHT = 560
RECENT_EVENTS = 40
DRAW_SOURCES = ("display:0", "display:1", "display:2", "display:3", "deck", "up")

# (option, label, rule, default) — the engine's options (railkit.unionpacific.options) offered here.
TOGGLES: tuple[tuple[str, str, str, bool], ...] = (
    ("direct_up_draw", "UP shares may be drawn directly", "UP-B3; off: UP-B3-FI", True),
    ("safe_round", "Safe round", "UP-V2", False),
    ("countable_deck", "Deck count is public", "UP-V3", False),
    ("removed_to_bottom", "Removed shares go under the deck", "UP-V4", False),
    ("public_money", "Money is public", "UP-D13", True),
)


# -- the app ------------------------------------------------------------------------------------
class PlayApp(App):
    """A whole game of Union Pacific against computer players or hot seat (see the module docstring)."""

    title = "Union Pacific: play a game"

    def __init__(self, seed: int | None = None, players: int = 4, hot_seat: bool = False,
                 name: str = DEFAULT_NAME, game_number: int | None = None, **options: Any) -> None:
        self.board = load_board()
        self.rng = random.Random(seed)
        self.game: Any = None
        self.humans: tuple[str, ...] = ()
        self.bots: dict[str, HeuristicBot] = {}
        self.hot_seat = False
        self.hand_for: str | None = None  # hot seat: whose hand is shown
        self.bots_paused = False
        self.recent_from = 0  # narrative index where “Latest moves” starts
        self.mine_from = 0  # ... and where the last human move's own events end
        self.question: PayoutQuestion | None = None
        self.hidden_payouts: set[int] = set()
        self.quiz_score = [0, 0]
        self._quiet = 0
        self._controls_key: Any = None
        self._map_key: Any = None
        self.legal: list[str] = []  # legal sections for the chosen card and company (the engine's list)
        self._legal_builds: list[Build] = []
        self.new_payout = False  # the last change paid out
        super().__init__()
        self.setup_mode.value = HOT_SEAT if hot_seat else VS_BOTS
        self.setup_players.value = players
        self.setup_name.value = name
        self.setup_seed.value = "" if game_number is None else str(game_number)
        for key, value in options.items():
            if key == "deck":
                self.setup_deck.value = value
            elif key in self.setup_toggles:
                self.setup_toggles[key].value = value
            else:
                raise TypeError(f"unknown option {key!r}")
        self.on_new_game()

    # ================================================================== widgets
    def build(self) -> widgets.Widget:
        self.setup = widgets.Accordion(children=[self._build_setup()], titles=(tr("New game and options"),))
        self.setup.selected_index = None
        self.setup.add_class("railkit-setup")
        self.status = widgets.HTML("")
        self.status.add_class("railkit-status")
        self.steps = widgets.HTML("")
        self.show_hand_button = widgets.Button(description=tr("Show my hand"), icon="eye", button_style="warning",
                                               layout=widgets.Layout(width="auto"))
        self.show_hand_button.add_class("railkit-show-hand")
        self.show_hand_button.on_click(lambda _b: self.on_show_hand())
        self.handoff = widgets.HTML("")
        self.hotseat_bar = row([self.show_hand_button, self.handoff], display="none")
        self.hand = widgets.HTML("")
        self.hand.add_class("railkit-hand")
        self.hand.add_class("railkit-panel")
        self.controls = self._build_controls()
        self.undo_button = widgets.Button(description=tr("Undo my last move"), icon="undo",
                                          tooltip=tr("Back to just before your last move (the game is replayed)"),
                                          layout=widgets.Layout(width="auto"))
        self.undo_button.add_class("railkit-undo")
        self.undo_button.on_click(lambda _b: self.on_undo())
        self.continue_button = widgets.Button(description=tr("Let the computer players go on"), icon="forward",
                                              button_style="info", layout=widgets.Layout(width="auto",
                                                                                         display="none"))
        self.continue_button.add_class("railkit-continue")
        self.continue_button.on_click(lambda _b: self.on_continue())
        self.recent = widgets.HTML("")
        self.recent.add_class("railkit-events")
        self.recent.add_class("railkit-panel")
        self.display = widgets.HTML("")
        self.display.add_class("railkit-display")
        self.players_panel = widgets.HTML("")
        self.players_panel.add_class("railkit-players-panel")
        self.exercise = self._build_exercise()
        self.map_view = FigureView()
        self.companies = widgets.HTML("")
        self.companies.add_class("railkit-companies-panel")
        self.payouts = widgets.HTML("")
        self.payouts.add_class("railkit-payouts")
        self.payouts.add_class("railkit-panel")
        self.result_html = widgets.HTML("")
        self.result_html.add_class("railkit-result")
        self.log_html = widgets.HTML("")
        self.log_html.add_class("railkit-log")
        self.log_box = widgets.Accordion(children=[self.log_html], titles=(tr("The whole game in words"),))
        self.log_box.selected_index = None
        self.log_box.observe(lambda _c: self.on_log_toggle(), names="selected_index")
        self.saveload = widgets.Accordion(children=[self._build_saveload()], titles=(tr("Save and load"),))
        self.saveload.selected_index = None
        self.saveload.add_class("railkit-saveload")
        self.legend = widgets.HTML(self._legend_html())
        self.legend.add_class("railkit-legend")

        left = widgets.VBox([self.hand, self.controls], layout=widgets.Layout(flex="0 0 520px", min_width="0"))
        table_panel = widgets.VBox([
            widgets.HTML(f"<h4>{tr('The display (UP-S6)')}</h4>"), self.display,
            widgets.HTML(f"<h4>{tr('Players')}</h4>"), self.players_panel,
        ])
        table_panel.add_class("railkit-panel")
        right = widgets.VBox([table_panel, self.recent], layout=widgets.Layout(flex="1 1 380px", min_width="0"))
        companies_panel = widgets.VBox([
            widgets.HTML(f"<h4>{tr('Companies and the shares on the table (UP-D2, UP-I2)')}</h4>"), self.companies])
        companies_panel.add_class("railkit-panel")
        # The first control on the page is always visible (the shared browser helper waits for it).
        toolbar = row([self.undo_button, self.continue_button])
        return widgets.VBox([
            widgets.HTML(LESSON_STYLE + PLAY_STYLE), self.status, self.steps, toolbar, self.hotseat_bar,
            self.result_html, self.exercise,
            widgets.HBox([left, right], layout=widgets.Layout(align_items="flex-start", grid_gap="12px")),
            self.map_view.widget, companies_panel, self.payouts, self.log_box, self.setup, self.saveload,
            self.legend,
        ])

    def _build_setup(self) -> widgets.Widget:
        wide = {"description_width": "120px"}
        self.setup_mode = widgets.ToggleButtons(
            options=[(tr("Against the computer"), VS_BOTS), (tr("Hot seat (all human)"), HOT_SEAT)],
            value=VS_BOTS, style={"button_width": "200px"},
            tooltips=[tr("You and 1–5 computer players"), tr("Everyone at one screen; hands hidden between turns")])
        self.setup_mode.add_class("railkit-mode")
        self.setup_players = widgets.Dropdown(options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), value=4,
                                              description=tr("Players"), style=wide,
                                              layout=widgets.Layout(width="220px"))
        self.setup_players.add_class("railkit-players")
        self.setup_name = widgets.Text(value=DEFAULT_NAME, description=tr("Your name"), style=wide,
                                       layout=widgets.Layout(width="300px"))
        self.setup_name.add_class("railkit-name")
        self.setup_deck = widgets.Dropdown(options=[(option_name(d, False), d) for d in DECKS], value="standard",
                                           description=tr("Share deck"), style=wide,
                                           layout=widgets.Layout(width="440px"))
        self.setup_deck.add_class("railkit-deck")
        self.setup_toggles = {
            key: widgets.Checkbox(value=default, description=f"{tr(label)} ({rule})", indent=False,
                                  layout=widgets.Layout(width="auto"))
            for key, label, rule, default in TOGGLES
        }
        self.setup_quiz = widgets.Checkbox(value=True, description=tr("Payout exercise: ask me before showing "
                                                                      "each payout's breakdown"),
                                           indent=False, layout=widgets.Layout(width="auto"))
        self.setup_seed = widgets.Text(value="", placeholder=tr("random"), description=tr("Game number"),
                                       style=wide, layout=widgets.Layout(width="300px"))
        self.setup_seed.add_class("railkit-seed")
        self.new_button = widgets.Button(description=tr("Start a new game"), icon="play", button_style="primary",
                                         layout=widgets.Layout(width="auto"))
        self.new_button.add_class("railkit-new-game")
        self.new_button.on_click(lambda _b: self.on_new_game())
        self.setup_hint = widgets.HTML("")
        self.setup_mode.observe(lambda _c: self._sync_setup(), names="value")
        self.setup_players.observe(lambda _c: self._sync_setup(), names="value")
        self._sync_setup()
        return widgets.VBox([
            self.setup_mode, row([self.setup_players, self.setup_hint, self.setup_name]), self.setup_deck,
            row(list(self.setup_toggles.values())), self.setup_quiz, row([self.setup_seed, self.new_button]),
            widgets.HTML(f"<span class='railkit-muted'>{tr('The same game number and options deal the same game. The options are explained on the rulings page.')}</span>"),
        ])

    def _sync_setup(self) -> None:
        bots = self.setup_mode.value == VS_BOTS
        self.setup_name.layout.display = None if bots else "none"
        n = int(self.setup_players.value)
        self.setup_hint.value = (tr("you and {k} computer players", k=n - 1) if bots
                                 else tr("all at this screen"))

    def _build_controls(self) -> widgets.Widget:
        wide = {"description_width": "110px"}
        full = widgets.Layout(width="470px")
        # UP-S5
        self.first_pick = widgets.Dropdown(options=[], value=None, description=tr("Share"), style=wide, layout=full)
        self.first_pick.add_class("railkit-first-pick")
        self.lay_button = widgets.Button(description=tr("Lay it face down (UP-S5)"), icon="hand-paper-o",
                                         button_style="primary", layout=widgets.Layout(width="auto"))
        self.lay_button.add_class("railkit-lay")
        self.lay_button.on_click(lambda _b: self.on_lay_first())
        self.first_panel = widgets.VBox([
            widgets.HTML(tr("<b>Your first investment (UP-S5).</b> Choose one of your five shares; everybody "
                            "chooses at the same time and all are turned over together.")),
            self.first_pick, self.lay_button])
        # UP-T2
        self.unusable_pick = widgets.Dropdown(options=[], value=None, description=tr("Unusable"), style=wide,
                                              layout=widgets.Layout(width="300px"))
        self.unusable_pick.add_class("railkit-unusable")
        self.swap_button = widgets.Button(description=tr("Swap it (UP-T2)"), icon="exchange",
                                          layout=widgets.Layout(width="auto"))
        self.swap_button.add_class("railkit-swap")
        self.swap_button.on_click(lambda _b: self.on_swap_unusable())
        self.unusable_row = widgets.VBox([
            widgets.HTML(tr("A track card no empty space can take any more may be swapped for a new one, once, "
                            "before you act (UP-T2).")),
            row([self.unusable_pick, self.swap_button])])
        # UP-T3: build, invest or pass
        self.mode = widgets.ToggleButtons(options=[], value=None, style={"button_width": "150px"})
        self.mode.add_class("railkit-action-mode")
        self.mode.observe(lambda _c: self.on_mode(), names="value")
        self.card = widgets.ToggleButtons(options=[], value=None, description=tr("Track card"),
                                          style={**wide, "button_width": "auto"})
        self.card.add_class("railkit-card")
        self.company = widgets.Dropdown(options=[], value=None, description=tr("Company"), style=wide, layout=full)
        self.company.add_class("railkit-company")
        self.section = widgets.Dropdown(options=[], value=None, description=tr("Section"), style=wide, layout=full)
        self.section.add_class("railkit-section")
        for w in (self.card, self.company, self.section):
            w.observe(lambda _c: self.on_choice(), names="value")
        self.build_hint = widgets.HTML("")
        self.build_hint.add_class("railkit-legal")
        self.build_button = widgets.Button(description=tr("Build"), icon="train", button_style="primary",
                                           tooltip=tr("Play the card and place the train (UP-B1, UP-B2)"))
        self.build_button.add_class("railkit-build")
        self.build_button.on_click(lambda _b: self.on_build())
        self.checklist = widgets.HTML("")
        self.checklist.add_class("railkit-checklist-box")
        self.build_box = widgets.VBox([self.card, self.company, self.build_hint, self.section, self.build_button,
                                       self.checklist])
        self.invest_pick = widgets.Dropdown(options=[], value=None, description=tr("Shares"), style=wide,
                                            layout=full)
        self.invest_pick.add_class("railkit-invest-pick")
        self.invest_discard = widgets.Dropdown(options=[], value=None, description=tr("Discard"), style=wide,
                                               layout=widgets.Layout(width="320px"))
        self.invest_discard.add_class("railkit-invest-discard")
        self.invest_button = widgets.Button(description=tr("Invest"), icon="money", button_style="primary",
                                            tooltip=tr("Lay the shares on the table and discard the track card "
                                                       "(UP-I1..UP-I3)"))
        self.invest_button.add_class("railkit-invest")
        self.invest_button.on_click(lambda _b: self.on_invest())
        self.invest_hint = widgets.HTML("")
        self.invest_box = widgets.VBox([
            self.invest_hint, self.invest_pick, self.invest_discard, self.invest_button])
        self.pass_discard = widgets.Dropdown(options=[], value=None, description=tr("Discard"), style=wide,
                                             layout=widgets.Layout(width="320px"))
        self.pass_discard.add_class("railkit-pass-discard")
        self.pass_button = widgets.Button(description=tr("Pass"), icon="step-forward", button_style="warning")
        self.pass_button.add_class("railkit-pass")
        self.pass_button.on_click(lambda _b: self.on_pass())
        self.pass_box = widgets.VBox([
            widgets.HTML(tr("You can neither build (no legal placement for your cards) nor invest (no share in "
                            "hand): discard one track card and pass (UP-T4, a railkit ruling).")),
            self.pass_discard, self.pass_button])
        self.action_panel = widgets.VBox([self.unusable_row, self.mode, self.build_box, self.invest_box,
                                          self.pass_box])
        # UP-B3
        self.draw_buttons: dict[str, widgets.Button] = {}
        for source in DRAW_SOURCES:
            button = widgets.Button(description="", layout=widgets.Layout(width="auto"))
            button.add_class("railkit-draw-" + source.replace(":", "-"))
            button.on_click(lambda _b, s=source: self.on_draw(s))
            self.draw_buttons[source] = button
        self.draw_hint = widgets.HTML("")
        draw_grid = row(list(self.draw_buttons.values()))
        draw_grid.add_class("railkit-draw")
        self.draw_panel = widgets.VBox([self.draw_hint, draw_grid])
        # UP-B4 / UP-B6
        self.exchange_pick = widgets.Dropdown(options=[], value=None, description=tr("Share"), style=wide,
                                              layout=full)
        self.exchange_pick.add_class("railkit-exchange-pick")
        self.exchange_button = widgets.Button(description=tr("Exchange for a UP share (UP-B4)"), icon="refresh",
                                              layout=widgets.Layout(width="auto"))
        self.exchange_button.add_class("railkit-exchange")
        self.exchange_button.on_click(lambda _b: self.on_exchange())
        self.end_button = widgets.Button(description=tr("End my turn (UP-B6)"), icon="check", button_style="success",
                                         layout=widgets.Layout(width="auto"))
        self.end_button.add_class("railkit-end-turn")
        self.end_button.on_click(lambda _b: self.on_end_turn())
        self.exchange_panel = widgets.VBox([
            widgets.HTML(tr("You may swap one share in hand for a Union Pacific share from the stack; the swapped "
                            "card leaves the game face down (UP-B4). Or simply end your turn (UP-B6).")),
            self.exchange_pick, row([self.exchange_button, self.end_button])])
        self.waiting = widgets.HTML("")
        self.waiting.add_class("railkit-waiting")
        box = widgets.VBox([self.first_panel, self.action_panel, self.draw_panel, self.exchange_panel,
                            self.waiting])
        box.add_class("railkit-controls")
        box.add_class("railkit-panel")
        return box

    def _build_exercise(self) -> widgets.Widget:
        self.quiz_html = widgets.HTML("")
        self.quiz_html.add_class("railkit-quiz")
        self.quiz_answer = widgets.Text(value="", placeholder=tr("millions"), description=tr("Your answer"),
                                        style={"description_width": "110px"}, layout=widgets.Layout(width="260px"))
        self.quiz_answer.add_class("railkit-quiz-answer")
        self.quiz_check = widgets.Button(description=tr("Check"), icon="check", button_style="success")
        self.quiz_check.add_class("railkit-quiz-check")
        self.quiz_check.on_click(lambda _b: self.on_quiz_check())
        self.quiz_skip = widgets.Button(description=tr("Show the answer"), icon="eye",
                                        layout=widgets.Layout(width="auto"))
        self.quiz_skip.add_class("railkit-quiz-skip")
        self.quiz_skip.on_click(lambda _b: self.on_quiz_skip())
        self.quiz_feedback = widgets.HTML("")
        self.quiz_feedback.add_class("railkit-quiz-feedback")
        self.quiz_inputs = row([self.quiz_answer, self.quiz_check, self.quiz_skip])
        self.quiz_close = widgets.Button(description=tr("Close the exercise"), icon="times",
                                         layout=widgets.Layout(width="auto"))
        self.quiz_close.add_class("railkit-quiz-close")
        self.quiz_close.on_click(lambda _b: self.on_quiz_close())
        box = widgets.VBox([widgets.HTML(f"<h4>{tr('Exercise: a payout (UP-D3..UP-D11)')}</h4>"), self.quiz_html,
                            self.quiz_inputs, self.quiz_feedback, row([self.quiz_close])],
                           layout=widgets.Layout(display="none"))
        box.add_class("railkit-panel")
        box.add_class("railkit-exercise")
        return box

    def _build_saveload(self) -> widgets.Widget:
        self.save_button = widgets.Button(description=tr("Save"), icon="download", button_style="info",
                                          tooltip=tr("Write this game into the box below and offer it as a file"))
        self.save_button.add_class("railkit-save")
        self.save_button.on_click(lambda _b: self.on_save())
        self.load_button = widgets.Button(description=tr("Load"), icon="upload", button_style="warning",
                                          tooltip=tr("Replace this game by the one pasted in the box below"))
        self.load_button.add_class("railkit-load")
        self.load_button.on_click(lambda _b: self.on_load())
        self.download = widgets.HTML("")
        self.download.add_class("railkit-download")
        self.save_area = widgets.Textarea(value="", placeholder=tr("Press Save to get this game as text, or paste "
                                                                    "a saved game here and press Load."),
                                          layout=widgets.Layout(width="100%", height="120px"))
        self.save_area.add_class("railkit-save-area")
        return widgets.VBox([
            widgets.HTML(tr("A saved game is the list of moves from a numbered deal; loading replays it, so the "
                            "same game comes back exactly.")),
            row([self.save_button, self.load_button, self.download]), self.save_area])

    def _legend_html(self) -> str:
        items = [
            (tr("New game and options"), tr("against 1–5 computer players or hot seat; the share deck (UP-S7, "
                                            "UP-S7-FI, UP-V1) and the variants, each with its rule ID; the same "
                                            "game number deals the same game")),
            (tr("Show my hand"), tr("hot seat only: hands are secret, so the player to act shows theirs when the "
                                    "others look away; it hides again when the turn passes")),
            (tr("Your hand"), tr("your track cards and the shares in your hand; only shares on the table count "
                                 "at a payout (UP-I4)")),
            (tr("The step chips"), tr("where you are in a turn: track card (UP-T1), build or invest (UP-T3), "
                                      "draw a share (UP-B3), exchange or end (UP-B4, UP-B6)")),
            (tr("Build"), tr("choose a track card, then a company (✔ marks those with a legal section for that "
                             "card), then a section (legal ones first, ✔). The yellow band on the map shows the "
                             "legal sections, the blue band your section, and the checklist says why (UP-B2a–f)")),
            (tr("Invest"), tr("the share combinations the rules allow (UP-I1) and the track card to discard "
                              "(UP-I3)")),
            (tr("Draw, exchange, end turn"), tr("after a build: take a display card, the deck's top card or a UP "
                                                "share (UP-B3); then swap a share for UP (UP-B4) or end (UP-B6)")),
            (tr("Map"), tr("trains in company colours (squares on starting spaces), empty spaces as open circles, "
                           "headquarters as stars; drag to pan, scroll to zoom, hover for names")),
            (tr("Players, companies"), tr("money (if public, UP-D13), hand sizes, company values (trains + 1, "
                                          "UP-D2), trains left, shares on the table; the most shares of each "
                                          "company in yellow")),
            (tr("Latest moves, payouts, log"), tr("everything that happened since your last move, every payout "
                                                  "with its breakdown, and the whole game in words")),
            (tr("Exercise"), tr("after each payout: type how much one company paid, then Check; the breakdown "
                                "appears after your answer")),
            (tr("Undo, Save, Load"), tr("undo goes back to just before your last move; Save gives the game as "
                                        "text and as a file; Load replays a pasted game (a broken one is "
                                        "refused and nothing changes)")),
        ]
        rows = "".join(f"<li><b>{html.escape(k)}</b> — {html.escape(v)}</li>" for k, v in items)
        return f"<details open><summary><b>{tr('Legend')}</b></summary><ul>{rows}</ul></details>"

    # ================================================================== who acts, who sees
    @property
    def you(self) -> str | None:
        """The learner's name when playing against the computer; None in hot seat."""
        return None if self.hot_seat or not self.humans else self.humans[0]

    @property
    def acting(self) -> str | None:
        """The human who must act now (None: game over, or computer players paused)."""
        game = self.game
        if game is None or game.is_over or self.bots_paused:
            return None
        for p in game.players_to_act():
            if p in self.humans:
                return p
        return None

    def viewer(self) -> str | None:
        """Whose secret information the screen may show now."""
        if not self.hot_seat:
            return self.you
        acting = self.acting
        return acting if acting is not None and self.hand_for == acting else None

    def _controls_visible(self) -> bool:
        acting = self.acting
        return acting is not None and (not self.hot_seat or self.hand_for == acting)

    # ================================================================== starting, bots, acting
    @guarded
    def on_new_game(self) -> bool:
        mode = self.setup_mode.value
        n = int(self.setup_players.value)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InputError(tr("Choose 2 to 6 players."))
        seed_text = str(self.setup_seed.value).strip()
        seed = (parse_whole(seed_text, tr("Game number"), minimum=0, maximum=999_999_999) if seed_text
                else self.rng.randrange(1, 1_000_000))
        options = {key: bool(box.value) for key, box in self.setup_toggles.items()}
        options["deck"] = self.setup_deck.value
        if mode == VS_BOTS:
            name = " ".join(str(self.setup_name.value).split())
            if not name:
                raise InputError(tr("“Your name” is empty: type the name the game should call you."))
            if len(name) > MAX_NAME:
                raise InputError(tr("“Your name” is too long: at most {n} characters.", n=MAX_NAME))
            bots = [b for b in BOT_NAMES if b.lower() != name.lower()][: n - 1]
            players = [name, *bots]
            humans = (name,)
        else:
            players = [tr("Player {i}", i=i) for i in range(1, n + 1)]
            humans = tuple(players)
        game = new_game(players, seed=seed, **options)  # a RuleError here changes nothing
        self._install(game, humans)
        self.setup.selected_index = None
        who = (tr("you against {bots}", bots=", ".join(players[1:])) if mode == VS_BOTS
               else tr("hot seat for {n} players", n=n))
        self.show_info(tr("Game {number} started: {who}; {deck}. {next}", number=seed, who=who,
                          deck=option_name(options["deck"], options["safe_round"], in_sentence=True),
                          next=self._next_words()))
        return True

    def _install(self, game: Any, humans: Sequence[str]) -> None:
        """Make ``game`` the game on screen; the other seats become computer players."""
        self.game = game
        self.humans = tuple(humans)
        self.hot_seat = len(self.humans) > 1
        self.bots = {p: HeuristicBot(game.seed + i) for i, p in enumerate(game.players) if p not in self.humans}
        self.hand_for = None
        self.undo_button.description = tr("Undo the last move") if self.hot_seat else tr("Undo my last move")
        self.question = None
        self.hidden_payouts = set()
        self.recent_from = self.mine_from = len(game.narrative)
        self._controls_key = None
        self._map_key = None
        self.quiz_feedback.value = ""
        before = len(game.payout_history)
        self._run_bots()
        self._after_change(before)

    def _run_bots(self) -> int:
        """Computer players move until a human must act (at most MAX_BOT_ACTIONS moves)."""
        game, moves = self.game, 0
        self.bots_paused = False
        while not game.is_over:
            bot = next((p for p in game.players_to_act() if p in self.bots), None)
            if bot is None:
                break
            if moves >= MAX_BOT_ACTIONS:
                self.bots_paused = True
                break
            game.apply(self.bots[bot].choose(game, bot))  # bots choose among the legal actions
            moves += 1
        return moves

    def _acting_or_error(self) -> str:
        game = self.game
        if game is None:
            raise InputError(tr("Start a game first (New game and options)."))
        if game.is_over:
            raise InputError(tr("The game is over. Start a new game to play again."))
        if self.bots_paused:
            raise InputError(tr("The computer players are still moving: press “Let the computer players go on”."))
        acting = self.acting
        if acting is None:
            raise InputError(tr("It is not a human player's turn."))
        if self.hot_seat and self.hand_for != acting:
            raise InputError(tr("{player}: press “Show my hand” first (the others look away).", player=acting))
        return acting

    def _human_act(self, action: Any) -> list[str]:
        """Apply a human move (a RuleError leaves everything as it was), then let the bots move."""
        game = self.game
        before_payouts = len(game.payout_history)
        mark = len(game.narrative)
        new_turn = game.view(None)["step"] in ("first_share", "action")
        events = game.apply(action)
        if new_turn:  # “Latest moves” runs from the start of this player's turn
            self.recent_from = mark
        self.mine_from = mark + len(events)
        self._run_bots()
        self._after_change(before_payouts)
        return events

    def _after_change(self, before_payouts: int) -> None:
        """New payouts get the exercise; then everything on screen is brought up to date."""
        records = self.game.payout_history
        self.new_payout = len(records) > before_payouts
        if self.new_payout and self.setup_quiz.value:
            if self.question is not None:  # an unanswered question is replaced: show its breakdown
                self.hidden_payouts.discard(self.question.number)
            question = make_question(self.board, records[-1], self.game.view(None)["payouts_total"],
                                     self.humans, self.rng, self.you)
            self.question = question
            if question is not None:
                self.hidden_payouts.add(question.number)
                self.quiz_answer.value = ""
                self.quiz_feedback.value = ""
        if self.hot_seat and self.hand_for != self.acting:
            self.hand_for = None
        self.refresh()

    def _next_words(self) -> str:
        game = self.game
        if game.is_over:
            return self._final_words()
        acting = self.acting
        if acting is None:
            return tr("The computer players are still moving.")
        step = self._step_words(game.view(None)["step"])
        if self.hot_seat:
            if self.hand_for == acting:
                return tr("{player}: {step}.", player=acting, step=step)
            return tr("{player} to play: pass them the screen; they press “Show my hand”.", player=acting)
        return tr("Your move: {step}.", step=step)

    @staticmethod
    def _step_words(step: str) -> str:
        return {
            "first_share": tr("choose a first share to lay face down (UP-S5)"),
            "action": tr("build, invest or pass (UP-T3)"),
            "draw": tr("draw a share (UP-B3)"),
            "exchange": tr("exchange a share for a UP share (UP-B4) or end the turn (UP-B6)"),
        }.get(step, tr("the game is over (UP-D12)"))

    def _final_words(self) -> str:
        result = self.game.result()
        money = result["money"]
        winners = result["winners"]
        best = money[winners[0]] if winners else 0
        if len(winners) == 1:
            winner = winners[0]
            if winner == self.you:
                return tr("The game is over (UP-D12): you win with {m} million!", m=best)
            return tr("The game is over (UP-D12): {winner} wins with {m} million.", winner=winner, m=best)
        return tr("The game is over (UP-D12): {winners} share the win with {m} million each (a railkit ruling).",
                  winners=(" " + tr("and") + " ").join(winners), m=best)

    def _report(self, player: str, events: Sequence[str]) -> None:
        """The message after a human move: what the move did (the engine's words), then what comes next."""
        own = [e for e in events if e.startswith(player)]
        first = own[0] if own else tr("{player} ends the turn (UP-B6).", player=player)
        text = (first + " " if first else "") + self._next_words()
        if self.game.is_over:
            self.show_ok(text)
        elif self.new_payout and self.question is not None and self.question.number in self.hidden_payouts:
            self.show_info(tr("{events} A payout has been paid: answer the exercise above before you look at "
                              "its breakdown.", events=first))
        else:
            self.show_ok(text)

    # ================================================================== move callbacks
    @guarded
    def on_lay_first(self) -> bool:
        player = self._acting_or_error()
        card = self.first_pick.value
        if card is None:
            raise InputError(tr("Choose one of your five shares first (UP-S5)."))
        self._report(player, self._human_act(ChooseFirstShare(player, card)))
        return True

    @guarded
    def on_swap_unusable(self) -> bool:
        player = self._acting_or_error()
        card = self.unusable_pick.value
        if card is None:
            raise InputError(tr("Choose the unusable track card to swap (UP-T2)."))
        self._report(player, self._human_act(DiscardUnusable(player, card)))
        return True

    @guarded
    def on_build(self) -> bool:
        player = self._acting_or_error()
        card, company, section = self.card.value, self.company.value, self.section.value
        if card is None:
            raise InputError(tr("Pick a track card first: it sets the track type (UP-B1)."))
        if company is None:
            raise InputError(tr("Pick a company: whose train do you place? (UP-B2)"))
        if section is None:
            raise InputError(tr("Pick a section: where should the train go? (UP-B2)"))
        self._report(player, self._human_act(Build(player, card, company, section)))
        return True

    @guarded
    def on_invest(self) -> bool:
        player = self._acting_or_error()
        cards, discard = self.invest_pick.value, self.invest_discard.value
        if cards is None:
            raise InputError(tr("Pick the shares to lay on the table (UP-I1)."))
        if discard is None:
            raise InputError(tr("Pick the track card to discard (UP-I3)."))
        self._report(player, self._human_act(Invest(player, tuple(cards), discard)))
        return True

    @guarded
    def on_pass(self) -> bool:
        player = self._acting_or_error()
        discard = self.pass_discard.value
        if discard is None:
            raise InputError(tr("Pick the track card to discard (UP-T4)."))
        self._report(player, self._human_act(Pass(player, discard)))
        return True

    @guarded
    def on_draw(self, source: str) -> bool:
        player = self._acting_or_error()
        self._report(player, self._human_act(DrawShare(player, source)))
        return True

    @guarded
    def on_exchange(self) -> bool:
        player = self._acting_or_error()
        card = self.exchange_pick.value
        if card is None:
            raise InputError(tr("Pick the share to exchange for a Union Pacific share (UP-B4)."))
        self._report(player, self._human_act(ExchangeForUP(player, card)))
        return True

    @guarded
    def on_end_turn(self) -> bool:
        player = self._acting_or_error()
        self._report(player, self._human_act(EndTurn(player)))
        return True

    @guarded
    def on_continue(self) -> None:
        if self.game is None or not self.bots_paused:
            raise InputError(tr("The computer players have nothing left to do: it is a human's turn."))
        before = len(self.game.payout_history)
        self.recent_from = len(self.game.narrative)
        self._run_bots()
        self._after_change(before)
        self.show_info(self._next_words())

    @guarded
    def on_show_hand(self) -> None:
        acting = self.acting
        if not self.hot_seat or acting is None:
            raise InputError(tr("There is no hidden hand to show now."))
        self.hand_for = None if self.hand_for == acting else acting
        self.refresh()
        self.show_info(self._next_words())

    # ================================================================== undo, save, load
    def _undo_point(self) -> int | None:
        for i in range(len(self.game.log) - 1, -1, -1):
            if self.game.log[i].player in self.humans:
                return i
        return None

    @guarded
    def on_undo(self) -> bool:
        if self.game is None:
            raise InputError(tr("Start a game first."))
        point = self._undo_point()
        if point is None:
            raise InputError(tr("There is nothing to undo: no human move has been made yet."))
        game = self.game.replay(point)  # the engine rebuilds the game from its log
        self.game = game
        self.bots_paused = False
        done = len(game.payout_history)
        if self.question is not None and self.question.number > done:
            self.question = None
        self.hidden_payouts = {n for n in self.hidden_payouts if n <= done}
        self.recent_from = self.mine_from = min(self.recent_from, len(game.narrative))
        self.hand_for = None
        self._controls_key = None
        self.refresh()
        self.show_info(tr("Undone: back to just before the last move by {player}. {next}",
                          player=self.acting or "", next=self._next_words()))
        return True

    def save_text(self) -> str:
        data = self.game.to_dict()
        data[SEATS_KEY] = {"humans": list(self.humans)}
        return json.dumps(data)

    @guarded
    def on_save(self) -> str:
        if self.game is None:
            raise InputError(tr("Start a game first."))
        text = self.save_text()
        self.save_area.value = text
        payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
        filename = f"union_pacific_game_{self.game.seed}_move_{len(self.game.log)}.json"
        self.download.value = (f"<a download='{filename}' href='data:application/json;base64,{payload}'>"
                               f"{tr('Download as a file')}</a>")
        self.show_ok(tr("Saved after {n} moves: the game is in the box below, and “Download as a file” keeps a "
                        "copy. Paste it back and press Load to continue later.", n=len(self.game.log)))
        return text

    @guarded
    def on_load(self) -> bool:
        raw = self.save_area.value.strip()
        if not raw:
            raise InputError(tr("The box is empty: paste a saved game into it, then press Load."))
        if len(raw) > MAX_SAVE_CHARS:
            raise InputError(tr("That text is far too long to be a saved game. Nothing was changed."))
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(tr("That is not a saved game: the text is not valid JSON ({error}). Nothing was "
                                "changed.", error=str(exc))) from None
        if not isinstance(data, dict):
            raise InputError(tr("That is not a saved game: it should be one JSON object. Nothing was changed."))
        options = data.get("options")
        if isinstance(options, dict) and options.get("board") is not None:
            raise InputError(tr("This save uses its own board file; only the shipped board can be loaded here. "
                                "Nothing was changed."))
        try:
            game = load_game(data)
        except SaveFileError as exc:
            raise InputError(tr("This save cannot be loaded: {error}. Nothing was changed.", error=str(exc))) from None
        except Exception as exc:  # noqa: BLE001 - any broken save is refused the same way
            raise InputError(tr("This save cannot be loaded ({error}). Nothing was changed.",
                                error=str(exc) or type(exc).__name__)) from None
        seats = data.get(SEATS_KEY)
        humans: tuple[str, ...] = tuple(game.players)
        if isinstance(seats, dict) and isinstance(seats.get("humans"), list):
            named = tuple(h for h in seats["humans"] if isinstance(h, str) and h in game.players)
            if named:
                humans = named
        self._install(game, humans)
        self.show_ok(tr("Loaded: {n} moves replayed. {next}", n=len(game.log), next=self._next_words()))
        return True

    # ================================================================== payout exercise
    @guarded
    def on_quiz_check(self) -> bool:
        q = self.question
        if q is None:
            raise InputError(tr("There is no payout question now; one comes with the next payout."))
        typed = parse_whole(self.quiz_answer.value, tr("Your answer"), minimum=0, maximum=1000)
        right = typed == q.answer
        if q.number in self.hidden_payouts:  # the first answer counts for the score
            self.quiz_score[1] += 1
            self.quiz_score[0] += int(right)
        self._reveal(q, typed)
        if right:
            self.show_ok(tr("Right! The whole payout is now shown below."))
        else:
            self.show_info(tr("Not quite: the steps below show how the amount comes about."))
        return right

    @guarded
    def on_quiz_skip(self) -> None:
        q = self.question
        if q is None:
            raise InputError(tr("There is no payout question now."))
        self._reveal(q, None)
        self.clear_message()

    @guarded
    def on_quiz_close(self) -> None:
        q = self.question
        if q is not None and q.number in self.hidden_payouts:
            raise InputError(tr("Answer the question first, or press “Show the answer”."))
        self.question = None
        self.refresh()
        self.clear_message()

    def _reveal(self, q: PayoutQuestion, typed: int | None) -> None:
        record = next(r for r in self.game.payout_history if r.number == q.number)
        explanation = record.explanations[q.index]
        if typed is None:
            verdict = tr("The answer is {answer}.", answer=q.answer)
        elif typed == q.answer:
            verdict = f"<span class='railkit-right'>✔ {tr('right')}: {q.answer}</span>"
        else:
            verdict = (f"<span class='railkit-wrong'>✘ {tr('wrong')}</span> "
                       f"{tr('You typed {typed}; the right amount is {answer}.', typed=typed, answer=q.answer)}")
        score = tr("Payout exercise: {right} of {total} right.", right=self.quiz_score[0], total=self.quiz_score[1])
        self.quiz_feedback.value = f"<p>{verdict} <span class='railkit-muted'>{score}</span></p>{steps_html(explanation)}"
        self.hidden_payouts.discard(q.number)
        self.refresh()

    # ================================================================== showing
    def refresh(self) -> None:
        """Bring every panel up to date with the game (values changed in place; the map only if needed)."""
        game = self.game
        if game is None:
            return
        acting = self.acting
        v = game.view(self.viewer())
        self._refresh_status(v, acting)
        self._refresh_hand(v, acting)
        self._refresh_controls(v, acting)
        self._refresh_tables(v, acting)
        self._refresh_events()
        self._refresh_payouts(v)
        self._refresh_exercise()
        self._refresh_result()
        if self.log_box.selected_index == 0:
            self._refresh_log()
        has_human_move = any(a.player in self.humans for a in game.log)
        self.undo_button.disabled = not has_human_move
        self.continue_button.layout.display = None if self.bots_paused else "none"
        self._draw_map(v)

    @staticmethod
    def _set(widget: Any, value: Any) -> None:
        if widget.value != value:
            widget.value = value

    @staticmethod
    def _display(widget: Any, shown: bool) -> None:
        want = None if shown else "none"
        if widget.layout.display != want:
            widget.layout.display = want

    def _refresh_status(self, v: Mapping[str, Any], acting: str | None) -> None:
        game = self.game
        step = v["step"]
        if game.is_over:
            who = tr("The game is over (UP-D12).")
        elif acting is None:
            who = tr("The computer players are moving.")
        else:
            name = tr("You") if acting == self.you else html.escape(acting)
            who = f"<span class='who'>{name}</span>: {html.escape(self._step_words(step))}"
        parts = [tr("Game {n}", n=game.seed), tr("Turn {n}", n=v["turn"]) if v["turn"] else tr("Setup"),
                 tr("Payouts {done} of {total}", done=v["payouts_done"], total=v["payouts_total"]),
                 tr("UP stack {n}", n=v["up_stack"]),
                 (tr("Share deck {n} cards (UP-V3)", n=v["deck_count"]) if v["deck_count"] is not None
                  else tr("Share deck not counted (UP-V3 off)")),
                 tr("Track pile {n}", n=v["track_pile_count"])]
        order = " → ".join(html.escape(p) for p in game.players)
        self._set(self.status, f"<div><b>{who}</b></div><div class='railkit-muted'>{' · '.join(parts)}"
                               f" · {tr('Seats')}: {order}</div>")
        chips = [("UP-S5", tr("First share"))] if step == "first_share" else [
            ("UP-T1", tr("Track card drawn")), ("UP-T2", tr("Swap unusable (optional)")),
            ("UP-T3", tr("Build or invest")), ("UP-B3", tr("Draw a share")), ("UP-B4", tr("Exchange or end"))]
        current = {"first_share": 0, "action": 2, "draw": 3, "exchange": 4}.get(step, -1)
        if step == "over":
            self._set(self.steps, "")
        else:
            items = "".join(
                f"<li class='{'current' if i == current else ('done' if i < current else '')}'>"
                f"{rule} {html.escape(name)}</li>" for i, (rule, name) in enumerate(chips))
            self._set(self.steps, f"<ol class='railkit-chips'>{items}</ol>")
        if self.hot_seat and acting is not None:
            self._display(self.hotseat_bar, True)
            shown = self.hand_for == acting
            self.show_hand_button.description = (tr("Hide my hand") if shown
                                                  else tr("Show my hand ({player})", player=acting))
            self.show_hand_button.icon = "eye-slash" if shown else "eye"
            self._set(self.handoff, "" if shown else tr(
                "<b>{player}</b> plays next. Hands are secret: the others look away, then {player} presses "
                "“Show my hand”.", player=html.escape(acting)))
        else:
            self._display(self.hotseat_bar, False)

    def _refresh_hand(self, v: Mapping[str, Any], acting: str | None) -> None:
        viewer = v["you"]
        if viewer is None:
            if self.game.is_over:
                text = f"<h4>{tr('Hands')}</h4><p>{tr('The game is over; cards in hand are worth nothing (UP-D12).')}</p>"
            else:
                text = (f"<h4>{tr('Hands are secret')}</h4><p>{tr('Each player sees their own hand only when it is their turn, after “Show my hand”.')}</p>")
            self._set(self.hand, text)
            return
        hand = v["hand"]
        owner = tr("Your hand") if viewer == self.you else tr("{player}'s hand", player=html.escape(viewer))
        track = [html.escape(card_label(self.board, c)) + (f" ×{n}" if n > 1 else "") for c, n in hand["track"].items()]
        shares = [company_html(self.board, k) + (f" ×{n}" if n > 1 else "") for k, n in hand["shares"].items()]
        track_label = f"<b>{tr('Track cards')}</b>"
        shares_label = f"<b>{tr('Shares')}</b>"
        first = ""
        if v.get("my_first_share"):
            first = (f"<p>{tr('Your first share, face down until everyone has chosen:')} "
                     f"{company_html(self.board, v['my_first_share'])}</p>")
        self._set(self.hand, (
            f"<h4>{owner}</h4>"
            f"{cards_html([track_label] + (track or [tr('none')]), plain_first=True)}"
            f"{cards_html([shares_label] + (shares or [tr('none')]), plain_first=True)}"
            f"<div class='railkit-muted'>{tr('Shares in hand count for nothing until laid on the table (UP-I4).')}</div>"
            f"{first}"))

    # ------------------------------------------------------------------ the move controls
    def _refresh_controls(self, v: Mapping[str, Any], acting: str | None) -> None:
        game = self.game
        visible = self._controls_visible()
        step = v["step"]
        actions = game.legal_actions(acting) if visible else []
        self._display(self.first_panel, visible and step == "first_share")
        self._display(self.action_panel, visible and step == "action")
        self._display(self.draw_panel, visible and step == "draw")
        self._display(self.exchange_panel, visible and step == "exchange")
        if game.is_over:
            waiting = tr("The game is over. Open “New game and options” to play again.")
        elif self.bots_paused:
            waiting = tr("The computer players have made many moves; press “Let the computer players go on”.")
        elif acting is not None and not visible:
            waiting = tr("Waiting for {player} to show their hand.", player=html.escape(acting))
        else:
            waiting = ""
        self._set(self.waiting, waiting)
        self._display(self.waiting, bool(waiting))
        if not visible:
            return
        key = (len(game.log), acting)
        fresh = key != self._controls_key
        self._controls_key = key
        self._quiet += 1
        try:
            if step == "first_share":
                self._fill_first(v, actions, fresh)
            elif step == "action":
                self._fill_action(v, actions, fresh)
            elif step == "draw":
                self._fill_draw(v, actions)
            elif step == "exchange":
                self._fill_exchange(v, actions, fresh)
        finally:
            self._quiet -= 1
        if step == "action":
            self._refresh_build(v)

    @staticmethod
    def _set_options(widget: Any, options: list[tuple[str, Any]], fresh: bool, default: Any = None) -> None:
        """New options for a picker; keep the current choice unless a new move starts (then ``default``,
        or nothing chosen)."""
        keep = widget.value
        if tuple(widget.options) != tuple(options):
            widget.options = options
        values = [value for _, value in options]
        if fresh:
            PlayApp._choose(widget, default if default in values else None)
        else:
            PlayApp._choose(widget, keep if keep in values else None)

    @staticmethod
    def _choose(widget: Any, value: Any) -> None:
        """Select ``value``; None selects a leading “— pick … —” option when there is one, so it shows."""
        options = list(widget.options)
        if value is None and options and options[0][1] is None:
            if widget.index != 0:
                widget.index = 0
        elif widget.value != value or (value is None and widget.index is not None):
            widget.value = value

    def _fill_first(self, v: Mapping[str, Any], actions: list[Any], fresh: bool) -> None:
        hand = v["hand"]["shares"]
        options = [(tr("— pick a share —"), None)] + [
            (company_name(self.board, a.card) + (f" (× {hand[a.card]})" if hand.get(a.card, 0) > 1 else ""), a.card)
            for a in actions if isinstance(a, ChooseFirstShare)]
        self._set_options(self.first_pick, options, fresh)

    def _fill_action(self, v: Mapping[str, Any], actions: list[Any], fresh: bool) -> None:
        board = self.board
        unusable = [a.card for a in actions if isinstance(a, DiscardUnusable)]
        self._display(self.unusable_row, bool(unusable))
        self._set_options(self.unusable_pick, [(card_label(board, c), c) for c in unusable], fresh,
                          default=unusable[0] if unusable else None)
        builds = [a for a in actions if isinstance(a, Build)]
        invests = [a for a in actions if isinstance(a, Invest)]
        passes = [a for a in actions if isinstance(a, Pass)]
        if passes:
            modes = [(tr("Pass (UP-T4)"), "pass")]
        else:
            modes = [(tr("Build (UP-B)"), "build"), (tr("Invest (UP-I)"), "invest")]
        self._set_options(self.mode, modes, fresh, default="pass" if passes else ("build" if builds else "invest"))
        track = v["hand"]["track"]
        # build: cards in hand, companies (✔ with a legal section for the chosen card), sections
        self._set_options(self.card, [(card_label(board, c) + (f" ×{n}" if n > 1 else ""), c)
                                      for c, n in track.items()], fresh)
        self.card.tooltips = [tr("Play a {card} card (UP-B1)", card=card_label(board, c)) for c in track]
        if fresh:  # a new move: nothing chosen yet
            self._choose(self.company, None)
            self._choose(self.section, None)
        # invest: the combinations UP-I1 allows, and the card to discard (UP-I3)
        combos = list(dict.fromkeys(a.cards for a in invests))
        self._set_options(self.invest_pick, [(tr("— pick shares —"), None)] + [
            (share_words(board, c), c) for c in combos], fresh)
        discards = list(dict.fromkeys(a.discard for a in invests))
        self._set_options(self.invest_discard, [(tr("— pick a track card —"), None)] + [
            (card_label(board, c), c) for c in discards], fresh)
        self._set(self.invest_hint, tr("Lay any number of shares of one company, or one share each of two "
                                       "companies, on the table (UP-I1); then discard a track card (UP-I3). "
                                       "No train, no share drawn.") if combos else
                  tr("You hold no shares, so you cannot invest now (UP-I1): build instead."))
        self._display(self.invest_pick, bool(combos))
        self._display(self.invest_discard, bool(combos))
        self._display(self.invest_button, bool(combos))
        pass_cards = list(dict.fromkeys(a.discard for a in passes))
        self._set_options(self.pass_discard, [(tr("— pick a track card —"), None)] + [
            (card_label(board, c), c) for c in pass_cards], fresh)
        self._legal_builds = builds
        self._apply_mode()

    def _apply_mode(self) -> None:
        mode = self.mode.value
        self._display(self.build_box, mode == "build")
        self._display(self.invest_box, mode == "invest")
        self._display(self.pass_box, mode == "pass")

    def _refresh_build(self, v: Mapping[str, Any]) -> None:
        """Company marks, section list and checklist for the chosen card/company/section."""
        board, game = self.board, self.game
        builds: list[Build] = getattr(self, "_legal_builds", [])
        card, company = self.card.value, self.company.value
        per_company = Counter(b.company for b in builds if b.card == card) if card is not None else Counter()
        any_card = Counter(b.company for b in builds)
        options: list[tuple[str, Any]] = [(tr("— pick a company —"), None)]
        for c in board.companies:
            n = per_company[c.key] if card is not None else any_card[c.key]
            mark = "✔ " if n else ""
            if card is not None:
                suffix = tr(" — {n} legal sections", n=n) if n else ""
            else:
                suffix = ""
            options.append((f"{mark}{c.name} ({tr(c.colour)}){suffix}", c.key))
        self._quiet += 1
        try:
            self._set_options(self.company, options, False)
            legal = [b.section for b in builds if b.card == card and b.company == company] if (
                card is not None and company is not None) else []
            ordered = sorted(board.sections.values(), key=lambda s: (s.name, s.track_type))
            legal_set = set(legal)
            first = [s for s in ordered if s.id in legal_set]
            rest = [s for s in ordered if s.id not in legal_set]
            sections = [(tr("— pick a section —"), None)] + [
                ("✔ " + section_label(board, s), s.id) for s in first] + [
                (section_label(board, s), s.id) for s in rest]
            self._set_options(self.section, sections, False)
        finally:
            self._quiet -= 1
        self.legal = legal
        if not builds:
            hint = tr("None of your track cards can place a train anywhere now: invest instead (UP-T3).")
        elif card is None:
            hint = tr("Choose a track card: it sets the track type (UP-B1). Any company may get the train (UP-B2).")
        elif company is None:
            n = sum(1 for b in builds if b.card == card)
            hint = (tr("With this card, ✔ companies have legal sections ({n} placements in all).", n=n) if n
                    else tr("This card fits no legal section for any company: pick another card."))
        elif legal:
            hint = tr("<b>{n} legal sections</b> (yellow on the map, ✔ first in the list).", n=len(legal))
        else:
            hint = tr("<b>No legal section</b> for this company with this card: pick a section to see why.")
        self._set(self.build_hint, hint)
        section = self.section.value
        if card is not None and company is not None and section is not None:
            self._set(self.checklist, checklist_html(game.explain_placement(company, section, card)))
        else:
            self._set(self.checklist, "")

    def _fill_draw(self, v: Mapping[str, Any], actions: list[Any]) -> None:
        board = self.board
        sources = {a.source for a in actions if isinstance(a, DrawShare)}
        for source, button in self.draw_buttons.items():
            self._display(button, source in sources)
            if source not in sources:
                continue
            if source.startswith("display:"):
                slot = int(source[-1])
                key = v["display"][slot]
                button.description = tr("Display {i}: {company}", i=slot + 1, company=company_name(board, key))
                colour = board.company(key).hex if key != UP else "#f5f5f5"
                button.style.button_color = colour
                button.style.text_color = text_colour(colour)
            elif source == "deck":
                button.description = tr("Top card of the share deck")
                button.style.button_color = "#455a64"
                button.style.text_color = "white"
            else:
                button.description = tr("Union Pacific stack ({n} left)", n=v["up_stack"])
                button.style.button_color = "#f5f5f5"
                button.style.text_color = "black"
        self._set(self.draw_hint, tr("<b>Draw one share (UP-B3).</b> A display card is replaced at once from the "
                                     "deck; a dividend card turned up on the way starts a payout (UP-D1)."))

    def _fill_exchange(self, v: Mapping[str, Any], actions: list[Any], fresh: bool) -> None:
        hand = v["hand"]["shares"]
        cards = [a.card for a in actions if isinstance(a, ExchangeForUP)]
        self._set_options(self.exchange_pick, [(tr("— pick a share —"), None)] + [
            (company_name(self.board, c) + (f" (× {hand[c]})" if hand.get(c, 0) > 1 else ""), c) for c in cards],
            fresh)
        self._display(self.exchange_pick, bool(cards))
        self._display(self.exchange_button, bool(cards))

    @guarded
    def on_mode(self) -> None:
        if self._quiet:
            return
        self._apply_mode()

    @guarded
    def on_choice(self) -> None:
        if self._quiet or self.game is None:
            return
        if not self._controls_visible():
            return
        v = self.game.view(self.viewer())
        self._refresh_build(v)
        self._draw_map(v)

    # ------------------------------------------------------------------ the other panels
    def _refresh_tables(self, v: Mapping[str, Any], acting: str | None) -> None:
        winners = self.game.result()["winners"] if self.game.is_over else []
        self._set(self.display, display_html(self.board, v))
        self._set(self.players_panel, players_html(v, self.humans, acting or v["current_player"], self.you, winners))
        self._set(self.companies, companies_html(self.board, v, self.you))

    def _hidden_events(self) -> set[str]:
        """Payout explanations written into the narrative: shown in the Payouts panel instead."""
        return {str(e) for r in self.game.payout_history for e in r.explanations}

    def _refresh_events(self) -> None:
        narrative = self.game.narrative
        skip = self._hidden_events()
        items = []
        for i in range(self.recent_from, len(narrative)):
            event = narrative[i]
            if event in skip:
                continue
            cls = "mine" if i < self.mine_from else ""
            items.append(f"<li class='{cls}'>{html.escape(event)}</li>")
        dropped = max(0, len(items) - RECENT_EVENTS)
        items = items[dropped:]
        more = f"<li class='railkit-muted'>{tr('… {n} earlier events in the log below', n=dropped)}</li>" if dropped else ""
        body = more + "".join(items) if items else f"<li>{tr('Nothing yet.')}</li>"
        self._set(self.recent, f"<h4>{tr('Latest moves')}</h4><ul>{body}</ul>")

    def _refresh_log(self) -> None:
        """The engine's narrative, newest first (payout breakdowns are in the Payouts panel)."""
        skip = self._hidden_events()
        events = [e for e in self.game.narrative if e not in skip]
        items = "".join(f"<li>{html.escape(e)}</li>" for e in reversed(events))
        self._set(self.log_html, f"<p class='railkit-muted'>{tr('Newest first.')}</p><ol reversed>{items}</ol>")

    @guarded
    def on_log_toggle(self) -> None:
        if self.game is not None and self.log_box.selected_index == 0:
            self._refresh_log()

    def _refresh_payouts(self, v: Mapping[str, Any]) -> None:
        records = self.game.payout_history
        total = v["payouts_total"]
        if not records:
            self._set(self.payouts, f"<h4>{tr('Payouts')}</h4><p>{tr('No payout yet. A payout comes when a dividend card leaves the share deck (UP-D1); there are {n} in this game (UP-D12, UP-2P1).', n=total)}</p>")
            return
        parts = [payout_html(r, total, r.number in self.hidden_payouts, i == len(records) - 1, self.you)
                 for i, r in enumerate(records)]
        self._set(self.payouts, f"<h4>{tr('Payouts')}</h4>" + "".join(reversed(parts)))

    def _refresh_exercise(self) -> None:
        q = self.question
        self._display(self.exercise, q is not None)
        if q is None:
            return
        self._set(self.quiz_html, q.text)
        pending = q.number in self.hidden_payouts
        self._display(self.quiz_inputs, pending)
        self._display(self.quiz_close, not pending)

    def _refresh_result(self) -> None:
        game = self.game
        if not game.is_over:
            self._set(self.result_html, "")
            self._display(self.result_html, False)
            return
        result = game.result()
        winners = result["winners"]
        rows = "".join(
            f"<tr class='{'winner' if p in winners else ''}'><td class='name'>{html.escape(p)}"
            f"{' ' + tr('(you)') if p == self.you else ''}</td><td>{m}</td>"
            f"<td class='name'>{'★ ' + tr('winner') if p in winners else ''}</td></tr>"
            for p, m in sorted(result["money"].items(), key=lambda kv: -kv[1]))
        self._set(self.result_html, (
            f"<div class='railkit-panel'><h4>{html.escape(self._final_words())}</h4>"
            f"<table class='railkit-table'><tr><th class='name'>{tr('player')}</th><th>{tr('final money (millions)')}</th>"
            f"<th></th></tr>{rows}</table><p class='railkit-muted'>{tr('Only money counts; cards in hand are worth nothing (UP-D12). Equal money shares the win (a railkit ruling).')}</p></div>"))
        self._display(self.result_html, True)

    def _draw_map(self, v: Mapping[str, Any]) -> None:
        trains = v["trains_on"]
        building = self._controls_visible() and v["step"] == "action" and self.mode.value == "build"
        card, company, section = self.card.value, self.company.value, self.section.value
        highlight = list(getattr(self, "legal", [])) if building and card is not None and company is not None else []
        selected = section if building else None
        if highlight or (building and company is not None and card is not None):
            title = tr("{company} with a {card} card: {n} legal sections",
                       company=self.board.company(company).name, card=card_label(self.board, card).lower(),
                       n=len(highlight))
        elif self.game.is_over:
            title = tr("The board at the end of the game")
        else:
            title = tr("The board, turn {n}", n=v["turn"]) if v["turn"] else tr("The board: starting trains (UP-S1)")
        key = (json.dumps(trains, sort_keys=True), tuple(highlight), selected, title)
        if key == self._map_key:
            return
        self._map_key = key
        self.map_view.show(building_map(self.board, trains, highlight, selected, title=title,
                                        highlight_name=tr("legal sections"), height=MAP_HEIGHT))

