"""The Union Pacific building app (lesson ``notebooks/up_building.ipynb``, rules UP-B1..UP-B6, UP-B2a–f).

Two tabs and a legend:

* Build — the map (``railkit.ui.upmap``). Pick a company and a track card: the sections where its
  train may go light up (``placement.legal_sections``). Pick a section: the six conditions of UP-B2
  with pass/fail and the engine's sentence for each (``placement.explain_placement``). Place a train
  (only a legal placement changes the board; an illegal one shows the failing rule), undo, reset, and
  the rulebook examples as presets (UP-B2e Billings Northern Lights, UP-B2b Denver Midland).
* Exercise — “which placements are legal?”: a company, a track card and a few candidate sections;
  the learner ticks the legal ones and the app checks, with the engine's explanation of each.

The board is a sandbox in the form the engine's placement functions take: ``trains_on`` (section id
-> company keys, starting trains included) and ``supply`` (company key -> trains left). It starts as
the public view of a fresh game (UP-S1). This module never decides what is legal.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import ipywidgets as widgets
import plotly.graph_objects as go

from railkit.ui.app import App, InputError, guarded
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import tr
from railkit.ui.up_common import LESSON_STYLE, TRACK_CARDS, card_label, company_html, row, section_label
from railkit.ui.upmap import board_figure, section_geometry
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
SELECTED = "rgba(30, 99, 196, 0.45)"
MAP_HEIGHT = 600
EXERCISE_MAP_HEIGHT = 480


# -- the sandbox state ------------------------------------------------------------------------
def starting_position() -> tuple[Trains, dict[str, int]]:
    """UP-S1 as the engine sets it up: the public view of a fresh game (starting trains, supply)."""
    view = new_game(2, seed=0).view(None)
    return {sid: list(keys) for sid, keys in view["trains_on"].items()}, dict(view["supply"])


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
    Preset("B2e", "UP-B2e", "Billings Northern Lights: Denver–El Paso refused (UP-B2e)", "BNL", "mountain",
           "denver--el-paso", _BNL_EXAMPLE, False,
           "The Hungarian rulebook's example. Red trains run Billings–Casper–Salt Lake City, but no red train "
           "reaches Denver or El Paso, so Denver–El Paso is not linked to Billings. The rulebook refuses it "
           "until Denver–Casper or Denver–Salt Lake City carries a red train."),
    Preset("B2e-linked", "UP-B2e", "… and allowed once Denver–Salt Lake City carries red (UP-B2e)", "BNL",
           "mountain", "denver--el-paso", (*_BNL_EXAMPLE, ("BNL", "denver--salt-lake-city")), True,
           "The same example one build later: a red train on Denver–Salt Lake City links Denver to Billings, "
           "so a red train may now go on Denver–El Paso."),
    Preset("B2b", "UP-B2b", "Denver Midland may not use Denver–El Paso (UP-B2b)", "DM", GENERAL,
           "denver--el-paso", (), False,
           "Denver–El Paso touches Denver, the Denver Midland's headquarters, and even a general card matches "
           "its track; but the Denver Midland may not build on that track type at all."),
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
    """The first exercise: the Billings Northern Lights example with a mountain card (UP-B2e)."""
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
        trains_on, supply = starting_position()
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
        for sid, s in board.sections.items():  # one step beyond the network: UP-B2e candidates
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


# -- pictures and tables ------------------------------------------------------------------------
def building_map(board: Board, trains_on: Mapping[str, Sequence[str]], highlight: Sequence[str] = (),
                 selected: str | None = None, numbered: Sequence[str] = (), title: str | None = None,
                 highlight_name: str | None = None, height: int = MAP_HEIGHT,
                 focus: Sequence[str] = ()) -> go.Figure:
    """``upmap.board_figure`` plus, drawn by this lesson: the selected section as a blue band,
    numbers on the exercise's candidate sections, and a zoom onto the ``focus`` sections."""
    fig = board_figure(board, trains_on=trains_on, highlight=highlight, title=title, height=height)
    if highlight_name:  # board_figure always calls its highlight band “legal sections”
        for trace in fig.data:
            if trace.name == tr("legal sections"):
                trace.name = highlight_name
    geometry = section_geometry(board)
    extra = []
    if selected in board.sections:
        (ax, ay), (bx, by) = geometry[selected]
        extra.append(go.Scatter(x=[ax, bx], y=[ay, by], mode="lines", line=dict(color=SELECTED, width=22),
                                name=tr("selected section"), hoverinfo="skip"))
    if extra:  # under the sections and trains, just above the basemap
        fig.add_traces(extra)
        k = len(extra)
        fig.data = (fig.data[0], *fig.data[-k:], *fig.data[1:-k])
    if focus:
        points = [p for sid in focus if sid in geometry for p in geometry[sid]]
        xs_, ys_ = [p[0] for p in points], [p[1] for p in points]
        cx, cy = (min(xs_) + max(xs_)) / 2, (min(ys_) + max(ys_)) / 2
        half_w = max((max(xs_) - min(xs_)) * 0.65, 450.0)  # km; at least a few states wide
        half_h = max((max(ys_) - min(ys_)) * 0.65, 300.0)
        fig.update_layout(xaxis_range=[cx - half_w, cx + half_w], yaxis_range=[cy - half_h, cy + half_h])
    if numbered:
        xs, ys, labels, hover = [], [], [], []
        for i, sid in enumerate(numbered, 1):
            (ax, ay), (bx, by) = geometry[sid]
            xs.append((ax + bx) / 2)
            ys.append((ay + by) / 2)
            labels.append(str(i))
            hover.append(f"{i}: {board.sections[sid].name}")
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="markers+text", text=labels, hovertext=hover,
                                 hoverinfo="text", textfont=dict(size=13, color="white"),
                                 marker=dict(size=24, color="#1e63c4", line=dict(color="white", width=2)),
                                 name=tr("candidate number")))
    return fig


