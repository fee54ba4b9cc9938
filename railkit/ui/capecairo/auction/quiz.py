"""The auction lesson's exercise, “who chooses first?” (KK-A3..KK-A5), as a panel.

Random bids, money and tie-break draws (ties on bid, ties on money left, ties on the drawn coin); the
learner puts the players in choosing order and the panel checks it against ``explain_auction_order``,
with its explanation.
"""

from __future__ import annotations

import html
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import ipywidgets as widgets

from railkit.capecairo import explain_auction_order
from railkit.ui.app import InputError, Messages, Panel, Score, guarded, verdict_html
from railkit.ui.capecairo.common import ordinal, pounds
from railkit.ui.i18n import render, tr, trn
from railkit.ui.records.lesson_record import ExerciseRecord
from railkit.ui.widgets import button, choose, html_box, row

QUIZ_NAMES = ("Ann", "Ben", "Cleo", "Dev")
QUIZ_DRAWS = 3  # coins shown per player: the cards each would draw, in order, if a draw is needed
KINDS = ("plain", "bid_tie", "money_tie", "draw_tie", "two_ties")


# -- the exercise: who chooses first? ----------------------------------------------------------------
@dataclass(frozen=True)
class OrderQuestion:
    """Bids and money in seating order, the coins each player would draw (KK-A5), and the engine's
    answer: the choosing order with its steps."""

    players: tuple[str, ...]
    money_before: Mapping[str, int]
    bids: Mapping[str, int]
    draws: Mapping[str, tuple[int, ...]]
    order: tuple[str, ...]
    steps: tuple[str, ...]
    draws_used: Mapping[str, int]
    kind: str = ""

    @property
    def money_left(self) -> dict[str, int]:
        return {p: self.money_before[p] - self.bids[p] for p in self.players}


def make_question(money_before: Mapping[str, int], bids: Mapping[str, int],
                  draws: Mapping[str, Sequence[int]], kind: str = "") -> OrderQuestion:
    """The engine settles the order (``explain_auction_order``), drawing from each player's coins."""
    players = tuple(bids)
    used = {p: 0 for p in players}

    def draw(player: str) -> int | None:
        coins = draws[player]
        if used[player] >= len(coins):
            return None
        used[player] += 1
        return coins[used[player] - 1]

    money_left = {p: money_before[p] - bids[p] for p in players}
    explained = explain_auction_order(dict(bids), money_left, draw)
    return OrderQuestion(players, dict(money_before), dict(bids), {p: tuple(draws[p]) for p in players},
                         tuple(explained.order), tuple(explained.steps), dict(used), kind)


def _fits(q: OrderQuestion, kind: str) -> bool:
    """Does the dealt situation show what ``kind`` should practise?"""
    if any(n >= len(q.draws[p]) for p, n in q.draws_used.items()):
        return False  # every draw must come from the coins shown (and no seating-order fallback)
    bids, left = q.bids, q.money_left
    bid_ties = [b for b in set(bids.values()) if list(bids.values()).count(b) > 1]
    pairs = [(a, b) for i, a in enumerate(q.players) for b in q.players[i + 1:] if bids[a] == bids[b]]
    money_ties = [(a, b) for a, b in pairs if left[a] == left[b]]
    rounds = max(q.draws_used.values())
    if kind == "plain":
        return not bid_ties
    if kind == "bid_tie":
        return bool(pairs) and not money_ties
    if kind == "money_tie":
        return bool(money_ties) and rounds == 1
    if kind == "draw_tie":
        return bool(money_ties) and rounds >= 2
    if kind == "two_ties":
        return len(bid_ties) >= 2
    return True


def random_question(rng: random.Random, kind: str | None = None) -> OrderQuestion:
    """A random situation of ``kind`` (random if None): plain bids, a tie on the bid settled by money
    left, a tie on money left settled by one draw, a tie settled by a second draw, or two tied groups."""
    kind = kind or rng.choice(KINDS)
    for _ in range(2000):
        n = rng.randint(2, 4) if kind in ("plain", "bid_tie") else rng.randint(3, 4)
        if kind == "two_ties":
            n = 4
        names = QUIZ_NAMES[:n]
        before = {p: rng.randint(30, 100) for p in names}
        bids = {p: rng.randint(0, min(20, before[p])) for p in names}
        draws = {p: [rng.randint(1, 10) for _ in range(QUIZ_DRAWS)] for p in names}
        tied = rng.sample(names, 3 if (n == 4 and rng.random() < 0.3 and kind != "two_ties") else 2)
        if kind != "plain":
            bid = rng.randint(2, 15)
            for p in tied:
                bids[p] = bid
        if kind in ("money_tie", "draw_tie"):
            money = rng.randint(40, 100)
            for p in tied:
                before[p] = money
        if kind == "draw_tie":
            coin = rng.randint(2, 9)
            for p in tied:
                draws[p][0] = coin
        if kind == "two_ties":
            others = [p for p in names if p not in tied]
            bid2 = rng.randint(0, 15)
            for p in others:
                bids[p] = bid2
            if rng.random() < 0.5:  # one of the groups also ties on money left
                money = rng.randint(40, 100)
                for p in others:
                    before[p] = money
        question = make_question(before, bids, draws, kind)
        if _fits(question, kind):
            return question
    return make_question({"Ann": 80, "Ben": 70}, {"Ann": 10, "Ben": 5}, {"Ann": (3,), "Ben": (4,)}, "plain")


