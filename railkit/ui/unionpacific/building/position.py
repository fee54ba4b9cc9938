"""The building lessons' positions (UP-S1, UP-B2a–f): the sandbox board, the rulebook examples as
presets, and the exercise's situations.

A position is what the engine's placement functions take: ``trains_on`` (section id -> company keys,
starting trains included) and ``supply`` (company key -> trains left). It starts as the public view of
a fresh game (UP-S1). Nothing here decides what is legal: ``placement_error``, ``legal_sections`` and
``explain_placement`` do.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from railkit.messages import N_
from railkit.ui.i18n import render, tr
from railkit.ui.unionpacific.common import TRACK_CARDS
from railkit.unionpacific import (
    GENERAL,
    TRACK_TYPES,
    Board,
    PlacementExplanation,
    explain_placement,
    legal_sections,
    load_board,
    new_game,
    placement_error,
    reachable_cities,
)

Trains = dict[str, list[str]]


# -- the sandbox state ------------------------------------------------------------------------
def starting_position(board: Board | None = None) -> tuple[Trains, dict[str, int]]:
    """UP-S1 as the engine sets it up: the public view of a fresh game (starting trains, supply); on
    ``board`` (a club's own) from its coloured starting spaces, the same position."""
    if board is not None and board is not load_board():  # a club's board (the built-in one is loaded once)
        trains = {s.id: list(s.starting) for s in board.sections.values() if s.starting}
        return trains, {c.key: c.trains - len(c.starting_sections) for c in board.companies}
    view = new_game(2, seed=0).view(None)
    return {sid: list(keys) for sid, keys in view.trains_on.items()}, dict(view.supply)


def copy_trains(trains_on: Mapping[str, Sequence[str]]) -> Trains:
    return {sid: list(keys) for sid, keys in trains_on.items()}


def place(board: Board, trains_on: Trains, supply: dict[str, int], company: str, section: str, card: str) -> None:
    """Put a train on the board if the engine allows it; otherwise raise its ``RuleError`` (no change)."""
    error = placement_error(board, trains_on, supply, company, section, card)
    if error is not None:
        raise error
    trains_on.setdefault(section, []).append(company)
    supply[company] = supply.get(company, 0) - 1


# -- presets: the rulebook's examples --------------------------------------------------------
@dataclass(frozen=True)
class Preset:
    """A rulebook example: trains placed (legally, in order), then one placement to judge."""

    key: str
    rule: str
    label: str
    company: str
    card: str
    section: str
    trains: tuple[tuple[str, str], ...]  # (company, section), placed with a card of the section's type
    rulebook_legal: bool  # the rulebook's verdict on (company, section, card)
    note: str


_BNL_EXAMPLE = (("BNL", "billings--casper"), ("BNL", "casper--salt-lake-city"))
PRESETS: tuple[Preset, ...] = (
    Preset("B2e", "UP-B2e", N_("Billings Northern Lights: Denver–El Paso refused (UP-B2e)"), "BNL", "mountain",
           "denver--el-paso", _BNL_EXAMPLE, False,
           N_("The Hungarian rulebook's example. Red trains run Billings–Casper–Salt Lake City, but no red train "
              "reaches Denver or El Paso, so Denver–El Paso is not linked to Billings. The rulebook refuses it "
              "until Denver–Casper or Denver–Salt Lake City carries a red train.")),
    Preset("B2e-linked", "UP-B2e", N_("… and allowed once Denver–Salt Lake City carries red (UP-B2e)"), "BNL",
           "mountain", "denver--el-paso", (*_BNL_EXAMPLE, ("BNL", "denver--salt-lake-city")), True,
           N_("The same example one build later: a red train on Denver–Salt Lake City links Denver to Billings, "
              "so a red train may now go on Denver–El Paso.")),
    Preset("B2b", "UP-B2b", N_("Denver Midland may not use Denver–El Paso (UP-B2b)"), "DM", GENERAL,
           "denver--el-paso", (), False,
           N_("Denver–El Paso touches Denver, the Denver Midland's headquarters, and even a general card matches "
              "its track; but the Denver Midland may not build on that track type at all.")),
)
PRESETS_BY_KEY = {p.key: p for p in PRESETS}


def apply_trains(board: Board, trains_on: Trains, supply: dict[str, int],
                 trains: Iterable[tuple[str, str]]) -> None:
    for company, sid in trains:
        place(board, trains_on, supply, company, sid, board.sections[sid].track_type)


# -- the exercise -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Situation:
    """“Which placements are legal?”: a position, a company, a card and candidate sections."""

    company: str
    card: str
    trains_on: Mapping[str, tuple[str, ...]]
    supply: Mapping[str, int]
    candidates: tuple[str, ...]
    legal: frozenset[str]  # from the engine's legal_sections, restricted to the candidates
    note: str = ""

    def explanation(self, board: Board, section: str) -> PlacementExplanation:
        return explain_placement(board, self.trains_on, self.supply, self.company, section, self.card)


def make_situation(board: Board, trains_on: Mapping[str, Sequence[str]], supply: Mapping[str, int],
                   company: str, card: str, candidates: Sequence[str], note: str = "") -> Situation:
    frozen = {sid: tuple(keys) for sid, keys in trains_on.items()}
    legal = set(legal_sections(board, frozen, supply, company, card))
    return Situation(company, card, frozen, dict(supply), tuple(candidates),
                     frozenset(s for s in candidates if s in legal), note)


def rulebook_situation(board: Board) -> Situation:
    """The first exercise: the Billings Northern Lights example with a mountain card (UP-B2e); on a
    club's own board, whose sections differ, a random situation instead."""
    if board is not load_board():
        return random_situation(board, random.Random(0))
    trains_on, supply = starting_position()
    apply_trains(board, trains_on, supply, _BNL_EXAMPLE)
    candidates = ("denver--el-paso", "helena--salt-lake-city", "casper--salt-lake-city",
                  "denver--casper", "denver--salt-lake-city", "albuquerque--denver")
    return make_situation(board, trains_on, supply, "BNL", "mountain", candidates,
                          tr("The position of the rulebook's example: red trains on Billings–Casper and "
                             "Casper–Salt Lake City."))


def random_situation(board: Board, rng: random.Random, size: int = 5) -> Situation:
    """A position grown by random legal builds, then a company and card with candidates near its
    network: some legal (from ``legal_sections``), the rest failing one or more of UP-B2a–f."""
    companies = [c.key for c in board.companies]
    for _attempt in range(200):
        trains_on, supply = starting_position(board)
        for _ in range(rng.randint(8, 16)):
            company, card = rng.choice(companies), rng.choice(TRACK_CARDS)
            options = legal_sections(board, trains_on, supply, company, card)
            if options:
                place(board, trains_on, supply, company, rng.choice(options), card)
        company = rng.choice(companies)
        card = rng.choice(TRACK_CARDS if rng.random() < 0.2 else TRACK_TYPES)
        legal = legal_sections(board, trains_on, supply, company, card)
        if not legal:
            continue
        reach = reachable_cities(board, trains_on, company)
        near = set(reach)
        for s in board.sections.values():  # one step beyond the network: UP-B2e candidates
            if s.a in reach or s.b in reach:
                near.update((s.a, s.b))
        illegal = [sid for sid, s in board.sections.items()
                   if sid not in legal and (s.a in near or s.b in near)]
        # Prefer distractors that match the card (so UP-B2a alone does not give them away).
        matching = [sid for sid in illegal if card == GENERAL or board.sections[sid].track_type == card]
        other = [sid for sid in illegal if sid not in matching]
        n_legal = min(len(legal), rng.randint(1, 3))
        n_illegal = size - n_legal
        picked_illegal = rng.sample(matching, min(len(matching), n_illegal - 1 if other else n_illegal))
        picked_illegal += rng.sample(other, min(len(other), n_illegal - len(picked_illegal)))
        if len(picked_illegal) < 2:
            continue
        candidates = rng.sample(legal, n_legal) + picked_illegal
        rng.shuffle(candidates)
        return make_situation(board, trains_on, supply, company, card, candidates)
    return rulebook_situation(board)  # practically unreachable: the map always offers candidates


def why_text(explanation: PlacementExplanation) -> str:
    """One cell of the exercise's answer table: the failed conditions, or that all six hold."""
    if explanation.legal:
        return tr("All six conditions of UP-B2 hold.")
    return " ".join(render(c.sentence) for c in explanation.failed)
