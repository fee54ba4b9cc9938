"""How a game and its actions show themselves: ``describe`` and the notebook status card."""

from __future__ import annotations

import html

from railkit.capecairo.actions import Action, Bid, Build, Choose, Pass
from railkit.capecairo.brief import brief
from railkit.capecairo.rules_check import players_to_act
from railkit.capecairo.state import KKState, KKTable
from railkit.capecairo.views import result
from railkit.words import count

PHASE_WORDS = {"bid": "sealed bids (KK-A2)", "choose": "choosing cards (KK-A4)",
               "build": "building track (KK-B)", "over": "over"}


def describe(table: KKTable, action: Action) -> str:
    """``action`` in plain words (a sealed bid's amount stays hidden, KK-A2)."""
    if not isinstance(action, (Bid, Choose, Build, Pass)):
        raise TypeError(f"{brief(action)} is not a Vom Kap bis Kairo action")
    who = action.player if isinstance(action.player, str) else brief(action.player)
    if isinstance(action, Bid):
        return f"{who} hands in a sealed bid (KK-A2)"
    if isinstance(action, Choose):
        card = table.cards.get(action.card_id) if isinstance(action.card_id, str) else None
        what = f"the {card.terrain} card {card.id}" if card else f"card {brief(action.card_id)}"
        return f"{who} takes {what} (KK-A4)"
    if isinstance(action, Pass):
        return f"{who} passes (KK-B3)"
    buy = action.buy
    if buy is None:
        how = ", buying the fewest track pieces needed"
    elif buy == 0 and not isinstance(buy, bool):
        how = " without buying track pieces"
    elif isinstance(buy, int) and not isinstance(buy, bool) and buy > 0:
        how = f", buying {count(buy, 'track piece') if buy <= 10**9 else brief(buy) + ' track pieces'}"
    else:  # not a number of pieces: the rules will refuse it (KK-B2)
        how = f", buying {brief(buy)} track pieces"
    return f"{who} crosses the next terrain{how} (KK-B2)"


def status_html(table: KKTable, state: KKState, title: str, moves: int) -> str:
    """A small card for notebooks: each player's crossings, money and bonus tracks; the step of
    play and who acts; the outcome at the end. Every name is escaped."""
    esc = html.escape
    acting = set(players_to_act(table, state))
    rows = "".join(
        f"<tr><td>{'▶ ' if p in acting else ''}<span style='color:{esc(table.colours[p])}'>■</span> {esc(p)}</td>"
        f"<td style='text-align:right'>{len(state.crossed[p])}/{table.win_crossings}</td>"
        f"<td style='text-align:right'>£{state.money[p]}</td>"
        f"<td style='text-align:right'>{len(state.bonus[p])}</td></tr>"
        for p in table.players
    )
    if state.phase == "over":
        status = f"<b>Over.</b> {esc(str(result(table, state)))}"
    else:
        status = f"{esc(PHASE_WORDS[state.phase])} · to act: {esc(', '.join(p for p in table.players if p in acting))}"
    return (
        "<div style='border:1px solid #999;border-radius:6px;padding:6px 10px;display:inline-block'>"
        f"<b>{esc(title)}</b> · auction {state.auction_no} · {moves} moves<br>"
        "<table><tr><th>player</th><th>crossed</th><th>money</th><th>bonus</th></tr>"
        f"{rows}</table>{status}</div>"
    )
