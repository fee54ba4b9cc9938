"""The play lesson's HTML, built from the engine's view and payout records, its words about the game,
and the legend. Pure functions: they read, never change, a game. Player names are escaped everywhere.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

from railkit.game import Outcome
from railkit.messages import N_, Message, addressed_group, naddressed, names_message, nmessage
from railkit.ui.app import legend_html
from railkit.ui.i18n import player_label, render, tr, trn
from railkit.ui.records.learner import is_default_learner
from railkit.ui.unionpacific.common import card_label, company_html, company_name, counts_html, engine_text
from railkit.ui.unionpacific.map_style import contrast
from railkit.unionpacific import (
    IMAGINARY,
    UP,
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
    PayoutRecord,
)
from railkit.unionpacific.review import MoveReview
from railkit.unionpacific.views import UPView

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
.railkit-app details.railkit-why { margin: 4px 0; font-size: 15px; }
.railkit-app details.railkit-why summary { cursor: pointer; color: #1e63c4; }
.railkit-app details.railkit-why ul { margin: 2px 0 4px 0; padding-left: 20px; }
.railkit-app .railkit-review li { margin-bottom: 6px; }
</style>
"""


# -- small helpers ------------------------------------------------------------------------------
def text_colour(hex_colour: str) -> str:
    """Black or white text, whichever has the higher WCAG contrast on ``hex_colour`` (the orange Phoenix Sunset Line
    and the grey Pittsburgh Allegheny Steel take black: white on them is below 4.5:1)."""
    try:
        on_black, on_white = contrast(hex_colour, "#000000"), contrast(hex_colour, "#ffffff")
    except (ValueError, IndexError):
        return "black"
    return "black" if on_black >= on_white else "white"


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


# -- HTML panels (pure functions of the engine's view) ------------------------------------------
def payout_html(record: PayoutRecord, total: int, hidden: bool, open_: bool, you: str | None) -> str:
    """One payout: who received what, and for each company (then Union Pacific) a one-line summary that
    opens to the engine's steps (UP-D2..UP-D11). ``hidden`` while the payout exercise asks about it."""
    esc = html.escape
    if not record.drawer:
        drawn = tr(record.reason)
    elif record.drawer == you:
        drawn = tr("{reason}, drawn by you", reason=tr(record.reason))
    else:
        drawn = tr("{reason}, drawn by {drawer}", reason=tr(record.reason), drawer=record.drawer)
    head = f"<h4>{tr('Payout {n} of {total}', n=record.number, total=total)} — {esc(drawn)}</h4>"
    if hidden:
        return (f"<div class='railkit-payout'>{head}<p class='railkit-muted'>"
                f"{tr('Answer the payout exercise (the yellow box) to see who received what, and why.')}</p></div>")
    rows = "".join(
        f"<tr><td class='name'>{esc(player_label(h))}{' ' + tr('(you)') if h == you and not is_default_learner(h) else ''}</td>"
        f"<td>{m}</td></tr>"
        for h, m in sorted(record.amounts.items(), key=lambda kv: -kv[1])
    )
    amounts = (f"<table class='railkit-table'><tr><th class='name'>{tr('player')}</th>"
               f"<th>{tr('receives (millions)')}</th></tr>{rows}</table>")
    items = ""
    for e in record.explanations:
        paid = ", ".join(f"{h} {m}" for h, m in e.amounts.items() if m) or tr("nobody is paid")
        steps = "".join(f"<li>{esc(engine_text(step, you))}</li>" for step in e.steps)
        items += (f"<details><summary><b>{esc(render(e.title))}</b> — {esc(paid)}</summary>"
                  f"<ol class='railkit-steps'>{steps}</ol></details>")
    intro = tr("Company by company, then Union Pacific (UP-D8); click one for its steps (UP-D2..UP-D11):")
    breakdown = f"<div class='railkit-breakdown'><div>{intro}</div>{items}</div>"
    body = f"<div class='railkit-payout-body'>{amounts}{breakdown}</div>"
    if not open_:
        body = f"<details><summary>{tr('Show this payout')}</summary>{body}</details>"
    return f"<div class='railkit-payout'>{head}{body}</div>"


