"""Listing the legal Union Pacific actions, fast (UP-S5, UP-T2..T4, UP-B2..B4, UP-I1).

A mixin of ``UnionPacificGame``. The lists are built from the placement index in
``network.py``; action objects are immutable, so each distinct one is built once per
game and reused (simulations ask for the legal actions at every step).
"""

from __future__ import annotations

from typing import Any

from railkit.unionpacific.actions import (
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
)
from railkit.unionpacific.checks import DISPLAY_SOURCES
from railkit.unionpacific.network import bits
from railkit.unionpacific.placement import PlacementExplanation, explain_placement

__all__ = ["Moves", "invest_choices"]


class Moves:
    """``legal_actions``, ``legal_placements`` and ``explain_placement`` (state lives on the game)."""

    players: tuple[str, ...]
    step: str
    over: bool
    turn_index: int
    t2_used: bool
    first_choices: dict[str, str]
    share_hand: dict[str, dict[str, int]]
    track_hand: dict[str, dict[str, int]]
    company_order: tuple[str, ...]
    up_stack: int
    display: list[str | None]
    deck: list[str]
    options: dict[str, Any]
    net: Any
    board: Any
    current_player: Any
    _actions: dict[tuple[Any, ...], Any]
    _build_lists: dict[tuple[str, str, str], tuple[int, list[Build]]]
    _build_memo: dict[tuple[str, str, str, int], Build]
    _invest_lists: dict[tuple[Any, ...], dict[str, list[Any]]]
    _invest_memo: dict[tuple[Any, ...], Invest]

    def _draw_sources(self) -> list[str]:
        out = [src for src, card in zip(DISPLAY_SOURCES, self.display) if card is not None]
        if self.deck:
            out.append("deck")
        if self.up_stack and self.options["direct_up_draw"]:
            out.append("up")
        return out

    # -- legal actions ----------------------------------------------------------------------------
    def legal_actions(self, player: str | None = None) -> list[Any]:
        if self.over:
            return []
        if player is None:
            player = self.current_player
        if player not in self.track_hand:
            return []
        step = self.step
        if step == "first_share":
            if player in self.first_choices:
                return []
            return [ChooseFirstShare(player, c) for c in sorted(self.share_hand[player])]
        if player != self.players[self.turn_index]:
            return []
        if step == "action":
            return self._action_step_moves(player)
        memo = self._memo
        if step == "draw":
            return [memo(DrawShare, player, s) for s in self._draw_sources()]
        moves: list[Any] = [memo(EndTurn, player)]
        if self.up_stack:
            moves += [memo(ExchangeForUP, player, c) for c in sorted(self.share_hand[player])]
        return moves

    def _memo(self, cls: type, *args: Any) -> Any:
        """Actions are immutable values, so each distinct one is built once per game (speed)."""
        key = (cls, args)
        action = self._actions.get(key)
        if action is None:
            action = self._actions[key] = cls(*args)
        return action

    def _action_step_moves(self, player: str) -> list[Any]:
        track = sorted(self.track_hand[player])
        moves: list[Any] = []
        if not self.t2_used:
            moves += [self._memo(DiscardUnusable, player, c) for c in track if not self.net.usable(c)]
        builds = self.legal_placements(player)
        moves += builds
        hand = self.share_hand[player]
        if hand:
            # Per hand of shares, one list of Invest actions per discard (the track hand
            # changes every turn, the share hand far less often).
            key = (player, tuple(sorted(hand.items())))
            by_discard = self._invest_lists.get(key)
            if by_discard is None:
                by_discard = self._invest_lists[key] = {"": invest_choices(hand)}  # type: ignore[dict-item]
            for d in track:
                invests = by_discard.get(d)
                if invests is None:
                    memo, out = self._invest_memo, []
                    for cards in by_discard[""]:
                        k = (player, cards, d)
                        a = memo.get(k)
                        if a is None:
                            a = memo[k] = Invest(player, cards, d)
                        out.append(a)
                    invests = by_discard[d] = out
                moves += invests
        elif not builds:
            moves += [self._memo(Pass, player, d) for d in track]  # UP-T4
        return moves

    def legal_placements(self, player: str | None = None) -> list[Build]:
        """Every legal ``Build`` for ``player`` (default: the one to act) with the cards in hand."""
        if player is None:
            player = self.current_player
        if self.over or self.step != "action" or player != self.players[self.turn_index]:
            return []
        net, out = self.net, []
        cache, memo, sids = self._build_lists, self._build_memo, net.sids
        frontier, supply, free = net.frontier, net.supply, net.free_mask
        for card in sorted(self.track_hand[player]):
            usable = net.type_mask.get(card, 0) & free  # UP-B2a + UP-B2c
            for key in self.company_order:
                mask = frontier[key] & usable  # + UP-B2b, d, e (the frontier)
                if not mask or supply[key] <= 0:  # UP-B2f
                    continue
                hit = cache.get((player, card, key))
                if hit is None or hit[0] != mask:  # rebuilt only when the company's options change
                    builds = []
                    for i in bits(mask):
                        k = (player, card, key, i)
                        b = memo.get(k)
                        if b is None:
                            b = memo[k] = Build(player, card, key, sids[i])
                        builds.append(b)
                    hit = cache[(player, card, key)] = (mask, builds)
                out += hit[1]
        return out

    def explain_placement(self, company: str, section: str, card: str) -> PlacementExplanation:
        """Why a ``company`` train may or may not go on ``section`` with ``card`` right now (UP-B2)."""
        return explain_placement(self.board, self.net.trains_on, self.net.supply, company, section, card)


def invest_choices(hand: dict[str, int]) -> list[tuple[str, ...]]:
    """UP-I1: any number of one company's shares, or one share each of two companies."""
    keys = sorted(hand)
    out: list[tuple[str, ...]] = []
    for i, k in enumerate(keys):
        for n in range(1, hand[k] + 1):
            out.append((k,) * n)
        for k2 in keys[i + 1:]:
            out.append((k, k2))
    return out
