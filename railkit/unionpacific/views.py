"""What each player may see, the whole state (for tests) and the result (UP-I2, UP-D12, UP-D13, UP-V3).

A mixin of ``UnionPacificGame``. Hidden information: hands (shares and track cards),
the order of the share deck and of the track pile, the box and the safe-round reserve.
Public: tables (UP-I2), the display, the UP stack, the track discards (played face up),
trains on the board, payouts, hand sizes; money unless ``public_money`` is off (UP-D13);
the number of cards in the share deck only with ``countable_deck`` (UP-V3).
"""

from __future__ import annotations

from typing import Any

from railkit.game import Outcome
from railkit.unionpacific.dividends import IMAGINARY, PayoutRecord

__all__ = ["Views"]


def _sorted_counts(counts: dict[str, int]) -> dict[str, int]:
    return {k: counts[k] for k in sorted(counts)}


class Views:
    """View, state and result for ``UnionPacificGame`` (state lives on the game)."""

    def _public(self) -> dict[str, Any]:
        g: Any = self
        revealed = g.step != "first_share"
        return {
            "game": g.GAME,
            "players": list(g.players),
            "options": dict(g.options),
            "phase": g.phase,
            "current_player": g.current_player,
            "to_act": list(g.players_to_act()),
            "over": g.over,
            "log_length": len(g.log),
            "turn": g.turn_number,
            "first_share_chosen": sorted(g.first_choices) if not revealed else list(g.players),
            "tables": {p: _sorted_counts(g.table[p]) for p in g.players},
            "display": list(g.display) if revealed else None,  # UP-S6 comes after UP-S5
            "up_stack": g.up_stack,
            "hand_sizes": {
                p: {"shares": sum(g.share_hand[p].values()), "track": sum(g.track_hand[p].values())}
                for p in g.players
            },
            "track_discards": list(g.track_discards),
            "track_pile_count": len(g.track_pile),
            "trains_on": {sid: list(keys) for sid, keys in g.net.trains_on.items() if keys},
            "supply": dict(g.net.supply),
            "company_values": {k: g.net.on_board(k) + 1 for k in g.company_order},
            "payouts_done": len(g.payouts),
            "payouts_total": g.max_payouts,
            "payouts": [r.to_dict() for r in g.payouts],
            "imaginary": _sorted_counts(g.imaginary) if g.imaginary is not None else None,
            "is_over": g.over,
            "end_reason": g.end_reason,
        }

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may see; ``None`` is a spectator (public information only)."""
        g: Any = self
        if player is not None and player not in g.players:
            raise ValueError(f"{player!r} is not playing; players are {', '.join(g.players)}")
        out = self._public()
        out["you"] = player
        show_money = g.options["public_money"] or g.over  # at the end everyone counts up
        out["money"] = {h: m for h, m in g.money.items() if show_money or h == player}
        out["deck_count"] = len(g.deck) if g.options["countable_deck"] else None  # UP-V3
        out["share_draws"] = g.share_draws if g.options["countable_deck"] else None
        if player is not None:
            out["hand"] = {
                "shares": _sorted_counts(g.share_hand[player]),
                "track": _sorted_counts(g.track_hand[player]),
            }
            if player in g.first_choices and g.step == "first_share":
                out["my_first_share"] = g.first_choices[player]
        else:
            out["hand"] = None
        out["legal_actions"] = [g.registry.to_dict(a) for a in g.legal_actions(player)] if player else []
        return out

    def state_dict(self) -> dict[str, Any]:
        """Everything, hidden parts included, as JSON types."""
        g: Any = self
        out = self._public()
        out.update(
            {
                "seed": g.seed,
                "money": dict(g.money),
                "share_hands": {p: _sorted_counts(g.share_hand[p]) for p in g.players},
                "track_hands": {p: _sorted_counts(g.track_hand[p]) for p in g.players},
                "first_choices": dict(g.first_choices),
                "deck": list(g.deck),
                "reserve": list(g.reserve),
                "box": list(g.box),
                "track_pile": list(g.track_pile),
                "turn_index": g.turn_index,
                "t2_used": g.t2_used,
                "dividends_drawn": g.dividends_drawn,
                "pending_payouts": g.pending_payouts,
                "share_draws": g.share_draws,
                "narrative_length": len(g._narrative),
                "log_length": len(g.log),
                "rng_state": hash(g.rng.getstate()[1]),  # a tuple of ints: the same in every process
            }
        )
        return out

    def result(self) -> Outcome:
        """Money per player (and the imaginary player with two, UP-2P2), the winners — equal
        money shares the win (UP-D12, DECISION) — and the payout history in ``details``."""
        g: Any = self
        money = dict(g.money)
        best = max(money.values())
        winners = tuple(h for h, m in money.items() if m == best) if g.over else ()
        if not g.over:
            words = "The game is still going on."
        else:
            ranked = "; ".join(f"{h}: {m}" for h, m in sorted(money.items(), key=lambda hm: -hm[1]))
            who = " and ".join(winners)
            words = f"{who} {'wins' if len(winners) == 1 else 'share the win'} with the most money (UP-D12). {ranked}."
        return Outcome(
            over=g.over,
            winners=winners,
            ending="UP-D12" if g.over else None,
            score=money,
            money=money,
            words=words,
            details={
                "end_reason": g.end_reason,
                "imaginary_player": IMAGINARY if g.imaginary is not None else None,
                "payouts": [r.to_dict() for r in g.payouts],
            },
        )

    @property
    def payout_history(self) -> list[PayoutRecord]:
        g: Any = self
        return list(g.payouts)
