"""``python -m railkit.unionpacific check-board FILE``: every problem of a board file, then
playability warnings (UP-C1..C4 validity; UP-B2, UP-D2 playability)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from railkit.errors import DataError
from railkit.paths import data_dir
from railkit.unionpacific.__main__ import main as package_main
from railkit.unionpacific.board import check_board_file, load_board
from railkit.unionpacific.board_check import check, main

BOARD_FILE = data_dir() / "union_pacific" / "board.json"
EXAMPLE_FILE = data_dir() / "union_pacific" / "example_board.json"
Raw = dict[str, Any]


def _raw(path: Path = BOARD_FILE) -> Raw:
    return json.loads(path.read_text(encoding="utf-8"))


def _write(tmp_path: Path, raw: Raw | str | bytes, name: str = "board.json") -> Path:
    path = tmp_path / name
    if isinstance(raw, bytes):
        path.write_bytes(raw)
    else:
        path.write_text(raw if isinstance(raw, str) else json.dumps(raw, indent=1), encoding="utf-8")
    return path


def _section(raw: Raw, sid: str) -> Raw:
    return next(s for s in raw["sections"] if s["id"] == sid)


def _company(raw: Raw, key: str) -> Raw:
    return next(c for c in raw["companies"] if c["key"] == key)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -- good files ------------------------------------------------------------------------------
def test_shipped_board_is_ok_without_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, str(BOARD_FILE))
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "OK: 47 cities, 102 connections (107 sections), 227 train spaces (216 neutral, 11 starting), "
        "10 companies (131 trains), 40 track cards (4 general)"]


def test_example_board_is_valid_but_warned_too_small(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's worked example loads (UP-C1..C4) but cannot hold 120 trains (UP-B2, UP-D2)."""
    board = load_board(EXAMPLE_FILE)
    assert len(board.cities) == 10 and {s.spaces for s in board.sections.values()} == {1, 2, 3, 4}
    code, out, _ = _run(capsys, str(EXAMPLE_FILE))
    assert code == 0
    assert out.startswith("OK: 10 cities, 14 connections (15 sections), 32 train spaces")
    assert "warning: company 'PAS' (Pittsburgh Allegheny Steel) can place only 2 of its 7 trains" in out
    assert "warning: the map has 21 neutral spaces for the 120 trains" in out
    assert out.rstrip().endswith("may not play well.")
    code, _, _ = _run(capsys, "--strict", str(EXAMPLE_FILE))
    assert code == 1


def test_command_runs_as_a_module(tmp_path: Path) -> None:
    """The documented entry point, in a fresh interpreter: exit codes 0, 1 and 2 (usage)."""
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "railkit.unionpacific", *args],
                              capture_output=True, text=True, timeout=120, check=False)
    good = run("check-board", "--quick", str(BOARD_FILE))
    assert good.returncode == 0 and good.stdout.startswith("OK: 47 cities"), good.stderr
    bad = run("check-board", str(_write(tmp_path, "{not json")))
    assert bad.returncode == 1 and "not valid JSON" in bad.stderr and bad.stdout == ""
    usage = run()
    assert usage.returncode == 2 and "check-board" in usage.stderr


def test_package_main_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert package_main(["--help"]) == 0 and "check-board" in capsys.readouterr().out
    assert package_main(["frobnicate"]) == 2
    assert package_main(["check-board", str(BOARD_FILE), "--quick"]) == 0


# -- broken files: every problem, each naming its item ---------------------------------------
def _many_independent(raw: Raw) -> None:
    raw["track_deck"]["plains"] = 15
    raw["cities"][0]["lat"] = "north"
    raw["cities"].append({"name": "Honolulu", "lon": -157.86, "lat": 21.31})
    raw["surprise"] = 1


def _many_companies(raw: Raw) -> None:
    _company(raw, "BNL")["trains"] = 20
    _company(raw, "DM")["hex"] = "black"
    _company(raw, "SGR")["headquarters"] = "Atlantis"


def _many_sections(raw: Raw) -> None:
    _section(raw, "denver--el-paso")["spaces"] = 7
    _section(raw, "tucson--el-paso")["b"] = "Atlantis"
    _section(raw, "phoenix--tucson")["starting"] = [["PSL"]]  # not text: a DataError, never a TypeError


def _starts_and_lone_city(raw: Raw) -> None:
    _section(raw, "tucson--el-paso")["starting"] = []
    _section(raw, "denver--kansas-city")["starting"] = ["DM"]
    raw["cities"].append({"name": "Aspen", "lon": -106.82, "lat": 39.19})


