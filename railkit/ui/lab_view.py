"""The strategy lab in a notebook: a learner's player on a small ladder, its ratings, and one of its games replayed.

    from railkit.ui.lab_view import GameReplay, chart, play, ratings_plot, ratings_table, seats_plot
    run = play("kk", one_under_the_coin, ["random", "heuristic", "ismcts:8"], games=16)   # with tqdm's bar
    ratings_table(run)        # rating, 95 % interval, games, wins, mean place, share of the score
    chart(ratings_plot(run))  # the ratings, their 95 % intervals as error bars
    chart(seats_plot(run))    # each player's share of the score from each seat
    GameReplay(run, race_figure).widget   # one of the learner's games, move by move on the lesson's board

The games are played by ``railkit.lab.notebook`` (in this process, no file, no Dask); here are only the words,
the progress bar and the figures. The figures are ``railkit.ui.plot.Plot``s shown by ``FigureView`` (no plotly
objects in the kernel), the replay steps through the game with the engine (``railkit.ui.tables.table_replay.replay_steps``)
and draws each position with the lesson's own board function (``figure(view)``).

Under Voila every figure waits until the page has its widgets (``first_paint.defer_first_show``, as the lessons'
maps): with the charts' and the board's plotly outputs already in the widget state the page built at load, the
notebook's later cells often showed "Error displaying widget: model not found" instead of their figures.
"""

from __future__ import annotations

import html
import sys
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from railkit.lab.notebook import LadderRun, play_ladder
from railkit.ui.figure_view import FigureView
from railkit.ui.first_paint import defer_first_show
from railkit.ui.i18n import format_number, tr, trc, trn
from railkit.ui.plot import NO_TEMPLATE, SERIES_COLOURS, Plot, series_style
from railkit.ui.records.learner import ORDINALS
from railkit.ui.tables.table_replay import Step, replay_steps
from railkit.ui.widgets import button, html_box, row, set_value

__all__ = ["GameReplay", "chart", "play", "progress_bar", "ratings_plot", "ratings_table", "seat_label", "seats_plot"]

# tqdm's bar without its English unit ("it/s"): the count, the time so far and the time left.
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}]"


def progress_bar(total: int) -> Any:
    """tqdm's progress bar (its notebook widget) for ``total`` games."""
    from tqdm.notebook import tqdm

    if sys.platform == "emscripten":  # the static site's kernel (Pyodide) starts no threads: no stall monitor
        tqdm.monitor_interval = 0
    return tqdm(total=total, desc=tr("Games played"), bar_format=BAR_FORMAT)


def play(game: str, player: Any, against: Sequence[str], *, games: int, players: int = 4, seed: int = 0,
         progress: bool = True) -> LadderRun:
    """The learner's ``player`` against ``against`` in ``games`` seat-rotated games of ``game`` ("kk", "up"),
    rated (``railkit.lab.notebook.play_ladder``), with a progress bar."""
    return play_ladder(game, player, against, games=games, players=players, seed=seed,
                       progress=progress_bar if progress else None)


def seat_label(seat: int) -> str:
    """"1st", "2nd", ... in the current language (seat 0 is the first)."""
    return trc("seat", ORDINALS[seat]) if seat < len(ORDINALS) else str(seat + 1)


CELL = "padding:0.25em 0.9em 0.25em 0;text-align:left"


def _percent(share: float) -> str:
    return format_number(100 * share, 1) + " %"


def ratings_table(run: LadderRun) -> widgets.HTML:
    """The ladder's table, best rating first; the learner's player in bold."""
    head = [tr("Player"), tr("Rating (μ)"), tr("Interval (95 %)"), tr("Games"), tr("Wins"), tr("Mean place"),
            tr("Share of the score")]
    rows = []
    for r in run.table:
        low, high = r.ci95
        cells = [r.name, format_number(r.mu, 2), f"{format_number(low, 2)} … {format_number(high, 2)}",
                 str(r.games), _percent(r.win_rate), format_number(r.mean_place, 2), _percent(r.score_share)]
        style = " style='font-weight:bold'" if r.name == run.yours else ""
        rows.append(f"<tr{style}>" + "".join(f"<td style='{CELL}'>{html.escape(c)}</td>" for c in cells) + "</tr>")
    games = len(run.records)
    caption = trn("The ladder after {n} game: the higher the rating, the stronger the player.",
                  "The ladder after {n} games: the higher the rating, the stronger the player.", games, n=games)
    table = (f"<table class='railkit-lab-table'><caption>{html.escape(caption)}</caption><thead><tr>"
             + "".join(f"<th scope='col' style='{CELL}'>{html.escape(h)}</th>" for h in head) + "</tr></thead><tbody>"
             + "".join(rows) + "</tbody></table>")
    return html_box("railkit-lab-ratings", table)


