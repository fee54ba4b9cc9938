"""The setup lesson's main tab: a real game (``new_game``) set up step by step against computer players
(UP-S1..UP-S8), showing the learner only what ``view("You")`` shows them.
"""

from __future__ import annotations

import html
import random
from collections.abc import Sequence

import ipywidgets as widgets

from railkit.messages import N_
from railkit.ui.app import InputError, Messages, Panel, guarded
from railkit.ui.docs import reconstruction_note
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import tr, trn
from railkit.ui.records.learner import DEFAULT_LEARNER, check_name, default_learner
from railkit.ui.unionpacific.board_map import board_figure
from railkit.ui.unionpacific.common import DECKS, card_label, company_html, company_name, counts_html, option_name
from railkit.ui.unionpacific.setup.deck import deck_figure, layout, piles_table_html, reserve_size
from railkit.ui.unionpacific.setup.pills import StepPills
from railkit.ui.widgets import row
from railkit.unionpacific import GENERAL, UP, Board, ChooseFirstShare, UnionPacificGame, new_game
from railkit.unionpacific.bots import HeuristicBot
from railkit.unionpacific.game import UP_SHARES
from railkit.unionpacific.views import HandView, UPView

YOU = DEFAULT_LEARNER
BOT_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eva", "Finn")  # one spare: the learner may take a name
MIN_PLAYERS, MAX_PLAYERS = 2, 6


def map_note() -> str:
    return reconstruction_note(tr("The real Union Pacific map and six of the ten company names are not in the "
                                  "sources: this board is railkit's reconstruction."))


def deck_note() -> str:
    return reconstruction_note(tr("The pile layout follows the rulebooks; the company names on the shares are "
                                  "partly railkit's reconstruction."))

# -- the setup steps -------------------------------------------------------------------------------
STEPS: tuple[tuple[str, str], ...] = (
    ("UP-S1", N_("Starting trains")),
    ("UP-S2", N_("Track cards")),
    ("UP-S3", N_("Union Pacific shares")),
    ("UP-S4", N_("Company shares")),
    ("UP-S5", N_("The first investment")),
    ("UP-S6", N_("The display")),
    ("UP-S7", N_("The share deck")),
    ("UP-S8", N_("Who starts")),
)