def question_html(q: OrderQuestion) -> str:
    rows = "".join(
        f"<tr><td class='name'>{html.escape(p)}</td><td>{pounds(q.money_before[p])}</td><td>{pounds(q.bids[p])}</td>"
        f"<td><b>{pounds(q.money_left[p])}</b></td><td>{', '.join(str(c) for c in q.draws[p])}</td></tr>"
        for p in q.players
    )
    task = tr("The sealed bids are revealed and everyone has paid their bid (KK-A3). Put the players in choosing "
              "order (KK-A4, KK-A5).")
    return (
        f"<p><b>{tr('Who chooses first?')}</b> {task}</p>"
        f"<table class='railkit-table'><tr><th class='name'>{tr('player (seating order)')}</th>"
        f"<th>{tr('money before')}</th><th>{tr('bid')}</th><th>{tr('money left')}</th>"
        f"<th>{tr('coins they would draw, in turn, if a draw is needed')}</th></tr>{rows}</table>"
    )


class QuizPanel(Panel):
    """The “Who chooses first?” tab; ``score`` counts the first check of each situation."""

    def __init__(self, messages: Messages, rng: random.Random) -> None:
        super().__init__(messages)
        self.rng = rng
        self.question: OrderQuestion | None = None
        self.score = Score()
        self.learning = ExerciseRecord("kk_auction", "choosing_order", ("KK-A4", "KK-A5"))
        self.new_button = button(tr("New situation"), "railkit-kk-quiz-new", "random", "info",
                                 tr("Deal other bids, money and draws"), None)
        self.new_button.on_click(lambda _b: self.on_new_question())
        self.situation = html_box("railkit-kk-quiz-situation")
        self.place_fields = [
            widgets.Dropdown(options=[("—", None)], value=None, description=ordinal(i + 1),
                             style={"description_width": "50px"}, layout=widgets.Layout(width="170px"))
            for i in range(len(QUIZ_NAMES))
        ]
        for field in self.place_fields:
            field.add_class("railkit-kk-quiz-place")
        self.check_button = button(tr("Check"), "railkit-kk-quiz-check", "check", "success",
                                   tr("Compare your order with the engine's"), None)
        self.check_button.on_click(lambda _b: self.on_check())
        self.feedback = html_box("railkit-kk-quiz-feedback")
        self.score_html = html_box()
        self.widget = widgets.VBox([
            self.situation,
            row([widgets.HTML(f"<b>{tr('Choosing order:')}</b>"), *self.place_fields]),
            row([self.check_button, self.new_button, self.score_html]),
            self.feedback,
        ])

    def set_question(self, question: OrderQuestion) -> None:
        self.question = question
        self.score.next_question()
        self.learning.question()
        self.situation.value = question_html(question)
        options = [("—", None)] + [(p, p) for p in question.players]
        for i, field in enumerate(self.place_fields):
            field.options = options
            choose(field, None)  # the “—” shows, not a blank box
            field.layout.display = "" if i < len(question.players) else "none"
        self.feedback.value = ""

    @guarded
    def on_new_question(self) -> OrderQuestion:
        question = random_question(self.rng)
        self.set_question(question)
        if self.score.total:  # before the first check the message bar still speaks of the game: keep it
            self.clear_message()
        return question

    def answer(self, order: Sequence[str]) -> None:
        """Fill the order fields (for tests)."""
        for field, name in zip(self.place_fields, order, strict=False):
            field.value = name

    @guarded
    def on_check(self) -> bool:
        q = self.question
        if q is None:
            raise InputError(tr("Press “New situation” first."))
        picked = [f.value for f in self.place_fields[: len(q.players)]]
        missing = [ordinal(i + 1) for i, p in enumerate(picked) if p is None]
        if missing:
            raise InputError(tr("Pick a player for every place: {places} still empty.", places=", ".join(missing)))
        twice = sorted({p for p in picked if picked.count(p) > 1})
        if twice:
            raise InputError(tr("Each player chooses once: {names} appears more than once.", names=", ".join(twice)))
        right = [a == b for a, b in zip(picked, q.order, strict=True)]
        rows = "".join(
            f"<tr><td class='nowrap'>{ordinal(i + 1)}</td><td class='name'>{html.escape(picked[i])}</td>"
            f"<td class='name'><b>{html.escape(q.order[i])}</b></td>{verdict_html(ok, 'td')}</tr>"
            for i, ok in enumerate(right)
        )
        steps = "".join(f"<li>{html.escape(render(s))}</li>" for s in q.steps)
        self.feedback.value = (
            f"<table class='railkit-table'><tr><th>{tr('place')}</th><th class='name'>{tr('your order')}</th>"
            f"<th class='name'>{tr('the engine’s order')}</th><th>{tr('verdict')}</th></tr>{rows}</table>"
            f"<b>{tr('How the order is settled:')}</b><ol class='railkit-steps'>{steps}</ol>")
        all_right = all(right)
        self.score.record(all_right)
        self.learning.answer(all_right)
        self.score_html.value = tr("Score: {right} of {total} situations right first time.",
                                   right=self.score.right, total=self.score.total)
        if all_right:
            self.show_ok(tr("All right! The steps below show how the engine settles it."))
        else:
            self.show_info(trn("Not quite: {n} of {total} places differs. Read the steps below.",
                               "Not quite: {n} of {total} places differ. Read the steps below.", right.count(False),
                               total=len(right)))
        return all_right
