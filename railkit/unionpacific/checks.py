"""Checking Union Pacific actions: every rule an action can break, with the rule ID.

``check(board, state, action)`` only reads; ``Game.apply`` performs an action
only after its check passed, so a rejected action leaves the game untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from railkit.brief import brief
from railkit.errors import RuleError
from railkit.messages import N_, Message, addressed, comma_list, naddressed, nmessage
from railkit.unionpacific.actions import (
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
    UPAction,
)
from railkit.unionpacific.board import Board
from railkit.unionpacific.phrases import TRACK_TYPE_WORDS, a_card, a_train, track_type
from railkit.unionpacific.placement import placement_error
from railkit.unionpacific.state import DISPLAY_SOURCES, UPState

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{player} has no {card} track card; track cards in hand: {held}",
          "you have no {card} track card; track cards in hand: {held}")
addressed("{player} has already chosen a first share; wait for the others",
          "you have already chosen a first share; wait for the others")
naddressed("{player} does not hold a share of {card} in hand; shares in hand: {held}",
           "you do not hold a share of {card} in hand; shares in hand: {held}",
           "you do not hold {n} shares of {card} in hand; shares in hand: {held}")

__all__ = ["DISPLAY_SOURCES", "check", "step_words"]


def check(board: Board, state: UPState, action: UPAction) -> None:
    """Raise ``RuleError`` (naming the rule) if ``action`` breaks a Union Pacific rule now; never changes
    anything. ``Game.check`` has already made sure the game is not over, the action is a Union Pacific
    action by a player at the table and, outside the simultaneous first-share step, in turn."""
    if state.step == "first_share" and type(action) is not ChooseFirstShare:
        raise RuleError("UP-S5", Message(N_("first every player chooses a first share from hand "
                                            "(ChooseFirstShare)")))
    _CHECKS[type(action)](board, state, action)


def step_words(state: UPState) -> Message:
    return Message({
        "first_share": N_("every player chooses a first share"),
        "action": N_("build, invest or pass (UP-T3), optionally after discarding an unusable track card (UP-T2)"),
        "draw": N_("draw a share (UP-B3)"),
        "exchange": N_("exchange a share for UP (UP-B4) or end the turn (UP-B6)"),
    }.get(state.step, N_("the game is over")))


def _need_step(state: UPState, step: str, rule: str, what: str) -> None:
    if state.step != step:
        raise RuleError(rule, Message(N_("{problem}; now {step}"), {"problem": Message(what), "step": step_words(state)}))


def _need_track(state: UPState, player: str, card: object, rule: str) -> None:
    if not isinstance(card, str) or card not in state.track_hand[player]:
        held = comma_list([track_type(k) for k in sorted(state.track_hand[player])]) or Message(N_("none"))
        kind = track_type(card) if isinstance(card, str) and card in TRACK_TYPE_WORDS else brief(card)
        raise RuleError(rule, Message(N_("{player} has no {card} track card; track cards in hand: {held}"),
                                      {"player": player, "card": kind, "held": held}))


def _need_share(state: UPState, player: str, card: object, rule: str, n: int = 1) -> None:
    if not isinstance(card, str) or state.share_hand[player].get(card, 0) < n:
        held = ", ".join(f"{k}×{v}" for k, v in sorted(state.share_hand[player].items())) or Message(N_("none"))
        raise RuleError(rule, nmessage("{player} does not hold a share of {card} in hand; shares in hand: {held}",
                                       "{player} does not hold {n} shares of {card} in hand; shares in hand: {held}",
                                       n, {"player": player, "card": brief(card), "held": held}))


def _check_first(board: Board, state: UPState, a: ChooseFirstShare) -> None:
    _need_step(state, "first_share", "UP-S5", N_("the first shares have already been chosen"))
    if a.player in state.first_choices:
        raise RuleError("UP-S5", Message(N_("{player} has already chosen a first share; wait for the others"),
                                         {"player": a.player}))
    _need_share(state, a.player, a.card, "UP-S5")


def _check_discard_unusable(board: Board, state: UPState, a: DiscardUnusable) -> None:
    _need_step(state, "action", "UP-T2", N_("an unusable track card may only be swapped at the start of a turn"))
    if state.t2_used:
        raise RuleError("UP-T2", Message(N_("only one unusable track card may be swapped per turn; "
                                            "now build, invest or pass")))
    _need_track(state, a.player, a.card, "UP-T2")
    if state.net.usable(a.card):
        raise RuleError("UP-T2", Message(N_("{a_card} is still usable: some {card} section has an empty neutral "
                                            "space; keep it"), {"a_card": a_card(a.card), "card": track_type(a.card)}))


def _check_build(board: Board, state: UPState, a: Build) -> None:
    _need_step(state, "action", "UP-T3", N_("you may build only once, at the start of your turn"))
    _need_track(state, a.player, a.card, "UP-B1")
    if not isinstance(a.company, str) or not isinstance(a.section, str):
        raise RuleError("UP-B2", Message(N_("name the company by its key and the section by its id (text)")))
    net = state.net
    if not net.is_legal(a.company, a.section, a.card):
        err = placement_error(board, net.trains_on, net.supply, a.company, a.section, a.card)
        # The fast index and placement.py agree (tested); this fallback only guards typos.
        raise err or RuleError("UP-B2", Message(N_("{train} may not go on {section} now"),
                                                {"train": a_train(brief(a.company)), "section": brief(a.section)}))


def _check_draw(board: Board, state: UPState, a: DrawShare) -> None:
    _need_step(state, "draw", "UP-B3", N_("a share is drawn only after building"))
    src = a.source
    if src in DISPLAY_SOURCES:
        if state.display[int(src[-1])] is None:
            raise RuleError("UP-B3", Message(N_("display slot {slot} is empty; take another display card or the top "
                                                "of the deck"), {"slot": src[-1]}))
    elif src == "deck":
        if not state.deck:
            raise RuleError("UP-B3", Message(N_("the share deck is empty; take a display card")))
    elif src == "up":
        if not state.options["direct_up_draw"]:
            raise RuleError("UP-B3-FI", Message(N_("UP shares may not be drawn directly in this game; take a display "
                                                   "card or the deck top (then exchange, UP-B4)")))
        if not state.up_stack:
            raise RuleError("UP-B3", Message(N_("the UP stack is empty; take a display card or the deck top")))
    else:
        raise RuleError("UP-B3", Message(N_("unknown source {source}; use display:0..display:3, deck or up"),
                                         {"source": brief(src)}))


def _check_exchange(board: Board, state: UPState, a: ExchangeForUP) -> None:
    _need_step(state, "exchange", "UP-B4", N_("a share may be exchanged for UP only after drawing in a build turn"))
    if not state.up_stack:
        raise RuleError("UP-B4", Message(N_("the UP stack is empty; end the turn instead")))
    _need_share(state, a.player, a.card, "UP-B4")


def _check_end_turn(board: Board, state: UPState, a: EndTurn) -> None:
    _need_step(state, "exchange", "UP-B6",
               N_("a turn ends by itself after investing or passing; after building, draw a share first"))


def _check_invest(board: Board, state: UPState, a: Invest) -> None:
    _need_step(state, "action", "UP-T3", N_("you may invest only instead of building, at the start of your turn"))
    cards = a.cards
    if not isinstance(cards, tuple) or not cards or not all(isinstance(c, str) for c in cards):
        raise RuleError("UP-I1", Message(N_("invest at least one share: any number of one company, or one each of "
                                            "two companies")))
    kinds = set(cards)
    if len(kinds) > 2 or (len(kinds) == 2 and len(cards) != 2):
        raise RuleError("UP-I1", Message(N_("{cards} mixes companies; play any number of ONE company, or exactly "
                                            "one share each of TWO companies"), {"cards": brief(list(cards))}))
    for card in sorted(kinds):
        _need_share(state, a.player, card, "UP-I1", cards.count(card))
    _need_track(state, a.player, a.discard, "UP-I3")


def _check_pass(board: Board, state: UPState, a: Pass) -> None:
    _need_step(state, "action", "UP-T4", N_("passing replaces building or investing"))
    if state.share_hand[a.player]:
        raise RuleError("UP-T4", Message(N_("you hold shares, so you can invest; passing is only for a player who "
                                            "can neither build nor invest")))
    if state.net.any_build(state.track_hand[a.player]):
        raise RuleError("UP-T4", Message(N_("one of your track cards can place a train; build instead of passing")))
    _need_track(state, a.player, a.discard, "UP-T4")


_CHECKS: dict[type, Callable[[Board, UPState, Any], None]] = {
    ChooseFirstShare: _check_first,
    DiscardUnusable: _check_discard_unusable,
    Build: _check_build,
    DrawShare: _check_draw,
    ExchangeForUP: _check_exchange,
    EndTurn: _check_end_turn,
    Invest: _check_invest,
    Pass: _check_pass,
}
