"""How a game and its actions show themselves: ``describe`` and the notebook status card."""

from __future__ import annotations

import html

from railkit.brief import brief
from railkit.capecairo.actions import Bid, Build, Choose, KKAction, Pass
from railkit.capecairo.checks import players_to_act
from railkit.capecairo.phrases import terrain_word, track_pieces
from railkit.capecairo.state import KKState, KKTable
from railkit.capecairo.views import result
from railkit.messages import N_, Message, addressed, nmessage, shown

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{player} hands in a sealed bid (KK-A2)",
          "You hand in a sealed bid (KK-A2)")
addressed("{player} takes {card} (KK-A4)",
          "You take {card} (KK-A4)")
addressed("{player} passes (KK-B3)",
          "You pass (KK-B3)")
addressed("{player} crosses the next terrain, buying the fewest track pieces needed (KK-B2)",
          "You cross the next terrain, buying the fewest track pieces needed (KK-B2)")
addressed("{player} crosses the next terrain without buying track pieces (KK-B2)",
          "You cross the next terrain without buying track pieces (KK-B2)")
addressed("{player} crosses the next terrain, buying {pieces} (KK-B2)",
          "You cross the next terrain, buying {pieces} (KK-B2)")
addressed("{player} crosses the next terrain, buying {buy} track pieces (KK-B2)",
          "You cross the next terrain, buying {buy} track pieces (KK-B2)")

PHASE_WORDS = {"bid": N_("sealed bids (KK-A2)"), "choose": N_("choosing cards (KK-A4)"),
               "build": N_("building track (KK-B)"), "over": N_("over")}


def describe_action(table: KKTable, action: KKAction) -> Message:
    """``action`` in plain words (a sealed bid's amount stays hidden, KK-A2)."""
    if not isinstance(action, (Bid, Choose, Build, Pass)):
        raise TypeError(f"{brief(action)} is not a Vom Kap bis Kairo action")
    who = action.player if isinstance(action.player, str) else brief(action.player)
    if isinstance(action, Bid):
        return Message("{player} hands in a sealed bid (KK-A2)", {"player": who})
    if isinstance(action, Choose):
        card = table.cards.get(action.card_id) if isinstance(action.card_id, str) else None
        what = (Message("the {terrain} card {card}", {"terrain": terrain_word(card.terrain), "card": card.id}) if card
                else Message("card {card}", {"card": brief(action.card_id)}))
        return Message("{player} takes {card} (KK-A4)", {"player": who, "card": what})
    if isinstance(action, Pass):
        return Message("{player} passes (KK-B3)", {"player": who})
    buy = action.buy
    if buy is None:
        return Message("{player} crosses the next terrain, buying the fewest track pieces needed (KK-B2)",
                       {"player": who})
    if buy == 0 and not isinstance(buy, bool):
        return Message("{player} crosses the next terrain without buying track pieces (KK-B2)", {"player": who})
    if isinstance(buy, int) and not isinstance(buy, bool) and 0 < buy <= 10**9:
        return Message("{player} crosses the next terrain, buying {pieces} (KK-B2)",
                       {"player": who, "pieces": track_pieces(buy, "object")})
    # a huge number, or not a number of pieces: the rules will refuse it (KK-B2)
    return Message("{player} crosses the next terrain, buying {buy} track pieces (KK-B2)",
                   {"player": who, "buy": brief(buy)})


def status_card(table: KKTable, state: KKState, title: str, moves: int) -> str:
    """A small card for notebooks: each player's crossings, money and bonus tracks; the step of
    play and who acts; the outcome at the end. Every name is escaped; the words are ``Message``s shown
    in the language the teaching layer chose (``railkit.messages.shown``)."""
    def say(message: str) -> str:
        return html.escape(shown(message))

    acting = set(players_to_act(table, state))
    rows = "".join(
        f"<tr><td>{'▶ ' if p in acting else ''}<span style='color:{html.escape(table.colours[p])}'>■</span> "
        f"{html.escape(p)}</td>"
        f"<td style='text-align:right'>{len(state.crossed[p])}/{table.win_crossings}</td>"
        f"<td style='text-align:right'>£{state.money[p]}</td>"
        f"<td style='text-align:right'>{len(state.bonus[p])}</td></tr>"
        for p in table.players
    )
    if state.phase == "over":
        status = f"<b>{say(Message(N_('Over.')))}</b> {say(result(table, state).words)}"
    else:
        status = say(Message(N_("{step} · to act: {players}"),
                             {"step": Message(PHASE_WORDS[state.phase]),
                              "players": ", ".join(p for p in table.players if p in acting)}))
    heads = (N_("player"), N_("crossed"), N_("money"), N_("bonus"))
    header = "".join(f"<th>{say(Message(h))}</th>" for h in heads)
    top = say(Message(N_("auction {auction} · {moves}"),
                      {"auction": state.auction_no, "moves": nmessage("{n} move", "{n} moves", moves)}))
    return (
        "<div style='border:1px solid #999;border-radius:6px;padding:6px 10px;display:inline-block'>"
        f"<b>{html.escape(title)}</b> · {top}<br>"
        f"<table><tr>{header}</tr>{rows}</table>{status}</div>"
    )
