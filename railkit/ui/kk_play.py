"""The Vom Kap bis Kairo game app (lesson ``notebooks/kk_play.ipynb``; rules KK-S, KK-A, KK-B, KK-R, KK-E).

Two tabs and a legend:

* Game — a complete game against one to three computer players (``HeuristicBot``): the race to
  Cairo (crossed terrain and the line of cards in front of each train), money, bonus tracks, the cards
  turned up this building round, whose turn it is. The learner bids, chooses, and builds or passes;
  before building the app shows the engine's explanation of the attempt (``explain_build``: the track
  sources, pieces to buy, cost, affordable or not) and offers exactly the purchases the engine allows
  (``legal_actions``). The computer players act until it is the learner's turn again; everything that
  happened is listed in the engine's words (``narrative``). Undo takes back the learner's last move by
  replaying the log; the end shows the winner (KK-E1) or the stall ending (KK-B8).
* Exercise — a position from a game between computer players: how many track pieces must the player
  buy to cross the next terrain, what do they cost, and can the player afford them? Checked against
  ``explain_build``.

Nothing here decides a rule: legality, order, costs and the end come from ``railkit.capecairo``.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass
from typing import Any, Mapping

import ipywidgets as widgets

from railkit.capecairo import Bid, Build, BuildExplanation, CapeToCairoGame, Choose, Pass, explain_build, new_game
from railkit.capecairo.bots import HeuristicBot
from railkit.capecairo.game import TRACK_PRICE  # KK-B2 (4): the engine's price of one track piece
from railkit.ui.app import InputError, Score, guarded, legend_html, parse_whole, verdict_html
from railkit.ui.i18n import tr
from railkit.ui.kk_common import (
    KkApp,
    Table,
    card_html,
    card_title,
    cards_html,
    events_html,
    line_html,
    log_html,
    ordinal,
    pounds,
    race_html,
    read_bid,
    read_name,
    terrain_name,
)

NO_BUILD = -1  # the Buy list's value when the engine allows no build now (a None value would show blank)
LENGTHS = (8, 5, 3)  # win_crossings: the full game (KK-E1) and two short teaching games
EXERCISE_NAMES = ("Ann", "Ben", "Cleo", "Dev")


# -- the exercise: what does this crossing cost? ------------------------------------------------------
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
            if len(game.log) >= stop and game.phase == "build" and game.queues[player]:
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
    line = v["queues"][p]
    others = line[1:]
    turned = v["flipped"]
    return (
        f"<p><b>{tr('What does the next crossing cost?')}</b> "
        f"{tr('It is {player}’s turn to build (KK-B1). {player} has {money}, {bonus} bonus track(s) and has crossed {crossed} terrain(s).', player=html.escape(p), money=pounds(v['money'][p]), bonus=v['bonus_tracks'][p], crossed=v['crossed'][p])}</p>"
        f"<div style='display:flex;flex-wrap:wrap;gap:8px 28px'>"
        f"<div><b>{tr('Next terrain in front of {player}’s train:', player=html.escape(p))}</b>"
        f"<div class='kk-cards'>{card_html(line[0])}</div></div>"
        f"<div><b>{tr('Turned up this building round (KK-B1, KK-B3):')}</b>"
        f"{cards_html(turned, empty=tr('none'))}</div></div>"
        f"<p><b>{tr('{player}’s other cards waiting in line:', player=html.escape(p))}</b> "
        f"{line_html(others, mark_next=False) if others else html.escape(tr('none'))}</p>"
        f"<p>{tr('How many track pieces must {player} buy, at the least, to cross it? What do they cost? Can {player} pay for them?', player=html.escape(p))}</p>"
    )


# -- the app -------------------------------------------------------------------------------------------
class KkPlayApp(KkApp):
    """A complete game of Vom Kap bis Kairo against computer players, and the cost exercise."""

    title = "Vom Kap bis Kairo: play a game"

    def __init__(self, seed: int | None = None, players: int = 3, win_crossings: int = 8) -> None:
        self.last_events: list[str] = []  # what happened since the learner's last move
        self._start = (players, win_crossings)
        super().__init__(seed)

    @property
    def exercise_score(self) -> Score:
        """The exercise's score: [right first time, situations checked]."""
        return self.score

    # ------------------------------------------------------------------ building the widgets
    def build_tabs(self) -> list[tuple[str, widgets.Widget]]:
        return [(tr("Game"), self._build_game()), (tr("Exercise"), self._build_exercise())]

    def _build_game(self) -> widgets.Widget:
        players, length = self._start
        self._build_start_widgets(players, tr("Start again: everyone at £100, a freshly shuffled deck (KK-S1)"),
                                  name_width="250px", players_width="270px", new_width="auto")
        self.length = widgets.Dropdown(
            options=[(tr("{n} terrains (full game)", n=n) if n == 8 else tr("{n} terrains (short)", n=n), n)
                     for n in LENGTHS],
            value=length, description=tr("To win"), style={"description_width": "60px"},
            layout=widgets.Layout(width="270px"))
        self.length.add_class("railkit-kk-length")
        self._build_turn_widgets()
        self.race = self._html("railkit-kk-race")
        # building (KK-B)
        self.flipped_html = self._html("railkit-kk-flipped")
        self.explain_html = self._html("railkit-kk-explain")
        self.buy = widgets.Dropdown(options=[(tr("—"), NO_BUILD)], value=NO_BUILD, description=tr("Buy"),
                                    style={"description_width": "45px"}, layout=widgets.Layout(width="560px"))
        self.buy.add_class("railkit-kk-buy")
        self.build_button = self._button(tr("Build"), "railkit-kk-build", "wrench", "success",
                                         tr("Cross the next terrain in front of your train (KK-B2)"), "130px")
        self.build_button.on_click(lambda _b: self.on_build())
        self.pass_button = self._button(tr("Pass"), "railkit-kk-pass", "forward", "",
                                        tr("Do not build now; the turn goes to the left (KK-B3)"), "130px")
        self.pass_button.on_click(lambda _b: self.on_pass())
        self.build_box = widgets.VBox([self.flipped_html, self.explain_html,
                                       self._row([self.buy, self.build_button, self.pass_button])])
        self.build_box.add_class("railkit-kk-build-box")

        self.undo_button = self._button(tr("Undo my last move"), "railkit-kk-undo", "undo", "",
                                        tr("Take back your last move (the game is replayed without it)"))
        self.undo_button.on_click(lambda _b: self.on_undo())
        self.auto_button = self._button(tr("Computer plays my move"), "railkit-kk-auto", "magic", "",
                                        tr("Let the computer make this one move for you"))
        self.auto_button.on_click(lambda _b: self.on_auto())
        self.events_html = self._html("railkit-kk-events")
        self.log_html = self._html("railkit-kk-log")
        return widgets.VBox([
            self._row([self.name_field, self.players, self.length, self.new_button]),
            self.status, self.race,
            self.offer_html, self.bid_row, self.choose_box, self.build_box, self.reveal,
            self._row([self.undo_button, self.auto_button]),
            self.events_html, self.players_html, self.log_html,
        ])

    def _build_exercise(self) -> widgets.Widget:
        self.exercise_html = self._html("railkit-kk-exercise-situation")
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
        self.check_button = self._button(tr("Check"), "railkit-kk-check", "check", "success",
                                         tr("Compare your answer with the engine's numbers"), "120px")
        self.check_button.on_click(lambda _b: self.on_check())
        self.new_question_button = self._button(tr("New situation"), "railkit-kk-new-question", "random", "info",
                                                tr("Another position from a game between computer players"))
        self.new_question_button.on_click(lambda _b: self.on_new_question())
        self.exercise_feedback = self._html("railkit-kk-exercise-feedback")
        self.score_html = self._html()
        return widgets.VBox([
            self.exercise_html,
            self._row([self.pieces_field, self.cost_field, widgets.HTML(tr("Can pay?")), self.afford]),
            self._row([self.check_button, self.new_question_button, self.score_html]),
            self.exercise_feedback,
        ])

    def _legend_html(self) -> str:
        return legend_html([
            (tr("Your name, Players, To win, New game"), tr("start a game against 1 to 3 computer players; the full "
                                                           "game is won by crossing 8 terrains (KK-E1), the short "
                                                           "ones end sooner")),
            (tr("The race"), tr("one row per player: filled cells are terrain crossed, dashed cells the cards "
                                "waiting in front of the train (solid edge: the next to cross)")),
            (tr("Cards"), tr("terrain and the tracks it needs (KK-C3), ▮ = one track piece printed on the card, "
                             "£ = the coin paid for crossing it")),
            (tr("Hand in sealed bid"), tr("a whole number from 0 up to your money; everybody pays their bid (KK-A2, "
                                          "KK-A3)")),
            (tr("Take …"), tr("your turn to choose: the card joins the end of your line (KK-A6)")),
            (tr("Buy / Build / Pass"), tr("the explanation counts your tracks (KK-B2); Buy lists the purchases the "
                                         "engine allows — buying more keeps bonus tracks; Pass hands the turn to "
                                         "the left (KK-B3)")),
            (tr("Undo my last move"), tr("takes back your last move; the game is replayed without it")),
            (tr("Computer plays my move"), tr("the computer makes your next move for you")),
            (tr("Since your last move / Whole game log"), tr("what happened, in plain words, with rule IDs")),
            (tr("Exercise"), tr("type the pieces to buy and their cost, say whether the player can pay, then Check; "
                                "New situation deals another position")),
        ])

    # ------------------------------------------------------------------ the game
    @guarded
    def on_new_game(self) -> None:
        you = read_name(self.name_field.value)
        table = Table.start(you, int(self.players.value), seed=self.rng.randrange(1_000_000),
                            win_crossings=int(self.length.value))
        events: list[str] = []
        table.run_bots(events)
        self.table, self.last_events = table, []
        self.bid_field.value = ""
        self.refresh()
        self.show_info(tr("A new game. Auction 1: the computer players have handed in sealed bids; hand in yours."))

    def _move(self, action: Any) -> list[str]:
        """The learner's action (checked by the engine first), then the computer players until the
        learner's next turn."""
        assert self.table is not None
        events: list[str] = []
        self.table.apply(action, events)
        self.table.run_bots(events)
        self.last_events = events
        self.refresh()
        return events

    def _after_move(self, done: str) -> None:
        if self.game.is_over:
            self.show_ok(tr("{done} The game is over: {result}", done=done, result=str(self.game.result())))
        else:
            self.show_ok(tr("{done} Now: {next}", done=done, next=self._next_text()))

    @guarded
    def on_bid(self) -> None:
        amount = read_bid(self.bid_field.value)
        self._move(Bid(self.you, amount))
        self.bid_field.value = ""
        self._after_move(tr("You bid {bid}.", bid=pounds(amount)))

    @guarded
    def on_choose(self, card_id: str) -> None:
        self._move(Choose(self.you, card_id))
        self._after_move(tr("You took {card}.", card=card_title(self.game.card(card_id).to_dict())))

    @guarded
    def on_build(self) -> None:
        buy = self.buy.value
        if buy is None or buy == NO_BUILD:
            raise InputError(tr("You cannot build now: {why} Pass instead.", why=self._why_not()))
        crossed = self.game.queues[self.you][0]
        self._move(Build(self.you, int(buy)))
        self._after_move(tr("You crossed {card}.", card=card_title(self.game.card(crossed).to_dict())))

    @guarded
    def on_pass(self) -> None:
        self._move(Pass(self.you))
        self._after_move(tr("You passed."))

    @guarded
    def on_auto(self) -> None:
        if not self.table.learner_to_act():
            raise InputError(tr("There is no move of yours to make: the game is over. Press “New game”."))
        action = self.table.bot_action(self.you)
        self._move(action)
        self._after_move(tr("The computer made your move: {what}", what=self._action_words(action)))

    @guarded
    def on_undo(self) -> None:
        table = self.table
        index = table.last_index_of(self.you)
        if index is None:
            raise InputError(tr("There is nothing to undo: you have not made a move in this game yet."))
        undone = table.game.log[index]
        rewound = table.rewound(index)  # replay the log up to just before your last move
        rewound.run_bots([])  # normally nothing: the computer players had acted before your move
        self.table, self.last_events = rewound, []
        self.bid_field.value = ""
        self.refresh()
        self.show_info(tr("Taken back: {what} It is your move again.", what=self._action_words(undone)))

    # ------------------------------------------------------------------ words
    def _action_words(self, action: Any) -> str:
        if isinstance(action, Bid):
            return tr("a bid of {bid}.", bid=pounds(action.amount))
        if isinstance(action, Choose):
            return tr("taking {card}.", card=card_title(self.game.card(action.card_id).to_dict()))
        if isinstance(action, Build):
            return tr("building (buying {n} piece(s)).", n=action.buy if action.buy is not None else 0)
        return tr("passing.")

    def _why_not(self) -> str:
        e = explain_build(self.game, self.you)
        return " ".join(e.sentences[-2:]) if e.sentences else ""

    def _next_text(self) -> str:
        v = self.view()
        phase = v["phase"]
        if phase == "bid":
            return tr("auction {n} — hand in your sealed bid (KK-A2).", n=v["auction"])
        if phase == "choose":
            place = v["last_auction"]["order"].index(self.you) + 1
            return tr("you choose {place} — take a card (KK-A4).", place=ordinal(place))
        if phase == "build":
            return tr("your building turn — build or pass (KK-B2, KK-B3).")
        return ""

    # ------------------------------------------------------------------ showing
    def refresh(self) -> None:
        v, you, game = self.view(), self.you, self.game
        phase = v["phase"]
        to_act = you in v["to_act"]
        record = v["last_auction"]
        # status
        if phase == "over":
            result = game.result()
            rule = tr("the stall ending (KK-B8)") if result.ending == "KK-B8" else tr("KK-E1")
            who = ", ".join(result.winners)
            head = (tr("{who} wins by {rule}!", who=who, rule=rule) if len(result.winners) == 1
                    else tr("{who} share the win by {rule}!", who=who, rule=rule))
            if you in result.winners:
                head += " " + tr("Well done!")
            self.status.value = (f"<div class='kk-banner kk-over'><b>{html.escape(head)}</b> "
                                 f"{html.escape(str(result))}</div>")
        else:
            self.status.value = (f"<div class='kk-banner kk-you'><b>{html.escape(tr('Your move'))}:</b> "
                                 f"{html.escape(self._next_text())} "
                                 f"<span class='kk-muted'>{html.escape(self._deck_text(v))}</span></div>")
        self.race.value = race_html(v)
        self._show_offer(v)
        self._show_bidding(v)
        self._show_choosing(v)
        # building
        if phase == "build" and to_act:
            self.flipped_html.value = (
                f"<b>{tr('Turned up this building round (KK-B1, KK-B3): {n} card(s)', n=len(v['flipped']))}</b>"
                + cards_html(v["flipped"], empty=tr("none: no card was left to turn up")))
            self.explain_html.value = explanation_html(explain_build(game, you))
            self._set_buy_options()
            self.build_box.layout.display = None
        else:
            self.build_box.layout.display = "none"
        # the last auction: open while choosing, folded away later
        body = self._reveal_html(v)
        self.reveal.value = body if not body or phase == "choose" else (
            f"<details><summary><b>{tr('The last auction (auction {n})', n=record['number'])}</b></summary>"
            f"{body}</details>")
        self._show_players(v)
        self.undo_button.disabled = self.table.last_index_of(you) is None
        self.auto_button.disabled = not to_act
        self.events_html.value = (
            f"<b>{tr('Since your last move')}</b><div class='kk-log'>"
            f"{events_html(self.last_events, empty=tr('Nothing yet: the game has just begun or your move was taken back.'))}</div>")
        self.log_html.value = (f"<details><summary><b>{tr('Whole game log ({n} entries)', n=len(game.narrative))}</b>"
                               f"</summary>{log_html(game.narrative)}</details>")

    def _paid_text(self, record: Mapping[str, Any], player: str) -> str:
        return tr("{bid} (auction {n})", bid=pounds(record["bids"][player]), n=record["number"])

    def _deck_text(self, v: dict[str, Any]) -> str:
        return tr("Deck: {deck} cards, discard pile: {discard}.", deck=v["deck_count"], discard=v["discard_count"])

    def _set_buy_options(self) -> None:
        """The purchases the engine allows now (``legal_actions``), with what each costs and spends."""
        game, you = self.game, self.you
        builds = [a for a in game.legal_actions(you) if isinstance(a, Build)]
        numbers = game.build_numbers(you)
        if not builds:
            self.buy.options = [(tr("nothing: you cannot build now (see the count above)"), NO_BUILD)]
            self.buy.value = NO_BUILD
            self.buy.disabled = True
            self.build_button.disabled = True
            return
        options = []
        for i, action in enumerate(builds):
            n = action.buy
            spent = numbers.bonus_spent(n)
            label = tr("{n} piece(s) for {cost}", n=n, cost=pounds(n * TRACK_PRICE))
            if spent:
                label += tr(", using {k} bonus track(s)", k=spent)
            if i == 0 and len(builds) > 1:
                label += tr(" (fewest)")
            options.append((label, n))
        self.buy.options = options
        self.buy.value = builds[0].buy
        self.buy.disabled = len(builds) == 1
        self.build_button.disabled = False

    # ------------------------------------------------------------------ the exercise
    def set_question(self, question: BuildQuestion) -> None:
        self.question = question
        self.score.next_question()
        self.exercise_html.value = build_question_html(question)
        self.pieces_field.value = ""
        self.cost_field.value = ""
        self.afford.value = None
        self.exercise_feedback.value = ""

    def deal_question(self) -> BuildQuestion:
        return random_build_question(self.rng)

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
        self.exercise_feedback.value = (
            f"<table class='railkit-table'><tr><th class='name'></th><th>{tr('you said')}</th>"
            f"<th>{tr('the engine says')}</th><th></th></tr>{body}</table>" + explanation_html(e, title=False))
        return self._report(all(right.values()), tr("All right! The engine's count is below."),
                            tr("Not quite: compare your answer with the engine's count below."))


