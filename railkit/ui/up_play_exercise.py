"""The payout exercise of the Union Pacific game app (``railkit.ui.up_play``, UP-D3..UP-D11).

After each payout the app asks how much one company paid one of the human players; that payout's
breakdown stays hidden (``hidden_payouts``) until the answer, or “Show the answer”. The question and
its answer come from the engine's ``PayoutRecord``; the first answer to each question counts for the
score.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass
from typing import Any, Sequence

import ipywidgets as widgets

from railkit.ui.app import InputError, guarded, parse_whole, verdict_html
from railkit.ui.dividends import steps_html
from railkit.ui.i18n import tr
from railkit.ui.up_common import company_name, row
from railkit.ui.up_play_view import set_shown, set_value
from railkit.unionpacific import UP, UP_TABLE, PayoutRecord


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
    shares = ", ".join(f"{html.escape(h)} {n}" for h, n in record.holdings[key].items() if n > 0)
    name = html.escape(company_name(board, key))
    who = html.escape(tr("you") if you is not None and holder == you else holder)
    if key == UP:
        column = ", ".join(str(a) for a in UP_TABLE[record.number])
        facts = tr("Union Pacific pays by position from the table for payout {n}: {column} for the 1st to "
                   "5th (UP-D9, ties UP-D11). UP shares on the table: {shares}.",
                   n=record.number, column=column, shares=shares)
    else:
        facts = tr("{company} was worth {value} (UP-D2). Its shares on the table: {shares}.",
                   company=name, value=record.values[key], shares=shares)
    text = (f"<p><b>{tr('Payout {n} of {total} has just been paid.', n=record.number, total=total)}</b> {facts}</p>"
            f"<p><b>{tr('How much did {company} pay {who}?', company=name, who=who)}</b> "
            f"{tr('Type the amount in millions; the breakdown of this payout stays hidden until you answer.')}</p>")
    return PayoutQuestion(record.number, key, holder, int(explanation.amounts.get(holder, 0)), text, index)


class PayoutExercise:
    """The exercise's part of ``PlayApp``: its panel, asking, checking and revealing.

    Uses the app's ``game``, ``board``, ``humans``, ``you``, ``rng`` and ``refresh()``; owns ``question``,
    ``hidden_payouts`` (payouts whose breakdown is hidden) and ``quiz_score`` (right, asked).
    """

    question: PayoutQuestion | None
    hidden_payouts: set[int]
    quiz_score: list[int]

    def _build_exercise(self) -> widgets.Widget:
        self.quiz_html = widgets.HTML("")
        self.quiz_html.add_class("railkit-quiz")
        self.quiz_answer = widgets.Text(value="", placeholder=tr("millions"), description=tr("Your answer"),
                                        style={"description_width": "110px"}, layout=widgets.Layout(width="260px"))
        self.quiz_answer.add_class("railkit-quiz-answer")
        self.quiz_check = widgets.Button(description=tr("Check"), icon="check", button_style="success")
        self.quiz_check.add_class("railkit-quiz-check")
        self.quiz_check.on_click(lambda _b: self.on_quiz_check())
        self.quiz_skip = widgets.Button(description=tr("Show the answer"), icon="eye",
                                        layout=widgets.Layout(width="auto"))
        self.quiz_skip.add_class("railkit-quiz-skip")
        self.quiz_skip.on_click(lambda _b: self.on_quiz_skip())
        self.quiz_feedback = widgets.HTML("")
        self.quiz_feedback.add_class("railkit-quiz-feedback")
        self.quiz_inputs = row([self.quiz_answer, self.quiz_check, self.quiz_skip])
        self.quiz_close = widgets.Button(description=tr("Close the exercise"), icon="times",
                                         layout=widgets.Layout(width="auto"))
        self.quiz_close.add_class("railkit-quiz-close")
        self.quiz_close.on_click(lambda _b: self.on_quiz_close())
        box = widgets.VBox([widgets.HTML(f"<h4>{tr('Exercise: a payout (UP-D3..UP-D11)')}</h4>"), self.quiz_html,
                            self.quiz_inputs, self.quiz_feedback, row([self.quiz_close])],
                           layout=widgets.Layout(display="none"))
        box.add_class("railkit-panel")
        box.add_class("railkit-exercise")
        return box

    def _ask_about(self, record: PayoutRecord) -> None:
        """A new payout: ask about it and hide its breakdown until the answer."""
        if self.question is not None:  # an unanswered question is replaced: show its breakdown
            self.hidden_payouts.discard(self.question.number)
        question = make_question(self.board, record, self.game.view(None)["payouts_total"],
                                 self.humans, self.rng, self.you)
        self.question = question
        if question is not None:
            self.hidden_payouts.add(question.number)
            self.quiz_answer.value = ""
            self.quiz_feedback.value = ""

    @guarded
    def on_quiz_check(self) -> bool:
        q = self.question
        if q is None:
            raise InputError(tr("There is no payout question now; one comes with the next payout."))
        typed = parse_whole(self.quiz_answer.value, tr("Your answer"), minimum=0, maximum=1000)
        right = typed == q.answer
        if q.number in self.hidden_payouts:  # the first answer counts for the score
            self.quiz_score[1] += 1
            self.quiz_score[0] += int(right)
        self._reveal(q, typed)
        return self.report_answer(right, tr("Right! The whole payout is now shown below."),
                                  tr("Not quite: the steps below show how the amount comes about."))

    @guarded
    def on_quiz_skip(self) -> None:
        q = self.question
        if q is None:
            raise InputError(tr("There is no payout question now."))
        self._reveal(q, None)
        self.clear_message()

    @guarded
    def on_quiz_close(self) -> None:
        q = self.question
        if q is not None and q.number in self.hidden_payouts:
            raise InputError(tr("Answer the question first, or press “Show the answer”."))
        self.question = None
        self.refresh()
        self.clear_message()

    def _reveal(self, q: PayoutQuestion, typed: int | None) -> None:
        record = next(r for r in self.game.payout_history if r.number == q.number)
        explanation = record.explanations[q.index]
        if typed is None:
            verdict = tr("The answer is {answer}.", answer=q.answer)
        elif typed == q.answer:
            verdict = f"<span class='railkit-right'>✔ {tr('right')}: {q.answer}</span>"
        else:
            verdict = (f"{verdict_html(False)} "
                       f"{tr('You typed {typed}; the right amount is {answer}.', typed=typed, answer=q.answer)}")
        score = tr("Payout exercise: {right} of {total} right.", right=self.quiz_score[0], total=self.quiz_score[1])
        self.quiz_feedback.value = f"<p>{verdict} <span class='railkit-muted'>{score}</span></p>{steps_html(explanation)}"
        self.hidden_payouts.discard(q.number)
        self.refresh()

    def _refresh_exercise(self) -> None:
        q = self.question
        set_shown(self.exercise, q is not None)
        if q is None:
            return
        set_value(self.quiz_html, q.text)
        pending = q.number in self.hidden_payouts
        set_shown(self.quiz_inputs, pending)
        set_shown(self.quiz_close, not pending)
