"""Vom Kap bis Kairo at a class table (“Play with others”, ``railkit.ui.tables.table_play``): how this game's seat
view, moves and review are shown. Everything comes from what the table server sends: the seat's view (its own
bid, everyone's race and money), typed as a ``KKView``, the moves the engine allows the seat, the engine's count
of the seat's next crossing (for “Why”), and at the end the whole game to replay for the review.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from railkit.capecairo import CapeToCairoGame
from railkit.capecairo.actions import Bid, Build, Choose, KKAction, Pass
from railkit.capecairo.deck import CardDict
from railkit.capecairo.game import TRACK_PRICE  # KK-B2 (4): the engine's price of one track piece
from railkit.capecairo.views import KKView
from railkit.messages import N_, Message, addressed, addressed_group, names_message
from railkit.ui.capecairo.common import card_title, cards_html, pieces_count, players_table_html, pounds, race_html
from railkit.ui.capecairo.play.hints import BuildCount, seat_hint_html, weak_moves_html
from railkit.ui.i18n import render, tr
from railkit.ui.tables.table_game import TableGame, message_from_json

__all__ = ["KK_TABLE", "kk_measures"]


def _card(view: KKView, card_id: str) -> CardDict | Mapping[str, Any]:
    for card in (*view.offer, *view.flipped):
        if card.get("id") == card_id:
            return card
    return {"id": card_id, "terrain": "", "tracks": 0, "coin": 0}


def action_words(action: KKAction, view: KKView) -> str:
    if isinstance(action, Bid):
        return tr("Bid {bid}", bid=pounds(action.amount))
    if isinstance(action, Choose):
        return tr("Take {card}", card=card_title(_card(view, action.card_id)))
    if isinstance(action, Build):
        n = action.buy or 0
        return tr("Build, buying {pieces} for {cost}", pieces=pieces_count(n), cost=pounds(n * TRACK_PRICE))
    return tr("Pass")


def passes(action: KKAction) -> bool:
    """KK-B3: passing hands the building turn to the left without building."""
    return isinstance(action, Pass)


def bid_amount(action: KKAction) -> int | None:
    """A sealed bid's amount (KK-A2): the table shows a bid box for a seat whose moves are all bids."""
    return action.amount if isinstance(action, Bid) else None


def progress_words(view: KKView) -> str:
    """KK-A2: how many sealed bids are in, never how much (until all are in and they are opened)."""
    if view.phase != "bid":
        return ""
    return tr("Auction {n}: {handed} of {total} bids in. The amounts stay sealed until every bid is in (KK-A2).",
              n=view.auction, handed=len(view.bids_handed_in), total=len(view.players))


def board_html(view: KKView, seat: str | None, _learners: Sequence[str] = ()) -> str:
    parts = []
    if view.your_bid is not None:
        parts.append(f"<p><b>{html.escape(tr('Your sealed bid: {bid}', bid=pounds(view.your_bid)))}</b></p>")
    if view.phase in ("bid", "choose") and view.offer:
        parts.append(f"<b>{html.escape(tr('On sale in this auction (KK-A1)'))}</b>" + cards_html(view.offer))
    if view.phase == "build" and view.flipped:
        parts.append(f"<b>{html.escape(tr('Turned up this building round (KK-B1, KK-B3)'))}</b>"
                     + cards_html(view.flipped))
    parts.append(race_html(view))
    parts.append(players_table_html(view))
    return "".join(parts)


# Who won, said to the seat (railkit.messages.addressed, addressed_group).
addressed("{who} wins!", "You win!", subject="who")
addressed_group("{who} share the win.", "You and {other} share the win.", "You, {others} and {last} share the win.",
                subject="who")


def result_words(view: KKView) -> str:
    winners = list(view.winners)
    if len(winners) == 1:
        return render(Message(N_("{who} wins!"), {"who": winners[0]}), view.you)
    return render(Message(N_("{who} share the win."), {"who": names_message(winners)}), view.you)


def why_html(view: KKView, seat: str, legal: Sequence[KKAction], explain: Mapping[str, Any] | None) -> str:
    """The play lesson's “Why? (hint)” for the seat's choices: bids and cards from the view; the build count
    is the server's (``railkit.tables.games``), shown once it is in."""
    count = None
    found = (explain or {}).get("build")
    if found:
        count = BuildCount([message_from_json(s) for s in found.get("sentences", [])], int(found["min_buy"]),
                           int(found["cost"]), None if found.get("coin") is None else int(found["coin"]))
    if view.phase == "build" and count is None:
        return ""
    body = seat_hint_html(view, seat, list(legal), count)
    if not body:
        return ""
    return (f"<details class='railkit-why'><summary>{html.escape(tr('Why? (hint)'))}</summary>"
            f"<div class='railkit-hint kk-log'>{body}</div></details>")


def review(replay: Mapping[str, Any], seat: str) -> str:
    """The review of the seat's moves the table server sent with the finished game (it holds the whole game; the
    page is sent only what everyone saw and its own review)."""
    weak = [message_from_json(line.get("words")) for line in replay.get("review") or () if isinstance(line, Mapping)]
    return f"<div class='railkit-hint kk-log'>{weak_moves_html(weak)}</div>"


def kk_measures(view: KKView) -> dict[str, dict[str, float]]:
    """What the review's chart follows per player after each move, from the public view: money (KK-C5) and
    terrains crossed (KK-E1)."""
    return {N_("Money"): {p: view.money.get(p, 0) for p in view.players},
            N_("Terrains crossed"): {p: view.crossed.get(p, 0) for p in view.players}}


KK_TABLE = TableGame(CapeToCairoGame.GAME, CapeToCairoGame.PLAYER_RANGE, KKView, board_html, action_words,
                     progress_words, review, result_words, why_html=why_html,
                     explains_on_server=lambda view: view.phase == "build", engine=CapeToCairoGame,
                     measures=kk_measures, bid_amount=bid_amount, passes=passes, offers_hint=True)
