"""The Union Pacific setup app (lesson ``notebooks/up_setup.ipynb``; rules UP-S1..S8, UP-S7-FI, UP-V1,
UP-V2, UP-2P).

Three tabs and a legend:

* Set up a game — choose 2–6 players, the share-deck option and the safe round, then step through the
  setup with Next: starting trains on the map (UP-S1), track cards (UP-S2), UP shares (UP-S3), company
  shares (UP-S4), the first investment made together with computer players (UP-S5), the display
  (UP-S6), the share deck (UP-S7 / UP-S7-FI / UP-V1 / UP-V2) and who starts (UP-S8). The state is a
  real game (``new_game``) and the learner sees only what ``view("You")`` shows them.
* The share deck — the piles top to bottom and where dividend cards can lie, side by side for the
  standard deck, the Finnish deck, the dividend-card variant and the safe round (``deck_layout``).
* Exercise — questions about the deck, answered from ``deck_layout`` and checked by the app.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass
from typing import Any, Sequence

import ipywidgets as widgets
import plotly.graph_objects as go

from railkit.ui.app import App, InputError, Score, guarded, legend_html, parse_whole, verdict_html
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import tr
from railkit.ui.up_common import LESSON_STYLE, card_label, company_html, company_name, counts_html, row
from railkit.ui.upmap import board_figure
from railkit.unionpacific import UP, ChooseFirstShare, Pile, deck_layout, load_board, new_game
from railkit.unionpacific.bots import HeuristicBot
from railkit.unionpacific.game import DISPLAY, HAND_SHARES, UP_SHARES

YOU = "You"
BOT_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eva")
MIN_PLAYERS, MAX_PLAYERS = 2, 6
DECKS = ("standard", "finnish", "dividend_cards")
DECK_RULE = {"standard": "UP-S7", "finnish": "UP-S7-FI", "dividend_cards": "UP-V1"}
DIVIDEND_COLOUR = "#f2b705"
PLAIN_COLOUR = "#9fb3c8"
RESERVE_COLOUR = "#d9d9d9"


def deck_name(deck: str, in_sentence: bool = False) -> str:
    if in_sentence:
        return {"standard": tr("the standard deck"), "finnish": tr("the Finnish deck"),
                "dividend_cards": tr("the dividend-card variant")}[deck]
    return {"standard": tr("Standard deck"), "finnish": tr("Finnish deck"),
            "dividend_cards": tr("Dividend-card variant")}[deck]


def option_name(deck: str, safe_round: bool, in_sentence: bool = False) -> str:
    """“Standard deck (UP-S7)”, “the Finnish deck (UP-S7-FI) + safe round (UP-V2)”, ..."""
    name = f"{deck_name(deck, in_sentence)} ({DECK_RULE[deck]})"
    return tr("{deck} + safe round (UP-V2)", deck=name) if safe_round else name


# -- the share deck, from the engine's deck_layout ----------------------------------------------
def cards_for_deck(players: int) -> int:
    """Company shares left for the deck after the hands (UP-S4) and the display (UP-S6) are dealt."""
    total = sum(c.shares for c in load_board().companies)
    return total - HAND_SHARES * players - DISPLAY


def layout(deck: str, players: int, safe_round: bool) -> tuple[Pile, ...]:
    return deck_layout(deck, cards_for_deck(players), players, safe_round)


def reserve_size(deck: str, players: int, safe_round: bool) -> int:
    """Cards the safe round sets aside (UP-V2): what the layout leaves out of the deck."""
    return cards_for_deck(players) - sum(p.cards for p in layout(deck, players, safe_round))


def pile_name(pile: Pile) -> str:
    label = pile.label
    for word, text in (("top six", tr("top six")), ("bottom six", tr("bottom six")), ("eighteen", tr("eighteen")),
                       ("rest", tr("rest"))):
        if label == word:
            return text
    if label.startswith("six "):
        return tr("six {n}", n=label.split()[-1])
    if label.startswith("dividend pile "):
        return tr("dividend pile {n}", n=label.split()[-1])
    return label


def pile_spans(piles: Sequence[Pile]) -> list[tuple[Pile, int, int]]:
    """Each pile with its first and last card position, counted from the top (1 = drawn first)."""
    spans, above = [], 0
    for pile in piles:
        spans.append((pile, above + 1, above + pile.size))
        above += pile.size
    return spans


def cards_above_dividend(piles: Sequence[Pile], k: int) -> int:
    """How many cards lie above the earliest position the k-th dividend card (1-based) can have."""
    seen = 0
    for pile, first, _last in pile_spans(piles):
        if seen + pile.dividends >= k:
            return first - 1 + (k - seen - 1)  # the j-th dividend of a pile at the earliest sits j-th
        seen += pile.dividends
    raise ValueError(f"the deck holds only {seen} dividend cards")


def safe_bottom(piles: Sequence[Pile]) -> int:
    """Cards at the bottom of the deck below the last pile that holds a dividend card."""
    total = 0
    for pile in reversed(piles):
        if pile.dividends:
            break
        total += pile.size
    return total


def piles_table_html(piles: Sequence[Pile]) -> str:
    """The piles top to bottom as a table: card positions, shares, dividend cards."""
    rows = "".join(
        f"<tr class='{'dividend' if pile.dividends else ''}'><td class='name'>{html.escape(pile_name(pile))}</td>"
        f"<td class='nowrap'>{first}–{last}</td><td>{pile.cards}</td><td>{pile.dividends or '–'}</td></tr>"
        for pile, first, last in pile_spans(piles))
    head = "".join(f"<th class='{cls}'>{html.escape(tr(name))}</th>" for cls, name in (
        ("name", "pile, top first"), ("", "positions"), ("", "shares"), ("", "dividend cards")))
    return f"<table class='railkit-table railkit-piles'><tr>{head}</tr>{rows}</table>"


def deck_figure(players: int, columns: Sequence[tuple[str, bool]], chosen: int | None = None) -> go.Figure:
    """The share deck top to bottom, one column per (deck option, safe round), for ``players``.

    Piles holding dividend cards are gold (the card(s) may lie anywhere in that pile); the safe round's
    reserve (UP-V2) is drawn apart above the deck: it is not in the deck at the start."""
    names = [option_name(deck, safe).replace(" + ", "<br>+ ").replace(" (", "<br>(", 1) for deck, safe in columns]
    if chosen is not None:
        names[chosen] = f"<b>{names[chosen]}<br>{tr('(this game)')}</b>"
    traces: dict[str, dict[str, list[Any]]] = {k: {"x": [], "y": [], "base": [], "text": [], "hover": []}
                                               for k in ("plain", "dividend", "reserve")}
    deepest = 0
    for name, (deck, safe) in zip(names, columns):
        piles = layout(deck, players, safe)
        for pile, first, last in pile_spans(piles):
            kind = "dividend" if pile.dividends else "plain"
            t = traces[kind]
            t["x"].append(name)
            t["base"].append(first - 1)
            t["y"].append(pile.size)
            if pile.dividends:
                t["text"].append(tr("{name}: {cards} + {d}", name=pile_name(pile), cards=pile.cards,
                                    d=tr("1 dividend") if pile.dividends == 1 else
                                    tr("{n} dividends", n=pile.dividends)))
            else:
                t["text"].append(tr("{name}: {cards}", name=pile_name(pile), cards=pile.cards))
            t["hover"].append(tr("cards {first}–{last}: {cards} shares and {d} dividend card(s), shuffled together",
                                 first=first, last=last, cards=pile.cards, d=pile.dividends))
            deepest = max(deepest, last)
        reserve = reserve_size(deck, players, safe)
        if reserve:
            t = traces["reserve"]
            t["x"].append(name)
            t["base"].append(-reserve - 3)
            t["y"].append(reserve)
            t["text"].append(tr("set aside: {n}", n=reserve))
            t["hover"].append(tr("{n} shares set aside (UP-V2); {p} go on top of the deck after each payout",
                                 n=reserve, p=players))
    styles = {
        "plain": (tr("pile without dividend cards"), PLAIN_COLOUR, ""),
        "dividend": (tr("pile with dividend card(s) shuffled in"), DIVIDEND_COLOUR, ""),
        "reserve": (tr("safe-round reserve, not in the deck (UP-V2)"), RESERVE_COLOUR, "/"),
    }
    fig = go.Figure()
    for kind, t in traces.items():
        if not t["x"]:
            continue
        label, colour, pattern = styles[kind]
        fig.add_trace(go.Bar(
            x=t["x"], y=t["y"], base=t["base"], name=label, text=t["text"], textposition="inside",
            insidetextanchor="middle", textfont=dict(size=14, color="#1a1a1a"), hovertext=t["hover"],
            hoverinfo="text", marker=dict(color=colour, line=dict(color="white", width=2),
                                          pattern=dict(shape=pattern, fgcolor="#9e9e9e") if pattern else None),
            width=0.7,
        ))
    ticks = [1] + [v for v in range(10, deepest - 4, 10)] + [deepest]  # no crowding at the bottom
    fig.update_layout(
        template="none", barmode="overlay", height=560, font=dict(size=14),
        title=dict(text=tr("The share deck for {n} players, top card first", n=players), font=dict(size=17), x=0.01),
        yaxis=dict(autorange="reversed", title=tr("card position (1 = drawn first)"), tickvals=sorted(set(ticks)),
                   zeroline=False, fixedrange=True, showgrid=True, gridcolor="#eeeeee"),
        xaxis=dict(fixedrange=True, tickfont=dict(size=13)),
        margin=dict(l=70, r=10, t=50, b=110), plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.2, x=0),
    )
    return fig


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


def _ordinal(k: int) -> str:
    return {1: tr("first"), 2: tr("second"), 3: tr("third"), 4: tr("fourth")}[k]


def make_question(kind: str, deck: str, players: int, safe_round: bool = False, k: int = 1) -> Question:
    """``kind``: "first_k" (can a dividend be among the first k cards?), "above" (cards above the
    earliest possible k-th dividend), "bottom" (cards at the bottom that never hold a dividend)."""
    piles = layout(deck, players, safe_round)
    where = tr("With {option} and {n} players", option=option_name(deck, safe_round, in_sentence=True), n=players)
    if kind == "first_k":
        earliest = cards_above_dividend(piles, 1) + 1
        answer = earliest <= k
        text = tr("{where}: can a dividend card be among the first {k} cards drawn?", where=where, k=k)
        if answer:
            why = tr("The first pile holding a dividend card starts at card {p}, so a dividend card can be among "
                     "the first {k}.", p=earliest, k=k)
        else:
            why = tr("The first pile holding a dividend card starts at card {p}, so none of the first {k} cards "
                     "can be a dividend card.", p=earliest, k=k)
        return Question(deck, safe_round, players, "yes_no", text, answer, why, piles)
    if kind == "above":
        answer = cards_above_dividend(piles, k)
        text = tr("{where}: how many cards lie above the earliest position the {nth} dividend card can have?",
                  where=where, nth=_ordinal(k))
        why = tr("At the earliest, the {nth} dividend card is card {p}, so {a} cards lie above it.",
                 nth=_ordinal(k), p=answer + 1, a=answer)
        return Question(deck, safe_round, players, "number", text, answer, why, piles)
    if kind == "bottom":
        answer = safe_bottom(piles)
        text = tr("{where}: how many cards at the bottom of the deck can never be a dividend card?", where=where)
        why = tr("Below the last pile that holds a dividend card lie {a} cards.", a=answer)
        return Question(deck, safe_round, players, "number", text, answer, why, piles)
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


# -- the setup steps -------------------------------------------------------------------------------
STEPS: tuple[tuple[str, str], ...] = (
    ("UP-S1", "Starting trains"),
    ("UP-S2", "Track cards"),
    ("UP-S3", "Union Pacific shares"),
    ("UP-S4", "Company shares"),
    ("UP-S5", "The first investment"),
    ("UP-S6", "The display"),
    ("UP-S7", "The share deck"),
    ("UP-S8", "Who starts"),
)


class SetupApp(App):
    """Step through a real setup against computer players; the share deck; an exercise."""

    title = "Union Pacific: setting up"

    def __init__(self, seed: int | None = None) -> None:
        self.board = load_board()
        self.rng = random.Random(seed)
        self.game: Any = None
        self.bots: dict[str, HeuristicBot] = {}
        self.step = 0  # 0 = not dealt; 1..8 = the STEPS shown
        self.first_choice: str | None = None
        self.question: Question | None = None
        self.question_right: bool | None = None
        self.score = Score()
        self._deck_drawn = False
        super().__init__()
        self.set_question(make_question("first_k", "standard", 4, k=6))
        self.show_info(tr("Choose the number of players and the share deck, then press “Deal”."))

    # ------------------------------------------------------------------ widgets
    def build(self) -> widgets.Widget:
        self.tabs = widgets.Tab(children=[self._build_steps(), self._build_deck(), self._build_exercise()])
        for i, name in enumerate([tr("Set up a game"), tr("The share deck"), tr("Exercise")]):
            self.tabs.set_title(i, name)
        self.tabs.observe(lambda _c: self.on_tab(), names="selected_index")
        self.legend = widgets.HTML(self._legend_html())
        self.legend.add_class("railkit-legend")
        return widgets.VBox([widgets.HTML(LESSON_STYLE), self.tabs, self.legend])

    def _build_steps(self) -> widgets.Widget:
        wide = {"description_width": "110px"}
        self.players = widgets.Dropdown(options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), value=4,
                                        description=tr("Players"), style=wide, layout=widgets.Layout(width="200px"))
        self.deck = widgets.Dropdown(options=[(option_name(d, False), d) for d in DECKS], value="standard",
                                     description=tr("Share deck"), style=wide, layout=widgets.Layout(width="420px"))
        self.safe_round = widgets.Checkbox(value=False, description=tr("Safe round (UP-V2)"), indent=False,
                                           layout=widgets.Layout(width="200px"))
        self.players.add_class("railkit-players")
        self.deck.add_class("railkit-deck")
        self.safe_round.add_class("railkit-safe-round")
        self.deal_button = widgets.Button(description=tr("Deal"), icon="play", button_style="primary",
                                          tooltip=tr("Start a new setup with these choices"))
        self.deal_button.add_class("railkit-deal")
        self.next_button = widgets.Button(description=tr("Next step"), icon="arrow-right", button_style="success",
                                          disabled=True, tooltip=tr("Go to the next setup step"))
        self.next_button.add_class("railkit-next")
        self.deal_button.on_click(lambda _b: self.on_deal())
        self.next_button.on_click(lambda _b: self.on_next())
        self.progress = widgets.HTML("")
        self.progress.add_class("railkit-progress")
        self.step_html = widgets.HTML(tr("<p>Nothing dealt yet.</p>"))
        self.step_html.add_class("railkit-step")
        self.after_html = widgets.HTML("")  # below the figure: tables that go with the step
        self.after_html.add_class("railkit-step-details")
        self.first_pick = widgets.RadioButtons(options=[], value=None, description="",
                                               layout=widgets.Layout(width="auto"))
        self.first_pick.add_class("railkit-first-pick")
        self.lay_button = widgets.Button(description=tr("Lay it face down"), icon="hand-paper-o",
                                         button_style="primary",
                                         tooltip=tr("Your first share; the others choose at the same time (UP-S5)"))
        self.lay_button.add_class("railkit-lay")
        self.lay_button.on_click(lambda _b: self.on_lay_first())
        self.first_box = widgets.VBox([widgets.HTML(f"<b>{tr('Your five shares: choose one')}</b>"),
                                       self.first_pick, self.lay_button], layout=widgets.Layout(display="none"))
        self.figure = FigureView()
        return widgets.VBox([
            row([self.players, self.deck, self.safe_round]),
            row([self.deal_button, self.next_button]),
            self.progress, self.step_html, self.first_box, self.figure.widget, self.after_html,
        ])

    def _build_deck(self) -> widgets.Widget:
        self.deck_players = widgets.Dropdown(options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), value=4,
                                             description=tr("Players"), style={"description_width": "110px"},
                                             layout=widgets.Layout(width="200px"))
        self.deck_players.observe(lambda _c: self.on_deck_players(), names="value")
        self.deck_text = widgets.HTML("")
        self.deck_view = FigureView()
        return widgets.VBox([
            widgets.HTML(tr(
                "<p>The share deck is built from the company shares left after the hands (UP-S4) and the display "
                "(UP-S6). Four dividend cards go in, but never among the top six cards. Each gold pile holds "
                "dividend card(s) shuffled in among its shares, so they can lie anywhere in it. The safe round "
                "(UP-V2) works with any deck; it is shown here with the standard deck.</p>")),
            self.deck_players, self.deck_view.widget, self.deck_text,
        ])

    def _build_exercise(self) -> widgets.Widget:
        self.question_html = widgets.HTML("")
        self.question_html.add_class("railkit-question")
        self.yes_no = widgets.ToggleButtons(options=[(tr("Yes"), True), (tr("No"), False)], value=None,
                                            description="", style={"button_width": "90px"})
        self.number = widgets.Text(value="", placeholder=tr("a whole number"), description=tr("Your answer"),
                                   style={"description_width": "110px"}, layout=widgets.Layout(width="260px"))
        self.check_button = widgets.Button(description=tr("Check"), icon="check", button_style="success")
        self.check_button.add_class("railkit-check")
        self.new_question_button = widgets.Button(description=tr("New question"), icon="random", button_style="info")
        self.check_button.on_click(lambda _b: self.on_check())
        self.new_question_button.on_click(lambda _b: self.on_new_question())
        self.answer_html = widgets.HTML("")
        self.answer_html.add_class("railkit-answer")
        self.score_html = widgets.HTML("")
        return widgets.VBox([
            self.question_html, self.yes_no, self.number,
            row([self.check_button, self.new_question_button, self.score_html]),
            self.answer_html,
        ])

    def _legend_html(self) -> str:
        items = [
            (tr("Players, Share deck, Safe round"), tr("the game to set up: 2–6 players; the standard deck (UP-S7), "
                                                       "the Finnish deck (UP-S7-FI) or the dividend-card variant "
                                                       "(UP-V1); the safe round (UP-V2) with any of them")),
            (tr("Deal"), tr("starts a new setup with those choices; you play “You”, the others are computer "
                            "players")),
            (tr("Next step"), tr("goes through the setup in the rulebook's order, UP-S1 to UP-S8")),
            (tr("Lay it face down"), tr("at UP-S5: your first share; the computer players choose at the same time "
                                        "and all are revealed together")),
            (tr("Map"), tr("starting trains are filled squares on their coloured starting spaces; stars are "
                           "headquarters")),
            (tr("The share deck"), tr("each column is one way of building the deck, top card at the top; gold "
                                      "piles hold dividend cards somewhere inside; hover for card positions")),
            (tr("Exercise"), tr("answer with Yes/No or a number, then Check; New question deals another")),
        ]
        return legend_html(items)

    # ------------------------------------------------------------------ the setup steps
    @guarded
    def on_deal(self) -> None:
        n, deck, safe = int(self.players.value), self.deck.value, bool(self.safe_round.value)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InputError(tr("Choose 2 to 6 players."))
        seed = self.rng.randrange(1_000_000)
        seat = random.Random(seed).randrange(n)  # the seats are dealt at random; the first seat starts
        names = list(BOT_NAMES[: n - 1])
        names.insert(seat, YOU)
        game = new_game(names, seed=seed, deck=deck, safe_round=safe)
        self.game = game
        self.bots = {p: HeuristicBot(seed + i) for i, p in enumerate(names) if p != YOU}
        self.first_choice = None
        self.step = 1
        self.show_step()
        self.show_info(tr("A new game for {n} players: {option}. Press “Next step” to go on.",
                          n=n, option=option_name(deck, safe)))

    @guarded
    def on_next(self) -> None:
        if self.game is None:
            raise InputError(tr("Press “Deal” first."))
        if self.step >= len(STEPS):
            raise InputError(tr("The setup is complete. Press “Deal” to set up another game."))
        if self.step == 5 and self.first_choice is None:
            raise InputError(tr("First choose one of your five shares and press “Lay it face down” (UP-S5)."))
        self.step += 1
        self.show_step()
        self.clear_message()

    @guarded
    def on_lay_first(self) -> None:
        game = self.game
        if game is None or self.step != 5:
            raise InputError(tr("The first investment comes at step 5 (UP-S5)."))
        if self.first_choice is not None:
            raise InputError(tr("You have already laid your first share."))
        card = self.first_pick.value
        if card is None:
            raise InputError(tr("Choose one of your five shares first."))
        mine = ChooseFirstShare(YOU, card)
        game.check(mine)  # a RuleError here changes nothing
        # Simultaneous (UP-S5): every computer player decides before any choice is laid down.
        theirs = [self.bots[p].choose(game, p) for p in game.players_to_act() if p != YOU]
        game.apply(mine)
        for action in theirs:
            game.apply(action)
        self.first_choice = card
        self.show_step()
        self.show_ok(tr("Everybody has chosen; the first shares are turned over together (UP-S5)."))

    def view(self) -> dict[str, Any]:
        return self.game.view(YOU)

    def show_step(self) -> None:
        step = self.step
        self.next_button.disabled = self.game is None or step >= len(STEPS)
        items = "".join(
            f"<li class='{'current' if i == step else ('done' if i < step else '')}'>"
            f"{i}. {rule} {html.escape(tr(name))}</li>"
            for i, (rule, name) in enumerate(STEPS, 1)
        )
        header = tr("Step {i} of {n}", i=step, n=len(STEPS)) if step else tr("Steps of the setup")
        self.progress.value = f"<div><b>{header}</b><ol class='railkit-chips'>{items}</ol></div>"
        self.after_html.value = ""
        self.first_box.layout.display = "none"
        renderer = {1: self._step_trains, 2: self._step_track, 3: self._step_up, 4: self._step_shares,
                    5: self._step_first, 6: self._step_display, 7: self._step_deck, 8: self._step_start}
        if step in renderer:
            renderer[step]()
        else:
            self.figure.clear()

    def _players_line(self) -> str:
        return ", ".join(f"<b>{html.escape(p)}</b>" if p == YOU else html.escape(p) for p in self.game.players)

    def _step_trains(self) -> None:
        v, board = self.view(), self.board
        rows = ""
        for c in board.companies:
            starts = ", ".join(html.escape(board.sections[s].name) for s in c.starting_sections)
            rows += (f"<tr><td class='name'>{company_html(board, c.key)}</td>"
                     f"<td class='name'>{html.escape(c.headquarters)}</td><td class='name'>{starts}</td>"
                     f"<td>{len(c.starting_sections)}</td><td>{v['supply'][c.key]}</td>"
                     f"<td>{v['company_values'][c.key]}</td></tr>")
        text = tr("Every company puts one train on its coloured starting space; the El Paso & Rio Grande has "
                  "two. All other trains wait in the supply. A company is worth its trains on the board plus one "
                  "for its headquarters (UP-D2), so most start at 2.")
        head = "".join(f"<th class='{cls}'>{tr(name)}</th>" for cls, name in (
            ("name", "company"), ("name", "headquarters"), ("name", "starting section"), ("", "on the board"),
            ("", "in the supply"), ("", "value")))
        self.step_html.value = (
            f"<h4>{tr('UP-S1 — Starting trains')}</h4>"
            f"<p>{tr('Players: {players}.', players=self._players_line())} {html.escape(text)}</p>")
        self.after_html.value = f"<table class='railkit-table'><tr>{head}</tr>{rows}</table>"
        self.figure.show(board_figure(board, trains_on=v["trains_on"], title=tr("Starting trains (UP-S1)"),
                                      height=560))

    def _others_line(self, what: str) -> str:
        v = self.view()
        return ", ".join(f"{html.escape(p)} {v['hand_sizes'][p][what]}" for p in self.game.players if p != YOU)

    def _set_step(self, title: str, text: str, items: Sequence[str] = (), tail: str = "") -> None:
        """One step's panel: a heading, a paragraph (plain text), a list (HTML items) and extra HTML."""
        listed = "".join(f"<li>{item}</li>" for item in items)
        self.step_html.value = (f"<h4>{html.escape(title)}</h4><p>{html.escape(text)}</p>"
                                + (f"<ul>{listed}</ul>" if listed else "") + tail)

    def _step_track(self) -> None:
        v = self.view()
        mine = ", ".join(f"{n} × {html.escape(card_label(self.board, c))}" for c, n in v["hand"]["track"].items())
        self._set_step(
            tr("UP-S2 — Track cards"),
            tr("The {n} track cards are shuffled and everyone gets three, face down. The rest form the draw pile; "
               "when it runs out, the discards are shuffled into a new one.", n=sum(self.board.track_deck.values())),
            [tr("Your track cards: {cards}.", cards=mine),
             tr("Track cards in the others’ hands (hidden from you): {others}.", others=self._others_line("track")),
             tr("Draw pile: {n} cards.", n=v["track_pile_count"])])
        self.figure.clear()

    def _step_up(self) -> None:
        v = self.view()
        self._set_step(
            tr("UP-S3 — Union Pacific shares"),
            tr("Everyone takes one Union Pacific share into hand. The other UP shares form the UP stack beside "
               "the board; they never go into the share deck."),
            [tr("In your hand: {cards}.", cards=counts_html(self.board, {UP: v["hand"]["shares"].get(UP, 0)})),
             tr("UP stack: {n} of the {total} UP shares ({total} − {players} players).", n=v["up_stack"],
                total=UP_SHARES, players=len(self.game.players))])
        self.figure.clear()

    def _step_shares(self) -> None:
        v = self.view()
        companies = {k: n for k, n in v["hand"]["shares"].items() if k != UP}
        self._set_step(
            tr("UP-S4 — Company shares"),
            tr("The {n} company shares are shuffled and everyone is dealt four. With the UP share, each hand now "
               "holds five shares. Hands are secret.", n=sum(c.shares for c in self.board.companies)),
            [tr("Your company shares: {cards}.", cards=counts_html(self.board, companies)),
             tr("Shares in the others’ hands: {others}.", others=self._others_line("shares"))])
        self.figure.clear()

    def _step_first(self) -> None:
        v = self.view()
        title = tr("UP-S5 — The first investment")
        text = tr("Everyone picks one of their five shares and lays it face down; a UP share is allowed. When "
                  "all have chosen, the shares are turned over together and become the first shares on the "
                  "table. Only shares on the table count at a payout (UP-I4).")
        if self.first_choice is None:
            options = [a.card for a in self.game.legal_actions(YOU) if isinstance(a, ChooseFirstShare)]
            hand = v["hand"]["shares"]
            self.first_pick.options = [
                (company_name(self.board, c) + (f" (× {hand[c]})" if hand.get(c, 0) > 1 else ""), c)
                for c in options
            ]
            self.first_pick.value = None
            self.first_box.layout.display = None
            self._set_step(title, text, [tr("The others are choosing too; you will see their choices only when "
                                            "all are laid.")])
        else:
            rows = "".join(
                f"<tr><td class='name'>{f'<b>{html.escape(p)}</b>' if p == YOU else html.escape(p)}</td>"
                f"<td class='name'>{counts_html(self.board, v['tables'][p])}</td></tr>"
                for p in self.game.players)
            table = (f"<p><b>{tr('Revealed together:')}</b></p><table class='railkit-table'><tr>"
                     f"<th class='name'>{tr('player')}</th><th class='name'>{tr('on the table')}</th></tr>{rows}"
                     f"</table><p>{tr('Your hand now: {cards}.', cards=counts_html(self.board, v['hand']['shares']))}</p>")
            self._set_step(title, text, tail=table)
        self.figure.clear()

    def _step_display(self) -> None:
        v = self.view()
        self._set_step(
            tr("UP-S6 — The display"),
            tr("Four shares are turned face up beside the board. A player who builds may take one of them "
               "(UP-B3); a taken card is replaced at once from the deck. Should all four ever show the same "
               "company, they are removed and four new ones dealt (UP-B5)."),
            [company_html(self.board, c) for c in v["display"] if c is not None])
        self.figure.clear()

    def _step_deck(self) -> None:
        game = self.game
        deck, safe, n = game.options["deck"], game.options["safe_round"], len(game.players)
        piles = layout(deck, n, safe)
        how = {
            "standard": tr("UP-S7 (standard, Spanish and Hungarian rulebooks): the remaining shares are cut into "
                           "piles of 6, 18 and the rest. Three dividend cards are shuffled into the rest, one into "
                           "the 18, and the piles are stacked with the six on top."),
            "finnish": tr("UP-S7-FI (Finnish translation): as the standard deck, with a second pile of six shares "
                          "and no dividend card at the very bottom, so the last six cards are always safe."),
            "dividend_cards": tr("UP-V1 (dividend-card variant): four piles of six, and the rest split into four "
                                 "nearly equal piles, each with one dividend card shuffled in. They are stacked "
                                 "six, dividend pile, six, dividend pile, … with a six on top."),
        }[deck]
        items = []
        if safe:
            items.append(html.escape(tr(
                "Safe round (UP-V2): {r} shares (3 per player) were set aside before the piles were made. After "
                "each payout, {n} of them go on top of the deck, so everyone gets a turn before the next payout.",
                r=reserve_size(deck, n, safe), n=n)))
        if n == 2:
            items.append(html.escape(tr(
                "Two players (UP-2P): the game ends after the third payout, so the fourth dividend card is never "
                "used. When the third dividend card is drawn, the display, the rest of the deck and the UP stack "
                "become the shares of an imaginary third player, who is paid at the last payout.")))
        items.append(html.escape(
            tr("The number of cards left in the deck is public in this game (UP-V3).")
            if game.options["countable_deck"] else
            tr("During play nobody counts the deck; only how the piles were built is known.")))
        self._set_step(tr("UP-S7 — The share deck"), how, items)
        self.after_html.value = piles_table_html(piles)
        columns = [(d, False) for d in DECKS] + [(deck if safe else "standard", True)]
        self.figure.show(deck_figure(n, columns, columns.index((deck, safe))))

    def _step_start(self) -> None:
        v = self.view()
        first = v["current_player"]
        order = " → ".join(html.escape(p) for p in self.game.players)
        if first == YOU:
            turn = tr("You take the first turn: you have drawn a fourth track card (UP-T1) and may now build or "
                      "invest (UP-T3).")
        else:
            turn = tr("{p} takes the first turn: they draw a track card (UP-T1), then build or invest (UP-T3).",
                      p=html.escape(first))
        rules = "UP-D12, UP-2P1" if len(self.game.players) == 2 else "UP-D12"
        self._set_step(
            tr("UP-S8 — Who starts"),
            tr("The youngest (or least experienced) player starts, and play goes clockwise. Here the seats were "
               "dealt at random and the first seat starts."),
            [tr("Seating order: {order}, then round again.", order=order), turn,
             tr("Payouts in this game: {n} ({rules}).", n=v["payouts_total"], rules=rules)],
            tail=f"<p><b>{tr('The setup is complete.')}</b> {tr('Next lesson: building track.')}</p>")
        self.figure.clear()

    # ------------------------------------------------------------------ the deck tab
    @guarded
    def on_tab(self) -> None:
        if self.tabs.selected_index == 1 and not self._deck_drawn:
            self.draw_deck()

    @guarded
    def on_deck_players(self) -> None:
        self.draw_deck()

    def draw_deck(self) -> None:
        n = int(self.deck_players.value)
        columns = [(d, False) for d in DECKS] + [("standard", True)]
        self.deck_view.show(deck_figure(n, columns))
        tables = "".join(
            f"<div><b>{html.escape(option_name(d, s))}</b>{piles_table_html(layout(d, n, s))}</div>"
            for d, s in columns)
        self.deck_text.value = f"<div class='railkit-deck-tables'>{tables}</div>"
        self._deck_drawn = True

    # ------------------------------------------------------------------ exercise
    def set_question(self, question: Question) -> None:
        self.question = question
        self.score.next_question()
        self.question_right = None
        self.question_html.value = f"<p><b>{html.escape(question.text)}</b></p>"
        self.yes_no.value = None
        self.number.value = ""
        self.yes_no.layout.display = None if question.kind == "yes_no" else "none"
        self.number.layout.display = None if question.kind == "number" else "none"
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
        self.question_right = right
        self.answer_html.value = (f"<p>{tr('You answered {given}; the answer is {answer}.', given=html.escape(shown), answer=html.escape(right_text))} "
                                  f"{verdict_html(right)}</p><p>{html.escape(q.explanation)}</p>"
                                  f"<p>{tr('The piles, top to bottom:')}</p>{piles_table_html(q.piles)}")
        self.score_html.value = tr("Score: {right} of {total} questions right first time.",
                                   right=self.score.right, total=self.score.total)
        return self.report_answer(right, tr("Right!"), tr("Not quite: the explanation below walks through the piles."))
