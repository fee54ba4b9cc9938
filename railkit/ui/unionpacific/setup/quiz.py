"""The setup lesson's exercise: questions about the share deck (UP-S7, UP-S7-FI, UP-V1, UP-V2), answered
from the engine's ``deck_layout`` and checked by the panel.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass

import ipywidgets as widgets

from railkit.ui.app import InputError, Messages, Panel, Score, guarded, parse_whole, verdict_html
from railkit.ui.i18n import tr, trn
from railkit.ui.records.lesson_record import ExerciseRecord
from railkit.ui.unionpacific.common import DECKS, option_name
from railkit.ui.unionpacific.setup.deck import cards_above_dividend, layout, piles_table_html, safe_bottom
from railkit.ui.widgets import button, html_box, row, submit_on_enter
from railkit.unionpacific import Pile

MIN_PLAYERS, MAX_PLAYERS = 2, 6


# -- the exercise ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Question:
    deck: str
    safe_round: bool
    players: int
    kind: str  # "yes_no" or "number"
    text: str
    answer: int | bool
    explanation: str
    piles: tuple[Pile, ...] = ()
    topic: str = ""  # make_question's kind: the exercise's name in the record of learning


def _ordinal(k: int) -> str:
    return {1: tr("first"), 2: tr("second"), 3: tr("third"), 4: tr("fourth")}[k]


def make_question(kind: str, deck: str, players: int, safe_round: bool = False, k: int = 1) -> Question:
    """``kind``: "first_k" (can a dividend be among the first k cards?), "above" (cards above the
    earliest possible k-th dividend), "bottom" (cards at the bottom that never hold a dividend)."""
    piles = layout(deck, players, safe_round)
    where = trn("With {option} and {n} player", "With {option} and {n} players", players,
                option=option_name(deck, safe_round, in_sentence=True))
    if kind == "first_k":
        earliest = cards_above_dividend(piles, 1) + 1
        possible = earliest <= k
        text = trn("{where}: can a dividend card be the first card drawn?",
                   "{where}: can a dividend card be among the first {k} cards drawn?", k, where=where, k=k)
        if possible:
            why = trn("The first pile holding a dividend card starts at card {p}, so a dividend card can be the "
                      "first card.", "The first pile holding a dividend card starts at card {p}, so a dividend card can "
                      "be among the first {k}.", k, p=earliest, k=k)
        else:
            why = trn("The first pile holding a dividend card starts at card {p}, so the first card cannot be a "
                      "dividend card.", "The first pile holding a dividend card starts at card {p}, so none of the "
                      "first {k} cards can be a dividend card.", k, p=earliest, k=k)
        return Question(deck, safe_round, players, "yes_no", text, possible, why, piles, kind)
    if kind == "above":
        answer = cards_above_dividend(piles, k)
        text = tr("{where}: how many cards lie above the earliest position the {nth} dividend card can have?",
                  where=where, nth=_ordinal(k))
        why = tr("At the earliest, the {nth} dividend card is card {p}, so {a} cards lie above it.",
                 nth=_ordinal(k), p=answer + 1, a=answer)
        return Question(deck, safe_round, players, "number", text, answer, why, piles, kind)
    if kind == "bottom":
        answer = safe_bottom(piles)
        text = tr("{where}: how many cards at the bottom of the deck can never be a dividend card?", where=where)
        why = tr("Below the last pile that holds a dividend card lie {a} cards.", a=answer)
        return Question(deck, safe_round, players, "number", text, answer, why, piles, kind)
    raise ValueError(f"unknown question kind {kind!r}")


def random_question(rng: random.Random) -> Question:
    deck = rng.choice(DECKS)
    players = rng.randint(MIN_PLAYERS, MAX_PLAYERS)
    safe = rng.random() < 0.25
    kind = rng.choice(("first_k", "above", "above", "bottom"))
    if kind == "first_k":
        return make_question(kind, deck, players, safe, k=rng.choice((6, 7, 10, 24, 25)))
    if kind == "above":
        return make_question(kind, deck, players, safe, k=rng.choice((1, 2, 2, 3)))
    return make_question(kind, deck, players, safe)



class QuizPanel(Panel):
    """The exercise tab: one question at a time; ``score`` counts the first check of each question."""

    def __init__(self, messages: Messages, rng: random.Random) -> None:
        super().__init__(messages)
        self.rng = rng
        self.question: Question | None = None
        self.question_right: bool | None = None
        self.score = Score()
        self.record = ExerciseRecord("up_setup", "first_k", ("UP-S7",))  # the share deck's piles
        self.question_html = html_box("railkit-question")
        self.yes_no = widgets.ToggleButtons(options=[(tr("Yes"), True), (tr("No"), False)], value=None,
                                            description="", style={"button_width": "90px"})
        self.number = widgets.Text(value="", placeholder=tr("a whole number"), description=tr("Your answer"),
                                   style={"description_width": "110px"}, layout=widgets.Layout(width="260px"))
        self.check_button = button(tr("Check"), "railkit-check", "check", "success", width=None)
        self.new_question_button = button(tr("New question"), "", "random", "info", width=None)
        self.check_button.on_click(lambda _b: self.on_check())
        submit_on_enter(self.number, self.on_check)
        self.new_question_button.on_click(lambda _b: self.on_new_question())
        self.answer_html = html_box("railkit-answer")
        self.score_html = html_box()
        self.widget = widgets.VBox([
            self.question_html, self.yes_no, self.number,
            row([self.check_button, self.new_question_button, self.score_html]),
            self.answer_html,
        ])
        self.set_question(make_question("first_k", "standard", 4, k=6))

    def set_question(self, question: Question) -> None:
        self.question = question
        self.score.next_question()
        self.record.question(question.topic or None)
        self.question_right = None
        self.question_html.value = f"<p><b>{html.escape(question.text)}</b></p>"
        self.yes_no.value = None
        self.number.value = ""
        self.yes_no.layout.display = "" if question.kind == "yes_no" else "none"
        self.number.layout.display = "" if question.kind == "number" else "none"
        self.answer_html.value = ""

    @guarded
    def on_new_question(self) -> Question:
        question = random_question(self.rng)
        self.set_question(question)
        self.clear_message()
        return question

    @guarded
    def on_check(self) -> bool:
        q = self.question
        if q is None:
            raise InputError(tr("Press “New question” first."))
        if q.kind == "yes_no":
            if self.yes_no.value is None:
                raise InputError(tr("Choose Yes or No, then press Check."))
            given: int | bool = bool(self.yes_no.value)
            shown = tr("Yes") if given else tr("No")
            right_text = tr("Yes") if q.answer else tr("No")
        else:
            given = parse_whole(self.number.value, tr("Your answer"), minimum=0)
            shown, right_text = str(given), str(q.answer)
        right = given == q.answer
        self.score.record(right)
        self.record.answer(right)
        self.question_right = right
        answered = tr("You answered {given}; the answer is {answer}.", given=html.escape(shown),
                      answer=html.escape(right_text))
        self.answer_html.value = (f"<p>{answered} "
                                  f"{verdict_html(right)}</p><p>{html.escape(q.explanation)}</p>"
                                  f"<p>{tr('The piles, top to bottom:')}</p>{piles_table_html(q.piles)}")
        self.score_html.value = tr("Score: {right} of {total} questions right first time.",
                                   right=self.score.right, total=self.score.total)
        if right:
            self.show_ok(tr("Right!"))
        else:
            self.show_info(tr("Not quite: the explanation below walks through the piles."))
        return right
