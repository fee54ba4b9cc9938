"""The payout exercise of the play lesson (UP-D3..UP-D11), as a panel.

After each payout the panel asks how much one company paid one of the human players; that payout's
breakdown stays hidden (``hidden``) until the answer, or “Show the answer”. The question and
its answer come from the engine's ``PayoutRecord``; the first answer to each question counts for the
score.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from railkit.ui.app import InputError, Messages, Panel, guarded, parse_whole, verdict_html
from railkit.ui.i18n import player_label, tr
from railkit.ui.records.lesson_record import ExerciseRecord
from railkit.ui.unionpacific.common import company_name, steps_html
from railkit.ui.widgets import button, html_box, row, set_shown, set_value, submit_on_enter
from railkit.unionpacific import UP, UP_TABLE, Board, PayoutRecord

COMPANY_RULES = ("UP-D3", "UP-D4", "UP-D5", "UP-D6")  # a railway company's payout
UP_RULES = ("UP-D9", "UP-D10", "UP-D11")  # Union Pacific's payout


@dataclass(frozen=True)
class PayoutQuestion:
    """“How much did <company> pay <holder> at payout <number>?” (UP-D3..UP-D11)."""

    number: int
    subject: str  # company key or UP
    holder: str
    answer: int
    text: str  # HTML
    index: int  # position of the subject's explanation in the record


def make_question(board: Any, record: PayoutRecord, total: int, humans: Sequence[str], rng: random.Random,
                  you: str | None) -> PayoutQuestion | None:
    """A question about ``record`` for one of ``humans``: a company they hold shares of (preferring ones
    with several shareholders that pay them something), else Union Pacific, else the largest holder of
    some company."""
    keys = list(record.holdings)  # aligned with record.explanations (companies with holders, then UP)
    if len(keys) != len(record.explanations):
        return None
    scored: list[tuple[int, int, str, str]] = []
    for i, key in enumerate(keys):
        holders = {h: n for h, n in record.holdings[key].items() if n > 0}
        paid = record.explanations[i].amounts
        for h in humans:
            if holders.get(h, 0) > 0:
                score = (2 if key != UP else 0) + (1 if len(holders) > 1 else 0) + (2 if paid.get(h, 0) else 0)
                if key == UP and record.number == 1:
                    score = -1  # the first UP payout always pays 0
                scored.append((score, i, key, h))
    if scored:
        best = max(s[0] for s in scored)
        _, index, key, holder = rng.choice([s for s in scored if s[0] == best])
    else:
        companies = [(i, k) for i, k in enumerate(keys) if k != UP and any(record.holdings[k].values())]
        if not companies:
            return None
        index, key = rng.choice(companies)
        holder = max(record.holdings[key].items(), key=lambda kv: kv[1])[0]
    explanation = record.explanations[index]
    shares = ", ".join(f"{html.escape(player_label(h))} {n}" for h, n in record.holdings[key].items() if n > 0)
    name = html.escape(company_name(board, key))
    asked = (tr("How much did {company} pay you?", company=name) if you is not None and holder == you
             else tr("How much did {company} pay {who}?", company=name, who=html.escape(player_label(holder))))
    if key == UP:
        column = ", ".join(str(a) for a in UP_TABLE[record.number])
        facts = tr("Union Pacific pays by position from the table for payout {n}: {column} for the 1st to "
                   "5th (UP-D9, ties UP-D11). UP shares on the table: {shares}.",
                   n=record.number, column=column, shares=shares)
    else:
        facts = tr("{company} was worth {value} (UP-D2). Its shares on the table: {shares}.",
                   company=name, value=record.values[key], shares=shares)
    how = tr("Type the amount in millions; the breakdown of this payout and everybody’s money stay hidden until "
             "you answer.")
    text = (f"<p><b>{tr('Payout {n} of {total} has just been paid.', n=record.number, total=total)}</b> {facts}</p>"
            f"<p><b>{asked}</b> {how}</p>")
    return PayoutQuestion(record.number, key, holder, int(explanation.amounts.get(holder, 0)), text, index)


class ExercisePanel(Panel):
    """The exercise box: asking, checking and revealing. ``hidden`` holds the payouts whose breakdown is
    hidden; ``score`` is [right, asked]; ``on_change`` tells the app to show the revealed breakdown. Its
    messages (``note``) show in its own box."""

    def __init__(self, board: Board, rng: random.Random, on_change: Callable[[], None]) -> None:
        # The exercise speaks in its own message line, inside its box: its words never show elsewhere.
        self.note = Messages()
        super().__init__(self.note)
        self.board = board
        self.rng = rng
        self.on_change = on_change
        self.question: PayoutQuestion | None = None
        self.hidden: set[int] = set()
        self.score = [0, 0]
        self.learning = ExerciseRecord("up_play", "payout_company", COMPANY_RULES)
        self.records: Sequence[PayoutRecord] = ()  # the game's payouts, for revealing
        self.you: str | None = None  # the learner (None in hot seat): the steps speak to them
        self.quiz_html = html_box("railkit-quiz")
        self.answer = widgets.Text(value="", placeholder=tr("millions"), description=tr("Your answer"),
                                   style={"description_width": "110px"}, layout=widgets.Layout(width="260px"))
        self.answer.add_class("railkit-quiz-answer")
        self.check_button = button(tr("Check"), "railkit-quiz-check", "check", "success", width=None)
        self.check_button.on_click(lambda _b: self.on_check())
        submit_on_enter(self.answer, self.on_check)
        self.skip_button = button(tr("Show the answer"), "railkit-quiz-skip", "eye")
        self.skip_button.on_click(lambda _b: self.on_skip())
        self.feedback = html_box("railkit-quiz-feedback")
        self.inputs = row([self.answer, self.check_button, self.skip_button])
        self.close_button = button(tr("Close the exercise"), "railkit-quiz-close", "times")
        self.close_button.on_click(lambda _b: self.on_close())
        self.widget = widgets.VBox([widgets.HTML(f"<h4>{tr('Exercise: a payout (UP-D3..UP-D11)')}</h4>"),
                                    self.quiz_html, self.inputs, self.note.widget, self.feedback,
                                    row([self.close_button])],
                                   layout=widgets.Layout(display="none"))
        self.widget.add_class("railkit-panel")
        self.widget.add_class("railkit-exercise")

    def reset(self, payouts_done: int | None = None) -> None:
        """A new game (``None``): no question. An undo back to ``payouts_done`` payouts: forget later ones."""
        self.clear_message()
        if payouts_done is None:
            self.question, self.hidden = None, set()
            self.feedback.value = ""
            return
        if self.question is not None and self.question.number > payouts_done:
            self.question = None
        self.hidden = {n for n in self.hidden if n <= payouts_done}

    def ask_about(self, record: PayoutRecord, total: int, humans: Sequence[str], you: str | None) -> None:
        """A new payout: ask about it and hide its breakdown until the answer."""
        if self.question is not None:  # an unanswered question is replaced: show its breakdown
            self.hidden.discard(self.question.number)
        self.you = you
        question = make_question(self.board, record, total, humans, self.rng, you)
        self.question = question
        if question is not None:
            up = question.subject == UP
            self.learning.question("payout_up" if up else "payout_company", UP_RULES if up else COMPANY_RULES)
            self.hidden.add(question.number)
            self.answer.value = ""
            self.feedback.value = ""
            self.clear_message()

    def refresh(self, records: Sequence[PayoutRecord]) -> None:
        self.records = records
        q = self.question
        set_shown(self.widget, q is not None)
        if q is None:
            return
        set_value(self.quiz_html, q.text)
        pending = q.number in self.hidden
        set_shown(self.inputs, pending)
        set_shown(self.close_button, not pending)

    @guarded
    def on_check(self) -> bool:
        q = self.question
        if q is None:
            raise InputError(tr("There is no payout question now; one comes with the next payout."))
        typed = parse_whole(self.answer.value, tr("Your answer"), minimum=0, maximum=1000)
        right = typed == q.answer
        self.learning.answer(right)
        if q.number in self.hidden:  # the first answer counts for the score
            self.score[1] += 1
            self.score[0] += int(right)
        self._reveal(q, typed)
        if right:
            self.show_ok(tr("Right! The whole payout is now shown below."))
        else:
            self.show_info(tr("Not quite: the steps below show how the amount comes about."))
        return right

    @guarded
    def on_skip(self) -> None:
        q = self.question
        if q is None:
            raise InputError(tr("There is no payout question now."))
        self._reveal(q, None)
        self.clear_message()

    @guarded
    def on_close(self) -> None:
        q = self.question
        if q is not None and q.number in self.hidden:
            raise InputError(tr("Answer the question first, or press “Show the answer”."))
        self.question = None
        self.on_change()
        self.clear_message()

    def _reveal(self, q: PayoutQuestion, typed: int | None) -> None:
        record = next(r for r in self.records if r.number == q.number)
        explanation = record.explanations[q.index]
        if typed is None:
            verdict = tr("The answer is {answer}.", answer=q.answer)
        elif typed == q.answer:
            verdict = f"<span class='railkit-right'>✔ {tr('right')}: {q.answer}</span>"
        else:
            verdict = (f"{verdict_html(False)} "
                       f"{tr('You typed {typed}; the right amount is {answer}.', typed=typed, answer=q.answer)}")
        score = tr("Payout exercise: {right} of {total} right.", right=self.score[0], total=self.score[1])
        self.feedback.value = f"<p>{verdict} <span class='railkit-muted'>{score}</span></p>{steps_html(explanation, self.you)}"
        self.hidden.discard(q.number)
        self.on_change()
