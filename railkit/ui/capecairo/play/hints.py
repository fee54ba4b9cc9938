"""“Why?” for every prompt of the play lesson, and the review after a game.

The hint explains the learner's legal choices right now, asked from the engine: the bid range and
how the order is settled (``legal_actions``, ``explain_auction_order``, KK-A2..KK-A5), the cards that
may be taken (``legal_actions``, KK-A6, KK-C3), and the build count with every allowed purchase
(``explain_build``, ``build_numbers``, ``legal_actions``, KK-B2, KK-B3). The review lists the moves
the heuristic player judged weak (``railkit.capecairo.review``).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from railkit.capecairo import Bid, Build, CapeToCairoGame, Choose, Pass, explain_auction_order, explain_build
from railkit.capecairo.game import TRACK_PRICE  # KK-B2 (4)
from railkit.capecairo.review import review_moves
from railkit.capecairo.views import KKView
from railkit.ui.capecairo.common import as_learner, card_title, pieces_count, pounds
from railkit.ui.i18n import tr, trn

EXAMPLE_BID = 5  # the “what if everybody bid the same” example of the bid hint


def _items(lines: list[str], you: str | None = None) -> str:
    return "<ul>" + "".join(f"<li>{html.escape(as_learner(line, you))}</li>" for line in lines) + "</ul>"


@dataclass(frozen=True)
class BuildCount:
    """The engine's count of a player's next crossing (``explain_build``, ``build_numbers``; KK-B2, KK-C3):
    what the build hint says. At a class table the server sends it for the seat to act."""

    sentences: Sequence[Any]  # the engine's sentences (``Message``s)
    min_buy: int
    cost: int
    coin: int | None  # the next card's coin; None when no terrain is in front of the train


def build_count(game: CapeToCairoGame, you: str) -> BuildCount:
    nums = game.build_numbers(you)
    return BuildCount(explain_build(game, you).sentences, nums.min_buy, nums.cost,
                      nums.card.coin if nums.card is not None else None)


def hint_html(game: CapeToCairoGame, you: str) -> str:
    """Why the learner may do what the page offers now; empty when it is not their move."""
    if game.is_over or you not in game.players_to_act():
        return ""
    count = build_count(game, you) if game.phase == "build" else None
    return seat_hint_html(game.view(you), you, game.legal_actions(you), count)


def seat_hint_html(view: KKView, you: str, legal: Sequence[object], count: BuildCount | None) -> str:
    """``hint_html`` from what a seat knows: its view, its legal moves and (building) the engine's count."""
    if view.phase == "bid":
        return _bid_hint(view, you, [a.amount for a in legal if isinstance(a, Bid)])
    if view.phase == "choose":
        return _choose_hint(view, [a.card_id for a in legal if isinstance(a, Choose)])
    if count is None:
        return ""
    return _build_hint(count, you, legal)


def _bid_hint(view: KKView, you: str, amounts: list[int]) -> str:
    low, high = min(amounts), max(amounts)
    lines = [tr("You may bid any whole number from {low} to {high}, your money; nobody sees it before the reveal "
                "(KK-A2).", low=pounds(low), high=pounds(high)),
             tr("Everybody pays their bid, whether they choose first or last (KK-A3)."),
             tr("The highest bid chooses first, then the next highest (KK-A4)."),
             trn("{n} card is on sale and each player takes one (KK-A1, KK-A6).",
                 "{n} cards are on sale and each player takes one (KK-A1, KK-A6).", len(view.offer))]
    money = view.money  # public: bids are paid only when revealed (KK-A3)
    bids = {p: EXAMPLE_BID for p in view.players}
    made_up = {p: 2 + 3 * i for i, p in enumerate(reversed(view.players))}  # tie-break coins, not the deck's
    example = explain_auction_order(bids, {p: money[p] - EXAMPLE_BID for p in view.players}, made_up.get)
    head = tr("What if everybody bid {bid}? The engine would settle the order like this (KK-A5; the coins drawn "
              "here are made up):", bid=pounds(EXAMPLE_BID))
    return (f"<b>{html.escape(tr('Why these bids?'))}</b>{_items(lines)}<b>{html.escape(head)}</b>"
            f"{_items(example.steps, you)}")


def _choose_hint(view: KKView, card_ids: list[str]) -> str:
    lines = [tr("You may take any card still on sale; it joins the end of your line and is crossed after the "
                "cards already in it (KK-A6)."),
             tr("A card's terrain says how many tracks crossing it needs (KK-C3); its track pieces help every "
                "crossing up to it (KK-B2); its coin is paid when you cross it (KK-B4).")]
    on_sale = {str(card["id"]): card for card in view.offer}
    lines += [tr("Take {card}", card=card_title(on_sale[c])) for c in card_ids if c in on_sale]
    return f"<b>{html.escape(tr('Why these cards?'))}</b>{_items(lines)}"


def _build_hint(count: BuildCount, you: str, legal: Sequence[object]) -> str:
    said = list(count.sentences)  # the full count is on screen above; the hint keeps its verdict
    lines = said[:1] + said[-2:]
    buys = [a.buy or 0 for a in legal if isinstance(a, Build)]
    if buys:
        lines.append(tr("Allowed now: build buying {options} (one piece costs {price}, KK-B2); pieces beyond the "
                        "fewest are kept as bonus tracks.",
                        options=", ".join(pieces_count(n) for n in buys), price=pounds(TRACK_PRICE)))
        if count.coin is not None:
            balance = count.coin - count.cost
            lines.append(tr("Building now costs {cost} and earns the coin {coin}: {verdict} (KK-B2, KK-B4). Crossing "
                            "your last terrain wins whatever it costs (KK-E1).", cost=pounds(count.cost),
                            coin=pounds(count.coin),
                            verdict=tr("you gain {n}", n=pounds(balance)) if balance >= 0
                            else tr("you would be {n} poorer", n=pounds(-balance))))
    else:
        lines.append(trn("You cannot build now: you need {n} more track than you have free and can pay for "
                         "(KK-B2, KK-C5).", "You cannot build now: you need {n} more tracks than you have free and "
                         "can pay for (KK-B2, KK-C5).", count.min_buy))
    if any(isinstance(a, Pass) for a in legal):
        lines.append(tr("Passing is always allowed: the turn goes to the left and the next player turns up a "
                        "card, which may make your next crossing cheaper (KK-B3, KK-B1)."))
    return f"<b>{html.escape(tr('Why build or pass?'))}</b>{_items(lines, you)}"


def review_html(game: CapeToCairoGame, you: str) -> str:
    """After the game: the learner's moves the heuristic player judged weak, with the reasons."""
    return weak_moves_html([w.words for w in review_moves(game, you)])


def weak_moves_html(weak: Sequence[Any]) -> str:
    """The review of a learner's moves from its lines ("Move 12: ...", the engine's messages): at a class table the
    server sends them (``railkit.tables.games``), for a game played here ``review_html`` makes them."""
    if not weak:
        return (f"<b>{html.escape(tr('Review of your moves'))}</b><p>"
                f"{html.escape(tr('The computer found no clearly weak move of yours. Well played!'))}</p>")
    head = trn("Review of your moves: {n} move the computer player would have made differently",
               "Review of your moves: {n} moves the computer player would have made differently", len(weak))
    return f"<b>{html.escape(head)}</b>{_items(list(weak))}"
