"""“Review my game”: the learner's decisions after a game, evaluated by the search player, and the hint's words.

A thin layer over ``railkit.lab.review``: ``GameReviewPanel`` is shown under a finished game (the play lessons
and a class table, for the learner's own seat only); its button runs the review off the page's thread with a
progress bar (a Union Pacific game takes a minute or two), then lists the decisions, the marked ones first in
words (the move made, the search player's best, both evaluated, the engine's words on why with rule IDs) and all
of them in a table, and draws the learner's winning chances through the game (plotly, ``railkit.ui.plot``). A play
lesson hands it the game (``show``: ``review_game`` replays it); a class table, whose kernel holds only its seat's
views, hands it a source that fetches the seat's decisions from the table server (``show_source``,
``railkit.ui.tables.table_review``); a source that cannot review says why (``ReviewUnavailable``).

The review reads each decision from the seat's own view (what the seat knew then), never another seat's cards:
``railkit.lab.review``. ``hint_text`` is the play lessons' hint: the search player's move with its evaluation and
the next best moves'.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import ipywidgets as widgets

from railkit.game import BaseView, Game
from railkit.lab.review import Decision, GameReview, hint_rows, review_game
from railkit.lab.search import Evaluation
from railkit.messages import N_
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import format_number, render, tr, trn
from railkit.ui.plot import NO_TEMPLATE, Plot
from railkit.ui.widgets import button, html_box, set_shown, set_value

__all__ = ["GameReviewPanel", "ReviewSource", "ReviewUnavailable", "hint_html", "hint_text", "review_html",
           "review_plot"]

# (progress, the search player or None for the hint's) -> the review
ReviewSource = Callable[[Callable[[int, int], object], str | None], GameReview]


class ReviewUnavailable(Exception):
    """A review that cannot be made now (the table server does not answer, say); the message is what the learner
    reads, in the page's language."""

MARK_WORDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
MARK_COLOURS = {"": "#4d4d4d", "inaccuracy": "#b8860b", "mistake": "#d55e00", "blunder": "#b00020"}
REVIEW_STYLE = """<style>
.railkit-app .railkit-game-review .rk-mark-inaccuracy { color: #8a6500; font-weight: bold; }
.railkit-app .railkit-game-review .rk-mark-mistake { color: #a84300; font-weight: bold; }
.railkit-app .railkit-game-review .rk-mark-blunder { color: #b00020; font-weight: bold; }
.railkit-app .railkit-game-review li { margin-bottom: 6px; }
.railkit-app .railkit-game-review table { border-collapse: collapse; min-width: 560px; }
.railkit-app .railkit-game-review td, .railkit-app .railkit-game-review th { padding: 2px 6px; text-align: left;
  vertical-align: top; border-bottom: 1px solid #ddd; word-break: normal; overflow-wrap: normal; }
.railkit-app .railkit-game-review .rk-short { white-space: nowrap; }
.railkit-app .railkit-game-review .rk-scroll { overflow-x: auto; }
</style>"""


def _percent(share: float) -> str:
    return tr("{share}\u00a0%", share=format_number(100 * share, 0))  # no line break before the sign


def evaluation_words(e: Evaluation) -> str:
    """“finish 1.8 on average, money 52, wins 35 %”."""
    return tr("finish {place} on average, money {money}, wins {wins}", place=format_number(e.place, 1),
              money=format_number(e.money, 0), wins=_percent(e.wins))


def _decision_html(d: Decision, you: str) -> str:
    mark = html.escape(tr(MARK_WORDS[d.mark])) if d.mark else ""
    head = tr("Move {number}", number=d.move)
    lines = [tr("Your move: {move} ({evaluation}).", move=render(d.made_words, you),
                evaluation=evaluation_words(d.made_eval)),
             tr("The search player's best: {move} ({evaluation}).", move=render(d.best_words, you),
                evaluation=evaluation_words(d.best_eval))]
    if d.why is not None:
        lines.append(tr("Why: {why}", why=render(d.why, you)))
    body = "<br>".join(html.escape(line) for line in lines)
    return (f"<li><b>{html.escape(head)}</b> <span class='rk-mark-{d.mark}'>{mark}</span><br>{body}</li>")


