"""Pieces the Vom Kap bis Kairo lessons share (``auction``, ``play``): words, the look, the computer
players, what the app remembers about each auction, and the HTML of cards, players, the race and the
reveal. The panels built from them are in ``panels``.

Everything shown is taken from ``game.view(learner)``, so the learner sees exactly what a player at the
table would see: no sealed bid of another player before the reveal (KK-A2), bonus tracks only as a
count (KK-R2). Every verdict — legal or not, the choosing order, the cost of a build — comes from the
engine; this module only draws.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from railkit.capecairo import REQUIREMENT, CapeToCairoGame
from railkit.capecairo.bots import HeuristicBot
from railkit.capecairo.views import KKView
from railkit.session import position_bots
from railkit.ui.app import parse_whole
from railkit.ui.capecairo.palette import (
    PLAYER_HEX,
    TERRAIN_INK,
    TERRAIN_PAPER,
    TERRAIN_SIGN,
    TERRAINS,
    player_text,
    terrain_css,
)
from railkit.ui.docs import reconstruction_note
from railkit.ui.i18n import DEFAULT_LANGUAGE, get_language, player_label, render, tr, trn
from railkit.ui.records.learner import DEFAULT_LEARNER, is_default_learner, seat_players, second_person

DEFAULT_NAME = DEFAULT_LEARNER  # the learner, as in every lesson; the name field changes it
BOT_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eva")
MAX_BOT_MOVES = 5_000  # the engine always ends a game (KK-E1, KK-B8); this only guards the app's loop
# The computer players: the same position always gets the same move, also after an undo.
kk_bots = position_bots(HeuristicBot)

TERRAIN_HEX = {t: (TERRAIN_INK[t], TERRAIN_PAPER[t]) for t in TERRAINS}  # (border/text colour, background)


def terrain_name(terrain: str) -> str:
    return {"river": tr("River"), "mountains": tr("Mountains"), "desert": tr("Desert"),
            "village": tr("Village"), "savanna": tr("Savanna")}.get(terrain, terrain)


def colour_name(colour: str) -> str:
    return {"red": tr("red"), "yellow": tr("yellow"), "green": tr("green"), "blue": tr("blue")}.get(colour, colour)


def ordinal(n: int) -> str:
    return {1: tr("1st"), 2: tr("2nd"), 3: tr("3rd"), 4: tr("4th")}.get(n, tr("{n}th", n=n))


def pounds(amount: int) -> str:
    return tr("£{amount}", amount=amount)


def pieces_count(n: int) -> str:
    """“1 piece”, “3 pieces” (track pieces to buy, KK-B2)."""
    return trn("{n} piece", "{n} pieces", n)


def cards_count(n: int) -> str:
    return trn("{n} card", "{n} cards", n)


# -- look -----------------------------------------------------------------------------------------
KK_STYLE = """
<style>
.railkit-app .kk-cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 6px 0 8px 0; }
.railkit-app .kk-card { width: 168px; border: 2px solid var(--kk-c); border-radius: 8px; background: var(--kk-bg);
  padding: 6px 10px; line-height: 1.35; }
