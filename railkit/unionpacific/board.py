"""The Union Pacific board as data: cities, sections, companies and the track deck.

``load_board()`` reads ``data/union_pacific/board.json`` (format in that folder's README),
checks it against the components the rulebooks fix (UP-C1 counts, UP-C2 names, UP-C3
map rules, UP-C4 deck size) and returns an immutable ``Board``. Every problem raises
``DataError(path, item, problem)`` so a broken file says where it is broken.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import networkx as nx

from railkit.datafiles import (
    FILE,
    MAX_NAME_LENGTH,
    DuplicateKeyError,
    duplicate_key_problem,
    json_problem,
    name_problem,
    ordinal,
    unique_keys,
)
from railkit.errors import DataError
from railkit.messages import N_, Grouped, Message, nmessage
from railkit.paths import data_dir
from railkit.unionpacific.phrases import track_type

# The four track types (UP-C3). The printed names are not in the sources; railkit names
# them after terrain so a learner can say them (see docs/rulings.md). Order = file order.
TRACK_TYPES: tuple[str, ...] = ("plains", "hills", "mountain", "river")
GENERAL = "general"  # the wild track card (UP-C4, Hungarian rulebook)
DECK_SIZE = 40  # UP-C4
MAX_BOARD_BYTES = 1_000_000  # the shipped board is about 20 kB
FORMAT = "railkit-union-pacific-board"
VERSION = 1

# UP-C1 in table order, which railkit also uses as summary-card order (UP-D8):
# colour -> (trains, shares). The green company (EP&RG, UP-C2) is the one with all four
# track types and two starting spaces; every other company has one starting space.
UP_C1: tuple[tuple[str, int, int], ...] = (
    ("green", 23, 18),
    ("red", 19, 15),
    ("yellow", 17, 12),
    ("black", 14, 10),
    ("dark blue", 13, 9),
    ("white", 11, 8),
    ("orange", 10, 7),
    ("brown", 9, 7),
    ("light blue", 8, 6),
    ("grey", 7, 6),
)
ALL_TYPES_COLOUR = "green"

# A loose box around the contiguous United States, so the map fits a lower-48 basemap.
_LON_RANGE = (-125.0, -66.5)
_LAT_RANGE = (24.3, 49.5)
_HEX = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True)
class City:
    name: str
    lon: float
    lat: float


@dataclass(frozen=True)
class Company:
    key: str
    name: str
    colour: str
    hex: str
    trains: int
    shares: int
    headquarters: str
    track_types: frozenset[str]
    starting_sections: tuple[str, ...]
    order: int  # 1-based position on the summary card (UP-D8) = UP-C1 table order
    invented: bool  # True for the six names the sources do not give (UP-C2)


@dataclass(frozen=True)
class Section:
    id: str
    a: str
    b: str
    track_type: str
    spaces: int
    starting: tuple[str, ...]  # company keys whose coloured starting space is here

    @property
    def neutral_spaces(self) -> int:
        return self.spaces - len(self.starting)

    @property
    def name(self) -> str:
        """How learners read it: ``"Denver–El Paso"``."""
        return f"{self.a}–{self.b}"

    def touches(self, city: str) -> bool:
        return city in (self.a, self.b)

    def other(self, city: str) -> str:
        if city == self.a:
            return self.b
        if city == self.b:
            return self.a
        raise ValueError(f"{self.name} does not touch {city}")


# eq=False: identity equality and hashing, so a Board can key the engine's caches
# (its Mapping fields are not hashable).
@dataclass(frozen=True, eq=False)
class Board:
    cities: Mapping[str, City]
    sections: Mapping[str, Section]  # file order
    companies: tuple[Company, ...]  # summary-card order, UP-D8
    track_deck: Mapping[str, int]  # track type or GENERAL -> cards; DECK_SIZE in all
    graph: nx.MultiGraph  # frozen; edges (a, b, key=section id)
    source: str
    track_labels: Mapping[str, str]  # track type -> display label (from the file)

    def company(self, key: str) -> Company:
        for company in self.companies:
            if company.key == key:
                return company
        known = ", ".join(c.key for c in self.companies)
        raise KeyError(f"no company {key!r} on this board (known: {known})")

    def sections_between(self, a: str, b: str) -> list[Section]:
        """All sections joining ``a`` and ``b`` (parallel sections included), file order."""
        edges = self.graph.get_edge_data(a, b) or {}  # keyed by section id, insertion order
        return [self.sections[sid] for sid in edges]

    # A board never changes: copies of a game share it, and pickling rebuilds it from its
    # parts (the shipped board comes back as the one loaded object).
    def __copy__(self) -> Board:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if _default_board.cache_info().currsize and self is _default_board():
            return (_default_board, ())
        return (_assemble, (dict(self.cities), dict(self.sections), self.companies, dict(self.track_deck),
                            self.source, dict(self.track_labels)))


def load_board(path: str | Path | None = None) -> Board:
    """Load and validate a board file; ``None`` means the shipped board (loaded once)."""
    if path is None:
        return _default_board()
    return _Loader(Path(path)).load()


def check_board_file(path: str | Path) -> tuple[Board | None, tuple[DataError, ...]]:
    """Every problem ``load_board(path)`` would stop at, not just the first: ``(board, ())`` for a
    good file, ``(None, problems)`` for a broken one. The checks run in stages (the file; track
    types, deck and cities; companies; sections; starting spaces and lone cities); a stage runs
    only when the ones it builds on passed, so one mistake is not reported again as many."""
    loader = _Loader(Path(path), collect=True)
    try:
        board = loader.load()
    except DataError as exc:
        loader.problems.append(exc)
    except _StageFailed:
        pass
    else:
        if not loader.problems:
            return board, ()
    return None, tuple(loader.problems)


@lru_cache(maxsize=1)
def _default_board() -> Board:
    return _Loader(data_dir() / "union_pacific" / "board.json").load()


def _assemble(cities: dict[str, City], sections: dict[str, Section], companies: tuple[Company, ...],
              deck: dict[str, int], source: str, labels: dict[str, str]) -> Board:
    """A ``Board`` from checked parts (also how a pickled board is rebuilt)."""
    graph = nx.MultiGraph()
    for city in cities.values():
        graph.add_node(city.name, lon=city.lon, lat=city.lat)
    for s in sections.values():
        graph.add_edge(s.a, s.b, key=s.id, track_type=s.track_type, spaces=s.spaces, starting=s.starting)
    return Board(
        cities=MappingProxyType(dict(cities)),
        sections=MappingProxyType(dict(sections)),
        companies=tuple(companies),
        track_deck=MappingProxyType(dict(deck)),
        graph=nx.freeze(graph),
        source=source,
        track_labels=MappingProxyType(dict(labels)),
    )


class _StageFailed(Exception):
    """Checking mode: a stage found problems, so the stages built on it are not run."""


class _Loader:
    """One pass over the file; every check raises ``DataError`` naming file and item.

    With ``collect=True`` (``check_board_file``) a broken entry is recorded in ``problems`` and
    the next entry is checked; ``load_board`` keeps the default and stops at the first problem.
    """

    def __init__(self, path: Path, collect: bool = False) -> None:
        self.path = path
        self.collect = collect
        self.problems: list[DataError] = []

    @contextmanager
    def each_item(self) -> Iterator[None]:
        try:
            yield
        except DataError as exc:
            if not self.collect:
                raise
            self.problems.append(exc)

    def end_of_stage(self, since: int = 0) -> None:
        """Checking mode: stop unless ``problems[since:]`` is empty (later checks need these parts)."""
        if len(self.problems) > since:
            raise _StageFailed

    def fail(self, item: str, problem: Message) -> DataError:
        return DataError(self.path, item, problem)

    def field(self, obj: Any, name: str, kind: type | tuple[type, ...], item: str) -> Any:
        if not isinstance(obj, dict):
            raise self.fail(item, Message(N_("must be a JSON object")))
        if name not in obj:
            raise self.fail(item, Message(N_("missing field {field}"), {"field": repr(name)}))
        value = obj[name]
        # bool is an int in Python; a JSON true is never a count or a coordinate
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
            raise self.fail(item, Message(N_("field {field} has the wrong type ({found})"),
                                          {"field": repr(name), "found": type(value).__name__}))
        if isinstance(value, str):  # every text of a board is a name or a key: short and printable
            problem = name_problem(repr(name), value)
            if problem is not None:
                raise self.fail(item, problem)
        return value

    def no_extra(self, obj: dict[str, Any], allowed: set[str], item: str) -> None:
        extra = sorted(set(obj) - allowed)
        if extra:  # a typo such as "space" should not silently fall back to nothing
            shown = [k if len(k) <= MAX_NAME_LENGTH else k[:MAX_NAME_LENGTH] + "…" for k in extra[:5]]
            raise self.fail(item, nmessage("unknown field {fields}; allowed: {allowed}",
                                           "unknown fields {fields}; allowed: {allowed}", len(extra),
                                           {"fields": str(shown) + (" …" if len(extra) > 5 else ""),
                                            "allowed": str(sorted(allowed))}))

    # -- the file as a whole ---------------------------------------------------
    def load(self) -> Board:
        try:
            if not self.path.is_file():
                raise self.fail(FILE, Message(N_("cannot be read: it does not exist or is not a regular file")))
            with self.path.open("rb") as handle:  # bounded: never read more than the limit
                data = handle.read(MAX_BOARD_BYTES + 1)
        except OSError as exc:
            raise self.fail(FILE, Message(N_("cannot be read ({reason})"), {"reason": str(exc.strerror or exc)})) from exc
        if len(data) > MAX_BOARD_BYTES:
            raise self.fail(FILE, Message(N_("is larger than {most} bytes; a board file is about 20 kB"),
                                          {"most": Grouped(MAX_BOARD_BYTES)}))
        try:
            raw = json.loads(data.decode("utf-8"), object_pairs_hook=unique_keys)
        except UnicodeDecodeError:
            raise self.fail(FILE, Message(N_("is not UTF-8 text"))) from None
        except DuplicateKeyError as exc:  # "format": "junk", "format": ... must not pass as the second
            raise self.fail(FILE, duplicate_key_problem(exc)) from None
        except json.JSONDecodeError as exc:
            where = Message(N_("line {line}, column {column}"), {"line": exc.lineno, "column": exc.colno})
            raise self.fail(where, json_problem(exc)) from exc
        except (ValueError, RecursionError):  # a number of thousands of digits, or deep nesting
            raise self.fail(FILE, Message(N_("holds a value too large or too deeply nested"))) from None
        if not isinstance(raw, dict):
            raise self.fail(FILE, Message(N_("must hold one JSON object")))
        if raw.get("format") != FORMAT or raw.get("version") != VERSION:
            raise self.fail("format", Message(N_("expected 'format': {format} and 'version': {version}"),
                                              {"format": repr(FORMAT), "version": VERSION}))
        with self.each_item():
            self.no_extra(raw, {"format", "version", "about", "track_types", "track_deck",
                                "cities", "companies", "sections"}, FILE)

        labels: dict[str, str] = {}
        deck: dict[str, int] = {}
        with self.each_item():
            labels = self.track_types(raw)
        with self.each_item():
            deck = self.deck(raw)
        independent = len(self.problems)  # companies and sections do not need the deck or labels
        cities = self.cities(raw)
        self.end_of_stage(independent)
        companies = self.companies(raw, cities)
        self.end_of_stage(independent)
        sections = self.sections(raw, cities, companies)
        self.end_of_stage(independent)
        frozen_companies = self.finish_companies(companies, sections)

        board = _assemble(cities, sections, frozen_companies, deck, str(self.path), labels)
        for name in cities:
            with self.each_item():
                if board.graph.degree(name) == 0:
                    raise self.fail(Message(N_("city {name}"), {"name": repr(name)}),
                                    Message(N_("lies on no section; remove it or join it to the map")))
        self.end_of_stage()
        return board

    # -- parts -----------------------------------------------------------------
    def track_types(self, raw: dict[str, Any]) -> dict[str, str]:
        entries = self.field(raw, "track_types", list, "track_types")
        labels: dict[str, str] = {}
        for i, entry in enumerate(entries):
            item = f"track_types[{i}]"
            key = self.field(entry, "key", str, item)
            labels[key] = self.field(entry, "label", str, item)
        if tuple(labels) != TRACK_TYPES or len(entries) != len(TRACK_TYPES):
            raise self.fail("track_types", Message(N_("must be exactly {wanted} in that order (the engine's "
                                                      "TRACK_TYPES), not {found}"),
                                                   {"wanted": str(list(TRACK_TYPES)),
                                                    "found": str([self._key(e) for e in entries])}))
        return labels

    @staticmethod
    def _key(entry: Any) -> Any:
        return entry.get("key") if isinstance(entry, dict) else entry

    def deck(self, raw: dict[str, Any]) -> dict[str, int]:
        deck = self.field(raw, "track_deck", dict, "track_deck")
        wanted = (*TRACK_TYPES, GENERAL)
        for key, count in deck.items():
            if key not in wanted:
                found = repr(key) if len(key) <= MAX_NAME_LENGTH else repr(key[:MAX_NAME_LENGTH]) + "…"
                raise self.fail("track_deck", Message(N_("unknown track type {found}; use one of {wanted}"),
                                                      {"found": found, "wanted": str(list(wanted))}))
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise self.fail("track_deck", Message(N_("count for {key} must be a whole number >= 0, not {found}"),
                                                      {"key": repr(key), "found": repr(count)}))
        missing = [k for k in wanted if k not in deck]
        if missing:
            raise self.fail("track_deck", Message(N_("no count for {missing}"), {"missing": str(missing)}))
        total = sum(deck.values())
        if total != DECK_SIZE:
            raise self.fail("track_deck", nmessage("holds {n} card; UP-C4 says {size}", "holds {n} cards; UP-C4 says {size}",
                                                   total, {"size": DECK_SIZE}))
        return {k: deck[k] for k in wanted}

    def cities(self, raw: dict[str, Any]) -> dict[str, City]:
        cities: dict[str, City] = {}
        for i, entry in enumerate(self.field(raw, "cities", list, "cities")):
            with self.each_item():  # checking mode: record and go on to the next entry
                name = self.field(entry, "name", str, f"cities[{i}]")
                item = Message(N_("city {name}"), {"name": repr(name)})
                self.no_extra(entry, {"name", "lon", "lat"}, item)
                lon = float(self.field(entry, "lon", (int, float), item))
                lat = float(self.field(entry, "lat", (int, float), item))
                if not name.strip():
                    raise self.fail(f"cities[{i}]", Message(N_("has an empty name")))
                if name in cities:
                    raise self.fail(item, Message(N_("duplicate city name")))
                if not (_LON_RANGE[0] <= lon <= _LON_RANGE[1] and _LAT_RANGE[0] <= lat <= _LAT_RANGE[1]):
                    raise self.fail(item, Message(N_("lon {lon}, lat {lat} is outside the contiguous United States"),
                                                  {"lon": str(lon), "lat": str(lat)}))
                cities[name] = City(name, lon, lat)
        return cities

    def companies(self, raw: dict[str, Any], cities: dict[str, City]) -> list[dict[str, Any]]:
        entries = self.field(raw, "companies", list, "companies")
        if len(entries) != len(UP_C1):
            raise self.fail("companies", nmessage("lists {n} company; UP-C1 has {size}", "lists {n} companies; UP-C1 has {size}",
                                                  len(entries), {"size": len(UP_C1)}))
        kinds = {"key": str, "name": str, "colour": str, "hex": str, "trains": int, "shares": int,
                 "headquarters": str, "track_types": list, "invented": bool}
        seen: set[str] = set()
        names: set[str] = set()
        result = []
        for i, (entry, (colour, trains, shares)) in enumerate(zip(entries, UP_C1, strict=True)):
            with self.each_item():  # checking mode: record and go on to the next entry
                key = self.field(entry, "key", str, f"companies[{i}]")
                item = Message(N_("company {key}"), {"key": repr(key)})
                self.no_extra(entry, set(kinds), item)
                c = {name: self.field(entry, name, kind, item) for name, kind in kinds.items()}
                if key in seen:
                    raise self.fail(item, Message(N_("duplicate company key")))
                seen.add(key)
                if c["name"] in names:
                    raise self.fail(item, Message(N_("duplicate company name {name}"), {"name": repr(c["name"])}))
                names.add(c["name"])
                if c["colour"] != colour:
                    raise self.fail(item, Message(N_("colour {found} is listed {place}, but UP-C1 puts {colour} {place}; "
                                                     "list the companies in UP-C1 table order"),
                                                  {"found": repr(c["colour"]), "place": ordinal(i + 1),
                                                   "colour": Message(colour)}))
                if (c["trains"], c["shares"]) != (trains, shares):
                    raise self.fail(item, Message(N_("has {trains_found} and {shares_found}; UP-C1 gives {colour} "
                                                     "{trains} trains and {shares} shares"),
                                                  {"trains_found": nmessage("{n} train", "{n} trains", c["trains"]),
                                                   "shares_found": nmessage("{n} share", "{n} shares", c["shares"]),
                                                   "colour": Message(colour), "trains": trains, "shares": shares}))
                if not _HEX.fullmatch(c["hex"]):
                    raise self.fail(item, Message(N_("hex colour {found} is not of the form '#rrggbb'"),
                                                  {"found": repr(c["hex"])}))
                if c["headquarters"] not in cities:
                    raise self.fail(item, Message(N_("headquarters {found} is not a city on the board"),
                                                  {"found": repr(c["headquarters"])}))
                types = c["track_types"]
                for t in types:
                    if t not in TRACK_TYPES:
                        raise self.fail(item, Message(N_("unknown track type {found}; use one of {wanted}"),
                                                      {"found": repr(t), "wanted": str(list(TRACK_TYPES))}))
                if len(set(types)) != len(types):
                    raise self.fail(item, Message(N_("lists a track type twice")))
                if colour == ALL_TYPES_COLOUR and len(types) != len(TRACK_TYPES):
                    raise self.fail(item, Message(N_("the green company (EP&RG) may use all four track types (UP-C2)")))
                if colour != ALL_TYPES_COLOUR and not 1 <= len(types) <= 3:
                    raise self.fail(item, nmessage("may use {n} track type; UP-C3 allows one to three",
                                                   "may use {n} track types; UP-C3 allows one to three", len(types)))
                c["order"] = i + 1
                result.append(c)
        return result

    def sections(self, raw: dict[str, Any], cities: dict[str, City],
                 companies: list[dict[str, Any]]) -> dict[str, Section]:
        by_key = {c["key"]: c for c in companies}
        sections: dict[str, Section] = {}
        for i, entry in enumerate(self.field(raw, "sections", list, "sections")):
            with self.each_item():  # checking mode: record and go on to the next entry
                sid = self.field(entry, "id", str, f"sections[{i}]")
                item = Message(N_("section {id}"), {"id": repr(sid)})
                self.no_extra(entry, {"id", "a", "b", "track_type", "spaces", "starting"}, item)
                a = self.field(entry, "a", str, item)
                b = self.field(entry, "b", str, item)
                track = self.field(entry, "track_type", str, item)
                spaces = self.field(entry, "spaces", int, item)
                starting = tuple(self.field(entry, "starting", list, item))
                if sid in sections:
                    raise self.fail(item, Message(N_("duplicate section id")))
                for city in (a, b):
                    if city not in cities:
                        raise self.fail(item, Message(N_("unknown city {found}"), {"found": repr(city)}))
                if a == b:
                    raise self.fail(item, Message(N_("joins a city to itself")))
                if track not in TRACK_TYPES:
                    raise self.fail(item, Message(N_("unknown track type {found}; use one of {wanted}"),
                                                  {"found": repr(track), "wanted": str(list(TRACK_TYPES))}))
                if not 1 <= spaces <= 4:
                    raise self.fail(item, nmessage("has {n} train space; UP-C3 allows 1 to 4",
                                                   "has {n} train spaces; UP-C3 allows 1 to 4", spaces))
                if not all(isinstance(key, str) for key in starting):
                    raise self.fail(item, Message(N_("field 'starting' must list company keys (text)")))
                for key in starting:
                    problem = name_problem("'starting'", key)
                    if problem is not None:
                        raise self.fail(item, problem)
                if len(set(starting)) != len(starting):
                    raise self.fail(item, Message(N_("lists a starting space twice (one train per company per "
                                                     "connection, UP-B2d)")))
                if len(starting) > spaces:
                    raise self.fail(item, nmessage("has {n} starting space but only {spaces}",
                                                   "has {n} starting spaces but only {spaces}", len(starting),
                                                   {"spaces": nmessage("{n} space", "{n} spaces", spaces)}))
                for key in starting:
                    company = by_key.get(key)
                    if company is None:
                        raise self.fail(item, Message(N_("starting space of unknown company {key}"), {"key": repr(key)}))
                    if company["headquarters"] not in (a, b):
                        raise self.fail(item, Message(N_("holds the {key} starting space but does not touch its "
                                                         "headquarters {city} (UP-C3)"),
                                                      {"key": key, "city": company["headquarters"]}))
                    if track not in company["track_types"]:
                        raise self.fail(item, Message(N_("is {track} track, which {key} may not use, yet holds its "
                                                         "starting space (UP-C3)"),
                                                      {"track": track_type(track), "key": key}))
                sections[sid] = Section(sid, a, b, track, spaces, starting)
        return sections

    def finish_companies(self, companies: list[dict[str, Any]],
                         sections: dict[str, Section]) -> tuple[Company, ...]:
        result = []
        for c in companies:
            with self.each_item():  # checking mode: record and go on to the next entry
                starts = tuple(s.id for s in sections.values() if c["key"] in s.starting)
                wanted = 2 if c["colour"] == ALL_TYPES_COLOUR else 1
                item = Message(N_("company {key}"), {"key": repr(c["key"])})
                if len(starts) != wanted:
                    raise self.fail(item, nmessage("has {n} starting space; UP-C3 gives it {wanted} (EP&RG two on two "
                                                   "sections, every other company one)",
                                                   "has {n} starting spaces; UP-C3 gives it {wanted} (EP&RG two on two "
                                                   "sections, every other company one)", len(starts), {"wanted": wanted}))
                pairs = {frozenset((sections[sid].a, sections[sid].b)) for sid in starts}
                if len(pairs) != len(starts):
                    raise self.fail(item, Message(N_("has two starting spaces between the same two cities; a company "
                                                     "runs one train per connection (UP-B2d)")))
                result.append(Company(
                    key=c["key"], name=c["name"], colour=c["colour"], hex=c["hex"],
                    trains=c["trains"], shares=c["shares"], headquarters=c["headquarters"],
                    track_types=frozenset(c["track_types"]), starting_sections=starts,
                    order=c["order"], invented=c["invented"],
                ))
        return tuple(result)


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)
