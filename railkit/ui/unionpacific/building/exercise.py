"""The building lesson's exercise, “which placements are legal?” (UP-B2a–f), as a panel.

A situation (``position.Situation``): a position, a company, a track card and a few numbered
candidate sections on the map. The learner ticks the legal ones; Check compares them with the
engine's ``legal_sections`` and explains each candidate with ``explain_placement``.
"""

from __future__ import annotations

import html
import random
from collections.abc import Iterable

import ipywidgets as widgets

from railkit.ui.app import InputError, Messages, Panel, guarded
from railkit.ui.figure_view import ROW_MAP, FigureView
from railkit.ui.i18n import tr, trn
from railkit.ui.map_clicks import MapClicks
from railkit.ui.records.lesson_record import ExerciseRecord
from railkit.ui.unionpacific.board_map import building_map
from railkit.ui.unionpacific.building.position import Situation, random_situation, rulebook_situation, why_text
from railkit.ui.unionpacific.common import card_label, company_html, section_label
from railkit.ui.widgets import button, html_box, row
from railkit.unionpacific import TRACK_TYPES, Board

EXERCISE_MAP_HEIGHT = 520
EXERCISE_MAP_WIDTH = 680  # on screen, beside the candidates (for placing the city names)


class ExercisePanel(Panel):
    """The exercise tab. ``score`` is [situations right first time, situations checked]."""

    def __init__(self, messages: Messages, board: Board, rng: random.Random) -> None:
        super().__init__(messages)
        self.board = board
        self.rng = rng
        self.situation: Situation | None = None
        self.checked = False
        self.result: dict[str, bool] | None = None  # section -> the learner was right
        self.score = [0, 0]
        self.record = ExerciseRecord("up_building", "legal_sections", ("UP-B2",))
        self.drawn = False  # the map shows the situation on screen
        self.intro = html_box("railkit-exercise-situation")
        self.candidate_boxes: list[widgets.Checkbox] = []
        self.candidate_box = widgets.VBox([])
        self.check_button = button(tr("Check"), "railkit-check", "check", "success",
                                   tr("Compare your ticks with the engine's verdicts"), None)
        self.new_button = button(tr("New situation"), "", "random", "info",
                                 tr("Deal another position, company and card"), None)
        self.check_button.on_click(lambda _b: self.on_check())
        self.new_button.on_click(lambda _b: self.on_new_situation())
        self.feedback = html_box("railkit-exercise-feedback")
        self.score_html = html_box()
        self.map = FigureView(ROW_MAP, flex="1 1 600px", min_width="0")
        self.map_clicks = MapClicks()  # a click on a numbered section ticks or unticks it
        self.map_clicks.on_click(self.on_map_click)
        answer = widgets.VBox([self.candidate_box, row([self.check_button, self.new_button]), self.score_html,
                               self.map_clicks.widget], layout=widgets.Layout(flex="0 1 380px", min_width="0"))
        self.widget = widgets.VBox([
            self.intro,
            widgets.HBox([answer, self.map.widget],
                         layout=widgets.Layout(align_items="flex-start", flex_flow="row wrap", grid_gap="10px")),
            self.feedback,
        ])
        self.set_situation(rulebook_situation(board))

    def set_situation(self, situation: Situation) -> None:
        board = self.board
        self.situation = situation
        self.checked = False
        self.record.question()
        self.result = None
        self.candidate_boxes = [
            widgets.Checkbox(value=False, description=f"{i}. {section_label(board, board.sections[sid])}",
                             indent=False, layout=widgets.Layout(width="auto"))
            for i, sid in enumerate(situation.candidates, 1)
        ]
        self.candidate_box.children = self.candidate_boxes
        company = board.company(situation.company)
        kinds = ", ".join(card_label(board, t) for t in TRACK_TYPES if t in company.track_types)
        note = f"<p>{html.escape(situation.note)}</p>" if situation.note else ""
        card = "<b>" + html.escape(card_label(board, situation.card).lower()) + "</b>"
        play = tr("You play a {card} card and want to place a train of the {company}.", card=card,
                  company=company_html(board, situation.company))
        facts = trn("Its headquarters is {hq}; it may build on {kinds}; {n} train is left in its supply.",
                    "Its headquarters is {hq}; it may build on {kinds}; {n} trains are left in its supply.",
                    situation.supply.get(situation.company, 0), hq=html.escape(company.headquarters),
                    kinds=html.escape(kinds))
        task = tr("Tick every numbered section where the train may go now (at least one may) — in the list "
                  "or by clicking its number on the map — then press Check. The map shows the trains already "
                  "on the board.")
        self.intro.value = f"<p><b>{tr('Which placements are legal?')}</b> {play} {facts}</p>{note}<p>{task}</p>"
        self.feedback.value = ""
        self.drawn = False

    def draw_map(self) -> None:
        s = self.situation
        if s is None:
            return
        show = sorted(s.legal, key=s.candidates.index) if self.checked else []
        title = (tr("Candidates, with the legal ones in magenta") if self.checked
                 else tr("The numbered sections are the candidates"))
        self.map.show(building_map(self.board, s.trains_on, highlight=show, numbered=s.candidates, title=title,
                                   highlight_name=tr("legal candidates"), height=EXERCISE_MAP_HEIGHT,
                                   width=EXERCISE_MAP_WIDTH, focus=s.candidates))
        self.drawn = True

    def show_tab(self) -> None:
        """The tab is on screen: draw the map if the situation is not drawn yet."""
        if not self.drawn:
            self.draw_map()

    @guarded
    def on_new_situation(self) -> Situation:
        situation = random_situation(self.board, self.rng)
        self.set_situation(situation)
        self.draw_map()
        self.clear_message()
        return situation

    @guarded
    def on_map_click(self, section_id: str) -> None:
        """A numbered section clicked on the map: its box is ticked (or unticked)."""
        if self.situation is None or section_id not in self.situation.candidates:
            return
        box = self.candidate_boxes[self.situation.candidates.index(section_id)]
        box.value = not box.value

    def tick(self, sections: Iterable[str]) -> None:
        """Tick exactly ``sections`` among the candidates (for tests)."""
        wanted = set(sections)
        assert self.situation is not None
        for sid, box in zip(self.situation.candidates, self.candidate_boxes, strict=True):
            box.value = sid in wanted

    @guarded
    def on_check(self) -> bool:
        s = self.situation
        if s is None:
            raise InputError(tr("Press “New situation” first."))
        ticked = {sid for sid, box in zip(s.candidates, self.candidate_boxes, strict=True) if box.value}
        if not ticked:
            raise InputError(tr("Tick the sections where you think the train may go (at least one), "
                                "then press Check."))
        result = {sid: (sid in ticked) == (sid in s.legal) for sid in s.candidates}
        all_right = all(result.values())
        broken = [c.rule for sid in s.candidates if not result[sid]  # the conditions the wrong sections fail
                  for c in (s.explanation(self.board, sid).failed or ())] or ["UP-B2"]
        self.record.answer(all_right, broken)
        if not self.checked:  # the first check of a situation counts for the score
            self.score[1] += 1
            self.score[0] += int(all_right)
        self.checked = True
        self.result = result
        rows = ""
        for i, sid in enumerate(s.candidates, 1):
            explanation = s.explanation(self.board, sid)
            yours = tr("legal") if sid in ticked else tr("not legal")
            truth = tr("legal") if explanation.legal else tr("not legal")
            mark = (f"<td class='railkit-right nowrap'>✔ {tr('right')}</td>" if result[sid]
                    else f"<td class='railkit-wrong nowrap'>✘ {tr('wrong')}</td>")
            rows += (f"<tr><td>{i}</td><td class='name'>{html.escape(self.board.sections[sid].name)}</td>"
                     f"<td class='name nowrap'>{yours}</td><td class='name nowrap'><b>{truth}</b></td>{mark}"
                     f"<td class='name'>{html.escape(why_text(explanation))}</td></tr>")
        self.feedback.value = (
            f"<table class='railkit-table railkit-answers'><tr><th>{tr('number')}</th><th class='name'>{tr('section')}</th>"
            f"<th class='name'>{tr('you said')}</th><th class='name'>{tr('the engine says')}</th><th>{tr('verdict')}</th>"
            f"<th class='name'>{tr('why (UP-B2a–f)')}</th></tr>{rows}</table>")
        self.score_html.value = tr("Score: {right} of {total} situations right first time.",
                                   right=self.score[0], total=self.score[1])
        self.draw_map()
        if all_right:
            self.show_ok(tr("All right! The table below gives the reason for each section."))
        else:
            wrong = sum(1 for ok in result.values() if not ok)
            self.show_info(trn("Not quite: {n} of {total} sections wrong. The table below explains each one.",
                               "Not quite: {n} of {total} sections wrong. The table below explains each one.", wrong,
                               total=len(result)))
        return all_right
