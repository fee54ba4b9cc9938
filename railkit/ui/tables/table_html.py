"""The “Play with others” panel's pictures in words, from what the table server sent a seat: the lobby (who sits
where, the code to share), whose turn it is, and the table's story (the engine's latest sentences). Plain
functions of the server's state message and the seat's typed view; ``railkit.ui.tables.table_play`` puts them on screen.
``problem_words`` says what a refusal or a lost connection means and what to do about it.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from railkit.game import BaseView
from railkit.messages import names_message
from railkit.ui.class_http import ServerProblem
from railkit.ui.i18n import render, tr, trn
from railkit.ui.tables.table_game import TableGame, sentence_text

__all__ = ["LOBBY_FOCUS", "SHOWN_EVENTS", "STORY_TITLE", "TABLE_STYLE", "events_html", "lobby_html", "offline_html",
           "problem_words", "stand_in_words", "turn_html"]

SHOWN_EVENTS = 14  # the engine's latest sentences on screen
# The lobby's box (kept while its text changes; the template makes it focusable): focused, so scrolled into view,
# when a page opens at a table. The story's title names the story's box (a region, ``railkit.ui.tables.table_showing``).
LOBBY_FOCUS = ".railkit-table-lobby"
STORY_TITLE = "railkit-table-story-title"

TABLE_STYLE = """<style>
.railkit-app .railkit-table-turn .rk-turn { padding: 10px 14px; border-radius: 8px; margin: 6px 0; font-size: 17px; }
.railkit-app .railkit-table-turn .rk-yours { background: #1b5e20; color: #fff; font-size: 21px; font-weight: bold;
  border: 3px solid #0b3d0e; }
.railkit-app .railkit-table-turn .rk-wait { background: #eef2f7; color: #1a1a1a; border: 1px solid #9aa7b5; }
.railkit-app .railkit-table-turn .rk-over { background: #fff3cd; color: #1a1a1a; border: 1px solid #b38600; }
.railkit-app .railkit-table-turn .rk-offline { background: #fdecea; color: #1a1a1a; border: 2px solid #b3261e; }
.railkit-app .railkit-table-lobby .rk-code { font-family: monospace; font-size: 26px; letter-spacing: 4px;
  font-weight: bold; padding: 2px 10px; border: 2px dashed #555; border-radius: 6px; background: #fff; }
.railkit-app .railkit-table-lobby ul, .railkit-app .railkit-table-events ol { margin: 4px 0 6px 0; }
/* The lobby is focused only to bring the page to the table (no control, no Tab stop): no focus ring. */
body.jp-Notebook .railkit-app .railkit-table-lobby:focus,
body.jp-Notebook .railkit-app .railkit-table-lobby:focus-visible {
  outline: none !important; box-shadow: none !important; }
.railkit-app .railkit-table-events li.rk-new { font-weight: bold; }
.railkit-app .railkit-table-events li { white-space: pre-line; }
.railkit-app .railkit-table-progress { font-size: 17px; font-weight: bold; }
.railkit-app .railkit-table-board { max-width: 100%; min-width: 0; overflow-x: auto; }
.railkit-app .railkit-table-board .widget-html-content { min-width: 0; }
/* a wide table scrolls in its own box; the race fits the screen by itself (capecairo.common.KK_STYLE) */
.railkit-app .railkit-table-board table:not(.kk-race) { display: block; max-width: 100%; overflow-x: auto; }
</style>"""


def lobby_html(state: Mapping[str, Any]) -> str:
    """Who sits where (you, a learner, away or here, a computer player, also one sitting in for a learner, open)
    and the table's code to share."""
    seat = state.get("seat")
    code = str(state.get("table", ""))
    seats: dict[str, str] = state.get("seats", {})
    away, stand_ins = set(state.get("away", ())), dict(state.get("stand_ins", {}))
    items = []
    for name, holder in seats.items():
        if holder == "open":
            what = tr("waiting for a learner to join")
        elif holder == "bot":
            what = tr("a computer player, in its learner's place") if name in stand_ins else tr("a computer player")
        elif name in away and name != seat:
            what = tr("a learner, away just now")
        else:
            what = tr("a learner")
        you = " " + tr("(you)") if name == seat else ""
        items.append(f"<li><b>{html.escape(name)}</b>{html.escape(you)}: {html.escape(what)}</li>")
    waiting = [n for n, h in seats.items() if h == "open"]
    head = (tr("Seats still open: {n}. Share this code:", n=len(waiting)) if waiting
            else tr("Everyone is seated. The table's code:"))
    # the code shown whole, and read out letter by letter (a screen reader would read "FZ3999" as a word)
    return (f"<div class='rk-lobby'><p>{html.escape(head)} <span class='rk-code' aria-hidden='true'>"
            f"{html.escape(code)}</span><span class='railkit-sr-only'>{html.escape(' '.join(code))}</span></p>"
            f"<ul>{''.join(items)}</ul></div>")


def turn_html(game: TableGame, view: BaseView, state: Mapping[str, Any]) -> str:
    """An unmistakable “your turn”, whom the table waits for, or who won (seen; a screen reader hears the turn and the
    end once, from ``railkit.ui.tables.table_announce``, so no role here: this box is drawn anew on every update)."""
    seat = state.get("seat")
    if state.get("is_over"):
        words = game.result_words(view)
        return (f"<div class='rk-turn rk-over'><b>{html.escape(tr('The game is over.'))}</b> "
                f"{html.escape(words)}</div>")
    if seat is not None and state.get("seats", {}).get(seat) == "bot":  # a computer player sits in for this learner
        words = stand_in_words(str(state.get("stand_ins", {}).get(seat, "")))
        return f"<div class='rk-turn rk-wait'>{html.escape(words)}</div>"
    to_act = list(view.to_act)
    open_seats = [n for n, h in state.get("seats", {}).items() if h == "open"]
    if seat is not None and seat in to_act and state.get("legal"):
        return (f"<div class='rk-turn rk-yours'>▶ {html.escape(tr('Your turn!'))} "
                f"{html.escape(tr('Choose your move below.'))}</div>")
    others = [p for p in to_act if p != seat]
    if open_seats and set(others) & set(open_seats):
        words = tr("The game starts when every seat is taken (or the creator seats computer players).")
    elif others:
        words = trn("Waiting for {names}.", "Waiting for {names}.", len(others), names=render(names_message(others)))
    else:
        words = tr("Waiting for the others.")
    return f"<div class='rk-turn rk-wait'>{html.escape(words)}</div>"


def offline_html(waiting: str | None) -> str:
    """The turn's place while the table server does not answer: that the page carries on by itself, and the move
    that waits to be sent (``waiting``, in words), never “your turn”."""
    words = tr("The table server is not answering just now; it is probably restarting. This page carries on by "
               "itself as soon as it is back.")
    wait = "" if waiting is None else " " + tr("Your move waits and is sent then: {move}.", move=waiting)
    return f"<div class='rk-turn rk-offline'>{html.escape(words + wait)}</div>"


def stand_in_words(by: str) -> str:
    """What a learner reads when a computer player takes their seat (``by``: ``teacher``, ``creator`` or "")."""
    if by == "teacher":
        return tr("The teacher put a computer player in your seat: it plays for you until the seat is given back "
                  "to you.")
    if by == "creator":
        return tr("The table's creator put a computer player in your seat, as you had been away: it plays for you "
                  "until the seat is given back to you.")
    return tr("A computer player plays your seat for now, until it is given back to you.")


def events_html(state: Mapping[str, Any], mine: int) -> tuple[str, int]:
    """The engine's latest sentences (those after ``mine``, the narrative's length at this seat's last move,
    marked new), about this seat in the second person; and how many sentences the table has told in all."""
    sent: Sequence[Any] = state.get("narrative", [])
    total = int(state.get("narrative_length", len(sent)))
    first = total - len(sent)
    shown = [(first + i, s) for i, s in enumerate(sent)][-SHOWN_EVENTS:]
    items = []
    for index, sentence in shown:
        new = " class='rk-new'" if index >= mine and mine else ""
        items.append(f"<li{new}>{html.escape(sentence_text(sentence, state.get('seat')))}</li>")
    # no live region here: what is new is announced once (``railkit.ui.tables.table_announce``); the list is to read at leisure
    return (f"<b id='{STORY_TITLE}'>{html.escape(tr('At the table'))}</b>"
            f"<ol start='{shown[0][0] + 1 if shown else 1}'>{''.join(items)}</ol>"), total


def problem_words(problem: ServerProblem, seat: str | None) -> str:
    """What the learner reads when the table server refused a request (or cannot be reached): what happened and
    what to do; a move the rules refused is told in the engine's own words (read back for ``seat``) with its rule."""
    code, details = problem.code, problem.details
    if code == "offline":
        return tr("The table server is not answering just now; it is probably restarting. This page carries on by "
                  "itself as soon as it is back, and a move you make meanwhile is sent then.")
    if code == "name_taken":
        names = [str(n) for n in details.get("names", []) if isinstance(n, str)][:12]
        return tr("The name “{name}” is taken at this table (names in use: {names}). Try “{suggestion}” or another "
                  "name.", name=str(details.get("name", "")), names=", ".join(names) or "—",
                  suggestion=str(details.get("suggestion", "")))
    if code == "seat_connected" and details.get("teacher_only"):
        return tr("On this class server only your teacher can put a computer player in a learner's seat ({seat}).",
                  seat=str(details.get("seat", "")))
    if code == "seat_connected":
        seconds = details.get("seconds")
        n = seconds if isinstance(seconds, int) and not isinstance(seconds, bool) else 60
        return trn("{seat} is still at the table, or left less than {n} second ago: a computer player takes a "
                   "learner's seat only once they have been away that long. Your teacher can do it at any time.",
                   "{seat} is still at the table, or left less than {n} seconds ago: a computer player takes a "
                   "learner's seat only once they have been away that long. Your teacher can do it at any time.",
                   n, seat=str(details.get("seat", "")), n=n)
    if code == "stale":
        return tr("Another move came first. The table now shows the game as it is; make your move again.")
    if code == "closed":
        return tr("The teacher closed this table. Start or join another one.")
    if code == "no_table":
        return tr("There is no table with that code; check the code you were given.")
    if code == "set_aside":
        return tr("This table cannot be played on this server any more; its moves are kept, and your teacher sees "
                  "why.")
    if code == "replaced":
        return tr("This seat is open in newer pages, so this page has stopped; play on in the newest one.")
    if code in ("no_seat", "seat_taken"):
        return tr("Every seat at that table is taken; ask its creator to free one.")
    if code == "bad_token":
        return tr("This page's seat is no longer at that table; join again with the table's code.")
    if code == "limit":
        return tr("The table server is full just now; try again later or ask your teacher.")
    if code == "too_fast":
        return tr("Slow down a little: wait a moment and try again.")
    if code == "not_your_seat":
        return tr("A computer player holds your seat now; ask the table's creator to give it back.")
    if code == "not_creator":
        return tr("Only the table's creator can seat a computer player.")
    why = sentence_text(problem.words, seat) if problem.words is not None else problem.message
    return tr("The table refused that: {why} ({rule})", why=why, rule=problem.rule or code)