def companies_html(board: Any, v: UPView, you: str | None) -> str:
    """Companies (value UP-D2, trains left) and everyone's shares on the table (UP-I2); the most shares
    of each company highlighted."""
    holders = list(v.players)
    tables = {p: v.tables[p] for p in holders}
    if v.imaginary is not None:
        holders.append(IMAGINARY)
        tables[IMAGINARY] = v.imaginary
    head = "".join(
        f"<th>{html.escape(player_label(h) if h != IMAGINARY else tr('imaginary 3rd player'))}"
        f"{'<br>' + tr('(you)') if h == you and not is_default_learner(h) else ''}</th>" for h in holders)
    on_board: dict[str, int] = {}
    for keys in v.trains_on.values():
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
            trains, value, left = (str(on_board.get(key, 0)), str(v.company_values[key]),
                                   str(v.supply.get(key, 0)))
        body += (f"<tr><td class='name nowrap'>{company_html(board, key)}</td><td>{trains}</td><td>{value}</td>"
                 f"<td>{left}</td>{cells}</tr>")
    return (f"<table class='railkit-table railkit-companies'><tr><th class='name'>{tr('company')}</th>"
            f"<th>{tr('trains on the board')}</th><th>{tr('value')}</th><th>{tr('trains left')}</th>{head}</tr>"
            f"{body}</table>")


def players_html(v: UPView, humans: Sequence[str], acting: str | None, you: str | None,
                 winners: Sequence[str] = (), money_hidden: bool = False, board: Any = None) -> str:
    """Money (when public, UP-D13) and hand sizes (public) of every player, the one to act highlighted; below,
    with the ``board``, the shares the table saw go into the others' hands (``known_shares_html``).
    ``money_hidden``: the payout exercise asks about the last payout, so nobody's money shows yet."""
    rows = ""
    choosing = v.phase == "first_share"
    players = list(v.players) + ([IMAGINARY] if IMAGINARY in v.money else [])
    for p in players:
        if p == IMAGINARY:
            role = tr("imaginary (UP-2P2)")
        elif p == you:
            role = tr("you")
        elif p in humans:
            role = tr("human")
        else:
            role = tr("computer")
        money = v.money.get(p)
        money_cell = str(money) if money is not None else tr("hidden (UP-D13)")
        if money_hidden and money is not None:
            money_cell = tr("? (after the exercise)")
        sizes = v.hand_sizes.get(p)
        shares, track = (sizes["shares"], sizes["track"]) if sizes else ("—", "—")
        if choosing and p in v.players:
            role += " · " + (tr("first share chosen") if p in v.first_share_chosen else tr("choosing…"))
        cls = "winner" if p in winners else ("acting" if p == acting else "")
        rows += (f"<tr class='{cls}'><td class='name'>{html.escape(player_label(p))}</td><td class='name'>{role}</td>"
                 f"<td>{money_cell}</td><td>{shares}</td><td>{track}</td></tr>")
    return (f"<table class='railkit-table railkit-players'><tr><th class='name'>{tr('player')}</th>"
            f"<th class='name'>{tr('who plays')}</th><th>{tr('money (millions)')}</th><th>{tr('shares in hand')}</th>"
            f"<th>{tr('track cards')}</th></tr>{rows}</table>{known_shares_html(board, v, you)}")


def known_shares_html(board: Any, v: UPView, you: str | None) -> str:
    """The shares the table saw go into the other players' hands and not leave them (UP-I2 ruling in
    docs/rulings.md: from the display or the UP stack); nothing without the board to name them."""
    known = {p: cards for p, cards in (v.known_shares or {}).items() if cards and p != you}
    if board is None or not known:
        return ""
    items = "".join(f"<li>{html.escape(player_label(p))}: {counts_html(board, cards)}</li>" for p, cards in known.items())
    return (f"<div class='railkit-known'><b>{html.escape(tr('Seen going into hands (UP-I2)'))}</b>"
            f"<ul>{items}</ul></div>")


