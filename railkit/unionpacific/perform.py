"""Setting up a Union Pacific game and carrying out checked actions: plain functions over
``(board, state)`` that return what happened in words.

Steps of play (``state.step``): ``first_share`` (UP-S5, everyone at once) → per turn
``action`` (UP-T2 optional discard, then build, invest or pass) → after a build ``draw``
(UP-B3) → ``exchange`` (UP-B4, or end the turn) → the next player's turn starts with the
automatic track draw (UP-T1). The game ends after the last payout (``over``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from railkit.errors import RuleError
from railkit.messages import N_, Message, addressed, comma_list, nmessage
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
from railkit.unionpacific.board import GENERAL, Board
from railkit.unionpacific.dividends import deck_card, display_words, pay_the_rest, refill, settle
from railkit.unionpacific.network import Network
from railkit.unionpacific.phrases import a_card, a_share, a_train
from railkit.unionpacific.sharedeck import build_share_deck
from railkit.unionpacific.state import (
    DISPLAY,
    HAND_SHARES,
    HAND_TRACK,
    IMAGINARY,
    UP,
    UP_SHARES,
    UPState,
    card_name,
    shares_words,
)

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{player} has chosen a first share (face down, UP-S5).",
          "You have chosen a first share (face down, UP-S5).")
addressed("{player} discards {card} and draws a replacement (UP-T2).",
          "You discard {card} and draw a replacement (UP-T2).")
addressed("{player} plays {card} and builds {train} on {section} (UP-B1, UP-B2); {company} is now worth "
           "{value}.",
          "You play {card} and build {train} on {section} (UP-B1, UP-B2); {company} is now worth {value}.")
addressed("No share can be drawn (deck, display and UP stack unavailable); {player} skips the draw.",
          "No share can be drawn (deck, display and UP stack unavailable); you skip the draw.")
addressed("{player} takes a Union Pacific share from the UP stack (UP-B3).",
          "You take a Union Pacific share from the UP stack (UP-B3).")
addressed("{player} takes the top card of the share deck (UP-B3).",
          "You take the top card of the share deck (UP-B3).")
addressed("{player} finds no share left in the deck (UP-B3).",
          "You find no share left in the deck (UP-B3).")
addressed("{player} takes {share} from the display (UP-B3).",
          "You take {share} from the display (UP-B3).")
addressed("{player} exchanges a share for a Union Pacific share; the card goes face down under the deck "
           "(UP-B4, UP-V4).",
          "You exchange a share for a Union Pacific share; the card goes face down under the deck (UP-B4, "
           "UP-V4).")
addressed("{player} exchanges a share for a Union Pacific share; the card goes face down into the box "
           "(UP-B4).",
          "You exchange a share for a Union Pacific share; the card goes face down into the box (UP-B4).")
addressed("{player} invests {shares} on the table and discards {card} (UP-I1, UP-I3).",
          "You invest {shares} on the table and discard {card} (UP-I1, UP-I3).")
addressed("{player} can neither build nor invest and passes, discarding {card} (UP-T4).",
          "You can neither build nor invest and pass, discarding {card} (UP-T4).")
addressed("Turn {turn}: {player} draws a track card (UP-T1).",
          "Turn {turn}: you draw a track card (UP-T1).")

__all__ = ["perform", "setup"]


def _take(counts: dict[str, int], card: str, n: int = 1) -> None:
    left = counts[card] - n
    if left:
        counts[card] = left
    else:
        del counts[card]


def _put(counts: dict[str, int], card: str, n: int = 1) -> None:
    counts[card] = counts.get(card, 0) + n


# -- what the table has seen of each hand (public, ``UPState.known_shares``) ------------------
def _seen_in(state: UPState, player: str, card: str) -> None:
    """Everyone saw ``card`` go into ``player``'s hand (from the display or the UP stack, UP-B3, UP-B4)."""
    _put(state.known_shares.setdefault(player, {}), card)


def _seen_out(state: UPState, player: str, card: str) -> None:
    """Everyone saw ``card`` leave ``player``'s hand face up (UP-S5, UP-I1): one known copy less, if any."""
    known = state.known_shares.get(player)
    if known and card in known:
        _take(known, card)


