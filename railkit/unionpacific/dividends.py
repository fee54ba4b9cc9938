"""Cards leaving the share deck, dividend cards and payouts (UP-B3, UP-B5, UP-D, UP-2P, UP-V2).

Plain functions over ``(board, state)``. The rule of thumb that keeps chains simple: a draw
is *completed* first (UP-D1: the drawer keeps drawing until a share arrives, every dividend
card on the way counting one payout), and the payouts it earned are paid afterwards, in
order, by ``settle``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, overload

from railkit.copying import copy_value
from railkit.messages import (
    N_,
    Deferred,
    Message,
    addressed,
    addressed_group,
    comma_list,
    is_quiet,
    loud,
    naddressed,
    names_message,
    nmessage,
)
from railkit.unionpacific.board import Board
from railkit.unionpacific.payouts import (
    PayoutExplanation,
    company_payout,
    company_value,
    explain_company_payout,
    explain_union_pacific_payout,
    union_pacific_payout,
)
from railkit.unionpacific.phrases import card_words
from railkit.unionpacific.sharedeck import DIVIDEND
from railkit.unionpacific.state import IMAGINARY, UP, PayoutRecord, UPState, card_name

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{player} turns up a dividend card while {purpose}: payout {number} will be paid once the draw "
           "is complete; {player} draws again for the same purpose (UP-D1).",
          "You turn up a dividend card while {purpose}: payout {number} will be paid once the draw is "
           "complete; you draw again for the same purpose (UP-D1).")
addressed("{player} turns up the unused last dividend card (UP-2P1) and draws again.",
          "You turn up the unused last dividend card (UP-2P1) and draw again.")
addressed("Payout {number} of {of} ({reason}, drawn by {player}): {amounts}.",
          "Payout {number} of {of} ({reason}, drawn by you): {amounts}.")
# The final words count the money (1 million, 2 million: a plural message, "1 millón" in Spanish).
naddressed("The game is over (UP-D12). {player} wins with {money} million. Money: {ranking}.",
           "The game is over (UP-D12). You win with {money} million. Money: {ranking}.",
           "The game is over (UP-D12). You win with {money} million. Money: {ranking}.", subject="player")
addressed_group("The game is over (UP-D12). {players} share the win with {money} million each (DECISION). "
                "Money: {ranking}.",
                "The game is over (UP-D12). You and {other} share the win with {money} million each (DECISION). "
                "Money: {ranking}.",
                "The game is over (UP-D12). You, {others} and {last} share the win with {money} million each "
                "(DECISION). Money: {ranking}.")

__all__ = [
    "IMAGINARY",
    "UP",
    "PayoutRecord",
    "compute_payout",
    "deck_card",
    "display_words",
    "pay_the_rest",
    "refill",
    "settle",
]


# -- drawing -----------------------------------------------------------------------
def deck_card(board: Board, state: UPState, events: list[str], drawer: str | None, purpose: str) -> str | None:
    """The next share from the top of the deck; dividend cards met on the way are
    shown, boxed and counted (UP-D1). ``None`` when the deck is empty."""
    deck = state.deck
    while deck:
        card = deck.pop(0)
        state.share_draws += 1
        if state.under_deck > len(deck):  # the draws have reached the cards put under the deck (UP-V4)
            state.under_deck = len(deck)
        if card != DIVIDEND:
            return card
        state.box.append(card)  # UP-D1: dividend cards go to the box
        state.dividends_drawn += 1
        number = len(state.payouts) + state.pending_payouts + 1
        if state.dividends_drawn <= state.max_payouts:
            state.pending_payouts += 1
            if drawer:
                events.append(Message(N_("{player} turns up a dividend card while {purpose}: payout {number} will "
                                         "be paid once the draw is complete; {player} draws again for the same "
                                         "purpose (UP-D1)."),
                                      {"player": drawer, "purpose": Message(purpose), "number": number}))
            else:
                events.append(Message(N_("The setup turns up a dividend card while {purpose}: payout {number} will "
                                         "be paid once the draw is complete; the setup draws again for the same "
                                         "purpose (UP-D1)."), {"purpose": Message(purpose), "number": number}))
        elif drawer:  # UP-2P1: with two players the fourth dividend card is not used
            events.append(Message(N_("{player} turns up the unused last dividend card (UP-2P1) and draws again."),
                                  {"player": drawer}))
        else:
            events.append(Message(N_("The setup turns up the unused last dividend card (UP-2P1) and draws again.")))
    return None


def refill(board: Board, state: UPState, slot: int, events: list[str], drawer: str | None) -> None:
    """UP-B3: refill a display slot from the deck top, then apply UP-B5."""
    state.display[slot] = deck_card(board, state, events, drawer, N_("refilling the display"))
    if state.display[slot] is None:
        events.append(Message(N_("The share deck is empty: display slot {slot} stays empty."), {"slot": slot}))
    _four_of_a_kind(board, state, events, drawer)


def _four_of_a_kind(board: Board, state: UPState, events: list[str], drawer: str | None) -> None:
    """UP-B5: four display cards of one company leave the game and are replaced, repeatedly."""
    display = state.display
    # With UP-V4 the removed cards go under the deck and could come back forever if the
    # deck held nothing else; after one pass through the deck we stop (DECISION).
    limit = len(state.deck) // 4 + 2
    while display[0] is not None and display.count(display[0]) == 4 and limit > 0:
        limit -= 1
        removed = [c for c in display if c is not None]
        name = card_name(board, removed[0])
        if state.options["removed_to_bottom"]:
            state.deck.extend(removed)
            state.under_deck += len(removed)
            events.append(Message(N_("All four display cards are shares of {company}: they go face down under the "
                                     "share deck (UP-B5, UP-V4)."), {"company": name}))
        else:
            state.box.extend(removed)
            events.append(Message(N_("All four display cards are shares of {company}: they leave the game face down "
                                     "(UP-B5)."), {"company": name}))
        for i in range(4):
            display[i] = deck_card(board, state, events, drawer, N_("replacing the display"))
        events.append(Message(N_("New display: {display}."), {"display": display_words(board, state)}))


def display_words(board: Board, state: UPState) -> object:
    """The display's four cards, "A, B, (empty), C" (a Message when longer than one)."""
    words: object = None
    for card in state.display:
        name = card_words(card_name(board, card))
        words = name if words is None else Message(N_("{first}, {next}"), {"first": words, "next": name})
    return words


