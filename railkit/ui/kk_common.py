"""Pieces shared by the Vom Kap bis Kairo lessons (``kk_auction``, ``kk_play``).

* ``Table`` — a real game (``railkit.capecairo.new_game``) with the learner in one seat and
  ``HeuristicBot`` players in the others. It applies actions, lets the bots act until the learner
  is to act, and remembers what happened in plain words (the engine's events). Bots never see a
  sealed bid (they only read the game through the bot interface, which reads public information).
* HTML pieces: terrain cards, the players' table, the race to Cairo, the reveal of an auction.
* ``KkApp`` — the frame both apps are built on: a game tab and an exercise tab with a legend, the
  widgets to start a game, hand in a sealed bid and take a card, and what they show of the auction.

Everything shown is taken from ``game.view(learner)``, so the learner sees exactly what a player at
the table would see: no sealed bid of another player before the reveal (KK-A2), bonus tracks only as
a count (KK-R2). Every verdict — legal or not, the choosing order, the cost of a build — comes from
the engine; this module only collects input and draws.
"""

from __future__ import annotations

import html
import random
from typing import Any, Iterable, Mapping, Sequence

import ipywidgets as widgets

from railkit.capecairo import REQUIREMENT, CapeToCairoGame, new_game
from railkit.capecairo.bots import HeuristicBot
from railkit.ui.app import App, InputError, Score, guarded, parse_whole
from railkit.ui.i18n import tr

DEFAULT_NAME = "Kim"
BOT_NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eva")
MAX_NAME = 20
MAX_STEPS = 20_000  # the engine always ends a game (KK-E1, KK-B8); this only guards the app's loop

PLAYER_HEX = {"red": "#c62828", "yellow": "#f2b705", "green": "#2e7d32", "blue": "#283593"}
TERRAIN_HEX = {  # (border/text colour, background)
    "river": ("#0277bd", "#e1f2fc"),
    "mountains": ("#5d4e3f", "#ebe4dc"),
    "desert": ("#a86f00", "#fcf0cf"),
    "village": ("#a23b1c", "#f8e1d8"),
    "savanna": ("#4f7f23", "#e6f1da"),
}


def terrain_name(terrain: str) -> str:
    return {"river": tr("River"), "mountains": tr("Mountains"), "desert": tr("Desert"),
            "village": tr("Village"), "savanna": tr("Savanna")}.get(terrain, terrain)


def colour_name(colour: str) -> str:
    return {"red": tr("red"), "yellow": tr("yellow"), "green": tr("green"), "blue": tr("blue")}.get(colour, colour)


def ordinal(n: int) -> str:
    return {1: tr("1st"), 2: tr("2nd"), 3: tr("3rd"), 4: tr("4th")}.get(n, tr("{n}th", n=n))


def pounds(amount: int) -> str:
    return tr("£{amount}", amount=amount)


# -- look -----------------------------------------------------------------------------------------
KK_STYLE = """
<style>
.railkit-app .railkit-row { gap: 8px; flex-wrap: wrap; align-items: center; }
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
.railkit-app .kk-river { --kk-c: #0277bd; --kk-bg: #e1f2fc; }
.railkit-app .kk-mountains { --kk-c: #5d4e3f; --kk-bg: #ebe4dc; }
.railkit-app .kk-desert { --kk-c: #a86f00; --kk-bg: #fcf0cf; }
.railkit-app .kk-village { --kk-c: #a23b1c; --kk-bg: #f8e1d8; }
.railkit-app .kk-savanna { --kk-c: #4f7f23; --kk-bg: #e6f1da; }
.railkit-app .kk-swatch { display: inline-block; width: 0.9em; height: 0.9em; border: 1px solid #444;
  vertical-align: -0.1em; margin-right: 5px; border-radius: 2px; }
.railkit-app table.railkit-table td { vertical-align: top; }
.railkit-app table.railkit-table tr.kk-current td { background: #fff8dc; }
.railkit-app table.kk-race { border-collapse: separate; border-spacing: 4px; margin: 4px 0 8px 0; }
.railkit-app table.kk-race td { height: 30px; min-width: 84px; text-align: center; font-size: 14px;
  border: 1px solid #c8c8c8; border-radius: 5px; background: #fafafa; color: #999; }
.railkit-app table.kk-race td.kk-name { border: none; background: none; text-align: left; color: #222;
  font-size: 16px; padding-right: 8px; white-space: nowrap; }
.railkit-app table.kk-race td.kk-crossed { color: white; font-weight: bold; border-color: #555; }
.railkit-app table.kk-race td.kk-queued { background: var(--kk-bg); border: 2px dashed var(--kk-c); color: #222; }
.railkit-app table.kk-race td.kk-queued.next { border-style: solid; font-weight: bold; }
.railkit-app table.kk-race td.kk-goal { border: none; background: none; color: #222; font-weight: bold; }
.railkit-app table.kk-race td.kk-extra { border: none; background: none; color: #555; }
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
</style>
"""


