"""The share deck of the setup lesson (UP-S4, UP-S6, UP-S7, UP-S7-FI, UP-V1, UP-V2), from the engine's
``deck_layout``: the piles top to bottom, where dividend cards can lie, as tables and a figure.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from railkit.messages import N_
from railkit.ui.i18n import tr, trn
from railkit.ui.plot import NO_TEMPLATE, Plot
from railkit.ui.unionpacific.common import option_name
from railkit.unionpacific import Pile, deck_layout, load_board
from railkit.unionpacific.game import DISPLAY, HAND_SHARES

DIVIDEND_COLOUR = "#f2b705"
PLAIN_COLOUR = "#9fb3c8"
RESERVE_COLOUR = "#d9d9d9"


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
        ("name", N_("pile, top first")), ("", N_("positions")), ("", N_("shares")), ("", N_("dividend cards"))))
    return f"<table class='railkit-table railkit-piles'><tr>{head}</tr>{rows}</table>"


def deck_figure(players: int, columns: Sequence[tuple[str, bool]], chosen: int | None = None) -> Plot:
    """The share deck top to bottom, one column per (deck option, safe round), for ``players``.

    Piles holding dividend cards are gold (the card(s) may lie anywhere in that pile); the safe round's
    reserve (UP-V2) is drawn apart above the deck: it is not in the deck at the start."""
    names = [option_name(deck, safe).replace(" + ", "<br>+ ").replace(" (", "<br>(", 1) for deck, safe in columns]
    if chosen is not None:
        names[chosen] = f"<b>{names[chosen]}<br>{tr('(this game)')}</b>"
    traces: dict[str, dict[str, list[Any]]] = {k: {"x": [], "y": [], "base": [], "text": [], "hover": []}
                                               for k in ("plain", "dividend", "reserve")}
    deepest = 0
    for name, (deck, safe) in zip(names, columns, strict=True):
        piles = layout(deck, players, safe)
        for pile, first, last in pile_spans(piles):
            kind = "dividend" if pile.dividends else "plain"
            t = traces[kind]
            t["x"].append(name)
            t["base"].append(first - 1)
            t["y"].append(pile.size)
            if pile.dividends:
                t["text"].append(tr("{name}: {cards} + {d}", name=pile_name(pile), cards=pile.cards,
                                    d=trn("{n} dividend", "{n} dividends", pile.dividends)))
            else:
                t["text"].append(tr("{name}: {cards}", name=pile_name(pile), cards=pile.cards))
            dividends = trn("{n} dividend card", "{n} dividend cards", pile.dividends)
            t["hover"].append(tr("cards {first}–{last}: {cards} shares and {d}, shuffled together",
                                 first=first, last=last, cards=pile.cards, d=dividends))
            deepest = max(deepest, last)
        reserve = reserve_size(deck, players, safe)
        if reserve:
            t = traces["reserve"]
            t["x"].append(name)
            t["base"].append(-reserve - 3)
            t["y"].append(reserve)
            t["text"].append(tr("set aside: {n}", n=reserve))
            t["hover"].append(trn("{n} share set aside (UP-V2); {p} go on top of the deck after each payout",
                                  "{n} shares set aside (UP-V2); {p} go on top of the deck after each payout",
                                  reserve, p=players))
    styles = {
        "plain": (tr("pile without dividend cards"), PLAIN_COLOUR, ""),
        "dividend": (tr("pile with dividend cards shuffled in"), DIVIDEND_COLOUR, ""),
        "reserve": (tr("safe-round reserve, not in the deck (UP-V2)"), RESERVE_COLOUR, "/"),
    }
    fig = Plot()
    for kind, t in traces.items():
        if not t["x"]:
            continue
        label, colour, pattern = styles[kind]
        marker: dict[str, Any] = dict(color=colour, line=dict(color="white", width=2))
        if pattern:
            marker["pattern"] = dict(shape=pattern, fgcolor="#9e9e9e")
        fig.add_trace(dict(
            x=t["x"], y=t["y"], base=t["base"], name=label, text=t["text"], textposition="inside",
            insidetextanchor="middle", textfont=dict(size=14, color="#1a1a1a"), hovertext=t["hover"],
            hoverinfo="text", marker=marker, width=0.7,
        ), kind="bar")
    ticks = [1] + [v for v in range(10, deepest - 4, 10)] + [deepest]  # no crowding at the bottom
    fig.update_layout(
        template=NO_TEMPLATE, barmode="overlay", height=560, font=dict(size=14),
        title=dict(text=trn("The share deck for {n} player, top card first",
                            "The share deck for {n} players, top card first", players), font=dict(size=17), x=0.01),
        yaxis=dict(autorange="reversed", title=tr("card position (1 = drawn first)"), tickvals=sorted(set(ticks)),
                   zeroline=False, fixedrange=True, showgrid=True, gridcolor="#eeeeee"),
        xaxis=dict(fixedrange=True, tickfont=dict(size=13)),
        margin=dict(l=70, r=10, t=50, b=110), plot_bgcolor="white",
        legend=dict(orientation="h", yanchor="top", y=-0.2, x=0),
    )
    return fig
