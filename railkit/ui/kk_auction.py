"""The Vom Kap bis Kairo auction app (lesson ``notebooks/kk_auction.ipynb``, rules KK-A1..KK-A7).

Two tabs and a legend:

* Auction — a real game (``railkit.capecairo.new_game``) against one to three computer players
  (``HeuristicBot``). The cards on sale are shown (KK-A1); the computer players hand in sealed bids
  first, and the learner sees only *that* they did (``view``, KK-A2); the learner types a bid. The
  reveal shows every bid, the money left, the choosing order with each tie-break step in the engine's
  words (KK-A3..KK-A5), and which card each player took (KK-A6). When it is the learner's turn to
  choose, one button per card. After the auction, “Next auction” plays the building phase quickly —
  the learner's builds are decided by the computer too — and shows what happened, then the next
  auction begins with the cards left in the deck.
* Who chooses first? — random bids, money and tie-break draws (ties on bid, ties on money left,
  ties on the drawn coin); the learner puts the players in choosing order and the app checks the
  answer against ``explain_auction_order``, with its explanation.

The engine decides everything: what a legal bid is, the order, who chooses when.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass
from typing import Mapping, Sequence

import ipywidgets as widgets

from railkit.capecairo import Bid, Choose, explain_auction_order
from railkit.ui.app import InputError, Score, guarded, legend_html, verdict_html
from railkit.ui.i18n import tr
from railkit.ui.kk_common import KkApp, Table, card_title, events_html, ordinal, pounds, read_bid, read_name

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
    return (
        f"<p><b>{tr('Who chooses first?')}</b> "
        f"{tr('The sealed bids are revealed and everyone has paid their bid (KK-A3). Put the players in choosing order (KK-A4, KK-A5).')}</p>"
        f"<table class='railkit-table'><tr><th class='name'>{tr('player (seating order)')}</th>"
        f"<th>{tr('money before')}</th><th>{tr('bid')}</th><th>{tr('money left')}</th>"
        f"<th>{tr('coins they would draw, in turn, if a draw is needed')}</th></tr>{rows}</table>"
    )


# -- the app -------------------------------------------------------------------------------------------
class KkAuctionApp(KkApp):
    """Bid in a real game against computer players, see the reveal and choose; the order quiz."""

    title = "Vom Kap bis Kairo: the auction"

    def __init__(self, seed: int | None = None, players: int = 3) -> None:
        self.building_events: list[str] = []  # the story of the last round: reveal, choices, building
        self._round_start = 0  # where in the narrative the learner's last bid begins
        self._start_players = players
        super().__init__(seed)

    @property
    def quiz_score(self) -> Score:
        """The quiz's score: [right first time, situations checked]."""
        return self.score

    # ------------------------------------------------------------------ building the widgets
    def build_tabs(self) -> list[tuple[str, widgets.Widget]]:
        return [(tr("Auction"), self._build_auction()), (tr("Who chooses first?"), self._build_quiz())]

    def _build_auction(self) -> widgets.Widget:
        self._build_start_widgets(self._start_players,
                                  tr("Start a new game: everyone at £100, a freshly shuffled deck (KK-S1)"),
                                  name_width="260px", players_width="280px", new_width=None)
        self._build_turn_widgets()
        self.next_button = self._button(tr("Next auction"), "railkit-kk-next", "forward", "primary",
                                        tr("Play the building phase quickly, then turn up new cards (KK-A1)"), "200px")
        self.next_button.on_click(lambda _b: self.on_next_auction())
        self.building_html = self._html("railkit-kk-building")
        return widgets.VBox([
            self._row([self.name_field, self.players, self.new_button]),
            self.status, self.offer_html, self.bid_row, self.choose_box, self.next_button,
            self.reveal, self.players_html, self.building_html,
        ])

    def _build_quiz(self) -> widgets.Widget:
        self.quiz_new = self._button(tr("New situation"), "railkit-kk-quiz-new", "random", "info",
                                     tr("Deal other bids, money and draws"), None)
        self.quiz_new.on_click(lambda _b: self.on_new_question())
        self.quiz_html = self._html("railkit-kk-quiz-situation")
        self.place_fields = [
            widgets.Dropdown(options=[("—", None)], value=None, description=ordinal(i + 1),
                             style={"description_width": "50px"}, layout=widgets.Layout(width="170px"))
            for i in range(len(QUIZ_NAMES))
        ]
        for field in self.place_fields:
            field.add_class("railkit-kk-quiz-place")
        self.quiz_check = self._button(tr("Check"), "railkit-kk-quiz-check", "check", "success",
                                       tr("Compare your order with the engine's"), None)
        self.quiz_check.on_click(lambda _b: self.on_check())
        self.quiz_feedback = self._html("railkit-kk-quiz-feedback")
        self.score_html = self._html()
        return widgets.VBox([
            self.quiz_html,
            self._row([widgets.HTML(f"<b>{tr('Choosing order:')}</b>"), *self.place_fields]),
            self._row([self.quiz_check, self.quiz_new, self.score_html]),
            self.quiz_feedback,
        ])

    def _legend_html(self) -> str:
        return legend_html([
            (tr("Your name, Players, New game"), tr("start a game against 1 to 3 computer players; everyone has £100 "
                                                     "(KK-S1)")),
            (tr("Cards on sale"), tr("one per player (KK-A1): the terrain, the tracks needed to cross it (KK-C3), "
                                     "its track pieces (▮ = one piece) and the coin paid for crossing it")),
            (tr("Your bid £ / Hand in sealed bid"), tr("a whole number from 0 up to your money (KK-A2). The others' "
                                                       "bids stay hidden until yours is in; everyone pays their own "
                                                       "bid, winner or not (KK-A3)")),
            (tr("Reveal"), tr("all bids, the money left, and how the engine settled the choosing order, step by step "
                              "(KK-A4, KK-A5)")),
            (tr("Take …"), tr("when it is your turn to choose, take one card; it joins the end of your line (KK-A6)")),
            (tr("Next auction"), tr("plays the building phase quickly — your builds are decided by the computer — "
                                    "and lists what happened; then new cards go on sale")),
            (tr("Players table"), tr("money, terrain crossed, bonus tracks and the line of cards in front of each "
                                     "train, the next to cross first (bold edge)")),
            (tr("Who chooses first?"), tr("pick the choosing order for 1st, 2nd, … and press Check; New situation "
                                          "deals another")),
        ])

    # ------------------------------------------------------------------ the game
    @guarded
    def on_new_game(self) -> None:
        you = read_name(self.name_field.value)
        table = Table.start(you, int(self.players.value), seed=self.rng.randrange(1_000_000))
        events: list[str] = []
        table.run_bots(events, stop_at_build=True)  # the computer players hand in their sealed bids
        self.table, self.building_events, self._round_start = table, [], 0
        self.bid_field.value = ""
        self.refresh()
        self.show_info(tr("A new game: {n} cards are on sale. The computer players have handed in their sealed "
                          "bids; type yours and press “Hand in sealed bid”.", n=len(self.view()["offer"])))

    @guarded
    def on_bid(self) -> None:
        amount = read_bid(self.bid_field.value)
        events: list[str] = []
        start = len(self.game.narrative)
        self.table.apply(Bid(self.you, amount), events)  # the engine refuses a bad bid; nothing changes
        self.table.run_bots(events, stop_at_build=True)  # computer players who choose before you
        self._round_start, self.building_events = start, []
        self.bid_field.value = ""
        self.refresh()
        v = self.view()
        order = v["last_auction"]["order"]
        place = order.index(self.you) + 1
        if v["phase"] == "choose" and v["current_player"] == self.you:
            self.show_ok(tr("Bids revealed. You paid {bid} and choose {place}: take a card.",
                            bid=pounds(amount), place=ordinal(place)))
        else:
            self.show_ok(tr("Bids revealed. You paid {bid} and chose {place}. See the reveal below.",
                            bid=pounds(amount), place=ordinal(place)))

    @guarded
    def on_choose(self, card_id: str) -> None:
        events: list[str] = []
        self.table.apply(Choose(self.you, card_id), events)  # the engine checks turn and card (KK-A4)
        self.table.run_bots(events, stop_at_build=True)
        self.refresh()
        card = self.game.card(card_id).to_dict()
        self.show_ok(tr("You took {card}; it is now at the end of your line (KK-A6). Press “Next auction” to go on.",
                        card=card_title(card)))

    @guarded
    def on_next_auction(self) -> None:
        game = self.game
        if game.is_over:
            raise InputError(tr("The game is over: press “New game” to play again."))
        if game.phase != "build":
            raise InputError(tr("Finish this auction first: hand in your bid, or take your card."))
        events: list[str] = []
        self.table.run_bots(events, autopilot_builds=True)  # building phase, then the next sealed bids
        self.building_events = self.game.narrative[self._round_start:]
        self.refresh()
        if self.game.is_over:
            self.show_info(tr("The game is over: {result}", result=str(self.game.result())))
        else:
            self.show_info(tr("The building phase is over. Auction {n}: new cards are on sale; the computer players "
                              "have bid, now it is your turn.", n=self.game.auction_no))

    # ------------------------------------------------------------------ showing
    def refresh(self) -> None:
        v = self.view()
        phase, record = v["phase"], v["last_auction"]
        # status line
        if phase == "over":
            text, cls = str(self.game.result()), "kk-over"
        elif phase == "bid":
            text = tr("Auction {n}: the computer players have handed in sealed bids ({who}). Hand in yours: how much "
                      "is choosing early worth to you? (KK-A2)", n=v["auction"],
                      who=", ".join(v["bids_handed_in"]) or tr("none yet"))
            cls = "kk-you"
        elif phase == "choose":
            text = tr("Auction {n}: it is your turn to choose a card (KK-A4).", n=v["auction"])
            cls = "kk-you"
        else:
            text = tr("Auction {n} is over: {winner} chose first and opens the building phase (KK-A7). Press “Next "
                      "auction” to play the building phase quickly and go on.", n=v["auction"],
                      winner=record["order"][0] if record else "")
            cls = ""
        self.status.value = f"<div class='kk-banner {cls}'>{html.escape(text)}</div>"
        self._show_offer(v)
        self._show_bidding(v)
        self._show_choosing(v)
        self.next_button.layout.display = None if phase == "build" else "none"
        # the reveal of the last auction (hidden while a new auction takes bids: it belongs to the past)
        self.reveal.value = self._reveal_html(v)
        self._show_players(v)
        # the building phase played last
        if self.building_events:
            heading = tr("What happened last round: the reveal, the choices and the building phase played by "
                         "the computer (KK-A, KK-B)")
            self.building_html.value = (
                f"<details open><summary><b>{html.escape(heading)}</b></summary>"
                f"<div class='kk-log'>{events_html(self.building_events)}</div></details>")
        else:
            self.building_html.value = ""

    # ------------------------------------------------------------------ the exercise
    def set_question(self, question: OrderQuestion) -> None:
        self.question = question
        self.score.next_question()
        self.quiz_html.value = question_html(question)
        options = [("—", None)] + [(p, p) for p in question.players]
        for i, field in enumerate(self.place_fields):
            field.options = options
            field.value = None
            field.layout.display = None if i < len(question.players) else "none"
        self.quiz_feedback.value = ""

    def deal_question(self) -> OrderQuestion:
        return random_question(self.rng)

    def answer(self, order: Sequence[str]) -> None:
        """Fill the order fields (for tests)."""
        for field, name in zip(self.place_fields, order):
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
        right = [a == b for a, b in zip(picked, q.order)]
        rows = "".join(
            f"<tr><td>{ordinal(i + 1)}</td><td class='name'>{html.escape(picked[i])}</td>"
            f"<td class='name'><b>{html.escape(q.order[i])}</b></td>{verdict_html(ok, 'td')}</tr>"
            for i, ok in enumerate(right)
        )
        steps = "".join(f"<li>{html.escape(s)}</li>" for s in q.steps)
        self.quiz_feedback.value = (
            f"<table class='railkit-table'><tr><th></th><th class='name'>{tr('your order')}</th>"
            f"<th class='name'>{tr('the engine’s order')}</th><th></th></tr>{rows}</table>"
            f"<b>{tr('How the order is settled:')}</b><ol class='railkit-steps'>{steps}</ol>")
        return self._report(all(right), tr("All right! The steps below show how the engine settles it."),
                            tr("Not quite: {n} of {total} places differ. Read the steps below.",
                               n=right.count(False), total=len(right)))
