"""The dividends lesson's worked examples, payouts as tables and the bar chart (UP-D2..UP-D11).

Every amount comes from the engine (``railkit.unionpacific.payouts``). A worked example lists the
amounts the rulebooks print; where an example needs an amount the rulebooks do not show, the amount
is railkit's reading of the rule and the lesson says so (DECISION, see docs/rulings.md).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from railkit.messages import N_
from railkit.ui.i18n import tr
from railkit.ui.plot import NO_TEMPLATE, Plot
from railkit.unionpacific import payouts

PLAYER_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eva", "Finn")
COMPANY, UNION_PACIFIC = "company", "up"
BAR_COLOURS = ("#1e63c4", "#e07b00", "#2e7d32", "#8e24aa", "#c62828", "#00838f")


@dataclass(frozen=True)
class Preset:
    """A worked example from the rulebooks (the digest's rule ``rule``).

    ``rulebook`` holds each player's amount; the players listed in ``inferred`` (positions in
    ``shares``) have amounts the rulebooks do not show: railkit infers them (``decision`` says how).
    """

    key: str
    rule: str
    label: str
    mode: str  # COMPANY or UNION_PACIFIC
    number: int  # company value, or UP payout number
    shares: tuple[int, ...]
    rulebook: tuple[int, ...]
    note: str
    inferred: tuple[int, ...] = ()
    decision: str = ""

    def book_words(self, names: Sequence[str] = PLAYER_NAMES) -> str:
        """“The rulebook gives: Ann 12, Ben 12, Cleo 12; Dev 6 is railkit's DECISION (…, UP-D11).” — an
        amount in no book is named as railkit's decision, with the rule it reads."""
        shown = [f"{names[i]} {a}" for i, a in enumerate(self.rulebook) if i not in self.inferred]
        if not self.inferred:
            return tr("The rulebook gives: {amounts}.", amounts=", ".join(shown))
        ours = ", ".join(f"{names[i]} {self.rulebook[i]}" for i in self.inferred)
        return tr("The rulebook gives: {amounts}; {ours} is railkit's DECISION ({why}, {rule}).",
                  amounts=", ".join(shown), ours=ours, why=tr(self.decision), rule=self.rule)


PRESETS: tuple[Preset, ...] = (
    Preset("D5", "UP-D5", N_("Three tied for most (UP-D5)"), COMPANY, 7, (3, 3, 3, 1), (3, 3, 3, 0),
           N_("A company worth 7; three players tie for the most shares. Primary and secondary, 7 + 3, "
              "are pooled and split three ways, rounded down; the player with fewer shares gets nothing.")),
    Preset("D6", "UP-D6", N_("Three tied for second (UP-D6)"), COMPANY, 5, (4, 2, 2, 2), (5, 0, 0, 0),
           N_("A company worth 5; one primary shareholder, three tied for second. The secondary amount, "
              "2, split three ways rounds down to nothing.")),
    Preset("D7a", "UP-D7", N_("El Paso & Rio Grande, 3/2/1 (UP-D7)"), COMPANY, 3, (3, 2, 1), (3, 1, 0),
           N_("EP&RG is worth 3 at the start (two starting trains + 1). Holdings 3, 2 and 1.")),
    Preset("D7b", "UP-D7", N_("Sioux Falls Royal Blue, 4/2/1 (UP-D7)"), COMPANY, 6, (4, 2, 1), (6, 3, 0),
           N_("Sioux Falls Royal Blue has five trains on the board, so it is worth 6. Holdings 4, 2 and 1.")),
    Preset("D11a", "UP-D11", N_("UP, 2nd payout, three tied for 2nd (UP-D11)"), UNION_PACIFIC, 2, (4, 2, 2, 2),
           (10, 6, 6, 6),
           N_("Second payout. One player leads; three tie behind and occupy positions 2–4: "
              "(8 + 6 + 4) ÷ 3 = 6 each.")),
    Preset("D11b", "UP-D11", N_("UP, 3rd payout, three tied for 1st (UP-D11)"), UNION_PACIFIC, 3, (3, 3, 3, 1),
           (12, 12, 12, 6),
           N_("Third payout. Three tie for the most UP shares and occupy positions 1–3: "
              "(15 + 12 + 9) ÷ 3 = 12 each. The rulebooks stop there: that the next player takes position 4 "
              "is railkit's DECISION (the next player takes the next free position, UP-D11)."),
           inferred=(3,), decision=N_("the next player takes the next free position")),
)
PRESETS_BY_KEY = {p.key: p for p in PRESETS}


