"""What each player may see, the whole state (for tests), and the result.

Hidden information: the deck order, the face-down bonus cards and, above all, the sealed
bids of an open auction (KK-A2). ``view(p)`` shows only ``p``'s own pending bid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from railkit.capecairo.checks import current_player, players_to_act
from railkit.capecairo.deck import CardDict
from railkit.capecairo.phrases import pounds, terrains
from railkit.capecairo.state import AuctionRecord, KKState, KKTable, copy_record
from railkit.errors import RuleError
from railkit.game import BaseView, Outcome, not_playing
from railkit.messages import Message, addressed, addressed_group, names_message, nmessage

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{player} crossed the last terrain first and wins (KK-E1). {scores}.",
          "You crossed the last terrain first and win (KK-E1). {scores}.")
addressed("The game stalled and ended (KK-B8); by terrain crossed, then money, {players} wins. {scores}.",
          "The game stalled and ended (KK-B8); by terrain crossed, then money, you win. {scores}.", subject="players")
addressed_group("The game stalled and ended (KK-B8); by terrain crossed, then money, {players} wins. {scores}.",
                "The game stalled and ended (KK-B8); by terrain crossed, then money, you and {other} share the win. "
                "{scores}.",
                "The game stalled and ended (KK-B8); by terrain crossed, then money, you, {others} and {last} share "
                "the win. {scores}.")

Result = Outcome  # the name earlier code used


@dataclass(frozen=True, slots=True, kw_only=True)
class KKView(BaseView):
    """What one player (or a spectator) sees of a Vom Kap bis Kairo game."""

    colours: Mapping[str, str]
    money: Mapping[str, int]  # bids are paid when revealed, so money never gives a sealed bid away
    queues: Mapping[str, tuple[CardDict, ...]]
    crossed: Mapping[str, int]
    bonus_tracks: Mapping[str, int]
    flipped: tuple[CardDict, ...]
    offer: tuple[CardDict, ...]
    deck_count: int
    discard_count: int
    auction: int
    bids_handed_in: tuple[str, ...]  # who, never how much
    choosing_order: tuple[str, ...]
    last_auction: AuctionRecord | None
    turn: str | None  # whose building turn it is
    idle_passes: int
    win_crossings: int
    your_bid: int | None  # your own sealed bid in an open auction (KK-A2); None for a spectator
    your_money_after_bid: int | None
    # Public facts a player at the table knows as well (what ``railkit.capecairo.sampling`` deals a game from):
    crossed_cards: Mapping[str, tuple[CardDict, ...]]  # the terrains each train has crossed, face up (KK-B4)
    turn_flipped: bool  # whether a card was turned up at the start of this building turn (KK-B1, KK-B8)
    last_builder: str | None  # who crossed a terrain last (the building goes on from them, KK-A1 ruling)
    deck_file: str | None  # the deck file's path (KK-C4); None: the shipped deck
    river_bonus_for_builder: bool  # KK-R1 DECISION


def result(table: KKTable, state: KKState) -> Outcome:
    """KK-E1 (eighth crossing) or KK-B8 (stall); ``score`` is the number of terrains crossed."""
    is_over = state.phase == "over"
    crossings = {p: len(state.crossed[p]) for p in table.players}
    money = dict(state.money)
    words: Message
    if not is_over:
        words = Message("The game is still going on.")
    else:
        scores = _scores([Message("{player}: {terrains} crossed, {money}",
                                  {"player": p, "terrains": terrains(crossings[p]), "money": pounds(money[p])})
                          for p in crossings])
        if state.end_reason == "KK-E1":
            words = Message("{player} crossed the last terrain first and wins (KK-E1). {scores}.",
                            {"player": state.winners[0], "scores": scores})
        else:
            words = nmessage("The game stalled and ended (KK-B8); by terrain crossed, then money, {players} wins. "
                             "{scores}.",
                             "The game stalled and ended (KK-B8); by terrain crossed, then money, {players} share "
                             "the win. {scores}.", len(state.winners),
                             {"players": names_message(state.winners), "scores": scores})
    return Outcome(is_over=is_over, winners=tuple(state.winners), end_reason=state.end_reason, score=crossings,
                   money=money, words=words)



def _scores(parts: list[Message]) -> Message:
    """Each player's score with "; " between them, as nested messages."""
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = Message("{first}; {rest}", {"first": part, "rest": joined})
    return joined


def view(table: KKTable, state: KKState, player: str | None, game: str, log_length: int,
         deck_file: str | None = None) -> KKView:
    """Public information plus ``player``'s own secrets (``None``: a spectator)."""
    if player is not None and player not in state.money:
        raise RuleError("KK-S1", not_playing(player, table.players))
    cards = table.cards
    own = None if player is None else state.bids.get(player)
    return KKView(
        game=game,
        players=table.players,
        you=player,
        phase=state.phase,
        current_player=current_player(table, state),
        to_act=players_to_act(table, state),
        log_length=log_length,
        is_over=state.phase == "over",
        end_reason=state.end_reason,
        winners=tuple(state.winners),
        colours=dict(table.colours),
        money=dict(state.money),
        queues={p: tuple(cards[c].to_dict() for c in state.queues[p]) for p in table.players},
        crossed={p: len(state.crossed[p]) for p in table.players},
        bonus_tracks={p: len(state.bonus[p]) for p in table.players},
        flipped=tuple(cards[c].to_dict() for c in state.flipped),
        offer=tuple(cards[c].to_dict() for c in state.offer),
        deck_count=len(state.deck),
        discard_count=len(state.discard),
        auction=state.auction_no,
        bids_handed_in=tuple(p for p in table.players if p in state.bids),
        choosing_order=tuple(state.choosers),
        last_auction=None if state.last_auction is None else copy_record(state.last_auction),
        turn=state.turn,
        idle_passes=state.idle_passes,
        win_crossings=table.win_crossings,
        your_bid=own,
        your_money_after_bid=None if player is None or own is None else state.money[player] - own,
        crossed_cards={p: tuple(cards[c].to_dict() for c in state.crossed[p]) for p in table.players},
        turn_flipped=state.turn_flipped,
        last_builder=state.last_builder,
        deck_file=deck_file,
        river_bonus_for_builder=table.river_bonus_for_builder,
    )


def state_dict(state: KKState) -> dict[str, Any]:
    """The state, hidden parts included, as JSON types. ``deck`` lists bottom to top."""
    return {
        "phase": state.phase,
        "money": dict(state.money),
        "deck": list(state.deck),
        "discard": list(state.discard),
        "flipped": list(state.flipped),
        "offer": list(state.offer),
        "queues": {p: list(q) for p, q in state.queues.items()},
        "crossed": {p: list(c) for p, c in state.crossed.items()},
        "bonus": {p: list(b) for p, b in state.bonus.items()},
        "pending_bids": dict(state.bids),
        "choosers": list(state.choosers),
        "auction": state.auction_no,
        "auction_winner": state.auction_winner,
        "last_auction": None if state.last_auction is None else dict(copy_record(state.last_auction)),
        "turn": state.turn,
        "turn_flipped": state.turn_flipped,
        "idle_passes": state.idle_passes,
        "last_builder": state.last_builder,
        "reshuffles": state.reshuffles,
        "end_reason": state.end_reason,
        "winners": list(state.winners),
    }
