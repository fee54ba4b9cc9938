"""Computer players. Each returns a legal action for its player from what that player may know: the public
table and its own line (never another player's sealed bid, nor the deck's order). ``Bot``, ``Player``,
``RandomBot`` and ``play_game`` are the shared ones of ``railkit.bots``.

``HeuristicBot`` answers both ways of asking: ``choose(view, legal)`` (a ``Player``: the seat's ``KKView``) and
``choose(game, player)`` (a ``Bot``, for games played out inside a search). Both read the same facts (money,
the lines of cards, the cards on sale and turned up, the counts of the piles) and make the same choice; only
where they read them differs.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from railkit.bots import Bot, Player, RandomBot, play_game
from railkit.capecairo.actions import Bid, Build, Choose, Pass
from railkit.capecairo.checks import TRACK_PRICE, BuildNumbers
from railkit.capecairo.deck import REQUIREMENT, Card
from railkit.capecairo.game import CapeToCairoGame
from railkit.capecairo.views import KKView

__all__ = ["Bot", "HeuristicBot", "Player", "RandomBot", "play_game"]


def _value(coin: int, tracks: int, terrain: str, queued: int) -> float:
    """What a card is worth to a player with ``queued`` uncrossed cards in their line."""
    # Pieces on an uncrossed card help every crossing up to and including it (KK-B2 2),
    # so a card joining a longer line is used more often; harder terrain costs tracks.
    reuse = 1 + 0.5 * queued
    value = coin + 2.5 * tracks * reuse - 3.0 * (REQUIREMENT[terrain] - 6)
    if terrain == "river":
        value += 1.5  # KK-R1: a river ahead earns bonus tracks while it waits
    return value


class HeuristicBot:
    """Values a card by coin, track pieces and its place in the bot's line; bids a share of
    the gap between the best card and the rest, within its means; builds when it pays."""

    def __init__(self, seed: int = 0, thrift: int = 5) -> None:
        self.rng = random.Random(seed)
        self.thrift = thrift  # how many pounds a build may lose and still be worth it

    def card_value(self, game: CapeToCairoGame, player: str, card: Card) -> float:
        return _value(card.coin, card.tracks, card.terrain, len(game._state.queues[player]))

    def choose(self, game: CapeToCairoGame | KKView, player: Any) -> Any:
        if isinstance(game, KKView):
            return self._choose_seen(game, player)
        state = game._state
        if state.phase == "bid":
            queued = len(state.queues[player])
            cards = game.table.cards
            values = [_value(c.coin, c.tracks, c.terrain, queued) for c in (cards[i] for i in state.offer)]
            action: Any = Bid(player, self._bid(values, state.money[player], queued))
        elif state.phase == "choose":
            queued = len(state.queues[player])
            cards = game.table.cards
            best = max(state.offer, key=lambda i: _value(cards[i].coin, cards[i].tracks, cards[i].terrain, queued))
            action = Choose(player, best)
        else:
            action = self._build_or_pass(player, game.build_numbers(player), len(state.crossed[player]),
                                         game.table.win_crossings, len(state.deck) + len(state.discard),
                                         len(game.players))
        if player in game.players_to_act():
            # legal by construction (a bid within the money, a card on sale, a build it can pay or a pass):
            # ``apply`` of it right after need not check it again (a speed-up for games played out in a search)
            game._legal_draw(action)
        return action

    def _choose_seen(self, view: KKView, legal: Sequence[Any]) -> Any:
        """The same choice from the seat's view: ``choose(view, legal)``."""
        player = view.you
        if player is None:
            raise ValueError("a spectator's view has no seat to choose for")
        queue = view.queues[player]
        queued = len(queue)
        if view.phase == "bid":
            values = [_value(c["coin"], c["tracks"], c["terrain"], queued) for c in view.offer]
            return Bid(player, self._bid(values, view.money[player], queued))
        if view.phase == "choose":
            best = max(view.offer, key=lambda c: _value(c["coin"], c["tracks"], c["terrain"], queued))
            return Choose(player, best["id"])
        numbers = _numbers(player, queue, view.flipped, view.bonus_tracks[player], view.money[player])
        return self._build_or_pass(player, numbers, view.crossed[player], view.win_crossings,
                                   view.deck_count + view.discard_count, len(view.players))

    def _bid(self, values: Iterable[float], money: int, queued: int) -> int:
        values = sorted(values, reverse=True)
        if len(values) < 2:
            gap = values[0] if values else 0.0
        else:
            gap = values[0] - sum(values[1:]) / (len(values) - 1)
        urgent = 3 if not queued else 0  # an empty line stalls our progress
        want = int(0.8 * gap) + urgent + self.rng.randint(0, 2)
        return max(0, min(want, money // 5))  # never more than a fifth of our money

    def _build_or_pass(self, player: str, nums: BuildNumbers, crossed: int, win_crossings: int, unseen: int,
                       players: int) -> Any:
        if nums.card is None or not nums.can_afford:
            return Pass(player)
        cost = TRACK_PRICE * nums.min_buy
        wins = crossed + 1 >= win_crossings
        if wins or cost - nums.card.coin <= self.thrift or (cost == 0):
            return Build(player, nums.min_buy)
        late = unseen < players  # few cards left to turn up
        if late and nums.money - cost >= 20:
            return Build(player, nums.min_buy)
        return Pass(player)


def _numbers(player: str, queue: Sequence[Any], flipped: Sequence[Any], bonus: int, money: int) -> BuildNumbers:
    """KK-B2's four track sources from a view's cards (``checks.build_numbers`` from the state's)."""
    card = Card(queue[0]["id"], queue[0]["terrain"], queue[0]["tracks"], queue[0]["coin"]) if queue else None
    return BuildNumbers(player, card, card.requirement if card else 0, sum(c["tracks"] for c in flipped),
                        sum(c["tracks"] for c in queue), bonus, money)
