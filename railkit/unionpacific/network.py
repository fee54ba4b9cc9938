"""The trains on the board, indexed for speed (UP-B2, UP-D2).

``placement.py`` states the placement rules plainly (networkx, one explanation per
check) for the lessons. The engine asks "where may this company build?" hundreds of
times per simulated game, so this module keeps, per company, the cities its network
reaches from the headquarters (UP-B2e) and, as a bit mask over the sections in file
order, the sections touching them that it may use (UP-B2b) and whose connection it does
not run on yet (UP-B2d: parallel sections between the same two cities are one
connection). Another mask marks sections with an empty neutral space (UP-B2c). All of it
is updated incrementally as trains are placed. A test checks these caches against
``placement.reachable_cities`` and ``placement.legal_sections`` in many random games.

Two parts: ``BoardIndex`` is what never changes (built once per board and shared by every
game and every copy); ``Network`` is the occupancy, part of a game's state, and copies fast.

Bit masks (not sets of ids) because their bits come out in file order without sorting,
and string sets iterate in a different order in every Python process.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any

from railkit.unionpacific.board import GENERAL, Board

__all__ = ["BoardIndex", "Network", "bits", "board_index"]


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class BoardIndex:
    """Lookup tables of one board (never change; shared, never copied)."""

    __slots__ = (
        "board", "sids", "index", "section_type", "ends", "neutral", "company_types", "hq", "totals",
        "by_city", "type_mask", "all_mask", "connection", "company_order", "__weakref__",
    )

    def __init__(self, board: Board) -> None:
        sections = list(board.sections.values())
        self.board = board
        self.sids: tuple[str, ...] = tuple(s.id for s in sections)
        self.index: dict[str, int] = {sid: i for i, sid in enumerate(self.sids)}
        self.section_type: dict[str, str] = {s.id: s.track_type for s in sections}
        self.ends: tuple[tuple[str, str], ...] = tuple((s.a, s.b) for s in sections)
        self.neutral: dict[str, int] = {s.id: s.spaces - len(s.starting) for s in sections}
        self.company_order: tuple[str, ...] = tuple(c.key for c in board.companies)  # UP-D8
        self.company_types: dict[str, frozenset[str]] = {c.key: c.track_types for c in board.companies}
        self.hq: dict[str, str] = {c.key: c.headquarters for c in board.companies}
        self.totals: dict[str, int] = {c.key: c.trains for c in board.companies}
        self.by_city: dict[str, list[int]] = {}
        self.type_mask: dict[str, int] = {}
        pairs: dict[frozenset[str], int] = {}
        for i, s in enumerate(sections):
            self.by_city.setdefault(s.a, []).append(i)
            self.by_city.setdefault(s.b, []).append(i)
            self.type_mask[s.track_type] = self.type_mask.get(s.track_type, 0) | (1 << i)
            pair = frozenset((s.a, s.b))
            pairs[pair] = pairs.get(pair, 0) | (1 << i)
        # UP-B2d: per section, the mask of its whole connection (every section between the
        # same two cities); a company may hold one train on a connection.
        self.connection: tuple[int, ...] = tuple(pairs[frozenset(end)] for end in self.ends)
        self.all_mask = (1 << len(sections)) - 1
        self.type_mask[GENERAL] = self.all_mask  # UP-B2a: the wild card matches any type

    def __reduce__(self) -> tuple[Any, tuple[Board]]:
        return (board_index, (self.board,))

    def __copy__(self) -> BoardIndex:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> BoardIndex:
        return self


_INDEXES: weakref.WeakKeyDictionary[Board, BoardIndex] = weakref.WeakKeyDictionary()


def board_index(board: Board) -> BoardIndex:
    """The lookup tables of ``board``, built once per board."""
    idx = _INDEXES.get(board)
    if idx is None:
        idx = _INDEXES[board] = BoardIndex(board)
    return idx


class Network:
    """Trains on the board and supply, plus the per-company caches that answer UP-B2 fast."""

    __slots__ = ("idx", "trains_on", "free", "free_mask", "free_by_type", "supply", "reach", "frontier", "own")

    idx: BoardIndex
    trains_on: dict[str, list[str]]  # section id -> company keys with a train there
    free: dict[str, int]  # section id -> empty neutral spaces
    free_mask: int  # sections with an empty neutral space
    free_by_type: dict[str, int]  # track type -> empty neutral spaces
    supply: dict[str, int]  # company key -> trains not on the board
    reach: dict[str, set[str]]  # company key -> cities linked to its headquarters
    frontier: dict[str, int]  # company key -> sections it may extend onto, track type and UP-B2d aside from cards
    own: dict[str, int]  # company key -> sections carrying its trains

    def __init__(self, board: Board | BoardIndex) -> None:
        idx = board if isinstance(board, BoardIndex) else board_index(board)
        self.idx = idx
        starting = {s.id: s.starting for s in idx.board.sections.values()}
        # UP-S1: one train on every coloured starting space; the rest is the supply.
        self.trains_on = {sid: list(starting[sid]) for sid in idx.sids}
        self.free = {}
        self.free_mask = 0
        self.free_by_type = {}
        for sid, n in idx.neutral.items():
            self.set_free(sid, n)
        self.supply = dict(idx.totals)
        self.own = dict.fromkeys(idx.company_order, 0)
        for i, sid in enumerate(idx.sids):
            for key in starting[sid]:
                self.supply[key] -= 1
                self.own[key] |= 1 << i
        self.reach = {}
        self.frontier = {}
        for key in idx.company_order:
            self.reach[key] = set()
            self.frontier[key] = 0
            self._grow(key, idx.hq[key])

    def copy(self) -> Network:
        """An independent copy (the board index is shared)."""
        new = Network.__new__(Network)
        new.idx = self.idx
        new.trains_on = {sid: list(keys) for sid, keys in self.trains_on.items()}
        new.free = dict(self.free)
        new.free_mask = self.free_mask
        new.free_by_type = dict(self.free_by_type)
        new.supply = dict(self.supply)
        new.reach = {key: set(cities) for key, cities in self.reach.items()}
        new.frontier = dict(self.frontier)
        new.own = dict(self.own)
        return new

    # the board's tables, under the names tests and bots use
    @property
    def sids(self) -> tuple[str, ...]:
        return self.idx.sids

    @property
    def totals(self) -> dict[str, int]:
        return self.idx.totals

    @property
    def type_mask(self) -> dict[str, int]:
        return self.idx.type_mask

    # -- incremental caches ------------------------------------------------------------
    def set_free(self, sid: str, n: int) -> None:
        """Set the number of empty neutral spaces of ``sid`` (also used by tests to arrange a board)."""
        t = self.idx.section_type[sid]
        old = self.free.get(sid, 0)
        self.free[sid] = n
        self.free_by_type[t] = self.free_by_type.get(t, 0) + n - old
        bit = 1 << self.idx.index[sid]
        self.free_mask = (self.free_mask | bit) if n > 0 else (self.free_mask & ~bit)

    def _grow(self, key: str, start: str) -> None:
        """Add ``start`` and everything linked to it by ``key``'s trains to its reach (UP-B2e)."""
        idx = self.idx
        reach, own, types = self.reach[key], self.own[key], idx.company_types[key]
        if start in reach:
            return
        frontier = self.frontier[key]
        connection, section_type, sids, ends = idx.connection, idx.section_type, idx.sids, idx.ends
        stack = [start]
        reach.add(start)
        while stack:
            city = stack.pop()
            for i in idx.by_city[city]:
                bit = 1 << i
                if own & bit:
                    a, b = ends[i]
                    other = b if a == city else a
                    if other not in reach:
                        reach.add(other)
                        stack.append(other)
                elif not own & connection[i] and section_type[sids[i]] in types:  # UP-B2d, UP-B2b
                    frontier |= bit
        self.frontier[key] = frontier

    def place(self, key: str, sid: str) -> None:
        """Put a ``key`` train on ``sid`` (already checked legal)."""
        idx = self.idx
        i = idx.index[sid]
        self.trains_on[sid].append(key)
        self.set_free(sid, self.free[sid] - 1)
        self.supply[key] -= 1
        self.own[key] |= 1 << i
        self.frontier[key] &= ~idx.connection[i]  # UP-B2d: the whole connection is taken
        a, b = idx.ends[i]
        self._grow(key, b if a in self.reach[key] else a)

    # -- questions ---------------------------------------------------------------------
    def mask_for(self, key: str, card: str) -> int:
        """Bit mask of the sections where a ``key`` train may go with ``card`` (UP-B2a..f)."""
        if self.supply[key] <= 0:  # UP-B2f
            return 0
        return self.frontier[key] & self.free_mask & self.idx.type_mask.get(card, 0)

    def is_legal(self, key: object, sid: object, card: object) -> bool:
        i = self.idx.index.get(sid) if isinstance(sid, str) else None
        if i is None or not isinstance(key, str) or key not in self.frontier or not isinstance(card, str):
            return False
        return bool(self.mask_for(key, card) >> i & 1)

    def sections_for(self, key: str, card: str) -> list[str]:
        """Sections where a ``key`` train may go with ``card``, in file order."""
        sids = self.idx.sids
        return [sids[i] for i in bits(self.mask_for(key, card))]

    def any_build(self, cards: Iterable[str]) -> bool:
        """Can any company build with any of ``cards``?"""
        wanted = 0
        type_mask = self.idx.type_mask
        for c in cards:
            wanted |= type_mask.get(c, 0)
        wanted &= self.free_mask
        if not wanted:
            return False
        supply = self.supply
        return any(f & wanted and supply[k] > 0 for k, f in self.frontier.items())

    def usable(self, card: str) -> bool:
        """UP-T2: a track card stays usable while any empty neutral space of its type remains."""
        if card == GENERAL:
            return self.free_mask != 0
        return self.free_by_type.get(card, 0) > 0

    def on_board(self, key: str) -> int:
        return self.idx.totals[key] - self.supply[key]