class StepsPanel(Panel):
    """“Set up a game”: players, share deck and safe round; Deal, Next step, and the first share (UP-S5)."""

    def __init__(self, messages: Messages, board: Board, rng: random.Random,
                 board_options: dict[str, str] | None = None) -> None:
        self.board_options = dict(board_options or {})  # a club's board file (``railkit.ui.club_files``)
        super().__init__(messages)
        self.board = board
        self.rng = rng
        self.game: UnionPacificGame | None = None
        self.bots: dict[str, HeuristicBot] = {}
        self.you = default_learner()  # the learner's seat, named in the “Your name” field
        self.step = 0  # 0 = not dealt; 1..8 = the STEPS shown
        self.reached = 0  # the furthest step shown since the deal (the pills can go back to any of them)
        self.first_choice: str | None = None
        self.link_seed: int | None = None  # the class link's game number: the first deal uses it (class_link)
        self.widget = self._build()

    def _build(self) -> widgets.Widget:
        wide = {"description_width": "110px"}
        self.players = widgets.Dropdown(options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), value=4,
                                        description=tr("Players"), style=wide, layout=widgets.Layout(width="200px"))
        self.deck = widgets.Dropdown(options=[(option_name(d, False), d) for d in DECKS], value="standard",
                                     description=tr("Share deck"), style=wide, layout=widgets.Layout(width="420px"))
        self.safe_round = widgets.Checkbox(value=False, description=tr("Safe round (UP-V2)"), indent=False,
                                           layout=widgets.Layout(width="200px"))
        self.name = widgets.Text(value=self.you, description=tr("Your name"), style=wide,
                                 layout=widgets.Layout(width="300px"))
        self.name.add_class("railkit-name")
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
        self.pills = StepPills(STEPS, self.on_go)
        self.step_html = widgets.HTML(tr("<p>Nothing dealt yet.</p>"))
        self.step_html.add_class("railkit-step")
        self.after_html = widgets.HTML("")  # below the figure: tables that go with the step
        self.after_html.add_class("railkit-step-details")
        self.first_pick = widgets.RadioButtons(options=[], value=None, description="",
                                               layout=widgets.Layout(width="auto"))
        self.first_pick.add_class("railkit-first-pick")
        self.lay_button = widgets.Button(description=tr("Lay it face down"), icon="hand-paper-o",
                                         button_style="primary", layout=widgets.Layout(width="240px"),
                                         tooltip=tr("Your first share; the others choose at the same time (UP-S5)"))
        self.lay_button.add_class("railkit-lay")
        self.lay_button.on_click(lambda _b: self.on_lay_first())
        self.first_box = widgets.VBox([widgets.HTML(f"<b>{tr('Your five shares: choose one')}</b>"),
                                       self.first_pick, self.lay_button], layout=widgets.Layout(display="none"))
        self.figure = FigureView()
        return widgets.VBox([
            row([self.name, self.players, self.deck, self.safe_round]),
            row([self.deal_button, self.next_button]),
            self.progress, self.pills.widget, self.step_html, self.first_box, self.figure.widget, self.after_html,
        ])


    def use_learner_name(self, name: str) -> bool:
        """The page address names the learner: their seat's name, unless a setup is
        already dealt (it keeps its names)."""
        if self.game is not None:
            return False
        self.name.value = name
        return True

    # ------------------------------------------------------------------ the setup steps
    @guarded
    def on_deal(self) -> None:
        n, deck, safe = int(self.players.value), self.deck.value, bool(self.safe_round.value)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InputError(tr("Choose 2 to 6 players."))
        you = check_name(self.name.value, tr("Your name"))
        seed = self.link_seed if self.link_seed is not None else self.rng.randrange(1_000_000)
        self.link_seed = None  # a later “Deal” deals afresh
        seat = random.Random(seed).randrange(n)  # the seats are dealt at random; the first seat starts
        names = [b for b in BOT_NAMES if b.casefold() != you.casefold()][: n - 1]
        names.insert(seat, you)
        self.you = you
        game = new_game(names, seed=seed, deck=deck, safe_round=safe, **self.board_options)
        self.game = game
        self.bots = {p: HeuristicBot(seed + i) for i, p in enumerate(names) if p != self.you}
        self.first_choice = None
        self.step = self.reached = 1
        self.show_step()
        self.show_info(trn("A new game for {n} player: {option}. Press “Next step” to go on.",
                           "A new game for {n} players: {option}. Press “Next step” to go on.", n,
                           option=option_name(deck, safe)))

    @guarded
    def on_next(self) -> None:
        if self.game is None:
            raise InputError(tr("Press “Deal” first."))
        if self.step >= len(STEPS):
            raise InputError(tr("The setup is complete. Press “Deal” to set up another game."))
        if self.step == 5 and self.first_choice is None:
            raise InputError(tr("First choose one of your five shares and press “Lay it face down” (UP-S5)."))
        self.step += 1
        self.reached = max(self.reached, self.step)
        self.show_step()
        self.clear_message()

    @guarded
    def on_go(self, step: int) -> None:
        """A step pill: show a step already reached again (the setup is not undone)."""
        if self.game is None or not 1 <= step <= self.reached:
            raise InputError(tr("Press “Next step” to get there."))
        self.step = step
        self.show_step()
        if step < self.reached:
            self.show_info(tr("Back at step {i}. “Next step” goes on from here.", i=step))
        else:
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
        mine = ChooseFirstShare(self.you, card)
        game.check(mine)  # a RuleError here changes nothing
        # Simultaneous (UP-S5): every computer player decides before any choice is laid down.
        theirs = [self.bots[p].choose(game, p) for p in game.players_to_act() if p != self.you]
        game.apply(mine)
        for action in theirs:
            game.apply(action)
        self.first_choice = card
        self.show_step()
        self.show_ok(tr("Everybody has chosen; the first shares are turned over together (UP-S5)."))

    @property
    def dealt(self) -> UnionPacificGame:
        """The game being set up (the steps are shown only once it is dealt)."""
        assert self.game is not None
        return self.game

    def view(self) -> UPView:
        return self.dealt.view(self.you)

    def hand(self) -> HandView:
        hand = self.view().hand
        assert hand is not None  # the learner's own view
        return hand

    def show_step(self) -> None:
        step = self.step
        self.next_button.disabled = self.game is None or step >= len(STEPS)
        header = tr("Step {i} of {n}", i=step, n=len(STEPS)) if step else tr("Steps of the setup")
        hint = tr("(press a green step to see it again)") if self.reached > 1 else ""
        self.progress.value = f"<div><b>{header}</b> <span style='color:#555'>{hint}</span></div>"
        self.pills.show(step, self.reached)
        self.after_html.value = ""
        self.first_box.layout.display = "none"
        renderer = {1: self._step_trains, 2: self._step_track, 3: self._step_up, 4: self._step_shares,
                    5: self._step_first, 6: self._step_display, 7: self._step_deck, 8: self._step_start}
        if step in renderer:
            renderer[step]()
        else:
            self.figure.clear()

    def _players_line(self) -> str:
        return ", ".join(f"<b>{html.escape(p)}</b>" if p == self.you else html.escape(p) for p in self.dealt.players)

    def _step_trains(self) -> None:
        v, board = self.view(), self.board
        rows = ""
        for c in board.companies:
            starts = ", ".join(html.escape(board.sections[s].name) for s in c.starting_sections)
            rows += (f"<tr><td class='name'>{company_html(board, c.key)}</td>"
                     f"<td class='name'>{html.escape(c.headquarters)}</td><td class='name'>{starts}</td>"
                     f"<td>{len(c.starting_sections)}</td><td>{v.supply[c.key]}</td>"
                     f"<td>{v.company_values[c.key]}</td></tr>")
        text = tr("Every company puts one train on its coloured starting space; the El Paso & Rio Grande has "
                  "two. All other trains wait in the supply. A company is worth its trains on the board plus one "
                  "for its headquarters (UP-D2), so most start at 2.")
        head = "".join(f"<th class='{cls}'>{tr(name)}</th>" for cls, name in (
            ("name", N_("company")), ("name", N_("headquarters")), ("name", N_("starting section")),
            ("", N_("on the board")), ("", N_("in the supply")), ("", N_("value"))))
        self.step_html.value = (
            f"<h4>{tr('UP-S1 — Starting trains')}</h4>"
            f"<p>{tr('Players: {players}.', players=self._players_line())} {html.escape(text)}</p>")
        self.after_html.value = map_note() + f"<table class='railkit-table'><tr>{head}</tr>{rows}</table>"
        self.figure.show(board_figure(board, trains_on=v.trains_on, title=tr("Starting trains (UP-S1)"),
                                      height=560))

    def _others_line(self, what: str) -> str:
        v = self.view()
        return ", ".join(f"{html.escape(p)} {v.hand_sizes[p][what]}" for p in self.dealt.players if p != self.you)

    def _set_step(self, title: str, text: str, items: Sequence[str] = (), tail: str = "") -> None:
        """One step's panel: a heading, a paragraph (plain text), a list (HTML items) and extra HTML."""
        listed = "".join(f"<li>{item}</li>" for item in items)
        self.step_html.value = (f"<h4>{html.escape(title)}</h4><p>{html.escape(text)}</p>"
                                + (f"<ul>{listed}</ul>" if listed else "") + tail)

    def _step_track(self) -> None:
        v = self.view()
        mine = ", ".join(f"{n} × {html.escape(card_label(self.board, c))}" for c, n in self.hand().track.items())
        deck = sorted(self.board.track_deck.items(), key=lambda kv: (kv[0] == GENERAL, -kv[1]))
        split = ", ".join(f"{n} {html.escape(card_label(self.board, c))}" for c, n in deck)
        note = reconstruction_note(tr(
            "The rulebook gives the counts 4, 6, 9, 7 and 14 but not which type gets which: that assignment is "
            "railkit's DECISION (UP-C4)."))
        self._set_step(
            tr("UP-S2 — Track cards"),
            trn("The {n} track card is shuffled and everyone gets three, face down. The rest form the draw pile; "
                "when it runs out, the discards are shuffled into a new one.",
                "The {n} track cards are shuffled and everyone gets three, face down. The rest form the draw pile; "
                "when it runs out, the discards are shuffled into a new one.", sum(self.board.track_deck.values())),
            [tr("The deck: {split}.", split=split) + note,
             tr("Your track cards: {cards}.", cards=mine),
             tr("Track cards in the others’ hands (hidden from you): {others}.", others=self._others_line("track")),
             trn("Draw pile: {n} card.", "Draw pile: {n} cards.", v.track_pile_count)])
        self.figure.clear()

    def _step_up(self) -> None:
        v = self.view()
        self._set_step(
            tr("UP-S3 — Union Pacific shares"),
            tr("Everyone takes one Union Pacific share into hand. The other UP shares form the UP stack beside "
               "the board; they never go into the share deck."),
            [tr("In your hand: {cards}.", cards=counts_html(self.board, {UP: self.hand().shares.get(UP, 0)})),
             trn("UP stack: {n} of the {total} UP shares ({total} − {players} players).",
                 "UP stack: {n} of the {total} UP shares ({total} − {players} players).", v.up_stack,
                 total=UP_SHARES, players=len(self.dealt.players))])
        self.figure.clear()

    def _step_shares(self) -> None:
        companies = {k: n for k, n in self.hand().shares.items() if k != UP}
        self._set_step(
            tr("UP-S4 — Company shares"),
            trn("The {n} company share is shuffled and everyone is dealt four. With the UP share, each hand now "
                "holds five shares. Hands are secret.",
                "The {n} company shares are shuffled and everyone is dealt four. With the UP share, each hand now "
                "holds five shares. Hands are secret.", sum(c.shares for c in self.board.companies)),
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
            options = [a.card for a in self.dealt.legal_actions(self.you) if isinstance(a, ChooseFirstShare)]
            hand = self.hand().shares
            self.first_pick.options = [
                (company_name(self.board, c) + (f" (× {hand[c]})" if hand.get(c, 0) > 1 else ""), c)
                for c in options
            ]
            self.first_pick.value = None
            self.first_box.layout.display = ""
            self._set_step(title, text, [tr("The others are choosing too; you will see their choices only when "
                                            "all are laid.")])
        else:
            rows = "".join(
                f"<tr><td class='name'>{f'<b>{html.escape(p)}</b>' if p == self.you else html.escape(p)}</td>"
                f"<td class='name'>{counts_html(self.board, v.tables[p])}</td></tr>"
                for p in self.dealt.players)
            table = (f"<p><b>{tr('Revealed together:')}</b></p><table class='railkit-table'><tr>"
                     f"<th class='name'>{tr('player')}</th><th class='name'>{tr('on the table')}</th></tr>{rows}"
                     f"</table><p>{tr('Your hand now: {cards}.', cards=counts_html(self.board, self.hand().shares))}</p>")
            self._set_step(title, text, tail=table)
        self.figure.clear()

    def _step_display(self) -> None:
        v = self.view()
        self._set_step(
            tr("UP-S6 — The display"),
            tr("Four shares are turned face up beside the board. A player who builds may take one of them "
               "(UP-B3); a taken card is replaced at once from the deck. Should all four ever show the same "
               "company, they are removed and four new ones dealt (UP-B5)."),
            [company_html(self.board, c) for c in v.display or () if c is not None])
        self.figure.clear()

    def _step_deck(self) -> None:
        game = self.dealt
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
            reserve = reserve_size(deck, n, safe)
            items.append(html.escape(trn(
                "Safe round (UP-V2): {r} share (3 per player) was set aside before the piles were made. After "
                "each payout, {n} of them go on top of the deck, so everyone gets a turn before the next payout.",
                "Safe round (UP-V2): {r} shares (3 per player) were set aside before the piles were made. After "
                "each payout, {n} of them go on top of the deck, so everyone gets a turn before the next payout.",
                reserve, r=reserve, n=n)))
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
        self.after_html.value = deck_note() + piles_table_html(piles)
        columns = [(d, False) for d in DECKS] + [(deck if safe else "standard", True)]
        self.figure.show(deck_figure(n, columns, columns.index((deck, safe))))

    def _step_start(self) -> None:
        v = self.view()
        first = v.current_player
        assert first is not None  # the game has just begun
        order = " → ".join(html.escape(p) for p in self.dealt.players)
        if first == self.you:
            turn = tr("You take the first turn: you have drawn a fourth track card (UP-T1) and may now build or "
                      "invest (UP-T3).")
        else:
            turn = tr("{p} takes the first turn: they draw a track card (UP-T1), then build or invest (UP-T3).",
                      p=html.escape(first))
        rules = "UP-D12, UP-2P1" if len(self.dealt.players) == 2 else "UP-D12"
        self._set_step(
            tr("UP-S8 — Who starts"),
            tr("The youngest (or least experienced) player starts, and play goes clockwise. Here the seats were "
               "dealt at random and the first seat starts."),
            [tr("Seating order: {order}, then round again.", order=order), turn,
             tr("Payouts in this game: {n} ({rules}).", n=v.payouts_total, rules=rules)],
            tail=f"<p><b>{tr('The setup is complete.')}</b> {tr('Next lesson: building track.')}</p>")
        self.figure.clear()
