"""A finished game replayed move by move, and charts of how each player stood over the game.

A game played here is replayed from its log (``replay_steps``: dealt again from its seed, every action applied
with the engine). A class table's finished game comes from the table server as everyone saw it
(``public_steps``): the public view after each move and the engine's words, never the seed or a card someone hid
(``railkit.tables.table.Table.replay_for``). ``ReplayPanel`` steps through the latter (buttons with words, not
symbols a font may lack: back to the deal, one move back, next move, the end; or the slider): who played (each
seat a learner's or a computer player's, as the table server says), the position after each move on the lesson's
own board, and the engine's words for that move (its explanations and rule IDs, a payout's breakdown).

``history_plot`` draws, from what a game's lesson measures in the public view after each move (``Measures``: say
money, shares on the table, terrains crossed), one line per player and one chart per measure, stacked.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from railkit.game import BaseView, Game
from railkit.messages import Message
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import render, tr
from railkit.ui.plot import NO_TEMPLATE, Plot, series_style
from railkit.ui.widgets import button, html_box, row, set_shown, set_value
from railkit.wire import message_from_json

__all__ = ["HistoryChart", "Measures", "ReplayPanel", "Step", "history_plot", "public_steps", "replay_steps"]

# the public view after a move -> {measure's English name (translated when shown): {player: value}}
Measures = Callable[[Any], Mapping[str, Mapping[str, float]]]


@dataclass(frozen=True)
class Step:
    """The game after ``move`` actions: the public view, the engine's words for that move, the measures."""

    move: int
    view: Any
    words: tuple[str, ...]
    measures: Mapping[str, Mapping[str, float]]


def _words(event: Any) -> str:
    try:
        return render(event) if isinstance(event, Message) else str(event)
    except Exception:  # noqa: BLE001 - a sentence this railkit cannot fill is shown as it is
        return str(event)


def replay_steps(engine: type[Game[Any]], replay: Mapping[str, Any], measures: Measures | None = None) -> list[Step]:
    """Every position of the game saved as ``replay`` (``Game.to_dict``: players, seed, options, actions), from the
    deal (move 0) to the end; a ``ValueError`` (the engine's) if the log does not replay."""
    game = engine(list(replay["players"]), seed=int(replay["seed"]), **dict(replay.get("options", {})))
    done = 0

    def step(move: int) -> Step:
        nonlocal done
        narrative = game.narrative
        words, done = tuple(_words(e) for e in narrative[done:]), len(narrative)
        view = game.view(None)
        return Step(move, view, words, measures(view) if measures is not None else {})

    steps = [step(0)]
    for move, data in enumerate(replay.get("actions", []), start=1):
        game.apply(engine.registry.from_dict(data))
        steps.append(step(move))
    return steps


def public_steps(view_type: type[BaseView], replay: Mapping[str, Any], measures: Measures | None = None) -> list[Step]:
    """Every position of a class table's finished game as the table server sends it (``{"players", "steps"}``, each
    step the public view's fields that changed and the engine's words as JSON), from the deal to the end; a
    ``ValueError``, ``TypeError`` or ``KeyError`` if it cannot be read."""
    fields: dict[str, Any] = {}
    out: list[Step] = []
    for move, step in enumerate(replay["steps"]):
        fields.update(step["view"])
        view = view_type.from_json(fields)
        words = tuple(_words(message_from_json(w)) for w in step.get("words", ()))
        out.append(Step(move, view, words, measures(view) if measures is not None else {}))
    if not out:
        raise ValueError("a replay holds at least the deal")
    return out


def history_plot(steps: Sequence[Step], players: Sequence[str]) -> Plot:
    """One chart per measure, stacked, with one line per player over the moves of the game."""
    names = list(steps[0].measures) if steps else []
    plot = Plot(layout={"template": NO_TEMPLATE, "height": 200 + 170 * max(1, len(names)),
                        "margin": {"l": 60, "r": 20, "t": 30, "b": 40}, "legend": {"orientation": "h", "y": -0.12},
                        "xaxis": {"title": {"text": tr("Moves")}, "anchor": f"y{len(names) if len(names) > 1 else ''}"}})
    gap = 0.08
    height = (1 - gap * (len(names) - 1)) / max(1, len(names))
    moves = [s.move for s in steps]
    for i, name in enumerate(names):
        axis = "y" if i == 0 else f"y{i + 1}"
        top = 1 - i * (height + gap)
        plot.update_layout(**{"yaxis" if i == 0 else f"yaxis{i + 1}": {
            "title": {"text": tr(name)}, "domain": [max(0.0, top - height), top], "rangemode": "tozero"}})
        for j, player in enumerate(players):
            plot.add_trace({"x": moves, "y": [s.measures[name].get(player, 0) for s in steps], "yaxis": axis,
                            "mode": "lines", "name": player, "legendgroup": player, "showlegend": i == 0,
                            "line": series_style(j)["line"],
                            "hovertemplate": f"{html.escape(player)}: %{{y}}<extra>{html.escape(tr(name))}</extra>"})
    return plot


