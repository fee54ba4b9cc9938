"""Listing the legal Union Pacific actions, fast (UP-S5, UP-T2..T4, UP-B2..B4, UP-I1).

Plain functions over the state. The lists are built from the placement index in
``network.py``. Action objects are immutable, so each distinct one is built once and reused
(simulations ask for the legal actions at every step); ``MoveCache`` keeps them. It is a
speed cache, not game state: copies of a game may share it, and saving drops it.
"""

from __future__ import annotations

import random
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
    UPAction,
)
from railkit.unionpacific.board import GENERAL
from railkit.unionpacific.network import bits
from railkit.unionpacific.state import UPState

__all__ = ["MoveCache", "invest_choices", "legal_actions", "legal_placements", "random_action"]


class MoveCache:
    """Immutable action objects, built once each (keys are deterministic; never state)."""

    __slots__ = ("actions", "build_lists", "build_memo", "invest_choices", "invest_lists", "invest_memo")

    def __init__(self) -> None:
        self.actions: dict[tuple[Any, ...], Any] = {}
        self.build_lists: dict[tuple[str, str, str], tuple[int, list[Build]]] = {}
        self.build_memo: dict[tuple[str, str, str], dict[int, Build]] = {}  # (player, card, company) -> by section
        self.invest_lists: dict[tuple[Any, ...], dict[str, list[Invest]]] = {}
        self.invest_choices: dict[tuple[Any, ...], list[tuple[str, ...]]] = {}
        self.invest_memo: dict[tuple[Any, ...], Invest] = {}

    def memo(self, cls: type, *args: Any) -> Any:
        key = (cls, args)
        action = self.actions.get(key)
        if action is None:
            action = self.actions[key] = cls(*args)
        return action


def legal_actions(state: UPState, cache: MoveCache, player: str | None = None) -> list[UPAction]:
    """Every legal action for ``player`` (default: the one to act)."""
    if state.is_over:
        return []
    if player is None:
        player = state.current_player()
    if player not in state.track_hand:
        return []
    step = state.step
    if step == "first_share":
        if player in state.first_choices:
            return []
        return [ChooseFirstShare(player, c) for c in sorted(state.share_hand[player])]
    if player != state.players[state.turn_index]:
        return []
    if step == "action":
        return _action_step_moves(state, cache, player)
    memo = cache.memo
    if step == "draw":
        return [memo(DrawShare, player, s) for s in state.draw_sources()]
    moves: list[UPAction] = [memo(EndTurn, player)]
    if state.up_stack:
        moves += [memo(ExchangeForUP, player, c) for c in sorted(state.share_hand[player])]
    return moves


def _action_step_moves(state: UPState, cache: MoveCache, player: str) -> list[UPAction]:
    track = sorted(state.track_hand[player])
    moves: list[UPAction] = []
    if not state.t2_used:
        net = state.net
        moves += [cache.memo(DiscardUnusable, player, c) for c in track if not net.usable(c)]
    builds = legal_placements(state, cache, player)
    moves += builds
    hand = state.share_hand[player]
    if hand:
        # Per hand of shares, one list of Invest actions per discard (the track hand
        # changes every turn, the share hand far less often).
        key = (player, tuple(sorted(hand.items())))
        by_discard = cache.invest_lists.get(key)
        if by_discard is None:
            by_discard = cache.invest_lists[key] = {}
            cache.invest_choices[key] = invest_choices(hand)
        for d in track:
            invests = by_discard.get(d)
            if invests is None:
                memo, out = cache.invest_memo, []
                for cards in cache.invest_choices[key]:
                    k = (player, cards, d)
                    a = memo.get(k)
                    if a is None:
                        a = memo[k] = Invest(player, cards, d)
                    out.append(a)
                invests = by_discard[d] = out
            moves += invests
    elif not builds:
        moves += [cache.memo(Pass, player, d) for d in track]  # UP-T4
    return moves


def legal_placements(state: UPState, cache: MoveCache, player: str | None = None) -> list[Build]:
    """Every legal ``Build`` for ``player`` (default: the one to act) with the cards in hand."""
    if player is None:
        player = state.current_player()
    if state.is_over or state.step != "action" or player is None or player != state.players[state.turn_index]:
        return []
    net = state.net
    out: list[Build] = []
    lists, memo = cache.build_lists, cache.build_memo
    idx = net.idx
    sids, type_mask, order = idx.sids, idx.type_mask, idx.company_order
    frontier, supply, free = net.frontier, net.supply, net.free_mask
    # The companies that may build at all (UP-B2f supply, an empty space on their frontier), once per call
    # rather than once per card; then per card (file order of companies kept) only the track type is left.
    active = []
    for key in order:
        if supply[key] > 0:
            open_mask = frontier[key] & free  # UP-B2b, c, d, e
            if open_mask:
                active.append((key, open_mask))
    if not active:
        return out
    for card in sorted(state.track_hand[player]):
        usable = type_mask.get(card, 0)  # UP-B2a
        if not usable:
            continue
        for key, open_mask in active:
            mask = open_mask & usable
            if not mask:
                continue
            pck = (player, card, key)
            hit = lists.get(pck)
            if hit is None or hit[0] != mask:  # rebuilt only when the company's options change
                by_section = memo.get(pck)
                if by_section is None:
                    by_section = memo[pck] = {}
                builds = []
                for i in bits(mask):
                    b = by_section.get(i)
                    if b is None:
                        b = by_section[i] = Build(player, card, key, sids[i])
                    builds.append(b)
                hit = lists[pck] = (mask, builds)
            out += hit[1]
    return out


