"""What the play lesson shows of the game, one panel each: the status line and step chips, the hand,
the display and players, the companies, the latest moves, the payouts, the result and the whole log.

Each panel owns its widgets and has one ``refresh(screen)``; a widget's value is only written when it
changes (each write is a message to the browser).
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from railkit.ui.app import Messages, Panel, guarded
from railkit.ui.i18n import tr, trn
from railkit.ui.records.learner import is_default_learner
from railkit.ui.tables.table_replay import HistoryChart
from railkit.ui.unionpacific.common import card_label, company_html, engine_text
from railkit.ui.unionpacific.play.html import (
    cards_html,
    companies_html,
    display_html,
    payout_html,
    players_html,
    result_html,
    review_html,
    step_words,
)
from railkit.ui.unionpacific.play.screen import Screen
from railkit.ui.unionpacific.play.together import up_measures
from railkit.ui.widgets import button, html_box, row, set_shown, set_value
from railkit.unionpacific import Board
from railkit.unionpacific.review import review_moves

RECENT_EVENTS = 40
REVIEWED_MOVES = 5  # the weakest moves a review lists (hot seat: 3 per player)
CHIPS_RULES = {"first_share": 0, "action": 2, "draw": 3, "exchange": 4}


class StatusPanel(Panel):
    """Who acts and what they do; game number, turn, payouts and piles; the step chips; in hot seat
    the “Show my hand” bar (its button calls ``on_show_hand``)."""

    def __init__(self, messages: Messages, on_show_hand: Callable[[], object]) -> None:
        super().__init__(messages)
        self.status = html_box("railkit-status")
        self.steps = html_box()
        self.show_hand_button = button(tr("Show my hand"), "railkit-show-hand", "eye", "warning")
        self.show_hand_button.on_click(lambda _b: on_show_hand())
        self.handoff = html_box()
        self.hotseat_bar = row([self.show_hand_button, self.handoff], display="none")

    def refresh(self, screen: Screen) -> None:
        game, v, acting = screen.game, screen.view, screen.acting
        phase = screen.phase
        if game.is_over:
            who = tr("The game is over (UP-D12).")
        elif acting is None:
            who = tr("The computer players are moving.")
        else:
            name = tr("You") if acting == screen.you or is_default_learner(acting) else html.escape(acting)
            who = f"<span class='who'>{name}</span>: {html.escape(step_words(phase))}"
        parts = [tr("Game {n}", n=game.seed), tr("Turn {n}", n=v.turn_number) if v.turn_number else tr("Setup"),
                 tr("Payouts {done} of {total}", done=v.payouts_done, total=v.payouts_total),
                 tr("UP stack {n}", n=v.up_stack),
                 (trn("Share deck {n} card (UP-V3)", "Share deck {n} cards (UP-V3)", v.deck_count) if v.deck_count is not None
                  else tr("Share deck not counted (UP-V3 off)")),
                 tr("Track pile {n}", n=v.track_pile_count)]
        order = " → ".join(html.escape(p) for p in game.players)
        set_value(self.status, f"<div><b>{who}</b></div><div class='railkit-muted'>{' · '.join(parts)}"
                               f" · {tr('Seats')}: {order}</div>")
        chips = [("UP-S5", tr("First share"))] if phase == "first_share" else [
            ("UP-T1", tr("Track card drawn")), ("UP-T2", tr("Swap unusable (optional)")),
            ("UP-T3", tr("Build or invest")), ("UP-B3", tr("Draw a share")), ("UP-B4", tr("Exchange or end"))]
        current = CHIPS_RULES.get(phase, -1)
        if phase == "over":
            set_value(self.steps, "")
        else:
            items = "".join(
                f"<li class='{'current' if i == current else ('done' if i < current else '')}'>"
                f"{rule} {html.escape(name)}</li>" for i, (rule, name) in enumerate(chips))
            set_value(self.steps, f"<ol class='railkit-chips'>{items}</ol>")
        session = screen.session
        if session.hot_seat and acting is not None:
            set_shown(self.hotseat_bar, True)
            shown = session.revealed_to == acting
            self.show_hand_button.description = (tr("Hide my hand") if shown
                                                  else tr("Show my hand ({player})", player=acting))
            self.show_hand_button.icon = "eye-slash" if shown else "eye"
            set_value(self.handoff, "" if shown else tr(
                "<b>You</b> play next. Hands are secret: the others look away, then you press “Show my hand”.")
                if is_default_learner(acting) else tr(
                "<b>{player}</b> plays next. Hands are secret: the others look away, then {player} presses "
                "“Show my hand”.", player=html.escape(acting)))
        else:
            set_shown(self.hotseat_bar, False)


class HandPanel:
    """The hand of whoever may see the screen: track cards and shares (UP-I4), the first share (UP-S5)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.widget = html_box("railkit-hand")
        self.widget.add_class("railkit-panel")

    def refresh(self, screen: Screen) -> None:
        v = screen.view
        viewer = v.you
        if viewer is None:
            if screen.game.is_over:
                text = f"<h4>{tr('Hands')}</h4><p>{tr('The game is over; cards in hand are worth nothing (UP-D12).')}</p>"
            else:
                text = (f"<h4>{tr('Hands are secret')}</h4>"
                        f"<p>{tr('Each player sees their own hand only when it is their turn, after “Show my hand”.')}</p>")
            set_value(self.widget, text)
            return
        board, hand = self.board, v.hand
        assert hand is not None  # a seat's view has its hand
        owner = tr("Your hand") if viewer == screen.you else tr("{player}'s hand", player=html.escape(viewer))
        track = [html.escape(card_label(board, c)) + (f" ×{n}" if n > 1 else "") for c, n in hand.track.items()]
        shares = [company_html(board, k) + (f" ×{n}" if n > 1 else "") for k, n in hand.shares.items()]
        first = ""
        if v.my_first_share:
            first = (f"<p>{tr('Your first share, face down until everyone has chosen:')} "
                     f"{company_html(board, v.my_first_share)}</p>")
        track_label = f"<b>{tr('Track cards')}</b>"
        shares_label = f"<b>{tr('Shares')}</b>"
        set_value(self.widget, (
            f"<h4>{owner}</h4>"
            f"{cards_html([track_label] + (track or [tr('none')]), plain_first=True)}"
            f"{cards_html([shares_label] + (shares or [tr('none')]), plain_first=True)}"
            f"<div class='railkit-muted'>{tr('Shares in hand count for nothing until laid on the table (UP-I4).')}</div>"
            f"{first}"))


