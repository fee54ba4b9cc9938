"""The play lesson's exercise: what does the next crossing cost? (KK-B2, KK-C3, KK-C5), as a panel.

A real position (a game between computer players) at the start of a building turn: how many track
pieces must the player buy, what do they cost, can the player pay? Checked against the engine's
``explain_build``, whose count ``explanation_html`` also shows before the learner builds in a game.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass

import ipywidgets as widgets

from railkit.capecairo import BuildExplanation, CapeToCairoGame, explain_build, new_game
from railkit.capecairo.bots import HeuristicBot
from railkit.capecairo.game import TRACK_PRICE  # KK-B2 (4): the engine's price of one track piece
from railkit.ui.app import InputError, Messages, Panel, Score, guarded, parse_whole, verdict_html
from railkit.ui.capecairo.common import as_learner, card_html, cards_html, line_html, pounds, terrain_name
from railkit.ui.i18n import tr, trn
from railkit.ui.records.lesson_record import ExerciseRecord
from railkit.ui.widgets import button, html_box, row, submit_on_enter

EXERCISE_NAMES = ("Ann", "Ben", "Cleo", "Dev")


@dataclass
class BuildQuestion:
    """A real position (a game between computer players) at the start of ``player``'s building turn."""

    game: CapeToCairoGame
    player: str
    explanation: BuildExplanation
    kind: str


def _kind(e: BuildExplanation) -> str:
    if e.to_buy == 0:
        return "free"
    return "buy" if e.can_afford else "short"


def random_build_question(rng: random.Random, kind: str | None = None) -> BuildQuestion:
    """Play a game between computer players to a random building turn whose numbers fit ``kind``:
    ``"buy"`` (pieces must be bought and can be paid), ``"free"`` (nothing to buy) or ``"short"``
    (the player cannot pay); random when None. Falls back to any building turn."""
    kind = kind or rng.choices(("buy", "free", "short"), weights=(6, 2, 2))[0]
    fallback: BuildQuestion | None = None
    for _ in range(60):
        n = rng.randint(2, 4)
        game = new_game(list(EXERCISE_NAMES[:n]), seed=rng.randrange(1_000_000))
        bots = [HeuristicBot(seed=rng.randrange(1_000_000)) for _ in range(n)]
        stop = rng.randint(6, 160)
        while not game.is_over:
            player = game.current_player
            assert player is not None
            if len(game.log) >= stop and game.phase == "build" and game.state.queues[player]:
                e = explain_build(game, player)
                question = BuildQuestion(game, player, e, _kind(e))
                if question.kind == kind:
                    return question
                fallback = fallback or question
                if len(game.log) > stop + 40:
                    break
            game.apply(bots[game.players.index(player)].choose(game, player))
    assert fallback is not None
    return fallback


def build_question_html(q: BuildQuestion) -> str:
    v = q.game.view(q.player)
    p = q.player
    line = v.queues[p]
    others = line[1:]
    turned = v.flipped
    name = html.escape(p)
    bonus_n, crossed_n = v.bonus_tracks[p], v.crossed[p]
    turn = tr("It is {player}’s turn to build (KK-B1). {player} has {money}, {bonus} and has crossed {crossed}.",
              player=name, money=pounds(v.money[p]),
              bonus=trn("{n} bonus track", "{n} bonus tracks", bonus_n),
              crossed=trn("{n} terrain", "{n} terrains", crossed_n))
    ask = tr("How many track pieces must {player} buy, at the least, to cross it? What do they cost? Can {player} pay "
             "for them?", player=name)
    return (
        f"<p><b>{tr('What does the next crossing cost?')}</b> {turn}</p>"
        f"<div style='display:flex;flex-wrap:wrap;gap:8px 28px'>"
        f"<div><b>{tr('Next terrain in front of {player}’s train:', player=html.escape(p))}</b>"
        f"<div class='kk-cards'>{card_html(line[0])}</div></div>"
        f"<div><b>{tr('Turned up this building round (KK-B1, KK-B3):')}</b>"
        f"{cards_html(turned, empty=tr('none'))}</div></div>"
        f"<p><b>{tr('{player}’s other cards waiting in line:', player=html.escape(p))}</b> "
        f"{line_html(others, mark_next=False) if others else html.escape(tr('none'))}</p>"
        f"<p>{ask}</p>"
    )


