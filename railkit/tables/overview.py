"""The live tables as the teacher's page shows them (``railkit.classroom.teacher`` asks through
``TableServer.report`` and ``TableServer.seated_learners``): public facts only, no seat's hand, no token."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from railkit.tables.names import name_key
from railkit.tables.table import Table

__all__ = ["MAX_TIMELINE", "seated_learners", "table_report"]

MAX_TIMELINE = 60  # the moves' times sent per table for the timeline chart (evenly picked)


def seated_learners(tables: Iterable[Table], learner: str | None = None) -> dict[str, list[str]]:
    """Every seat a learner has held at one of ``tables`` (seat name -> table codes), or only ``learner``'s (the
    teacher's learner filter)."""
    out: dict[str, list[str]] = defaultdict(list)
    for table in tables:
        for seat in table.learners():
            if learner is None or name_key(seat) == name_key(learner):
                out[seat].append(table.code)
    return dict(out)


def table_report(tables: Iterable[Table], stalled_after: float, last: dict[int, datetime],
                 times: dict[int, list[tuple[int, datetime]]], now: datetime | None = None) -> list[dict[str, Any]]:
    """Each of ``tables``: game, seats and holders, whose turn and for how long, moves, stalled or not, the moves'
    timeline. ``last`` and ``times`` are the store's ``activity`` and ``move_times`` (read off the event loop)."""
    now = now or datetime.now(UTC)
    out: list[dict[str, Any]] = []
    for table in tables:
        game = table.game
        since = last.get(table.id)
        waiting = max(0.0, (now - since).total_seconds()) if since else 0.0
        to_move = [] if game.is_over else list(game.players_to_act())
        away, stand_ins = set(table.away()), table.stand_in_by()
        out.append({"table": table.code, "game": table.kind.name, "moves": table.seq, "is_over": game.is_over,
                    "chosen_deal": table.chosen_deal,
                    "seats": [{"seat": name, "holder": seat.holder, "away": name in away,
                               "stand_in": name in stand_ins} for name, seat in table.seats.items()],
                    "to_move": to_move, "waiting_seconds": round(waiting),
                    "last_change": since.isoformat(timespec="seconds") if since else None,
                    "stalled": not game.is_over and waiting >= stalled_after,
                    "timeline": _timeline(times.get(table.id, []))})
    out.sort(key=lambda t: (not t["stalled"], t["is_over"], -t["waiting_seconds"], t["table"]))
    return out


def _timeline(times: list[tuple[int, datetime]]) -> list[list[Any]]:
    """[[moves so far, when]] from the table's creation (0 moves) over at most ``MAX_TIMELINE`` points (the first
    and last kept)."""
    if len(times) > MAX_TIMELINE:
        step = (len(times) - 1) / (MAX_TIMELINE - 1)
        times = [times[round(i * step)] for i in range(MAX_TIMELINE)]
    return [[seq + 1, at.isoformat(timespec="seconds")] for seq, at in times]