class TablePanel:
    """The display (UP-S6) and the players: money (UP-D13), hand sizes, whose turn it is."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.display = html_box("railkit-display")
        self.players = html_box("railkit-players-panel")
        self.widget = widgets.VBox([
            widgets.HTML(f"<h4>{tr('The display (UP-S6)')}</h4>"), self.display,
            widgets.HTML(f"<h4>{tr('Players')}</h4>"), self.players,
        ])
        self.widget.add_class("railkit-panel")

    def refresh(self, screen: Screen) -> None:
        v = screen.view
        winners = screen.game.result().winners if screen.game.is_over else ()
        set_value(self.display, display_html(self.board, v))
        secret = bool(screen.hidden_payouts)  # the payout exercise asks: money would give the answer away
        set_value(self.players, players_html(v, screen.session.humans, screen.acting or v.current_player,
                                             screen.you, () if secret else winners, money_hidden=secret,
                                             board=self.board))


class CompaniesPanel:
    """Companies (value UP-D2, trains left) and everyone's shares on the table (UP-I2)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.companies = html_box("railkit-companies-panel")
        self.widget = widgets.VBox([
            widgets.HTML(f"<h4>{tr('Companies and the shares on the table (UP-D2, UP-I2)')}</h4>"), self.companies])
        self.widget.add_class("railkit-panel")

    def refresh(self, screen: Screen) -> None:
        set_value(self.companies, companies_html(self.board, screen.view, screen.you))


def hidden_events(screen: Screen) -> set[str]:
    """Payout explanations written into the narrative: the payouts panel shows them instead."""
    return {str(e) for r in screen.game.state.payouts for e in r.explanations}


def shown_events(screen: Screen, start: int = 0) -> list[tuple[int, str]]:
    """The narrative as the panels show it: (position, line) without the payout explanations; while the
    exercise asks about a payout, the lines that would give its answer away (who received what, the final
    money) say that the amounts come after the answer. Sentences about the learner read “You …”. From
    narrative position ``start`` on."""
    narrative, skip = screen.game.narrative, hidden_events(screen)
    total = screen.view.payouts_total
    heads = {f"Payout {n} of {total} (": n for n in screen.hidden_payouts}
    last = len(screen.game.state.payouts)
    final_hidden = screen.game.is_over and last in screen.hidden_payouts
    shown: list[tuple[int, str]] = []
    for i in range(start, len(narrative)):
        line = narrative[i]
        if line in skip:
            continue
        number = next((n for head, n in heads.items() if line.startswith(head)), None)
        if number is not None:
            line = tr("Payout {n} of {total} has been paid: who received what shows once you answer the payout "
                      "exercise.", n=number, total=total)
        elif final_hidden and line.startswith("The game is over (UP-D12)."):
            line = tr("The game is over (UP-D12): the final money shows once you answer the payout exercise.")
        shown.append((i, engine_text(line, screen.you)))
    return shown