def display_html(board: Any, v: UPView) -> str:
    if v.display is None:
        return tr("The display is turned up once everybody has chosen a first share (UP-S6).")
    cards = [company_html(board, c) if c is not None else tr("(empty)") for c in v.display]
    return cards_html(cards)


# -- words ----------------------------------------------------------------------------------------
def step_words(phase: str) -> str:
    """What the player to act does in ``phase``, with its rule."""
    return {
        "first_share": tr("choose a first share to lay face down (UP-S5)"),
        "action": tr("build, invest or pass (UP-T3)"),
        "draw": tr("draw a share (UP-B3)"),
        "exchange": tr("exchange a share for a UP share (UP-B4) or end the turn (UP-B6)"),
    }.get(phase, tr("the game is over (UP-D12)"))


# The learner among the winners: the second person (railkit.messages.addressed, addressed_group).
naddressed("The game is over (UP-D12): {winner} wins with {m} million.",
           "The game is over (UP-D12): you win with {m} million!", "The game is over (UP-D12): you win with {m} million!",
           subject="winner")
addressed_group("The game is over (UP-D12): {winners} share the win with {m} million each (a railkit ruling).",
                "The game is over (UP-D12): you and {other} share the win with {m} million each (a railkit ruling).",
                "The game is over (UP-D12): you, {others} and {last} share the win with {m} million each (a railkit "
                "ruling).", subject="winners")


def final_words(result: Outcome, you: str | None) -> str:
    """“The game is over (UP-D12): Ann wins with 95 million.” (plain text; escape it for HTML)."""
    winners = result.winners
    best = result.money[winners[0]] if winners else 0
    if len(winners) == 1:
        return render(nmessage("The game is over (UP-D12): {winner} wins with {m} million.",
                               "The game is over (UP-D12): {winner} wins with {m} million.", best,
                               {"winner": winners[0], "m": best}), you)
    return render(Message(N_("The game is over (UP-D12): {winners} share the win with {m} million each (a railkit "
                             "ruling)."), {"winners": names_message(winners), "m": best}), you)


def result_html(result: Outcome, you: str | None, review: str = "") -> str:
    """The final money of every player, the winners marked (UP-D12); then ``review`` (HTML)."""
    winners = result.winners
    rows = "".join(
        f"<tr class='{'winner' if p in winners else ''}'><td class='name'>{html.escape(player_label(p))}"
        f"{' ' + tr('(you)') if p == you and not is_default_learner(p) else ''}</td><td>{m}</td>"
        f"<td class='name'>{'★ ' + tr('winner') if p in winners else ''}</td></tr>"
        for p, m in sorted(result.money.items(), key=lambda kv: -kv[1]))
    note = tr("Only money counts; cards in hand are worth nothing (UP-D12). Equal money shares the win (a railkit "
              "ruling).")
    return (f"<div class='railkit-panel'><h4>{html.escape(final_words(result, you))}</h4>"
            f"<table class='railkit-table'><tr><th class='name'>{tr('player')}</th><th>{tr('final money (millions)')}</th>"
            f"<th class='name'>{tr('result')}</th></tr>{rows}</table><p class='railkit-muted'>{note}</p>{review}</div>")


