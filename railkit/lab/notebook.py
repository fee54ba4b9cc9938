"""A small ladder for a notebook: a learner's own player against the lab's, played in this process.

    from railkit.lab.notebook import play_ladder
    run = play_ladder("kk", one_under_the_coin, ["random", "heuristic", "ismcts:8"], games=16)
    run.table                 # the ratings (``railkit.lab.ratings.Rating``), best first, with 95 % intervals
    run.seat_shares()         # each player's average share of the score from each seat
    run.replay_data(index)    # a game of the ladder as the lessons' replay reads it

The learner's player (a function ``choose(view, legal)``, an object with ``choose`` or a class making one) is named
``mine:<its name>`` and registered in this process (``railkit.lab.players.register``), so the ladder asks it exactly
as it asks the built-in players: with its seat's view and legal moves only. Nothing is written to a file (a
notebook's run starts afresh each time its cell runs; the command line's ``railkit.lab.ladder.run_ladder`` keeps
and resumes runs); the seats rotate as in every ladder (``railkit.lab.records.lineup``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from railkit.lab.ladder import play_game_record
from railkit.lab.players import register
from railkit.lab.ratings import Rating, rate
from railkit.lab.records import GameRecord, LadderSpec, seat_names
from railkit.lab.rules import GAMES

__all__ = ["LadderRun", "MAX_NOTEBOOK_GAMES", "learner_name", "play_ladder"]

MAX_NOTEBOOK_GAMES = 20_000  # a notebook's ladder runs in its kernel: bigger runs belong to `python -m railkit.lab`
PREFIX = "mine:"


def learner_name(player: Any, name: str | None = None) -> str:
    """The ladder's name for a learner's ``player``: ``mine:`` and ``name`` or the function's (class's) name."""
    base = name if name is not None else getattr(player, "__name__", None) or type(player).__name__
    base = re.sub(r"\W", "_", str(base))[:24] or "player"
    if not re.match(r"[A-Za-z_]", base):
        base = "p" + base
    return PREFIX + base


@dataclass(frozen=True)
class LadderRun:
    """A ladder played in a notebook: its spec, its games in order, the ratings, and the learner's player's name."""

    spec: LadderSpec
    records: tuple[GameRecord, ...]
    table: tuple[Rating, ...]
    yours: str

    def seat_shares(self) -> dict[str, list[float | None]]:
        """Per player, its average share of the score from seat 1, 2, ... (None: it never sat there)."""
        n = self.spec.players
        sums: dict[str, list[float]] = {}
        counts: dict[str, list[int]] = {}
        for record in self.records:
            for seat, (name, share) in enumerate(zip(record.seats, record.score_shares(), strict=True)):
                sums.setdefault(name, [0.0] * n)[seat] += share
                counts.setdefault(name, [0] * n)[seat] += 1
        order = [r.name for r in self.table] + [name for name in sums if name not in {r.name for r in self.table}]
        return {name: [s / c if c else None for s, c in zip(sums[name], counts[name], strict=True)]
                for name in order if name in sums}

    def best_game(self, name: str | None = None) -> int:
        """The index of a game ``name`` (the learner's player by default) did best in: its best place, then its
        largest share of the score; the first game when it played none."""
        name = name or self.yours
        best, key = 0, None
        for i, record in enumerate(self.records):
            for seat, seated in enumerate(record.seats):
                if seated == name:
                    mine = (-record.places[seat], record.score_shares()[seat])
                    if key is None or mine > key:
                        best, key = i, mine
        return best

    def replay_data(self, index: int) -> dict[str, Any]:
        """Game ``index`` of the run as a replay reads it: players, seed, options, actions (as a save has them)."""
        record = self.records[index]
        return {"players": seat_names(record.seats), "seed": record.seed, "options": dict(GAMES[self.spec.game].options),
                "actions": list(record.log)}

    def engine(self) -> type[Any]:
        """The engine's game class (what ``replay_data`` replays with)."""
        return GAMES[self.spec.game].cls


def play_ladder(game: str, player: Any, against: Sequence[str], *, games: int, players: int = 4, seed: int = 0,
                name: str | None = None, progress: Callable[[int], Any] | None = None) -> LadderRun:
    """``games`` seat-rotated games of ``game`` ("kk" or "up") between the learner's ``player`` and the players
    named in ``against`` (``random``, ``heuristic``, ``ismcts:N``, ...), rated. ``progress(total)`` makes the
    progress bar (anything with ``update(n)`` and ``close()``, such as tqdm's); ``ValueError`` in words on a
    name, game or number of games the ladder does not take."""
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_NOTEBOOK_GAMES:
        raise ValueError(f"games must be a whole number from 1 to {MAX_NOTEBOOK_GAMES}, not {games!r}")
    yours = register(learner_name(player, name), player)
    spec = LadderSpec(game, players, (yours, *against), games=games, seed=seed)
    bar = progress(games) if progress is not None else None
    records = []
    try:
        for index in range(games):
            records.append(play_game_record(spec, index))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return LadderRun(spec, tuple(records), tuple(rate(records, spec.bots)), yours)