# -- names and seats --------------------------------------------------------------------------------
def read_name(text: str) -> str:
    """The learner's name as typed; ``InputError`` when empty or too long."""
    name = " ".join(str(text).split())
    if not name:
        raise InputError(tr("“Your name” is empty: type a name (the other players are computer players)."))
    if len(name) > MAX_NAME:
        raise InputError(tr("“Your name” is too long: at most {n} characters.", n=MAX_NAME))
    return name


def seat_names(you: str, players: int) -> list[str]:
    """The learner in the first seat, then computer players with other names (seating order, KK-B3)."""
    bots = [n for n in BOT_NAMES if n.casefold() != you.casefold()]
    return [you, *bots[: players - 1]]


def read_bid(text: str) -> int:
    """A typed bid as a whole number. Empty or not a whole number: ``InputError``. Whether the amount
    is allowed (0 up to the player's money, KK-A2) is the engine's decision, so a negative number is
    passed on for the engine to refuse with its rule."""
    raw = str(text).strip()
    if raw.startswith("-") and raw[1:].strip().isdigit():
        return -int(raw[1:].strip())
    return parse_whole(raw, tr("Your bid"))


# -- the game with computer players -----------------------------------------------------------------
class Table:
    """A game with the learner ``you`` and ``HeuristicBot`` players in the other seats.

    Each bot decision uses a fresh ``HeuristicBot`` seeded from the game's seed, the length of the
    log and the seat, so the same position always gets the same decision (also after an undo).
    """

    def __init__(self, game: CapeToCairoGame, you: str, autopilot_seed: int = 0) -> None:
        self.game = game
        self.you = you
        self.autopilot_seed = autopilot_seed
        self.taken: dict[int, dict[str, str]] = {}  # auction number -> {player: card id taken}
        self.money_left: dict[int, dict[str, int]] = {}  # auction number -> money right after paying bids

    @classmethod
    def start(cls, you: str, players: int, seed: int, **options: Any) -> "Table":
        return cls(new_game(seat_names(you, players), seed=seed, **options), you, seed)

    def bot_action(self, player: str) -> Any:
        seat = self.game.players.index(player)
        bot = HeuristicBot(seed=self.autopilot_seed * 100_003 + len(self.game.log) * 7 + seat)
        return bot.choose(self.game, player)

    def apply(self, action: Any, events: list[str]) -> None:
        """Apply one action (the engine checks it first; a refused one changes nothing)."""
        before = self.game.last_auction
        events.extend(self.game.apply(action))
        record = self.game.last_auction
        if record is not None and record is not before:  # this action revealed the bids (KK-A3)
            self.money_left[record["number"]] = dict(self.game.money)
        self._note_taken()

    def _note_taken(self) -> None:
        """Remember which card each player took in the latest auction (for the reveal table)."""
        record = self.game.last_auction
        if not record:
            return
        offer = set(record["offer"])
        taken = self.taken.setdefault(record["number"], {})
        for p in record["order"]:
            if p not in taken:
                for card_id in self.game.queues[p]:
                    if card_id in offer:
                        taken[p] = card_id

    def rewound(self, upto: int) -> "Table":
        """The table as it was after the first ``upto`` actions, rebuilt by replaying the log on a fresh
        setup (as ``Game.replay`` does), so the notes on each auction are rebuilt too."""
        game = self.game
        fresh = Table(type(game)(game.players, seed=game.seed, **game.options), self.you, self.autopilot_seed)
        for action in game.log[:upto]:
            fresh.apply(action, [])
        return fresh

    def last_index_of(self, player: str) -> int | None:
        """Index in the log of ``player``'s last action, or None."""
        for i in range(len(self.game.log) - 1, -1, -1):
            if self.game.log[i].player == player:
                return i
        return None

    def learner_to_act(self) -> bool:
        return not self.game.is_over and self.you in self.game.players_to_act()

    def run_bots(self, events: list[str], autopilot_builds: bool = False, stop_at_build: bool = False) -> None:
        """Let the computer players act until the learner is to act (or the game ends).

        ``autopilot_builds``: the learner's building turns are decided by the computer too (the
        auction lesson plays the building phase quickly); ``stop_at_build``: stop as soon as a
        building phase begins (the auction lesson waits for “Next auction”).
        """
        game = self.game
        for _ in range(MAX_STEPS):
            if game.is_over:
                return
            if game.phase == "bid":  # sealed bids (KK-A2): the computer players hand theirs in first
                pending = [p for p in game.players_to_act() if p != self.you]
                if not pending:
                    return
                for p in pending:
                    self.apply(self.bot_action(p), events)
                continue
            if game.phase == "build" and stop_at_build:
                return
            player = game.current_player
            assert player is not None
            if player == self.you and not (autopilot_builds and game.phase == "build"):
                return
            self.apply(self.bot_action(player), events)
        raise RuntimeError("the computer players did not finish within the step limit")