def random_action(state: UPState, cache: MoveCache, player: str, rng: random.Random) -> UPAction:
    """``rng.choice(legal_actions(state, cache, player))``, the same draw, without listing every action of the
    action step: there the list is counted part by part (a company's sections are the set bits of a mask) and
    only the action drawn is built."""
    if state.is_over or state.step != "action" or player != state.players[state.turn_index]:
        return rng.choice(legal_actions(state, cache, player))
    return rng.choice(ActionStepMoves(state, cache, player))


class ActionStepMoves:
    """The list ``_action_step_moves`` makes, as a sequence that only counts (``len``) and builds the one item
    asked for (``[i]``): what ``random.choice`` needs."""

    __slots__ = ("_choices", "builds", "cache", "discards", "hand", "n_builds", "n_choices", "passes", "player", "sids",
                 "track")

    def __init__(self, state: UPState, cache: MoveCache, player: str) -> None:
        self.cache, self.player = cache, player
        track = self.track = sorted(state.track_hand[player])
        net = state.net
        if state.t2_used:
            self.discards = []
        else:  # ``net.usable`` of each card (UP-T2), without a call per card
            free_by_type, any_free = net.free_by_type, net.free_mask != 0
            self.discards = [c for c in track if not (any_free if c == GENERAL else free_by_type.get(c, 0) > 0)]
        # Builds: per card (in order), per company that may build (file order), the mask of its sections.
        builds: list[tuple[int, str, str, int]] = []
        n_builds = 0
        idx = net.idx
        self.sids = idx.sids
        type_mask, frontier, supply, free = idx.type_mask, net.frontier, net.supply, net.free_mask
        active = [(key, frontier[key] & free) for key in idx.company_order if supply[key] > 0 and frontier[key] & free]
        if active:
            for card in track:
                usable = type_mask.get(card, 0)  # UP-B2a
                if not usable:
                    continue
                for key, open_mask in active:
                    mask = open_mask & usable
                    if mask:
                        count = mask.bit_count()
                        builds.append((count, card, key, mask))
                        n_builds += count
        self.builds, self.n_builds = builds, n_builds
        hand = self.hand = state.share_hand[player]
        # UP-I1: any number of one company's shares, or one each of two: counted here, listed if needed
        self.n_choices = sum(hand.values()) + len(hand) * (len(hand) - 1) // 2 if hand else 0
        self._choices: list[tuple[str, ...]] | None = None
        self.passes = not hand and not n_builds  # UP-T4

    @property
    def invests(self) -> list[tuple[str, ...]]:
        """The share choices of ``Invest`` (``invest_choices``), each with every discard; empty without shares."""
        if self._choices is None:
            if not self.hand:
                self._choices = []
            else:
                key = (self.player, tuple(sorted(self.hand.items())))
                choices = self.cache.invest_choices.get(key)
                if choices is None:
                    self.cache.invest_lists[key] = {}
                    choices = self.cache.invest_choices[key] = invest_choices(self.hand)
                self._choices = choices
        return self._choices

    def __len__(self) -> int:
        tail = len(self.track) * self.n_choices if self.n_choices else len(self.track) if self.passes else 0
        return len(self.discards) + self.n_builds + tail

    def __getitem__(self, i: int) -> UPAction:
        cache, player = self.cache, self.player
        if i < len(self.discards):
            return cache.memo(DiscardUnusable, player, self.discards[i])  # type: ignore[no-any-return]
        i -= len(self.discards)
        if i < self.n_builds:
            for count, card, key, mask in self.builds:
                if i < count:
                    for _ in range(i):
                        mask &= mask - 1  # drop the lowest set bit
                    section = (mask & -mask).bit_length() - 1
                    by_section = cache.build_memo.get((player, card, key))
                    if by_section is None:
                        by_section = cache.build_memo[(player, card, key)] = {}
                    build = by_section.get(section)
                    if build is None:
                        build = by_section[section] = Build(player, card, key, self.sids[section])
                    return build
                i -= count
        i -= self.n_builds
        if self.passes:
            return cache.memo(Pass, player, self.track[i])  # type: ignore[no-any-return]
        choices = self.invests
        discard, cards = self.track[i // len(choices)], choices[i % len(choices)]
        k = (player, cards, discard)
        invest = cache.invest_memo.get(k)
        if invest is None:
            invest = cache.invest_memo[k] = Invest(player, cards, discard)
        return invest


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