# -- paying ------------------------------------------------------------------------
def settle(board: Board, state: UPState, events: list[str], drawer: str | None) -> None:
    """Pay the payouts a completed draw earned; handle an exhausted deck."""
    while state.pending_payouts and not state.is_over:
        state.pending_payouts -= 1
        _payout(board, state, events, drawer, N_("dividend card"))
    if not state.is_over and not state.deck:
        # DECISION: no dividend card can come any more (safe-round reserve cards only
        # return after a payout), so the payouts still due are paid at once and the
        # game ends. The rulebooks never reach this case.
        events.append(Message(N_("The share deck has run out: the remaining payouts are paid now (DECISION).")))
        pay_the_rest(board, state, events, N_("share deck exhausted"))


def pay_the_rest(board: Board, state: UPState, events: list[str], reason: str) -> None:
    state.pending_payouts = 0
    while not state.is_over:
        _payout(board, state, events, None, reason)


def compute_payout(board: Board, state: UPState, number: int, explain: bool = True) -> PayoutRecord:
    """Payout ``number`` for the current board and tables, without paying it."""
    holders: list[str] = list(state.players)
    tables = [state.table[p] for p in state.players]
    if state.imaginary is not None:
        holders.append(IMAGINARY)
        tables.append(state.imaginary)
    amounts = dict.fromkeys(holders, 0)
    values: dict[str, int] = {}
    holdings: dict[str, dict[str, int]] = {}
    explanations: list[PayoutExplanation[str]] = []
    net = state.net
    for company in board.companies:  # UP-D8: summary-card order, then UP
        key = company.key
        value = company_value(net.on_board(key))
        values[key] = value
        shares = {h: t.get(key, 0) for h, t in zip(holders, tables, strict=True)}
        if not any(shares.values()):
            continue
        holdings[key] = shares
        for h, m in company_payout(value, shares).items():
            amounts[h] += m
        if explain:
            explanations.append(explain_company_payout(value, shares, company=company.name))
    up_shares = {h: t.get(UP, 0) for h, t in zip(holders, tables, strict=True)}
    holdings[UP] = up_shares
    for h, m in union_pacific_payout(number, up_shares).items():
        amounts[h] += m
    if explain:
        explanations.append(explain_union_pacific_payout(number, up_shares))
    return PayoutRecord(number, None, "", values, holdings, amounts, tuple(explanations))


