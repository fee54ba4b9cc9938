"""Computer players. Each returns a legal action for ``player``; neither reads another
player's sealed bid (only public information and its own hand). ``Bot``, ``RandomBot`` and
``play_game`` are the shared ones of ``railkit.bots``."""

from __future__ import annotations

import random
from typing import Any

from railkit.bots import Bot, RandomBot, play_game
from railkit.capecairo.actions import Bid, Build, Choose, Pass
from railkit.capecairo.checks import TRACK_PRICE
from railkit.capecairo.deck import Card
from railkit.capecairo.game import CapeToCairoGame

__all__ = ["Bot", "HeuristicBot", "RandomBot", "play_game"]


class HeuristicBot:
    """Values a card by coin, track pieces and its place in the bot's line; bids a share of
    the gap between the best card and the rest, within its means; builds when it pays."""

    def __init__(self, seed: int = 0, thrift: int = 5) -> None:
        self.rng = random.Random(seed)
        self.thrift = thrift  # how many pounds a build may lose and still be worth it

    def card_value(self, game: CapeToCairoGame, player: str, card: Card) -> float:
        queue = game._state.queues[player]
        # Pieces on an uncrossed card help every crossing up to and including it (KK-B2 2),
        # so a card joining a longer line is used more often; harder terrain costs tracks.
        reuse = 1 + 0.5 * len(queue)
        value = card.coin + 2.5 * card.tracks * reuse - 3.0 * (card.requirement - 6)
        if card.terrain == "river":
            value += 1.5  # KK-R1: a river ahead earns bonus tracks while it waits
        return value

    def choose(self, game: CapeToCairoGame, player: str) -> Any:
        if game.phase == "bid":
            return Bid(player, self._bid(game, player))
        if game.phase == "choose":
            best = max(game._state.offer, key=lambda c: self.card_value(game, player, game.table.cards[c]))
            return Choose(player, best)
        return self._build_or_pass(game, player)

    def _bid(self, game: CapeToCairoGame, player: str) -> int:
        values = sorted((self.card_value(game, player, game.table.cards[c]) for c in game._state.offer), reverse=True)
        if len(values) < 2:
            gap = values[0] if values else 0.0
        else:
            gap = values[0] - sum(values[1:]) / (len(values) - 1)
        money = game._state.money[player]
        urgent = 3 if not game._state.queues[player] else 0  # an empty line stalls our progress
        want = int(0.8 * gap) + urgent + self.rng.randint(0, 2)
        return max(0, min(want, money // 5))  # never more than a fifth of our money

    def _build_or_pass(self, game: CapeToCairoGame, player: str) -> Any:
        nums = game.build_numbers(player)
        if nums.card is None or not nums.can_afford:
            return Pass(player)
        cost = TRACK_PRICE * nums.min_buy
        wins = len(game._state.crossed[player]) + 1 >= game.table.win_crossings
        if wins or cost - nums.card.coin <= self.thrift or (cost == 0):
            return Build(player, nums.min_buy)
        late = len(game._state.deck) + len(game._state.discard) < len(game.players)  # few cards left to turn up
        if late and nums.money - cost >= 20:
            return Build(player, nums.min_buy)
        return Pass(player)
