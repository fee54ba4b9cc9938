"""The Union Pacific dividends app (lesson ``notebooks/up_dividends.ipynb``, rules UP-D2..UP-D11).

Four tabs and a legend:

* Calculator — a railway company (value, shares per player) or Union Pacific (payout number,
  shares per player); shows what each player receives, the step-by-step arithmetic from
  ``railkit.unionpacific.payouts`` and a bar chart.
* Union Pacific table — UP-D9's table, and what each of a group of tied players receives (UP-D11).
* Rulebook examples — the worked examples of the rulebooks (UP-D5, UP-D6, UP-D7, UP-D11) as presets
  that fill the calculator (``examples``); an amount the rulebooks do not show is marked DECISION.
* Quiz — random situations; the learner types the amounts, the app checks and explains.

Every amount comes from the engine's payout functions; this lesson only collects input and shows
results.
"""

from __future__ import annotations

import html
import random

import ipywidgets as widgets

from railkit.ui.app import App, InputError, guarded, legend_html, parse_whole
from railkit.ui.autosave import GameKeeper, KeepsState
from railkit.ui.figure_view import FigureView
from railkit.ui.i18n import tr
from railkit.ui.records.learner import default_learner, follow_page_address, greet_learner, is_default_learner
from railkit.ui.records.lesson_record import ExerciseRecord
from railkit.ui.unionpacific.club_board import lesson_board
from railkit.ui.unionpacific.common import steps_html
from railkit.ui.unionpacific.dividends.examples import (
    COMPANY,
    PLAYER_NAMES,
    PRESETS,
    PRESETS_BY_KEY,
    UNION_PACIFIC,
    amounts,
    explain,
    payout_figure,
    payout_table_html,
    up_table_html,
)
from railkit.ui.widgets import submit_on_enter
from railkit.unionpacific import payouts

MAX_PLAYERS = len(PLAYER_NAMES)
MIN_PLAYERS = 2
MAX_SHARES = 20  # UP has 20 share cards; the largest railway company 18 (UP-C1)
MAX_VALUE = 24  # green: 23 trains + 1 for its headquarters (UP-C1, UP-D2)
COMPANY_RULES = ("UP-D3", "UP-D4", "UP-D5", "UP-D6")  # a railway company pays its shareholders
UP_RULES = ("UP-D9", "UP-D10", "UP-D11")  # Union Pacific pays by its table