def review_html(review: GameReview, you: str) -> str:
    """The review in words: a summary, the marked decisions explained, every decision in a table."""
    counts = [trn("{n} inaccuracy", "{n} inaccuracies", len(review.marked("inaccuracy"))),
              trn("{n} mistake", "{n} mistakes", len(review.marked("mistake"))),
              trn("{n} blunder", "{n} blunders", len(review.marked("blunder")))]
    summary = trn("{n} decision reviewed: {marks}.", "{n} decisions reviewed: {marks}.", len(review.decisions),
                  marks=", ".join(counts))
    how = tr("Each of your decisions was played out many times from what you knew then, against computer players; "
             "a move that lost at least 10 points of winning chances or 0.3 places is an inaccuracy, 20 points or "
             "0.6 places a mistake, 30 points or a whole place a blunder.")
    marked = [d for d in review.decisions if d.mark]
    parts = [f"<h4>{html.escape(tr('Review of your decisions by the search player'))}</h4>",
             f"<p>{html.escape(summary)}</p><p class='railkit-muted'>{html.escape(how)}</p>"]
    if marked:
        parts.append("<ul>" + "".join(_decision_html(d, you) for d in marked) + "</ul>")
    else:
        parts.append(f"<p>{html.escape(tr('No decision of yours lost clearly against the search player. Well played!'))}</p>")
    rows = "".join(
        f"<tr><td class='rk-short'>{d.move}</td><td>{html.escape(render(d.made_words, you))}</td>"
        f"<td>{html.escape(render(d.best_words, you)) if d.win_loss or d.place_loss else ''}</td>"
        f"<td class='rk-short'>{_percent(d.made_eval.wins)}</td><td class='rk-short rk-mark-{d.mark}'>"
        f"{html.escape(tr(MARK_WORDS[d.mark])) if d.mark else ''}</td></tr>" for d in review.decisions)
    heads = "".join(f"<th>{html.escape(h)}</th>" for h in
                    (tr("Move"), tr("Your move"), tr("Better (when the search found one)"), tr("Wins"), tr("Mark")))
    every = trn("All {n} decision", "All {n} decisions", len(review.decisions))
    parts.append(f"<details><summary>{html.escape(every)}</summary><div class='rk-scroll'><table>"
                 f"<tr>{heads}</tr>{rows}</table></div></details>")
    return f"<div class='railkit-game-review'>{''.join(parts)}</div>"


def review_plot(review: GameReview) -> Plot:
    """The learner's winning chances through the game: after each decision as played, and with the best move."""
    moves = [d.move for d in review.decisions]
    made = [round(100 * d.made_eval.wins, 1) for d in review.decisions]
    best = [round(100 * d.best_eval.wins, 1) for d in review.decisions]
    marks = [tr(MARK_WORDS[d.mark]) if d.mark else "" for d in review.decisions]
    plot = Plot(layout={"template": NO_TEMPLATE, "height": 360, "margin": {"l": 60, "r": 20, "t": 40, "b": 110},
                        "title": {"text": tr("Your winning chances through the game")},
                        "legend": {"orientation": "h", "y": -0.3, "yanchor": "top", "x": 0},
                        "xaxis": {"title": {"text": tr("Move")}},
                        "yaxis": {"title": {"text": tr("Winning chances (%)")}, "range": [0, 100]}})
    plot.add_trace({"x": moves, "y": best, "mode": "lines", "name": tr("with the search player's best move"),
                    "line": {"color": "#0072b2", "dash": "dot", "width": 2},
                    "hovertemplate": tr("Move %{x}: best move %{y} %") + "<extra></extra>"})
    plot.add_trace({"x": moves, "y": made, "mode": "lines+markers", "name": tr("after your move"),
                    "line": {"color": "#4d4d4d", "width": 2}, "customdata": marks,
                    "marker": {"color": [MARK_COLOURS[d.mark] for d in review.decisions],
                               "size": [12 if d.mark else 6 for d in review.decisions]},
                    "hovertemplate": tr("Move %{x}: your move %{y} % %{customdata}") + "<extra></extra>"})
    return plot


