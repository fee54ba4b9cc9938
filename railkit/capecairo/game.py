"""The Vom Kap bis Kairo engine: auction and track building alternate until someone crosses
eight terrains (KK-E1) or the game stalls (KK-B8).

The action log is the game (see ``railkit.game.Game``): setup shuffles the deck with
``random.Random(seed)``; every later reshuffle uses the same generator, in a fixed order.
Checks live in ``rules_check.py``; views, the state dict and the result in ``views.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any, Sequence

from railkit.capecairo import rules_check, views
from railkit.capecairo.actions import Action, Bid, Build, Choose, Pass, registry
from railkit.capecairo.auction import explain_auction_order
from railkit.capecairo.deck import Card, load_deck
from railkit.capecairo.rules_check import TRACK_PRICE
from railkit.game import Game

START_MONEY = 100  # KK-C5, KK-S1
BONUS_CAP = 5  # KK-R3
DEFAULT_OPTIONS: dict[str, Any] = {
    "deck": None,  # path of a deck file (KK-C4); None: the shipped data/cape_to_cairo/deck.json
    "win_crossings": 8,  # KK-E1; fewer makes a short teaching game
    "river_bonus_for_builder": True,  # KK-R1 DECISION
    "stack": None,  # card ids laid on top of the shuffled deck, first turned up first (lessons, tests)
}
COLOURS = ("red", "yellow", "green", "blue")  # KK-C1: one train and tender per colour


class CapeToCairoGame(Game[Action]):
    GAME = "cape_to_cairo"
    TITLE = "Vom Kap bis Kairo"
    PLAYER_RANGE = (2, 4)
    PLAYER_RULE = "KK-S1"
    OPTIONS_RULE = "KK-S1"
    OPTION_DEFAULTS = DEFAULT_OPTIONS
    registry = registry
    phase: str = "bid"  # bid | choose | build | over (set per game in _setup)

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return _check_options(options)

    def _setup(self) -> None:
        self.colours = dict(zip(self.players, COLOURS))  # KK-C1
        self.opt = self.options
        self.cards: dict[str, Card] = {c.id: c for c in load_deck(self.opt["deck"])}
        unknown = [c for c in self.opt["stack"] or () if c not in self.cards]
        if unknown:
            raise ValueError(f"stack names cards not in the deck: {unknown}")
        # KK-S1: deck shuffled face down (top = end of the list), everyone at 100 pounds.
        self.deck: list[str] = list(self.cards)
        self.rng.shuffle(self.deck)
        if self.opt["stack"]:
            on_top = list(self.opt["stack"])
            stacked = set(on_top)
            self.deck = [c for c in self.deck if c not in stacked] + on_top[::-1]
        self.discard: list[str] = []
        self.flipped: list[str] = []  # turned up in this building round (KK-B1, KK-B3)
        self.offer: list[str] = []  # on sale in the auction (KK-A1)
        self.money = {p: START_MONEY for p in self.players}
        self.queues: dict[str, list[str]] = {p: [] for p in self.players}  # in front of the train, in order
        self.crossed: dict[str, list[str]] = {p: [] for p in self.players}
        self.bonus: dict[str, list[str]] = {p: [] for p in self.players}  # face-down bonus tracks (KK-R2)
        self.phase = "bid"  # bid | choose | build | over
        self.bids: dict[str, int] = {}  # sealed, hidden until all are in (KK-A2)
        self.choosers: list[str] = []  # who still chooses, in order (KK-A4)
        self.auction_no = 0
        self.last_auction: dict[str, Any] | None = None
        self.auction_winner: str | None = None
        self.turn: str | None = None
        self.turn_flipped = False
        self.idle_passes = 0  # passes in a row on turns with no card to turn up (KK-B8)
        self.last_builder: str | None = None
        self.reshuffles = 0
        self.ending: str | None = None
        self.winners: tuple[str, ...] = ()
        self._seat = {p: i for i, p in enumerate(self.players)}
        self._narrative.append(f"The deck of {len(self.deck)} terrain cards is shuffled; everyone starts with {START_MONEY} pounds (KK-S1).")
        self._start_auction(self._narrative)

    # -- the Game interface ---------------------------------------------------
    @property
    def current_player(self) -> str | None:
        if self.phase == "bid":
            return next(p for p in self.players if p not in self.bids)
        if self.phase == "choose":
            return self.choosers[0]
        return self.turn if self.phase == "build" else None

    def players_to_act(self) -> tuple[str, ...]:
        if self.phase == "bid":  # sealed bids are simultaneous (KK-A2)
            return tuple(p for p in self.players if p not in self.bids)
        player = self.current_player
        return () if player is None else (player,)

    def _game_over_rule(self) -> str:
        return self.ending or "KK-E1"

    def check(self, action: Any) -> None:
        rules_check.check(self, action)

    def legal_actions(self, player: str | None = None) -> list[Any]:
        return rules_check.legal_actions(self, player)

    def _perform(self, action: Any) -> list[str]:
        events: list[str] = []
        kind = type(action)
        if kind is Bid:
            self._bid(action.player, action.amount, events)
        elif kind is Choose:
            self._choose(action.player, action.card_id, events)
        elif kind is Build:
            numbers = self.build_numbers(action.player)
            self._build(action.player, numbers, numbers.resolve_buy(action.buy), events)
        elif kind is Pass:
            self._pass(action.player, events)
        return events

    def result(self) -> views.Result:
        return views.result(self)

    def view(self, player: str | None) -> dict[str, Any]:
        return views.view(self, player)

    def state_dict(self) -> dict[str, Any]:
        return views.state_dict(self)

    def describe(self, action: Action) -> str:
        """``action`` in plain words (a sealed bid's amount stays hidden, KK-A2)."""
        p = action.player
        if isinstance(action, Bid):
            return f"{p} hands in a sealed bid (KK-A2)"
        if isinstance(action, Choose):
            card = self.cards.get(action.card_id)
            return f"{p} takes the {card.terrain if card else action.card_id} card (KK-A4)"
        if isinstance(action, Build):
            extra = "" if action.buy is None else f", buying {action.buy} track piece{'' if action.buy == 1 else 's'}"
            return f"{p} crosses the next terrain{extra} (KK-B2)"
        if isinstance(action, Pass):
            return f"{p} passes (KK-B3)"
        raise TypeError(f"{action!r} is not a Vom Kap bis Kairo action")

    # -- helpers for explanations, bots and the UI ---------------------------
    def build_numbers(self, player: str) -> rules_check.BuildNumbers:
        return rules_check.build_numbers(self, player)

    def explain_build(self, player: str | None = None) -> Any:
        from railkit.capecairo.explain import explain_build

        return explain_build(self, player)

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def left_of(self, player: str) -> str:
        """The next player in seating order: the turn passes to the left (KK-B3)."""
        return self.players[(self._seat[player] + 1) % len(self.players)]

    # -- moving cards ---------------------------------------------------------
    def _take_top(self, events: list[str]) -> str | None:
        """Top card of the deck; an empty deck is first refilled from the discards (KK-B7)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.reshuffles += 1
            events.append(f"The deck ran out: the {len(self.deck)} discarded cards are shuffled into a new deck (KK-B7).")
        return self.deck.pop()

    # -- the auction (KK-A) ---------------------------------------------------
    def _start_auction(self, events: list[str]) -> None:
        self.auction_no += 1
        offer: list[str] = []
        for _ in self.players:  # KK-A1: as many cards as players
            card_id = self._take_top(events)
            if card_id is None:
                break
            offer.append(card_id)
        if not offer:
            # Ruling on KK-A1: nothing can be sold, so the auction is skipped and building goes
            # on with the last builder; KK-B8 ends the game if nobody can build any more.
            events.append("No card is left in the deck or the discard pile, so there is no auction; building goes on.")
            self._start_building(self.last_builder or self.players[0], events)
            return
        self.phase, self.offer, self.bids = "bid", offer, {}
        cards = "; ".join(str(self.cards[c]) for c in offer)
        events.append(f"Auction {self.auction_no}: on sale {cards}. Everyone hands in a sealed bid (KK-A1, KK-A2).")
        if len(offer) < len(self.players):
            events.append(f"Only {len(offer)} card(s) could be turned up: the last in choosing order get none this time.")

    def _bid(self, player: str, amount: int, events: list[str]) -> None:
        self.bids[player] = amount
        events.append(f"{player} hands in a sealed bid.")  # the amount stays hidden (KK-A2)
        if len(self.bids) == len(self.players):
            self._resolve_auction(events)

    def _resolve_auction(self, events: list[str]) -> None:
        bids = {p: self.bids[p] for p in self.players}  # seating order
        for p, amount in bids.items():  # KK-A3: all pay their own bid
            self.money[p] -= amount
        events.append("Bids revealed: " + ", ".join(f"{p} {a}" for p, a in bids.items()) + "; everyone pays their bid (KK-A3).")
        aside: list[str] = []  # KK-A5 draws, set aside until the order is settled, then discarded

        def draw(player: str) -> int | None:
            card_id = self._take_top(events)
            if card_id is None:
                return None
            aside.append(card_id)
            return self.cards[card_id].coin

        explained = explain_auction_order(bids, dict(self.money), draw)
        self.discard.extend(aside)
        events.extend(explained.steps[1:])
        order = explained.order
        self.bids = {}
        self.last_auction = {"number": self.auction_no, "offer": list(self.offer), "bids": bids, "order": order,
                             "tie_break_cards": aside, "steps": explained.steps}
        self.auction_winner = order[0]
        self.choosers = order[: len(self.offer)]
        for p in order[len(self.offer):]:
            events.append(f"{p} gets no card in this auction: too few cards were left.")
        self.phase = "choose"
        self._auto_choose(events)

    def _choose(self, player: str, card_id: str, events: list[str]) -> None:
        self.offer.remove(card_id)
        self.choosers.pop(0)
        self.queues[player].append(card_id)  # KK-A6: behind the cards bought earlier
        events.append(f"{player} takes {self.cards[card_id]} and lays it at the end of their line (KK-A6).")
        self._auto_choose(events)

    def _auto_choose(self, events: list[str]) -> None:
        if len(self.offer) == 1:  # the last card has no choice left: it goes to the last chooser
            player, card_id = self.choosers.pop(0), self.offer.pop()
            self.queues[player].append(card_id)
            events.append(f"{player} gets the last card, {self.cards[card_id]} (KK-A4, KK-A6).")
        if not self.offer:
            winner = self.auction_winner or self.players[0]
            events.append(f"{winner} won the auction and opens the building phase (KK-A7).")
            self._start_building(winner, events)

    # -- track building (KK-B) ------------------------------------------------
    def _start_building(self, opener: str, events: list[str]) -> None:
        self.phase, self.flipped, self.idle_passes = "build", [], 0
        self._begin_turn(opener, events)

    def _begin_turn(self, player: str, events: list[str]) -> None:
        self.turn = player
        card_id = self._take_top(events)
        self.turn_flipped = card_id is not None
        if card_id is None:
            events.append(f"{player}'s turn: no card is left to turn up.")
            return
        self.flipped.append(card_id)
        self.idle_passes = 0
        events.append(f"{player} turns up {self.cards[card_id]} (KK-B1).")

    def _pass(self, player: str, events: list[str]) -> None:
        events.append(f"{player} passes; the turn goes to the left (KK-B3).")
        if not self.turn_flipped:
            self.idle_passes += 1
            if self.idle_passes >= len(self.players):
                self._end_stalled(events)
                return
        self._begin_turn(self.left_of(player), events)

    def _build(self, player: str, numbers: rules_check.BuildNumbers, buy: int, events: list[str]) -> None:
        card = self.cards[self.queues[player].pop(0)]
        spend = numbers.bonus_spent(buy)
        self.money[player] += card.coin - TRACK_PRICE * buy
        self.crossed[player].append(card.id)
        events.append(
            f"{player} crosses {card} with {numbers.flipped} track(s) from turned-up cards, {numbers.own} from their "
            f"terrain cards, {spend} bonus and {buy} bought for {_pounds(TRACK_PRICE * buy)}; receives {_pounds(card.coin)} (KK-B2, KK-B4)."
        )
        # KK-B4: turned-up cards and spent bonus tracks go to the discard pile.
        self.discard.extend(self.flipped)
        self.flipped = []
        if spend:
            held = self.bonus[player]
            self.discard.extend(held[len(held) - spend:])
            del held[len(held) - spend:]
        self.last_builder, self.idle_passes = player, 0
        if len(self.crossed[player]) >= self.opt["win_crossings"]:  # KK-E1: wins at once
            self.phase, self.ending, self.winners, self.turn = "over", "KK-E1", (player,), None
            events.append(f"{player} has crossed {len(self.crossed[player])} terrains and wins the game (KK-E1).")
            return
        self._river_bonus(player, events)
        empty = [p for p in self.players if not self.queues[p]]
        if empty:  # KK-B5
            who = f"{empty[0]} has" if len(empty) == 1 else f"{', '.join(empty)} have"
            events.append(f"{who} no terrain left: the building phase ends and a new auction begins (KK-B5).")
            self.flipped, self.turn = [], None
            self._start_auction(events)
        else:  # KK-B5: the last builder goes on
            self._begin_turn(player, events)

    def _river_bonus(self, builder: str, events: list[str]) -> None:
        """KK-R1..R3: one bonus track to each player whose next terrain is a river, cap five.

        Seating order from the builder; the card comes from the top of the discard pile, else the
        deck (railkit ruling); with neither, no bonus.
        """
        start = self._seat[builder]
        n = len(self.players)
        for i in range(n):
            p = self.players[(start + i) % n]
            queue = self.queues[p]
            if not queue or self.cards[queue[0]].terrain != "river":
                continue
            if p == builder and not self.opt["river_bonus_for_builder"]:
                continue
            if len(self.bonus[p]) >= BONUS_CAP:
                events.append(f"{p} faces a river but already holds {BONUS_CAP} bonus tracks (KK-R3).")
                continue
            pile = self.discard if self.discard else self.deck
            if not pile:
                events.append(f"{p} faces a river, but no card is left for a bonus track (KK-R2).")
                continue
            self.bonus[p].append(pile.pop())
            events.append(f"{p} faces a river and takes a bonus track, now {len(self.bonus[p])} (KK-R1).")

    def _end_stalled(self, events: list[str]) -> None:
        """KK-B8 DECISION: most terrain crossed wins, then most money; still tied: shared win."""
        best = max((len(self.crossed[p]), self.money[p]) for p in self.players)
        self.winners = tuple(p for p in self.players if (len(self.crossed[p]), self.money[p]) == best)
        self.phase, self.ending, self.turn = "over", "KK-B8", None
        events.append(
            f"Everyone passed in a row with no card left to turn up: the game is stuck and ends (KK-B8). "
            f"Most terrain crossed, then most money, wins: {', '.join(self.winners)}."
        )


def _pounds(amount: int) -> str:
    return f"{amount} pound" if amount == 1 else f"{amount} pounds"


def _check_options(options: dict[str, Any]) -> dict[str, Any]:
    win = options.get("win_crossings", 8)
    if isinstance(win, bool) or not isinstance(win, int) or not 1 <= win <= 8:
        raise ValueError(f"win_crossings must be a whole number from 1 to 8, not {win!r}")
    if not isinstance(options.get("river_bonus_for_builder", True), bool):
        raise ValueError("river_bonus_for_builder must be true or false")
    deck = options.get("deck")
    if deck is not None and not isinstance(deck, str):
        raise ValueError("deck must be the path of a deck file (text)")
    stack = options.get("stack")
    if stack is not None:
        if isinstance(stack, str) or not all(isinstance(c, str) for c in stack) or len(set(stack)) != len(stack):
            raise ValueError("stack must be a list of different card ids")
        options = {**options, "stack": list(stack)}
    return dict(options)


def new_game(players: int | Sequence[str], seed: int = 0, **options: Any) -> CapeToCairoGame:
    """A new game: ``players`` is 2-4 names or a count; options: ``deck``, ``win_crossings``,
    ``river_bonus_for_builder``, ``stack`` (see ``DEFAULT_OPTIONS``)."""
    return CapeToCairoGame(players, seed=seed, **options)


def load_game(save: str | bytes | dict[str, Any]) -> CapeToCairoGame:
    """Rebuild a saved game (``to_json()`` text or ``to_dict()``) by replaying its log;
    ``SaveFileError`` in plain words when it cannot be read."""
    return CapeToCairoGame.load(save)


__all__ = ["BONUS_CAP", "CapeToCairoGame", "START_MONEY", "TRACK_PRICE", "load_game", "new_game"]
