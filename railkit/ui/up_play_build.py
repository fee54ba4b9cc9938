"""Building in the Union Pacific game app (``railkit.ui.up_play``, UP-B1, UP-B2): the track card, company
and section pickers, the map and the UP-B2a–f checklist.

The pickers offer what the engine's ``legal_actions`` allow: ✔ marks the companies with a legal section
for the chosen card and lists the legal sections first; the map lights them up (yellow) with the chosen
section (blue), and the checklist is the engine's ``explain_placement`` for the chosen section.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Callable, Mapping

import ipywidgets as widgets

from railkit.ui.app import InputError, guarded
from railkit.ui.building import building_map, checklist_html
from railkit.ui.i18n import tr
from railkit.ui.up_common import card_label, section_label
from railkit.ui.up_play_moves import choose, set_options
from railkit.ui.up_play_view import set_value
from railkit.unionpacific import Build

MAP_HEIGHT = 560


class BuildControls:
    """The build pickers and the map of ``PlayApp``.

    Uses the app's ``game``, ``board``, ``viewer()``, ``_controls_visible()``, ``_acting_or_error()``,
    ``_human_act()``, ``_report()``, ``_quiet`` and the action ``mode``; owns ``legal`` (the engine's legal
    sections for the chosen card and company), ``_legal_builds`` (the legal builds of this move) and
    ``_map_key`` (what the map shows now).
    """

    legal: list[str]
    _legal_builds: list[Build]
    _map_key: Any

    def _build_build_box(self, wide: Mapping[str, str], full: Callable[[], widgets.Layout]) -> widgets.Widget:
        self.card = widgets.ToggleButtons(options=[], value=None, description=tr("Track card"),
                                          style={**wide, "button_width": "auto"})
        self.card.add_class("railkit-card")
        self.company = widgets.Dropdown(options=[], value=None, description=tr("Company"), style=wide, layout=full())
        self.company.add_class("railkit-company")
        self.section = widgets.Dropdown(options=[], value=None, description=tr("Section"), style=wide, layout=full())
        self.section.add_class("railkit-section")
        for w in (self.card, self.company, self.section):
            w.observe(lambda _c: self.on_choice(), names="value")
        self.build_hint = widgets.HTML("")
        self.build_hint.add_class("railkit-legal")
        self.build_button = widgets.Button(description=tr("Build"), icon="train", button_style="primary",
                                           tooltip=tr("Play the card and place the train (UP-B1, UP-B2)"))
        self.build_button.add_class("railkit-build")
        self.build_button.on_click(lambda _b: self.on_build())
        self.checklist = widgets.HTML("")
        self.checklist.add_class("railkit-checklist-box")
        return widgets.VBox([self.card, self.company, self.build_hint, self.section, self.build_button,
                             self.checklist])

    def _fill_build(self, builds: list[Build], track: Mapping[str, int], fresh: bool) -> None:
        """A new view of the action step: the track cards in hand; a new move chooses nothing yet."""
        board = self.board
        set_options(self.card, [(card_label(board, c) + (f" ×{n}" if n > 1 else ""), c)
                                for c, n in track.items()], fresh)
        self.card.tooltips = [tr("Play a {card} card (UP-B1)", card=card_label(board, c)) for c in track]
        if fresh:
            choose(self.company, None)
            choose(self.section, None)
        self._legal_builds = builds

    def _refresh_build(self) -> None:
        """Company marks, section list and checklist for the chosen card/company/section."""
        board, builds = self.board, self._legal_builds
        card, company = self.card.value, self.company.value
        # legal placements per company with the chosen card (with any card while none is chosen)
        per_company = Counter(b.company for b in builds if card is None or b.card == card)
        options: list[tuple[str, Any]] = [(tr("— pick a company —"), None)]
        for c in board.companies:
            n = per_company[c.key]
            mark = "✔ " if n else ""
            suffix = tr(" — {n} legal sections", n=n) if card is not None and n else ""
            options.append((f"{mark}{c.name} ({tr(c.colour)}){suffix}", c.key))
        self._quiet += 1
        try:
            set_options(self.company, options, False)
            legal = [b.section for b in builds if b.card == card and b.company == company] if (
                card is not None and company is not None) else []
            ordered = sorted(board.sections.values(), key=lambda s: (s.name, s.track_type))
            legal_set = set(legal)
            first = [s for s in ordered if s.id in legal_set]
            rest = [s for s in ordered if s.id not in legal_set]
            sections = [(tr("— pick a section —"), None)] + [
                ("✔ " + section_label(board, s), s.id) for s in first] + [
                (section_label(board, s), s.id) for s in rest]
            set_options(self.section, sections, False)
        finally:
            self._quiet -= 1
        self.legal = legal
        if not builds:
            hint = tr("None of your track cards can place a train anywhere now: invest instead (UP-T3).")
        elif card is None:
            hint = tr("Choose a track card: it sets the track type (UP-B1). Any company may get the train (UP-B2).")
        elif company is None:
            n = sum(1 for b in builds if b.card == card)
            hint = (tr("With this card, ✔ companies have legal sections ({n} placements in all).", n=n) if n
                    else tr("This card fits no legal section for any company: pick another card."))
        elif legal:
            hint = tr("<b>{n} legal sections</b> (yellow on the map, ✔ first in the list).", n=len(legal))
        else:
            hint = tr("<b>No legal section</b> for this company with this card: pick a section to see why.")
        set_value(self.build_hint, hint)
        section = self.section.value
        if card is not None and company is not None and section is not None:
            set_value(self.checklist, checklist_html(self.game.explain_placement(company, section, card)))
        else:
            set_value(self.checklist, "")

    def _draw_map(self, v: Mapping[str, Any]) -> None:
        """The board; while the learner builds, the legal sections for the chosen card and company
        (yellow) and the chosen section (blue)."""
        trains = v["trains_on"]
        building = self._controls_visible() and v["phase"] == "action" and self.mode.value == "build"
        card, company, section = self.card.value, self.company.value, self.section.value
        chosen = building and card is not None and company is not None
        highlight = list(self.legal) if chosen else []
        selected = section if building else None
        if chosen:
            title = tr("{company} with a {card} card: {n} legal sections",
                       company=self.board.company(company).name, card=card_label(self.board, card).lower(),
                       n=len(highlight))
        elif self.game.is_over:
            title = tr("The board at the end of the game")
        else:
            title = tr("The board, turn {n}", n=v["turn"]) if v["turn"] else tr("The board: starting trains (UP-S1)")
        key = (json.dumps(trains, sort_keys=True), tuple(highlight), selected, title)
        if key == self._map_key:
            return
        self._map_key = key
        self.map_view.show(building_map(self.board, trains, highlight, selected, title=title,
                                        highlight_name=tr("legal sections"), height=MAP_HEIGHT))

    @guarded
    def on_choice(self) -> None:
        if self._quiet or self.game is None or not self._controls_visible():
            return
        v = self.game.view(self.viewer())
        self._refresh_build()
        self._draw_map(v)

    @guarded
    def on_build(self) -> bool:
        player = self._acting_or_error()
        card, company, section = self.card.value, self.company.value, self.section.value
        if card is None:
            raise InputError(tr("Pick a track card first: it sets the track type (UP-B1)."))
        if company is None:
            raise InputError(tr("Pick a company: whose train do you place? (UP-B2)"))
        if section is None:
            raise InputError(tr("Pick a section: where should the train go? (UP-B2)"))
        self._report(player, self._human_act(Build(player, card, company, section)))
        return True
