"""What becomes of a seat's move on its way to the table server (``MoveSender``): sent, waiting while the server does
not answer, sent again when the server is back or when another seat's move came first.

The server is the authority and refuses a move made from a position that is no longer the game's (``stale``), so
sending a move again is never harmful: at most one copy is stored. That is what lets a page promise “your move is
sent as soon as the server is back” and keep it:

* a move made while the server does not answer waits (``waiting``) and goes with the first state after the server
  is back, if the game is still at the position it was made at and the move is still allowed; otherwise the page
  says it was not sent;
* a move sent just as the server went down (``pending``, the last move sent and its position) may never have
  arrived: when the first state after the server is back is still at that position, it is sent again;
* a move refused as out of date because another seat's move came first (a sealed bid at the same moment) is sent
  again from the new position while it is still allowed, at most ``MAX_RETRIES`` times.

No widgets here: ``railkit.ui.tables.table_play`` says what happened in words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from railkit.ui.class_http import ServerProblem
from railkit.ui.tables.table_link import TableLink

__all__ = ["MAX_RETRIES", "MoveSender"]

MAX_RETRIES = 3  # a move refused as out of date is sent again while it is still allowed
Action = Any  # one of the engine's actions


class MoveSender:
    """One seat's last move on its way (see the module docstring); ``to_json`` writes an action as the server takes
    it."""

    def __init__(self, to_json: Callable[[Action], dict[str, Any]]) -> None:
        self.to_json = to_json
        self.pending: Action | None = None  # the last move sent (sent again if it may not have arrived)
        self.pending_seq: int | None = None  # the log position it was sent from
        self.retries = 0
        self.waiting: tuple[int, Action] | None = None  # a move made while the server did not answer, and its position

    def send(self, link: TableLink, action: Action, seq: int) -> bool:
        """Send ``action`` made at log position ``seq``: True when sent, False when it waits for the server (offline);
        another refusal raises ``ServerProblem``."""
        self.pending, self.pending_seq, self.retries = action, seq, 0
        try:
            link.act(self.to_json(action))
        except ServerProblem as exc:
            if exc.code != "offline":
                raise
            self.waiting = (seq, action)
            return False
        return True

    def arrived(self, state: Mapping[str, Any]) -> None:
        """A state came: with no move left to make, the last one is in (or no longer this seat's to make)."""
        if state.get("seat") is not None and not state.get("legal"):
            self.pending = None

    def back(self, link: TableLink, state: Mapping[str, Any], legal: Sequence[Action]) -> tuple[str, Action | None]:
        """The server is back with ``state`` (``legal``: the seat's moves, typed): the waiting move, or the last one
        sent if it never arrived, goes now when it still can. (``sent``, the move), (``not_sent``, the waiting move
        that cannot go any more) or ("", None) when there was nothing to send."""
        waiting, self.waiting = self.waiting, None
        lost = (self.pending_seq, self.pending) if self.pending is not None and self.pending_seq is not None else None
        candidate = waiting or lost
        if candidate is None:
            return "", None
        seq, action = candidate
        if seq == state.get("seq") and action in legal:
            link.act(self.to_json(action))
            self.pending, self.pending_seq = action, seq
            return "sent", action
        if waiting is not None and _made(state, seq, self.to_json(action)):
            return "", None  # it had arrived before the server went down: the log holds it
        return ("not_sent", action) if waiting is not None else ("", None)

    def retry_stale(self, link: TableLink, legal: Sequence[Action]) -> bool:
        """Another seat's move came first: send the last move again from the new position while it is still
        allowed (True when sent)."""
        pending = self.pending
        if pending is None or self.retries >= MAX_RETRIES or pending not in legal:
            return False
        self.retries += 1
        try:
            link.act(self.to_json(pending))
        except ServerProblem:
            return False
        self.pending_seq = int(link.state["seq"]) if link.state is not None else None
        return True


def _made(state: Mapping[str, Any], seq: int, action: dict[str, Any]) -> bool:
    """Does the log hold ``action`` at position ``seq`` (the seat reads its own moves whole)?"""
    log = state.get("log") or []
    if not 0 <= seq < len(log):
        return False
    entry = log[seq]
    return isinstance(entry, dict) and all(entry.get(k) == v for k, v in action.items() if k != "player") \
        and entry.get("player") == state.get("seat")