class ReplayPanel:
    """A finished game, move by move (``load`` it; hidden until then). ``board_html(view, learners)`` draws one
    position, knowing which seats were learners' (the others were computer players)."""

    def __init__(self, engine: type[Game[Any]], board_html: Callable[[Any, Sequence[str]], str],
                 measures: Measures | None = None) -> None:
        self.engine, self.board_html, self.measures = engine, board_html, measures
        self.steps: list[Step] = []
        self.learners: list[str] = []
        self._key: Any = None
        self.slider = widgets.IntSlider(value=0, min=0, max=0, description=tr("Move"), continuous_update=False,
                                        layout=widgets.Layout(width="min(520px, 100%)"))
        self.slider.add_class("railkit-replay-slider")
        self.slider.observe(lambda _c: self.show(), names="value")
        # Each button says what it does in words (its visible label and its name for a screen reader); the icon
        # only adds to them.
        moves = [("step-backward", tr("Back to the deal"), lambda: 0),
                 ("backward", tr("One move back"), lambda: self.slider.value - 1),
                 ("forward", tr("Next move"), lambda: self.slider.value + 1),
                 ("step-forward", tr("The end of the game"), lambda: self.slider.max)]
        self.buttons = []
        for icon, label, to in moves:
            b = button(label, "railkit-replay-step", icon)
            b.on_click(lambda _b, to=to: self.go(to()))
            self.buttons.append(b)
        self.players = html_box("railkit-replay-players")
        self.words = html_box("railkit-replay-words")
        self.board = html_box("railkit-replay-board")
        self.chart = FigureView() if measures is not None else None
        self.widget = widgets.VBox([
            html_box("", f"<b>{html.escape(tr('Replay, move by move'))}</b>"), self.players, row(self.buttons),
            row([self.slider]), self.words, self.board, *([self.chart.widget] if self.chart is not None else [])])
        self.widget.add_class("railkit-replay")
        set_shown(self.widget, False)

    def load(self, replay: Mapping[str, Any] | None) -> None:
        """Replay a class table's finished game as the server sent it (``public_steps``; None: hide). The same game
        again changes nothing (the learner's place is kept)."""
        if replay is None:
            self._key, self.steps = None, []
            set_shown(self.widget, False)
            return
        key = (tuple(replay.get("players", ())), len(replay.get("steps", ())), tuple(replay.get("learners", ())))
        if key == self._key:
            return
        try:
            self.steps = public_steps(self.engine.VIEW, replay, self.measures)
        except (ValueError, TypeError, KeyError, AttributeError):
            set_shown(self.widget, False)  # a log this railkit cannot replay: the result stands without it
            return
        self._key = key
        self.learners = [str(p) for p in replay.get("learners", ())]
        players = [str(p) for p in replay.get("players", ())]
        who = ", ".join(f"{html.escape(p)} ({html.escape(tr('learner') if p in self.learners else tr('computer'))})"
                        for p in players)
        set_value(self.players, f"<p><b>{html.escape(tr('Players'))}:</b> {who}</p>")
        self.slider.max = len(self.steps) - 1
        self.slider.value = 0
        set_shown(self.widget, True)
        self.show()
        if self.chart is not None:
            self.chart.show(history_plot(self.steps, list(replay["players"])))

    def go(self, move: int) -> None:
        self.slider.value = max(0, min(self.slider.max, move))

    def show(self) -> None:
        if not self.steps:
            return
        step = self.steps[max(0, min(len(self.steps) - 1, int(self.slider.value)))]
        total = len(self.steps) - 1
        head = (tr("The deal, before the first move.") if step.move == 0
                else tr("Move {k} of {n}:", k=step.move, n=total))
        items = "".join(f"<li>{html.escape(w)}</li>" for w in step.words)
        set_value(self.words, f"<p><b>{html.escape(head)}</b></p>" + (f"<ul>{items}</ul>" if items else ""))
        set_value(self.board, self.board_html(step.view, self.learners))


class HistoryChart:
    """A finished game's chart in a lesson's post-game review (``show(game)``; None hides it), made once per game."""

    def __init__(self, measures: Measures) -> None:
        self.measures = measures
        self.view = FigureView()
        self.widget = self.view.widget
        self.widget.add_class("railkit-history")
        self._key: Any = None
        set_shown(self.widget, False)

    def show(self, game: Game[Any] | None) -> None:
        if game is None or not game.is_over:
            set_shown(self.widget, False)
            return
        key = (game.seed, tuple(game.players), len(game.log))
        if key != self._key:
            self._key = key
            steps = replay_steps(type(game), game.to_dict(), self.measures)
            self.view.show(history_plot(steps, list(game.players)))
        set_shown(self.widget, True)
