"""The trains on the board, indexed for speed (UP-B2, UP-D2).

``placement.py`` states the placement rules plainly (networkx, one explanation per
check) for the lessons. The engine asks "where may this company build?" hundreds of
times per simulated game, so this module keeps, per company, the cities its network
reaches from the headquarters (UP-B2e) and, as a bit mask over the sections in file
order, the sections touching them that it may use (UP-B2b) and does not run on yet
(UP-B2d). Another mask marks sections with an empty neutral space (UP-B2c). All of it is
updated incrementally as trains are placed. A test checks these caches against
``placement.reachable_cities`` and ``placement.legal_sections`` in many random games.

Bit masks (not sets of ids) because their bits come out in file order without sorting,
and string sets iterate in a different order in every Python process.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from railkit.unionpacific.board import GENERAL

__all__ = ["Network", "board_companies", "board_sections", "bits"]


def board_sections(board: Any) -> list[Any]:
    sections = board.sections
    return list(sections.values()) if isinstance(sections, Mapping) else list(sections)


def board_companies(board: Any) -> list[Any]:
    companies = board.companies
    return list(companies.values()) if isinstance(companies, Mapping) else list(companies)


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Network:
    """Trains on the board and supply, plus the per-company caches that answer UP-B2 fast."""

    __slots__ = (
        "sids", "index", "section_type", "ends", "neutral", "company_types", "hq", "by_city",
        "type_mask", "all_mask", "trains_on", "free", "free_mask", "free_by_type", "supply",
        "totals", "reach", "frontier", "own",
    )

    def __init__(self, board: Any) -> None:
        sections = board_sections(board)
        companies = board_companies(board)
        self.sids: list[str] = [s.id for s in sections]
        self.index: dict[str, int] = {sid: i for i, sid in enumerate(self.sids)}
        self.section_type: dict[str, str] = {s.id: s.track_type for s in sections}
        self.ends: list[tuple[str, str]] = [(s.a, s.b) for s in sections]
        self.neutral: dict[str, int] = {s.id: s.spaces - len(s.starting) for s in sections}
        self.company_types: dict[str, frozenset[str]] = {c.key: frozenset(c.track_types) for c in companies}
        self.hq: dict[str, str] = {c.key: c.headquarters for c in companies}
        self.totals: dict[str, int] = {c.key: c.trains for c in companies}
        self.by_city: dict[str, list[int]] = {}
        self.type_mask: dict[str, int] = {}
        for i, s in enumerate(sections):
            self.by_city.setdefault(s.a, []).append(i)
            self.by_city.setdefault(s.b, []).append(i)
            self.type_mask[s.track_type] = self.type_mask.get(s.track_type, 0) | (1 << i)
        self.all_mask = (1 << len(sections)) - 1
        self.type_mask[GENERAL] = self.all_mask  # UP-B2a: the wild card matches any type
        # UP-S1: one train on every coloured starting space; the rest is the supply.
        self.trains_on: dict[str, list[str]] = {s.id: list(s.starting) for s in sections}
        self.free: dict[str, int] = {}
        self.free_mask = 0
        self.free_by_type: dict[str, int] = {}
        for sid, n in self.neutral.items():
            self.set_free(sid, n)
        self.supply: dict[str, int] = dict(self.totals)
        self.own: dict[str, int] = {c.key: 0 for c in companies}
        for i, s in enumerate(sections):
            for key in s.starting:
                self.supply[key] -= 1
                self.own[key] |= 1 << i
        self.reach: dict[str, set[str]] = {}
        self.frontier: dict[str, int] = {}
        for key in self.hq:
            self.reach[key] = set()
            self.frontier[key] = 0
            self._grow(key, self.hq[key])

    # -- incremental caches ------------------------------------------------------------
    def set_free(self, sid: str, n: int) -> None:
        """Set the number of empty neutral spaces of ``sid`` (also used by tests to arrange a board)."""
        t = self.section_type[sid]
        old = self.free.get(sid, 0)
        self.free[sid] = n
        self.free_by_type[t] = self.free_by_type.get(t, 0) + n - old
        bit = 1 << self.index[sid]
        self.free_mask = (self.free_mask | bit) if n > 0 else (self.free_mask & ~bit)

    def _grow(self, key: str, start: str) -> None:
        """Add ``start`` and everything linked to it by ``key``'s trains to its reach (UP-B2e)."""
        reach, own, types = self.reach[key], self.own[key], self.company_types[key]
        if start in reach:
            return
        frontier = self.frontier[key]
        stack = [start]
        reach.add(start)
        while stack:
            city = stack.pop()
            for i in self.by_city[city]:
                bit = 1 << i
                if own & bit:
                    a, b = self.ends[i]
                    other = b if a == city else a
                    if other not in reach:
                        reach.add(other)
                        stack.append(other)
                elif self.section_type[self.sids[i]] in types:  # UP-B2b filtered once, here
                    frontier |= bit
        self.frontier[key] = frontier

    def place(self, key: str, sid: str) -> None:
        """Put a ``key`` train on ``sid`` (already checked legal)."""
        i = self.index[sid]
        self.trains_on[sid].append(key)
        self.set_free(sid, self.free[sid] - 1)
        self.supply[key] -= 1
        self.own[key] |= 1 << i
        self.frontier[key] &= ~(1 << i)
        a, b = self.ends[i]
        self._grow(key, b if a in self.reach[key] else a)

    # -- questions ---------------------------------------------------------------------
    def mask_for(self, key: str, card: str) -> int:
        """Bit mask of the sections where a ``key`` train may go with ``card`` (UP-B2a..f)."""
        if self.supply[key] <= 0:  # UP-B2f
            return 0
        return self.frontier[key] & self.free_mask & self.type_mask.get(card, 0)

    def is_legal(self, key: str, sid: str, card: str) -> bool:
        i = self.index.get(sid) if isinstance(sid, str) else None
        if i is None or key not in self.frontier or not isinstance(card, str):
            return False
        return bool(self.mask_for(key, card) >> i & 1)

    def sections_for(self, key: str, card: str) -> list[str]:
        """Sections where a ``key`` train may go with ``card``, in file order."""
        sids = self.sids
        return [sids[i] for i in bits(self.mask_for(key, card))]

    def any_build(self, cards: Iterable[str]) -> bool:
        """Can any company build with any of ``cards``?"""
        wanted = 0
        for c in cards:
            wanted |= self.type_mask.get(c, 0)
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
        return self.totals[key] - self.supply[key]
