"""Union Pacific in words and on a card: one action as a sentence, a game as a notebook status card.

Every name that reaches HTML is escaped; sentences are ``railkit.messages.Message``s (English as a str, translatable).
"""

from __future__ import annotations

import html

from railkit.messages import N_, Message
from railkit.unionpacific.actions import (
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    UPAction,
)
from railkit.unionpacific.board import Board
from railkit.unionpacific.phrases import a_card, a_train
from railkit.unionpacific.state import UPState, card_name, shares_words

__all__ = ["describe_action", "status_card"]


def describe_action(board: Board, action: UPAction) -> Message:
    """``action`` in plain words (hidden cards stay hidden: a first share is not named)."""
    p = {"player": action.player}
    if isinstance(action, ChooseFirstShare):
        return Message(N_("{player} chooses a first share (UP-S5)"), p)
    if isinstance(action, DiscardUnusable):
        return Message(N_("{player} discards {card} and draws another (UP-T2)"),
                       {**p, "card": a_card(action.card, "unusable")})
    if isinstance(action, Build):
        section = board.sections.get(action.section)
        where = section.name if section is not None else str(action.section)
        return Message(N_("{player} plays {card} to build {train} on {section} (UP-B1, UP-B2)"),
                       {**p, "card": a_card(action.card), "train": a_train(card_name(board, action.company)),
                        "section": where})
    if isinstance(action, DrawShare):
        where = {"deck": N_("the top of the share deck"), "up": N_("the Union Pacific stack")}.get(
            action.source, N_("the display"))
        return Message(N_("{player} takes a share from {source} (UP-B3)"), {**p, "source": Message(where)})
    if isinstance(action, ExchangeForUP):
        return Message(N_("{player} exchanges a share of {company} for a Union Pacific share (UP-B4)"),
                       {**p, "company": card_name(board, action.card)})
    if isinstance(action, EndTurn):
        return Message(N_("{player} ends the turn (UP-B6)"), p)
    if isinstance(action, Invest):
        return Message(N_("{player} lays {shares} on the table and discards {card} (UP-I1, UP-I3)"),
                       {**p, "shares": shares_words(board, action.cards), "card": a_card(action.discard)})
    return Message(N_("{player} passes, discarding {card} (UP-T4)"), {**p, "card": a_card(action.discard)})


def status_card(board: Board, state: UPState, title: str, moves: int, outcome: str) -> str:
    """HTML: players, step and who acts (or the outcome), payouts, money when public, company values."""
    esc = html.escape
    if state.over:
        status = f"<b>Over.</b> {esc(outcome)}"
    else:
        status = f"turn {state.turn_number}, {esc(state.phase)}; to act: {esc(', '.join(state.players_to_act()))}"
    if state.options["public_money"] or state.over:  # UP-D13; everyone counts up at the end
        money = ", ".join(f"{esc(h)} {m}" for h, m in state.money.items())
    else:
        money = "hidden (UP-D13)"
    rows = "".join(
        f"<tr><td>{esc(c.name)}</td><td style='text-align:right'>{state.net.on_board(c.key) + 1}</td></tr>"
        for c in board.companies
    )
    return (
        "<div class='railkit-up-game' style='border:1px solid #999;border-radius:6px;padding:6px 10px;"
        "display:inline-block'>"
        f"<b>{esc(title)}</b> — {esc(', '.join(state.players))}<br>"
        f"{moves} moves · {status}<br>"
        f"payouts {len(state.payouts)} of {state.max_payouts} · money (millions): {money}"
        f"<table><tr><th>company</th><th>value (UP-D2)</th></tr>{rows}</table>"
        "</div>"
    )