def play_legend_html() -> str:
    """What each part of the app is for, with its rule IDs."""
    items = [
        (tr("New game and options"), tr("against 1–5 computer players or hot seat (type the players' names, "
                                        "separated by commas); the share deck (UP-S7, UP-S7-FI, UP-V1) and the "
                                        "variants, each with its rule ID; the same game number deals the same "
                                        "game")),
        (tr("Show my hand"), tr("hot seat only: hands are secret, so the player to act shows theirs when the "
                                "others look away; it hides again when the turn passes")),
        (tr("Play with others"), tr("create a table and share its code, or join one with a code and your name; "
                                    "each learner plays at their own screen")),
        (tr("Your hand"), tr("your track cards and the shares in your hand; only shares on the table count "
                             "at a payout (UP-I4)")),
        (tr("The step chips"), tr("where you are in a turn: track card (UP-T1), build or invest (UP-T3), "
                                  "draw a share (UP-B3), exchange or end (UP-B4, UP-B6)")),
        (tr("Build"), tr("choose a track card, then a company (✔ marks those with a legal section for that "
                         "card), then a section (legal ones first, ✔). The magenta band on the map shows the "
                         "legal sections (in Voila, click one to choose it), the purple band your section, "
                         "and the checklist says why (UP-B2a–f)")),
        (tr("Invest"), tr("the share combinations the rules allow (UP-I1) and the track card to discard "
                          "(UP-I3)")),
        (tr("Draw, exchange, end turn"), tr("after a build: take a display card, the deck's top card or a UP "
                                            "share (UP-B3); then swap a share for UP (UP-B4) or end (UP-B6)")),
        (tr("Map"), tr("trains in company colours (squares on starting spaces), empty spaces as open circles, "
                       "headquarters as stars; drag to pan, scroll to zoom, hover for names")),
        (tr("Players, companies"), tr("money (if public, UP-D13), hand sizes, company values (trains + 1, "
                                      "UP-D2), trains left, shares on the table; the most shares of each "
                                      "company in yellow")),
        (tr("Latest moves, payouts, log"), tr("everything that happened since your last move, every payout "
                                              "with its breakdown, and the whole game in words")),
        (tr("Exercise"), tr("after each payout: type how much one company paid, then Check; the breakdown "
                            "and everybody's money appear after your answer")),
        (tr("Puzzles"), tr("real positions from games between computer players where one move was clearly best: pick a "
                           "move and Check; the answer shows how each choice did when played on, with the rules "
                           "behind it; Previous and Next walk through them")),
        (tr("Why these choices? Hint"), tr("under every prompt: the moves the rules allow now, with their rule IDs, "
                                           "and the move the heuristic computer player would make")),
        (tr("A look back"), tr("after the game: your moves the heuristic player judged weakest, what it would "
                               "have played, and why")),
        (tr("Your name and seat"), tr("in New game and options; the index page's “Your name” field puts your "
                                      "name in every lesson's address (…/up_play.ipynb?name=…). The first seat "
                                      "starts (UP-S8)")),
        (tr("Undo, Save, Load"), tr("undo goes back to just before your last move; Save gives the game as "
                                    "text and as a file; Load replays a pasted game, Load a file an "
                                    "uploaded one of at most 1 MB (a broken one is refused and nothing "
                                    "changes)")),
    ]
    return legend_html(items)


