"""Games dealt from one seat's view: everything the seat sees kept, everything hidden dealt again at random.

A computer player that looks ahead needs whole games to try its moves in, but it may know only its seat's
``KKView``. ``deal(view, rng)`` builds such a game from the view alone (so it cannot hold more than the seat
knows): money, the lines of terrain cards, the crossed cards, the cards turned up and on sale, the auction's
state and the building turn as the view shows them.

What is hidden, and how it is dealt again:

* **The unseen cards**: the deck (KK-S1, face down), the discard pile and the face-down bonus tracks (KK-R2).
  Every card of the deck file that is not in a line, crossed, turned up or on sale is shuffled and dealt into
  those three places in the sizes the view gives (``deck_count``, ``discard_count``, ``bonus_tracks``): the
  deck's order and the piles' make-up are as unknown to the seat as to anyone.
* **Sealed bids** (KK-A2): the other players' bids in an open auction are not dealt; in the game dealt they
  are still to bid (who has handed one in is public, how much is not). The seat's own bid is kept.

A dealt game has no history (its log starts empty) and its own random generator (drawn from ``rng``), so the
deck's later reshuffles (KK-B7) are as unknown as everything else. ``Dealer`` works out what every game dealt
from one view shares once, then deals many games fast.
"""

from __future__ import annotations

import random

from railkit.capecairo.deck import cards_by_id
from railkit.capecairo.game import COLOURS, CapeToCairoGame
from railkit.capecairo.state import AuctionRecord, KKState, KKTable
from railkit.capecairo.views import KKView

__all__ = ["Dealer", "deal"]


def deal(view: KKView, rng: random.Random) -> CapeToCairoGame:
    """A game consistent with ``view`` (a seat's, ``view.you`` set): see the module docstring."""
    return Dealer(view).deal(rng)


class Dealer:
    """Deals games consistent with one seat's view; the parts every game dealt shares are worked out once."""

    def __init__(self, view: KKView) -> None:
        if not isinstance(view, KKView):
            raise TypeError(f"a Vom Kap bis Kairo view is needed, not {type(view).__name__}")
        if view.you is None:
            raise ValueError("a spectator's view has no seat to deal for; use a player's view")
        self.view = view
        players = view.players
        cards = cards_by_id(view.deck_file)
        self.table = KKTable(
            players=players,
            cards=cards,
            colours={p: view.colours.get(p, c) for p, c in zip(players, COLOURS, strict=False)},
            seat={p: i for i, p in enumerate(players)},
            win_crossings=view.win_crossings,
            river_bonus_for_builder=view.river_bonus_for_builder,
        )
        self.options = {"deck": view.deck_file, "win_crossings": view.win_crossings,
                        "river_bonus_for_builder": view.river_bonus_for_builder, "stack": None}
        seen = {c["id"] for line in (*view.queues.values(), *view.crossed_cards.values(), view.flipped, view.offer)
                for c in line}
        self.unseen = [c for c in cards if c not in seen]  # deck file order: the same list for the same view
        last = view.last_auction
        self._base = KKState(
            rng=random.Random(0),
            deck=[],
            money=dict(view.money),
            queues={p: [c["id"] for c in view.queues[p]] for p in players},
            crossed={p: [c["id"] for c in view.crossed_cards[p]] for p in players},
            bonus={p: [] for p in players},
            discard=[],
            flipped=[c["id"] for c in view.flipped],
            offer=[c["id"] for c in view.offer],
            phase=view.phase,
            bids={view.you: view.your_bid} if view.your_bid is not None else {},
            choosers=list(view.choosing_order),
            auction_no=view.auction,
            last_auction=None if last is None else AuctionRecord(
                number=last["number"], offer=list(last["offer"]), bids=dict(last["bids"]), order=list(last["order"]),
                tie_break_cards=list(last["tie_break_cards"]), steps=list(last["steps"])),
            auction_winner=last["order"][0] if last is not None and last["order"] else None,
            turn=view.turn,
            turn_flipped=view.turn_flipped,
            idle_passes=view.idle_passes,
            last_builder=view.last_builder,
            reshuffles=0,
            end_reason=view.end_reason,
            winners=tuple(view.winners),
        )

    def deal(self, rng: random.Random) -> CapeToCairoGame:
        """One game consistent with the view, its unseen cards dealt with ``rng``."""
        view = self.view
        state = self._base.copy()
        state.rng = random.Random(rng.getrandbits(64))
        unseen = list(self.unseen)
        rng.shuffle(unseen)
        for p in view.players:
            count = view.bonus_tracks[p]
            state.bonus[p] = unseen[len(unseen) - count:] if count else []
            del unseen[len(unseen) - count:]
        state.discard = unseen[len(unseen) - view.discard_count:] if view.discard_count else []
        del unseen[len(unseen) - view.discard_count:]
        state.deck = unseen  # what is left: deck_count cards for a view of a real game
        game = CapeToCairoGame.dealt(view.players, self.options, state.rng)
        game.table = self.table
        game._state = state
        return game