# -- HTML pieces ------------------------------------------------------------------------------------
def bars(n: int) -> str:
    return "▮" * n if n else "–"


def card_title(card: Mapping[str, Any]) -> str:
    """One line for tooltips and buttons: “Mountains (needs 9) · 2 track pieces · coin £6”."""
    pieces = tr("1 track piece") if card["tracks"] == 1 else tr("{n} track pieces", n=card["tracks"])
    return tr("{terrain} (needs {need}) · {pieces} · coin {coin}", terrain=terrain_name(card["terrain"]),
              need=needs(card), pieces=pieces, coin=pounds(card["coin"]))


def needs(card: Mapping[str, Any]) -> int:
    """Tracks needed to cross the card's terrain (KK-C3), from the engine's table."""
    return REQUIREMENT[card["terrain"]]


def card_html(card: Mapping[str, Any], note: str = "") -> str:
    """A terrain card as on the table (KK-C2): terrain, tracks needed (KK-C3), track pieces, coin."""
    t = card["terrain"]
    pieces = tr("1 track piece") if card["tracks"] == 1 else tr("{n} track pieces", n=card["tracks"])
    extra = f"<div class='kk-muted'>{html.escape(note)}</div>" if note else ""
    return (f"<div class='kk-card kk-{html.escape(t)}' title='{html.escape(card_title(card))}'>"
            f"<span class='kk-id'>{html.escape(card['id'])}</span>"
            f"<div class='kk-terrain'>{html.escape(terrain_name(t))}</div>"
            f"<div>{tr('needs {n} tracks', n=needs(card))}</div>"
            f"<div><span class='kk-bars'>{bars(card['tracks'])}</span> {html.escape(pieces)}</div>"
            f"<div class='kk-coin'>{tr('coin {coin}', coin=pounds(card['coin']))}</div>{extra}</div>")


def cards_html(cards: Iterable[Mapping[str, Any]], empty: str = "") -> str:
    items = "".join(card_html(c) for c in cards)
    return f"<div class='kk-cards'>{items}</div>" if items else f"<p class='kk-muted'>{html.escape(empty)}</p>"


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


def player_html(view: Mapping[str, Any], player: str) -> str:
    """Colour swatch + name, and “(you)” for the learner."""
    you = f" <span class='kk-muted'>{tr('(you)')}</span>" if player == view.get("you") else ""
    return f"{swatch(view['colours'][player])}{html.escape(player)}{you}"


def players_table_html(view: Mapping[str, Any], bid_column: Mapping[str, str] | None = None) -> str:
    """Money, bonus tracks, terrain crossed and the line of terrain in front of each train (KK-A6)."""
    current = set(view["to_act"]) if view["phase"] != "bid" else set()
    head = (f"<tr><th class='name'>{tr('player')}</th><th>{tr('money')}</th>"
            + (f"<th>{tr('bid')}</th>" if bid_column is not None else "")
            + f"<th>{tr('crossed')}</th><th>{tr('bonus tracks')}</th>"
            f"<th class='name'>{tr('terrain in front of the train, next first (KK-A6)')}</th></tr>")
    rows = ""
    for p in view["players"]:
        cls = " class='kk-current'" if p in current else ""
        bid = f"<td>{bid_column.get(p, '')}</td>" if bid_column is not None else ""
        rows += (f"<tr{cls}><td class='name'>{player_html(view, p)}</td><td>{pounds(view['money'][p])}</td>{bid}"
                 f"<td>{view['crossed'][p]} / {view['win_crossings']}</td><td>{view['bonus_tracks'][p]}</td>"
                 f"<td class='name'>{line_html(view['queues'][p])}</td></tr>")
    return f"<table class='railkit-table kk-players'>{head}{rows}</table>"


