"""Check a Union Pacific board file: ``python -m railkit.unionpacific check-board FILE``.

For a club that owns the printed game and types its real map into a board file (format in
``railkit/data/union_pacific/README.md``). The check has two parts:

1. Is the file valid? The same checks ``load_board`` makes (UP-C1..C4), but every problem is
   listed, not just the first (``check_board_file``). Any problem: exit code 1.
2. Is the board playable? Warnings only (exit code 0, or 1 with ``--strict``): the map is in
   one piece, every company can place its trains (UP-B2; a company's value is its trains on
   the board + 1, UP-D2), there is room for all trains, and the track cards (UP-C4) are in
   proportion to the spaces they can fill. The shipped reconstruction passes all of them.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from railkit.cli import Voice, speaking
from railkit.cli import parser as cli_parser
from railkit.datafiles import FILE
from railkit.errors import DataError
from railkit.messages import N_, Fixed, Grouped, Message, nmessage
from railkit.unionpacific.board import GENERAL, MAX_BOARD_BYTES, TRACK_TYPES, Board, check_board_file
from railkit.unionpacific.phrases import listing, track_type
from railkit.unionpacific.placement import legal_sections

# The floor the shipped board meets (tests/unionpacific/test_up_board.py): alone, every company
# places all its trains; all ten building at once in random order, each places at least 80 %.
SHARED_FLOOR = 0.8
TRIAL_GAMES = 12
ROOM_FACTOR = 1.5  # neutral spaces per train still to place after setup
CARD_RATIO_LIMIT = 2.0  # cards-per-space of the best- and worst-supplied track types
MAX_SHOWN = 6  # cities listed when the map falls apart


@dataclass(frozen=True)
class BoardReport:
    path: str
    board: Board | None
    problems: tuple[DataError, ...]
    warnings: tuple[Message, ...]

    @property
    def valid(self) -> bool:
        return self.board is not None

    def lines(self, say: Callable[[str], str] = str) -> list[str]:
        """The report line by line, each message put into words by ``say`` (English without; the command
        line passes its ``Voice.say`` for ``RAILKIT_LANG``). An item such as ``track_deck`` is a plain str,
        as typed in the file."""
        if self.board is None:
            out = [say(nmessage("{path}: {n} problem found; the board cannot be used:",
                                "{path}: {n} problems found; the board cannot be used:", len(self.problems),
                                {"path": self.path}))]
            out += [f"  - {say(p.item)}: {say(p.problem)}" for p in self.problems]
            out.append(say(Message(N_("Fix these and check again: checks that need a broken part are skipped until "
                                      "it is fixed."))))
            return out
        out = [f"OK: {say(summary(self.board))}"]
        out += [say(Message(N_("warning: {warning}"), {"warning": w})) for w in self.warnings]
        if self.warnings:
            out.append(say(nmessage("The board loads, but {n} warning says it may not play well.",
                                    "The board loads, but {n} warnings say it may not play well.", len(self.warnings))))
        return out


def check(path: str | Path, trial_games: int = TRIAL_GAMES) -> BoardReport:
    """Validate ``path``; for a valid board also look for playability problems."""
    board, problems = check_board_file(path)
    warnings = tuple(playability_warnings(board, trial_games)) if board is not None else ()
    return BoardReport(str(path), board, problems, warnings)


def summary(board: Board) -> Message:
    sections = list(board.sections.values())
    connections = len({frozenset((s.a, s.b)) for s in sections})  # parallel sections are one connection (UP-B2d)
    spaces = sum(s.spaces for s in sections)
    neutral = sum(s.neutral_spaces for s in sections)
    starts = sum(len(s.starting) for s in sections)
    return Message(N_("{cities}, {connections} ({sections}), {spaces} ({neutral} neutral, {starting} starting), "
                      "{companies} ({trains} trains), {cards} ({general} general)"), {
        "cities": nmessage("{n} city", "{n} cities", len(board.cities)),
        "connections": nmessage("{n} connection", "{n} connections", connections),
        "sections": nmessage("{n} section", "{n} sections", len(sections)),
        "spaces": nmessage("{n} train space", "{n} train spaces", spaces),
        "neutral": neutral, "starting": starts,
        "companies": nmessage("{n} company", "{n} companies", len(board.companies)),
        "trains": sum(c.trains for c in board.companies),
        "cards": nmessage("{n} track card", "{n} track cards", sum(board.track_deck.values())),
        "general": board.track_deck[GENERAL]})


# -- playability ---------------------------------------------------------------------------
def grow(board: Board, keys: Sequence[str], rng: random.Random | None) -> dict[str, int]:
    """Build with general cards (wild, UP-B2a) until none of ``keys`` can place: trains on the
    board per company. ``rng`` None: one company at a time, first legal section each time."""
    on: dict[str, list[str]] = {s.id: list(s.starting) for s in board.sections.values() if s.starting}
    supply = {c.key: c.trains - len(c.starting_sections) for c in board.companies}
    active = list(keys)
    while active:
        key = rng.choice(active) if rng else active[0]
        options = legal_sections(board, on, supply, key, GENERAL)
        if not options:
            active.remove(key)
            continue
        sid = rng.choice(options) if rng else options[0]
        on.setdefault(sid, []).append(key)
        supply[key] -= 1
    return {c.key: c.trains - supply[c.key] for c in board.companies}


def playability_warnings(board: Board, trial_games: int = TRIAL_GAMES) -> list[Message]:
    return [*_pieces(board), *_companies(board, trial_games), *_room(board), *_deck(board)]


def _pieces(board: Board) -> list[Message]:
    parts = sorted(nx.connected_components(board.graph), key=len, reverse=True)
    if len(parts) == 1:
        return []
    cut_off = sorted(city for part in parts[1:] for city in part)
    more = [nmessage("{n} more", "{n} more", len(cut_off) - MAX_SHOWN)] if len(cut_off) > MAX_SHOWN else []
    shown = listing([*cut_off[:MAX_SHOWN], *more])
    return [Message(N_("the map falls apart into {pieces} pieces; {cities} cannot be reached from the largest "
                       "piece, so a company can never build across (UP-B2e: a new train joins the company's "
                       "network)"), {"pieces": len(parts), "cities": shown})]


def _companies(board: Board, trial_games: int) -> list[Message]:
    out = []
    alone_short = set()
    for company in board.companies:
        placed = grow(board, [company.key], None)[company.key]
        if placed < company.trains:
            alone_short.add(company.key)
            out.append(Message(N_("company {key} ({company}) can place only {placed} of its {trains} trains even "
                                  "when it builds alone with wild cards: its track types ({types}) reach too few free "
                                  "spaces from {city} (UP-B2b, UP-B2e). Its shares would be worth little (UP-D2)."),
                               {"key": repr(company.key), "company": company.name, "placed": placed,
                                "trains": company.trains, "city": company.headquarters,
                                "types": listing([track_type(t) for t in TRACK_TYPES if t in company.track_types])}))
    keys = [c.key for c in board.companies]
    worst = {c.key: c.trains for c in board.companies}
    for seed in range(trial_games):
        for key, placed in grow(board, keys, random.Random(seed)).items():
            worst[key] = min(worst[key], placed)
    for company in board.companies:
        low = worst[company.key]
        if company.key not in alone_short and low < SHARED_FLOOR * company.trains:
            out.append(Message(N_("company {key} ({company}) placed as few as {low} of its {trains} trains "
                                  "({percent}%) in {games} where all companies build at random; the shipped board "
                                  "keeps every company at {floor}% or more. Give its track types more room near "
                                  "{city}."),
                               {"key": repr(company.key), "company": company.name, "low": low,
                                "trains": company.trains, "percent": round(100 * low / company.trains),
                                "games": nmessage("{n} trial game", "{n} trial games", trial_games),
                                "floor": round(100 * SHARED_FLOOR), "city": company.headquarters}))
    return out


def _room(board: Board) -> list[Message]:
    neutral = sum(s.neutral_spaces for s in board.sections.values())
    to_place = sum(c.trains - len(c.starting_sections) for c in board.companies)
    if neutral >= ROOM_FACTOR * to_place:
        return []
    return [nmessage("the map has {n} neutral space for the {trains} trains placed after setup (UP-C1); keep at "
                     "least {factor} times as many spaces as trains (the shipped board has {shipped}) so that "
                     "companies rarely run out of room",
                     "the map has {n} neutral spaces for the {trains} trains placed after setup (UP-C1); keep at "
                     "least {factor} times as many spaces as trains (the shipped board has {shipped}) so that "
                     "companies rarely run out of room", neutral,
                     {"trains": to_place, "factor": Fixed(ROOM_FACTOR, 1), "shipped": Fixed(1.8, 1)})]


def _deck(board: Board) -> list[Message]:
    neutral: Counter[str] = Counter()
    for s in board.sections.values():
        neutral[s.track_type] += s.neutral_spaces
    out = []
    for t in TRACK_TYPES:
        if neutral[t] == 0 and board.track_deck[t] > 0:
            out.append(nmessage("no section has a free {track} space, yet the deck holds {n} {track} card (UP-C4): "
                                "it can never be used to build",
                                "no section has a free {track} space, yet the deck holds {n} {track} cards (UP-C4): "
                                "they can never be used to build", board.track_deck[t], {"track": track_type(t)}))
    # Cards per neutral space, for types that have both cards and spaces
    ratios = {t: board.track_deck[t] / neutral[t] for t in TRACK_TYPES if neutral[t] and board.track_deck[t]}
    if len(ratios) >= 2:
        rich, poor = max(ratios, key=ratios.__getitem__), min(ratios, key=ratios.__getitem__)
        if ratios[rich] > CARD_RATIO_LIMIT * ratios[poor]:
            out.append(Message(N_("track cards are out of proportion to spaces (UP-C4): {rich} has one card per "
                                  "{rich_spaces} free spaces, {poor} one per {poor_spaces}; give the types with more "
                                  "spaces more cards"),
                               {"rich": track_type(rich), "rich_spaces": Fixed(1 / ratios[rich], 1),
                                "poor": track_type(poor), "poor_spaces": Fixed(1 / ratios[poor], 1)}))
    return out


# -- the command ---------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None, prog: str = "python -m railkit.unionpacific check-board") -> int:
    voice = Voice.chosen()
    with speaking(voice):
        parser = cli_parser(prog, Message(N_(
            "Check a Union Pacific board file (format: railkit/data/union_pacific/README.md). "
            "Lists every problem found, then warns about playability. "
            "Exit code 0: the board can be used; 1: it cannot (or, with --strict, it has warnings).")), voice)
        size = Message(N_("the board file (JSON, at most {most} bytes)"), {"most": Grouped(MAX_BOARD_BYTES)})
        parser.add_argument("file", metavar=voice.say(FILE), help=voice.say(size))
        parser.add_argument("--strict", action="store_true",
                            help=voice.say(Message(N_("treat playability warnings as errors"))))
        parser.add_argument("--quick", action="store_true", help=voice.say(Message(N_(
            "one trial game instead of twelve for the shared-building check"))))
        args = parser.parse_args(argv)
    report = check(args.file, trial_games=1 if args.quick else TRIAL_GAMES)
    stream = sys.stdout if report.valid else sys.stderr
    for line in report.lines(voice.say):
        print(line, file=stream)
    return 0 if report.valid and not (args.strict and report.warnings) else 1


if __name__ == "__main__":
    raise SystemExit(main(prog="python -m railkit.unionpacific.board_check"))
