"""The palettes, checked as palettes rather than one page at a time: whatever a deal turns up, every terrain, company,
player and state colour stands out from what it is drawn on, and colour-blind learners tell them apart.

A page checked by axe-core shows only the colours of its deal (a deal with no River card never shows the River's
colours), so these tests take every colour from where the lessons keep it and every background it is drawn on:

* text at least 4.5:1 against its background (WCAG 1.4.3), shapes and lines at least 3:1 (1.4.11); a shape with a
  dark edge (a train marker, the yellow lane) passes on its edge;
* for protanopia, deuteranopia and tritanopia (Machado 2009, tests/colours.py) every pair of colours drawn side by
  side either carries a second cue that differs (a shape, a dash, a name beside it) or stays at least
  ``TOLD_APART`` apart in CIEDE2000 (1.4.1). The cues are read from what the lessons really draw (the figures'
  marker symbols and names, the HTML's words), not declared here.

``TOLD_APART = 10``: CIEDE2000's unit is about one just-noticeable difference for large patches side by side in
good light; Stone, Szafir and Setlur ("An engineering model for color difference as a function of size", 2014)
measure that for marks of a few pixels, the size of a map marker or a line seen on a projector, a difference must be
several times larger to be noticed reliably. Ten units is the margin palette tools use for "clearly different" at
that size; the players' colours have 18 (``test_the_players_colours_stay_apart_for_colour_blind_learners``).
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest
from colours import KINDS, contrast, delta_e, delta_e_lab, over, simulate

from railkit.capecairo import new_game
from railkit.ui import i18n
from railkit.ui.capecairo import palette
from railkit.ui.capecairo.common import chip_html, player_html, race_html
from railkit.ui.capecairo.race_map import race_figure
from railkit.ui.plot import SERIES_COLOURS, series_style
from railkit.ui.teacher.teacher_charts import BAR_COLOURS
from railkit.ui.unionpacific import map_style
from railkit.ui.unionpacific.basemap import LAND as UP_LAND
from railkit.ui.unionpacific.board_map import TRACK_STYLES, board_figure
from railkit.ui.unionpacific.common import company_html
from railkit.ui.unionpacific.play.html import text_colour
from railkit.unionpacific.board import load_board

TEXT, GRAPHIC = 4.5, 3.0
TOLD_APART = 10.0
WHITE = "#ffffff"
UI = Path(__file__).resolve().parents[2] / "railkit" / "ui"
COLOUR = r"(#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b|\bwhite\b|\bblack\b)"
PAGE_TEXT = "#212121"  # JupyterLab's text colour, rgba(0, 0, 0, 0.87) on white
# A rule whose background is set elsewhere (an inline style from a palette checked below).
BACKGROUND_ELSEWHERE = {"table.kk-race td.kk-crossed": "the player's colour, test_kk_player_colours_..."}


def rgba(text: str) -> tuple[str, float]:
    """plotly's ``rgba(r, g, b, a)`` as ``#rrggbb`` and alpha."""
    r, g, b, a = (float(v) for v in re.findall(r"[\d.]+", text))
    return f"#{int(r):02x}{int(g):02x}{int(b):02x}", a


def too_close(colours: Mapping[str, str], cues: Mapping[str, object]) -> list[str]:
    """The pairs that neither differ in their second cue nor stay ``TOLD_APART`` in every kind of vision."""
    found = []
    for a, b in itertools.combinations(colours, 2):
        if cues.get(a) is not None and cues.get(a) != cues.get(b):
            continue
        worst = min((delta_e(simulate(colours[a], k), simulate(colours[b], k)), k) for k in KINDS)
        if worst[0] < TOLD_APART:
            found.append(f"{a} {colours[a]} and {b} {colours[b]}: ΔE00 {worst[0]:.1f} in {worst[1]}")
    return found