def explanation_html(e: BuildExplanation, title: bool = True, you: str | None = None) -> str:
    """The engine's count of a build attempt (KK-B2): a table of the four sources and its sentences
    (in the second person when the player is the learner ``you``)."""
    said = [as_learner(s, you) for s in e.sentences]
    if e.card_id is None:
        return f"<ul>{''.join(f'<li>{html.escape(s)}</li>' for s in said)}</ul>"
    verdict = (f"<span class='railkit-right'>{tr('can build')}</span>" if e.can_afford
               else f"<span class='railkit-wrong'>{tr('cannot pay')}</span>")
    rows = [
        (tr("tracks needed to cross {terrain} (KK-C3)", terrain=terrain_name(e.terrain or "")), str(e.requirement)),
        (tr("track pieces on the cards turned up this round (KK-B2 1)"), str(e.flipped_tracks)),
        (tr("track pieces on your uncrossed cards (KK-B2 2)") if e.player == you else
         tr("track pieces on {player}’s uncrossed cards (KK-B2 2)", player=e.player), str(e.own_tracks)),
        (tr("bonus tracks held (KK-B2 3)"), str(e.bonus_tracks)),
        (tr("pieces to buy at {price} each (KK-B2 4)", price=pounds(TRACK_PRICE)), f"<b>{e.to_buy}</b>"),
        (tr("cost"), f"<b>{pounds(e.cost)}</b>"),
        (tr("money"), pounds(e.money)),
    ]
    body = "".join(f"<tr><td class='name'>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in rows)
    heading = (f"<b>{tr('Your attempt to build, counted by the engine')}: </b>{verdict}" if title
               else f"<b>{tr('The engine’s count')}: </b>{verdict}")
    sentences = "".join(f"<li>{html.escape(s)}</li>" for s in said)
    return (f"<div class='railkit-kk-count'>{heading}<div style='display:flex;flex-wrap:wrap;gap:4px 24px;"
            f"align-items:flex-start'><table class='railkit-table'>{body}</table>"
            f"<ul style='flex:1 1 380px;margin-top:6px'>{sentences}</ul></div></div>")


class ExercisePanel(Panel):
    """The exercise tab; ``score`` counts the first check of each situation."""

    def __init__(self, messages: Messages, rng: random.Random) -> None:
        super().__init__(messages)
        self.rng = rng
        self.question: BuildQuestion | None = None
        self.score = Score()
        self.learning = ExerciseRecord("kk_play", "build_cost", ("KK-B2", "KK-C3", "KK-C5"))
        self.situation = html_box("railkit-kk-exercise-situation")
        wide = {"description_width": "140px"}
        self.pieces_field = widgets.Text(description=tr("Pieces to buy"), placeholder="?", style=wide,
                                         layout=widgets.Layout(width="230px"))
        self.pieces_field.add_class("railkit-kk-pieces")
        self.cost_field = widgets.Text(description=tr("Cost £"), placeholder="?", style=wide,
                                       layout=widgets.Layout(width="230px"))
        self.cost_field.add_class("railkit-kk-cost")
        self.afford = widgets.ToggleButtons(options=[(tr("Yes"), True), (tr("No"), False)], value=None,
                                            style={"button_width": "90px"})
        self.afford.add_class("railkit-kk-afford")
        self.check_button = button(tr("Check"), "railkit-kk-check", "check", "success",
                                   tr("Compare your answer with the engine's numbers"), "120px")
        self.check_button.on_click(lambda _b: self.on_check())
        for field in (self.pieces_field, self.cost_field):
            submit_on_enter(field, self.on_check)
        self.new_button = button(tr("New situation"), "railkit-kk-new-question", "random", "info",
                                 tr("Another position from a game between computer players"))
        self.new_button.on_click(lambda _b: self.on_new_question())
        self.feedback = html_box("railkit-kk-exercise-feedback")
        self.score_html = html_box()
        self.widget = widgets.VBox([
            self.situation,
            row([self.pieces_field, self.cost_field, widgets.HTML(tr("Can pay?")), self.afford]),
            row([self.check_button, self.new_button, self.score_html]),
            self.feedback,
        ])

    def set_question(self, question: BuildQuestion) -> None:
        self.question = question
        self.score.next_question()
        self.learning.question()
        self.situation.value = build_question_html(question)
        self.pieces_field.value = ""
        self.cost_field.value = ""
        self.afford.value = None
        self.feedback.value = ""

    @guarded
    def on_new_question(self) -> BuildQuestion:
        question = random_build_question(self.rng)
        self.set_question(question)
        if self.score.total:  # before the first check the message bar still speaks of the game: keep it
            self.clear_message()
        return question

    @guarded
    def on_check(self) -> bool:
        q = self.question
        if q is None:
            raise InputError(tr("Press “New situation” first."))
        pieces = parse_whole(self.pieces_field.value, tr("Pieces to buy"))
        cost = parse_whole(self.cost_field.value, tr("Cost £"))
        if self.afford.value is None:
            raise InputError(tr("Say whether {player} can pay: press Yes or No.", player=q.player))
        e = q.explanation
        right = {"pieces": pieces == e.to_buy, "cost": cost == e.cost, "afford": self.afford.value == e.can_afford}
        yes_no = {True: tr("yes"), False: tr("no")}
        rows = [
            (tr("pieces to buy"), str(pieces), str(e.to_buy), right["pieces"]),
            (tr("cost"), pounds(cost), pounds(e.cost), right["cost"]),
            (tr("can pay"), yes_no[bool(self.afford.value)], yes_no[e.can_afford], right["afford"]),
        ]
        body = "".join(
            f"<tr><td class='name'>{html.escape(k)}</td><td>{html.escape(a)}</td><td><b>{html.escape(b)}</b></td>"
            f"{verdict_html(ok, 'td')}</tr>"
            for k, a, b, ok in rows)
        self.feedback.value = (
            f"<table class='railkit-table'><tr><th class='name'>{tr('question')}</th><th>{tr('you said')}</th>"
            f"<th>{tr('the engine says')}</th><th>{tr('verdict')}</th></tr>{body}</table>" + explanation_html(e, title=False))
        all_right = all(right.values())
        self.score.record(all_right)
        self.learning.answer(all_right)
        self.score_html.value = tr("Score: {right} of {total} situations right first time.",
                                   right=self.score.right, total=self.score.total)
        if all_right:
            self.show_ok(tr("All right! The engine's count is below."))
        else:
            self.show_info(tr("Not quite: compare your answer with the engine's count below."))
        return all_right


