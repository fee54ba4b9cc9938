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

This module is the app's shell: the layout, the new-game form, who acts, computer players, applying
human moves and bringing every part up to date. ``PlayApp`` is assembled from one part per idea:

* ``up_play_moves`` — the move panels (first share, swap, invest, pass, draw, exchange, end turn);
* ``up_play_build`` — the build pickers, the map and the UP-B2a–f checklist;
* ``up_play_exercise`` — the payout exercise;
* ``up_play_saves`` — undo, save and load;
* ``up_play_view`` — the status, hand, tables, latest moves, payouts, result and log;
* ``up_play_panels`` — the HTML of the panels (pure functions).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import ipywidgets as widgets

from railkit.ui.app import App, InputError, guarded, parse_whole
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import tr
from railkit.ui.setup_lesson import DECKS, option_name
from railkit.ui.up_common import LESSON_STYLE, row
from railkit.ui.up_play_build import BuildControls
from railkit.ui.up_play_exercise import PayoutExercise, PayoutQuestion
from railkit.ui.up_play_moves import MoveControls
from railkit.ui.up_play_panels import PLAY_STYLE, play_legend_html
from railkit.ui.up_play_saves import SEATS_KEY, SaveLoad
from railkit.ui.up_play_view import PlayView, set_shown
from railkit.unionpacific import Build, load_board, new_game
from railkit.unionpacific.bots import HeuristicBot

__all__ = ["MAX_BOT_ACTIONS", "SEATS_KEY", "PlayApp"]

VS_BOTS, HOT_SEAT = "bots", "hotseat"
BOT_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eva", "Finn")
DEFAULT_NAME = "Alex"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_NAME = 20
MAX_BOT_ACTIONS = 200  # per click: the page never waits for more than a moment

# (option, label, rule, default) — the engine's options (railkit.unionpacific.options) offered here.
TOGGLES: tuple[tuple[str, str, str, bool], ...] = (
    ("direct_up_draw", "UP shares may be drawn directly", "UP-B3; off: UP-B3-FI", True),
    ("safe_round", "Safe round", "UP-V2", False),
    ("countable_deck", "Deck count is public", "UP-V3", False),
    ("removed_to_bottom", "Removed shares go under the deck", "UP-V4", False),
    ("public_money", "Money is public", "UP-D13", True),
)


# -- the app ------------------------------------------------------------------------------------
class PlayApp(MoveControls, BuildControls, PayoutExercise, SaveLoad, PlayView, App):
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
        self.new_payout = False  # the last change paid out
        # the parts' state (described in each part)
        self.recent_from = self.mine_from = 0  # PlayView
        self.question: PayoutQuestion | None = None  # PayoutExercise
        self.hidden_payouts: set[int] = set()
        self.quiz_score = [0, 0]
        self._quiet = 0  # MoveControls
        self._controls_key: Any = None
        self.legal: list[str] = []  # BuildControls
        self._legal_builds: list[Build] = []
        self._map_key: Any = None
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
        self.legend = widgets.HTML(play_legend_html())
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

    # ================================================================== showing
    def refresh(self) -> None:
        """Bring every part up to date with the game (values changed in place; the map only if needed)."""
        game = self.game
        if game is None:
            return
        acting = self.acting
        v = game.view(self.viewer())
        self._refresh_status(v, acting)
        self._refresh_hand(v)
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
        set_shown(self.continue_button, self.bots_paused)
        self._draw_map(v)

    # ================================================================== starting, bots, acting
    @guarded
    def on_new_game(self) -> bool:
        mode = self.setup_mode.value
        n = int(self.setup_players.value)  # the dropdown offers 2..6 only; the engine checks UP-S8 again
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

    def _run_bots(self) -> None:
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
        new_turn = game.view(None)["phase"] in ("first_share", "action")
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
            self._ask_about(records[-1])
        if self.hot_seat and self.hand_for != self.acting:
            self.hand_for = None
        self.refresh()

    def _report(self, player: str, events: Sequence[str]) -> None:
        """The message after a human move: what the move did (the engine's words), then what comes next."""
        own = [e for e in events if e.startswith(player)]
        first = own[0] if own else tr("{player} ends the turn (UP-B6).", player=player)
        asked = self.question is not None and self.question.number in self.hidden_payouts
        if self.new_payout and asked and not self.game.is_over:
            self.show_info(tr("{events} A payout has been paid: answer the exercise above before you look at "
                              "its breakdown.", events=first))
        else:
            self.show_ok(first + " " + self._next_words())

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
