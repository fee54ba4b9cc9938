"""The move controls of the Union Pacific game app (``railkit.ui.up_play``): one panel per step of a turn,
filled from the engine's ``legal_actions`` for the player to act.

* first share (UP-S5); swap an unusable track card (UP-T2);
* build, invest or pass (UP-T3): the build pickers are in ``up_play_build``; for an investment, the share
  combinations (UP-I1) and the card to discard (UP-I3); pass (UP-T4);
* draw a share (UP-B3); exchange a share for Union Pacific (UP-B4) or end the turn (UP-B6).

A move the engine refuses shows its ``RuleError`` and changes nothing.
"""

from __future__ import annotations

import html
from typing import Any, Iterable, Mapping

import ipywidgets as widgets

from railkit.ui.app import InputError, guarded
from railkit.ui.i18n import tr
from railkit.ui.up_common import card_label, company_name, row
from railkit.ui.up_play_panels import share_words, text_colour
from railkit.ui.up_play_view import set_shown, set_value
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
)

DRAW_SOURCES = ("display:0", "display:1", "display:2", "display:3", "deck", "up")


# -- pickers --------------------------------------------------------------------------------------
def set_options(widget: Any, options: list[tuple[str, Any]], fresh: bool, default: Any = None) -> None:
    """New options for a picker; keep the current choice unless a new move starts (then ``default``,
    or nothing chosen)."""
    keep = widget.value
    if tuple(widget.options) != tuple(options):
        widget.options = options
    values = [value for _, value in options]
    if fresh:
        choose(widget, default if default in values else None)
    else:
        choose(widget, keep if keep in values else None)


def choose(widget: Any, value: Any) -> None:
    """Select ``value``; None selects a leading “— pick … —” option when there is one, so it shows."""
    options = list(widget.options)
    if value is None and options and options[0][1] is None:
        if widget.index != 0:
            widget.index = 0
    elif widget.value != value or (value is None and widget.index is not None):
        widget.value = value


def share_option(board: Any, key: str, hand: Mapping[str, int]) -> tuple[str, str]:
    """A share in hand as a picker option: “Denver Midland (× 2)”."""
    return company_name(board, key) + (f" (× {hand[key]})" if hand.get(key, 0) > 1 else ""), key


def card_options(board: Any, cards: Iterable[str]) -> list[tuple[str, Any]]:
    """The track cards that may be discarded, each once, after a “— pick —” option."""
    return [(tr("— pick a track card —"), None)] + [(card_label(board, c), c) for c in dict.fromkeys(cards)]