def _unseen_out(state: UPState, player: str) -> None:
    """A card left ``player``'s hand face down (UP-B4): any known card may be the one, so each known count
    is one less for certain."""
    known = state.known_shares.get(player)
    if known:
        state.known_shares[player] = {card: n - 1 for card, n in known.items() if n > 1}


# -- setup (UP-S1..S8); the random generator is used in this fixed order -------------------
def setup(board: Board, players: tuple[str, ...], options: dict[str, Any],
          rng: random.Random) -> tuple[UPState, list[str]]:
    """The state after setup, and the setup in words."""
    n = len(players)
    if n == 2 and IMAGINARY in players:
        raise RuleError("UP-2P2", Message(N_("{name} is the name of the imaginary shareholder; pick another name"),
                                          {"name": repr(IMAGINARY)}))
    # UP-S2: shuffle the 40 track cards, deal three each; the rest is the draw pile.
    track = [t for t, count in board.track_deck.items() for _ in range(count)]
    rng.shuffle(track)
    track_hand: dict[str, dict[str, int]] = {p: {} for p in players}
    for p in players:
        for _ in range(HAND_TRACK):
            _put(track_hand[p], track.pop())
    # UP-S3: one UP share each; the rest is the UP stack.
    share_hand: dict[str, dict[str, int]] = {p: {UP: 1} for p in players}
    # UP-S4: shuffle the company shares and deal four each.
    shares = [c.key for c in board.companies for _ in range(c.shares)]
    rng.shuffle(shares)
    for p in players:
        for _ in range(HAND_SHARES):
            _put(share_hand[p], shares.pop())
    # UP-S6: four shares face up; UP-B5 applies from the start.
    removed: list[str] = []
    display = [shares.pop() for _ in range(DISPLAY)]
    while len(set(display)) == 1 and len(shares) >= DISPLAY:
        removed += display
        display = [shares.pop() for _ in range(DISPLAY)]
    # UP-S7 / UP-S7-FI / UP-V1 (+ UP-V2 reserve): the share deck, index 0 = top.
    deck, reserve = build_share_deck(shares, rng, options["deck"], players=n, safe_round=options["safe_round"])
    box: list[str] = []
    if options["removed_to_bottom"]:
        deck.extend(removed)  # UP-V4
    else:
        box.extend(removed)
    state = UPState(
        players=players,
        options=options,
        max_payouts=3 if n == 2 else 4,  # UP-2P1 / UP-D12
        rng=rng,
        net=Network(board),  # UP-S1: starting trains placed, the rest is the supply
        track_hand=track_hand,
        track_pile=track,  # top = last
        track_discards=[],
        share_hand=share_hand,
        known_shares={p: {UP: 1} for p in players},  # UP-S3 happens in front of everyone
        up_stack=UP_SHARES - n,
        display=list(display),
        deck=deck,
        reserve=reserve,
        box=box,
        table={p: {} for p in players},
        money=dict.fromkeys(players, 0),  # DECISION: no starting money
        payouts=[],
        under_deck=len(removed) if options["removed_to_bottom"] else 0,
    )
    # The display is dealt now (the random order is fixed) but is face down until the first shares are
    # revealed (UP-S5, UP-S6): it is named, and its UP-B5 replacement told, only then (``_do_first``).
    words: list[str] = [nmessage(
        "Setup for {n} player: three track cards and five shares each (one UP). Everyone now chooses a "
        "first share face down (UP-S5); the display is turned up after that (UP-S6).",
        "Setup for {n} players: three track cards and five shares each (one UP). Everyone now chooses a "
        "first share face down (UP-S5); the display is turned up after that (UP-S6).", n,
    )]
    return state, words


# -- performing (only after check) ------------------------------------------------------
def perform(board: Board, state: UPState, action: UPAction) -> list[str]:
    """Carry out a checked ``action``; what happened, in words."""
    events: list[str] = []
    _PERFORMS[type(action)](board, state, action, events)
    return events


