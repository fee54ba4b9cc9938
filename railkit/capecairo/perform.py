"""Carrying out checked actions: the auction (KK-A) and track building (KK-B, KK-R, KK-E).

Every function changes the ``KKState`` it is given and appends what happened, in words, to
``events``. Nothing here checks legality: ``checks.check`` has done that first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from railkit.capecairo.actions import Bid, Build, Choose, KKAction, Pass
from railkit.capecairo.auction import explain_auction_order
from railkit.capecairo.checks import TRACK_PRICE, BuildNumbers, build_numbers
from railkit.capecairo.phrases import bonus_tracks, card_words, cards, pounds, terrains, track_pieces
from railkit.capecairo.state import AuctionRecord, KKState, KKTable
from railkit.errors import RuleError
from railkit.messages import Message, addressed, addressed_group, comma_list, names_message, nmessage

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{player} hands in a sealed bid.",
          "You hand in a sealed bid.")
addressed("{player} gets no card in this auction: too few cards were left.",
          "You get no card in this auction: too few cards were left.")
addressed("{player} takes {card} and lays it at the end of their line (KK-A6).",
          "You take {card} and lay it at the end of your line (KK-A6).")
addressed("{player} gets the last card, {card} (KK-A4, KK-A6).",
          "You get the last card, {card} (KK-A4, KK-A6).")
addressed("{player} won the auction and opens the building phase (KK-A7).",
          "You won the auction and open the building phase (KK-A7).")
addressed("{player}'s turn: no card is left to turn up.",
          "Your turn: no card is left to turn up.")
addressed("{player} turns up {card} (KK-B1).",
          "You turn up {card} (KK-B1).")
addressed("{player} passes; the turn goes to the left (KK-B3).",
          "You pass; the turn goes to the left (KK-B3).")
addressed("{player} crosses {card} with {flipped} from turned-up cards, {own} from their own terrain "
           "cards, {bonus} and {bought}; {player} receives {coin} (KK-B2, KK-B4).",
          "You cross {card} with {flipped} from turned-up cards, {own} from your own terrain cards, "
           "{bonus} and {bought}; you receive {coin} (KK-B2, KK-B4).")
addressed("{player} has crossed {terrains} and wins the game (KK-E1).",
          "You have crossed {terrains} and win the game (KK-E1).")
addressed("{players} has no terrain left: the building phase ends and a new auction begins (KK-B5).",
          "You have no terrain left: the building phase ends and a new auction begins (KK-B5).", subject="players")
addressed_group("{players} has no terrain left: the building phase ends and a new auction begins (KK-B5).",
                "You and {other} have no terrain left: the building phase ends and a new auction begins (KK-B5).",
                "You, {others} and {last} have no terrain left: the building phase ends and a new auction begins "
                "(KK-B5).")
addressed("Everyone passed in a row with no card left to turn up: the game is stuck and ends (KK-B8). Most terrain "
          "crossed, then most money, decides: {players} wins.",
          "Everyone passed in a row with no card left to turn up: the game is stuck and ends (KK-B8). Most terrain "
          "crossed, then most money, decides: you win.", subject="players")
addressed_group("Everyone passed in a row with no card left to turn up: the game is stuck and ends (KK-B8). Most "
                "terrain crossed, then most money, decides: {players} wins.",
                "Everyone passed in a row with no card left to turn up: the game is stuck and ends (KK-B8). Most "
                "terrain crossed, then most money, decides: you and {other} share the win.",
                "Everyone passed in a row with no card left to turn up: the game is stuck and ends (KK-B8). Most "
                "terrain crossed, then most money, decides: you, {others} and {last} share the win.")
addressed("{player} faces a river but already holds {cap} bonus tracks (KK-R3).",
          "You face a river but already hold {cap} bonus tracks (KK-R3).")
addressed("{player} faces a river, but no card is left for a bonus track (KK-R2).",
          "You face a river, but no card is left for a bonus track (KK-R2).")
addressed("{player} faces a river and takes a bonus track, now holding {held} (KK-R1).",
          "You face a river and take a bonus track, now holding {held} (KK-R1).")

START_MONEY = 100  # KK-C5, KK-S1
BONUS_CAP = 5  # KK-R3


def setup(table: KKTable, rng: random.Random, stack: Sequence[str] | None, events: list[str]) -> KKState:
    """KK-S1: the deck shuffled face down (top = end of the list), everyone at 100 pounds; then
    the first auction. ``stack`` lays known cards on top, first turned up first (lessons, tests)."""
    unknown = [c for c in stack or () if c not in table.cards]
    if unknown:
        shown = ", ".join(repr(c[:20]) for c in unknown[:5])
        raise RuleError("KK-C4", Message("stack names cards not in the deck: {cards}", {"cards": shown}))
    deck = list(table.cards)
    rng.shuffle(deck)
    if stack:
        stacked = set(stack)
        deck = [c for c in deck if c not in stacked] + list(stack)[::-1]
    state = KKState.new(table.players, deck, START_MONEY, rng)
    events.append(Message("The deck of {cards} terrain cards is shuffled; everyone starts with {money} pounds (KK-S1).",
                          {"cards": len(deck), "money": START_MONEY}))
    _start_auction(table, state, events)
    return state


def perform(table: KKTable, state: KKState, action: KKAction) -> list[str]:
    """Carry out a checked action; return what happened, in words."""
    events: list[str] = []
    kind = type(action)
    if kind is Pass:  # the commonest first
        _pass(table, state, action.player, events)
    elif kind is Bid:
        _bid(table, state, action.player, action.amount, events)  # type: ignore[union-attr]
    elif kind is Build:
        numbers = build_numbers(table, state, action.player)
        _build(table, state, numbers, numbers.resolve_buy(action.buy), events)  # type: ignore[union-attr]
    elif kind is Choose:
        _choose(table, state, action.player, action.card_id, events)  # type: ignore[union-attr]
    elif isinstance(action, Bid):  # subclasses of the actions, as before
        _bid(table, state, action.player, action.amount, events)
    elif isinstance(action, Choose):
        _choose(table, state, action.player, action.card_id, events)
    elif isinstance(action, Build):
        numbers = build_numbers(table, state, action.player)
        _build(table, state, numbers, numbers.resolve_buy(action.buy), events)
    elif isinstance(action, Pass):
        _pass(table, state, action.player, events)
    return events


# -- moving cards ----------------------------------------------------------------------------
def _take_top(table: KKTable, state: KKState, events: list[str]) -> str | None:
    """Top card of the deck; an empty deck is first refilled from the discards (KK-B7)."""
    if not state.deck:
        if not state.discard:
            return None
        state.deck, state.discard = state.discard, []
        state.rng.shuffle(state.deck)
        state.reshuffles += 1
        events.append(Message("The deck ran out: the discard pile ({pile}) is shuffled into a new deck (KK-B7).",
                              {"pile": cards(len(state.deck))}))
    return state.deck.pop()


# -- the auction (KK-A) ----------------------------------------------------------------------
def _start_auction(table: KKTable, state: KKState, events: list[str]) -> None:
    state.auction_no += 1
    offer: list[str] = []
    for _ in table.players:  # KK-A1: as many cards as players
        card_id = _take_top(table, state, events)
        if card_id is None:
            break
        offer.append(card_id)
    if not offer:
        # Ruling on KK-A1: nothing can be sold, so the auction is skipped and building goes
        # on with the last builder; KK-B8 ends the game if nobody can build any more.
        events.append(Message("No card is left in the deck or the discard pile, so there is no auction; building goes on."))
        _start_building(table, state, state.last_builder or table.players[0], events)
        return
    state.phase, state.offer, state.bids = "bid", offer, {}
    on_sale = _joined([card_words(table.cards[c]) for c in offer])
    events.append(Message("Auction {number}: on sale {cards}. Everyone hands in a sealed bid (KK-A1, KK-A2).",
                          {"number": state.auction_no, "cards": on_sale}))
    if len(offer) < len(table.players):
        events.append(Message("Only {cards} could be turned up: the last in choosing order get none this time.",
                              {"cards": cards(len(offer))}))


def _bid(table: KKTable, state: KKState, player: str, amount: int, events: list[str]) -> None:
    state.bids[player] = amount
    events.append(Message("{player} hands in a sealed bid.", {"player": player}))  # the amount stays hidden (KK-A2)
    if len(state.bids) == len(table.players):
        _resolve_auction(table, state, events)


def _resolve_auction(table: KKTable, state: KKState, events: list[str]) -> None:
    bids = {p: state.bids[p] for p in table.players}  # seating order
    for p, amount in bids.items():  # KK-A3: all pay their own bid
        state.money[p] -= amount
    events.append(Message("Bids revealed: {bids}; everyone pays their bid (KK-A3).",
                          {"bids": comma_list([Message("{name} {value}", {"name": p, "value": a})
                                               for p, a in bids.items()])}))
    aside: list[str] = []  # KK-A5 draws, set aside until the order is settled, then discarded

    def draw(player: str) -> int | None:
        card_id = _take_top(table, state, events)
        if card_id is None:
            return None
        aside.append(card_id)
        return table.cards[card_id].coin

    # Kept in the state (last_auction.steps): in a game nobody narrates (a search's playout) the steps stay drafts,
    # made into sentences when a view or a copy reads them (state.copy_record)
    explained = explain_auction_order(bids, dict(state.money), draw)
    state.discard.extend(aside)
    events.extend(explained.steps[1:])
    order = explained.order
    state.bids = {}
    state.last_auction = AuctionRecord(number=state.auction_no, offer=list(state.offer), bids=bids, order=order,
                                       tie_break_cards=aside, steps=explained.steps)
    state.auction_winner = order[0]
    state.choosers = order[: len(state.offer)]
    for p in order[len(state.offer):]:
        events.append(Message("{player} gets no card in this auction: too few cards were left.", {"player": p}))
    state.phase = "choose"
    _auto_choose(table, state, events)


def _choose(table: KKTable, state: KKState, player: str, card_id: str, events: list[str]) -> None:
    state.offer.remove(card_id)
    state.choosers.pop(0)
    state.queues[player].append(card_id)  # KK-A6: behind the cards bought earlier
    events.append(Message("{player} takes {card} and lays it at the end of their line (KK-A6).",
                          {"player": player, "card": card_words(table.cards[card_id])}))
    _auto_choose(table, state, events)


def _auto_choose(table: KKTable, state: KKState, events: list[str]) -> None:
    if len(state.offer) == 1:  # the last card has no choice left: it goes to the last chooser
        player, card_id = state.choosers.pop(0), state.offer.pop()
        state.queues[player].append(card_id)
        events.append(Message("{player} gets the last card, {card} (KK-A4, KK-A6).",
                              {"player": player, "card": card_words(table.cards[card_id])}))
    if not state.offer:
        winner = state.auction_winner or table.players[0]
        events.append(Message("{player} won the auction and opens the building phase (KK-A7).", {"player": winner}))
        _start_building(table, state, winner, events)


# -- track building (KK-B) -------------------------------------------------------------------
def _start_building(table: KKTable, state: KKState, opener: str, events: list[str]) -> None:
    state.phase, state.flipped, state.idle_passes = "build", [], 0
    _begin_turn(table, state, opener, events)


def _begin_turn(table: KKTable, state: KKState, player: str, events: list[str]) -> None:
    state.turn = player
    card_id = _take_top(table, state, events)
    state.turn_flipped = card_id is not None
    if card_id is None:
        events.append(Message("{player}'s turn: no card is left to turn up.", {"player": player}))
        return
    state.flipped.append(card_id)
    state.idle_passes = 0
    events.append(Message("{player} turns up {card} (KK-B1).", {"player": player, "card": card_words(table.cards[card_id])}))


def _pass(table: KKTable, state: KKState, player: str, events: list[str]) -> None:
    events.append(Message("{player} passes; the turn goes to the left (KK-B3).", {"player": player}))
    if not state.turn_flipped:
        state.idle_passes += 1
        if state.idle_passes >= len(table.players):
            _end_stalled(table, state, events)
            return
    _begin_turn(table, state, table.left_of(player), events)


def _build(table: KKTable, state: KKState, numbers: BuildNumbers, buy: int, events: list[str]) -> None:
    player = numbers.player
    card = table.cards[state.queues[player].pop(0)]
    spend = numbers.bonus_spent(buy)
    state.money[player] += card.coin - TRACK_PRICE * buy
    state.crossed[player].append(card.id)
    # The counts are objects of the sentence ("uses 1 track piece", "receives 7 pounds") and the cost a price:
    # phrases in those roles, which Finnish and Hungarian inflect (railkit.capecairo.phrases).
    bought = (nmessage("{n} track piece bought for {cost}", "{n} track pieces bought for {cost}", buy,
                       {"cost": pounds(TRACK_PRICE * buy, "price")})
              if buy else Message("none bought"))
    events.append(Message(
        "{player} crosses {card} with {flipped} from turned-up cards, {own} from their own terrain cards, "
        "{bonus} and {bought}; {player} receives {coin} (KK-B2, KK-B4).",
        {"player": player, "card": card_words(card), "flipped": track_pieces(numbers.flipped, "object"),
         "own": numbers.own, "bonus": bonus_tracks(spend, "object"), "bought": bought,
         "coin": pounds(card.coin, "object")}))
    # KK-B4: turned-up cards and spent bonus tracks go to the discard pile.
    state.discard.extend(state.flipped)
    state.flipped = []
    if spend:
        held = state.bonus[player]
        state.discard.extend(held[len(held) - spend:])
        del held[len(held) - spend:]
    state.last_builder, state.idle_passes = player, 0
    if len(state.crossed[player]) >= table.win_crossings:  # KK-E1: wins at once
        state.phase, state.end_reason, state.winners, state.turn = "over", "KK-E1", (player,), None
        events.append(Message("{player} has crossed {terrains} and wins the game (KK-E1).",
                              {"player": player, "terrains": terrains(len(state.crossed[player]), "object")}))
        return
    _river_bonus(table, state, player, events)
    empty = [p for p in table.players if not state.queues[p]]
    if empty:  # KK-B5
        events.append(nmessage("{players} has no terrain left: the building phase ends and a new auction begins (KK-B5).",
                               "{players} have no terrain left: the building phase ends and a new auction begins (KK-B5).",
                               len(empty), {"players": names_message(empty)}))
        state.flipped, state.turn = [], None
        _start_auction(table, state, events)
    else:  # KK-B5: the last builder goes on
        _begin_turn(table, state, player, events)


def _river_bonus(table: KKTable, state: KKState, builder: str, events: list[str]) -> None:
    """KK-R1..R3: one bonus track to each player whose next terrain is a river, cap five.

    Seating order from the builder; the card comes from the top of the discard pile, else the
    deck (railkit ruling); with neither, no bonus.
    """
    start = table.seat[builder]
    n = len(table.players)
    for i in range(n):
        p = table.players[(start + i) % n]
        queue = state.queues[p]
        if not queue or table.cards[queue[0]].terrain != "river":
            continue
        if p == builder and not table.river_bonus_for_builder:
            continue
        if len(state.bonus[p]) >= BONUS_CAP:
            events.append(Message("{player} faces a river but already holds {cap} bonus tracks (KK-R3).",
                                  {"player": p, "cap": BONUS_CAP}))
            continue
        pile = state.discard if state.discard else state.deck
        if not pile:
            events.append(Message("{player} faces a river, but no card is left for a bonus track (KK-R2).", {"player": p}))
            continue
        state.bonus[p].append(pile.pop())
        events.append(Message("{player} faces a river and takes a bonus track, now holding {held} (KK-R1).",
                              {"player": p, "held": bonus_tracks(len(state.bonus[p]))}))


def _end_stalled(table: KKTable, state: KKState, events: list[str]) -> None:
    """KK-B8 DECISION: most terrain crossed wins, then most money; still tied: shared win."""
    best = max((len(state.crossed[p]), state.money[p]) for p in table.players)
    state.winners = tuple(p for p in table.players if (len(state.crossed[p]), state.money[p]) == best)
    state.phase, state.end_reason, state.turn = "over", "KK-B8", None
    events.append(nmessage(
        "Everyone passed in a row with no card left to turn up: the game is stuck and ends (KK-B8). "
        "Most terrain crossed, then most money, decides: {players} wins.",
        "Everyone passed in a row with no card left to turn up: the game is stuck and ends (KK-B8). "
        "Most terrain crossed, then most money, decides: {players} share the win.",
        len(state.winners), {"players": names_message(state.winners)}))



def _joined(parts: list[Message]) -> Message:
    """The cards on sale with "; " between them, as nested messages (the separator is translatable)."""
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = Message("{first}; {rest}", {"first": part, "rest": joined})
    return joined
