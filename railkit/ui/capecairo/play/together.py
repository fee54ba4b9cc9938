"""Vom Kap bis Kairo at a class table (“Play with others”, ``railkit.ui.table_play``): how this game's seat
view, moves and review are shown. Everything comes from the JSON the table server sends: the seat's view
(its own bid, everyone's race and money), the moves the engine allows the seat, and at the end the
whole game to replay for the review.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from railkit.capecairo import CapeToCairoGame
from railkit.capecairo.game import TRACK_PRICE  # KK-B2 (4): the engine's price of one track piece
from railkit.capecairo.views import KKView
from railkit.ui.capecairo.common import card_title, cards_html, pieces_count, players_table_html, pounds, race_html
from railkit.ui.capecairo.play.hints import review_html
from railkit.ui.i18n import tr
from railkit.ui.table_play import TableGame

__all__ = ["KK_TABLE"]


def _card(view: Mapping[str, Any], card_id: str) -> Mapping[str, Any]:
    for card in list(view.get("offer") or []) + list(view.get("flipped") or []):
        if card.get("id") == card_id:
            return card  # type: ignore[no-any-return]
    return {"id": card_id, "terrain": "", "tracks": 0, "coin": 0}


def action_words(action: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    kind = action.get("type")
    if kind == "bid":
        return tr("Bid {bid}", bid=pounds(int(action.get("amount", 0))))
    if kind == "choose":
        return tr("Take {card}", card=card_title(_card(view, str(action.get("card_id")))))
    if kind == "build":
        n = int(action.get("buy") or 0)
        return tr("Build, buying {pieces} for {cost}", pieces=pieces_count(n), cost=pounds(n * TRACK_PRICE))
    return tr("Pass")


def progress_words(view: Mapping[str, Any]) -> str:
    """KK-A2: how many sealed bids are in, never how much (until all are in and they are opened)."""
    if view.get("phase") != "bid":
        return ""
    handed, total = len(view.get("bids_handed_in") or []), len(view.get("players") or [])
    return tr("Auction {n}: {handed} of {total} bids in. The amounts stay sealed until every bid is in (KK-A2).",
              n=view.get("auction"), handed=handed, total=total)


def board_html(view: Mapping[str, Any], seat: str | None, _learners: Sequence[str] = ()) -> str:
    parts = []
    if view.get("your_bid") is not None:
        parts.append(f"<p><b>{html.escape(tr('Your sealed bid: {bid}', bid=pounds(int(view['your_bid']))))}</b></p>")
    phase = view.get("phase")
    if phase in ("bid", "choose") and view.get("offer"):
        parts.append(f"<b>{html.escape(tr('On sale in this auction (KK-A1)'))}</b>" + cards_html(view["offer"]))
    if phase == "build" and view.get("flipped"):
        parts.append(f"<b>{html.escape(tr('Turned up this building round (KK-B1, KK-B3)'))}</b>"
                     + cards_html(view["flipped"]))
    typed = KKView.from_json(view)  # the lesson's own drawing functions read the typed view
    parts.append(race_html(typed))
    parts.append(players_table_html(typed))
    return "".join(parts)


def result_words(view: Mapping[str, Any]) -> str:
    winners = list(view.get("winners") or [])
    if len(winners) == 1:
        return tr("{who} wins!", who=winners[0])
    return tr("{who} share the win.", who=", ".join(winners))


def review(replay: Mapping[str, Any], seat: str) -> str:
    """The finished game replayed from its log (nothing is secret any more), then the usual review."""
    game = CapeToCairoGame(list(replay["players"]), seed=int(replay["seed"]), **dict(replay.get("options") or {}))
    for data in replay["actions"]:
        game.apply(CapeToCairoGame.registry.from_dict(data))
    return f"<div class='railkit-hint kk-log'>{review_html(game, seat)}</div>"


KK_TABLE = TableGame(CapeToCairoGame.GAME, CapeToCairoGame.PLAYER_RANGE, board_html, action_words, progress_words,
                     review, result_words)
