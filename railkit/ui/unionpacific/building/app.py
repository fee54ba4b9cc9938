"""The Union Pacific building lesson (``notebooks/up_building.ipynb``, rules UP-B1..UP-B6, UP-B2a–f).

Two tabs and a legend:

* Build — the map (``board_map``). Pick a company and a track card: the sections where its train may
  go light up (``legal_sections``). Pick a section: the six conditions of UP-B2 with pass/fail and the
  engine's sentence for each (``explain_placement``). Place a train (only a legal placement changes
  the board; an illegal one shows the failing rule), undo, reset, and the rulebook examples as
  presets (UP-B2e Billings Northern Lights, UP-B2b Denver Midland); the positions are in ``position``.
* Exercise — “which placements are legal?” (``exercise.ExercisePanel``).

This lesson never decides what is legal.
"""

from __future__ import annotations

import html
import random
from collections.abc import Iterable

import ipywidgets as widgets

from railkit.ui.app import App, InputError, guarded, legend_html
from railkit.ui.autosave import GameKeeper, KeepsState
from railkit.ui.club_files import ClubFile, ClubFilePanel, LessonData, switch
from railkit.ui.figure_view import ROW_MAP, FigureView
from railkit.ui.first_paint import defer_first_show
from railkit.ui.i18n import tr, trn
from railkit.ui.map_clicks import MapClicks
from railkit.ui.records.learner import follow_page_address, greet_learner
from railkit.ui.unionpacific import club_board
from railkit.ui.unionpacific.board_map import building_map
from railkit.ui.unionpacific.building.exercise import ExercisePanel
from railkit.ui.unionpacific.building.position import (
    PRESETS,
    PRESETS_BY_KEY,
    Trains,
    copy_trains,
    place,
)
from railkit.ui.unionpacific.common import (
    LESSON_STYLE,
    TRACK_CARDS,
    card_label,
    checklist_html,
    company_html,
    section_label,
)
from railkit.ui.widgets import choose, html_box, row
from railkit.unionpacific import TRACK_TYPES, PlacementExplanation, explain_placement, legal_sections, placement_error

MAP_HEIGHT = 560
MAP_WIDTH = 820  # on screen, beside the pickers (for placing the city names)