class DividendsApp(KeepsState, App):
    """Calculator, UP table, rulebook examples and quiz for Union Pacific dividends."""

    title = "Union Pacific dividends"

    def __init__(self, seed: int | None = None) -> None:
        # Payouts count trains, not where they run: a club board changes nothing here, and the lesson says so.
        self.club_note = lesson_board().not_used_html(tr(
            "Dividends depend only on how many trains a company has (UP-D2), so this lesson is the same on any board."))
        self.rng = random.Random(seed)
        self.explanation: payouts.PayoutExplanation[str] | None = None  # last calculator result
        self.calculated: tuple[str, int, dict[str, int]] | None = None  # (mode, number, shares)
        self.quiz_situation: tuple[str, int, dict[str, int]] | None = None
        self.quiz_answers: dict[str, int] | None = None  # the right amounts of the dealt situation
        self.quiz_score = [0, 0]  # right, checked
        self.learning = ExerciseRecord("up_dividends", "company_payout", COMPANY_RULES)
        self.quiz_checked = False
        self.learner = default_learner()  # a shareholder in every quiz situation
        # the calculator's last payout survives a reload and a language switch (railkit.ui.autosave)
        self.keeper = GameKeeper("up_dividends")
        super().__init__()
        self.learner = greet_learner(self, "", use=self.use_learner_name)
        self.resume_kept_state()  # the address of a reloaded (or translated) page names the kept payout
        follow_page_address(lambda _found: self.resume_kept_state())  # a pre-rendered page learns it later

    def use_learner_name(self, name: str) -> bool:
        self.learner = name
        return True

    def quiz_names(self) -> list[str]:
        """The quiz's players: the learner first, then the calculator's players with other names."""
        return [self.learner, *(n for n in PLAYER_NAMES if n.casefold() != self.learner.casefold())]

    # ------------------------------------------------------------------ building
    def build(self) -> widgets.Widget:
        self.tabs = widgets.Tab(children=[self._build_calculator(), self._build_up_table(),
                                          self._build_presets(), self._build_quiz()])
        for i, name in enumerate([tr("Calculator"), tr("Union Pacific table"), tr("Rulebook examples"), tr("Quiz")]):
            self.tabs.set_title(i, name)
        self.legend = widgets.HTML(self._legend_html())
        self.legend.add_class("railkit-legend")
        return widgets.VBox([widgets.HTML(self.club_note), self.tabs, self.legend, self.keeper.widget])

    def _build_calculator(self) -> widgets.Widget:
        self.mode = widgets.ToggleButtons(
            options=[(tr("Railway company"), COMPANY), (tr("Union Pacific"), UNION_PACIFIC)],
            value=COMPANY, tooltips=[tr("Pay one railway company (UP-D3..D6)"),
                                     tr("Pay Union Pacific from its table (UP-D9..D11)")],
        )
        self.value_field = widgets.Text(value="7", description=tr("Company value"),
                                        placeholder=tr("trains + 1"),
                                        style={"description_width": "130px"},
                                        layout=widgets.Layout(width="240px"))
        self.value_hint = widgets.HTML(tr("= trains on the board + 1 for the headquarters (UP-D2)"))
        self.payout_number = widgets.Dropdown(options=[1, 2, 3, 4], value=2, description=tr("UP payout"),
                                              style={"description_width": "130px"},
                                              layout=widgets.Layout(width="240px"))
        self.payout_hint = widgets.HTML(tr("which of the four payouts of the game (UP-D9, UP-D12)"))
        self.players = widgets.Dropdown(options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), value=4,
                                        description=tr("Players"), style={"description_width": "130px"},
                                        layout=widgets.Layout(width="240px"))
        self.share_fields = [
            widgets.Text(value=v, description=name, placeholder="0",
                         style={"description_width": "60px"}, layout=widgets.Layout(width="150px"))
            for name, v in zip(PLAYER_NAMES, ("3", "3", "3", "1", "0", "0"), strict=True)
        ]
        # CSS classes: stable handles for browser tests and benchmarks.
        self.value_field.add_class("railkit-value")
        self.players.add_class("railkit-players")
        for field in self.share_fields:
            field.add_class("railkit-share")
        self.pay_button = widgets.Button(description=tr("Pay out"), icon="calculator", button_style="primary",
                                         tooltip=tr("Work out what every player receives"))
        self.pay_button.add_class("railkit-pay")
        self.pay_button.on_click(lambda _b: self.on_pay())
        for field in (self.value_field, *self.share_fields):  # Enter in a field pays out, as the button does
            submit_on_enter(field, self.on_pay)
        self.result_html = widgets.HTML("")
        self.result_html.add_class("railkit-result")
        self.steps_box = widgets.HTML("")
        self.steps_box.add_class("railkit-steps-box")
        self.figure = FigureView()
        self.value_row = widgets.HBox([self.value_field, self.value_hint])
        self.payout_row = widgets.HBox([self.payout_number, self.payout_hint])
        self.mode.observe(lambda _c: self._sync_fields(), names="value")
        self.players.observe(lambda _c: self._sync_fields(), names="value")
        self._sync_fields()
        shares_box = widgets.VBox([
            widgets.HTML(f"<b>{tr('Shares on the table (UP-I4: shares in hand never count)')}</b>"),
            widgets.HBox(self.share_fields[:3]), widgets.HBox(self.share_fields[3:]),
        ])
        results = widgets.HBox([self.result_html, self.figure.widget],
                               layout=widgets.Layout(align_items="flex-start", grid_gap="24px"))
        return widgets.VBox([self.mode, self.value_row, self.payout_row, self.players, shares_box,
                             self.pay_button, results, self.steps_box])

    def _sync_fields(self) -> None:
        company = self.mode.value == COMPANY
        self.value_row.layout.display = "" if company else "none"
        self.payout_row.layout.display = "none" if company else ""
        for i, field in enumerate(self.share_fields):
            field.layout.display = "" if i < self.players.value else "none"

    def _build_up_table(self) -> widgets.Widget:
        self.table_payout = widgets.Dropdown(options=[1, 2, 3, 4], value=2, description=tr("Payout"),
                                             style={"description_width": "80px"},
                                             layout=widgets.Layout(width="180px"))
        self.table_html = widgets.HTML("")
        self.table_html.add_class("railkit-up-table")
        self.table_payout.observe(lambda _c: self.on_table_payout(), names="value")
        self.on_table_payout()
        return widgets.VBox([
            widgets.HTML(tr("Union Pacific pays up to five shareholders by position (UP-D9); players who "
                            "tie share the amounts of the positions they occupy (UP-D11).")),
            self.table_payout, self.table_html,
        ])

    def _build_presets(self) -> widgets.Widget:
        self.preset_buttons = {}
        rows = []
        for preset in PRESETS:
            button = widgets.Button(description=tr(preset.label), layout=widgets.Layout(width="420px"),
                                    tooltip=tr(preset.note))
            button.on_click(lambda _b, key=preset.key: self.load_preset(key))
            self.preset_buttons[preset.key] = button
            rows.append(button)
        return widgets.VBox([
            widgets.HTML(tr("The examples worked in the rulebooks. A click fills the calculator and pays out; "
                            "compare with the rulebook's amounts.")),
            *rows,
        ])

    def _build_quiz(self) -> widgets.Widget:
        self.deal_button = widgets.Button(description=tr("New situation"), icon="random", button_style="info")
        self.deal_button.on_click(lambda _b: self.on_deal())
        self.quiz_html = widgets.HTML(tr("Press “New situation” to get a payout to work out."))
        self.quiz_html.add_class("railkit-quiz-situation")
        self.answer_fields = [
            widgets.Text(description=name, placeholder="?", style={"description_width": "60px"},
                         layout=widgets.Layout(width="150px", display="none"))
            for name in PLAYER_NAMES
        ]
        self.check_button = widgets.Button(description=tr("Check"), icon="check", button_style="success")
        self.check_button.on_click(lambda _b: self.on_check())
        for field in self.answer_fields:
            submit_on_enter(field, self.on_check)
        self.quiz_feedback = widgets.HTML("")
        self.quiz_feedback.add_class("railkit-quiz-feedback")
        self.score_html = widgets.HTML("")
        return widgets.VBox([
            self.deal_button, self.quiz_html,
            widgets.HBox(self.answer_fields[:3]), widgets.HBox(self.answer_fields[3:]),
            widgets.HBox([self.check_button, self.score_html]), self.quiz_feedback,
        ])

    def _legend_html(self) -> str:
        items = [
            (tr("Railway company / Union Pacific"), tr("what pays out: one railway company, or Union Pacific")),
            (tr("Company value"), tr("trains of the company on the board + 1 (UP-D2)")),
            (tr("UP payout"), tr("1st to 4th payout of the game; the 1st pays nothing (UP-D9)")),
            (tr("Players, Ann … Finn"), tr("shares each player has on the table; 0 or empty means none")),
            (tr("Pay out"), tr("shows each player's money, the arithmetic step by step, and a bar chart")),
            (tr("Rulebook examples"), tr("fill the calculator with a worked example from the rulebooks")),
            (tr("Quiz"), tr("deal a random situation, type each player's amount, then Check")),
        ]
        return legend_html(items)

    # ------------------------------------------------------------------ calculator
    def read_calculator(self) -> tuple[str, int, dict[str, int]]:
        """The calculator's fields, checked; ``InputError`` names the first bad one."""
        mode = self.mode.value
        if mode == COMPANY:
            number = parse_whole(self.value_field.value, tr("Company value"), minimum=1, maximum=MAX_VALUE)
        else:
            number = int(self.payout_number.value)
        shares = {
            name: parse_whole(field.value or "0", name, minimum=0, maximum=MAX_SHARES)
            if field.value.strip() != "" else 0
            for name, field in zip(PLAYER_NAMES[: self.players.value], self.share_fields, strict=False)
        }
        return mode, number, shares

    @guarded
    def on_pay(self) -> payouts.PayoutExplanation[str]:
        try:
            mode, number, shares = self.read_calculator()
            explanation = explain(mode, number, shares)
        except Exception:
            # A refused value: the old table and chart no longer match the fields, so they go (the fields
            # keep what was typed); the message says what to correct.
            self.explanation = self.calculated = None
            hint = tr("No payout shown: correct the field named above, then press Pay out.")
            self.result_html.value = f"<p class='railkit-muted'>{hint}</p>"
            self.steps_box.value = ""
            self.figure.clear()
            raise
        # Everything checked and computed: only now change what is shown.
        self.explanation = explanation
        self.calculated = (mode, number, shares)
        self.result_html.value = payout_table_html(shares, explanation.amounts)
        self.steps_box.value = steps_html(explanation)
        self.figure.show(payout_figure(explanation, shares))
        self.keep_state()
        if not any(shares.values()):
            self.show_info(tr("Nobody holds a share, so nobody is paid."))
        else:
            self.clear_message()
        return explanation

    # ------------------------------------------------------------------ kept state (railkit.ui.autosave)
    def lesson_state(self) -> dict[str, object] | None:
        if self.calculated is None:
            return None
        mode, number, shares = self.calculated
        return {"calculator": [mode, number, list(shares.values())]}

    def restore_state(self, state: dict[str, object]) -> str:
        """The calculator's last payout, computed again from its fields."""
        kept = state.get("calculator")
        if not isinstance(kept, list) or len(kept) != 3:
            raise ValueError("not a calculator's payout")
        mode, number, shares = kept
        if (mode not in (COMPANY, UNION_PACIFIC) or not isinstance(number, int) or not isinstance(shares, list)
                or not MIN_PLAYERS <= len(shares) <= MAX_PLAYERS or not all(isinstance(n, int) for n in shares)):
            raise ValueError("not a calculator's payout")
        self.set_calculator(mode, number, tuple(shares))
        if self.on_pay() is None:  # a refused value: the message says which
            raise ValueError(self.message_text)
        return ""

    def set_calculator(self, mode: str, number: int, shares: tuple[int, ...]) -> None:
        self.mode.value = mode
        if mode == COMPANY:
            self.value_field.value = str(number)
        else:
            self.payout_number.value = number
        self.players.value = max(MIN_PLAYERS, len(shares))
        for i, field in enumerate(self.share_fields):
            field.value = str(shares[i]) if i < len(shares) else "0"

    @guarded
    def load_preset(self, key: str) -> payouts.PayoutExplanation[str] | None:
        preset = PRESETS_BY_KEY[key]
        self.set_calculator(preset.mode, preset.number, preset.shares)
        self.tabs.selected_index = 0
        explanation = self.on_pay()
        if explanation is not None:
            self.show_info(tr("{label}: {note} {book}", label=tr(preset.label), note=tr(preset.note),
                              book=preset.book_words()))
        return explanation

    # ------------------------------------------------------------------ UP table
    @guarded
    def on_table_payout(self) -> None:
        self.table_html.value = up_table_html(int(self.table_payout.value))

    # ------------------------------------------------------------------ quiz
    def deal(self) -> tuple[str, int, dict[str, int]]:
        """A random payout situation; ties are frequent on purpose."""
        rng = self.rng
        mode = UNION_PACIFIC if rng.random() < 0.35 else COMPANY
        n_players = rng.randint(3, 5)
        while True:
            counts = [rng.choice((0, 1, 1, 2, 2, 3, 3, 4)) for _ in range(n_players)]
            if any(counts):
                break
        number = rng.randint(2, 4) if mode == UNION_PACIFIC else rng.randint(2, 12)
        return mode, number, dict(zip(self.quiz_names(), counts, strict=False))

    @guarded
    def on_deal(self) -> None:
        mode, number, shares = self.deal()
        self.quiz_situation = (mode, number, shares)
        self.quiz_answers = amounts(mode, number, shares)
        self.quiz_checked = False
        up = mode == UNION_PACIFIC
        self.learning.question("up_payout" if up else "company_payout", UP_RULES if up else COMPANY_RULES)
        what = (tr("A railway company worth {value} pays out.", value=number) if mode == COMPANY
                else tr("Union Pacific pays out: payout {n} of the game.", n=number))
        you = f" <span class='railkit-muted'>{tr('(you)')}</span>"
        mark = {p: you for p in shares if p == self.learner and not is_default_learner(p)}  # not “You (you)”
        holdings = "".join(f"<tr><td class='name'>{html.escape(p)}{mark.get(p, '')}</td><td>{n}</td></tr>"
                           for p, n in shares.items())
        self.quiz_html.value = (
            f"<p><b>{html.escape(what)}</b> {tr('How much does each player receive?')}</p>"
            f"<table class='railkit-table'><tr><th class='name'>{tr('player')}</th><th>{tr('shares')}</th></tr>"
            f"{holdings}</table>"
        )
        for i, (field, name) in enumerate(zip(self.answer_fields, self.quiz_names(), strict=False)):
            field.description = name
            field.value = ""
            field.layout.display = "" if i < len(shares) else "none"
        self.quiz_feedback.value = ""
        self.clear_message()

    @guarded
    def on_check(self) -> bool | None:
        if self.quiz_situation is None or self.quiz_answers is None:
            raise InputError(tr("Press “New situation” first."))
        mode, number, shares = self.quiz_situation
        typed = {p: parse_whole(f.value, tr("your amount") if p == self.learner else tr("{player}'s amount", player=p),
                                minimum=0)
                 for p, f in zip(shares, self.answer_fields, strict=False)}
        right = {p: typed[p] == self.quiz_answers[p] for p in shares}
        all_right = all(right.values())
        self.learning.answer(all_right)
        if not self.quiz_checked:  # the first check of a situation counts for the score
            self.quiz_score[1] += 1
            self.quiz_score[0] += int(all_right)
            self.quiz_checked = True
        rows = "".join(
            f"<tr><td class='name'>{html.escape(p)}</td><td>{typed[p]}</td><td>{self.quiz_answers[p]}</td>"
            f"<td class='{'railkit-right' if right[p] else 'railkit-wrong'}'>"
            f"{'✔ ' + tr('right') if right[p] else '✘ ' + tr('wrong')}</td></tr>"
            for p in shares
        )
        table = (f"<table class='railkit-table'><tr><th class='name'>{tr('player')}</th><th>{tr('you typed')}</th>"
                 f"<th>{tr('right amount')}</th><th>{tr('verdict')}</th></tr>{rows}</table>")
        self.quiz_feedback.value = table + steps_html(explain(mode, number, shares), you=self.learner)
        self.score_html.value = tr("Score: {right} of {total} situations right first time.",
                                   right=self.quiz_score[0], total=self.quiz_score[1])
        if all_right:
            self.show_ok(tr("All right!"))
        else:
            self.show_info(tr("Not quite: the explanation below shows each step."))
        return all_right