def race_html(view: Mapping[str, Any]) -> str:
    """The race to Cairo: one row per player, one cell per terrain to cross (KK-E1). Filled cells are
    crossed; dashed cells are the cards waiting in front of the train (the next one has a solid edge)."""
    goal = view["win_crossings"]
    rows = ""
    for p in view["players"]:
        crossed, line = view["crossed"][p], view["queues"][p]
        colour = PLAYER_HEX.get(view["colours"][p], "#777")
        text_colour = "#222" if view["colours"][p] == "yellow" else "white"
        cells = ""
        for i in range(goal):
            if i < crossed:
                cells += (f"<td class='kk-crossed' style='background:{colour};color:{text_colour}' "
                          f"title='{html.escape(tr('crossed'))}'>✔ {i + 1}</td>")
            elif i - crossed < len(line):
                card = line[i - crossed]
                first = " next" if i == crossed else ""
                cells += (f"<td class='kk-queued kk-{html.escape(card['terrain'])}{first}' "
                          f"title='{html.escape(card_title(card))}'>{html.escape(terrain_name(card['terrain']))}</td>")
            else:
                cells += f"<td>{i + 1}</td>"
        beyond = len(line) - (goal - crossed)
        extra = f"<td class='kk-extra'>+{beyond}</td>" if beyond > 0 else ""
        rows += (f"<tr><td class='kk-name'>{player_html(view, p)}</td>{cells}"
                 f"<td class='kk-goal'>{tr('Cairo')}</td>{extra}</tr>")
    return (f"<div class='kk-race-box'><b>{tr('The race from the Cape to Cairo')}</b> "
            f"<span class='kk-muted'>{tr('(first to cross {n} terrains wins, KK-E1)', n=goal)}</span>"
            f"<table class='kk-race'>{rows}</table></div>")


def reveal_html(view: Mapping[str, Any], game: CapeToCairoGame, taken: Mapping[str, str],
                money_left: Mapping[str, int]) -> str:
    """The last auction: every bid, money left, the choosing order the engine computed with its steps
    (KK-A3, KK-A4, KK-A5), the tie-break draws, and which card each player took (KK-A6)."""
    record = view["last_auction"]
    if not record:
        return ""
    order: list[str] = record["order"]
    bids: Mapping[str, int] = record["bids"]
    rows = ""
    for place, p in enumerate(order, 1):
        card_id = taken.get(p)
        took = chip_html(game.card(card_id).to_dict()) if card_id else (
            f"<span class='kk-muted'>{tr('chooses soon') if p in view['choosing_order'] else tr('no card')}</span>")
        rows += (f"<tr><td>{ordinal(place)}</td><td class='name'>{player_html(view, p)}</td>"
                 f"<td>{pounds(bids[p])}</td><td>{pounds(money_left[p]) if p in money_left else ''}</td>"
                 f"<td class='name'>{took}</td></tr>")
    table = (f"<table class='railkit-table kk-reveal'><tr><th>{tr('chooses')}</th><th class='name'>{tr('player')}</th>"
             f"<th>{tr('bid (paid by all, KK-A3)')}</th><th>{tr('money left')}</th>"
             f"<th class='name'>{tr('card taken (KK-A6)')}</th></tr>{rows}</table>")
    steps = "".join(f"<li>{html.escape(s)}</li>" for s in record["steps"])
    drawn = ""
    if record.get("tie_break_cards"):
        chips = "".join(chip_html(game.card(c).to_dict()) for c in record["tie_break_cards"])
        drawn = (f"<p>{tr('Cards drawn to break the tie (they go to the discard pile, KK-A5):')} {chips}</p>")
    return (f"<div class='railkit-reveal'><b>{tr('Auction {n}: the bids are revealed', n=record['number'])}</b>"
            f"{table}<b>{tr('How the engine settled the choosing order:')}</b>"
            f"<ol class='railkit-steps'>{steps}</ol>{drawn}</div>")


def events_html(events: Sequence[str], empty: str = "") -> str:
    if not events:
        return f"<p class='kk-muted'>{html.escape(empty)}</p>" if empty else ""
    items = "".join(f"<li>{html.escape(e)}</li>" for e in events)
    return f"<ul class='kk-events'>{items}</ul>"


