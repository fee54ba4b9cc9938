"""The move controls of the play lesson: one box per step of a turn, filled from the engine's
``legal_actions`` for the player to act.

* first share (UP-S5); swap an unusable track card (UP-T2);
* build, invest or pass (UP-T3): the build pickers are the ``BuildPanel``; for an investment, the share
  combinations (UP-I1) and the card to discard (UP-I3); pass (UP-T4);
* draw a share (UP-B3); exchange a share for Union Pacific (UP-B4) or end the turn (UP-B6).

Every button hands the app a function that makes the action for the player to act (``act``); a move
the engine refuses shows its ``RuleError`` and changes nothing.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import ipywidgets as widgets

from railkit.ui.app import InputError, Messages, Panel, guarded
from railkit.ui.game_review import hint_text
from railkit.ui.i18n import tr
from railkit.ui.records.learner import is_default_learner
from railkit.ui.records.lesson_record import note_hint
from railkit.ui.unionpacific.common import card_label, company_name
from railkit.ui.unionpacific.play.build import BuildPanel
from railkit.ui.unionpacific.play.html import share_words, text_colour, why_html
from railkit.ui.unionpacific.play.screen import Screen
from railkit.ui.widgets import button, html_box, row, set_options, set_shown, set_value
from railkit.unionpacific import (
    UP,
    Board,
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
)
from railkit.unionpacific.views import HandView, UPView

DRAW_SOURCES = ("display:0", "display:1", "display:2", "display:3", "deck", "up")
WIDE = {"description_width": "110px"}
Act = Callable[[Callable[[str], Any]], bool | None]  # the app's way to make a move


def seat_hand(v: UPView) -> HandView:
    """The hand in a seat's view (the moves panel shows only the acting player's own view)."""
    assert v.hand is not None
    return v.hand


def share_option(board: Board, key: str, hand: Mapping[str, int]) -> tuple[str, str]:
    """A share in hand as a picker option: “Denver Midland (× 2)”."""
    return company_name(board, key) + (f" (× {hand[key]})" if hand.get(key, 0) > 1 else ""), key


def card_options(board: Board, cards: Iterable[str]) -> list[tuple[str, Any]]:
    """The track cards that may be discarded, each once, after a “— pick —” option."""
    return [(tr("— pick a track card —"), None)] + [(card_label(board, c), c) for c in dict.fromkeys(cards)]


def picked(widget: Any, missing: str) -> Any:
    """The value chosen in ``widget``, or ``InputError(missing)``."""
    if widget.value is None:
        raise InputError(missing)
    return widget.value


def dropdown(css: str, label: str, width: str = "470px") -> widgets.Dropdown:
    box = widgets.Dropdown(options=[], value=None, description=label, style=WIDE, layout=widgets.Layout(width=width))
    box.add_class(css)
    return box


class MovesPanel(Panel):
    """The move boxes for the step of play on screen (see the module docstring)."""

    def __init__(self, board: Board, act: Act) -> None:
        # The moves speak in their own message line, above the boxes: a refused move is explained where it
        # was made, and the words go away as soon as the learner changes a choice.
        self.note = Messages()
        self.note.widget.add_class("railkit-moves-message")
        super().__init__(self.note)
        self.board = board
        self.act = act
        self._key: Any = None  # the move the pickers were filled for
        self._quiet = 0  # >0 while the panel itself sets pickers: their callbacks do nothing
        self.screen: Screen | None = None
        # UP-S5
        self.first_pick = dropdown("railkit-first-pick", tr("Share"))
        self.lay_button = button(tr("Lay it face down (UP-S5)"), "railkit-lay", "hand-paper-o", "primary")
        self.lay_button.on_click(lambda _b: self.on_lay_first())
        self.first_panel = widgets.VBox([
            widgets.HTML(tr("<b>Your first investment (UP-S5).</b> Choose one of your five shares; everybody "
                            "chooses at the same time and all are turned over together.")),
            self.first_pick, self.lay_button])
        # UP-T2
        self.unusable_pick = dropdown("railkit-unusable", tr("Unusable"), "300px")
        self.swap_button = button(tr("Swap it (UP-T2)"), "railkit-swap", "exchange")
        self.swap_button.on_click(lambda _b: self.on_swap_unusable())
        self.unusable_row = widgets.VBox([
            widgets.HTML(tr("A track card no empty space can take any more may be swapped for a new one, once, "
                            "before you act (UP-T2).")),
            row([self.unusable_pick, self.swap_button])])
        # UP-T3: build, invest or pass
        self.mode = widgets.ToggleButtons(options=[], value=None, style={"button_width": "150px"})
        self.mode.add_class("railkit-action-mode")
        self.mode.observe(lambda _c: self.on_mode(), names="value")
        self.build = BuildPanel(self.note, board, act)
        self.invest_pick = dropdown("railkit-invest-pick", tr("Shares"))
        self.invest_discard = dropdown("railkit-invest-discard", tr("Discard"), "320px")
        self.invest_button = button(tr("Invest"), "railkit-invest", "money", "primary",
                                    tr("Lay the shares on the table and discard the track card (UP-I1..UP-I3)"), None)
        self.invest_button.on_click(lambda _b: self.on_invest())
        self.invest_hint = html_box()
        self.invest_box = widgets.VBox([self.invest_hint, self.invest_pick, self.invest_discard, self.invest_button])
        self.pass_discard = dropdown("railkit-pass-discard", tr("Discard"), "320px")
        self.pass_button = button(tr("Pass"), "railkit-pass", "step-forward", "warning", width=None)
        self.pass_button.on_click(lambda _b: self.on_pass())
        self.pass_box = widgets.VBox([
            widgets.HTML(tr("You can neither build (no legal placement for your cards) nor invest (no share in "
                            "hand): discard one track card and pass (UP-T4, a railkit ruling).")),
            self.pass_discard, self.pass_button])
        self.action_panel = widgets.VBox([self.unusable_row, self.mode, self.build.widget, self.invest_box,
                                          self.pass_box])
        # UP-B3
        self.draw_buttons: dict[str, widgets.Button] = {}
        for source in DRAW_SOURCES:
            b = button("", "railkit-draw-" + source.replace(":", "-"))
            b.on_click(lambda _b, s=source: self.on_draw(s))
            self.draw_buttons[source] = b
        self.draw_hint = html_box()
        draw_grid = row(list(self.draw_buttons.values()))
        draw_grid.add_class("railkit-draw")
        self.draw_panel = widgets.VBox([self.draw_hint, draw_grid])
        # UP-B4 / UP-B6
        self.exchange_pick = dropdown("railkit-exchange-pick", tr("Share"))
        self.exchange_button = button(tr("Exchange for a UP share (UP-B4)"), "railkit-exchange", "refresh")
        self.exchange_button.on_click(lambda _b: self.on_exchange())
        self.end_button = button(tr("End my turn (UP-B6)"), "railkit-end-turn", "check", "success")
        self.end_button.on_click(lambda _b: self.on_end_turn())
        self.exchange_panel = widgets.VBox([
            widgets.HTML(tr("You may swap one share in hand for a Union Pacific share from the stack; the swapped "
                            "card leaves the game face down (UP-B4). Or simply end your turn (UP-B6).")),
            self.exchange_pick, row([self.exchange_button, self.end_button])])
        self.waiting = html_box("railkit-waiting")
        # Help with every prompt: the legal choices and their rules, and the heuristic player's move.
        self.why = html_box("railkit-why-box")
        self.hint_button = button(tr("Hint: what would the computer play?"), "railkit-hint", "lightbulb-o",
                                  tip=tr("The move the heuristic computer player would make now (a second opinion)"))
        self.hint_button.on_click(lambda _b: self.on_hint())
        self.help_row = widgets.VBox([self.why, row([self.hint_button])])
        for picker in (self.first_pick, self.unusable_pick, self.mode, self.invest_pick, self.invest_discard,
                       self.pass_discard, self.exchange_pick, self.build.card, self.build.company,
                       self.build.section):
            picker.observe(lambda _c: self.on_any_choice(), names="value")
        self.widget = widgets.VBox([self.note.widget, self.first_panel, self.action_panel, self.draw_panel,
                                    self.exchange_panel, self.help_row, self.waiting])
        self.widget.add_class("railkit-controls")
        self.widget.add_class("railkit-panel")

    # -- filling the boxes ----------------------------------------------------------------------
    def forget(self) -> None:
        """The next refresh starts a new move (pickers cleared): a new game, an undo, a load."""
        self._key = None

    def refresh(self, screen: Screen) -> None:
        self.screen = screen
        game, v, acting, visible = screen.game, screen.view, screen.acting, screen.may_act
        step = screen.phase
        actions = game.legal_actions(acting) if visible and acting is not None else []
        set_shown(self.first_panel, visible and step == "first_share")
        set_shown(self.action_panel, visible and step == "action")
        set_shown(self.draw_panel, visible and step == "draw")
        set_shown(self.exchange_panel, visible and step == "exchange")
        if game.is_over:
            waiting = tr("The game is over. Open “New game and options” to play again.")
        elif screen.session.paused:
            waiting = tr("The computer players have made many moves; press “Let the computer players go on”.")
        elif acting is not None and not visible:
            waiting = (tr("Waiting for you to show your hand.") if is_default_learner(acting)
                       else tr("Waiting for {player} to show their hand.", player=html.escape(acting)))
        else:
            waiting = ""
        set_value(self.waiting, waiting)
        set_shown(self.waiting, bool(waiting))
        set_shown(self.help_row, visible and bool(actions))
        if visible and acting is not None:
            set_value(self.why, why_html(game, acting, actions, screen.you))
        if visible:
            key = (len(game.log), acting)
            fresh = key != self._key
            self._key = key
            self._quiet += 1
            try:
                if step == "first_share":
                    hand = seat_hand(v).shares
                    set_options(self.first_pick, [(tr("— pick a share —"), None)] + [
                        share_option(self.board, a.card, hand) for a in actions if isinstance(a, ChooseFirstShare)],
                        fresh)
                elif step == "action":
                    self._fill_action(v, actions, fresh)
                elif step == "draw":
                    self._fill_draw(v, actions)
                elif step == "exchange":
                    cards = [a.card for a in actions if isinstance(a, ExchangeForUP)]
                    set_options(self.exchange_pick, [(tr("— pick a share —"), None)] + [
                        share_option(self.board, c, seat_hand(v).shares) for c in cards], fresh)
                    set_shown(self.exchange_pick, bool(cards))
                    set_shown(self.exchange_button, bool(cards))
            finally:
                self._quiet -= 1
        self.build.refresh(screen, self.mode.value == "build")

    def _fill_action(self, v: UPView, actions: list[Any], fresh: bool) -> None:
        board = self.board
        unusable = [a.card for a in actions if isinstance(a, DiscardUnusable)]
        set_shown(self.unusable_row, bool(unusable))
        set_options(self.unusable_pick, [(card_label(board, c), c) for c in unusable], fresh,
                    default=unusable[0] if unusable else None)
        invests = [a for a in actions if isinstance(a, Invest)]
        passes = [a for a in actions if isinstance(a, Pass)]
        builds = [a for a in actions if isinstance(a, Build)]
        modes = [(tr("Pass (UP-T4)"), "pass")] if passes else [(tr("Build (UP-B)"), "build"),
                                                                (tr("Invest (UP-I)"), "invest")]
        set_options(self.mode, modes, fresh, default="pass" if passes else ("build" if builds else "invest"))
        self.build.fill(builds, seat_hand(v).track, fresh)
        # invest: the combinations UP-I1 allows, and the card to discard (UP-I3)
        combos = list(dict.fromkeys(a.cards for a in invests))
        set_options(self.invest_pick, [(tr("— pick shares —"), None)] + [(share_words(board, c), c) for c in combos],
                    fresh)
        set_options(self.invest_discard, card_options(board, (a.discard for a in invests)), fresh)
        set_value(self.invest_hint, tr("Lay any number of shares of one company, or one share each of two "
                                       "companies, on the table (UP-I1); then discard a track card (UP-I3). "
                                       "No train, no share drawn.") if combos else
                  tr("You hold no shares, so you cannot invest now (UP-I1): build instead."))
        for w in (self.invest_pick, self.invest_discard, self.invest_button):
            set_shown(w, bool(combos))
        set_options(self.pass_discard, card_options(board, (a.discard for a in passes)), fresh)
        self._show_mode()

    def _show_mode(self) -> None:
        mode = self.mode.value
        set_shown(self.build.widget, mode == "build")
        set_shown(self.invest_box, mode == "invest")
        set_shown(self.pass_box, mode == "pass")

    def _fill_draw(self, v: UPView, actions: list[Any]) -> None:
        board = self.board
        sources = {a.source for a in actions if isinstance(a, DrawShare)}
        for source, b in self.draw_buttons.items():
            set_shown(b, source in sources)
            if source not in sources:
                continue
            if source.startswith("display:"):
                slot = int(source[-1])
                assert v.display is not None  # shares are drawn only after UP-S6
                key = v.display[slot]
                assert key is not None  # an empty slot is no source
                b.description = tr("Display {i}: {company}", i=slot + 1, company=company_name(board, key))
                colour = board.company(key).hex if key != UP else "#f5f5f5"
                b.style.button_color = colour
                b.style.text_color = text_colour(colour)
            elif source == "deck":
                b.description = tr("Top card of the share deck")
                b.style.button_color, b.style.text_color = "#455a64", "white"
            else:
                b.description = tr("Union Pacific stack ({n} left)", n=v.up_stack)
                b.style.button_color, b.style.text_color = "#f5f5f5", "black"
        set_value(self.draw_hint, tr("<b>Draw one share (UP-B3).</b> A display card is replaced at once from the "
                                     "deck; a dividend card turned up on the way starts a payout (UP-D1)."))

    def next_control(self, screen: Screen) -> str:
        """The CSS selector of the control to do next (the keyboard focus goes there after a move): the first
        picker or button of the step on screen, “go on” while the computer players wait."""
        if screen.game.is_over:
            return ".railkit-setup .jupyter-widget-Collapse-header"  # “New game and options”
        if screen.session.paused:
            return ".railkit-continue"
        if not screen.may_act:
            return ".railkit-show-hand, .railkit-hint"
        return {"first_share": ".railkit-first-pick select",
                "action": ".railkit-unusable select, .railkit-action-mode button",
                "draw": ".railkit-draw button",
                "exchange": ".railkit-exchange-pick select, .railkit-end-turn"}.get(screen.phase, ".railkit-hint")

    # -- callbacks ------------------------------------------------------------------------------
    @guarded
    def attempt(self, move: Callable[[], bool | None]) -> bool | None:
        """Run the app's ``move``; its error (a refused move, a missing choice) shows in this panel."""
        done = move()
        if done:
            self.clear_message()
        return done

    @guarded
    def on_hint(self) -> None:
        """The search player's move for the player to act and the next best, evaluated (nothing is played)."""
        screen = self.screen
        if screen is None or not screen.may_act or screen.acting is None:
            raise InputError(tr("There is no move to give a hint for now."))
        player, game = screen.acting, screen.game
        note_hint("up_play")
        # the search player's move and the next best, evaluated from the acting seat's view (HINT_SECONDS)
        self.show_info(hint_text(game.view(player), game.legal_actions(player),
                                 player if player == screen.you else None))

    def on_any_choice(self) -> None:
        """A choice changed: an error about the earlier choices is no longer true."""
        if self.note.kind == "error":
            self.clear_message()

    @guarded
    def on_mode(self) -> None:
        if self._quiet:
            return
        self._show_mode()
        if self.screen is not None:
            self.build.refresh(self.screen, self.mode.value == "build")

    def on_lay_first(self) -> bool | None:
        return self.act(lambda p: ChooseFirstShare(p, picked(self.first_pick, tr(
            "Choose one of your five shares first (UP-S5)."))))

    def on_swap_unusable(self) -> bool | None:
        return self.act(lambda p: DiscardUnusable(p, picked(self.unusable_pick, tr(
            "Choose the unusable track card to swap (UP-T2)."))))

    def on_invest(self) -> bool | None:
        def invest(player: str) -> Invest:
            cards = picked(self.invest_pick, tr("Pick the shares to lay on the table (UP-I1)."))
            discard = picked(self.invest_discard, tr("Pick the track card to discard (UP-I3)."))
            return Invest(player, tuple(cards), discard)

        return self.act(invest)

    def on_pass(self) -> bool | None:
        return self.act(lambda p: Pass(p, picked(self.pass_discard, tr("Pick the track card to discard (UP-T4)."))))

    def on_draw(self, source: str) -> bool | None:
        return self.act(lambda p: DrawShare(p, source))

    def on_exchange(self) -> bool | None:
        return self.act(lambda p: ExchangeForUP(p, picked(self.exchange_pick, tr(
            "Pick the share to exchange for a Union Pacific share (UP-B4)."))))

    def on_end_turn(self) -> bool | None:
        return self.act(lambda p: EndTurn(p))