# -- the app ----------------------------------------------------------------------------------
class BuildingApp(KeepsState, App):
    """Map, legal sections, the UP-B2a–f checklist, placing trains, presets and an exercise."""

    title = "Union Pacific: building track"

    def __init__(self, seed: int | None = None, board_file: LessonData | None = None) -> None:
        self.board_file = club_board.lesson_board(board_file)  # a club's own board, or the built-in one
        self.board = club_board.board_of(self.board_file)
        self.rng = random.Random(seed)
        self.start_trains, self.start_supply = club_board.starting_position(self.board)
        self.trains_on: Trains = copy_trains(self.start_trains)
        self.supply: dict[str, int] = dict(self.start_supply)
        self.history: list[tuple[str, str, str]] = []  # (company, section, card) placed by the learner
        self.legal: list[str] = []  # legal sections for the chosen company and card (engine's list)
        self.highlighted: list[str] = []  # what the map lights up now
        self.explanation: PlacementExplanation | None = None  # checklist of the chosen section
        self._quiet = 0  # >0 while several widgets are set at once (one refresh at the end)
        # the trains placed and the choices survive a reload and a language switch (railkit.ui.autosave)
        self.keeper = GameKeeper("up_building")
        super().__init__()
        self.refresh()
        # The learner named once: greeted by name until they place a train.
        greet_learner(self, tr("Pick a company and a track card: the sections where its train may go light up."),
                      use=lambda _name: not self.history)
        self.resume_kept_state()  # the address of a reloaded page (or of the translated one) names the state
        follow_page_address(lambda _found: self.resume_kept_state())  # a pre-rendered page learns it later

    # ------------------------------------------------------------------ building the widgets
    def build(self) -> widgets.Widget:
        # The exercise's first situation is the rulebook's example; on a club's board, a random one.
        self.exercise = ExercisePanel(self.messages, self.board, self.rng)
        club_board.mark_maps(self.exercise.map, self.board_file)  # its note names the club's board
        self.club = ClubFilePanel(self.messages, self.board_file, self.on_club_board)
        self.tabs = widgets.Tab(children=[self._build_sandbox(), self.exercise.widget])
        for i, name in enumerate([tr("Build"), tr("Exercise")]):
            self.tabs.set_title(i, name)
        self.tabs.observe(lambda _c: self.on_tab(), names="selected_index")
        self.legend = widgets.HTML(self._legend_html())
        self.legend.add_class("railkit-legend")
        return widgets.VBox([widgets.HTML(LESSON_STYLE), self.club.banner, self.tabs, self.legend, self.club.widget,
                             self.keeper.widget])

    @guarded
    def on_club_board(self, club: ClubFile | None) -> None:
        switch(self, self.board_file, club, lambda data: BuildingApp.__init__(self, board_file=data))

    def _company_options(self, blank: str) -> list[tuple[str, str | None]]:
        return [(blank, None)] + [(f"{c.name} ({tr(c.colour)})", c.key) for c in self.board.companies]

    def _build_sandbox(self) -> widgets.Widget:
        wide = {"description_width": "110px"}
        # index 0, not value None: the "— pick … —" option shows (value None would leave the box blank)
        self.company = widgets.Dropdown(options=self._company_options(tr("— pick a company —")), index=0,
                                        description=tr("Company"), style=wide,
                                        layout=widgets.Layout(width="430px"))
        self.card = widgets.ToggleButtons(
            options=[(card_label(self.board, c), c) for c in TRACK_CARDS], value=None,
            description=tr("Track card"), style={**wide, "button_width": "118px"},
            tooltips=[tr("Play a {card} card (UP-B1)", card=card_label(self.board, c)) for c in TRACK_CARDS],
        )
        self.section = widgets.Dropdown(options=self._section_options(), index=0, description=tr("Section"),
                                        style=wide, layout=widgets.Layout(width="430px"))
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
        self.card.observe(lambda _c: self.on_card(), names="value")
        self.section.observe(lambda _c: self.on_section(), names="value")
        self.preset_buttons: dict[str, widgets.Button] = {}
        for preset in PRESETS:
            button = widgets.Button(description=tr(preset.label), tooltip=tr(preset.note),
                                    layout=widgets.Layout(width="auto"))
            button.on_click(lambda _b, key=preset.key: self.load_preset(key))
            self.preset_buttons[preset.key] = button
        self.company_info = html_box("railkit-company-info")
        self.legal_html = html_box("railkit-legal")
        self.checklist = html_box("railkit-checklist-box")
        self.map_view = FigureView(ROW_MAP, flex="1 1 620px", min_width="0")
        defer_first_show(self.map_view)  # the page appears without waiting for plotly.js (first_paint)
        self.map_clicks = MapClicks()  # next to the map: the template's script finds it from the plot
        self.map_clicks.on_click(self.on_map_click)
        presets = row([widgets.HTML(f"<b>{tr('Rulebook examples')}:</b>"), *self.preset_buttons.values()])
        presets.layout.display = "none" if self.board_file.club else None  # they name built-in sections
        controls = widgets.VBox([
            self.company, self.company_info, self.card, self.legal_html, self.section,
            row([self.place_button, self.undo_button, self.reset_button]), self.checklist, self.map_clicks.widget,
        ], layout=widgets.Layout(flex="0 0 440px", min_width="0"))
        # The map beside the pickers, so the legal sections stay in view while choosing (wraps below
        # them on a narrow screen).
        return widgets.VBox([
            presets,
            widgets.HBox([controls, self.map_view.widget],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start", grid_gap="10px")),
        ])

    def _legend_html(self) -> str:
        items = [
            (tr("Rulebook examples"), tr("load a position from the rulebooks and judge one placement in it")),
            (tr("Company"), tr("whose train to place; any player may build for any company (UP-B2)")),
            (tr("Track card"), tr("the card played from your hand: it sets the track type, General matches any "
                                  "(UP-B1, UP-B2a)")),
            (tr("Magenta band on the map"), tr("the sections where the company's train may go with that card")),
            (tr("Section"), tr("click a section on the map, or pick it from the list (✔ marks the legal ones; "
                               "in JupyterLab only the list works). The checklist shows UP-B2a–f for it, "
                               "and the map shows it as a purple band")),
            (tr("Place a train"), tr("puts the train on the section if the engine allows it; otherwise the "
                                     "message names the rule that fails and nothing changes")),
            (tr("Undo / Reset board"), tr("take back your last train / go back to the starting trains (UP-S1)")),
            (tr("Map"), tr("lines are sections, coloured and dashed by track type; small circles are empty "
                           "spaces, open shapes starting spaces, filled shapes trains (each company its own shape "
                           "and colour, see the map's legend), stars headquarters, dark dots cities. Drag to pan, "
                           "scroll to zoom, hover for names. The map is a reconstruction: see the rulings page")),
            (tr("Exercise"), tr("tick every candidate section where the train may go, then Check; "
                                "New situation deals another")),
        ]
        return legend_html(items)

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
            choose(self.section, keep)
        finally:
            self._quiet -= 1

    # ------------------------------------------------------------------ showing
    def refresh(self) -> None:
        """Recompute the legal sections and the checklist from the engine; redraw the map; keep the state."""
        self.keep_state()
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
            self.legal_html.value = trn(
                "<b>{n} legal section</b> for the {company} with a {card} card (magenta on the map, click it): {names}.",
                "<b>{n} legal sections</b> for the {company} with a {card} card (magenta on the map, click one): {names}.",
                len(self.legal), company=html.escape(board.company(company).name),
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
            title = trn("Where may the {company} build with a {card} card? {n} legal section",
                        "Where may the {company} build with a {card} card? {n} legal sections", len(self.legal),
                        company=self.board.company(company).name, card=card_label(self.board, card).lower())
        else:
            placed = len(self.history)
            title = (tr("The board: starting trains (UP-S1)") if not placed
                     else trn("The board: starting trains and {n} placed by you",
                         "The board: starting trains and {n} placed by you", placed))
        self.map_view.show(club_board.mark_map(building_map(
            self.board, self.trains_on, self.highlighted, self.section.value, title=title, height=MAP_HEIGHT,
            width=MAP_WIDTH, clickable=True), self.board_file))

    # ------------------------------------------------------------------ callbacks: sandbox
    @guarded
    def on_choice(self) -> None:
        if self._quiet:
            return
        self.refresh()
        if self.company.value is not None and self.card.value is not None:
            self.clear_message()

    def on_card(self) -> None:
        """A track card picked: its legal sections show, and the keyboard goes on to the section list."""
        self.on_choice()
        if not self._quiet and self.company.value is not None and self.card.value is not None:
            self.focus_next(".railkit-section select")

    @guarded
    def on_map_click(self, section_id: str) -> None:
        """A section clicked on the map: chosen as if picked from the list."""
        if section_id not in self.board.sections:
            return
        self.section.value = section_id  # on_section refreshes the checklist and the map

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
        self.show_ok(tr("One {company} train now runs on {section}. In a game you would now draw a share "
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

    # ------------------------------------------------------------------ kept state (railkit.ui.autosave)
    def lesson_state(self) -> dict[str, object] | None:
        if self.board_file.club:
            return None  # a club's board is not in the next page; its sections would not be found
        choice = [self.company.value, self.card.value, self.section.value]
        if not self.history and choice == [None, None, None]:
            return None
        return {"placed": [list(item) for item in self.history], "choice": choice}

    def restore_state(self, state: dict[str, object]) -> str:
        """The trains placed, each checked by the engine again (UP-B2), and the three choices."""
        placed, choice = state.get("placed"), state.get("choice")
        if not isinstance(placed, list) or not isinstance(choice, list) or len(choice) != 3:
            raise ValueError("not a building lesson's state")
        trains_on, supply = copy_trains(self.start_trains), dict(self.start_supply)
        history: list[tuple[str, str, str]] = []
        for item in placed[:200]:
            company, sid, card = (str(v) for v in item)
            if sid not in self.board.sections or card not in TRACK_CARDS:
                raise ValueError(f"no section {sid!r} or card {card!r} on this board")
            place(self.board, trains_on, supply, company, sid, card)
            history.append((company, sid, card))
        picked = [v if isinstance(v, str) else None for v in choice]
        self.trains_on, self.supply, self.history = trains_on, supply, history
        self.set_choice(picked[0] if picked[0] in {c.key for c in self.board.companies} else None,
                        picked[1] if picked[1] in TRACK_CARDS else None,
                        picked[2] if picked[2] in self.board.sections else None)
        return (tr("The board: starting trains and {n} placed by you", n=len(history)) if history
                else tr("The board: starting trains (UP-S1)"))

    def set_choice(self, company: str | None, card: str | None, section: str | None) -> None:
        """Set the three pickers at once, with one refresh."""
        self._quiet += 1
        try:
            choose(self.company, company)
            self.card.value = card
            choose(self.section, section)
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

    # ------------------------------------------------------------------ the exercise tab
    @guarded
    def on_tab(self) -> None:
        if self.tabs.selected_index == 1:
            self.exercise.show_tab()