def log_html(narrative: Sequence[str]) -> str:
    items = "".join(f"<li>{html.escape(e)}</li>" for e in narrative)
    return f"<div class='kk-log'><ol class='kk-events'>{items}</ol></div>"



# -- the app frame both lessons share ---------------------------------------------------------------
class KkApp(App):
    """A game against computer players in one tab, an exercise in another, and a legend.

    A lesson builds its tabs in ``build_tabs`` with the shared widgets (``_build_start_widgets``:
    name, players, New game; ``_build_turn_widgets``: status, cards on sale, the sealed bid, the
    “Take …” buttons, the reveal, the players table) and draws them with the ``_show_*`` methods. It
    provides ``_legend_html``, ``on_new_game``, ``on_bid``, ``on_choose``, ``deal_question`` and
    ``set_question`` (which calls ``self.score.next_question()``).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.table: Table | None = None
        self.question: Any = None
        self.score = Score()  # the exercise's [right first time, questions checked]
        super().__init__()
        self.on_new_game()
        self.on_new_question()

    # ------------------------------------------------------------------ building the widgets
    def build_tabs(self) -> list[tuple[str, widgets.Widget]]:
        raise NotImplementedError

    def _legend_html(self) -> str:
        raise NotImplementedError

    def build(self) -> widgets.Widget:
        pages = self.build_tabs()
        self.tabs = widgets.Tab(children=[page for _title, page in pages])
        for i, (title, _page) in enumerate(pages):
            self.tabs.set_title(i, title)
        self.legend = self._html("railkit-legend", self._legend_html())
        return widgets.VBox([widgets.HTML(KK_STYLE), self.tabs, self.legend])

    def _row(self, children: list[widgets.Widget]) -> widgets.HBox:
        box = widgets.HBox(children)
        box.add_class("railkit-row")
        return box

    def _html(self, css: str = "", value: str = "") -> widgets.HTML:
        """An HTML widget, with the CSS class ``css`` that the browser tests and the style find it by."""
        box = widgets.HTML(value)
        if css:
            box.add_class(css)
        return box

    def _button(self, label: str, css: str, icon: str = "", style: str = "", tip: str = "",
                width: str | None = "auto") -> widgets.Button:
        """A button with the CSS class ``css``; ``width=None`` keeps ipywidgets' default width."""
        button = widgets.Button(description=label, icon=icon, button_style=style, tooltip=tip,
                                layout=widgets.Layout(width=width))
        button.add_class(css)
        return button

    def _build_start_widgets(self, players: int, new_tip: str, name_width: str, players_width: str,
                             new_width: str | None) -> None:
        """“Your name”, “Players” and “New game” (KK-S1); the lesson lays them out."""
        self.name_field = widgets.Text(value=DEFAULT_NAME, description=tr("Your name"),
                                       style={"description_width": "90px"}, layout=widgets.Layout(width=name_width))
        self.name_field.add_class("railkit-kk-name")
        self.players = widgets.Dropdown(
            options=[(tr("{n} (you + {bots} computer)", n=n, bots=n - 1), n) for n in (2, 3, 4)],
            value=players, description=tr("Players"), style={"description_width": "70px"},
            layout=widgets.Layout(width=players_width))
        self.players.add_class("railkit-kk-players-count")
        self.new_button = self._button(tr("New game"), "railkit-kk-new", "refresh", "warning", new_tip, new_width)
        self.new_button.on_click(lambda _b: self.on_new_game())

    def _build_turn_widgets(self) -> None:
        """The status banner, the cards on sale, the sealed bid (KK-A2), the “Take …” buttons (KK-A4,
        KK-A6), the reveal and the players table; the lesson lays them out."""
        self.status = self._html("railkit-kk-status")
        self.offer_html = self._html("railkit-kk-offer")
        self.bid_field = widgets.Text(value="", placeholder=tr("0 up to your money"), description=tr("Your bid £"),
                                      style={"description_width": "90px"}, layout=widgets.Layout(width="240px"))
        self.bid_field.add_class("railkit-kk-bid")
        self.bid_button = self._button(tr("Hand in sealed bid"), "railkit-kk-bid-button", "envelope", "primary",
                                       tr("Your bid stays secret until everyone has bid (KK-A2)"), "210px")
        self.bid_button.on_click(lambda _b: self.on_bid())
        self.bid_row = self._row([self.bid_field, self.bid_button])
        self.choose_prompt = widgets.HTML("")
        self.choose_buttons = widgets.HBox([])
        self.choose_buttons.add_class("railkit-row")
        self.choose_box = widgets.VBox([self.choose_prompt, self.choose_buttons])
        self.choose_box.add_class("railkit-kk-choose")
        self.reveal = self._html("railkit-kk-reveal")
        self.players_html = self._html("railkit-kk-players")

    # ------------------------------------------------------------------ the game
    @property
    def game(self) -> CapeToCairoGame:
        assert self.table is not None
        return self.table.game

    @property
    def you(self) -> str:
        assert self.table is not None
        return self.table.you

    def view(self) -> dict[str, Any]:
        return self.game.view(self.you)

    def on_new_game(self) -> None:
        raise NotImplementedError

    def on_bid(self) -> None:
        raise NotImplementedError

    def on_choose(self, card_id: str) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ showing
    def _show_offer(self, v: Mapping[str, Any]) -> None:
        """The cards on sale while the auction bids (KK-A1) and chooses; nothing otherwise."""
        if v["phase"] == "bid":
            title = tr("On sale in auction {n} (KK-A1)", n=v["auction"])
        elif v["phase"] == "choose":
            title = tr("Cards still on sale")
        else:
            self.offer_html.value = ""
            return
        self.offer_html.value = f"<b>{html.escape(title)}</b>" + cards_html(v["offer"])

    def _show_bidding(self, v: Mapping[str, Any]) -> None:
        """The bid row, while the learner's sealed bid is due (KK-A2)."""
        you = self.you
        self.bid_row.layout.display = None if v["phase"] == "bid" and you in v["to_act"] else "none"
        self.bid_field.placeholder = tr("0 to {money}", money=v["money"][you])

    def _show_choosing(self, v: Mapping[str, Any]) -> None:
        """One “Take …” button per card on sale when it is the learner's turn to choose (KK-A4, KK-A6)."""
        if v["phase"] == "choose" and self.you in v["to_act"]:
            place = v["last_auction"]["order"].index(self.you) + 1
            self.choose_prompt.value = tr("<b>You choose {place}.</b> Which card do you take?", place=ordinal(place))
            buttons = []
            for card in v["offer"]:
                button = self._button(tr("Take {card}", card=card_title(card)), "kk-take", "hand-point-right",
                                      "info", tr("Lay {id} at the end of your line (KK-A6)", id=card["id"]))
                button.on_click(lambda _b, cid=card["id"]: self.on_choose(cid))
                buttons.append(button)
            self.choose_buttons.children = buttons
            self.choose_box.layout.display = None
        else:
            self.choose_buttons.children = []
            self.choose_box.layout.display = "none"

    def _reveal_html(self, v: Mapping[str, Any]) -> str:
        """The reveal of the last auction; empty before the first and while a new one takes bids."""
        record = v["last_auction"]
        if not record or v["phase"] == "bid":
            return ""
        assert self.table is not None
        return reveal_html(v, self.game, self.table.taken.get(record["number"], {}),
                           self.table.money_left.get(record["number"], {}))

    def _paid_text(self, record: Mapping[str, Any], player: str) -> str:
        """What the players table says ``player`` bid in the last auction (``record``)."""
        return pounds(record["bids"][player])

    def _show_players(self, v: Mapping[str, Any]) -> None:
        """The players table, with who has handed in a sealed bid, or what each bid last time."""
        record = v["last_auction"]
        if v["phase"] == "bid":
            column = {p: (tr("sealed ✔") if p in v["bids_handed_in"] else tr("not yet")) for p in v["players"]}
        elif record:
            column = {p: self._paid_text(record, p) for p in v["players"]}
        else:
            column = {}
        self.players_html.value = players_table_html(v, column)

    # ------------------------------------------------------------------ the exercise
    def deal_question(self) -> Any:
        raise NotImplementedError

    def set_question(self, question: Any) -> None:
        raise NotImplementedError

    @guarded
    def on_new_question(self) -> Any:
        question = self.deal_question()
        self.set_question(question)
        if self.score.total:  # before the first check the message bar still speaks of the game: keep it
            self.clear_message()
        return question

    def _report(self, right: bool, well_done: str, not_quite: str) -> bool:
        """Count the checked answer, show the score and the message; returns ``right``."""
        self.score.record(right)
        self.score_html.value = tr("Score: {right} of {total} situations right first time.",
                                   right=self.score.right, total=self.score.total)
        return self.report_answer(right, well_done, not_quite)