class EventsPanel:
    """“Latest moves”: the narrative since the start of the last human turn, that player's own events in
    bold. ``start`` and ``mine_until`` are positions in the narrative."""

    def __init__(self) -> None:
        self.start = self.mine_until = 0
        self.widget = html_box("railkit-events")
        self.widget.add_class("railkit-panel")

    def restart(self, position: int) -> None:
        """Show only what happens from narrative ``position`` on (a new game, an undo)."""
        self.start = self.mine_until = position

    def rewind(self, length: int) -> None:
        """The narrative was cut back to ``length`` entries (an undo)."""
        self.restart(min(self.start, length))

    def after_move(self, mark: int, own: int, new_turn: bool) -> None:
        """A human move began at narrative position ``mark`` and wrote ``own`` events."""
        if new_turn:  # “Latest moves” runs from the start of this player's turn
            self.start = mark
        self.mine_until = mark + own

    def refresh(self, screen: Screen) -> None:
        items = [f"<li class='{'mine' if i < self.mine_until else ''}'>{html.escape(line)}</li>"
                 for i, line in shown_events(screen, self.start)]
        dropped = max(0, len(items) - RECENT_EVENTS)
        items = items[dropped:]
        earlier = trn("… {n} earlier event in the log below", "… {n} earlier events in the log below", dropped)
        more = f"<li class='railkit-muted'>{earlier}</li>" if dropped else ""
        body = more + "".join(items) if items else f"<li>{tr('Nothing yet.')}</li>"
        set_value(self.widget, f"<h4>{tr('Latest moves')}</h4><ul>{body}</ul>")


class PayoutsPanel:
    """Every payout, newest first, with the engine's breakdown; the one the exercise asks about stays hidden."""

    def __init__(self) -> None:
        self.widget = html_box("railkit-payouts")
        self.widget.add_class("railkit-panel")

    def refresh(self, screen: Screen) -> None:
        records = screen.game.state.payouts
        total = screen.view.payouts_total
        if not records:
            none_yet = trn("No payout yet. A payout comes when a dividend card leaves the share deck (UP-D1); there is "
                           "{n} in this game (UP-D12, UP-2P1).",
                           "No payout yet. A payout comes when a dividend card leaves the share deck (UP-D1); there are "
                           "{n} in this game (UP-D12, UP-2P1).", total)
            set_value(self.widget, f"<h4>{tr('Payouts')}</h4><p>{none_yet}</p>")
            return
        parts = [payout_html(r, total, r.number in screen.hidden_payouts, i == len(records) - 1, screen.you)
                 for i, r in enumerate(records)]
        set_value(self.widget, f"<h4>{tr('Payouts')}</h4>" + "".join(reversed(parts)))


class ResultPanel:
    """The end (UP-D12): final money and the winners, then a look back at the learner's moves (the moves
    the heuristic player judged weak, with why); hidden while the game goes on."""

    def __init__(self) -> None:
        self.widget = html_box("railkit-result")
        self.chart = HistoryChart(up_measures)  # each player's money and shares over the game
        self._review: tuple[object, str] = (None, "")  # (the game it was made for, its HTML)

    def review(self, screen: Screen) -> str:
        """The review of the human players' moves, made once per finished game (a replay of its log)."""
        game, session = screen.game, screen.session
        key = (game.seed, len(game.log), session.humans)
        if self._review[0] != key:
            limit = REVIEWED_MOVES if len(session.humans) == 1 else 3
            parts = [review_html(review_moves(game, p, limit=limit), p, screen.you) for p in session.humans]
            self._review = (key, "".join(parts))
        return self._review[1]

    def refresh(self, screen: Screen) -> None:
        if not screen.game.is_over:
            set_value(self.widget, "")
            set_shown(self.widget, False)
            self.chart.show(None)
            return
        self.chart.show(None if screen.hidden_payouts else screen.game)  # the money waits for the exercise too
        if screen.hidden_payouts:  # the last payout is the exercise's question: its amounts come after the answer
            set_value(self.widget, f"<div class='railkit-panel'><h4>{tr('The game is over (UP-D12).')}</h4><p>"
                                   f"{tr('Answer the payout exercise first: then the final money and the winner show here.')}"
                                   "</p></div>")
        else:
            set_value(self.widget, result_html(screen.game.result(), screen.you, self.review(screen)))
        set_shown(self.widget, True)


class LogPanel(Panel):
    """“The whole game in words”, newest first; written only while open (a long game has ~1,000 lines)."""

    def __init__(self, messages: Messages) -> None:
        super().__init__(messages)
        self.log = html_box("railkit-log")
        self.widget = widgets.Accordion(children=[self.log], titles=(tr("The whole game in words"),))
        self.widget.selected_index = None
        self.widget.observe(lambda _c: self.on_toggle(), names="selected_index")
        self.screen: Screen | None = None

    def refresh(self, screen: Screen) -> None:
        self.screen = screen
        if self.widget.selected_index == 0:
            events = [line for _i, line in shown_events(screen)]
            items = "".join(f"<li>{html.escape(e)}</li>" for e in reversed(events))
            set_value(self.log, f"<p class='railkit-muted'>{tr('Newest first.')}</p><ol reversed>{items}</ol>")

    @guarded
    def on_toggle(self) -> None:
        if self.screen is not None:
            self.refresh(self.screen)
