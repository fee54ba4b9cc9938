"""What each player may see, the whole state (for tests), and the result.

Hidden information: the deck order, the face-down bonus cards and, above all, the sealed
bids of an open auction (KK-A2). ``view(p)`` shows only ``p``'s own pending bid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railkit.game import Outcome

if TYPE_CHECKING:
    from railkit.capecairo.game import CapeToCairoGame


Result = Outcome  # the name earlier code used


def result(game: CapeToCairoGame) -> Outcome:
    """KK-E1 (eighth crossing) or KK-B8 (stall); ``score`` is the number of terrains crossed."""
    over = game.phase == "over"
    crossings = {p: len(game.crossed[p]) for p in game.players}
    money = dict(game.money)
    if not over:
        words = "The game is still going on."
    else:
        scores = "; ".join(
            f"{p}: {crossings[p]} crossed, {money[p]} pound{'' if money[p] == 1 else 's'}" for p in crossings
        )
        if game.ending == "KK-E1":
            words = f"{game.winners[0]} crossed the last terrain first and wins (KK-E1). {scores}."
        else:
            words = (f"The game stalled and ended (KK-B8); winner(s) by terrain crossed, then money: "
                     f"{', '.join(game.winners)}. {scores}.")
    return Outcome(over=over, winners=tuple(game.winners), ending=game.ending, score=crossings,
                   money=money, words=words)


def _card(game: CapeToCairoGame, card_id: str) -> dict[str, Any]:
    return game.cards[card_id].to_dict()


def view(game: CapeToCairoGame, player: str | None) -> dict[str, Any]:
    """Public information plus ``player``'s own secrets (``None``: a spectator)."""
    if player is not None and player not in game.money:
        raise ValueError(f"{player!r} is not playing; the players are {', '.join(game.players)}")
    out: dict[str, Any] = {
        "game": game.GAME,
        "you": player,
        "players": list(game.players),
        "colours": dict(game.colours),
        "phase": game.phase,
        "current_player": game.current_player,
        "to_act": list(game.players_to_act()),
        "over": game.phase == "over",
        "log_length": len(game.log),
        # Bids are paid when the auction resolves, so public money never reveals a sealed bid.
        "money": dict(game.money),
        "queues": {p: [_card(game, c) for c in game.queues[p]] for p in game.players},
        "crossed": {p: len(game.crossed[p]) for p in game.players},
        "bonus_tracks": {p: len(game.bonus[p]) for p in game.players},
        "flipped": [_card(game, c) for c in game.flipped],
        "offer": [_card(game, c) for c in game.offer],
        "deck_count": len(game.deck),
        "discard_count": len(game.discard),
        "auction": game.auction_no,
        "bids_handed_in": [p for p in game.players if p in game.bids],  # who, never how much
        "choosing_order": list(game.choosers),
        "last_auction": _public_auction(game.last_auction),
        "turn": game.turn,
        "idle_passes": game.idle_passes,
        "win_crossings": game.opt["win_crossings"],
        "result": result(game).to_dict(),
    }
    if player is not None:
        own = game.bids.get(player)
        out["your_bid"] = own
        out["your_money_after_bid"] = None if own is None else game.money[player] - own
    return out


def _public_auction(record: dict[str, Any] | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in record.items()}


def state_dict(game: CapeToCairoGame) -> dict[str, Any]:
    """Everything, hidden parts included, as JSON types. ``deck`` lists bottom to top."""
    return {
        "players": list(game.players),
        "seed": game.seed,
        "options": dict(game.options),
        "phase": game.phase,
        "money": dict(game.money),
        "deck": list(game.deck),
        "discard": list(game.discard),
        "flipped": list(game.flipped),
        "offer": list(game.offer),
        "queues": {p: list(q) for p, q in game.queues.items()},
        "crossed": {p: list(c) for p, c in game.crossed.items()},
        "bonus": {p: list(b) for p, b in game.bonus.items()},
        "pending_bids": dict(game.bids),
        "choosers": list(game.choosers),
        "auction": game.auction_no,
        "auction_winner": game.auction_winner,
        "last_auction": _public_auction(game.last_auction),
        "turn": game.turn,
        "turn_flipped": game.turn_flipped,
        "idle_passes": game.idle_passes,
        "last_builder": game.last_builder,
        "reshuffles": game.reshuffles,
        "ending": game.ending,
        "winners": list(game.winners),
        "actions": len(game.log),
        "narrative_length": len(game._narrative),
    }