BROKEN: list[tuple[str, Callable[[Raw], None], list[tuple[str, str]]]] = [
    ("deck-and-cities", _many_independent, [
        ("file", "unknown field ['surprise']"),
        ("track_deck", "holds 41 cards; UP-C4 says 40"),
        ("city 'Seattle'", "field 'lat' has the wrong type (str)"),
        ("city 'Honolulu'", "outside the contiguous United States")]),
    ("companies", _many_companies, [
        ("company 'BNL'", "UP-C1 gives red 19 trains"),
        ("company 'SGR'", "headquarters 'Atlantis' is not a city"),
        ("company 'DM'", "hex colour 'black'")]),
    ("sections", _many_sections, [
        ("section 'tucson--el-paso'", "unknown city 'Atlantis'"),
        ("section 'phoenix--tucson'", "must list company keys"),
        ("section 'denver--el-paso'", "UP-C3 allows 1 to 4")]),
    ("starting-spaces-and-lone-city", _starts_and_lone_city, [
        ("company 'EPRG'", "has 1 starting space;"),
        ("company 'DM'", "has 2 starting spaces;"),
        ("city 'Aspen'", "lies on no section")]),
]


@pytest.mark.parametrize("mutate, expected", [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_every_problem_is_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 mutate: Callable[[Raw], None], expected: list[tuple[str, str]]) -> None:
    raw = _raw()
    mutate(raw)
    path = _write(tmp_path, raw)
    board, problems = check_board_file(path)
    assert board is None
    found = [(p.item, p.problem) for p in problems]
    assert len(found) == len(expected), found
    for item, words in expected:
        assert any(i == item and words in p for i, p in found), (item, words, found)
    with pytest.raises(DataError) as first:  # load_board stops at the first of them
        load_board(path)
    assert (first.value.item, first.value.problem) == found[0]

    code, out, err = _run(capsys, str(path))
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[0] == f"{path}: {len(expected)} problems found; the board cannot be used:"
    for problem in problems:
        assert f"  - {problem.item}: {problem.problem}" in lines


def test_a_broken_city_stops_the_checks_that_need_it(tmp_path: Path) -> None:
    """Stages: a city typo is reported once, not again by every company and section using it."""
    raw = _raw()
    next(c for c in raw["cities"] if c["name"] == "Denver")["lon"] = "west"
    _company(raw, "BNL")["trains"] = 20  # in a later stage: not reached yet
    _, problems = check_board_file(_write(tmp_path, raw))
    assert [(p.item, p.problem) for p in problems] == [("city 'Denver'", "field 'lon' has the wrong type (str)")]


@pytest.mark.parametrize("content, item, words", [
    ("{\n \"format\": \"railkit-union-pacific-board\",,\n}", "line 2, column 42", "not valid JSON"),
    ("", "line 1, column 1", "not valid JSON"),
    ("Seattle,Portland\n", "line 1, column 1", "not valid JSON"),
    (b"\xff\xfe{\x00}", "file", "not UTF-8"),
    ("[1, 2]", "file", "must hold one JSON object"),
    ('{"format": "railkit-cape-to-cairo-deck", "version": 1}', "format", "railkit-union-pacific-board"),
    ('{"format": ' + "9" * 5000 + "}", "file", "too large or too deeply nested"),
], ids=["bad-json", "empty", "csv", "binary", "list", "other-format", "huge-number"])
def test_not_a_board_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                          content: str | bytes, item: str, words: str) -> None:
    path = _write(tmp_path, content)
    code, _, err = _run(capsys, str(path))
    assert code == 1
    assert f"  - {item}: " in err and words in err, err


def test_huge_missing_and_odd_files_are_refused_unread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    huge = _write(tmp_path, b" " * 1_000_001)
    code, _, err = _run(capsys, str(huge))
    assert code == 1 and "larger than 1,000,000 bytes" in err
    for odd in (tmp_path / "missing.json", tmp_path):
        code, _, err = _run(capsys, str(odd))
        assert code == 1 and "does not exist or is not a regular file" in err
    if Path("/dev/zero").exists():  # endless: must never be read
        code, _, err = _run(capsys, "/dev/zero")
        assert code == 1 and "not a regular file" in err


# -- playability warnings (valid boards) -----------------------------------------------------
def _island(raw: Raw) -> None:
    raw["cities"] += [{"name": "Key West", "lon": -81.78, "lat": 24.56}, {"name": "Miami", "lon": -80.19, "lat": 25.76}]
    raw["sections"].append({"id": "key-west--miami", "a": "Key West", "b": "Miami", "track_type": "river",
                            "spaces": 2, "starting": []})


