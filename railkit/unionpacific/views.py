"""What each player may see, the whole state (for tests) and the result (UP-I2, UP-D12, UP-D13, UP-V3).

Hidden information: hands (shares and track cards), the order of the share deck and of the
track pile, the box and the safe-round reserve. Public: tables (UP-I2), the display, the UP
stack, the track discards (played face up), trains on the board, payouts, hand sizes; money
unless ``public_money`` is off (UP-D13); the number of cards in the share deck only with
``countable_deck`` (UP-V3).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from railkit.game import BaseView, Outcome
from railkit.messages import N_, Message, nmessage
from railkit.unionpacific.phrases import listing
from railkit.unionpacific.state import IMAGINARY, UPState

__all__ = ["HandView", "UPView", "public", "result", "state_dict", "view"]


class HandView(TypedDict):
    shares: dict[str, int]
    track: dict[str, int]


class UPView(BaseView):
    """``UnionPacificGame.view(player)``: the keys every game has, plus Union Pacific's."""

    options: dict[str, Any]
    current_player: str | None
    turn: int
    first_share_chosen: list[str]
    tables: dict[str, dict[str, int]]
    display: list[str | None] | None  # None until the first shares are revealed (UP-S5, UP-S6)
    up_stack: int
    hand_sizes: dict[str, dict[str, int]]
    track_discards: list[str]
    track_pile_count: int
    trains_on: dict[str, list[str]]
    supply: dict[str, int]
    company_values: dict[str, int]
    payouts_done: int
    payouts_total: int
    payouts: list[dict[str, Any]]
    imaginary: dict[str, int] | None
    is_over: bool
    end_reason: str | None
    money: dict[str, int]
    deck_count: int | None  # UP-V3 only
    share_draws: int | None  # UP-V3 only
    hand: HandView | None  # None for a spectator
    legal_actions: list[dict[str, Any]]
    my_first_share: NotRequired[str]  # during UP-S5, the viewer's own hidden choice


def _sorted_counts(counts: dict[str, int]) -> dict[str, int]:
    return {k: counts[k] for k in sorted(counts)}


def public(state: UPState, game: str, log_length: int) -> dict[str, Any]:
    """What everyone may see."""
    revealed = state.step != "first_share"
    net = state.net
    return {
        "game": game,
        "players": list(state.players),
        "options": dict(state.options),
        "phase": state.phase,
        "current_player": state.current_player(),
        "to_act": list(state.players_to_act()),
        "over": state.over,
        "log_length": log_length,
        "turn": state.turn_number,
        "first_share_chosen": sorted(state.first_choices) if not revealed else list(state.players),
        "tables": {p: _sorted_counts(state.table[p]) for p in state.players},
        "display": list(state.display) if revealed else None,  # UP-S6 comes after UP-S5
        "up_stack": state.up_stack,
        "hand_sizes": {
            p: {"shares": sum(state.share_hand[p].values()), "track": sum(state.track_hand[p].values())}
            for p in state.players
        },
        "track_discards": list(state.track_discards),
        "track_pile_count": len(state.track_pile),
        "trains_on": {sid: list(keys) for sid, keys in net.trains_on.items() if keys},
        "supply": dict(net.supply),
        "company_values": {k: net.on_board(k) + 1 for k in net.idx.company_order},
        "payouts_done": len(state.payouts),
        "payouts_total": state.max_payouts,
        "payouts": [r.to_dict() for r in state.payouts],
        "imaginary": _sorted_counts(state.imaginary) if state.imaginary is not None else None,
        "is_over": state.over,
        "end_reason": state.end_reason,
    }


def view(state: UPState, game: str, log_length: int, player: str | None,
         legal: list[dict[str, Any]]) -> UPView:
    """What ``player`` may see; ``None`` is a spectator (public information only).
    ``legal`` is the player's legal actions as dicts."""
    out = public(state, game, log_length)
    out["you"] = player
    show_money = state.options["public_money"] or state.over  # at the end everyone counts up
    out["money"] = {h: m for h, m in state.money.items() if show_money or h == player}
    countable = state.options["countable_deck"]
    out["deck_count"] = len(state.deck) if countable else None  # UP-V3
    out["share_draws"] = state.share_draws if countable else None
    if player is not None:
        out["hand"] = {
            "shares": _sorted_counts(state.share_hand[player]),
            "track": _sorted_counts(state.track_hand[player]),
        }
        if player in state.first_choices and state.step == "first_share":
            out["my_first_share"] = state.first_choices[player]
    else:
        out["hand"] = None
    out["legal_actions"] = legal
    return out  # type: ignore[return-value]


def state_dict(state: UPState, game: str, log_length: int, seed: int, narrative_length: int) -> dict[str, Any]:
    """Everything, hidden parts included, as JSON types."""
    out = public(state, game, log_length)
    out.update(
        {
            "seed": seed,
            "money": dict(state.money),
            "share_hands": {p: _sorted_counts(state.share_hand[p]) for p in state.players},
            "track_hands": {p: _sorted_counts(state.track_hand[p]) for p in state.players},
            "first_choices": dict(state.first_choices),
            "deck": list(state.deck),
            "reserve": list(state.reserve),
            "box": list(state.box),
            "under_deck": state.under_deck,
            "track_pile": list(state.track_pile),
            "turn_index": state.turn_index,
            "t2_used": state.t2_used,
            "dividends_drawn": state.dividends_drawn,
            "pending_payouts": state.pending_payouts,
            "share_draws": state.share_draws,
            "narrative_length": narrative_length,
            "log_length": log_length,
            "rng_state": hash(state.rng.getstate()[1]),  # a tuple of ints: the same in every process
        }
    )
    return out


def result(state: UPState) -> Outcome:
    """Money per player (and the imaginary player with two, UP-2P2), the winners — equal
    money shares the win (UP-D12, DECISION) — and the payout history in ``details``."""
    money = dict(state.money)
    best = max(money.values())
    winners = tuple(h for h, m in money.items() if m == best) if state.over else ()
    if not state.over:
        words = Message(N_("The game is still going on."))
    else:
        ranked = "; ".join(f"{h}: {m}" for h, m in sorted(money.items(), key=lambda hm: -hm[1]))
        words = nmessage("{players} wins with the most money (UP-D12). {ranking}.",
                         "{players} share the win with the most money (UP-D12). {ranking}.", len(winners),
                         {"players": listing(winners), "ranking": ranked})
    return Outcome(
        over=state.over,
        winners=winners,
        ending="UP-D12" if state.over else None,
        score=money,
        money=money,
        words=words,
        details={
            "end_reason": state.end_reason,
            "imaginary_player": IMAGINARY if state.imaginary is not None else None,
            "payouts": [r.to_dict() for r in state.payouts],
        },
    )
