"""What the Union Pacific game app (``railkit.ui.up_play``) shows of the game: the status line and step
chips, the hand, the display, players and companies, the latest moves, the payouts, the final result
and the whole log.

Every panel is updated in place from the engine's view (``game.view(viewer)``): a widget's value is only
written when it changes.
"""

from __future__ import annotations

import html
from typing import Any, Mapping

from railkit.ui.app import guarded
from railkit.ui.i18n import tr
from railkit.ui.up_common import card_label, company_html
from railkit.ui.up_play_panels import cards_html, companies_html, display_html, payout_html, players_html

RECENT_EVENTS = 40


def set_value(widget: Any, value: Any) -> None:
    """Write ``value`` only when it differs (each write is a message to the browser)."""
    if widget.value != value:
        widget.value = value


def set_shown(widget: Any, shown: bool) -> None:
    """Show or hide ``widget`` (its layout's ``display``), writing only when that changes."""
    want = None if shown else "none"
    if widget.layout.display != want:
        widget.layout.display = want


class PlayView:
    """The read-only panels of ``PlayApp`` and the words they use.

    Uses the app's ``game``, ``board``, ``humans``, ``you``, ``acting``, ``viewer()``, ``hot_seat``,
    ``hand_for``, ``bots_paused`` and ``hidden_payouts``; owns ``recent_from`` and ``mine_from`` (where
    “Latest moves” starts, and where the last human move's own events end).
    """

    recent_from: int
    mine_from: int

    # ------------------------------------------------------------------ words
    def _next_words(self) -> str:
        game = self.game
        if game.is_over:
            return self._final_words()
        acting = self.acting
        if acting is None:
            return tr("The computer players are still moving.")
        step = self._step_words(game.view(None)["phase"])
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
        money = result.money
        winners = result.winners
        best = money[winners[0]] if winners else 0
        if len(winners) == 1:
            winner = winners[0]
            if winner == self.you:
                return tr("The game is over (UP-D12): you win with {m} million!", m=best)
            return tr("The game is over (UP-D12): {winner} wins with {m} million.", winner=winner, m=best)
        return tr("The game is over (UP-D12): {winners} share the win with {m} million each (a railkit ruling).",
                  winners=(" " + tr("and") + " ").join(winners), m=best)

    # ------------------------------------------------------------------ panels
    def _refresh_status(self, v: Mapping[str, Any], acting: str | None) -> None:
        game = self.game
        step = v["phase"]
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
        set_value(self.status, f"<div><b>{who}</b></div><div class='railkit-muted'>{' · '.join(parts)}"
                               f" · {tr('Seats')}: {order}</div>")
        chips = [("UP-S5", tr("First share"))] if step == "first_share" else [
            ("UP-T1", tr("Track card drawn")), ("UP-T2", tr("Swap unusable (optional)")),
            ("UP-T3", tr("Build or invest")), ("UP-B3", tr("Draw a share")), ("UP-B4", tr("Exchange or end"))]
        current = {"first_share": 0, "action": 2, "draw": 3, "exchange": 4}.get(step, -1)
        if step == "over":
            set_value(self.steps, "")
        else:
            items = "".join(
                f"<li class='{'current' if i == current else ('done' if i < current else '')}'>"
                f"{rule} {html.escape(name)}</li>" for i, (rule, name) in enumerate(chips))
            set_value(self.steps, f"<ol class='railkit-chips'>{items}</ol>")
        if self.hot_seat and acting is not None:
            set_shown(self.hotseat_bar, True)
            shown = self.hand_for == acting
            self.show_hand_button.description = (tr("Hide my hand") if shown
                                                  else tr("Show my hand ({player})", player=acting))
            self.show_hand_button.icon = "eye-slash" if shown else "eye"
            set_value(self.handoff, "" if shown else tr(
                "<b>{player}</b> plays next. Hands are secret: the others look away, then {player} presses "
                "“Show my hand”.", player=html.escape(acting)))
        else:
            set_shown(self.hotseat_bar, False)

    def _refresh_hand(self, v: Mapping[str, Any]) -> None:
        viewer = v["you"]
        if viewer is None:
            if self.game.is_over:
                text = f"<h4>{tr('Hands')}</h4><p>{tr('The game is over; cards in hand are worth nothing (UP-D12).')}</p>"
            else:
                text = (f"<h4>{tr('Hands are secret')}</h4><p>{tr('Each player sees their own hand only when it is their turn, after “Show my hand”.')}</p>")
            set_value(self.hand, text)
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
        set_value(self.hand, (
            f"<h4>{owner}</h4>"
            f"{cards_html([track_label] + (track or [tr('none')]), plain_first=True)}"
            f"{cards_html([shares_label] + (shares or [tr('none')]), plain_first=True)}"
            f"<div class='railkit-muted'>{tr('Shares in hand count for nothing until laid on the table (UP-I4).')}</div>"
            f"{first}"))

    def _refresh_tables(self, v: Mapping[str, Any], acting: str | None) -> None:
        winners = self.game.result().winners if self.game.is_over else []
        set_value(self.display, display_html(self.board, v))
        set_value(self.players_panel, players_html(v, self.humans, acting or v["current_player"], self.you, winners))
        set_value(self.companies, companies_html(self.board, v, self.you))

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
        set_value(self.recent, f"<h4>{tr('Latest moves')}</h4><ul>{body}</ul>")

    def _refresh_log(self) -> None:
        """The engine's narrative, newest first (payout breakdowns are in the Payouts panel)."""
        skip = self._hidden_events()
        events = [e for e in self.game.narrative if e not in skip]
        items = "".join(f"<li>{html.escape(e)}</li>" for e in reversed(events))
        set_value(self.log_html, f"<p class='railkit-muted'>{tr('Newest first.')}</p><ol reversed>{items}</ol>")

    @guarded
    def on_log_toggle(self) -> None:
        if self.game is not None and self.log_box.selected_index == 0:
            self._refresh_log()

    def _refresh_payouts(self, v: Mapping[str, Any]) -> None:
        records = self.game.payout_history
        total = v["payouts_total"]
        if not records:
            set_value(self.payouts, f"<h4>{tr('Payouts')}</h4><p>{tr('No payout yet. A payout comes when a dividend card leaves the share deck (UP-D1); there are {n} in this game (UP-D12, UP-2P1).', n=total)}</p>")
            return
        parts = [payout_html(r, total, r.number in self.hidden_payouts, i == len(records) - 1, self.you)
                 for i, r in enumerate(records)]
        set_value(self.payouts, f"<h4>{tr('Payouts')}</h4>" + "".join(reversed(parts)))

    def _refresh_result(self) -> None:
        game = self.game
        if not game.is_over:
            set_value(self.result_html, "")
            set_shown(self.result_html, False)
            return
        result = game.result()
        winners = result.winners
        rows = "".join(
            f"<tr class='{'winner' if p in winners else ''}'><td class='name'>{html.escape(p)}"
            f"{' ' + tr('(you)') if p == self.you else ''}</td><td>{m}</td>"
            f"<td class='name'>{'★ ' + tr('winner') if p in winners else ''}</td></tr>"
            for p, m in sorted(result.money.items(), key=lambda kv: -kv[1]))
        set_value(self.result_html, (
            f"<div class='railkit-panel'><h4>{html.escape(self._final_words())}</h4>"
            f"<table class='railkit-table'><tr><th class='name'>{tr('player')}</th><th>{tr('final money (millions)')}</th>"
            f"<th></th></tr>{rows}</table><p class='railkit-muted'>{tr('Only money counts; cards in hand are worth nothing (UP-D12). Equal money shares the win (a railkit ruling).')}</p></div>"))
        set_shown(self.result_html, True)