def checklist_html(explanation: PlacementExplanation) -> str:
    """The six conditions of UP-B2 as a table: pass/fail, rule, the engine's sentence."""
    verdict = (f"<span class='railkit-right'>{tr('allowed')}</span>" if explanation.legal
               else f"<span class='railkit-wrong'>{tr('not allowed')}</span>")
    rows = "".join(
        f"<tr class='{'pass' if c.passed else 'fail'}'>"
        f"<td class='{'railkit-right' if c.passed else 'railkit-wrong'}'>{'✔' if c.passed else '✘'}</td>"
        f"<td class='name nowrap'>{c.rule}</td><td class='name'>{html.escape(c.sentence)}</td></tr>"
        for c in explanation.checks
    )
    return (f"<div class='railkit-checklist'><b>{html.escape(explanation.title)}</b>: {verdict}"
            f"<table class='railkit-table'><tr><th></th><th class='name'>{tr('rule')}</th>"
            f"<th class='name'>{tr('what the engine checked')}</th></tr>{rows}</table></div>")


def why_text(explanation: PlacementExplanation) -> str:
    """One cell of the exercise's answer table: the failed conditions, or that all six hold."""
    if explanation.legal:
        return tr("All six conditions of UP-B2 hold.")
    return " ".join(c.sentence for c in explanation.failed)


