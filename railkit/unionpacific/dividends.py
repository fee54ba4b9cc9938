"""Cards leaving the share deck, dividend cards and payouts (UP-B3, UP-B5, UP-D, UP-2P, UP-V2).

A mixin of ``UnionPacificGame``: it works on the game's own state. The rule of thumb
that keeps chains simple: a draw is *completed* first (UP-D1: the drawer keeps drawing
until a share arrives, every dividend card on the way counting one payout), and the
payouts it earned are paid afterwards, in order, by ``_settle``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from railkit.unionpacific.payouts import (
    PayoutExplanation,
    company_payout,
    company_value,
    explain_company_payout,
    explain_union_pacific_payout,
    union_pacific_payout,
)
from railkit.unionpacific.sharedeck import DIVIDEND

if TYPE_CHECKING:  # pragma: no cover
    from railkit.unionpacific.network import Network

__all__ = ["IMAGINARY", "PayoutRecord", "UP", "DeckAndDividends"]

UP = "UP"
IMAGINARY = "Imaginary third player"  # UP-2P2


@dataclass(frozen=True)
class PayoutRecord:
    """One payout: what each company was worth, who held what and who received what."""

    number: int
    drawer: str | None
    reason: str
    values: Mapping[str, int]  # company key -> value (UP-D2)
    holdings: Mapping[str, Mapping[str, int]]  # company key or UP -> {holder: table shares}
    amounts: Mapping[str, int]  # holder -> money received this payout
    explanations: tuple[PayoutExplanation, ...]  # companies with shareholders, then UP

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "drawer": self.drawer,
            "reason": self.reason,
            "values": dict(self.values),
            "holdings": {k: dict(v) for k, v in self.holdings.items()},
            "amounts": dict(self.amounts),
        }

    def __str__(self) -> str:
        return "\n\n".join(str(e) for e in self.explanations)


class DeckAndDividends:
    """Share-deck handling for ``UnionPacificGame`` (state lives on the game)."""

    # Declared for type checkers; set up by UnionPacificGame.__init__.
    players: tuple[str, ...]
    options: dict[str, Any]
    net: "Network"
    company_order: tuple[str, ...]
    company_names: dict[str, str]
    deck: list[str]
    display: list[str | None]
    reserve: list[str]
    box: list[str]
    up_stack: int
    table: dict[str, dict[str, int]]
    money: dict[str, int]
    payouts: list[PayoutRecord]
    imaginary: dict[str, int] | None
    max_payouts: int
    dividends_drawn: int
    pending_payouts: int
    share_draws: int
    over: bool
    step: str
    end_reason: str | None

    # -- drawing -----------------------------------------------------------------------
    def _deck_card(self, events: list[str], drawer: str | None, purpose: str) -> str | None:
        """The next share from the top of the deck; dividend cards met on the way are
        shown, boxed and counted (UP-D1). ``None`` when the deck is empty."""
        deck = self.deck
        while deck:
            card = deck.pop(0)
            self.share_draws += 1
            if card != DIVIDEND:
                return card
            self.box.append(card)  # UP-D1: dividend cards go to the box
            self.dividends_drawn += 1
            who = drawer or "The setup"
            if self.dividends_drawn <= self.max_payouts:
                self.pending_payouts += 1
                events.append(
                    f"{who} turns up a dividend card while {purpose}: payout "
                    f"{len(self.payouts) + self.pending_payouts} will be paid once the draw is complete; "
                    f"{who} draws again for the same purpose (UP-D1)."
                )
            else:  # UP-2P1: with two players the fourth dividend card is not used
                events.append(f"{who} turns up the unused last dividend card (UP-2P1) and draws again.")
        return None

    def _refill(self, slot: int, events: list[str], drawer: str | None) -> None:
        """UP-B3: refill a display slot from the deck top, then apply UP-B5."""
        self.display[slot] = self._deck_card(events, drawer, "refilling the display")
        if self.display[slot] is None:
            events.append(f"The share deck is empty: display slot {slot} stays empty.")
        self._four_of_a_kind(events, drawer)

    def _four_of_a_kind(self, events: list[str], drawer: str | None) -> None:
        """UP-B5: four display cards of one company leave the game and are replaced, repeatedly."""
        display = self.display
        # With UP-V4 the removed cards go under the deck and could come back forever if the
        # deck held nothing else; after one pass through the deck we stop (DECISION).
        limit = len(self.deck) // 4 + 2
        while display[0] is not None and display.count(display[0]) == 4 and limit > 0:
            limit -= 1
            removed = list(display)
            name = self._card_name(removed[0])
            if self.options["removed_to_bottom"]:
                self.deck.extend(removed)
                events.append(f"All four display cards are {name}: they go face down under the share deck (UP-B5, UP-V4).")
            else:
                self.box.extend(removed)
                events.append(f"All four display cards are {name}: they leave the game face down (UP-B5).")
            for i in range(4):
                display[i] = self._deck_card(events, drawer, "replacing the display")
            events.append(f"New display: {self._display_words()}.")

    def _card_name(self, card: str | None) -> str:
        if card is None:
            return "(empty)"
        return "Union Pacific" if card == UP else self.company_names.get(card, card)

    def _display_words(self) -> str:
        return ", ".join(self._card_name(c) for c in self.display)

    # -- paying ------------------------------------------------------------------------
    def _settle(self, events: list[str], drawer: str | None) -> None:
        """Pay the payouts a completed draw earned; handle an exhausted deck."""
        while self.pending_payouts and not self.over:
            self.pending_payouts -= 1
            self._payout(events, drawer, "dividend card")
        if not self.over and not self.deck:
            # DECISION: no dividend card can come any more (safe-round reserve cards only
            # return after a payout), so the payouts still due are paid at once and the
            # game ends. The rulebooks never reach this case.
            events.append("The share deck has run out: the remaining payouts are paid now (DECISION).")
            self._pay_the_rest(events, "share deck exhausted")

    def _pay_the_rest(self, events: list[str], reason: str) -> None:
        self.pending_payouts = 0
        while not self.over:
            self._payout(events, None, reason)

    def compute_payout(self, number: int, explain: bool = True) -> PayoutRecord:
        """Payout ``number`` for the current board and tables, without paying it."""
        holders: list[str] = list(self.players)
        tables = [self.table[p] for p in self.players]
        if self.imaginary is not None:
            holders.append(IMAGINARY)
            tables.append(self.imaginary)
        amounts = dict.fromkeys(holders, 0)
        values: dict[str, int] = {}
        holdings: dict[str, dict[str, int]] = {}
        explanations: list[PayoutExplanation] = []
        for key in self.company_order:  # UP-D8: summary-card order, then UP
            value = company_value(self.net.on_board(key))
            values[key] = value
            shares = {h: t.get(key, 0) for h, t in zip(holders, tables)}
            if not any(shares.values()):
                continue
            holdings[key] = shares
            for h, m in company_payout(value, shares).items():
                amounts[h] += m
            if explain:
                explanations.append(explain_company_payout(value, shares, company=self.company_names[key]))
        up_shares = {h: t.get(UP, 0) for h, t in zip(holders, tables)}
        holdings[UP] = up_shares
        for h, m in union_pacific_payout(number, up_shares).items():
            amounts[h] += m
        if explain:
            explanations.append(explain_union_pacific_payout(number, up_shares))
        return PayoutRecord(number, None, "", values, holdings, amounts, tuple(explanations))

    def _payout(self, events: list[str], drawer: str | None, reason: str) -> None:
        number = len(self.payouts) + 1
        final = number >= self.max_payouts
        if final and len(self.players) == 2 and self.imaginary is None:
            self._form_imaginary(events)
        computed = self.compute_payout(number)
        record = PayoutRecord(number, drawer, reason, computed.values, computed.holdings,
                              computed.amounts, computed.explanations)
        amounts = record.amounts
        for h, m in amounts.items():
            self.money[h] = self.money.get(h, 0) + m
        self.payouts.append(record)
        got = ", ".join(f"{h} +{m}" for h, m in amounts.items())
        events.append(f"Payout {number} of {self.max_payouts} ({reason}" + (f", drawn by {drawer}" if drawer else "") + f"): {got}.")
        events.extend(str(e) for e in record.explanations)
        if final:
            self.over = True
            self.step = "over"
            self.end_reason = reason
            events.append(self._final_words())
        elif self.options["safe_round"] and self.reserve:
            # UP-V2: one reserve card per player goes on top, so everyone gets a turn first.
            n = len(self.players)
            moved, self.reserve[:] = self.reserve[:n], self.reserve[n:]
            self.deck[0:0] = moved
            events.append(f"Safe round: {len(moved)} reserve cards go on top of the share deck (UP-V2).")

    def _form_imaginary(self, events: list[str]) -> None:
        """UP-2P2: display, deck, reserve and UP stack become the imaginary third player's table."""
        holdings: dict[str, int] = {}
        for card in [c for c in self.display if c is not None] + self.deck + self.reserve:
            if card == DIVIDEND:
                self.box.append(card)
            else:
                holdings[card] = holdings.get(card, 0) + 1
        if self.up_stack:
            holdings[UP] = holdings.get(UP, 0) + self.up_stack
        self.display[:] = [None] * 4
        self.deck.clear()
        self.reserve.clear()
        self.up_stack = 0
        self.imaginary = holdings
        self.money.setdefault(IMAGINARY, 0)
        listed = ", ".join(f"{self._card_name(k)} {n}" for k, n in sorted(holdings.items())) or "nothing"
        events.append(f"Two players: the display, the rest of the share deck and the UP stack become the {IMAGINARY}'s shares (UP-2P2): {listed}.")

    def _final_words(self) -> str:
        best = max(self.money.values())
        winners = [h for h, m in self.money.items() if m == best]
        ranking = ", ".join(f"{h} {m}" for h, m in sorted(self.money.items(), key=lambda x: -x[1]))
        if len(winners) == 1:
            return f"The game is over (UP-D12). {winners[0]} wins with {best} million. Money: {ranking}."
        return f"The game is over (UP-D12). {' and '.join(winners)} share the win with {best} million each (DECISION). Money: {ranking}."
