"""Building in the play lesson (UP-B1, UP-B2): the track card, company and section pickers, the UP-B2a–f
checklist and the map, as one panel.

The pickers offer what the engine's ``legal_actions`` allow: ✔ marks the companies with a legal section
for the chosen card and lists the legal sections first; the map lights them up (magenta) with the chosen
section (purple); a click on a section of the map chooses it (``map_clicks``, Voila only), and the
checklist is the engine's ``explain_placement`` for the chosen section. The map
is redrawn only when what it shows has changed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from railkit.ui.app import InputError, Messages, Panel, guarded
from railkit.ui.figure_view import ROW_MAP, FigureView
from railkit.ui.i18n import tr, trn
from railkit.ui.map_clicks import MapClicks
from railkit.ui.unionpacific.board_map import building_map
from railkit.ui.unionpacific.common import card_label, checklist_html, section_label
from railkit.ui.unionpacific.play.screen import Screen
from railkit.ui.widgets import button, choose, html_box, set_options, set_value
from railkit.unionpacific import Board, Build

MAP_HEIGHT = 560
MAP_WIDTH = 820  # on screen, beside the build controls (``screen.play_columns``), for placing city names
WIDE = {"description_width": "110px"}


class BuildPanel(Panel):
    """The build pickers, checklist and map. ``act(make)`` is the app's way to make a move: it calls
    ``make(player)`` for the action. ``legal`` is the engine's legal sections for the chosen card and
    company; ``building`` is whether the learner has chosen to build (mode “build”), not invest or pass."""

    def __init__(self, messages: Messages, board: Board, act: Callable[[Callable[[str], Any]], bool | None]) -> None:
        super().__init__(messages)
        self.board = board
        self.act = act
        self.legal: list[str] = []
        self.building = False
        self.screen: Screen | None = None
        self._builds: list[Build] = []  # the legal builds of this move
        self._map_key: Any = None  # what the map shows now
        self._quiet = 0  # >0 while the panel itself sets pickers: their callbacks do nothing
        self.card = widgets.ToggleButtons(options=[], value=None, description=tr("Track card"),
                                          style={**WIDE, "button_width": "auto"})
        self.card.add_class("railkit-card")
        self.company = widgets.Dropdown(options=[], value=None, description=tr("Company"), style=WIDE,
                                        layout=widgets.Layout(width="470px"))
        self.company.add_class("railkit-company")
        self.section = widgets.Dropdown(options=[], value=None, description=tr("Section"), style=WIDE,
                                        layout=widgets.Layout(width="470px"))
        self.section.add_class("railkit-section")
        for w in (self.card, self.company, self.section):
            w.observe(lambda _c: self.on_choice(), names="value")
        self.hint = html_box("railkit-legal")
        self.build_button = button(tr("Build"), "railkit-build", "train", "primary",
                                   tr("Play the card and place the train (UP-B1, UP-B2)"), None)
        self.build_button.on_click(lambda _b: self.on_build())
        self.checklist = html_box("railkit-checklist-box")
        self.map_view = FigureView(ROW_MAP)  # fixed size: it may sit in a row beside the controls
        self.map_clicks = MapClicks()
        self.map_clicks.on_click(self.on_map_click)
        self.widget = widgets.VBox([self.card, self.company, self.hint, self.section, self.build_button,
                                    self.checklist, self.map_clicks.widget])

    # -- filling --------------------------------------------------------------------------------
    def fill(self, builds: list[Build], track: Mapping[str, int], fresh: bool) -> None:
        """A new view of the action step: the track cards in hand; a new move chooses nothing yet."""
        board = self.board
        self._quiet += 1
        try:
            set_options(self.card, [(card_label(board, c) + (f" ×{n}" if n > 1 else ""), c)
                                    for c, n in track.items()], fresh)
            self.card.tooltips = [tr("Play a {card} card (UP-B1)", card=card_label(board, c)) for c in track]
            if fresh:
                choose(self.company, None)
                choose(self.section, None)
        finally:
            self._quiet -= 1
        self._builds = builds

    def refresh(self, screen: Screen, building: bool) -> None:
        """In the action step: company marks, section list, hint and checklist for the chosen card, company
        and section. Then the map (``building``: the learner has chosen to build, not invest or pass)."""
        self.screen = screen
        self.building = building
        if screen.may_act and screen.phase == "action":
            self._refresh_pickers(screen)
        self.draw_map(screen)

    def _refresh_pickers(self, screen: Screen) -> None:
        board, builds = self.board, self._builds
        card, company = self.card.value, self.company.value
        # legal placements per company with the chosen card (with any card while none is chosen)
        per_company = Counter(b.company for b in builds if card is None or b.card == card)
        options: list[tuple[str, Any]] = [(tr("— pick a company —"), None)]
        for c in board.companies:
            n = per_company[c.key]
            suffix = trn(" — {n} legal section", " — {n} legal sections", n) if card is not None and n else ""
            options.append((f"{'✔ ' if n else ''}{c.name} ({tr(c.colour)}){suffix}", c.key))
        legal = [b.section for b in builds if b.card == card and b.company == company] if (
            card is not None and company is not None) else []
        ordered = sorted(board.sections.values(), key=lambda s: (s.name, s.track_type))
        legal_set = set(legal)
        sections = [(tr("— pick a section —"), None)] + [
            ("✔ " + section_label(board, s), s.id) for s in ordered if s.id in legal_set] + [
            (section_label(board, s), s.id) for s in ordered if s.id not in legal_set]
        self._quiet += 1
        try:
            set_options(self.company, options, False)
            set_options(self.section, sections, False)
        finally:
            self._quiet -= 1
        self.legal = legal
        company = self.company.value
        if not builds:
            hint = tr("None of your track cards can place a train anywhere now: invest instead (UP-T3).")
        elif card is None:
            hint = tr("Choose a track card: it sets the track type (UP-B1). Any company may get the train (UP-B2).")
        elif company is None:
            n = sum(1 for b in builds if b.card == card)
            hint = (trn("With this card, ✔ companies have legal sections ({n} placement in all).",
                         "With this card, ✔ companies have legal sections ({n} placements in all).", n) if n
                    else tr("This card fits no legal section for any company: pick another card."))
        elif legal:
            hint = trn("<b>{n} legal section</b> (magenta on the map: click it, or pick it ✔ in the list).",
                       "<b>{n} legal sections</b> (magenta on the map: click one, or pick it ✔ in the list).", len(legal))
        else:
            hint = tr("<b>No legal section</b> for this company with this card: pick a section to see why.")
        set_value(self.hint, hint)
        section = self.section.value
        if card is not None and company is not None and section is not None:
            set_value(self.checklist, checklist_html(screen.game.explain_placement(company, section, card)))
        else:
            set_value(self.checklist, "")

    def draw_map(self, screen: Screen) -> None:
        """The board; while the learner builds, the legal sections for the chosen card and company
        (magenta) and the chosen section (purple); then the sections answer clicks."""
        v = screen.view
        trains = v.trains_on
        building = self.building and screen.may_act and screen.phase == "action"
        card, company, section = self.card.value, self.company.value, self.section.value
        chosen = building and card is not None and company is not None
        highlight = list(self.legal) if chosen else []
        selected = section if building else None
        if chosen:
            title = trn("{company} with a {card} card: {n} legal section", "{company} with a {card} card: {n} legal sections",
                        len(highlight), company=self.board.company(company).name, card=card_label(self.board, card).lower())
        elif screen.game.is_over:
            title = tr("The board at the end of the game")
        else:
            title = tr("The board, turn {n}", n=v.turn_number) if v.turn_number else tr("The board: starting trains (UP-S1)")
        key = (json.dumps(trains, sort_keys=True), tuple(highlight), selected, title, building)
        if key == self._map_key:
            return
        self._map_key = key
        self.map_view.show(building_map(self.board, trains, highlight, selected, title=title,
                                        highlight_name=tr("legal sections"), height=MAP_HEIGHT, width=MAP_WIDTH,
                                        clickable=building))

    # -- callbacks ------------------------------------------------------------------------------
    @guarded
    def on_choice(self) -> None:
        if self._quiet or self.screen is None or not self.screen.may_act:
            return
        self.refresh(self.screen, self.building)

    @guarded
    def on_map_click(self, section_id: str) -> None:
        """A section clicked on the map while building: chosen as if picked from the list."""
        if self.screen is None or not self.building or section_id not in self.board.sections:
            return
        self.section.value = section_id  # on_choice refreshes the checklist and the map

    def on_build(self) -> bool | None:
        return self.act(self._build_action)

    def _build_action(self, player: str) -> Build:
        card, company, section = self.card.value, self.company.value, self.section.value
        if card is None:
            raise InputError(tr("Pick a track card first: it sets the track type (UP-B1)."))
        if company is None:
            raise InputError(tr("Pick a company: whose train do you place? (UP-B2)"))
        if section is None:
            raise InputError(tr("Pick a section: where should the train go? (UP-B2)"))
        return Build(player, card, company, section)