def explanation_html(e: BuildExplanation, title: bool = True) -> str:
    """The engine's count of a build attempt (KK-B2): a table of the four sources and its sentences."""
    if e.card_id is None:
        return f"<ul>{''.join(f'<li>{html.escape(s)}</li>' for s in e.sentences)}</ul>"
    verdict = (f"<span class='railkit-right'>{tr('can build')}</span>" if e.can_afford
               else f"<span class='railkit-wrong'>{tr('cannot pay')}</span>")
    rows = [
        (tr("tracks needed to cross {terrain} (KK-C3)", terrain=terrain_name(e.terrain or "")), str(e.requirement)),
        (tr("track pieces on the cards turned up this round (KK-B2 1)"), str(e.flipped_tracks)),
        (tr("track pieces on {player}’s uncrossed cards (KK-B2 2)", player=e.player), str(e.own_tracks)),
        (tr("bonus tracks held (KK-B2 3)"), str(e.bonus_tracks)),
        (tr("pieces to buy at {price} each (KK-B2 4)", price=pounds(TRACK_PRICE)), f"<b>{e.to_buy}</b>"),
        (tr("cost"), f"<b>{pounds(e.cost)}</b>"),
        (tr("money"), pounds(e.money)),
    ]
    body = "".join(f"<tr><td class='name'>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in rows)
    heading = (f"<b>{tr('Your attempt to build, counted by the engine')}: </b>{verdict}" if title
               else f"<b>{tr('The engine’s count')}: </b>{verdict}")
    sentences = "".join(f"<li>{html.escape(s)}</li>" for s in e.sentences)
    return (f"<div class='railkit-kk-count'>{heading}<div style='display:flex;flex-wrap:wrap;gap:4px 24px;"
            f"align-items:flex-start'><table class='railkit-table'>{body}</table>"
            f"<ul style='flex:1 1 380px;margin-top:6px'>{sentences}</ul></div></div>")