def _lopsided_deck(raw: Raw) -> None:
    raw["track_deck"].update(plains=6, mountain=14)


def _narrow_kccl(raw: Raw) -> None:
    _company(raw, "KCCL")["track_types"] = ["plains"]
    for s in raw["sections"]:  # keep its starting section, turn every other plains section to hills
        if s["track_type"] == "plains" and "KCCL" not in s["starting"] and not s["starting"]:
            s["track_type"] = "hills"


@pytest.mark.parametrize("mutate, words", [
    (_island, "the map falls apart into 2 pieces; Key West and Miami cannot be reached"),
    (_lopsided_deck, "track cards are out of proportion to spaces (UP-C4): mountain has one card per"),
    (_narrow_kccl, "company 'KCCL' (Kansas City Cattle Line) can place only"),
], ids=["two-pieces", "deck-out-of-proportion", "company-short-of-room"])
def test_playability_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              mutate: Callable[[Raw], None], words: str) -> None:
    raw = _raw()
    mutate(raw)
    path = _write(tmp_path, raw)
    report = check(path, trial_games=2)
    assert report.valid and not report.problems
    assert any(words in w for w in report.warnings), report.warnings
    code, out, _ = _run(capsys, "--quick", str(path))
    assert code == 0 and out.startswith("OK: ") and f"warning: {words}" in out
    assert _run(capsys, "--quick", "--strict", str(path))[0] == 1


# -- names are bounded; a key is given once (a club's file is untrusted) -------------------------------
@pytest.mark.parametrize("where, change, item, words", [
    ("company", lambda raw: raw["companies"].__getitem__(1).__setitem__("name", "B" * 500_000), "company 'BNL'",
     "field 'name' is 500,000 characters long; a name is at most 40"),
    ("city", lambda raw: raw["cities"].__getitem__(2).__setitem__("name", "C" * 41), "cities[2]",
     "field 'name' is 41 characters long; a name is at most 40"),
    ("section", lambda raw: raw["sections"].__getitem__(0).__setitem__("id", "\x00" * 1000), "sections[0]",
     "field 'id' is 1,000 characters long"),
    ("section", lambda raw: raw["sections"].__getitem__(0).__setitem__("id", "a\x00b"), "sections[0]",
     "field 'id' holds the control or invisible character U+0000 at position 2"),
    ("company", lambda raw: raw["companies"].__getitem__(0).__setitem__("key", "EP\nRG"), "companies[0]",
     "field 'key' holds the control or invisible character U+000A at position 3"),
    ("track label", lambda raw: raw["track_types"].__getitem__(0).__setitem__("label", "x" * 100), "track_types[0]",
     "field 'label' is 100 characters long"),
])
def test_every_name_of_a_board_is_short_and_printable(tmp_path, where, change, item, words):
    raw = _raw()
    change(raw)
    board, problems = check_board_file(_write(tmp_path, raw))
    assert board is None, where
    found = [(str(p.item), str(p.problem)) for p in problems]
    assert any(i == item and words in p for i, p in found), found
    assert all(len(i) + len(p) < 400 for i, p in found)  # a huge name is never echoed back
    with pytest.raises(DataError):
        load_board(_write(tmp_path, raw, "again.json"))


def test_a_starting_space_key_is_bounded_too(tmp_path):
    raw = _raw()
    start = next(s for s in raw["sections"] if s["starting"])
    start["starting"] = ["K" * 10_000]
    board, problems = check_board_file(_write(tmp_path, raw))
    assert board is None
    assert any("field 'starting' is 10,000 characters long" in str(p.problem) for p in problems)
    assert all(len(str(p.problem)) < 400 for p in problems)


@pytest.mark.parametrize("text, key", [
    ('{"format": "junk", "format": "railkit-union-pacific-board", "version": 1}', "'format'"),
    (None, "'trains'"),
])
def test_a_key_given_twice_is_refused_naming_the_key(tmp_path, text, key):
    if text is None:  # deep inside: a company with "trains" twice
        body = json.dumps(_raw(), indent=1)
        text = body.replace('"trains": 23,', '"trains": 1, "trains": 23,', 1)
        assert text != body
    board, problems = check_board_file(_write(tmp_path, text))
    assert board is None
    assert [(str(p.item), str(p.problem)) for p in problems] == [
        ("file", f"the key {key} appears twice in one object; write each key once")]
    with pytest.raises(DataError, match="appears twice"):
        load_board(_write(tmp_path, text, "again.json"))
