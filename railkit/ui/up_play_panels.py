"""Panels of the Union Pacific game app (``railkit.ui.up_play``): HTML built from the engine's view and
payout records, and the payout exercise (UP-D3..UP-D11). Pure functions: they read, never change, a game.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from railkit.ui.i18n import tr
from railkit.ui.up_common import company_html, company_name
from railkit.unionpacific import IMAGINARY, UP, UP_TABLE, PayoutRecord

PLAY_STYLE = """
<style>
.railkit-app .railkit-panel { border: 1px solid #d3d9e0; border-radius: 6px; padding: 4px 12px 8px 12px;
  margin: 4px 0; background: #fbfcfe; }
.railkit-app .railkit-panel h4 { margin: 4px 0 6px 0; font-size: 17px; }
.railkit-app .railkit-status { font-size: 17px; }
.railkit-app .railkit-status .who { font-weight: bold; color: #0d3569; }
.railkit-app .railkit-events ul { margin: 2px 0; padding-left: 20px; max-height: 440px; overflow-y: auto; }
.railkit-app .railkit-events li { margin-bottom: 2px; }
.railkit-app .railkit-events li.mine { font-weight: bold; }
.railkit-app .railkit-log ol { max-height: 420px; overflow-y: auto; font-size: 14px; margin: 0; }
.railkit-app .railkit-cards { display: flex; flex-wrap: wrap; gap: 6px; margin: 2px 0 6px 0; }
.railkit-app .railkit-cards { align-items: center; }
.railkit-app .railkit-cards span.label { min-width: 110px; }
.railkit-app .railkit-cards span.card { border: 1px solid #b9c0c8; border-radius: 5px; padding: 2px 8px;
  background: white; white-space: nowrap; }
.railkit-app .railkit-draw .widget-button, .railkit-app .railkit-draw button { min-width: 200px; }
.railkit-app tr.acting td { background: #e8f1fd; font-weight: bold; }
.railkit-app tr.winner td { background: #e6f4ea; font-weight: bold; }
.railkit-app .railkit-payout { border-top: 1px solid #d3d9e0; padding-top: 4px; margin-top: 6px; }
.railkit-app .railkit-payout h4 { margin: 4px 0; }
.railkit-app .railkit-payout details summary { cursor: pointer; }
.railkit-app .railkit-payout details summary:hover { color: #1e63c4; }
.railkit-app .railkit-payout-body { display: flex; flex-wrap: wrap; gap: 4px 24px; align-items: flex-start; }
.railkit-app .railkit-breakdown { flex: 1 1 480px; }
.railkit-app .railkit-breakdown details { margin: 3px 0; }
.railkit-app .railkit-breakdown ol { margin: 2px 0 8px 0; }
.railkit-app .railkit-exercise { border-left: 5px solid #e0a800; background: #fff8e1; }
.railkit-app .railkit-muted { color: #555; }
.railkit-app .railkit-controls .widget-dropdown select { font-size: 15px; }
</style>
"""


# -- small helpers ------------------------------------------------------------------------------
def text_colour(hex_colour: str) -> str:
    """Black or white text, whichever reads better on ``hex_colour``."""
    try:
        r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    except (ValueError, IndexError):
        return "black"
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "white"


def share_words(board: Any, cards: Sequence[str]) -> str:
    """An investment as learners read it: “2 × Denver Midland” or “Denver Midland + Union Pacific”."""
    kinds = list(dict.fromkeys(cards))
    if len(kinds) == 1:
        return f"{len(cards)} × {company_name(board, kinds[0])}"
    return " + ".join(company_name(board, k) for k in kinds)


def cards_html(items: Iterable[str], plain_first: bool = False) -> str:
    """Items as small cards in a wrapping row; with ``plain_first`` the first item is a label."""
    items = list(items)
    head = f"<span class='label'>{items.pop(0)}</span>" if plain_first and items else ""
    inner = "".join(f"<span class='card'>{item}</span>" for item in items)
    return f"<div class='railkit-cards'>{head}{inner}</div>"


def holder_name(holder: str, you: str | None) -> str:
    return tr("you") if you is not None and holder == you else holder


# -- the payout exercise ------------------------------------------------------------------------
@dataclass(frozen=True)
class PayoutQuestion:
    """“How much did <company> pay <holder> at payout <number>?” (UP-D3..UP-D11)."""

    number: int
    subject: str  # company key or UP
    holder: str
    answer: int
    text: str  # HTML
    index: int  # position of the subject's explanation in the record


def make_question(board: Any, record: PayoutRecord, total: int, humans: Sequence[str], rng: random.Random,
                  you: str | None) -> PayoutQuestion | None:
    """A question about ``record`` for one of ``humans``: a company they hold shares of (preferring ones
    with several shareholders that pay them something), else Union Pacific, else the largest holder of
    some company."""
    keys = list(record.holdings)  # aligned with record.explanations (companies with holders, then UP)
    if len(keys) != len(record.explanations):
        return None
    scored: list[tuple[int, int, str, str]] = []
    for i, key in enumerate(keys):
        holders = {h: n for h, n in record.holdings[key].items() if n > 0}
        paid = record.explanations[i].amounts
        for h in humans:
            if holders.get(h, 0) > 0:
                score = (2 if key != UP else 0) + (1 if len(holders) > 1 else 0) + (2 if paid.get(h, 0) else 0)
                if key == UP and record.number == 1:
                    score = -1  # the first UP payout always pays 0
                scored.append((score, i, key, h))
    if scored:
        best = max(s[0] for s in scored)
        _, index, key, holder = rng.choice([s for s in scored if s[0] == best])
    else:
        companies = [(i, k) for i, k in enumerate(keys) if k != UP and any(record.holdings[k].values())]
        if not companies:
            return None
        index, key = rng.choice(companies)
        holder = max(record.holdings[key].items(), key=lambda kv: kv[1])[0]
    explanation = record.explanations[index]
    shares = ", ".join(f"{html.escape(h)} {n}" for h, n in record.holdings[key].items() if n > 0)
    name = html.escape(company_name(board, key))
    who = html.escape(holder_name(holder, you))
    if key == UP:
        column = ", ".join(str(a) for a in UP_TABLE[record.number])
        facts = tr("Union Pacific pays by position from the table for payout {n}: {column} for the 1st to "
                   "5th (UP-D9, ties UP-D11). UP shares on the table: {shares}.",
                   n=record.number, column=column, shares=shares)
    else:
        facts = tr("{company} was worth {value} (UP-D2). Its shares on the table: {shares}.",
                   company=name, value=record.values[key], shares=shares)
    text = (f"<p><b>{tr('Payout {n} of {total} has just been paid.', n=record.number, total=total)}</b> {facts}</p>"
            f"<p><b>{tr('How much did {company} pay {who}?', company=name, who=who)}</b> "
            f"{tr('Type the amount in millions; the breakdown of this payout stays hidden until you answer.')}</p>")
    return PayoutQuestion(record.number, key, holder, int(explanation.amounts.get(holder, 0)), text, index)


# -- HTML panels (pure functions of the engine's view) ------------------------------------------
def payout_html(record: PayoutRecord, total: int, hidden: bool, open_: bool, you: str | None) -> str:
    """One payout: who received what, and for each company (then Union Pacific) a one-line summary that
    opens to the engine's steps (UP-D2..UP-D11). ``hidden`` while the payout exercise asks about it."""
    esc = html.escape
    drawn = (tr("{reason}, drawn by {drawer}", reason=tr(record.reason), drawer=record.drawer) if record.drawer
             else tr(record.reason))
    head = f"<h4>{tr('Payout {n} of {total}', n=record.number, total=total)} — {esc(drawn)}</h4>"
    if hidden:
        return (f"<div class='railkit-payout'>{head}<p class='railkit-muted'>"
                f"{tr('Answer the payout exercise above to see who received what, and why.')}</p></div>")
    rows = "".join(
        f"<tr><td class='name'>{esc(h)}{' ' + tr('(you)') if h == you else ''}</td><td>{m}</td></tr>"
        for h, m in sorted(record.amounts.items(), key=lambda kv: -kv[1])
    )
    amounts = (f"<table class='railkit-table'><tr><th class='name'>{tr('player')}</th>"
               f"<th>{tr('receives (millions)')}</th></tr>{rows}</table>")
    items = ""
    for e in record.explanations:
        paid = ", ".join(f"{h} {m}" for h, m in e.amounts.items() if m) or tr("nobody is paid")
        steps = "".join(f"<li>{esc(step)}</li>" for step in e.steps)
        items += (f"<details><summary><b>{esc(e.title)}</b> — {esc(paid)}</summary>"
                  f"<ol class='railkit-steps'>{steps}</ol></details>")
    breakdown = (f"<div class='railkit-breakdown'><div>{tr('Company by company, then Union Pacific (UP-D8); click one for its steps (UP-D2..UP-D11):')}</div>"
                 f"{items}</div>")
    body = f"<div class='railkit-payout-body'>{amounts}{breakdown}</div>"
    if not open_:
        body = f"<details><summary>{tr('Show this payout')}</summary>{body}</details>"
    return f"<div class='railkit-payout'>{head}{body}</div>"


def companies_html(board: Any, v: Mapping[str, Any], you: str | None) -> str:
    """Companies (value UP-D2, trains left) and everyone's shares on the table (UP-I2); the most shares
    of each company highlighted."""
    holders = list(v["players"])
    tables = {p: v["tables"][p] for p in holders}
    if v.get("imaginary") is not None:
        holders.append(IMAGINARY)
        tables[IMAGINARY] = v["imaginary"]
    head = "".join(
        f"<th>{html.escape(h if h != IMAGINARY else tr('imaginary 3rd player'))}"
        f"{'<br>' + tr('(you)') if h == you else ''}</th>" for h in holders)
    on_board: dict[str, int] = {}
    for keys in v["trains_on"].values():
        for key in keys:
            on_board[key] = on_board.get(key, 0) + 1
    body = ""
    for key in [c.key for c in board.companies] + [UP]:
        counts = [tables[h].get(key, 0) for h in holders]
        top = max(counts)
        cells = "".join(
            f"<td class='{'hl' if n and n == top else ''}'>{n if n else '·'}</td>" for n in counts)
        if key == UP:
            trains, value, left = "—", "—", "—"
        else:
            trains, value, left = on_board.get(key, 0), v["company_values"][key], v["supply"].get(key, 0)
        body += (f"<tr><td class='name nowrap'>{company_html(board, key)}</td><td>{trains}</td><td>{value}</td>"
                 f"<td>{left}</td>{cells}</tr>")
    return (f"<table class='railkit-table railkit-companies'><tr><th class='name'>{tr('company')}</th>"
            f"<th>{tr('trains on the board')}</th><th>{tr('value')}</th><th>{tr('trains left')}</th>{head}</tr>"
            f"{body}</table>")


def players_html(v: Mapping[str, Any], humans: Sequence[str], acting: str | None, you: str | None,
                 winners: Sequence[str] = ()) -> str:
    """Money (when public, UP-D13) and hand sizes (public) of every player; the one to act highlighted."""
    rows = ""
    choosing = v["step"] == "first_share"
    players = list(v["players"]) + ([IMAGINARY] if IMAGINARY in v["money"] else [])
    for p in players:
        if p == IMAGINARY:
            role = tr("imaginary (UP-2P2)")
        elif p == you:
            role = tr("you")
        elif p in humans:
            role = tr("human")
        else:
            role = tr("computer")
        money = v["money"].get(p)
        money_cell = str(money) if money is not None else tr("hidden (UP-D13)")
        sizes = v["hand_sizes"].get(p)
        shares, track = (sizes["shares"], sizes["track"]) if sizes else ("—", "—")
        if choosing and p in v["players"]:
            role += " · " + (tr("first share chosen") if p in v["first_share_chosen"] else tr("choosing…"))
        cls = "winner" if p in winners else ("acting" if p == acting else "")
        rows += (f"<tr class='{cls}'><td class='name'>{html.escape(p)}</td><td class='name'>{role}</td>"
                 f"<td>{money_cell}</td><td>{shares}</td><td>{track}</td></tr>")
    return (f"<table class='railkit-table railkit-players'><tr><th class='name'>{tr('player')}</th>"
            f"<th class='name'></th><th>{tr('money (millions)')}</th><th>{tr('shares in hand')}</th>"
            f"<th>{tr('track cards')}</th></tr>{rows}</table>")


def display_html(board: Any, v: Mapping[str, Any]) -> str:
    if v["display"] is None:
        return tr("The display is turned up once everybody has chosen a first share (UP-S6).")
    cards = [company_html(board, c) if c is not None else tr("(empty)") for c in v["display"]]
    return cards_html(cards)