# -- the app ----------------------------------------------------------------------------------
class BuildingApp(App):
    """Map, legal sections, the UP-B2a–f checklist, placing trains, presets and an exercise."""

    title = "Union Pacific: building track"

    def __init__(self, seed: int | None = None) -> None:
        self.board = load_board()
        self.rng = random.Random(seed)
        self.start_trains, self.start_supply = starting_position()
        self.trains_on: Trains = copy_trains(self.start_trains)
        self.supply: dict[str, int] = dict(self.start_supply)
        self.history: list[tuple[str, str, str]] = []  # (company, section, card) placed by the learner
        self.legal: list[str] = []  # legal sections for the chosen company and card (engine's list)
        self.highlighted: list[str] = []  # what the map lights up now
        self.explanation: PlacementExplanation | None = None  # checklist of the chosen section
        self._quiet = 0  # >0 while several widgets are set at once (one refresh at the end)
        self.situation: Situation | None = None
        self.exercise_checked = False
        self.exercise_result: dict[str, bool] | None = None  # section -> learner was right
        self.exercise_score = [0, 0]
        self._exercise_drawn = False
        super().__init__()
        self.refresh()
        self.show_info(tr("Pick a company and a track card: the sections where its train may go light up."))

    # ------------------------------------------------------------------ building the widgets
    def build(self) -> widgets.Widget:
        self.tabs = widgets.Tab(children=[self._build_sandbox(), self._build_exercise()])
        for i, name in enumerate([tr("Build"), tr("Exercise")]):
            self.tabs.set_title(i, name)
        self.tabs.observe(lambda _c: self.on_tab(), names="selected_index")
        self.legend = widgets.HTML(self._legend_html())
        self.legend.add_class("railkit-legend")
        return widgets.VBox([widgets.HTML(LESSON_STYLE), self.tabs, self.legend])

    def _company_options(self, blank: str) -> list[tuple[str, str | None]]:
        return [(blank, None)] + [(f"{c.name} ({tr(c.colour)})", c.key) for c in self.board.companies]

    def _build_sandbox(self) -> widgets.Widget:
        wide = {"description_width": "110px"}
        self.company = widgets.Dropdown(options=self._company_options(tr("— pick a company —")), value=None,
                                        description=tr("Company"), style=wide,
                                        layout=widgets.Layout(width="460px"))
        self.card = widgets.ToggleButtons(
            options=[(card_label(self.board, c), c) for c in TRACK_CARDS], value=None,
            description=tr("Track card"), style={**wide, "button_width": "118px"},
            tooltips=[tr("Play a {card} card (UP-B1)", card=card_label(self.board, c)) for c in TRACK_CARDS],
        )
        self.section = widgets.Dropdown(options=self._section_options(), value=None, description=tr("Section"),
                                        style=wide, layout=widgets.Layout(width="460px"))
        self.company.add_class("railkit-company")
        self.card.add_class("railkit-card")
        self.section.add_class("railkit-section")
        self.place_button = widgets.Button(description=tr("Place a train"), icon="train", button_style="primary",
                                           tooltip=tr("Put a train of the company on the section (UP-B2)"))
        self.place_button.add_class("railkit-place")
        self.undo_button = widgets.Button(description=tr("Undo"), icon="undo",
                                          tooltip=tr("Take back the last train you placed"))
        self.reset_button = widgets.Button(description=tr("Reset board"), icon="refresh", button_style="warning",
                                           tooltip=tr("Back to the starting trains (UP-S1)"))
        self.place_button.on_click(lambda _b: self.on_place())
        self.undo_button.on_click(lambda _b: self.on_undo())
        self.reset_button.on_click(lambda _b: self.on_reset())
        self.company.observe(lambda _c: self.on_choice(), names="value")
        self.card.observe(lambda _c: self.on_choice(), names="value")
        self.section.observe(lambda _c: self.on_section(), names="value")
        self.preset_buttons = {}
        for preset in PRESETS:
            button = widgets.Button(description=tr(preset.label), tooltip=tr(preset.note),
                                    layout=widgets.Layout(width="auto"))
            button.on_click(lambda _b, key=preset.key: self.load_preset(key))
            self.preset_buttons[preset.key] = button
        self.company_info = widgets.HTML("")
        self.company_info.add_class("railkit-company-info")
        self.legal_html = widgets.HTML("")
        self.legal_html.add_class("railkit-legal")
        self.checklist = widgets.HTML("")
        self.checklist.add_class("railkit-checklist-box")
        self.map_view = FigureView()
        presets = row([widgets.HTML(f"<b>{tr('Rulebook examples')}:</b>"), *self.preset_buttons.values()])
        return widgets.VBox([
            presets,
            row([self.company, self.company_info]),
            self.card,
            self.legal_html,
            row([self.section, self.place_button, self.undo_button, self.reset_button]),
            self.checklist,
            self.map_view.widget,
        ])

    def _build_exercise(self) -> widgets.Widget:
        self.exercise_intro = widgets.HTML("")
        self.exercise_intro.add_class("railkit-exercise-situation")
        self.candidate_boxes: list[widgets.Checkbox] = []
        self.candidate_box = widgets.VBox([])
        self.check_button = widgets.Button(description=tr("Check"), icon="check", button_style="success",
                                           tooltip=tr("Compare your ticks with the engine's verdicts"))
        self.check_button.add_class("railkit-check")
        self.new_button = widgets.Button(description=tr("New situation"), icon="random", button_style="info",
                                         tooltip=tr("Deal another position, company and card"))
        self.check_button.on_click(lambda _b: self.on_check())
        self.new_button.on_click(lambda _b: self.on_new_situation())
        self.exercise_feedback = widgets.HTML("")
        self.exercise_feedback.add_class("railkit-exercise-feedback")
        self.score_html = widgets.HTML("")
        self.exercise_map = FigureView(flex="1 1 560px", min_width="0")
        self.set_situation(rulebook_situation(self.board))
        answer = widgets.VBox([self.candidate_box, row([self.check_button, self.new_button]), self.score_html],
                              layout=widgets.Layout(flex="0 0 400px"))
        return widgets.VBox([
            self.exercise_intro,
            widgets.HBox([answer, self.exercise_map.widget], layout=widgets.Layout(align_items="flex-start")),
            self.exercise_feedback,
        ])

    def _legend_html(self) -> str:
        items = [
            (tr("Rulebook examples"), tr("load a position from the rulebooks and judge one placement in it")),
            (tr("Company"), tr("whose train to place; any player may build for any company (UP-B2)")),
            (tr("Track card"), tr("the card played from your hand: it sets the track type, General matches any "
                                  "(UP-B1, UP-B2a)")),
            (tr("Yellow band on the map"), tr("the sections where the company's train may go with that card")),
            (tr("Section"), tr("any section; ✔ marks the legal ones. The checklist below shows UP-B2a–f for it, "
                               "and the map shows it as a blue band")),
            (tr("Place a train"), tr("puts the train on the section if the engine allows it; otherwise the "
                                     "message names the rule that fails and nothing changes")),
            (tr("Undo / Reset board"), tr("take back your last train / go back to the starting trains (UP-S1)")),
            (tr("Map"), tr("lines are sections, coloured and dashed by track type; circles are empty spaces, "
                           "squares starting spaces, filled markers trains, stars headquarters. Drag to pan, "
                           "scroll to zoom, hover for names")),
            (tr("Exercise"), tr("tick every candidate section where the train may go, then Check; "
                                "New situation deals another")),
        ]
        rows = "".join(f"<li><b>{html.escape(k)}</b> — {html.escape(v)}</li>" for k, v in items)
        return f"<details open><summary><b>{tr('Legend')}</b></summary><ul>{rows}</ul></details>"

    # ------------------------------------------------------------------ reading the state
    def _section_options(self, legal: Iterable[str] = ()) -> list[tuple[str, str | None]]:
        legal = set(legal)
        ordered = sorted(self.board.sections.values(), key=lambda s: (s.name, s.track_type))
        return [(tr("— pick a section —"), None)] + [
            (("✔ " if s.id in legal else "") + section_label(self.board, s), s.id) for s in ordered
        ]

    def _set_section_options(self, legal: Iterable[str]) -> None:
        keep = self.section.value
        self._quiet += 1
        try:
            self.section.options = self._section_options(legal)
            self.section.value = keep
        finally:
            self._quiet -= 1

    # ------------------------------------------------------------------ showing
    def refresh(self) -> None:
        """Recompute the legal sections and the checklist from the engine; redraw the map."""
        board, company, card, sid = self.board, self.company.value, self.card.value, self.section.value
        if company is not None and card is not None:
            self.legal = legal_sections(board, self.trains_on, self.supply, company, card)
        else:
            self.legal = []
        self._set_section_options(self.legal)
        if company is not None:
            c = board.company(company)
            kinds = ", ".join(card_label(board, t) for t in TRACK_TYPES if t in c.track_types)
            self.company_info.value = tr(
                "{company}: headquarters {hq}; may build on {kinds}; {left} of {total} trains left in the supply.",
                company=company_html(board, company), hq=html.escape(c.headquarters), kinds=html.escape(kinds),
                left=self.supply.get(company, 0), total=c.trains)
        else:
            self.company_info.value = ""
        if company is None or card is None:
            self.legal_html.value = tr("Choose a company and a track card to see where its train may go.")
        elif self.legal:
            names = ", ".join(html.escape(board.sections[s].name) for s in self.legal)
            self.legal_html.value = tr(
                "<b>{n} legal sections</b> for the {company} with a {card} card (yellow on the map): {names}.",
                n=len(self.legal), company=html.escape(board.company(company).name),
                card=html.escape(card_label(board, card).lower()), names=names)
        else:
            self.legal_html.value = tr(
                "<b>No legal section</b> for the {company} with a {card} card: pick a section to see why.",
                company=html.escape(board.company(company).name), card=html.escape(card_label(board, card).lower()))
        if company is not None and card is not None and sid is not None:
            self.explanation = explain_placement(board, self.trains_on, self.supply, company, sid, card)
            self.checklist.value = checklist_html(self.explanation)
        else:
            self.explanation = None
            missing = [name for name, v in ((tr("a company"), company), (tr("a track card"), card),
                                            (tr("a section"), sid)) if v is None]
            what = html.escape(", ".join(missing))
            self.checklist.value = (f"<div class='railkit-checklist'>"
                                    f"{tr('For the checklist of UP-B2a–f, pick {what}.', what=what)}</div>")
        self.draw_map()

    def draw_map(self) -> None:
        company, card = self.company.value, self.card.value
        self.highlighted = list(self.legal)
        if company is not None and card is not None:
            title = tr("Where may a {company} train go with a {card} card? {n} legal sections",
                       company=self.board.company(company).name, card=card_label(self.board, card).lower(),
                       n=len(self.legal))
        else:
            placed = len(self.history)
            title = (tr("The board: starting trains (UP-S1)") if not placed
                     else tr("The board: starting trains and {n} placed by you", n=placed))
        self.map_view.show(building_map(self.board, self.trains_on, self.highlighted, self.section.value,
                                        title=title))

    # ------------------------------------------------------------------ callbacks: sandbox
    @guarded
    def on_choice(self) -> None:
        if self._quiet:
            return
        self.refresh()
        if self.company.value is not None and self.card.value is not None:
            self.clear_message()

    @guarded
    def on_section(self) -> None:
        if self._quiet:
            return
        self.refresh()
        self.clear_message()

    def _read_choice(self) -> tuple[str, str, str]:
        company, card, sid = self.company.value, self.card.value, self.section.value
        if company is None:
            raise InputError(tr("Pick a company first: whose train do you place?"))
        if card is None:
            raise InputError(tr("Pick a track card first: it sets the track type (UP-B1)."))
        if sid is None:
            raise InputError(tr("Pick a section first: where should the train go?"))
        return company, card, sid

    @guarded
    def on_place(self) -> bool:
        company, card, sid = self._read_choice()
        error = placement_error(self.board, self.trains_on, self.supply, company, sid, card)
        if error is not None:
            self.refresh()  # the checklist shows every failing condition; the board is unchanged
            raise error
        place(self.board, self.trains_on, self.supply, company, sid, card)
        self.history.append((company, sid, card))
        self.refresh()
        self.show_ok(tr("A {company} train now runs on {section}. In a game you would now draw a share "
                        "(UP-B3) and your turn would end (UP-B6).",
                        company=self.board.company(company).name, section=self.board.sections[sid].name))
        return True

    @guarded
    def on_undo(self) -> None:
        if not self.history:
            raise InputError(tr("There is nothing to undo: you have not placed a train yet."))
        company, sid, _card = self.history.pop()
        self.trains_on[sid].remove(company)
        self.supply[company] += 1
        self.refresh()
        self.show_info(tr("The {company} train on {section} is back in the supply.",
                          company=self.board.company(company).name, section=self.board.sections[sid].name))

    @guarded
    def on_reset(self) -> None:
        self.trains_on = copy_trains(self.start_trains)
        self.supply = dict(self.start_supply)
        self.history = []
        self.refresh()
        self.show_info(tr("Back to the starting position: one train on each coloured starting space (UP-S1)."))

    def set_choice(self, company: str | None, card: str | None, section: str | None) -> None:
        """Set the three pickers at once, with one refresh."""
        self._quiet += 1
        try:
            self.company.value = company
            self.card.value = card
            self.section.value = section
        finally:
            self._quiet -= 1
        self.refresh()

    @guarded
    def load_preset(self, key: str) -> PlacementExplanation | None:
        preset = PRESETS_BY_KEY[key]
        trains_on, supply = copy_trains(self.start_trains), dict(self.start_supply)
        history = []
        for company, sid in preset.trains:  # each one checked by the engine, as if built in turn
            card = self.board.sections[sid].track_type
            place(self.board, trains_on, supply, company, sid, card)
            history.append((company, sid, card))
        self.trains_on, self.supply, self.history = trains_on, supply, history
        self.tabs.selected_index = 0
        self.set_choice(preset.company, preset.card, preset.section)
        assert self.explanation is not None
        book = tr("allowed") if preset.rulebook_legal else tr("not allowed")
        engine = tr("allowed") if self.explanation.legal else tr("not allowed")
        self.show_info(tr("{label}. {note} Rulebook: {book}. railkit: {engine}.", label=tr(preset.label),
                          note=tr(preset.note), book=book, engine=engine))
        return self.explanation

    # ------------------------------------------------------------------ exercise
    def set_situation(self, situation: Situation) -> None:
        board = self.board
        self.situation = situation
        self.exercise_checked = False
        self.exercise_result = None
        self.candidate_boxes = [
            widgets.Checkbox(value=False, description=f"{i}. {section_label(board, board.sections[sid])}",
                             indent=False, layout=widgets.Layout(width="auto"))
            for i, sid in enumerate(situation.candidates, 1)
        ]
        self.candidate_box.children = self.candidate_boxes
        company = board.company(situation.company)
        kinds = ", ".join(card_label(board, t) for t in TRACK_TYPES if t in company.track_types)
        note = f"<p>{html.escape(situation.note)}</p>" if situation.note else ""
        self.exercise_intro.value = (
            f"<p><b>{tr('Which placements are legal?')}</b> "
            f"{tr('You play a {card} card and want to place a train of the {company}.', card='<b>' + html.escape(card_label(board, situation.card).lower()) + '</b>', company=company_html(board, situation.company))} "
            f"{tr('Its headquarters is {hq}; it may build on {kinds}; {left} trains are left in its supply.', hq=html.escape(company.headquarters), kinds=html.escape(kinds), left=situation.supply.get(situation.company, 0))}</p>"
            f"{note}<p>{tr('Tick every numbered section where the train may go now (at least one may), then press Check. The map shows the trains already on the board.')}</p>"
        )
        self.exercise_feedback.value = ""
        self._exercise_drawn = False
        if getattr(self, "tabs", None) is not None and self.tabs.selected_index == 1:
            self.draw_exercise_map()

    def draw_exercise_map(self) -> None:
        s = self.situation
        if s is None:
            return
        show = sorted(s.legal, key=s.candidates.index) if self.exercise_checked else []
        title = (tr("Candidates, with the legal ones in yellow") if self.exercise_checked
                 else tr("The numbered sections are the candidates"))
        self.exercise_map.show(building_map(self.board, s.trains_on, highlight=show, numbered=s.candidates,
                                            title=title, highlight_name=tr("legal candidates"),
                                            height=EXERCISE_MAP_HEIGHT, focus=s.candidates))
        self._exercise_drawn = True

    @guarded
    def on_tab(self) -> None:
        if self.tabs.selected_index == 1 and not self._exercise_drawn:
            self.draw_exercise_map()

    @guarded
    def on_new_situation(self) -> Situation:
        situation = random_situation(self.board, self.rng)
        self.set_situation(situation)
        self.draw_exercise_map()
        self.clear_message()
        return situation

    def tick(self, sections: Iterable[str]) -> None:
        """Tick exactly ``sections`` among the candidates (for tests and presets)."""
        wanted = set(sections)
        assert self.situation is not None
        for sid, box in zip(self.situation.candidates, self.candidate_boxes):
            box.value = sid in wanted

    @guarded
    def on_check(self) -> bool:
        s = self.situation
        if s is None:
            raise InputError(tr("Press “New situation” first."))
        ticked = {sid for sid, box in zip(s.candidates, self.candidate_boxes) if box.value}
        if not ticked:
            raise InputError(tr("Tick the sections where you think the train may go (at least one), "
                                "then press Check."))
        result = {sid: (sid in ticked) == (sid in s.legal) for sid in s.candidates}
        all_right = all(result.values())
        if not self.exercise_checked:
            self.exercise_score[1] += 1
            self.exercise_score[0] += int(all_right)
        self.exercise_checked = True
        self.exercise_result = result
        board = self.board
        rows = ""
        for i, sid in enumerate(s.candidates, 1):
            explanation = s.explanation(board, sid)
            yours = tr("legal") if sid in ticked else tr("not legal")
            truth = tr("legal") if explanation.legal else tr("not legal")
            mark = (f"<td class='railkit-right nowrap'>✔ {tr('right')}</td>" if result[sid]
                    else f"<td class='railkit-wrong nowrap'>✘ {tr('wrong')}</td>")
            rows += (f"<tr><td>{i}</td><td class='name'>{html.escape(board.sections[sid].name)}</td>"
                     f"<td class='name nowrap'>{yours}</td><td class='name nowrap'><b>{truth}</b></td>{mark}"
                     f"<td class='name'>{html.escape(why_text(explanation))}</td></tr>")
        self.exercise_feedback.value = (
            f"<table class='railkit-table railkit-answers'><tr><th></th><th class='name'>{tr('section')}</th>"
            f"<th class='name'>{tr('you said')}</th><th class='name'>{tr('the engine says')}</th><th></th>"
            f"<th class='name'>{tr('why (UP-B2a–f)')}</th></tr>{rows}</table>")
        self.score_html.value = tr("Score: {right} of {total} situations right first time.",
                                   right=self.exercise_score[0], total=self.exercise_score[1])
        self.draw_exercise_map()
        if all_right:
            self.show_ok(tr("All right! The table below gives the reason for each section."))
        else:
            wrong = sum(1 for ok in result.values() if not ok)
            self.show_info(tr("Not quite: {n} of {total} sections wrong. The table below explains each one.",
                              n=wrong, total=len(result)))
        return all_right
