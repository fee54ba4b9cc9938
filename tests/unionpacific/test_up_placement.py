"""Train placement (UP-B2a–f) on the shipped board."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from railkit.errors import RuleError
from railkit.unionpacific.board import GENERAL, TRACK_TYPES, Board, load_board
from railkit.unionpacific.placement import (
    RULES,
    explain_placement,
    legal_sections,
    placement_error,
    reachable_cities,
)

State = tuple[dict[str, list[str]], dict[str, int]]


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def setup_state(board: Board) -> State:
    """UP-S1: starting trains on their coloured spaces, the rest in the supply."""
    trains_on = {s.id: list(s.starting) for s in board.sections.values() if s.starting}
    supply = {c.key: c.trains - len(c.starting_sections) for c in board.companies}
    return trains_on, supply


def place(state: State, key: str, sid: str) -> None:
    trains_on, supply = state
    trains_on.setdefault(sid, []).append(key)
    supply[key] -= 1


def failed_rules(board: Board, state: State, key: str, sid: str, card: str) -> list[str]:
    return [c.rule for c in explain_placement(board, *state, key, sid, card).failed]


# -- one test per condition --------------------------------------------------------------
def test_UP_B2a_card_must_match_track_type(board: Board) -> None:
    state = setup_state(board)
    sid = "cheyenne--north-platte"  # plains, touches Cheyenne on the DM starting section
    assert failed_rules(board, state, "DM", sid, "plains") == []
    assert failed_rules(board, state, "DM", sid, "hills") == ["UP-B2a"]
    err = placement_error(board, *state, "DM", sid, "hills")
    assert err is not None and err.rule == "UP-B2a"
    assert "plains section" in err.message and "general card" in err.message


def test_UP_B2a_general_card_matches_any_type(board: Board) -> None:
    state = setup_state(board)
    for sid in ("tucson--el-paso", "albuquerque--el-paso", "denver--el-paso", "el-paso--amarillo"):
        assert "UP-B2a" not in failed_rules(board, state, "EPRG", sid, GENERAL)
    assert failed_rules(board, state, "EPRG", "denver--el-paso", GENERAL) == []
    wild = legal_sections(board, *state, "EPRG", GENERAL)
    by_type = {sid for t in TRACK_TYPES for sid in legal_sections(board, *state, "EPRG", t)}
    assert set(wild) == by_type and len({board.sections[s].track_type for s in wild}) >= 3


def test_UP_B2b_company_may_only_use_its_track_types(board: Board) -> None:
    state = setup_state(board)
    assert failed_rules(board, state, "DM", "denver--casper", "hills") == []
    assert failed_rules(board, state, "DM", "denver--salt-lake-city", "mountain") == ["UP-B2b"]


def test_UP_B2b_denver_midland_cannot_use_denver_el_paso(board: Board) -> None:
    state = setup_state(board)
    section = board.sections["denver--el-paso"]
    assert section.track_type not in board.company("DM").track_types
    for card in (section.track_type, GENERAL):
        assert failed_rules(board, state, "DM", section.id, card) == ["UP-B2b"]
    explanation = explain_placement(board, *state, "DM", section.id, "mountain")
    assert explanation.failed[0].sentence == (
        "Denver–El Paso is a mountain section and the Denver Midland may only build on plains and hills (UP-B2b).")
    err = placement_error(board, *state, "DM", section.id, GENERAL)
    assert isinstance(err, RuleError) and err.rule == "UP-B2b"
    assert "pick a plains or hills section" in err.message
    assert "denver--el-paso" not in legal_sections(board, *state, "DM", GENERAL)


def test_UP_B2c_space_must_be_empty_and_neutral(board: Board) -> None:
    state = setup_state(board)
    sid = "denver--kansas-city"  # plains, 4 neutral spaces, touches Denver
    state[0][sid] = ["EPRG", "BNL", "KCCL"]
    assert failed_rules(board, state, "DM", sid, "plains") == []
    state[0][sid].append("SFRB")
    assert failed_rules(board, state, "DM", sid, "plains") == ["UP-B2c"]
    # a coloured starting space is not neutral: cheyenne--denver has 3 spaces, one is DM's
    start = "cheyenne--denver"
    state[0][start] += ["EPRG", "BNL"]
    assert board.sections[start].spaces == len(state[0][start])
    assert "UP-B2c" in failed_rules(board, state, "SFRB", start, "plains")
    state[0][start].remove("BNL")
    assert "UP-B2c" not in failed_rules(board, state, "SFRB", start, "plains")
    err = placement_error(board, *state, "DM", sid, "plains")
    assert err is not None and err.rule == "UP-B2c" and "pick another section" in err.message


def test_UP_B2c_a_lone_starting_space_takes_no_train(tmp_path: Path) -> None:
    """A one-space section whose space is coloured has no neutral space at all."""
    raw = json.loads(Path(load_board().source).read_text(encoding="utf-8"))
    next(s for s in raw["sections"] if s["id"] == "cheyenne--denver")["spaces"] = 1
    path = tmp_path / "board.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    small = load_board(path)
    state = setup_state(small)
    assert small.sections["cheyenne--denver"].neutral_spaces == 0
    assert failed_rules(small, state, "EPRG", "cheyenne--denver", "plains") == ["UP-B2c", "UP-B2e"]
    err = placement_error(small, *state, "EPRG", "cheyenne--denver", "plains")
    assert err is not None and err.rule == "UP-B2c" and "starting space" in err.message


def test_UP_B2d_one_train_per_company_per_section(board: Board) -> None:
    state = setup_state(board)
    # DM's own starting section still has two empty neutral spaces
    assert failed_rules(board, state, "DM", "cheyenne--denver", "plains") == ["UP-B2d"]
    place(state, "DM", "denver--casper")
    assert failed_rules(board, state, "DM", "denver--casper", "hills") == ["UP-B2d"]
    assert failed_rules(board, state, "BNL", "denver--casper", "hills") == ["UP-B2e"]  # other companies may


def test_UP_B2d_parallel_sections_are_one_connection(board: Board) -> None:
    """Two sections between Denver and Pueblo are one connection: a company builds on one of them."""
    state = setup_state(board)
    plains, hills = "denver--pueblo--plains", "denver--pueblo--hills"
    first = explain_placement(board, *state, "DM", plains, "plains")
    assert first.legal and "has no train between Denver and Pueblo yet (UP-B2d)" in first.checks[3].sentence
    place(state, "DM", plains)
    assert failed_rules(board, state, "DM", hills, "hills") == ["UP-B2d"]
    again = explain_placement(board, *state, "DM", hills, "hills")
    assert "already has a train between Denver and Pueblo, on the plains section" in again.checks[3].sentence
    assert "has no train" not in str(again)
    err = placement_error(board, *state, "DM", hills, "hills")
    assert err is not None and err.rule == "UP-B2d" and "one train per connection" in err.message
    assert hills not in legal_sections(board, *state, "DM", "hills")
    assert hills not in legal_sections(board, *state, "DM", GENERAL)
    assert failed_rules(board, state, "EPRG", hills, "hills") == ["UP-B2e"]  # another company may


def test_UP_B2e_section_must_connect_to_headquarters(board: Board) -> None:
    state = setup_state(board)
    far = "north-platte--omaha--plains"
    assert failed_rules(board, state, "DM", far, "plains") == ["UP-B2e"]
    place(state, "DM", "denver--north-platte")
    assert failed_rules(board, state, "DM", far, "plains") == []
    assert reachable_cities(board, state[0], "DM") == {"Denver", "Cheyenne", "North Platte"}
    # another company's trains do not link anything for the DM
    state2 = setup_state(board)
    place(state2, "EPRG", "denver--north-platte")
    assert failed_rules(board, state2, "DM", far, "plains") == ["UP-B2e"]


def test_UP_B2e_hungarian_rulebook_example(board: Board) -> None:
    """Red (BNL) trains on Billings–Casper and Casper–Salt Lake City: Denver–El Paso is
    refused until Denver–Casper or Denver–Salt Lake City carries a red train."""
    target = "denver--el-paso"
    for link in ("denver--casper", "denver--salt-lake-city"):
        state = setup_state(board)
        for sid in ("billings--casper", "casper--salt-lake-city"):
            card = board.sections[sid].track_type
            assert placement_error(board, *state, "BNL", sid, card) is None
            place(state, "BNL", sid)
        assert failed_rules(board, state, "BNL", target, "mountain") == ["UP-B2e"]
        err = placement_error(board, *state, "BNL", target, "mountain")
        assert err is not None and err.rule == "UP-B2e" and "Billings" in err.message
        assert target not in legal_sections(board, *state, "BNL", "mountain")
        place(state, "BNL", link)
        assert placement_error(board, *state, "BNL", target, "mountain") is None
        assert target in legal_sections(board, *state, "BNL", "mountain")


def test_UP_B2f_company_needs_a_train_in_supply(board: Board) -> None:
    state = setup_state(board)
    assert failed_rules(board, state, "DM", "denver--casper", "hills") == []
    state[1]["DM"] = 0
    assert failed_rules(board, state, "DM", "denver--casper", "hills") == ["UP-B2f"]
    assert legal_sections(board, *state, "DM", GENERAL) == []
    err = placement_error(board, *state, "DM", "denver--casper", "hills")
    assert err is not None and err.rule == "UP-B2f" and "All 14 trains" in err.message


# -- shape of the answers -----------------------------------------------------------------
def test_UP_B2_explanation_lists_all_six_checks_in_order(board: Board) -> None:
    state = setup_state(board)
    explanation = explain_placement(board, *state, "DM", "denver--el-paso", "plains")
    assert tuple(c.rule for c in explanation.checks) == RULES
    assert not explanation.legal
    assert [c.rule for c in explanation.failed] == ["UP-B2a", "UP-B2b"]
    assert all(c.sentence.endswith(f"({c.rule}).") for c in explanation.checks)
    text = str(explanation)
    assert "not allowed" in text and text.count("UP-B2") >= 6 and "Denver Midland" in text
    page = explanation._repr_html_()
    assert page.startswith("<table>") and "UP-B2f" in page and "El Paso &amp; Rio" not in page
    good = explain_placement(board, *state, "EPRG", "denver--el-paso", GENERAL)
    assert good.legal and good.failed == () and "El Paso &amp; Rio Grande" in good._repr_html_()
    assert placement_error(board, *state, "EPRG", "denver--el-paso", GENERAL) is None


@pytest.mark.parametrize("company, section, card, named", [
    ("UP", "denver--el-paso", "mountain", "no company 'UP'"),
    ("DM", "denver--atlantis", "plains", "no section 'denver--atlantis'"),
    ("DM", "denver--casper", "desert", "'desert' is not a track card"),
])
def test_UP_B2_unknown_keys_raise_rule_error(board: Board, company: str, section: str, card: str,
                                             named: str) -> None:
    state = setup_state(board)
    for call in (explain_placement, placement_error):
        with pytest.raises(RuleError) as info:
            call(board, *state, company, section, card)
        assert info.value.rule == "UP-B2" and named in info.value.message
    if section in board.sections:  # legal_sections takes no section, only company and card
        with pytest.raises(RuleError) as info:
            legal_sections(board, *state, company, card)
        assert info.value.rule == "UP-B2" and named in info.value.message


# -- random play keeps every network tied to its headquarters ------------------------------
CARDS = (*TRACK_TYPES, GENERAL)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 9), st.sampled_from(CARDS), st.integers(0, 10**6)),
                min_size=1, max_size=35))
def test_UP_B2_random_legal_play_stays_connected_and_consistent(moves: list[tuple[int, str, int]]) -> None:
    board = load_board()
    state = setup_state(board)
    trains_on, supply = state
    for index, card, pick in moves:
        key = board.companies[index].key
        legal = legal_sections(board, trains_on, supply, key, card)
        explained = [sid for sid in board.sections
                     if explain_placement(board, trains_on, supply, key, sid, card).legal]
        assert legal == explained
        if not legal:
            continue
        place(state, key, legal[pick % len(legal)])
        _assert_invariants(board, trains_on, supply)


def _assert_invariants(board: Board, trains_on: dict[str, Any], supply: dict[str, int]) -> None:
    for company in board.companies:
        reach = reachable_cities(board, trains_on, company.key)
        own = [sid for sid, keys in trains_on.items() if company.key in keys]
        for sid in own:  # UP-B2e: every train sits on the network grown from the HQ
            assert {board.sections[sid].a, board.sections[sid].b} <= reach
        assert len(own) + supply[company.key] == company.trains
        assert supply[company.key] >= 0
    for sid, keys in trains_on.items():
        assert len(keys) == len(set(keys)) <= board.sections[sid].spaces  # UP-B2c, UP-B2d
