"""The “Play with others” panel's widgets (``TableWidgets``), built once: the start form (name, players, computer
players, create; code, join), the lobby, the turn, the move controls (a sealed bid's box, “Your move” and its button,
a pass's own button), the creator's seat controls, the lessons' help, the board, the table's story, the review and
the replay. ``railkit.ui.tables.table_play.TablePlayPanel`` fills them from what the server sends and answers their clicks
(its ``on_*`` methods, which it must have)."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from railkit.ui.figure_view import ROW_MAP, FigureView
from railkit.ui.game_review import GameReviewPanel
from railkit.ui.i18n import tr
from railkit.ui.records.learner import is_default_learner
from railkit.ui.tables.table_announce import Announcer
from railkit.ui.tables.table_game import TableGame
from railkit.ui.tables.table_html import TABLE_STYLE
from railkit.ui.tables.table_replay import ReplayPanel
from railkit.ui.widgets import button, html_box, row, submit_on_enter

__all__ = ["BID_FIELD", "MOVE_FIELD", "NAME_FIELD", "PASS_BUTTON", "STORY", "TableWidgets"]

# Where the keyboard focus goes (the template's script focuses the first shown match, railkit.ui.app.Messages.focus).
BID_FIELD = ".railkit-table-amount input"
MOVE_FIELD = ".railkit-table-pick select"
PASS_BUTTON = "button.railkit-table-pass"
NAME_FIELD = ".railkit-table-name input"
STORY = ".railkit-table-events"  # the story's box, kept while its text changes (a region the template makes focusable)


class TableWidgets:
    """The panel's widgets as attributes (``build_widgets``); the clicks call the panel's ``on_*`` methods."""

    def on_create(self) -> Any:
        raise NotImplementedError

    def on_join(self) -> Any:
        raise NotImplementedError

    def on_bid(self) -> Any:
        raise NotImplementedError

    def on_play(self) -> Any:
        raise NotImplementedError

    def on_pass(self) -> Any:
        raise NotImplementedError

    def on_seat_bot(self, bot: bool) -> Any:
        raise NotImplementedError

    def on_hint(self) -> Any:
        raise NotImplementedError

    def on_pick(self) -> Any:
        raise NotImplementedError

    def on_leave(self) -> Any:
        raise NotImplementedError

    def move_control(self) -> str | None:
        """The CSS selector of the control the seat moves with now (the bid's box, “Your move”, the pass's button),
        None when none is shown: where the keyboard focus goes when the seat is to act."""
        for shown, css in ((self.bid_row, BID_FIELD), (self.pick_row, MOVE_FIELD), (self.pass_row, PASS_BUTTON)):
            if shown.layout.display != "none":
                return css
        return None

    def build_widgets(self, game: TableGame, name: str) -> None:
        self.note = html_box("railkit-table-note")
        low, high = game.seats
        # The others at the table see this name: the default learner's (“You”, “Sinä”) is no name for them.
        self.name = widgets.Text(value="" if is_default_learner(name) else name, description=tr("Your name"),
                                 style={"description_width": "90px"},
                                 layout=widgets.Layout(width="260px"))
        self.name.add_class("railkit-table-name")
        self.players = widgets.Dropdown(options=[(str(n), n) for n in range(low, high + 1)], value=min(high, 3),
                                        description=tr("Players"), style={"description_width": "initial"},
                                        layout=widgets.Layout(width="auto"))
        self.players.add_class("railkit-table-players")
        self.bots = widgets.Dropdown(options=[(str(n), n) for n in range(high)], value=0,
                                     description=tr("Computer players"), style={"description_width": "initial"},
                                     layout=widgets.Layout(width="auto"))
        self.bots.add_class("railkit-table-bots")
        self.create_button = button(tr("Create a table"), "railkit-table-create", "plus", "primary",
                                    tr("Start a table for this game and get a code to share"))
        self.create_button.on_click(lambda _b: self.on_create())
        self.code = widgets.Text(value="", description=tr("Table code"),
                                 style={"description_width": "90px"}, layout=widgets.Layout(width="220px"))
        self.code.add_class("railkit-table-code")
        self.join_button = button(tr("Join"), "railkit-table-join", "sign-in", "",
                                  tr("Take a seat at the table with this code"))
        self.join_button.on_click(lambda _b: self.on_join())
        submit_on_enter(self.code, self.on_join)  # Enter in the code's box joins, as the keyboard expects
        self.start_box = widgets.VBox([
            html_box("", f"<b>{html.escape(tr('Start a table'))}</b>"),
            row([self.name, self.players, self.bots, self.create_button]),
            html_box("", f"<b>{html.escape(tr('Or join one'))}</b>"),
            row([self.code, self.join_button]),
        ])
        # hidden marks (the seat for the page address); the template's scripts read them, nobody sees them: no room taken
        self.address = html_box("railkit-table-address", display="none")
        self.lobby = html_box("railkit-table-lobby")
        self.turn = html_box("railkit-table-turn")
        self.progress = html_box("railkit-table-progress")
        self.board = html_box("railkit-table-board")
        self.amount = widgets.BoundedIntText(value=0, min=0, max=0, description=tr("Your sealed bid"),
                                             style={"description_width": "initial"},
                                             layout=widgets.Layout(width="auto"))
        self.amount.add_class("railkit-table-amount")
        self.bid_button = button(tr("Hand in sealed bid"), "railkit-table-bid", "envelope", "success")
        self.bid_button.on_click(lambda _b: self.on_bid())
        self.bid_row = row([self.amount, self.bid_button])
        self.bid_row.add_class("railkit-enter-row")  # Enter in the box hands the bid in (the template's script)
        self.pick = widgets.Dropdown(options=[], description=tr("Your move"), style={"description_width": "initial"},
                                     layout=widgets.Layout(width="min(620px, 100%)"))
        self.pick.add_class("railkit-table-pick")
        self.play_button = button(tr("Make this move"), "railkit-table-play", "check", "success")
        self.play_button.on_click(lambda _b: self.on_play())
        self.pick_row = row([self.pick, self.play_button])
        self.pick_row.add_class("railkit-enter-row")  # Enter on the list makes the picked move
        # A move that hands the turn on without acting: its own button (labelled with the move), never the list's
        # first choice.
        self.pass_button = button(tr("Pass"), "railkit-table-pass", "forward", "warning")
        self.pass_button.on_click(lambda _b: self.on_pass())
        self.pass_row = row([self.pass_button], display="none")
        # The creator's seat controls: a computer player for a learner who left, and back out when they return.
        self.seat_pick = widgets.Dropdown(options=[], description=tr("Seat"), style={"description_width": "initial"},
                                          layout=widgets.Layout(width="auto"))
        self.seat_pick.add_class("railkit-table-seat-pick")
        self.bot_in = button(tr("A computer player takes this seat"), "railkit-table-bot-in", "desktop", "",
                             tr("For a learner who has left: the computer plays their seat until they return"))
        self.bot_in.on_click(lambda _b: self.on_seat_bot(True))
        self.bot_out = button(tr("Give the seat back"), "railkit-table-bot-out", "user", "",
                              tr("The computer player leaves the seat; its learner (or a new one) plays it again"))
        self.bot_out.on_click(lambda _b: self.on_seat_bot(False))
        self.creator_row = row([self.seat_pick, self.bot_in, self.bot_out])
        # The lessons' help: the choices and their rules, the picked move explained, the search
        # player's move on request (where the game offers it), and (Union Pacific) the board.
        self.why = html_box("railkit-table-why")
        self.move_note = html_box("railkit-table-move-note")
        self.hint_button = button(tr("Hint: what would the computer play?"), "railkit-table-hint", "lightbulb-o",
                                  tip=tr("The search computer player's move now, with its evaluation and the next best moves' "
                                         "(a second opinion)"))
        self.hint_button.on_click(lambda _b: self.on_hint())
        self.pick.observe(lambda _c: self.on_pick(), names="value")
        self.map_view = FigureView(ROW_MAP) if game.board_figure is not None else None
        self.events = html_box("railkit-table-events")  # the story; the template makes it a region to focus
        self.leave_button = button(tr("Leave the table"), "railkit-table-leave", "sign-out", "",
                                   tr("Close this page's connection to the table and go back to starting or joining one"))
        self.leave_button.on_click(lambda _b: self.on_leave())
        self.announcer = Announcer(tr("Announcements from the table"))
        self.review = html_box("railkit-table-review")
        self.game_review = GameReviewPanel()  # “Review my game”: the seat's own decisions, at the end
        self.replay = (ReplayPanel(game.engine, lambda view, learners: game.board_html(view, None, learners),
                                   game.measures)
                       if game.engine is not None else None)
        help_row = [self.why, self.move_note] + ([row([self.hint_button])] if game.offers_hint else [])
        board = [self.map_view.widget] if self.map_view is not None else []
        self.game_box = widgets.VBox([self.lobby, self.creator_row, self.turn, self.progress, self.bid_row,
                                      self.pick_row, self.pass_row, *help_row, self.board, *board, self.events, self.review,
                                      self.game_review.widget,
                                      *([self.replay.widget] if self.replay is not None else []),
                                      row([self.leave_button])])
        self.widget = widgets.VBox([html_box("", TABLE_STYLE, display="none"), self.note, self.start_box, self.address,
                                    self.game_box, self.announcer.widget])
        self.widget.add_class("railkit-table-panel")