class PayoutExplanations(Sequence[PayoutExplanation[str]]):
    """A payout's explanations (``PayoutRecord.explanations``), worked out when first read: one per company
    with shareholders in summary-card order, then Union Pacific's (as ``compute_payout`` makes them). Equal
    to the tuple of them; pickled and copied as that tuple."""

    __slots__ = ("_made", "holdings", "names", "number", "values")

    def __init__(self, number: int, values: Mapping[str, int], holdings: Mapping[str, Mapping[str, int]],
                 names: Mapping[str, str]) -> None:
        self.number, self.values, self.holdings, self.names = number, values, holdings, names
        self._made: tuple[PayoutExplanation[str], ...] | None = None

    def made(self) -> tuple[PayoutExplanation[str], ...]:
        if self._made is None:
            with loud():
                self._made = tuple(
                    explain_union_pacific_payout(self.number, shares) if key == UP
                    else explain_company_payout(self.values[key], shares, company=self.names[key])
                    for key, shares in self.holdings.items())
        return self._made

    def text(self, index: int) -> str:
        """The ``index``-th explanation as the narrative shows it (a ``Message``: each step translatable)."""
        return self.made()[index].message()

    def __len__(self) -> int:
        return len(self.holdings)  # the companies with shareholders, then UP

    @overload
    def __getitem__(self, index: int) -> PayoutExplanation[str]: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[PayoutExplanation[str], ...]: ...

    def __getitem__(self, index: int | slice) -> PayoutExplanation[str] | tuple[PayoutExplanation[str], ...]:
        return self.made()[index]

    def __iter__(self) -> Iterator[PayoutExplanation[str]]:
        return iter(self.made())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PayoutExplanations):
            other = other.made()
        return self.made() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.made())

    def __repr__(self) -> str:
        return repr(self.made())

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self.made(),))

    def copy(self) -> PayoutExplanations:
        """An independent copy (``railkit.copying``: a game's copy shares nothing mutable), still unmade if
        this one is."""
        new = PayoutExplanations(self.number, dict(self.values), {k: dict(v) for k, v in self.holdings.items()},
                                 dict(self.names))
        if self._made is not None:
            new._made = copy_value(self._made)
        return new