def ratings_plot(run: LadderRun) -> Plot:
    """Each player's rating (μ) as a point, its 95 % interval as an error bar; best at the top."""
    table = list(reversed(run.table))  # plotly draws the first category at the bottom
    names = [r.name for r in table]
    trace = {"type": "scatter", "mode": "markers", "x": [r.mu for r in table], "y": names,
             "error_x": {"type": "data", "symmetric": False, "array": [r.ci95[1] - r.mu for r in table],
                         "arrayminus": [r.mu - r.ci95[0] for r in table], "thickness": 2, "width": 6,
                         "color": "#444444"},  # its own colour: one per bar, not the markers' list
             "marker": {"size": 11, "symbol": "diamond",
                        "color": [SERIES_COLOURS[1] if n == run.yours else SERIES_COLOURS[0] for n in names]},
             "name": tr("Rating (μ)"), "showlegend": False,
             "hovertemplate": "%{y}: %{x:.2f}<extra></extra>"}
    return Plot([trace], {"template": NO_TEMPLATE, "title": {"text": tr("Ratings with their intervals (95 %)")},
                          "height": 120 + 50 * len(table), "margin": {"l": 170, "r": 20, "t": 50, "b": 50},
                          "xaxis": {"title": {"text": tr("Rating (μ)")}, "zeroline": False, "showgrid": True},
                          "yaxis": {"automargin": True}})


def seats_plot(run: LadderRun) -> Plot:
    """Each player's average share of the score from each seat, as grouped bars (the first seat's advantage)."""
    shares = run.seat_shares()
    seats = [seat_label(i) for i in range(run.spec.players)]
    plot = Plot(layout={"template": NO_TEMPLATE, "barmode": "group", "title": {"text": tr("Share of the score by seat")},
                        "height": 420, "margin": {"l": 60, "r": 20, "t": 50, "b": 60},
                        "xaxis": {"title": {"text": tr("Seat (the first seat acts first)")}},
                        "yaxis": {"title": {"text": tr("Share of the score")}, "tickformat": ".0%", "rangemode": "tozero"},
                        "legend": {"orientation": "h", "y": -0.25}})
    for j, (name, per_seat) in enumerate(shares.items()):
        colour = series_style(j)["line"]["color"]
        plot.add_trace({"x": seats, "y": per_seat, "name": name,
                        "marker": {"color": colour, "pattern": {"shape": ("", "/", ".", "x", "-", "+", "\\")[j % 7]}},
                        "hovertemplate": f"{html.escape(name)}: %{{y:.1%}}<extra>%{{x}}</extra>"}, kind="bar")
    return plot


def chart(plot: Plot) -> widgets.VBox:
    """A figure for a notebook's output (``FigureView``: plotly.js draws it, no plotly in the kernel)."""
    view = FigureView()
    defer_first_show(view)  # under Voila, drawn once the page has its widgets (as the lessons' maps)
    view.show(plot)
    view.widget.add_class("railkit-lab-chart")
    return view.widget


class GameReplay:
    """One game of a ladder, move by move, on the lesson's board (``figure(view)`` draws a position from the
    spectator's view); by default the game the learner's player did best in (``LadderRun.best_game``)."""

    def __init__(self, run: LadderRun, figure: Callable[[Any], Plot], index: int | None = None) -> None:
        self.run, self.figure = run, figure
        self.index = run.best_game() if index is None else index
        data = run.replay_data(self.index)
        self.steps: list[Step] = replay_steps(run.engine(), data)
        record = run.records[self.index]
        # A number field rather than a slider: its label names it for a screen reader as soon as it is drawn.
        self.move = widgets.BoundedIntText(value=len(self.steps) - 1, min=0, max=len(self.steps) - 1,
                                             description=tr("Move"), layout=widgets.Layout(width="220px"))
        self.move.add_class("railkit-replay-move")
        self.move.observe(lambda _c: self.show(), names="value")
        moves = [("step-backward", tr("Back to the deal"), lambda: 0),
                 ("backward", tr("One move back"), lambda: self.move.value - 1),
                 ("forward", tr("Next move"), lambda: self.move.value + 1),
                 ("step-forward", tr("The end of the game"), lambda: self.move.max)]
        buttons = []
        for icon, label, to in moves:
            b = button(label, "railkit-replay-step", icon)
            b.on_click(lambda _b, to=to: self.go(to()))
            buttons.append(b)
        places = "; ".join(tr("{player}: place {place}", player=name, place=place)
                           for name, place in zip(data["players"], record.places, strict=True))
        head = tr("Game {number} of the ladder. {places}", number=self.index + 1, places=places)
        self.words = html_box("railkit-replay-words")
        self.board = FigureView()
        defer_first_show(self.board)
        self.widget = widgets.VBox([html_box("railkit-lab-replay-head", f"<p><b>{html.escape(head)}</b></p>"),
                                    row([*buttons, self.move]), self.words, self.board.widget])
        self.widget.add_class("railkit-replay")
        self.widget.add_class("railkit-app")  # an app's controls: the template hides button icons from screen readers
        self.show()

    def go(self, move: int) -> None:
        self.move.value = max(0, min(self.move.max, move))

    def show(self) -> None:
        step = self.steps[max(0, min(len(self.steps) - 1, int(self.move.value)))]
        total = len(self.steps) - 1
        head = (tr("The deal, before the first move.") if step.move == 0
                else tr("Move {k} of {n}:", k=step.move, n=total))
        items = "".join(f"<li>{html.escape(w)}</li>" for w in step.words)
        set_value(self.words, f"<p><b>{html.escape(head)}</b></p>" + (f"<ul>{items}</ul>" if items else ""))
        self.board.show(self.figure(step.view))