class MoveControls:
    """The move panels of ``PlayApp`` and their callbacks.

    Uses the app's ``game``, ``board``, ``bots_paused``, ``_controls_visible()``, ``_acting_or_error()``,
    ``_human_act()``, ``_report()`` and the build pickers (``_build_build_box()``, ``_fill_build()``,
    ``_refresh_build()``); owns ``_controls_key`` (the move the pickers were filled for) and ``_quiet``
    (>0 while the app itself sets pickers, so their callbacks do nothing).
    """

    _controls_key: Any
    _quiet: int

    def _build_controls(self) -> widgets.Widget:
        wide = {"description_width": "110px"}
        def full() -> widgets.Layout:
            # A fresh Layout per widget: a shared one would hide them all when one is hidden.
            return widgets.Layout(width="470px")

        # UP-S5
        self.first_pick = widgets.Dropdown(options=[], value=None, description=tr("Share"), style=wide, layout=full())
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
        self.build_box = self._build_build_box(wide, full)
        self.invest_pick = widgets.Dropdown(options=[], value=None, description=tr("Shares"), style=wide,
                                            layout=full())
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
                                              layout=full())
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

    # ------------------------------------------------------------------ filling the panels
    def _refresh_controls(self, v: Mapping[str, Any], acting: str | None) -> None:
        game = self.game
        visible = self._controls_visible()
        step = v["phase"]
        actions = game.legal_actions(acting) if visible else []
        set_shown(self.first_panel, visible and step == "first_share")
        set_shown(self.action_panel, visible and step == "action")
        set_shown(self.draw_panel, visible and step == "draw")
        set_shown(self.exchange_panel, visible and step == "exchange")
        if game.is_over:
            waiting = tr("The game is over. Open “New game and options” to play again.")
        elif self.bots_paused:
            waiting = tr("The computer players have made many moves; press “Let the computer players go on”.")
        elif acting is not None and not visible:
            waiting = tr("Waiting for {player} to show their hand.", player=html.escape(acting))
        else:
            waiting = ""
        set_value(self.waiting, waiting)
        set_shown(self.waiting, bool(waiting))
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
            self._refresh_build()

    def _fill_first(self, v: Mapping[str, Any], actions: list[Any], fresh: bool) -> None:
        hand = v["hand"]["shares"]
        options = [(tr("— pick a share —"), None)] + [
            share_option(self.board, a.card, hand) for a in actions if isinstance(a, ChooseFirstShare)]
        set_options(self.first_pick, options, fresh)

    def _fill_action(self, v: Mapping[str, Any], actions: list[Any], fresh: bool) -> None:
        board = self.board
        unusable = [a.card for a in actions if isinstance(a, DiscardUnusable)]
        set_shown(self.unusable_row, bool(unusable))
        set_options(self.unusable_pick, [(card_label(board, c), c) for c in unusable], fresh,
                    default=unusable[0] if unusable else None)
        builds = [a for a in actions if isinstance(a, Build)]
        invests = [a for a in actions if isinstance(a, Invest)]
        passes = [a for a in actions if isinstance(a, Pass)]
        if passes:
            modes = [(tr("Pass (UP-T4)"), "pass")]
        else:
            modes = [(tr("Build (UP-B)"), "build"), (tr("Invest (UP-I)"), "invest")]
        set_options(self.mode, modes, fresh, default="pass" if passes else ("build" if builds else "invest"))
        self._fill_build(builds, v["hand"]["track"], fresh)
        # invest: the combinations UP-I1 allows, and the card to discard (UP-I3)
        combos = list(dict.fromkeys(a.cards for a in invests))
        set_options(self.invest_pick, [(tr("— pick shares —"), None)] + [
            (share_words(board, c), c) for c in combos], fresh)
        set_options(self.invest_discard, card_options(board, (a.discard for a in invests)), fresh)
        set_value(self.invest_hint, tr("Lay any number of shares of one company, or one share each of two "
                                       "companies, on the table (UP-I1); then discard a track card (UP-I3). "
                                       "No train, no share drawn.") if combos else
                  tr("You hold no shares, so you cannot invest now (UP-I1): build instead."))
        set_shown(self.invest_pick, bool(combos))
        set_shown(self.invest_discard, bool(combos))
        set_shown(self.invest_button, bool(combos))
        set_options(self.pass_discard, card_options(board, (a.discard for a in passes)), fresh)
        self._apply_mode()

    def _apply_mode(self) -> None:
        mode = self.mode.value
        set_shown(self.build_box, mode == "build")
        set_shown(self.invest_box, mode == "invest")
        set_shown(self.pass_box, mode == "pass")

    def _fill_draw(self, v: Mapping[str, Any], actions: list[Any]) -> None:
        board = self.board
        sources = {a.source for a in actions if isinstance(a, DrawShare)}
        for source, button in self.draw_buttons.items():
            set_shown(button, source in sources)
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
        set_value(self.draw_hint, tr("<b>Draw one share (UP-B3).</b> A display card is replaced at once from the "
                                     "deck; a dividend card turned up on the way starts a payout (UP-D1)."))

    def _fill_exchange(self, v: Mapping[str, Any], actions: list[Any], fresh: bool) -> None:
        hand = v["hand"]["shares"]
        cards = [a.card for a in actions if isinstance(a, ExchangeForUP)]
        set_options(self.exchange_pick, [(tr("— pick a share —"), None)] + [
            share_option(self.board, c, hand) for c in cards], fresh)
        set_shown(self.exchange_pick, bool(cards))
        set_shown(self.exchange_button, bool(cards))

    # ------------------------------------------------------------------ callbacks
    @guarded
    def on_mode(self) -> None:
        if self._quiet:
            return
        self._apply_mode()

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