class GameReviewPanel:
    """“Review my game” under a finished game: ``show(game, seat)`` (None hides it); the button reviews it."""

    def __init__(self, player: str | None = None) -> None:
        self.player = player  # the search player (None: the hint's, ``railkit.lab.analysis.HINT_PLAYERS``)
        self.button = button(tr("Review my game"), "railkit-review-game", "search", "info",
                             tr("The search player evaluates each of your decisions (a minute or two for a whole game)"))
        self.button.on_click(lambda _b: self.start())
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description=tr("Reviewing"),
                                            layout=widgets.Layout(width="min(420px, 100%)"))
        self.progress.add_class("railkit-review-progress")
        self.words = html_box("railkit-game-review-words")
        self.chart = FigureView()
        self.chart.widget.add_class("railkit-review-chart")
        self.widget = widgets.VBox([widgets.HTML(REVIEW_STYLE), self.button, self.progress, self.words,
                                    self.chart.widget])
        self.widget.add_class("railkit-review-panel")
        self.review: GameReview | None = None
        self._source: ReviewSource | None = None
        self._seat: str | None = None
        self._key: Any = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        set_shown(self.widget, False)

    def show(self, game: Game[Any] | None, seat: str | None) -> None:
        """Offer the review of ``seat``'s decisions in the finished ``game`` (None: hide the panel)."""
        if game is None or seat is None or not game.is_over or seat not in game.players:
            self.show_source(None, None, None)
            return
        key = (game.seed, tuple(game.players), len(game.log), seat)
        self.show_source(key, seat, lambda progress, player: review_game(game, seat, player=player, progress=progress))

    def show_source(self, key: Hashable | None, seat: str | None, source: ReviewSource | None) -> None:
        """Offer the review ``source`` makes of ``seat``'s decisions (``key`` names the game: the same key keeps the
        review shown); None hides the panel. ``source(progress, self.player)`` is run off the page's thread when asked."""
        if key is None or seat is None or source is None:
            self._source, self._key, self._seat = None, None, None
            set_shown(self.widget, False)
            return
        if key != self._key:
            with self._lock:
                self._key, self._source, self._seat, self.review = key, source, seat, None
            set_value(self.words, "")
            set_shown(self.chart.widget, False)
            set_shown(self.progress, False)
            set_shown(self.button, True)
        set_shown(self.widget, True)

    def adopt(self, previous: GameReviewPanel) -> None:
        """Carry on ``previous``'s game and its review, if made, in these widgets (the page in another language)."""
        with previous._lock:
            key, source, seat, review = previous._key, previous._source, previous._seat, previous.review
        self.show_source(key, seat, source)
        if review is not None and seat is not None:
            with self._lock:
                self.review = review
            self._shown(review, seat)

    def start(self, wait: bool = False) -> None:
        """Review the game shown, off the page's thread (``wait``: here and now, for tests)."""
        source, key, seat = self._source, self._key, self._seat
        if source is None or seat is None or (self._thread is not None and self._thread.is_alive()):
            return
        set_shown(self.button, False)
        self.progress.value, self.progress.max = 0, 1
        set_shown(self.progress, True)
        set_value(self.words, f"<p>{html.escape(tr('The search player is reviewing your decisions …'))}</p>")
        self._thread = threading.Thread(target=self._run, args=(source, key, seat), daemon=True,
                                        name="railkit-review")
        self._thread.start()
        if wait:
            self._thread.join()

    def _run(self, source: ReviewSource, key: Any, seat: str) -> None:
        try:
            review = source(self._on_progress, self.player)
        except Exception as exc:  # noqa: BLE001 - a review is a help: the game's result stands without it
            if key == self._key:
                words = str(exc) if isinstance(exc, ReviewUnavailable) else tr(
                    "The review could not be made for this game.")
                set_value(self.words, f"<p class='railkit-review-unavailable'>{html.escape(words)}</p>")
                set_shown(self.progress, False)
                set_shown(self.button, True)  # it may be asked again (the server back, say)
            return
        with self._lock:
            if key != self._key:
                return  # another game is on screen now
            self.review = review
        self._shown(review, seat)

    def _shown(self, review: GameReview, seat: str) -> None:
        set_shown(self.button, False)
        set_shown(self.progress, False)
        set_value(self.words, review_html(review, seat))
        if review.decisions:
            self.chart.show(review_plot(review))
            set_shown(self.chart.widget, True)

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.max = max(1, total)
        self.progress.value = done
        self.progress.description = tr("{done} of {total}", done=done, total=total)


def hint_parts(view: BaseView, legal: Sequence[Any], you: str | None, seed: int = 0) -> tuple[str, list[str]]:
    """The hint's sentence (the search player's move, evaluated) and the next best moves, evaluated, in words."""
    rows = hint_rows(view, legal, seed=seed)
    if not rows:
        return tr("Hint: there is only one move you can make now."), []
    best, words = rows[0]
    head = tr("Hint: the search player would play this: {move} ({evaluation}).", move=render(words, you),
              evaluation=evaluation_words(best))
    return head, [f"{render(w, you)} ({evaluation_words(e)})" for e, w in rows[1:]]


def hint_text(view: BaseView, legal: Sequence[Any], you: str | None, seed: int = 0) -> str:
    """The search player's move for ``view.you`` with its evaluation, and the next best moves', in one message."""
    head, others = hint_parts(view, legal, you, seed)
    text = head + (" " + tr("Next best: {moves}.", moves="; ".join(others)) if others else "")
    return text + " " + tr("It is a second opinion; the choice is yours.")


def hint_html(view: BaseView, legal: Sequence[Any], you: str | None, seed: int = 0) -> str:
    """``hint_text`` as HTML: the move in bold, the next best in a list."""
    head, others = hint_parts(view, legal, you, seed)
    items = "".join(f"<li>{html.escape(o)}</li>" for o in others)
    return (f"<p><b>{html.escape(head)}</b></p>"
            + (f"<p>{html.escape(tr('Next best:'))}</p><ul>{items}</ul>" if others else "")
            + f"<p class='railkit-muted'>{html.escape(tr('It is a second opinion; the choice is yours.'))}</p>")
