"""Union Pacific at a class table (“Play with others”, ``railkit.ui.tables.table_play``): how this game's seat
view, moves, help and review are shown. Everything comes from what the table server sends: the seat's view
(its own hand and face-down first share, everyone's public table), typed as a ``UPView``, the moves the engine
allows the seat, and at the end the whole game to replay for the review. The search player's move when the
learner asks (Hint) is worked out in the kernel from the seat's view (``railkit.ui.game_review``).

“Why” and the checks of a placement are worked out here, from the seat's view and the board alone: the
engine's sentence for a move (``describe_action``) needs only the board and the move, and the six UP-B2
checks (``explain_placement``) only the board and the trains and supply, which every seat sees. The board is
drawn from the same public trains, with the picked build's legal sections marked.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from railkit.messages import N_, addressed_group, naddressed, names_message, nmessage
from railkit.ui.i18n import player_label, render, tr
from railkit.ui.plot import Plot
from railkit.ui.tables.table_game import TableGame
from railkit.ui.unionpacific.board_map import building_map
from railkit.ui.unionpacific.common import card_label, checklist_html, company_name, counts_html, engine_text, section_label
from railkit.ui.unionpacific.play.build import MAP_HEIGHT, MAP_WIDTH
from railkit.ui.unionpacific.play.html import companies_html, display_html, players_html, review_html, step_words, why_html
from railkit.unionpacific import UP, Board
from railkit.unionpacific.actions import Build, ChooseFirstShare, DrawShare, EndTurn, ExchangeForUP, Invest, Pass, UPAction
from railkit.unionpacific.describe import describe_action
from railkit.unionpacific.game import UnionPacificGame
from railkit.unionpacific.placement import PlacementExplanation, explain_placement
from railkit.unionpacific.review import MoveReview
from railkit.unionpacific.views import UPView
from railkit.wire import message_from_json

__all__ = ["up_measures", "up_table"]


@dataclass(frozen=True)
class SeatRules:
    """What ``why_html`` asks of a game, answered from a seat's view and the board (nothing hidden is read)."""

    board: Board
    view: UPView

    def describe(self, action: UPAction) -> Any:
        return describe_action(self.board, action)

    def explain_placement(self, company: str, section: str, card: str) -> PlacementExplanation:
        return explain_placement(self.board, self.view.trains_on, self.view.supply, company, section, card)


def action_words(board: Board, action: UPAction, view: UPView) -> str:
    if isinstance(action, ChooseFirstShare):
        return tr("Lay {company} face down as your first share (UP-S5)", company=company_name(board, action.card))
    if isinstance(action, Build):
        section = board.sections.get(action.section)
        where = section_label(board, section) if section is not None else action.section
        return tr("Build {company}: {section}, with a {card} card (UP-B2)", company=company_name(board, action.company),
                  section=where, card=card_label(board, action.card))
    if isinstance(action, Invest):
        cards = [company_name(board, c) for c in action.cards]
        return tr("Invest {shares} and discard a {card} card (UP-I1)", shares=" + ".join(cards),
                  card=card_label(board, action.discard))
    if isinstance(action, DrawShare):
        if action.source.startswith("display:"):
            display = view.display or ()
            index = int(action.source.split(":", 1)[1])
            key = display[index] if 0 <= index < len(display) else None
            return tr("Draw {company} from the display (UP-B3)", company=company_name(board, key) if key else "?")
        return tr("Draw the top share of the deck (UP-B3)")
    if isinstance(action, ExchangeForUP):
        return tr("Exchange {company} for a Union Pacific share (UP-B4)", company=company_name(board, action.card))
    if isinstance(action, EndTurn):
        return tr("End your turn (UP-B6)")
    return engine_text(describe_action(board, action), view.you)  # a discard (UP-T2) or a pass (UP-T4)


def passes(action: UPAction) -> bool:
    """UP-B6 ending the turn without the exchange, and UP-T4's pass: the turn goes on without a stake taken."""
    return isinstance(action, (EndTurn, Pass))


def progress_words(view: UPView) -> str:
    """UP-S5: how many first shares are chosen, never which (they are turned up together)."""
    if view.phase == "first_share":
        return tr("{chosen} of {total} first shares chosen; they are turned up together (UP-S5).",
                  chosen=len(view.first_share_chosen), total=len(view.players))
    if view.phase == "over" or view.is_over:
        return ""
    if view.current_player is not None and view.current_player == view.you:  # this seat's learner: “you”
        return tr("Now you: {step}", step=step_words(view.phase))
    return tr("Now {player}: {step}", player=view.current_player, step=step_words(view.phase))


