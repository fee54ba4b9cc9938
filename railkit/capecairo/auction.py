"""The order in which auction buyers choose (KK-A4, KK-A5), as a pure function.

The game calls ``explain_auction_order`` with a ``draw`` that turns up real cards; lessons
and tests call it with scripted draws.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Optional

from railkit.capecairo.phrases import pounds
from railkit.messages import N_, Message, addressed, addressed_group, comma_list, names_message, nmessage

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{player} has {money} left.",
          "You have {money} left.")

# A tie that keeps repeating (a scripted draw that always ties) falls back to seating order
# after this many rounds of draws; the real deck of 50 cards cannot get near it.
MAX_DRAW_ROUNDS = 50

Draw = Callable[[str], Optional[int]]

# KK-A5 ties in words: "both" for two players, "all" for more ({players} is "Ann, Ben and Cy").
_BOTH_ALL = {
    True: (N_("{players} both bid {bid}: the one with the least money left chooses first (KK-A5)."),
           N_("{players} both drew coin {coin}: they draw again.")),
    False: (N_("{players} all bid {bid}: the one with the least money left chooses first (KK-A5)."),
            N_("{players} all drew coin {coin}: they draw again.")),
}
# The learner among the tied players: the second person plural (railkit.messages.addressed_group); "both" and
# "all" share one pair, chosen by the number of the others.
for _third in (_BOTH_ALL[True][0], _BOTH_ALL[False][0]):
    addressed_group(_third, "You and {other} both bid {bid}: the one with the least money left chooses first (KK-A5).",
                    "You, {others} and {last} all bid {bid}: the one with the least money left chooses first (KK-A5).")
for _third in (_BOTH_ALL[True][1], _BOTH_ALL[False][1]):
    addressed_group(_third, "You and {other} both drew coin {coin}: you draw again.",
                    "You, {others} and {last} all drew coin {coin}: you draw again.")
addressed_group("{players} have the same money left ({money}): each draws a card, highest coin first (KK-A5).",
                "You and {other} have the same money left ({money}): each of you draws a card, highest coin first "
                "(KK-A5).",
                "You, {others} and {last} have the same money left ({money}): each of you draws a card, highest "
                "coin first (KK-A5).")


@dataclass
class AuctionExplanation:
    """The choosing order and, in words, how each tie was settled."""

    order: list[str]
    steps: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(self.steps)

    def __repr__(self) -> str:
        return f"<AuctionExplanation: {', '.join(self.order)} choose in this order>"

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{html.escape(s)}</li>" for s in self.steps)
        return f"<ol>{items}</ol>"


def auction_order(bids: Mapping[str, int], money_left: Mapping[str, int], draw: Draw) -> list[str]:
    """Players in choosing order.

    ``bids`` is {player: bid} in seating order; ``money_left`` the money after paying the bid;
    ``draw(player)`` turns up a card for that player and returns its coin (``None`` when no
    card is left, which settles the rest of that tie in seating order).
    """
    return _settle(bids, money_left, draw, None)


def explain_auction_order(bids: Mapping[str, int], money_left: Mapping[str, int], draw: Draw) -> AuctionExplanation:
    """``auction_order`` plus each step in words."""
    steps: list[str] = []
    order = _settle(bids, money_left, draw, steps)
    steps.append(Message("Choosing order: {order}.", {"order": comma_list(order)}))
    return AuctionExplanation(order, steps)


def _settle(bids: Mapping[str, int], money_left: Mapping[str, int], draw: Draw, steps: list[str] | None) -> list[str]:
    seats = list(bids)
    if steps is not None:
        steps.append(Message("Bids: {bids} (KK-A4: highest bid chooses first).",
                             {"bids": comma_list([Message(N_("{name} {value}"), {"name": p, "value": bids[p]})
                                                  for p in seats])}))
    order: list[str] = []
    # KK-A4: higher bid first; tie groups are settled from the highest bid down.
    for bid in sorted(set(bids.values()), reverse=True):
        group = [p for p in seats if bids[p] == bid]
        if len(group) == 1:
            order.extend(group)
            continue
        if steps is not None:
            steps.append(Message(_BOTH_ALL[len(group) == 2][0], {"players": names_message(group), "bid": bid}))
        # KK-A5: among equal bids, less money left first.
        for money in sorted({money_left[p] for p in group}):
            sub = [p for p in group if money_left[p] == money]
            if len(sub) == 1:
                if steps is not None:
                    steps.append(Message("{player} has {money} left.", {"player": sub[0], "money": pounds(money)}))
                order.extend(sub)
            else:
                if steps is not None:
                    steps.append(Message("{players} have the same money left ({money}): each draws a card, "
                                         "highest coin first (KK-A5).", {"players": names_message(sub), "money": pounds(money)}))
                order.extend(_draw_off(sub, draw, steps, [0]))
    return order


def _draw_off(tied: list[str], draw: Draw, steps: list[str] | None, rounds: list[int]) -> list[str]:
    """Settle ``tied`` (in seating order) by draws; only those still tied draw again."""
    rounds[0] += 1
    if rounds[0] > MAX_DRAW_ROUNDS:
        if steps is not None:
            steps.append(nmessage("Still tied after {n} round of draws: seating order decides ({players}).",
                                  "Still tied after {n} rounds of draws: seating order decides ({players}).",
                                  MAX_DRAW_ROUNDS, {"players": names_message(tied)}))
        return list(tied)
    coins: dict[str, int] = {}
    for player in tied:  # draws are made in seating order
        coin = draw(player)
        if coin is None:
            # No card left anywhere (deck and discard empty): seating order settles it (railkit ruling).
            if steps is not None:
                steps.append(Message("No card is left to draw: seating order decides ({players}).",
                                     {"players": names_message(tied)}))
            return list(tied)
        coins[player] = coin
    if steps is not None:
        drawn = [Message("{player} coin {coin}", {"player": p, "coin": coins[p]}) for p in tied]
        joined = drawn[-1]
        for part in reversed(drawn[:-1]):  # nested messages, so each "coin" is translated
            joined = Message("{first}, {rest}", {"first": part, "rest": joined})
        steps.append(Message("Draws: {draws}.", {"draws": joined}))
    order: list[str] = []
    for coin in sorted(set(coins.values()), reverse=True):
        group = [p for p in tied if coins[p] == coin]
        if len(group) == 1:
            order.extend(group)
        else:
            if steps is not None:
                steps.append(Message(_BOTH_ALL[len(group) == 2][1], {"players": names_message(group), "coin": coin}))
            order.extend(_draw_off(group, draw, steps, rounds))
    return order