.railkit-app .kk-card .kk-terrain { font-weight: bold; font-size: 18px; color: var(--kk-c); }
.railkit-app .kk-card .kk-id { float: right; color: #666; font-size: 13px; }
.railkit-app .kk-card .kk-coin { font-weight: bold; }
.railkit-app .kk-chip { display: inline-block; border: 1px solid var(--kk-c); background: var(--kk-bg);
  border-radius: 12px; padding: 0 8px; margin: 1px 3px 1px 0; font-size: 14px; white-space: nowrap; }
.railkit-app .kk-chip.next { border-width: 2px; font-weight: bold; }
.railkit-app .kk-bars { letter-spacing: 1px; color: var(--kk-c); }
/* TERRAINS */
.railkit-app .kk-swatch { display: inline-block; width: 0.9em; height: 0.9em; border: 1px solid #444;
  vertical-align: -0.1em; margin-right: 5px; border-radius: 2px; }
.railkit-app table.railkit-table td { vertical-align: top; }
.railkit-app table.railkit-table tr.kk-current td { background: #fff8dc; }
.railkit-app .kk-race-box { overflow-x: auto; max-width: 100%; }  /* a window too narrow scrolls it, never cuts it */
.railkit-app table.kk-race { border-collapse: separate; border-spacing: 4px; margin: 4px 0 8px 0; }
.railkit-app table.kk-race td { height: 30px; min-width: 84px; text-align: center; font-size: 14px;
  border: 1px solid #c8c8c8; border-radius: 5px; background: #fafafa; color: #666; }
.railkit-app table.kk-race td.kk-name { border: none; background: none; text-align: left; color: #222;
  font-size: 16px; padding-right: 8px; white-space: nowrap; }
.railkit-app table.kk-race td.kk-crossed { color: white; font-weight: bold; border-color: #555; }
.railkit-app table.kk-race td.kk-queued { background: var(--kk-bg); border: 2px dashed var(--kk-c); color: #222; }
.railkit-app table.kk-race td.kk-queued.next { border-style: solid; font-weight: bold; }
.railkit-app table.kk-race td.kk-goal { border: none; background: none; color: #222; font-weight: bold; }
.railkit-app table.kk-race td.kk-extra { border: none; background: none; color: #555; }
.railkit-app table.kk-race tr.kk-name-row, .railkit-app .kk-race .kk-sign, .railkit-app .kk-race-key { display: none; }
.railkit-app .kk-banner { font-size: 18px; padding: 8px 12px; border-radius: 6px; background: #f3f3f3;
  border-left: 6px solid #1e63c4; margin: 4px 0; }
.railkit-app .kk-banner.kk-you { background: #fff3c4; border-left-color: #e0a800; }
.railkit-app .kk-banner.kk-over { background: #e6f4ea; border-left-color: #2e7d32; }
.railkit-app .kk-log { max-height: 320px; overflow-y: auto; border: 1px solid #ddd; padding: 4px 10px;
  background: #fcfcfc; font-size: 15px; }
.railkit-app .kk-log ol, .railkit-app .kk-log ul { margin: 2px 0; padding-left: 22px; }
.railkit-app .kk-events li { margin-bottom: 2px; }
.railkit-app .kk-muted { color: #555; }
.railkit-app .widget-button { font-size: 15px; }
.railkit-app button.kk-take { height: auto; min-height: 36px; white-space: normal; font-size: 15px; }
.railkit-app .railkit-kk-reveal { margin-top: 6px; }
/* Phones: the race shrinks to the screen (short cells, small type); what still does not fit scrolls inside
   its own box, never the page. */
@media (max-width: 700px) {
  .railkit-app .kk-race-box { overflow-x: auto; max-width: 100%; }
  .railkit-app table.kk-race { border-spacing: 2px; }
  .railkit-app table.kk-race td { min-width: 30px; height: 26px; font-size: 11px; padding: 1px 2px; }
  /* all eight cells in the screen's width, in equal columns: each player's name on a row of its own above their
     cells (whole, never broken inside a word), "Cairo" left to the heading (first to cross 8 terrains), each
     terrain as its sign (the race map's marker shape; the key under the race names them; a screen reader still
     reads the name), cards beyond Cairo after the name */
  .railkit-app table.kk-race { width: 100%; table-layout: fixed; }
  .railkit-app table.kk-race td { min-width: 0; font-size: 12px; }
  .railkit-app table.kk-race tr.kk-name-row { display: table-row; }
  .railkit-app table.kk-race tr.kk-name-row td { border: none; background: none; text-align: left; color: #222;
    font-size: 14px; height: auto; padding: 4px 0 0 0; }
  .railkit-app table.kk-race td:is(.kk-name, .kk-goal, .kk-extra) { display: none; }
  .railkit-app .kk-race .kk-sign { display: inline; font-size: 15px; }
  .railkit-app .kk-race .kk-word { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip: rect(0, 0, 0, 0); white-space: nowrap; }
  .railkit-app .kk-race-key { display: block; margin: 0 0 6px 0; font-size: 14px; color: #444; }
  .railkit-app .kk-log { font-size: 14px; }
  /* The reveal and the players table stack: one block per player, each value after its heading, so no
     heading is squeezed into a column a word wide. */
  .railkit-app table:is(.kk-reveal, .kk-players), .railkit-app table:is(.kk-reveal, .kk-players) :is(tbody, tr, td) {
    display: block; width: auto; }
  /* clear of the right edge: the HTML widget's own margin puts it 2 px past its box, which clips */
  .railkit-app table:is(.kk-reveal, .kk-players) { margin-right: 6px; }
  .railkit-app table:is(.kk-reveal, .kk-players) tr:first-child { display: none; }
  .railkit-app table:is(.kk-reveal, .kk-players) tr { border: 1px solid #c8c8c8; border-radius: 5px;
    margin: 0 0 6px 0; padding: 2px 0; }
  .railkit-app table:is(.kk-reveal, .kk-players) td { border: none; text-align: left; padding: 1px 8px; }
  .railkit-app table:is(.kk-reveal, .kk-players) td[data-label]::before { content: attr(data-label) ": ";
    color: #444; }
}
</style>
""".replace("/* TERRAINS */", terrain_css())  # the terrains' ink and paper (palette)



# -- names and seats --------------------------------------------------------------------------------
def seat_names(you: str, players: int, seat: int = 0, others: Sequence[str] = ()) -> list[str]:
    """The table in seating order (a pass goes to the left, KK-B3): the learner at ``seat``, the other
    players named ``others``, else computer names that differ from the learner's."""
    if not others:
        others = [n for n in BOT_NAMES if n.casefold() != you.casefold()][: players - 1]
    return seat_players(you, list(others)[: players - 1], seat)


def read_bid(text: str) -> int:
    """A typed bid as a whole number. Empty or not a whole number: ``InputError``. Whether the amount
    is allowed (0 up to the player's money, KK-A2) is the engine's decision, so a negative number is
    passed on for the engine to refuse with its rule."""
    raw = str(text).strip()
    if raw.startswith("-") and raw[1:].strip().isdigit():
        return -int(raw[1:].strip())
    return parse_whole(raw, tr("Your bid"))


# -- what the app remembers about each auction -------------------------------------------------------
class AuctionNotes:
    """For each auction: the card each player took (KK-A6) and everyone's money right after paying the
    bids (KK-A3), for the reveal table. A ``railkit.session.Notes``: told every move as it is made."""

    def __init__(self) -> None:
        self.taken: dict[int, dict[str, str]] = {}  # auction number -> {player: card id taken}
        self.money_left: dict[int, dict[str, int]] = {}  # auction number -> money right after paying bids

    def clear(self) -> None:
        self.taken.clear()
        self.money_left.clear()

    def note(self, game: CapeToCairoGame, action: Any, events: list[str]) -> None:
        record = game.state.last_auction
        if not record:
            return
        number = record["number"]
        if number not in self.money_left:  # this move revealed the bids (KK-A3)
            self.money_left[number] = dict(game.state.money)
        offer = set(record["offer"])
        taken = self.taken.setdefault(number, {})
        for p in record["order"]:
            if p not in taken:
                for card_id in game.state.queues[p]:
                    if card_id in offer:
                        taken[p] = card_id


# -- HTML pieces ------------------------------------------------------------------------------------
def bars(n: int) -> str:
    return "▮" * n if n else "–"


def card_title(card: Mapping[str, Any]) -> str:
    """One line for tooltips and buttons: “Mountains (needs 9) · 2 track pieces · coin £6”."""
    pieces = trn("{n} track piece", "{n} track pieces", card["tracks"])
    return tr("{terrain} (needs {need}) · {pieces} · coin {coin}", terrain=terrain_name(card["terrain"]),
              need=needs(card), pieces=pieces, coin=pounds(card["coin"]))


def needs(card: Mapping[str, Any]) -> int:
    """Tracks needed to cross the card's terrain (KK-C3), from the engine's table."""
    return REQUIREMENT[card["terrain"]]


def card_html(card: Mapping[str, Any], note: str = "") -> str:
    """A terrain card as on the table (KK-C2): terrain, tracks needed (KK-C3), track pieces, coin."""
    t = card["terrain"]
    pieces = trn("{n} track piece", "{n} track pieces", card["tracks"])
    extra = f"<div class='kk-muted'>{html.escape(note)}</div>" if note else ""
    return (f"<div class='kk-card kk-{html.escape(t)}' title='{html.escape(card_title(card))}'>"
            f"<span class='kk-id'>{html.escape(card['id'])}</span>"
            f"<div class='kk-terrain'>{html.escape(terrain_name(t))}</div>"
            f"<div>{trn('needs {n} track', 'needs {n} tracks', needs(card))}</div>"
            f"<div><span class='kk-bars'>{bars(card['tracks'])}</span> {html.escape(pieces)}</div>"
            f"<div class='kk-coin'>{tr('coin {coin}', coin=pounds(card['coin']))}</div>{extra}</div>")


def deck_note() -> str:
    """Under every deck view: the 50 cards are railkit's reconstruction (KK-C4), link to the rulings."""
    return reconstruction_note(tr("The rulebook does not list the 50 cards: this deck is railkit's reconstruction "
                                  "(KK-C4)."))


def cards_html(cards: Iterable[Mapping[str, Any]], empty: str = "", note: bool | str = False) -> str:
    """The cards as tiles; ``note``: with the deck note under them (``True``: the built-in deck's; a string:
    that note's HTML, e.g. a club deck's ``LessonData.note_html()``)."""
    items = "".join(card_html(c) for c in cards)
    shown = f"<div class='kk-cards'>{items}</div>" if items else f"<p class='kk-muted'>{html.escape(empty)}</p>"
    return shown + (note if isinstance(note, str) else deck_note() if note else "")


def chip_html(card: Mapping[str, Any], first: bool = False) -> str:
    """A small card in a player's line: terrain, tracks needed, ▮ per track piece, coin."""
    t = card["terrain"]
    return (f"<span class='kk-chip kk-{html.escape(t)}{' next' if first else ''}' "
            f"title='{html.escape(card['id'] + ': ' + card_title(card))}'>"
            f"{html.escape(terrain_name(t))} {needs(card)} · <span class='kk-bars'>{bars(card['tracks'])}</span>"
            f" · {pounds(card['coin'])}</span>")


def line_html(cards: Sequence[Mapping[str, Any]], mark_next: bool = True) -> str:
    """A player's line of terrain cards; the first (the next to cross) has a bold edge."""
    if not cards:
        return f"<span class='kk-muted'>{tr('no terrain')}</span>"
    return "".join(chip_html(c, mark_next and i == 0) for i, c in enumerate(cards))


def swatch(colour: str) -> str:
    return f"<span class='kk-swatch' style='background:{PLAYER_HEX.get(colour, '#999')}'></span>"


def player_html(view: KKView, player: str) -> str:
    """Colour swatch + name, and “(you)” for the learner."""
    you = (f" <span class='kk-muted'>{tr('(you)')}</span>"
           if player == view.you and not is_default_learner(player) else "")  # “You (you)” would say it twice
    return f"{swatch(view.colours[player])}{html.escape(player_label(player))}{you}"


def players_table_html(view: KKView, bid_column: Mapping[str, str] | None = None) -> str:
    """Money, bonus tracks, terrain crossed and the line of terrain in front of each train (KK-A6)."""
    current = set(view.to_act) if view.phase != "bid" else set()
    head = (f"<tr><th class='name'>{tr('player')}</th><th>{tr('money')}</th>"
            + (f"<th>{tr('bid')}</th>" if bid_column is not None else "")
            + f"<th>{tr('crossed')}</th><th>{tr('bonus tracks')}</th>"
            f"<th class='name'>{tr('terrain in front of the train, next first (KK-A6)')}</th></tr>")
    rows = ""

    def cell(label: str, value: str, name: bool = False) -> str:  # data-label: the stacked form on a phone
        return f"<td{NAME_CELL if name else ''} data-label='{html.escape(label, True)}'>{value}</td>"

    for p in view.players:
        cls = " class='kk-current'" if p in current else ""
        bid = cell(tr("bid"), bid_column.get(p, "")) if bid_column is not None else ""
        rows += (f"<tr{cls}>{cell(tr('player'), player_html(view, p), True)}{cell(tr('money'), pounds(view.money[p]))}"
                 f"{bid}{cell(tr('crossed'), f'{view.crossed[p]} / {view.win_crossings}')}"
                 f"{cell(tr('bonus tracks'), str(view.bonus_tracks[p]))}"
                 f"{cell(tr('terrain in front of the train, next first (KK-A6)'), line_html(view.queues[p]), True)}</tr>")
    return f"<table class='railkit-table kk-players'>{head}{rows}</table>"


def race_html(view: KKView) -> str:
    """The race to Cairo: one row per player, one cell per terrain to cross (KK-E1). Filled cells are
    crossed; dashed cells are the cards waiting in front of the train (the next one has a solid edge)."""
    goal = view.win_crossings
    rows = ""
    for p in view.players:
        crossed, line = view.crossed[p], view.queues[p]
        colour = PLAYER_HEX.get(view.colours[p], "#777")
        text_colour = player_text(view.colours[p])
        cells = ""
        for i in range(goal):
            if i < crossed:
                cells += (f"<td class='kk-crossed' style='background:{colour};color:{text_colour}' "
                          f"title='{html.escape(tr('crossed'))}'>✔ {i + 1}</td>")
            elif i - crossed < len(line):
                card = line[i - crossed]
                first = " next" if i == crossed else ""
                cells += (f"<td class='kk-queued kk-{html.escape(card['terrain'])}{first}' "
                          f"title='{html.escape(card_title(card))}'>{terrain_mark(card['terrain'])}</td>")
            else:
                cells += f"<td>{i + 1}</td>"
        beyond = len(line) - (goal - crossed)
        extra = f"<td class='kk-extra'>+{beyond}</td>" if beyond > 0 else ""
        # the name twice: beside the row (wide screens), and on a row of its own above it (phones, KK_STYLE), where
        # it has the whole width and never breaks inside a word; one of the two is hidden, also from screen readers
        beyond_words = f" <span class='kk-muted'>+{beyond}</span>" if beyond > 0 else ""
        rows += (f"<tr class='kk-name-row'><td colspan='{goal}'>{player_html(view, p)}{beyond_words}</td></tr>"
                 f"<tr><td class='kk-name'>{player_html(view, p)}</td>{cells}"
                 f"<td class='kk-goal'>{tr('Cairo')}</td>{extra}</tr>")
    goal_words = trn("(first to cross {n} terrain wins, KK-E1)", "(first to cross {n} terrains wins, KK-E1)", goal)
    key = " · ".join(f"{TERRAIN_SIGN[t]} {html.escape(terrain_name(t))}" for t in TERRAINS)
    return (f"<div class='kk-race-box'><b>{tr('The race from the Cape to Cairo')}</b> "
            f"<span class='kk-muted'>{goal_words}</span>"
            f"<table class='kk-race'>{rows}</table><p class='kk-race-key' aria-hidden='true'>{key}</p></div>")


def terrain_mark(terrain: str) -> str:
    """A terrain in a race cell: its sign (the race map's marker shape) and its name; a phone shows the sign alone,
    the name still read by a screen reader, and the key under the race says which sign is which."""
    return (f"<span class='kk-sign' aria-hidden='true'>{TERRAIN_SIGN.get(terrain, '')}</span>"
            f"<span class='kk-word'>{html.escape(terrain_name(terrain))}</span>")


def choosing_place(view: KKView, player: str) -> int:
    """Where ``player`` stands in the choosing order of the auction just revealed (1 = first, KK-A4)."""
    record = view.last_auction
    assert record is not None  # the order exists once the bids are revealed
    return record["order"].index(player) + 1


NAME_CELL = " class='name'"


def reveal_html(view: KKView, game: CapeToCairoGame, taken: Mapping[str, str],
                money_left: Mapping[str, int]) -> str:
    """The last auction: every bid, money left, the choosing order the engine computed with its steps
    (KK-A3, KK-A4, KK-A5), the tie-break draws, and which card each player took (KK-A6)."""
    record = view.last_auction
    if not record:
        return ""
    order: list[str] = record["order"]
    bids: Mapping[str, int] = record["bids"]
    heads = (tr("chooses"), tr("player"), tr("bid (paid by all, KK-A3)"), tr("money left"), tr("card taken (KK-A6)"))
    rows = ""
    for place, p in enumerate(order, 1):
        card_id = taken.get(p)
        took = chip_html(game.card(card_id).to_dict()) if card_id else (
            f"<span class='kk-muted'>{tr('chooses soon') if p in view.choosing_order else tr('no card')}</span>")
        cells = (ordinal(place), player_html(view, p), pounds(bids[p]),
                 pounds(money_left[p]) if p in money_left else "", took)
        # data-label: on a phone the table stacks, one player a block, each value after its heading (KK_STYLE)
        rows += "<tr>" + "".join(f"<td{NAME_CELL if i in (1, 4) else ''} data-label='{html.escape(heads[i], True)}'>"
                                 f"{cell}</td>" for i, cell in enumerate(cells)) + "</tr>"
    table = (f"<table class='railkit-table kk-reveal'><tr><th>{html.escape(heads[0])}</th>"
             f"<th class='name'>{html.escape(heads[1])}</th><th>{html.escape(heads[2])}</th>"
             f"<th>{html.escape(heads[3])}</th><th class='name'>{html.escape(heads[4])}</th></tr>{rows}</table>")
    steps = "".join(f"<li>{html.escape(as_learner(s, view.you))}</li>" for s in record["steps"])
    drawn = ""
    if record.get("tie_break_cards"):
        chips = "".join(chip_html(game.card(c).to_dict()) for c in record["tie_break_cards"])
        drawn = (f"<p>{tr('Cards drawn to break the tie (they go to the discard pile, KK-A5):')} {chips}</p>")
    return (f"<div class='railkit-reveal'><b>{tr('Auction {n}: the bids are revealed', n=record['number'])}</b>"
            f"{table}<b>{tr('How the engine settled the choosing order:')}</b>"
            f"<ol class='railkit-steps'>{steps}</ol>{drawn}</div>")


def events_html(events: Sequence[str], empty: str = "", you: str | None = None) -> str:
    if not events:
        return f"<p class='kk-muted'>{html.escape(empty)}</p>" if empty else ""
    items = "".join(f"<li>{html.escape(as_learner(e, you))}</li>" for e in events)
    return f"<ul class='kk-events'>{items}</ul>"


def as_learner(sentence: str, you: str | None) -> str:
    """``sentence`` in the lesson's language, about the learner ``you`` in the second person (“Kim passes” →
    “You pass”): the engine's own second-person message where it has one (``railkit.messages.addressed``);
    English also rewrites the rest (``railkit.ui.records.learner.second_person`` knows English grammar only)."""
    text = render(sentence, you)
    if get_language() != DEFAULT_LANGUAGE:
        return text
    return second_person(text, you)


def log_html(narrative: Sequence[str], you: str | None = None) -> str:
    items = "".join(f"<li>{html.escape(as_learner(e, you))}</li>" for e in narrative)
    return f"<div class='kk-log'><ol class='kk-events'>{items}</ol></div>"
