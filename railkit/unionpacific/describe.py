"""Union Pacific in words and on a card: one action as a sentence, a game as a notebook status card.

Every name that reaches HTML is escaped; sentences use ``railkit.words`` for articles and counts.
"""

from __future__ import annotations

import html

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
from railkit.unionpacific.state import UPState, card_name, shares_words
from railkit.words import a

__all__ = ["describe_action", "status_card"]


def describe_action(board: Board, action: UPAction) -> str:
    """``action`` in plain words (hidden cards stay hidden: a first share is not named)."""
    p = action.player
    if isinstance(action, ChooseFirstShare):
        return f"{p} chooses a first share (UP-S5)"
    if isinstance(action, DiscardUnusable):
        return f"{p} discards {a('unusable ' + str(action.card) + ' card')} and draws another (UP-T2)"
    if isinstance(action, Build):
        section = board.sections.get(action.section)
        where = section.name if section is not None else str(action.section)
        train = a(f"{card_name(board, action.company)} train")
        return f"{p} plays {a(str(action.card) + ' card')} to build {train} on {where} (UP-B1, UP-B2)"
    if isinstance(action, DrawShare):
        where = {"deck": "the top of the share deck", "up": "the Union Pacific stack"}.get(action.source, "the display")
        return f"{p} takes a share from {where} (UP-B3)"
    if isinstance(action, ExchangeForUP):
        return f"{p} exchanges a share of {card_name(board, action.card)} for a Union Pacific share (UP-B4)"
    if isinstance(action, EndTurn):
        return f"{p} ends the turn (UP-B6)"
    if isinstance(action, Invest):
        return (f"{p} lays {shares_words(board, action.cards)} on the table and discards "
                f"{a(str(action.discard) + ' card')} (UP-I1, UP-I3)")
    return f"{p} passes, discarding {a(str(action.discard) + ' card')} (UP-T4)"


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