def _do_first(board: Board, state: UPState, a: ChooseFirstShare, events: list[str]) -> None:
    state.first_choices[a.player] = a.card
    events.append(Message(N_("{player} has chosen a first share (face down, UP-S5)."), {"player": a.player}))
    if len(state.first_choices) < len(state.players):
        return
    for p in state.players:  # UP-S5: revealed together
        card = state.first_choices[p]
        _take(state.share_hand[p], card)
        _seen_out(state, p, card)
        _put(state.table[p], card)
    shown = comma_list([Message(N_("{name}: {value}"), {"name": p, "value": card_name(board, state.first_choices[p])})
                        for p in state.players])
    events.append(Message(N_("First shares revealed together (UP-S5): {shares}."), {"shares": shown}))
    # UP-S6 comes after UP-S5: only now is the display turned up (and its setup replacement told, UP-B5).
    # Nothing else has gone to the box or under the deck yet, so they hold exactly that replacement.
    if state.box or state.under_deck:
        events.append(Message(N_("Setup: the first display was four cards of one company; replaced (UP-B5).")))
    events.append(Message(N_("The display is turned up (UP-S6): {display}."),
                          {"display": display_words(board, state)}))
    _start_turn(board, state, events)


def _do_discard_unusable(board: Board, state: UPState, a: DiscardUnusable, events: list[str]) -> None:
    state.t2_used = True
    _take(state.track_hand[a.player], a.card)
    state.track_discards.append(a.card)
    new = _draw_track(state, events)
    if new is not None:
        _put(state.track_hand[a.player], new)
    events.append(Message(N_("{player} discards {card} and draws a replacement (UP-T2)."),
                          {"player": a.player, "card": a_card(a.card, "unusable", "object")}))


def _do_build(board: Board, state: UPState, a: Build, events: list[str]) -> None:
    _take(state.track_hand[a.player], a.card)
    state.track_discards.append(a.card)  # UP-B1: face up onto the discard pile
    state.net.place(a.company, a.section)
    s = board.sections[a.section]
    name = card_name(board, a.company)
    events.append(Message(
        N_("{player} plays {card} and builds {train} on {section} (UP-B1, UP-B2); {company} is now worth {value}."),
        {"player": a.player, "card": a_card(a.card, role="object"), "train": a_train(name, "object"), "section": s.name,
         "company": name,
         "value": state.net.on_board(a.company) + 1},
    ))
    state.step = "draw"
    if not state.draw_sources():  # DECISION: nothing left to draw, so the draw is skipped
        events.append(Message(N_("No share can be drawn (deck, display and UP stack unavailable); "
                                 "{player} skips the draw."), {"player": a.player}))
        _after_draw(board, state, a.player, events)


def _do_draw(board: Board, state: UPState, a: DrawShare, events: list[str]) -> None:
    p, src = a.player, a.source
    if src == "up":
        state.up_stack -= 1
        _put(state.share_hand[p], UP)
        _seen_in(state, p, UP)
        events.append(Message(N_("{player} takes a Union Pacific share from the UP stack (UP-B3)."), {"player": p}))
    elif src == "deck":
        card = deck_card(board, state, events, p, N_("drawing the top card"))
        if card is not None:
            _put(state.share_hand[p], card)
            events.append(Message(N_("{player} takes the top card of the share deck (UP-B3)."), {"player": p}))
        else:
            events.append(Message(N_("{player} finds no share left in the deck (UP-B3)."), {"player": p}))
    else:
        slot = int(src[-1])
        taken = state.display[slot]
        assert taken is not None  # checked
        _put(state.share_hand[p], taken)
        _seen_in(state, p, taken)
        events.append(Message(N_("{player} takes {share} from the display (UP-B3)."),
                              {"player": p, "share": a_share(card_name(board, taken), "object")}))
        refill(board, state, slot, events, p)
    settle(board, state, events, p)
    if not state.is_over:
        _after_draw(board, state, p, events)


def _after_draw(board: Board, state: UPState, player: str, events: list[str]) -> None:
    state.step = "exchange"
    if not state.up_stack or not state.share_hand[player]:  # UP-B4 impossible: the turn just ends
        _end_turn(board, state, events)


