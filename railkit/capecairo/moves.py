"""Which Vom Kap bis Kairo moves are legal now (for bots, hints and the lessons' buttons); nothing here
changes the game."""

from __future__ import annotations

from railkit.capecairo.actions import Bid, Build, Choose, KKAction, Pass
from railkit.capecairo.checks import build_numbers, current_player
from railkit.capecairo.state import KKState, KKTable

__all__ = ["legal_actions"]


def legal_actions(table: KKTable, state: KKState, player: str | None = None) -> list[KKAction]:
    if state.phase == "over":
        return []
    if player is None:
        player = current_player(table, state)
    if player is None or player not in state.money:
        return []
    if state.phase == "bid":
        if player in state.bids:
            return []
        return [Bid(player, amount) for amount in range(state.money[player] + 1)]
    if state.phase == "choose":
        return [Choose(player, c) for c in state.offer] if player == state.choosers[0] else []
    if player != state.turn:
        return []
    actions: list[KKAction] = [Pass(player)]
    actions.extend(Build(player, buy) for buy in build_numbers(table, state, player).buy_options())
    return actions
