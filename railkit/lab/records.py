"""What a ladder is (``LadderSpec``), who sits where in each of its games (``lineup``) and what a game played
leaves behind (``GameRecord``).

Seats rotate: the ladder's games come in blocks of one deal (one seed) played once per seat rotation, so every
player meets the same cards from every seat (the first seat's advantage can be larger than the gap between
two players). With more players named than seats, each block seats the next ``players`` of them in turn; with
fewer, the names repeat (``ismcts:200,heuristic,heuristic,heuristic`` seats one search player against three
heuristic ones, each copy its own player, rated under its name).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from railkit.lab.players import check_name

__all__ = ["GameRecord", "LadderSpec", "MAX_GAMES", "lineup", "seat_names"]

MAX_GAMES = 1_000_000
MAX_BOTS = 32


@dataclass(frozen=True)
class LadderSpec:
    """A ladder: ``games`` games of ``game`` ("kk" or "up") for ``players`` seats among ``bots`` (names as
    ``railkit.lab.players`` reads them), the deals drawn from ``seed``."""

    game: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0

    def __post_init__(self) -> None:
        from railkit.lab.rules import GAMES

        if self.game not in GAMES:
            raise ValueError(f"the game is one of {', '.join(GAMES)}, not {self.game!r}")
        low, high = GAMES[self.game].cls.PLAYER_RANGE
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not low <= self.players <= high:
            raise ValueError(f"{GAMES[self.game].cls.TITLE} takes {low} to {high} players, not {self.players!r}")
        if not 1 <= len(self.bots) <= MAX_BOTS:
            raise ValueError(f"name 1 to {MAX_BOTS} players, not {len(self.bots)}")
        object.__setattr__(self, "bots", tuple(check_name(b) for b in self.bots))
        if isinstance(self.games, bool) or not isinstance(self.games, int) or not 1 <= self.games <= MAX_GAMES:
            raise ValueError(f"games must be a whole number from 1 to {MAX_GAMES}, not {self.games!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < 2**31:
            raise ValueError(f"the seed must be a whole number from 0 to 2**31 - 1, not {self.seed!r}")

    def key(self) -> str:
        """The run's name in a results file: the same spec, the same run (a longer one resumes a shorter)."""
        text = json.dumps([self.game, self.players, list(self.bots), self.seed])
        return f"{self.game}-{self.players}p-{hashlib.sha256(text.encode()).hexdigest()[:12]}"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LadderSpec:
        return cls(data["game"], data["players"], tuple(data["bots"]), data["games"], data.get("seed", 0))


def lineup(spec: LadderSpec, index: int) -> tuple[tuple[str, ...], int]:
    """Game ``index`` of ``spec``: the player in each seat, and the deal's seed (see the module docstring)."""
    n = spec.players
    block, turn = divmod(index, n)
    bots = spec.bots
    if len(bots) > n:
        chosen = [bots[(block * n + i) % len(bots)] for i in range(n)]
    else:
        chosen = [bots[i % len(bots)] for i in range(n)]
    seats = tuple(chosen[(i - turn) % n] for i in range(n))
    return seats, spec.seed * 1_000_003 + block


def seat_names(seats: Sequence[str]) -> list[str]:
    """The names the players have in the game: seat number and player, short enough for the engines."""
    return [f"{i + 1} {name}"[:30] for i, name in enumerate(seats)]


@dataclass(frozen=True)
class GameRecord:
    """One ladder game as played: who sat where, how it ended, how long each seat thought, and its moves."""

    index: int
    seed: int
    seats: tuple[str, ...]  # the player (by ladder name) in each seat
    places: tuple[int, ...]  # per seat: 1 = first (equal players share the better place)
    scores: tuple[int, ...]  # per seat: KK terrains crossed, UP money
    money: tuple[int, ...]
    winners: tuple[int, ...]  # the winning seats
    moves: int
    seconds: tuple[float, ...]  # per seat: the time spent choosing moves
    decisions: tuple[int, ...]  # per seat: the moves chosen
    end_reason: str | None
    log: list[dict[str, Any]] = field(default_factory=list, compare=False)  # the game's actions, as a save has them

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        return cls(index=data["index"], seed=data["seed"], seats=tuple(data["seats"]), places=tuple(data["places"]),
                   scores=tuple(data["scores"]), money=tuple(data["money"]), winners=tuple(data["winners"]),
                   moves=data["moves"], seconds=tuple(data["seconds"]), decisions=tuple(data["decisions"]),
                   end_reason=data.get("end_reason"), log=list(data.get("log", [])))

    def score_shares(self) -> list[float]:
        """Each seat's share of all the seats' scores (an even share when nobody scored)."""
        total = sum(self.scores)
        n = len(self.scores)
        return [s / total if total else 1 / n for s in self.scores]
