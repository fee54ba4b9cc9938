"""Union Pacific in words and on a card: one action as a sentence, a game as a notebook status card.

Every name that reaches HTML is escaped; sentences are ``railkit.messages.Message``s (English as a str, translatable).
"""

from __future__ import annotations

import html

from railkit.messages import N_, Message, addressed, comma_list, nmessage, shown
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

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{player} chooses a first share (UP-S5)",
          "You choose a first share (UP-S5)")
addressed("{player} discards {card} and draws another (UP-T2)",
          "You discard {card} and draw another (UP-T2)")
addressed("{player} plays {card} to build {train} on {section} (UP-B1, UP-B2)",
          "You play {card} to build {train} on {section} (UP-B1, UP-B2)")
addressed("{player} takes a share from {source} (UP-B3)",
          "You take a share from {source} (UP-B3)")
addressed("{player} exchanges a share of {company} for a Union Pacific share (UP-B4)",
          "You exchange a share of {company} for a Union Pacific share (UP-B4)")
addressed("{player} ends the turn (UP-B6)",
          "You end your turn (UP-B6)")
addressed("{player} lays {shares} on the table and discards {card} (UP-I1, UP-I3)",
          "You lay {shares} on the table and discard {card} (UP-I1, UP-I3)")
addressed("{player} passes, discarding {card} (UP-T4)",
          "You pass, discarding {card} (UP-T4)")

__all__ = ["describe_action", "status_card"]


def describe_action(board: Board, action: UPAction) -> Message:
    """``action`` in plain words (hidden cards stay hidden: a first share is not named)."""
    p = {"player": action.player}
    if isinstance(action, ChooseFirstShare):
        return Message(N_("{player} chooses a first share (UP-S5)"), p)
    if isinstance(action, DiscardUnusable):
        return Message(N_("{player} discards {card} and draws another (UP-T2)"),
                       {**p, "card": a_card(action.card, "unusable", "object")})
    if isinstance(action, Build):
        section = board.sections.get(action.section)
        where = section.name if section is not None else str(action.section)
        return Message(N_("{player} plays {card} to build {train} on {section} (UP-B1, UP-B2)"),
                       {**p, "card": a_card(action.card, role="object"),
                        "train": a_train(card_name(board, action.company), "object"), "section": where})
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
                       {**p, "shares": shares_words(board, action.cards, "object"),
                        "card": a_card(action.discard, role="object")})
    return Message(N_("{player} passes, discarding {card} (UP-T4)"), {**p, "card": a_card(action.discard, role="object")})


# What the player to act does in each step of a turn (the same words as the play lesson's).
STEP_WORDS = {
    "first_share": N_("choose a first share to lay face down (UP-S5)"),
    "action": N_("build, invest or pass (UP-T3)"),
    "draw": N_("draw a share (UP-B3)"),
    "exchange": N_("exchange a share for a UP share (UP-B4) or end the turn (UP-B6)"),
}


def status_card(board: Board, state: UPState, title: str, moves: int, outcome: str) -> str:
    """HTML: players, step and who acts (or the outcome), payouts, money when public, company values.

    The words are ``Message``s shown in the language the teaching layer chose (``railkit.messages.shown``)."""
    def say(message: str) -> str:
        return html.escape(shown(message))

    if state.is_over:
        status = f"<b>{say(Message(N_('Over.')))}</b> {html.escape(shown(outcome))}"
    else:
        step = STEP_WORDS.get(state.phase)
        status = say(Message(N_("turn {turn}: {step}; to act: {players}"),
                             {"turn": state.turn_number, "step": Message(step) if step else state.phase,
                              "players": comma_list(list(state.players_to_act()))}))
    if state.options["public_money"] or state.is_over:  # UP-D13; everyone counts up at the end
        money: object = comma_list([Message(N_("{name} {value}"), {"name": h, "value": m})
                                    for h, m in state.money.items()])
    else:
        money = Message(N_("hidden (UP-D13)"))
    rows = "".join(
        f"<tr><td>{html.escape(c.name)}</td><td style='text-align:right'>{state.net.on_board(c.key) + 1}</td></tr>"
        for c in board.companies
    )
    moves_words = say(nmessage("{n} move", "{n} moves", moves))
    payouts = say(Message(N_("payouts {done} of {most}"), {"done": len(state.payouts), "most": state.max_payouts}))
    return (
        "<div class='railkit-up-game' style='border:1px solid #999;border-radius:6px;padding:6px 10px;"
        "display:inline-block'>"
        f"<b>{html.escape(title)}</b> — {html.escape(', '.join(state.players))}<br>"
        f"{moves_words} · {status}<br>"
        f"{payouts} · {say(Message(N_('money (millions): {money}'), {'money': money}))}"
        f"<table><tr><th>{say(Message(N_('company')))}</th><th>{say(Message(N_('value (UP-D2)')))}</th></tr>"
        f"{rows}</table></div>"
    )