def _do_exchange(board: Board, state: UPState, a: ExchangeForUP, events: list[str]) -> None:
    _take(state.share_hand[a.player], a.card)
    _unseen_out(state, a.player)
    state.up_stack -= 1
    _put(state.share_hand[a.player], UP)
    _seen_in(state, a.player, UP)
    if state.options["removed_to_bottom"]:
        state.deck.append(a.card)  # UP-V4
        state.under_deck += 1
        events.append(Message(N_("{player} exchanges a share for a Union Pacific share; the card goes face down "
                                 "under the deck (UP-B4, UP-V4)."), {"player": a.player}))
    else:
        state.box.append(a.card)
        events.append(Message(N_("{player} exchanges a share for a Union Pacific share; the card goes face down "
                                 "into the box (UP-B4)."), {"player": a.player}))
    _end_turn(board, state, events)


def _do_end_turn(board: Board, state: UPState, a: EndTurn, events: list[str]) -> None:
    _end_turn(board, state, events)


def _do_invest(board: Board, state: UPState, a: Invest, events: list[str]) -> None:
    hand, table = state.share_hand[a.player], state.table[a.player]
    for card in a.cards:
        _take(hand, card)
        _seen_out(state, a.player, card)
        _put(table, card)
    _take(state.track_hand[a.player], a.discard)
    state.track_discards.append(a.discard)
    events.append(Message(N_("{player} invests {shares} on the table and discards {card} (UP-I1, UP-I3)."),
                          {"player": a.player, "shares": shares_words(board, a.cards, "object"),
                           "card": a_card(a.discard, role="object")}))
    _end_turn(board, state, events)


def _do_pass(board: Board, state: UPState, a: Pass, events: list[str]) -> None:
    _take(state.track_hand[a.player], a.discard)
    state.track_discards.append(a.discard)
    events.append(Message(N_("{player} can neither build nor invest and passes, discarding {card} (UP-T4)."),
                          {"player": a.player, "card": a_card(a.discard, role="object")}))
    _end_turn(board, state, events)


_PERFORMS: dict[type, Callable[[Board, UPState, Any, list[str]], None]] = {
    ChooseFirstShare: _do_first,
    DiscardUnusable: _do_discard_unusable,
    Build: _do_build,
    DrawShare: _do_draw,
    ExchangeForUP: _do_exchange,
    EndTurn: _do_end_turn,
    Invest: _do_invest,
    Pass: _do_pass,
}


# -- turn flow ----------------------------------------------------------------------------
def _end_turn(board: Board, state: UPState, events: list[str]) -> None:
    state.turn_index = (state.turn_index + 1) % len(state.players)  # UP-S8: clockwise
    _start_turn(board, state, events)


def _start_turn(board: Board, state: UPState, events: list[str]) -> None:
    p = state.players[state.turn_index]
    state.turn_number += 1
    state.step = "action"
    state.t2_used = False
    card = _draw_track(state, events)  # UP-T1
    if card is not None:
        _put(state.track_hand[p], card)
    events.append(Message(N_("Turn {turn}: {player} draws a track card (UP-T1)."),
                          {"turn": state.turn_number, "player": p}))
    if not any(state.share_hand.values()) and not state.net.any_build((GENERAL,)):
        # DECISION: nobody can ever build or invest again, so nothing can draw the
        # remaining dividend cards; the remaining payouts are paid now.
        events.append(Message(N_("No train can be placed anywhere and no one holds a share: the remaining payouts "
                                 "are paid now (DECISION).")))
        pay_the_rest(board, state, events, N_("no move left"))


def _draw_track(state: UPState, events: list[str]) -> str | None:
    if not state.track_pile and state.track_discards:
        state.track_pile = state.track_discards  # UP-S2: reshuffle the discards
        state.track_discards = []
        state.rng.shuffle(state.track_pile)
        events.append(Message(N_("The track draw pile is empty: the discards are shuffled into a new pile (UP-S2).")))
    return state.track_pile.pop() if state.track_pile else None