def board_html(board: Board, view: UPView, seat: str | None, learners: Sequence[str]) -> str:
    parts = []
    hand = view.hand
    if hand is not None:
        track = ", ".join(f"{n}&nbsp;×&nbsp;{html.escape(card_label(board, c))}" for c, n in hand.track.items())
        parts.append(f"<p><b>{html.escape(tr('Your hand'))}:</b> {counts_html(board, hand.shares)}<br>"
                     f"<b>{html.escape(tr('Your track cards'))}:</b> {track or html.escape(tr('none'))}</p>")
    if view.my_first_share:
        parts.append(f"<p>{html.escape(tr('Your face-down first share'))}: "
                     f"{html.escape(company_name(board, view.my_first_share))}</p>")
    parts.append(f"<div><b>{html.escape(tr('The display'))}</b></div>{display_html(board, view)}")
    parts.append(players_html(view, learners, view.current_player, seat, board=board))
    parts.append(companies_html(board, view, seat))
    for record in view.payouts:
        rows = "".join(f"<tr><td class='name'>{html.escape(player_label(p))}</td><td>{m}</td></tr>"
                       for p, m in sorted(record.amounts.items(), key=lambda kv: -kv[1]))
        head = tr("Payout {n} of {total}", n=record.number, total=view.payouts_total)
        parts.append(f"<div class='railkit-payout'><h4>{html.escape(head)}</h4><table class='railkit-table'>"
                     f"<tr><th class='name'>{tr('player')}</th><th>{tr('receives (millions)')}</th></tr>{rows}"
                     "</table></div>")
    return "".join(parts)


# Who won, said to the seat (railkit.messages.addressed, addressed_group): the imaginary third player (UP-2P2) can
# win too, and its name is shown translated.
naddressed("{player} wins with {m} million.", "You win with {m} million.", "You win with {m} million.")
addressed_group("{players} share the win with {m} million each.", "You and {other} share the win with {m} million each.",
                "You, {others} and {last} share the win with {m} million each.")


def result_words(view: UPView) -> str:
    money = view.money
    if not money:
        return ""
    best = max(money.values())
    winners = [p for p, m in money.items() if m == best]
    if len(winners) == 1:
        said = nmessage("{player} wins with {m} million.", "{player} wins with {m} million.", best,
                        {"player": winners[0], "m": best})
    else:
        said = nmessage("{players} share the win with {m} million each.",
                        "{players} share the win with {m} million each.", best,
                        {"players": names_message(winners), "m": best})
    return render(said, view.you)


def seat_why_html(board: Board, view: UPView, seat: str, legal: Sequence[UPAction],
                  _explain: Mapping[str, Any] | None) -> str:
    """The play lesson's “Why these choices?” for the seat's legal moves (``why_html``), from its view."""
    return why_html(SeatRules(board, view), seat, list(legal), seat)


def move_html(board: Board, view: UPView, action: UPAction) -> str:
    """The picked build's six UP-B2 checks, as the play lesson shows them for a chosen placement."""
    if not isinstance(action, Build):
        return ""
    return checklist_html(SeatRules(board, view).explain_placement(action.company, action.section, action.card))


def board_figure(board: Board, view: UPView, picked: UPAction | None) -> tuple[Any, Callable[[], Plot]]:
    """The whole board with every train (public, UP-B2); a picked build marks its section (purple)."""
    trains = view.trains_on
    section = picked.section if isinstance(picked, Build) else None
    if view.is_over:
        title = tr("The board at the end of the game")
    elif view.turn_number:
        title = tr("The board, turn {n}", n=view.turn_number)
    else:
        title = tr("The board: starting trains (UP-S1)")
    key = (json.dumps(trains, sort_keys=True), section, title)
    return key, lambda: building_map(board, trains, [], section, title=title, height=MAP_HEIGHT, width=MAP_WIDTH)


def review(replay: Mapping[str, Any], seat: str) -> str:
    """The review of the seat's moves the table server sent with the finished game (it holds the whole game; the
    page is sent only what everyone saw and its own review)."""
    found = [MoveReview(int(r.get("move", 0)), int(r.get("turn", 0)), None, None, 0.0,
                        message_from_json(r.get("played", "")), message_from_json(r.get("instead", "")),
                        message_from_json(r.get("reason", "")))
             for r in replay.get("review") or () if isinstance(r, Mapping)]
    return review_html(found, seat, seat)


def up_table(board: Board) -> TableGame:
    """The table hooks for the lesson's board (the shipped one: a table plays on it)."""
    return TableGame(UnionPacificGame.GAME, UnionPacificGame.PLAYER_RANGE, UPView,
                     lambda view, seat, learners: board_html(board, view, seat, learners),
                     lambda action, view: action_words(board, action, view), progress_words, review, result_words,
                     why_html=lambda view, seat, legal, explain: seat_why_html(board, view, seat, legal, explain),
                     move_html=lambda view, action: move_html(board, view, action),
                     offers_hint=True,
                     board_figure=lambda view, picked: board_figure(board, view, picked),
                     engine=UnionPacificGame, measures=up_measures, passes=passes)


def up_measures(view: UPView) -> dict[str, dict[str, float]]:
    """What the review's chart follows per player after each move, from the public view: money (UP-D; everyone's
    when money is public, UP-D13, and at the end) and the worth of the shares on the table: each company share counts
    its company's value then (UP-D2: trains on the board + 1). Union Pacific shares are left out: the Union Pacific
    pays by position from its own table (UP-D9), not by value."""
    values = view.company_values
    return {N_("Money"): {p: view.money.get(p, 0) for p in view.players},
            N_("Shares' worth on the table"): {p: sum(n * values.get(k, 0) for k, n in view.tables.get(p, {}).items()
                                                      if k != UP) for p in view.players}}