def low(pairs: Iterable[tuple[str, str, str, float]], need: float) -> list[str]:
    return [f"{what}: {fg} on {bg} is {contrast(fg, bg):.2f}:1, below {need}:1"
            for what, fg, bg, _ in pairs if contrast(fg, bg) < need]


# ------------------------------------------------------------------ the arithmetic itself
def test_ciede2000_gives_sharma_wu_and_dalals_published_differences():
    for lab1, lab2, expected in (((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
                                 ((50, 2.5, 0), (73, 25, -18), 27.1492),
                                 ((50, -1, 2), (50, 0, 0), 2.3669),
                                 ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082)):
        assert delta_e_lab(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_wcag_contrast_and_colour_blindness_simulation_match_known_values():
    assert contrast("#000", "#fff") == pytest.approx(21.0)
    assert contrast("#0277bd", "#e1f2fc") == pytest.approx(4.18, abs=0.01)  # the River card of issue 37
    # pure red and green are nearly one colour without red-green vision, and stay apart with it
    assert delta_e(simulate("#ff0000", "deuteranopia"), simulate("#00ff00", "deuteranopia")) < 25
    assert delta_e("#ff0000", "#00ff00") > 80
    assert simulate("#808080", "tritanopia") == pytest.approx((128, 128, 128), abs=1)  # greys stay grey


# ------------------------------------------------------------------ the stylesheets
def style_rules() -> list[tuple[str, str, str, str]]:
    """Every CSS rule and inline style in railkit/ui that sets a text colour or a background with a literal colour:
    (where, text colour, background, "")."""
    found = []

    def colours(body: str) -> dict[str, str]:
        out = {}
        for m in re.finditer(r"(?<![-\w])(color|background|background-color)\s*:\s*([^;}'\"]+)", body):
            c = re.search(COLOUR, m.group(2))
            if c:
                out["bg" if m.group(1).startswith("background") else "fg"] = c.group(1)
        return out

    for path in sorted([*UI.rglob("*.py"), *UI.rglob("*.j2"), *UI.rglob("*.html")]):
        text = path.read_text(encoding="utf-8")
        blocks = [(m.group(1).strip(), m.group(2)) for m in re.finditer(r"([^{}]+)\{([^{}]*)\}", text)]
        blocks += [("inline style", m.group(1)) for m in re.finditer(r"style=['\"]([^'\"]*)['\"]", text)]
        for selector, body in blocks:
            set_here = colours(body)
            if not set_here or any(s in selector for s in BACKGROUND_ELSEWHERE):
                continue
            where = f"{path.relative_to(UI)}: {selector.splitlines()[-1][-80:]}"
            found.append((where, set_here.get("fg", PAGE_TEXT), set_here.get("bg", WHITE), ""))
    return found


def test_every_text_colour_in_the_stylesheets_reads_on_its_background():
    rules = style_rules()
    assert len(rules) > 40  # the message bar, the turn, the chips, the checklists, the notes ...
    assert not low(rules, TEXT)


def test_the_darkened_jupyterlab_button_colours_carry_white_text():
    template = (UI / "voila_template" / "railkit" / "a11y.html.j2").read_text(encoding="utf-8")
    buttons = re.findall(r"--jp-(?:warn|info|success)-color1:\s*(#[0-9a-f]{6})", template)
    assert len(buttons) == 3
    assert not low([(f"button {c}", WHITE, c, 0) for c in buttons], TEXT)


# ------------------------------------------------------------------ Vom Kap bis Kairo
def test_kk_terrain_colours_read_on_cards_chips_the_race_and_the_map():
    """KK-C3's five terrains, whatever a deal turns up: the name in the terrain's ink on its paper (cards, chips,
    the race grid), the card's number and notes on the paper, the card's edge on the page and the marker on the
    map's land."""
    pairs = []
    for t in palette.TERRAINS:
        ink, paper = palette.TERRAIN_INK[t], palette.TERRAIN_PAPER[t]
        pairs += [(f"{t} name", ink, paper, 0), (f"{t} card number", "#666666", paper, 0),
                  (f"{t} note", "#555555", paper, 0), (f"{t} race cell", "#222222", paper, 0)]
        graphics = [(f"{t} card edge", ink, WHITE, 0), (f"{t} marker on the land", ink, palette.LAND, 0)]
        assert not low(graphics, GRAPHIC)
    assert not low(pairs, TEXT)


def test_kk_player_colours_read_on_the_race_grid_and_the_map():
    pairs, graphics = [], []
    box = over(palette.LABEL_BOX[0], palette.LABEL_BOX[1], palette.LAND)
    for colour, fill in palette.PLAYER_HEX.items():
        pairs.append((f"{colour} crossed cell", palette.player_text(colour), fill, 0))
        pairs.append((f"{colour} train label", palette.player_ink(colour), box, 0))  # type: ignore[arg-type]
        graphics.append((f"{colour} lane ahead", palette.player_ink(colour), palette.LAND, 0))
        # the crossed lane: the colour on its dark edge, the edge on the land
        best = max(contrast(fill, palette.LAND), contrast(palette.PLAYER_EDGE, palette.LAND))
        assert best >= GRAPHIC, colour
    pairs.append(("towns off the route's stops", palette.TOWN_TEXT, palette.LAND, 0))
    graphics.append(("the route", palette.ROUTE_COLOUR, palette.LAND, 0))
    assert not low(pairs, TEXT)
    assert not low(graphics, GRAPHIC)


def test_the_players_colours_stay_apart_for_colour_blind_learners():
    """The lanes on the race map sit side by side with no name on them (the name is at the train): their colours
    alone must differ, in every kind of vision, by 18 (well past ``TOLD_APART``)."""
    colours = palette.PLAYER_HEX
    for a, b in itertools.combinations(colours, 2):
        for kind in KINDS:
            assert delta_e(simulate(colours[a], kind), simulate(colours[b], kind)) >= 18, (a, b, kind)


def kk_view():
    game = new_game(["Ann", "Ben", "Cleo", "Dev"], seed=3)
    return game.view("Ann")


def test_kk_terrains_and_trains_carry_a_second_cue_where_they_are_drawn():
    """On the race map each terrain has its own marker shape and each train its player's name; on the cards,
    chips and race grid the terrain's and player's names are written."""
    view = kk_view()
    figure = race_figure(view)
    symbols = {}
    for trace in figure.traces:
        marker = trace.get("marker") or {}
        for t in palette.TERRAINS:
            if trace.get("legendgroup") == "terrain" and t.capitalize() in str(trace.get("name")):
                symbols[t] = marker.get("symbol")
    assert len(symbols) == 5
    assert not too_close(palette.TERRAIN_INK, symbols)  # shapes differ: any colours pass
    names = {p: p for p in view.players}
    trains = {t["name"].split(" (")[0]: t for t in figure.traces if t.get("legendgroup") == "trains"}
    assert set(trains) == set(view.players)
    labels = " ".join(a["text"] for a in figure.layout_spec.get("annotations", []))
    assert all(f"<b>{p}</b>" in labels for p in view.players)
    assert not too_close({p: palette.PLAYER_HEX[view.colours[p]] for p in view.players}, names)
    for t in palette.TERRAINS:
        card = {"id": "X01", "terrain": t, "tracks": 1, "coin": 2}
        assert i18n.tr(t.capitalize()) in chip_html(card)
    grid = race_html(view)
    assert all(player_html(view, p) in grid for p in view.players)


# ------------------------------------------------------------------ Union Pacific
def test_up_company_colours_stand_out_on_the_map_and_on_buttons():
    """UP-C1's ten companies: a train marker on the land passes on its fill or its edge, a starting space (an open
    shape) in its ink, a headquarters star on its edge; a share's button carries its text colour."""
    board = load_board()
    assert map_style.MAP_LAND == UP_LAND
    graphics, text = [], []
    for c in board.companies:
        edge = map_style.company_outline(c.hex)
        best = max(contrast(c.hex, UP_LAND), contrast(edge, UP_LAND) if edge != map_style.LIGHT_OUTLINE else 0)
        graphics.append((f"{c.key} train", c.hex if contrast(c.hex, UP_LAND) == best else edge, UP_LAND, 0))
        graphics.append((f"{c.key} starting space", map_style.company_ink(c.hex), UP_LAND, 0))
        graphics.append((f"{c.key} headquarters star's edge", map_style.DARK_OUTLINE, UP_LAND, 0))
        text.append((f"{c.key} share button", "#000000" if text_colour(c.hex) == "black" else WHITE, c.hex, 0))
    for i, (colour, _dash) in enumerate(TRACK_STYLES):
        graphics.append((f"track type {i + 1}", colour, UP_LAND, 0))
    for name, band in (("legal sections", map_style.HIGHLIGHT), ("selected section", map_style.SELECTED)):
        colour, alpha = rgba(band)
        seen = over(colour, alpha, UP_LAND)
        assert contrast(seen, UP_LAND) >= GRAPHIC, name  # type: ignore[arg-type]
    graphics.append(("city", map_style.CITY_FILL, UP_LAND, 0))
    text.append(("numbered badge", WHITE, "#1e63c4", 0))
    assert not low(graphics, GRAPHIC)
    assert not low(text, TEXT)


def test_up_companies_carry_a_second_cue_where_they_are_drawn_side_by_side():
    """Ten colours cannot all stay apart without red-green vision (the red Billings Northern Lights and the brown
    Kansas City Cattle Line look alike): each company's trains and starting spaces have its own shape, its
    headquarters star stands beside the city its name carries (whose label is on the map), and in the text its
    swatch stands beside its name."""
    board = load_board()
    everywhere = {c.key: c.hex for c in board.companies}
    assert too_close(everywhere, {}), "the company colours alone would do: this test would check nothing"
    trains = {c.key: [c.key] for c in board.companies}
    starting = {c.key: next(s for s, section in board.sections.items() if c.key in section.starting)
                for c in board.companies}
    figure = board_figure(board, trains_on={starting[k]: v for k, v in trains.items()})
    train_trace = next(t for t in figure.traces if t.get("name") == "train")
    shapes = {}
    for text, symbol in zip(train_trace["text"], train_trace["marker"]["symbol"], strict=True):
        company = next(c for c in board.companies if c.name in text)
        shapes[company.key] = symbol
    assert len(shapes) == len(board.companies)
    assert not too_close(everywhere, shapes)
    # headquarters: the star is beside the city named in the company's name, and that city's name is on the map
    labelled = " ".join(str(t.get("text")) for t in figure.traces) + str(figure.layout_spec.get("annotations", ""))
    for c in board.companies:
        assert c.headquarters in c.name and c.headquarters in labelled, c.key
        assert html.escape(c.name) in company_html(board, c.key)


def test_track_types_and_chart_lines_differ_in_dash_as_well_as_colour():
    dashes = {f"type {i}": dash for i, (_c, dash) in enumerate(TRACK_STYLES)}
    assert not too_close({f"type {i}": c for i, (c, _d) in enumerate(TRACK_STYLES)}, dashes)
    lines = {f"line {i}": series_style(i) for i in range(len(SERIES_COLOURS))}
    cues = {k: (v["line"]["dash"], v["marker"]["symbol"]) for k, v in lines.items()}
    assert not too_close({k: v["line"]["color"] for k, v in lines.items()}, cues)
    assert not low([(f"chart line {c}", c, WHITE, 0) for c in SERIES_COLOURS], GRAPHIC)
    assert not low([(f"teacher's bar {c}", c, WHITE, 0) for c in BAR_COLOURS], GRAPHIC)