# -- “Why these choices?” and the review ------------------------------------------
def why_html(game: Any, player: str, actions: Sequence[Any], you: str | None) -> str:
    """The legal moves of ``player`` now, grouped, each group with the rules behind it: the engine's
    ``legal_actions`` (and its ``describe`` for the few moves of a draw or an exchange), never a rule
    re-implemented here."""
    board = game.board
    esc = html.escape

    def said(action: Any) -> str:
        return esc(engine_text(game.describe(action), player if player == you else None))

    items: list[str] = []
    firsts = [a for a in actions if isinstance(a, ChooseFirstShare)]
    if firsts:
        kinds = ", ".join(esc(company_name(board, k)) for k in dict.fromkeys(a.card for a in firsts))
        items.append(tr("Any share in your hand may be your first: {kinds}. Everybody chooses face down at the same "
                        "time; the shares become the first on the table (UP-S5, UP-I2).", kinds=kinds))
    unusable = [a for a in actions if isinstance(a, DiscardUnusable)]
    if unusable:
        items.append(tr("{cards}: no empty space can take this track type any more, so you may swap it once for a "
                        "new card before you act (UP-T2).",
                        cards=", ".join(esc(card_label(board, a.card)) for a in unusable)))
    builds = [a for a in actions if isinstance(a, Build)]
    if builds:
        cards = ", ".join(esc(card_label(board, c)) for c in dict.fromkeys(a.card for a in builds))
        companies = len({a.company for a in builds})
        example = builds[0]
        checks = game.explain_placement(example.company, example.section, example.card).checks
        why = "".join(f"<li>{esc(render(c.sentence))}</li>" for c in checks)
        items.append(tr("Build: {placements} in all, with {cards}, for {companies}. A train goes only where the "
                        "engine's six checks of UP-B2 all pass; for example, {move}:",
                        placements=trn("{n} placement", "{n} placements", len(builds)), cards=cards,
                        companies=trn("{n} company", "{n} companies", companies),
                        move=said(example).replace("You ", "you ", 1)) + f"<ul>{why}</ul>" +
                     tr("Pick a card, a company and a section to see the checks for your choice."))
    invests = [a for a in actions if isinstance(a, Invest)]
    if invests:
        items.append(trn("Invest: {n} way: any number of shares of one company, or one share each of two "
                         "companies (UP-I1), then discard one track card (UP-I3). Only shares on the table are paid "
                         "(UP-I4).",
                         "Invest: {n} ways: any number of shares of one company, or one share each of two "
                         "companies (UP-I1), then discard one track card (UP-I3). Only shares on the table are paid "
                         "(UP-I4).", len({a.cards for a in invests})))
    elif builds or unusable:
        items.append(tr("You cannot invest now: you hold no share (UP-I1)."))
    if builds or invests:
        items.append(tr("Build or invest, never both in one turn (UP-T3)."))
    if any(isinstance(a, Pass) for a in actions):
        items.append(tr("No card fits a legal section and you hold no share: discard a track card and pass (UP-T4, "
                        "a railkit ruling)."))
    draws = [a for a in actions if isinstance(a, DrawShare)]
    if draws:
        items.append(tr("After a build you draw one share (UP-B3); you may: {moves}. A dividend card turned up on "
                        "the way starts a payout (UP-D1).", moves="; ".join(said(a) for a in draws)))
        if not any(a.source == "up" for a in draws):
            items.append(tr("The Union Pacific stack is not offered: it is empty, or this game uses UP-B3-FI."))
    exchanges = [a for a in actions if isinstance(a, ExchangeForUP)]
    if exchanges or any(isinstance(a, EndTurn) for a in actions):
        items.append(trn("Now you may swap one share in hand for a Union Pacific share (UP-B4: {n} share can be "
                         "swapped), or end the turn (UP-B6).", "Now you may swap one share in hand for a Union "
                         "Pacific share (UP-B4: {n} shares can be swapped), or end the turn (UP-B6).",
                         len(exchanges)))
    if not items:
        return ""
    body = "".join(f"<li>{item}</li>" for item in items)
    return (f"<details class='railkit-why'><summary>{tr('Why these choices? (the rules)')}</summary>"
            f"<ul>{body}</ul></details>")


def review_html(reviews: Sequence[MoveReview], player: str, you: str | None) -> str:
    """The learner's moves the heuristic player judged weak, each with what it would have played and why."""
    esc = html.escape

    def said(words: str) -> str:
        return esc(engine_text(words, player if player == you else None))

    def instead(words: str) -> str:  # after a colon: “… suggests instead: you play …”
        text = said(words)
        return text[:1].lower() + text[1:] if player == you else text

    title = (tr("A look back at your moves") if player == you
             else tr("A look back at {player}'s moves", player=esc(player)))
    if not reviews:
        return (f"<div class='railkit-review'><h4>{title}</h4><p>"
                f"{tr('The heuristic player would have made the same choices, or nearly: well played.')}</p></div>")
    items = "".join(
        f"<li><b>{tr('Turn {n}', n=r.turn)}:</b> {said(r.played)}. "
        f"{tr('The heuristic player suggests instead: {move}.', move=instead(r.instead))} "
        f"<span class='railkit-muted'>{esc(render(r.reason))}</span></li>" for r in reviews)
    note = tr("The heuristic player is the simple computer player of this lesson: a second opinion, not the one "
              "right answer.")
    return (f"<div class='railkit-review'><h4>{title}</h4><p>"
            f"{tr('The moves the heuristic player judged weakest, with why:')}</p><ol>{items}</ol>"
            f"<p class='railkit-muted'>{note}</p></div>")
