"""BuildingApp driven headless (lesson up_building, UP-B1..B6, UP-B2a–f): presets, the legal-section
highlight, the checklist, placing trains, bad input and the exercise."""

import html
import re

import pytest

from railkit.ui.unionpacific.board_map import band_sections
from railkit.ui.unionpacific.building import BuildingApp
from railkit.ui.unionpacific.building.position import PRESETS, random_situation, rulebook_situation
from railkit.unionpacific import GENERAL, TRACK_TYPES, explain_placement, legal_sections, load_board


@pytest.fixture
def app():
    return BuildingApp(seed=11)


def text(html_value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", html_value))


def highlight_trace(app):
    """The sections under the magenta band (a shape), or None without one; its legend entry goes with it."""
    fig = app.map_view.figure
    band = band_sections(app.board, fig.layout, "legal sections")
    assert (band is None) == all(t.name != "legal sections" for t in fig.data)
    return band


def test_starts_with_the_UP_S1_starting_trains_and_asks_for_a_choice(app):
    board = load_board()
    assert app.trains_on == {sid: list(s.starting) for sid, s in board.sections.items() if s.starting}
    assert app.supply["EPRG"] == 21 and app.supply["BNL"] == 18
    assert app.legal == [] and app.highlighted == [] and highlight_trace(app) is None
    assert app.message_kind == "info" and "company and a track card" in app.message_text
    assert "starting trains (UP-S1)" in app.map_view.figure.layout.title.text
    # the pickers show what to do, not a blank box
    assert (app.company.label, app.section.label) == ("— pick a company —", "— pick a section —")
    app.set_choice("BNL", "plains", None)
    app.set_choice(None, None, None)
    assert (app.company.label, app.section.label) == ("— pick a company —", "— pick a section —")


@pytest.mark.parametrize("company", ["BNL", "DM", "EPRG", "KCCL"])
@pytest.mark.parametrize("card", [*TRACK_TYPES, GENERAL])
def test_highlight_equals_the_engines_legal_sections(app, company, card):
    app.company.value = company
    app.card.value = card
    expected = legal_sections(app.board, app.trains_on, app.supply, company, card)
    assert app.legal == expected and app.highlighted == expected
    band = highlight_trace(app)
    if expected:
        assert band is not None and sorted(band) == sorted(expected)
        assert f"{len(expected)} legal section{'s' if len(expected) != 1 else ''}" in app.legal_html.value
    else:
        assert band is None and "No legal section" in app.legal_html.value
    marked = {value for label, value in app.section.options if label.startswith("✔ ")}
    assert marked == set(expected)


def test_UP_B2e_rulebook_preset_refuses_denver_el_paso(app):
    explanation = app.load_preset("B2e")
    assert explanation is not None and not explanation.legal
    assert [c.rule for c in explanation.failed] == ["UP-B2e"]
    assert app.trains_on["billings--casper"] == ["BNL"] and app.trains_on["casper--salt-lake-city"] == ["BNL"]
    assert "denver--el-paso" not in app.legal and "denver--salt-lake-city" in app.legal
    shown = text(app.checklist.value)
    assert "not allowed" in shown and "UP-B2e" in shown and "Neither Denver nor El Paso is linked to Billings" in shown
    assert "Rulebook: not allowed. railkit: not allowed." in app.message_text


def test_UP_B2e_linking_denver_makes_denver_el_paso_legal(app):
    app.load_preset("B2e")
    app.section.value = "denver--salt-lake-city"
    assert app.on_place() is True and app.trains_on["denver--salt-lake-city"] == ["BNL"]
    app.section.value = "denver--el-paso"
    assert app.explanation.legal and "denver--el-paso" in app.legal
    explanation = app.load_preset("B2e-linked")
    assert explanation.legal and "Rulebook: allowed. railkit: allowed." in app.message_text


def test_UP_B2b_preset_denver_midland_may_not_use_denver_el_paso(app):
    explanation = app.load_preset("B2b")
    assert [c.rule for c in explanation.failed] == ["UP-B2b"]  # even with a general card, from its HQ
    assert "may only build on plains and hills" in text(app.checklist.value)
    assert "denver--el-paso" not in app.legal


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_every_preset_matches_the_rulebook_verdict(app, preset):
    assert app.load_preset(preset.key).legal is preset.rulebook_legal


def test_checklist_shows_all_six_conditions_with_the_engines_sentences(app):
    app.set_choice("BNL", "plains", "billings--casper")
    expected = explain_placement(app.board, app.trains_on, app.supply, "BNL", "billings--casper", "plains")
    assert app.explanation == expected
    for check in expected.checks:
        assert check.rule in app.checklist.value and check.sentence in text(app.checklist.value)
    assert app.checklist.value.count("✔") == 6


def test_UP_B2_legal_placement_changes_the_board_and_the_highlight(app):
    app.set_choice("BNL", "plains", "billings--casper")
    before = list(app.legal)
    assert app.on_place() is True
    assert app.trains_on["billings--casper"] == ["BNL"] and app.supply["BNL"] == 17
    assert app.message_kind == "ok" and "Billings–Casper" in app.message_text
    assert app.legal != before and "billings--casper" not in app.legal  # UP-B2d now
    assert not app.explanation.legal and [c.rule for c in app.explanation.failed] == ["UP-B2d"]
    app.on_undo()
    assert "billings--casper" not in app.trains_on or app.trains_on["billings--casper"] == []
    assert app.supply["BNL"] == 18


def test_illegal_placement_names_the_failing_rule_and_changes_nothing(app):
    app.set_choice("DM", "general", "denver--el-paso")
    trains, supply = {k: list(v) for k, v in app.trains_on.items()}, dict(app.supply)
    assert app.on_place() is None
    assert app.message_kind == "error" and "(rule UP-B2b)" in app.message_text
    assert app.trains_on == trains and app.supply == supply and app.history == []
    # a starting space never takes a train (UP-B2c) and one train per company per section (UP-B2d)
    app.set_choice("DM", "plains", "cheyenne--denver")
    app.on_place()
    assert "(rule UP-B2d)" in app.message_text and app.trains_on == trains


@pytest.mark.parametrize("missing", ["company", "card", "section"])
def test_empty_choice_gives_a_clear_message_and_changes_nothing(app, missing):
    choice = {"company": "BNL", "card": "plains", "section": "billings--casper"}
    choice[missing] = None
    app.set_choice(**choice)
    assert app.on_place() is None
    assert app.message_kind == "error" and f"Pick a {'track card' if missing == 'card' else missing} first" in app.message_text
    assert "billings--casper" not in app.trains_on and app.history == []


def test_reset_and_undo_with_nothing_to_undo(app):
    app.on_undo()
    assert app.message_kind == "error" and "nothing to undo" in app.message_text
    app.load_preset("B2e-linked")
    app.on_reset()
    assert app.history == [] and "billings--casper" not in app.trains_on
    assert app.supply["BNL"] == 18 and "starting position" in app.message_text


def test_map_marks_the_selected_section(app):
    app.set_choice("BNL", "mountain", "denver--el-paso")
    fig = app.map_view.figure
    names = [t.name for t in fig.data]
    assert names[0] == "selected section"  # its legend entry first; the band itself is a shape under the sections
    assert band_sections(app.board, fig.layout, "selected section") == ["denver--el-paso"]
    assert [s.name for s in fig.layout.shapes] == ["selected section", "legal sections"]  # purple under magenta
    assert [s.layer for s in fig.layout.shapes] == ["between", "between"]  # above the basemap image
    assert [i.name for i in fig.layout.images] == ["basemap"] and fig.layout.images[0].layer == "below"


# -- the exercise ------------------------------------------------------------------------------
def test_first_exercise_is_the_rulebook_position_with_engine_verdicts(app):
    s = app.exercise.situation
    assert s == rulebook_situation(app.board)
    assert (s.company, s.card) == ("BNL", "mountain")
    legal = set(legal_sections(app.board, s.trains_on, s.supply, "BNL", "mountain"))
    assert s.legal == {c for c in s.candidates if c in legal} == {"helena--salt-lake-city", "denver--salt-lake-city"}
    assert len(app.exercise.candidate_boxes) == len(s.candidates)


def test_exercise_checker_accepts_the_right_answer_and_explains(app):
    app.exercise.tick(app.exercise.situation.legal)
    assert app.exercise.on_check() is True
    assert app.message_kind == "ok" and app.exercise.score == [1, 1]
    shown = text(app.exercise.feedback.value)
    assert "All six conditions of UP-B2 hold." in shown
    assert "Neither Denver nor El Paso is linked to Billings" in shown  # UP-B2e for Denver–El Paso
    assert "already has a train on Casper–Salt Lake City" in shown  # UP-B2d
    legal_band = band_sections(app.board, app.exercise.map.figure.layout, "legal candidates")
    assert legal_band is not None and sorted(legal_band) == sorted(app.exercise.situation.legal)
    assert any(t.name == "legal candidates" for t in app.exercise.map.figure.data)  # its legend entry


def test_exercise_checker_rejects_a_wrong_answer(app):
    app.exercise.tick(["denver--el-paso", "denver--salt-lake-city"])
    assert app.exercise.on_check() is False
    assert app.message_kind == "info" and "2 of 6 sections wrong" in app.message_text
    assert app.exercise.result["denver--el-paso"] is False and app.exercise.result["denver--salt-lake-city"] is True
    assert app.exercise.score == [0, 1]
    app.exercise.tick(app.exercise.situation.legal)  # a second try does not change the score
    assert app.exercise.on_check() is True and app.exercise.score == [0, 1]


def test_exercise_with_nothing_ticked_asks_for_an_answer(app):
    assert app.exercise.on_check() is None
    assert app.message_kind == "error" and "Tick the sections" in app.message_text
    assert app.exercise.score == [0, 0] and not app.exercise.checked


def test_new_situations_hold_legal_and_illegal_candidates_from_the_engine(app):
    board = load_board()
    for _ in range(8):
        s = app.exercise.on_new_situation()
        legal = set(legal_sections(board, s.trains_on, s.supply, s.company, s.card))
        assert s.legal == {c for c in s.candidates if c in legal}
        assert 1 <= len(s.legal) < len(s.candidates) and len(set(s.candidates)) == len(s.candidates)
        numbered = [t for t in app.exercise.map.figure.data if t.name == "candidate number"]
        assert list(numbered[0].text) == [str(i) for i in range(1, len(s.candidates) + 1)]


def test_random_situations_are_reproducible():
    import random

    board = load_board()
    assert random_situation(board, random.Random(5)) == random_situation(board, random.Random(5))


def test_a_click_on_a_legal_section_of_the_map_chooses_it(app):
    """The map's hit areas carry section ids; a click picks the section like the list."""
    board = load_board()
    app.set_choice("BNL", "mountain", None)
    hits = next(t for t in app.map_view.figure.data if t.name == "section hit areas")
    assert set(hits.customdata) == set(board.sections)
    sid = app.legal[0]
    app.map_clicks.click(sid)
    assert app.section.value == sid
    assert "UP-B2e" in text(app.checklist.value)
    assert band_sections(board, app.map_view.figure.layout, "selected section") == [sid]
    app.map_clicks.click("no such section")  # ignored, no error
    assert app.section.value == sid and app.message_kind != "error"


def test_a_click_on_a_numbered_candidate_ticks_it(app):
    s = app.exercise.situation
    first = s.candidates[0]
    app.exercise.map_clicks.click(first)
    assert app.exercise.candidate_boxes[0].value is True
    app.exercise.map_clicks.click(first)
    assert app.exercise.candidate_boxes[0].value is False


def test_exercise_map_holds_every_candidate_and_its_cities(app):
    """Nothing of the candidates is cut off; numbers sit clear of the names."""
    app.exercise.draw_map()
    fig = app.exercise.map.figure
    (x0, x1), (y0, y1) = fig.layout.xaxis.range, fig.layout.yaxis.range
    board = load_board()
    from railkit.ui.unionpacific.basemap import project

    for sid in app.exercise.situation.candidates:
        for city in (board.sections[sid].a, board.sections[sid].b):
            x, y = project(board.cities[city].lon, board.cities[city].lat)
            assert x0 + 100 < x < x1 - 100 and y0 + 60 < y < y1 - 60, city
