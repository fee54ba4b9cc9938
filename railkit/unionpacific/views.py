"""What each player may see, the whole state (for tests) and the result (UP-I2, UP-D12, UP-D13, UP-V3).

Hidden information: hands (shares and track cards), the order of the share deck and of the
track pile, the box and the safe-round reserve. Public: tables (UP-I2), the display, the UP
stack, the track discards (played face up), trains on the board, payouts, hand sizes, the shares everyone
saw go into a hand (from the display or the UP stack) and not leave it (a table's memory, see the rulings); money
unless ``public_money`` is off (UP-D13); the number of cards in the share deck only with
``countable_deck`` (UP-V3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from railkit.game import BaseView, Outcome, view_from_json, view_json
from railkit.messages import N_, Message, addressed, addressed_group, names_message, nmessage
from railkit.unionpacific.actions import UPAction, registry
from railkit.unionpacific.options import UPOptions
from railkit.unionpacific.state import IMAGINARY, UPState

# The learner's own messages: the second person where a sentence is about the learner (railkit.messages.addressed).
addressed("{players} wins with the most money (UP-D12). {ranking}.",
          "You win with the most money (UP-D12). {ranking}.", subject="players")
addressed_group("{players} wins with the most money (UP-D12). {ranking}.",
                "You and {other} share the win with the most money (UP-D12). {ranking}.",
                "You, {others} and {last} share the win with the most money (UP-D12). {ranking}.")

__all__ = ["HandView", "PayoutView", "UPOptions", "UPView", "result", "state_dict", "view"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandView:
    """A player's own hand, counted by kind (hidden from everyone else, UP-I2)."""

    shares: Mapping[str, int]
    track: Mapping[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class PayoutView:
    """One payout as everyone saw it (public: values UP-D2, holdings on the tables UP-I2, amounts UP-D3–D11)."""

    number: int
    drawer: str | None  # who drew the dividend card; None for the last payout at the game's end
    reason: str
    values: Mapping[str, int]  # company key -> value
    holdings: Mapping[str, Mapping[str, int]]  # company key or UP -> {holder: shares on the table}
    amounts: Mapping[str, int]  # holder -> money received


@dataclass(frozen=True, slots=True, kw_only=True)
class UPView(BaseView):
    """``UnionPacificGame.view(player)``: the fields every game has, plus Union Pacific's.

    In JSON (``to_json``, what the table server sends a seat) ``options`` is the options' object and each of
    ``legal_actions`` the action's save-file object (``{"type": "build", ...}``); ``from_json`` types both again."""

    options: UPOptions
    turn_number: int  # 0 during setup
    first_share_chosen: tuple[str, ...]  # who, never which (UP-S5)
    tables: Mapping[str, Mapping[str, int]]
    display: tuple[str | None, ...] | None  # None until the first shares are revealed (UP-S5, UP-S6)
    up_stack: int
    hand_sizes: Mapping[str, Mapping[str, int]]
    # per player, the shares the table saw go into the hand and not leave it (``UPState.known_shares``)
    known_shares: Mapping[str, Mapping[str, int]]
    track_discards: tuple[str, ...]
    track_pile_count: int
    trains_on: Mapping[str, tuple[str, ...]]
    supply: Mapping[str, int]
    company_values: Mapping[str, int]
    payouts_done: int
    payouts_total: int
    payouts: tuple[PayoutView, ...]
    imaginary: Mapping[str, int] | None
    money: Mapping[str, int]  # everyone's when money is public (UP-D13) or the game is over; else only yours
    deck_count: int | None  # UP-V3 only
    share_draws: int | None  # UP-V3 only
    hand: HandView | None  # None for a spectator
    legal_actions: tuple[UPAction, ...]  # yours; none for a spectator
    my_first_share: str | None  # during UP-S5, your own hidden choice
    t2_used: bool  # the player whose turn it is has already thrown away an unusable card this turn (UP-T2)

    def to_json(self) -> dict[str, Any]:
        out = view_json(self)
        out["legal_actions"] = [registry.to_dict(a) for a in self.legal_actions]  # as a save file writes them
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UPView:
        """``to_json``'s object typed again; the legal moves read as a save file's actions are (``ValueError``
        in words for one that is not a Union Pacific action)."""
        view = view_from_json(cls, data)
        return replace(view, legal_actions=tuple(registry.from_dict(a) for a in data.get("legal_actions") or ()))


def _sorted_counts(counts: Mapping[str, int]) -> dict[str, int]:
    return {k: counts[k] for k in sorted(counts)}


def _winners(state: UPState) -> tuple[str, ...]:
    """The richest at the end, several when equal (UP-D12, DECISION); none before."""
    if not state.is_over:
        return ()
    best = max(state.money.values())
    return tuple(h for h, m in state.money.items() if m == best)


def view(state: UPState, game: str, log_length: int, player: str | None,
         legal: Sequence[UPAction]) -> UPView:
    """What ``player`` may see; ``None`` is a spectator (public information only).
    ``legal`` is the player's legal actions (frozen). Everything is a copy: changing it changes no game."""
    revealed = state.step != "first_share"
    net = state.net
    show_money = state.options["public_money"] or state.is_over  # at the end everyone counts up
    countable = state.options["countable_deck"]  # UP-V3
    hand = None if player is None else HandView(shares=_sorted_counts(state.share_hand[player]),
                                                track=_sorted_counts(state.track_hand[player]))
    return UPView(
        game=game,
        players=state.players,
        you=player,
        phase=state.phase,
        current_player=state.current_player(),
        to_act=state.players_to_act(),
        log_length=log_length,
        is_over=state.is_over,
        end_reason=state.end_reason,
        winners=_winners(state),
        options=UPOptions.of(state.options),
        turn_number=state.turn_number,
        first_share_chosen=tuple(sorted(state.first_choices)) if not revealed else state.players,
        tables={p: _sorted_counts(state.table[p]) for p in state.players},
        display=tuple(state.display) if revealed else None,  # UP-S6 comes after UP-S5
        up_stack=state.up_stack,
        hand_sizes={p: {"shares": sum(state.share_hand[p].values()), "track": sum(state.track_hand[p].values())}
                    for p in state.players},
        known_shares={p: _sorted_counts(state.known_shares.get(p, {})) for p in state.players},
        track_discards=tuple(state.track_discards),
        track_pile_count=len(state.track_pile),
        trains_on={sid: tuple(keys) for sid, keys in net.trains_on.items() if keys},
        supply=dict(net.supply),
        company_values={k: net.on_board(k) + 1 for k in net.idx.company_order},
        payouts_done=len(state.payouts),
        payouts_total=state.max_payouts,
        payouts=tuple(PayoutView(**r.to_dict()) for r in state.payouts),
        imaginary=_sorted_counts(state.imaginary) if state.imaginary is not None else None,
        money={h: m for h, m in state.money.items() if show_money or h == player},
        deck_count=len(state.deck) if countable else None,
        share_draws=state.share_draws if countable else None,
        hand=hand,
        legal_actions=tuple(legal),
        my_first_share=state.first_choices.get(player) if player is not None and not revealed else None,
        t2_used=state.t2_used,
    )


def state_dict(state: UPState, game: str, log_length: int, seed: int, narrative_length: int) -> dict[str, Any]:
    """Everything, hidden parts included, as JSON types: a spectator's view and the hidden parts."""
    out = view_json(view(state, game, log_length, None, []))
    for seat_only in ("you", "hand", "legal_actions", "my_first_share", "deck_count"):
        del out[seat_only]
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
    winners = _winners(state)
    if not state.is_over:
        words = Message(N_("The game is still going on."))
    else:
        ranked: object = None
        for h, m in sorted(money.items(), key=lambda hm: -hm[1]):
            item = Message(N_("{name}: {value}"), {"name": h, "value": m})
            ranked = item if ranked is None else Message(N_("{first}; {next}"), {"first": ranked, "next": item})
        words = nmessage("{players} wins with the most money (UP-D12). {ranking}.",
                         "{players} share the win with the most money (UP-D12). {ranking}.", len(winners),
                         {"players": names_message(winners), "ranking": ranked})
    return Outcome(
        is_over=state.is_over,
        winners=winners,
        end_reason=state.end_reason,
        score=money,
        money=money,
        words=words,
        details={
            "imaginary_player": IMAGINARY if state.imaginary is not None else None,
            "payouts": [r.to_dict() for r in state.payouts],
        },
    )
