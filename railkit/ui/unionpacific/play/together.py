"""Union Pacific at a class table (“Play with others”, ``railkit.ui.table_play``): how this game's seat
view, moves and review are shown. Everything comes from the JSON the table server sends: the seat's
view (its own hand and face-down first share, everyone's public table), the moves the engine allows
the seat, and at the end the whole game to replay for the review.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from railkit.ui.i18n import tr
from railkit.ui.table_play import TableGame
from railkit.ui.unionpacific.common import card_label, company_name, counts_html, section_label
from railkit.ui.unionpacific.play.html import companies_html, display_html, players_html, review_html, step_words
from railkit.unionpacific import Board
from railkit.unionpacific.game import UnionPacificGame
from railkit.unionpacific.review import review_moves
from railkit.unionpacific.views import UPView

__all__ = ["up_table"]


def action_words(board: Board, action: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    kind = action.get("type")
    if kind == "choose_first_share":
        return tr("Lay {company} face down as your first share (UP-S5)", company=company_name(board, action["card"]))
    if kind == "build":
        section = board.sections.get(str(action.get("section")))
        where = section_label(board, section) if section is not None else str(action.get("section"))
        return tr("Build {company}: {section}, with a {card} card (UP-B2)", company=company_name(board, action["company"]),
                  section=where, card=card_label(board, str(action.get("card"))))
    if kind == "invest":
        cards = [company_name(board, c) for c in action.get("cards", [])]
        return tr("Invest {shares} and discard a {card} card (UP-I1)", shares=" + ".join(cards),
                  card=card_label(board, str(action.get("discard"))))
    if kind == "draw_share":
        source = str(action.get("source", ""))
        if source.startswith("display:"):
            display = view.get("display") or []
            index = int(source.split(":", 1)[1])
            key = display[index] if 0 <= index < len(display) else None
            return tr("Draw {company} from the display (UP-B3)", company=company_name(board, key) if key else "?")
        return tr("Draw the top share of the deck (UP-B3)")
    if kind == "exchange_for_up":
        return tr("Exchange {company} for a Union Pacific share (UP-B4)", company=company_name(board, action["card"]))
    if kind == "end_turn":
        return tr("End your turn (UP-B6)")
    return str(kind)


def progress_words(view: Mapping[str, Any]) -> str:
    """UP-S5: how many first shares are chosen, never which (they are turned up together)."""
    if view.get("phase") == "first_share":
        return tr("{chosen} of {total} first shares chosen; they are turned up together (UP-S5).",
                  chosen=len(view.get("first_share_chosen") or []), total=len(view.get("players") or []))
    if view.get("phase") in (None, "over") or view.get("is_over"):
        return ""
    return tr("Now {player}: {step}", player=view.get("current_player"), step=step_words(str(view.get("phase"))))


def board_html(board: Board, view: Mapping[str, Any], seat: str | None, learners: Sequence[str]) -> str:
    parts = []
    hand = view.get("hand")
    if hand:
        track = ", ".join(f"{n}&nbsp;×&nbsp;{html.escape(card_label(board, c))}" for c, n in hand["track"].items())
        parts.append(f"<p><b>{html.escape(tr('Your hand'))}:</b> {counts_html(board, hand['shares'])}<br>"
                     f"<b>{html.escape(tr('Your track cards'))}:</b> {track or html.escape(tr('none'))}</p>")
    if view.get("my_first_share"):
        parts.append(f"<p>{html.escape(tr('Your face-down first share'))}: "
                     f"{html.escape(company_name(board, str(view['my_first_share'])))}</p>")
    typed = UPView.from_json(view)  # the lesson's own drawing functions read the typed view
    parts.append(f"<b>{html.escape(tr('The display'))}</b>{display_html(board, typed)}")
    parts.append(players_html(typed, learners, typed.current_player, seat))
    parts.append(companies_html(board, typed, seat))
    for record in view.get("payouts") or []:
        rows = "".join(f"<tr><td class='name'>{html.escape(p)}</td><td>{m}</td></tr>"
                       for p, m in sorted(record.get("amounts", {}).items(), key=lambda kv: -kv[1]))
        head = tr("Payout {n} of {total}", n=record.get("number"), total=view.get("payouts_total"))
        parts.append(f"<div class='railkit-payout'><h4>{html.escape(head)}</h4><table class='railkit-table'>"
                     f"<tr><th class='name'>{tr('player')}</th><th>{tr('receives (millions)')}</th></tr>{rows}"
                     "</table></div>")
    return "".join(parts)


def result_words(view: Mapping[str, Any]) -> str:
    money: Mapping[str, int] = view.get("money") or {}
    if not money:
        return ""
    best = max(money.values())
    winners = [p for p, m in money.items() if m == best]
    return tr("{winners}: {m} million.", winners=", ".join(winners), m=best)


def review(replay: Mapping[str, Any], seat: str) -> str:
    """The finished game replayed from its log (nothing is secret any more), then the usual review."""
    game = UnionPacificGame(list(replay["players"]), seed=int(replay["seed"]), **dict(replay.get("options") or {}))
    for data in replay["actions"]:
        game.apply(UnionPacificGame.registry.from_dict(data))
    return review_html(review_moves(game, seat, limit=5), seat, seat)


def up_table(board: Board) -> TableGame:
    """The table hooks for the lesson's board (the shipped one: a table plays on it)."""
    return TableGame(UnionPacificGame.GAME, UnionPacificGame.PLAYER_RANGE,
                     lambda view, seat, learners: board_html(board, view, seat, learners),
                     lambda action, view: action_words(board, action, view), progress_words, review, result_words)