def explain(mode: str, number: int, shares: Mapping[str, int]) -> payouts.PayoutExplanation[str]:
    """The engine's explanation of one payout (a company worth ``number``, or UP payout ``number``)."""
    if mode == UNION_PACIFIC:
        return payouts.explain_union_pacific_payout(number, shares)
    return payouts.explain_company_payout(number, shares)


def amounts(mode: str, number: int, shares: Mapping[str, int]) -> dict[str, int]:
    if mode == UNION_PACIFIC:
        return payouts.union_pacific_payout(number, shares)
    return payouts.company_payout(number, shares)


def payout_table_html(shares: Mapping[str, int], result: Mapping[str, int]) -> str:
    rows = "".join(
        f"<tr><td class='name'>{html.escape(p)}</td><td>{shares[p]}</td><td><b>{result[p]}</b></td></tr>"
        for p in shares
    )
    return (
        "<table class='railkit-table railkit-payout-table'>"
        f"<tr><th class='name'>{tr('player')}</th><th>{tr('shares')}</th><th>{tr('receives')}</th></tr>"
        f"{rows}</table>"
    )


def up_table_html(number: int) -> str:
    """UP-D9's table with payout ``number`` highlighted, and what a tied player receives (UP-D11)."""
    row_names = [tr("1st"), tr("2nd"), tr("3rd"), tr("4th"), tr("5th")]
    head = "".join(f"<th class='{'hl' if n == number else ''}'>{tr('payout {n}', n=n)}</th>" for n in payouts.UP_TABLE)
    body = "".join(
        f"<tr><th class='name'>{row_names[pos]}</th>"
        + "".join(f"<td class='{'hl' if n == number else ''}'>{payouts.UP_TABLE[n][pos]}</td>" for n in payouts.UP_TABLE)
        + "</tr>"
        for pos in range(5)
    )
    table = f"<table class='railkit-table'><tr><th class='name'>{tr('position')}</th>{head}</tr>{body}</table>"
    # A group of k tied players whose best position is p; the amounts come from the engine: the
    # players ahead of the group hold distinct larger counts.
    tie_head = "".join(f"<th>{tr('{k} tied', k=k)}</th>" for k in range(1, 6))
    tie_rows = ""
    for start in range(1, 6):
        cells = ""
        for k in range(1, 6):
            ahead = {f"a{i}": 20 - i for i in range(start - 1)}
            tied = {f"t{i}": 5 for i in range(k)}
            cells += f"<td>{payouts.union_pacific_payout(number, {**ahead, **tied})['t0']}</td>"
        tie_rows += f"<tr><th class='name'>{tr('from {pos}', pos=row_names[start - 1])}</th>{cells}</tr>"
    ties = (f"<p><b>{tr('Each tied player receives, at payout {n} (UP-D11)', n=number)}</b><br>"
            f"{tr('rows: the best position the tied group occupies; columns: how many players tie')}</p>"
            f"<table class='railkit-table railkit-tie-table'><tr><th class='name'>{tr('position')}</th>{tie_head}</tr>"
            f"{tie_rows}</table>")
    return table + ties


def payout_figure(explanation: payouts.PayoutExplanation[str], shares: Mapping[str, int]) -> Plot:
    """What each player receives as bars (names escaped: plotly reads some HTML in labels)."""
    players = list(explanation.amounts)
    values = [explanation.amounts[p] for p in players]
    fig = Plot().add_trace(dict(
        x=[html.escape(p) for p in players],
        y=values,
        text=[str(v) for v in values],
        textposition="outside",
        marker=dict(color=[BAR_COLOURS[i % len(BAR_COLOURS)] for i in range(len(players))]),
        customdata=[shares[p] for p in players],
        hovertemplate=tr("%{x}: %{customdata} shares, receives %{y}") + "<extra></extra>",
    ), kind="bar")
    top = max(values + [1])
    fig.update_layout(
        title=dict(text=tr("Money received (millions)"), font=dict(size=16)),
        height=300,
        width=420,
        margin=dict(l=40, r=10, t=50, b=40),
        yaxis=dict(range=[0, top * 1.25], dtick=max(1, top // 5), fixedrange=True),
        xaxis=dict(fixedrange=True),
        template=NO_TEMPLATE,  # plotly's default template adds ~8 KB of JSON to every render
        plot_bgcolor="white",
        font=dict(size=14),
    )
    return fig