def _payout(board: Board, state: UPState, events: list[str], drawer: str | None, reason: str) -> None:
    number = len(state.payouts) + 1
    final = number >= state.max_payouts
    if final and len(state.players) == 2 and state.imaginary is None:
        _form_imaginary(board, state, events)
    if is_quiet():  # nobody narrates: the explanations are worked out if someone reads them (the same then)
        computed = compute_payout(board, state, number, explain=False)
        explanations: Sequence[PayoutExplanation[str]] = PayoutExplanations(
            number, computed.values, computed.holdings, {c.key: c.name for c in board.companies})
    else:
        with loud():  # kept in the state (payouts), which a lesson shows: rendered (no-op outside quiet())
            computed = compute_payout(board, state, number)
        explanations = computed.explanations
    record = PayoutRecord(number, drawer, reason, computed.values, computed.holdings,
                          computed.amounts, explanations)  # type: ignore[arg-type]
    amounts = record.amounts
    for h, m in amounts.items():
        state.money[h] = state.money.get(h, 0) + m
    state.payouts.append(record)
    got = comma_list([Message(N_("{name} +{amount}"), {"name": h, "amount": m}) for h, m in amounts.items()])
    params = {"number": number, "of": state.max_payouts, "reason": Message(reason), "amounts": got}
    if drawer:
        events.append(Message(N_("Payout {number} of {of} ({reason}, drawn by {player}): {amounts}."),
                              {**params, "player": drawer}))
    else:
        events.append(Message(N_("Payout {number} of {of} ({reason}): {amounts}."), params))
    if isinstance(explanations, PayoutExplanations):
        events.extend(Deferred(explanations.text, i) for i in range(len(explanations)))  # type: ignore[misc]
    else:
        events.extend(e.message() for e in explanations)
    if final:
        state.is_over = True
        state.step = "over"
        state.end_reason = "UP-2P1" if len(state.players) == 2 else "UP-D12"  # the last payout was paid
        events.append(_final_words(state))
    elif state.options["safe_round"] and state.reserve:
        # UP-V2: one reserve card per player goes on top, so everyone gets a turn first.
        n = len(state.players)
        moved, state.reserve[:] = state.reserve[:n], state.reserve[n:]
        state.deck[0:0] = moved
        events.append(nmessage("Safe round: {n} reserve card goes on top of the share deck (UP-V2).",
                               "Safe round: {n} reserve cards go on top of the share deck (UP-V2).", len(moved)))


def _form_imaginary(board: Board, state: UPState, events: list[str]) -> None:
    """UP-2P2: display, deck, reserve and UP stack become the imaginary third player's table.

    Cards put under the deck by UP-V4 do not count: the Finnish book puts them where they do
    not affect the game, so they go to the box with the dividend cards."""
    holdings: dict[str, int] = {}
    removed = state.deck[len(state.deck) - state.under_deck:] if state.under_deck else []
    kept = state.deck[:len(state.deck) - state.under_deck]
    state.box.extend(removed)
    state.under_deck = 0
    for card in [c for c in state.display if c is not None] + kept + state.reserve:
        if card == DIVIDEND:
            state.box.append(card)
        else:
            holdings[card] = holdings.get(card, 0) + 1
    if state.up_stack:
        holdings[UP] = holdings.get(UP, 0) + state.up_stack
    state.display[:] = [None] * 4
    state.deck.clear()
    state.reserve.clear()
    state.up_stack = 0
    state.imaginary = holdings
    state.money.setdefault(IMAGINARY, 0)
    listed = comma_list([Message(N_("{name} {value}"), {"name": card_name(board, k), "value": n})
                         for k, n in sorted(holdings.items())]) or Message(N_("nothing"))
    events.append(Message(N_("Two players: the display, the rest of the share deck and the UP stack become the "
                             "imaginary third player's shares (UP-2P2): {holdings}."), {"holdings": listed}))


def _final_words(state: UPState) -> str:
    best = max(state.money.values())
    winners = [h for h, m in state.money.items() if m == best]
    ranking = comma_list([Message(N_("{name} {value}"), {"name": h, "value": m})
                          for h, m in sorted(state.money.items(), key=lambda x: -x[1])])
    if len(winners) == 1:
        return nmessage("The game is over (UP-D12). {player} wins with {money} million. Money: {ranking}.",
                        "The game is over (UP-D12). {player} wins with {money} million. Money: {ranking}.", best,
                        {"player": winners[0], "money": best, "ranking": ranking})
    return Message(N_("The game is over (UP-D12). {players} share the win with {money} million each (DECISION). "
                      "Money: {ranking}."), {"players": names_message(winners), "money": best, "ranking": ranking})
