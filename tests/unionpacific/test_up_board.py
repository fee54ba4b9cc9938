"""The Union Pacific board data and its loader (UP-C1, UP-C2, UP-C3, UP-C4)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from railkit.errors import DataError
from railkit.paths import data_dir
from railkit.unionpacific.board import (
    GENERAL,
    TRACK_TYPES,
    UP_C1,
    Board,
    Section,
    load_board,
)
from railkit.unionpacific.board_check import grow

BOARD_FILE = data_dir() / "union_pacific" / "board.json"


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


# -- the shipped data ------------------------------------------------------------------
def test_default_board_is_cached_and_immutable(board: Board) -> None:
    assert load_board() is board
    assert Path(board.source) == BOARD_FILE
    with pytest.raises(TypeError):
        board.sections["x"] = board.sections["denver--el-paso"]  # type: ignore[index]
    with pytest.raises(nx.NetworkXError):
        board.graph.add_edge("Denver", "Boston")
    with pytest.raises(AttributeError):
        board.source = "elsewhere"  # type: ignore[misc]
    assert {board: 1}[board] == 1  # hashable, so the engine may key caches on it


def test_map_size_and_coordinates(board: Board) -> None:
    assert 35 <= len(board.cities) <= 50
    assert 80 <= len(board.sections) <= 110
    assert board.cities["Denver"].lon == pytest.approx(-104.99, abs=0.1)
    assert board.cities["Denver"].lat == pytest.approx(39.74, abs=0.1)
    assert board.cities["Billings"].lat == pytest.approx(45.78, abs=0.1)
    assert board.cities["El Paso"].lon == pytest.approx(-106.49, abs=0.1)
    for city in board.cities.values():  # lower 48 only
        assert -125 < city.lon < -66 and 24 < city.lat < 50, city
    assert nx.is_connected(board.graph)


def test_UP_C1_ten_companies_with_trains_and_shares(board: Board) -> None:
    table = [(c.colour, c.trains, c.shares) for c in board.companies]
    assert table == list(UP_C1)
    assert sum(c.trains for c in board.companies) == 131
    assert sum(c.shares for c in board.companies) == 98
    assert [c.order for c in board.companies] == list(range(1, 11))  # UP-D8: table order
    assert len({c.key for c in board.companies}) == 10
    assert len({c.hex.lower() for c in board.companies}) == 10


def test_UP_C2_the_four_known_companies(board: Board) -> None:
    known = {c.colour: c for c in board.companies if not c.invented}
    assert set(known) == {"green", "red", "black", "dark blue"}
    assert known["green"].name == "El Paso & Rio Grande" and known["green"].headquarters == "El Paso"
    assert known["red"].name == "Billings Northern Lights" and known["red"].headquarters == "Billings"
    assert known["black"].name == "Denver Midland" and known["black"].headquarters == "Denver"
    assert known["dark blue"].name == "Sioux Falls Royal Blue"
    assert known["dark blue"].headquarters == "Sioux Falls"
    assert sum(c.invented for c in board.companies) == 6
    assert len({c.headquarters for c in board.companies}) == 10


def test_UP_C3_eleven_starting_spaces_on_sections_at_the_headquarters(board: Board) -> None:
    starts = [(key, s) for s in board.sections.values() for key in s.starting]
    assert len(starts) == 11
    counts = Counter(key for key, _ in starts)
    assert counts["EPRG"] == 2 and all(n == 1 for k, n in counts.items() if k != "EPRG")
    for key, section in starts:
        company = board.company(key)
        assert section.touches(company.headquarters)
        assert section.track_type in company.track_types
        assert section.id in company.starting_sections
    assert len(set(board.company("EPRG").starting_sections)) == 2


def test_UP_C3_track_types_per_company_and_section(board: Board) -> None:
    assert len(TRACK_TYPES) == 4 and tuple(board.track_labels) == TRACK_TYPES
    for company in board.companies:
        assert company.track_types <= set(TRACK_TYPES)
        if company.key == "EPRG":
            assert company.track_types == set(TRACK_TYPES)
        else:
            assert 1 <= len(company.track_types) <= 3
    for section in board.sections.values():
        assert section.track_type in TRACK_TYPES
        assert 1 <= section.spaces <= 4
        assert section.neutral_spaces == section.spaces - len(section.starting) >= 0
    assert set(Counter(s.track_type for s in board.sections.values())) == set(TRACK_TYPES)
    neutral = sum(s.neutral_spaces for s in board.sections.values())
    assert neutral >= 1.5 * (131 - 11)  # comfortably more room than trains to place


def test_UP_C3_sections_of_one_to_four_spaces_all_occur(board: Board) -> None:
    """All three rulebooks give sections of one to four spaces; the map has each size."""
    sizes = Counter(s.spaces for s in board.sections.values())
    assert set(sizes) == {1, 2, 3, 4}
    four = {s.name for s in board.sections.values() if s.spaces == 4}
    assert {"Washington–New York", "Omaha–Chicago"} <= four  # busy eastern and central corridors


def test_UP_C4_forty_track_cards_with_general_cards(board: Board) -> None:
    assert set(board.track_deck) == {*TRACK_TYPES, GENERAL}
    assert sum(board.track_deck.values()) == 40
    assert board.track_deck[GENERAL] > 0
    assert all(board.track_deck[t] > 0 for t in TRACK_TYPES)


def test_UP_C4_track_deck_is_the_hungarian_split_ordered_by_spaces(board: Board) -> None:
    """Hungarian parts list: 4, 6, 9, 7 and 14 track cards. The 4 are the general cards; 14, 9, 7
    and 6 go to the track types by how many neutral spaces each has (DECISION, docs/rulings.md)."""
    assert sorted(board.track_deck.values()) == sorted([4, 6, 9, 7, 14]) and board.track_deck[GENERAL] == 4
    neutral = Counter()
    for s in board.sections.values():
        neutral[s.track_type] += s.neutral_spaces
    by_spaces = sorted(TRACK_TYPES, key=lambda t: -neutral[t])
    assert [board.track_deck[t] for t in by_spaces] == [14, 9, 7, 6]


def test_UP_B2e_rulebook_example_is_on_the_map(board: Board) -> None:
    bnl, dm = board.company("BNL"), board.company("DM")
    example = [("Billings", "Casper"), ("Casper", "Salt Lake City"), ("Denver", "Casper"),
               ("Denver", "Salt Lake City"), ("Denver", "El Paso")]
    for a, b in example:
        sections = board.sections_between(a, b)
        assert sections, f"{a}–{b} missing"
        assert all(s.track_type in bnl.track_types for s in sections)
    assert all(s.track_type not in dm.track_types for s in board.sections_between("El Paso", "Denver"))


def test_graph_mirrors_sections(board: Board) -> None:
    g = board.graph
    assert isinstance(g, nx.MultiGraph) and g.number_of_edges() == len(board.sections)
    assert g.nodes["Denver"] == {"lon": board.cities["Denver"].lon, "lat": board.cities["Denver"].lat}
    for sid, s in board.sections.items():
        data = g.edges[s.a, s.b, sid]
        assert (data["track_type"], data["spaces"], data["starting"]) == (s.track_type, s.spaces, s.starting)


def test_sections_between_lists_parallel_sections_and_other(board: Board) -> None:
    parallel = board.sections_between("Pueblo", "Denver")
    assert len(parallel) == 2 and len({s.track_type for s in parallel}) == 2
    assert board.sections_between("Denver", "Boise") == []
    s = board.sections["denver--el-paso"]
    assert s.other("Denver") == "El Paso" and s.other("El Paso") == "Denver"
    assert s.name == "Denver–El Paso"
    with pytest.raises(ValueError):
        s.other("Casper")
    with pytest.raises(KeyError):
        board.company("UP")


# -- playability -----------------------------------------------------------------------
def test_playability_floor_every_company_can_place_its_trains(board: Board) -> None:
    """Floor: built alone, every company places ALL its trains; built by everyone at once
    in random order, every company still places at least 80 % of them.

    Why these numbers: a company's dividend value is trains on the board + 1 (UP-D2), and
    the rulebooks only stop a company when its supply is empty (UP-B2f). So the map itself
    must never cap a company: alone it reaches 100 %. Blocking by rivals is part of the
    game, but a map where random rival play strands a company below 80 % would make its
    shares a trap the printed game does not set.
    """
    for company in board.companies:
        placed = grow(board, [company.key], None)[company.key]
        assert placed == company.trains, f"{company.key} places only {placed} of {company.trains}"
    keys = [c.key for c in board.companies]
    for seed in range(12):
        placed = grow(board, keys, random.Random(seed))
        for company in board.companies:
            assert placed[company.key] >= 0.8 * company.trains, (seed, company.key, placed)


# -- loader errors: each names the file, the item and the problem -------------------------
def _raw() -> dict[str, Any]:
    return json.loads(BOARD_FILE.read_text(encoding="utf-8"))


def _section(raw: dict[str, Any], sid: str) -> dict[str, Any]:
    return next(s for s in raw["sections"] if s["id"] == sid)


def _company(raw: dict[str, Any], key: str) -> dict[str, Any]:
    return next(c for c in raw["companies"] if c["key"] == key)


def _set(sid: str, **fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda raw: _section(raw, sid).update(fields)


def _co(company: str, **fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda raw: _company(raw, company).update(fields)


def _dup_section(raw: dict[str, Any]) -> None:
    raw["sections"].append(dict(_section(raw, "denver--el-paso")))


def _dup_city(raw: dict[str, Any]) -> None:
    raw["cities"].append({"name": "Denver", "lon": -105.0, "lat": 39.7})


def _swap_companies(raw: dict[str, Any]) -> None:
    raw["companies"][1], raw["companies"][2] = raw["companies"][2], raw["companies"][1]


def _move_bnl_start(raw: dict[str, Any]) -> None:
    _section(raw, "helena--billings")["starting"] = []
    _section(raw, "casper--salt-lake-city")["starting"] = ["BNL"]


def _second_dm_start(raw: dict[str, Any]) -> None:
    _section(raw, "denver--kansas-city")["starting"] = ["DM"]


BROKEN = [
    # (test id, mutation, item named, words in the problem)
    ("unknown-city", _set("denver--el-paso", b="Atlantis"), "section 'denver--el-paso'", "unknown city 'Atlantis'"),
    ("UP-C1-trains", _co("BNL", trains=20), "company 'BNL'", "UP-C1 gives red 19 trains"),
    ("UP-C1-shares", _co("EPRG", shares=17), "company 'EPRG'", "18 shares"),
    ("start-away-from-HQ", _move_bnl_start, "section 'casper--salt-lake-city'", "does not touch its headquarters Billings"),
    ("spaces-0", _set("denver--el-paso", spaces=0), "section 'denver--el-paso'", "1 to 4"),
    ("spaces-5", _set("denver--el-paso", spaces=5), "section 'denver--el-paso'", "1 to 4"),
    ("spaces-bool", _set("denver--el-paso", spaces=True), "section 'denver--el-paso'", "wrong type"),
    ("section-track-type", _set("denver--el-paso", track_type="swamp"), "section 'denver--el-paso'",
     "unknown track type 'swamp'"),
    ("company-track-type", _co("DM", track_types=["plains", "swamp"]), "company 'DM'", "unknown track type 'swamp'"),
    ("deck-track-type", lambda r: r["track_deck"].update(swamp=0), "track_deck", "unknown track type 'swamp'"),
    ("duplicate-section", _dup_section, "section 'denver--el-paso'", "duplicate section id"),
    ("duplicate-city", _dup_city, "city 'Denver'", "duplicate city name"),
    ("duplicate-company", _co("CLS", key="DM"), "company 'DM'", "duplicate company key"),
    ("deck-41", lambda r: r["track_deck"].update(plains=15), "track_deck", "holds 41 cards; UP-C4 says 40"),
    ("deck-missing-general", lambda r: r["track_deck"].pop("general"), "track_deck", "no count for ['general']"),
    ("EPRG-one-start", _set("tucson--el-paso", starting=[]), "company 'EPRG'", "has 1 starting space;"),
    ("DM-two-starts", _second_dm_start, "company 'DM'", "has 2 starting spaces;"),
    ("start-type-not-allowed", _set("helena--billings", track_type="river"), "section 'helena--billings'", "BNL may not use"),
    ("start-unknown-company", _set("denver--el-paso", starting=["UP"]), "section 'denver--el-paso'", "unknown company 'UP'"),
    ("companies-out-of-order", _swap_companies, "company 'SGR'", "UP-C1 puts red 2nd"),
    ("EPRG-three-types", _co("EPRG", track_types=["plains", "hills", "river"]), "company 'EPRG'", "all four track types"),
    ("four-types", _co("DM", track_types=list(TRACK_TYPES)), "company 'DM'", "one to three"),
    ("unknown-hq", _co("DM", headquarters="Aspen"), "company 'DM'", "headquarters 'Aspen'"),
    ("outside-lower-48", lambda r: r["cities"].append({"name": "Honolulu", "lon": -157.86, "lat": 21.31}),
     "city 'Honolulu'", "outside the contiguous United States"),
    ("missing-field", lambda r: _section(r, "denver--el-paso").pop("spaces"), "section 'denver--el-paso'",
     "missing field 'spaces'"),
    ("typo-field", lambda r: _section(r, "denver--el-paso").update(space=2), "section 'denver--el-paso'",
     "unknown field ['space']"),
    ("track-types-list", lambda r: r["track_types"].pop(), "track_types", "must be exactly"),
]


@pytest.mark.parametrize("mutate, item, problem", [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_loader_rejects_broken_board(tmp_path: Path, mutate: Callable[[dict[str, Any]], None],
                                     item: str, problem: str) -> None:
    raw = _raw()
    mutate(raw)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(raw, indent=1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_board(path)
    err = info.value
    assert err.path == str(path)
    assert err.item == item
    assert problem in err.problem
    assert str(path) in str(err) and item in str(err)


def test_loader_reports_bad_json_with_line_and_column(tmp_path: Path) -> None:
    text = BOARD_FILE.read_text(encoding="utf-8").replace('"version": 1,', '"version": 1,,', 1)
    path = tmp_path / "board.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_board(path)
    assert info.value.path == str(path)
    assert info.value.item.startswith("line 3, column ")
    assert "not valid JSON" in info.value.problem


def test_loader_reports_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataError) as info:
        load_board(tmp_path / "nope.json")
    assert info.value.item == "file" and "cannot be read" in info.value.problem


def test_loader_bounds_what_it_reads(tmp_path: Path) -> None:
    """A board option is a file path from outside: size, kind of file and nesting are bounded."""
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 1_000_001)
    with pytest.raises(DataError, match="larger than 1,000,000 bytes"):
        load_board(big)
    with pytest.raises(DataError, match="not a regular file"):
        load_board(tmp_path)  # a folder
    if Path("/dev/zero").exists():
        with pytest.raises(DataError, match="not a regular file"):
            load_board("/dev/zero")  # endless: never read
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(DataError, match="too deeply nested|not valid JSON|must hold one JSON object"):
        load_board(deep)
    huge = tmp_path / "huge.json"
    huge.write_text('{"format": ' + "9" * 5000 + "}")
    with pytest.raises(DataError, match="too large"):
        load_board(huge)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{}")
    with pytest.raises(DataError, match="not UTF-8"):
        load_board(binary)


def test_loader_reads_an_explicit_copy(tmp_path: Path) -> None:
    path = tmp_path / "copy.json"
    path.write_text(BOARD_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    copy = load_board(str(path))
    assert copy is not load_board() and copy.source == str(path)
    assert list(copy.sections) == list(load_board().sections)
    assert isinstance(copy.sections["denver--el-paso"], Section)
