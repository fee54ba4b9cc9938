"""Puzzles from real positions: decisions of seat-rotated lab games where one move is clearly the best.

    python -m railkit.lab puzzles --game kk --count 36 --out railkit/data/cape_to_cairo/puzzles.json
    python -m railkit.lab puzzles --game up --count 36 --out railkit/data/union_pacific/puzzles.json

**Where they come from.** The games are the ladder's (``railkit.lab.records.lineup``: one deal per block, played
once per seat rotation) between the heuristic player and a search player (``MINERS``). At the decisions a learner
makes in the play lessons (``QUESTIONS``: Kap bis Kairo's sealed bid, KK-A2; Union Pacific's share to draw, UP-B3,
and where to build, UP-B1/B2) the seat's view and legal moves go to ``railkit.lab.analysis.analyse``, the hint's
search: it ranks the seat's moves from what the seat may know. “Where to build?” compares the builds only (the seat
builds this turn, UP-T3: investing is another question).

**When one move is clearly the best.** The search's best move and up to ``CHECKED - 1`` next best ones it played
out often enough are played out again, flat, on ``CHECK_PLAYOUTS`` common deals of a new seed
(``ISMCTS.evaluate_moves``: each deal copied once per move, so two moves differ by what they do, not by the cards
that came up). The second look must agree on the best move, and a move is shown beside it only if the best beats it

* by at least ``REWARD_GAP`` (0.12) in the search's reward per game (0.8 for a win, 0.2 spread over the places:
  about one game in seven more won, or the same wins and more than half a place better on average), and
* by more than ``CONFIDENCE`` (2) standard errors of the paired differences on the common deals (the luck of a
  few deals is not a lesson: a gap of 2 standard errors arises by chance alone about once in 40).

The second look is only paid for when the first already shows the best ahead of ``MIN_OTHERS`` moves by half the
gap (most positions are not puzzles, and the second look costs most). A move about as good as the best is left
out (it would make a good answer wrong); a position is kept when at least ``MIN_OTHERS`` (1) clearly worse move
remains, so a puzzle offers 2 to 4 choices. (Asking for two clearly worse moves found a puzzle in about one
position of thirty in Kap bis Kairo and fewer than one in fifty in Union Pacific: too few to mine on this
machine.) Bids shown are at least ``MIN_BID_STEP`` apart. Union Pacific's playouts stop at the next payout and
estimate the rest (``railkit.lab.rules``), as the hint's search does.

**A puzzle is data** (``Puzzle``): the deal (players, seed, options), the game's action log up to the position (it
replays through the engine: the log is the game), the seat, the choices as action dicts, the best one, each
choice's evaluation (mean finishing place, share of wins, money at the end, playouts) and the rule IDs behind the
question. ``load_puzzles``/``replay`` read it back; a test replays every stored puzzle and finds its moves legal.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from railkit.bots import decide
from railkit.capecairo.actions import Bid
from railkit.game import BaseView, Game
from railkit.lab.analysis import analyse
from railkit.lab.players import make_player
from railkit.lab.records import LadderSpec, lineup
from railkit.lab.rules import GAMES
from railkit.lab.search import ISMCTS, Evaluation
from railkit.paths import data_dir
from railkit.unionpacific.actions import Build, DrawShare

__all__ = ["CHOICES", "GAME_QUESTIONS", "MINERS", "PUZZLE_NAMES", "Puzzle", "load_puzzles", "mine", "question_of", "replay",
           "save_puzzles", "shipped", "shipped_path"]

PUZZLE_NAMES = ("Ann", "Ben", "Cleo", "Dev")  # the seats' names in the puzzles' games
PLAYERS = {"kk": 3, "up": 4}  # the play lessons' own default tables
# The ladder's players for the mined games: the heuristic at every seat but one, a search player rotating through.
MINERS = {"kk": ("ismcts:60", "heuristic", "heuristic"), "up": ("heuristic",)}
CHOICES = 4  # the most moves a puzzle offers
MIN_OTHERS = 1  # and the fewest besides the best (so a puzzle has 2 to 4 choices)
CHECKED = 6  # the search's best moves looked at again
REWARD_GAP = 0.12
CONFIDENCE = 2.0
CHECK_PLAYOUTS = {"kk": 60, "up": 24}
MIN_BID_STEP = 2  # two bids shown differ by this much at least (KK-A2)
MAX_PUZZLES = 500
DATA_FOLDERS = {"kk": "cape_to_cairo", "up": "union_pacific"}
# The rule IDs each question is about (the answer names them): KK-A2 sealed bids from 0 to one's money, KK-A3 paid
# win or lose, KK-A4 the highest chooses first, KK-A6 each takes one card; UP-B3 a share after building, UP-D2/D3
# what shares earn at a payout; UP-B1/B2 where a train may go, UP-D2 each train raises its company's value.
QUESTIONS = {"bid": ("KK-A2", "KK-A3", "KK-A4", "KK-A6"), "share": ("UP-B3", "UP-D2", "UP-D3"),
             "build": ("UP-B1", "UP-B2", "UP-D2")}
GAME_QUESTIONS = {"kk": ("bid",), "up": ("share", "build")}  # the questions each game's puzzles ask


def question_of(view: BaseView, legal: Sequence[Any]) -> str | None:
    """The puzzle question this decision could be ("bid", "share", "build"), or None."""
    if len(legal) < 2:
        return None
    if all(isinstance(a, Bid) for a in legal):
        return "bid"
    if all(isinstance(a, DrawShare) for a in legal):
        return "share" if len({a.source for a in legal}) >= 2 else None
    builds = [a for a in legal if isinstance(a, Build)]
    return "build" if len({(a.company, a.section) for a in builds}) >= 3 else None


@dataclass
class Puzzle:
    """One position and its answer (see the module docstring)."""

    id: str
    game: str  # "kk" or "up"
    question: str  # "bid", "share" or "build"
    players: list[str]
    seed: int
    options: dict[str, Any]
    log: list[dict[str, Any]]  # the game's moves up to the position
    seat: str  # who is to decide
    choices: list[dict[str, Any]]  # the moves offered, as action dicts, in a fixed order (not best first)
    best: int  # the best choice's index in ``choices``
    evaluations: list[dict[str, float]]  # per choice: place, wins, money, reward, playouts
    rules: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


def replay(puzzle: Puzzle) -> Game[Any]:
    """The puzzle's game at its position: a fresh deal, then its log through the engine (each move checked)."""
    rules = GAMES[puzzle.game]
    game = rules.cls(list(puzzle.players), seed=puzzle.seed, **dict(puzzle.options))
    for raw in puzzle.log:
        game.apply(game.registry.from_dict(raw))
    return game


def load_puzzles(path: str | Path) -> list[Puzzle]:
    """The puzzles of a file written by ``save_puzzles`` (at most ``MAX_PUZZLES``)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("puzzles"), list):
        raise ValueError(f"{path}: not a puzzles file (an object with a list 'puzzles')")
    return [Puzzle.from_json(p) for p in data["puzzles"][:MAX_PUZZLES]]


def save_puzzles(puzzles: Sequence[Puzzle], path: str | Path, about: dict[str, Any]) -> None:
    Path(path).write_text(json.dumps({"about": about, "puzzles": [p.to_json() for p in puzzles]}, indent=None,
                                     separators=(",", ":")) + "\n", encoding="utf-8")


def _shown(question: str, ranked: Sequence[Evaluation]) -> list[Evaluation]:
    """The search's best move and its next best ones, played out often enough to compare (at most ``CHECKED``)."""
    best = ranked[0]
    enough = max(2, best.visits // 4)
    shown = [best]
    for e in ranked[1:]:
        if len(shown) == CHECKED:
            break
        if e.visits < enough:
            continue
        if question == "bid" and any(abs(e.action.amount - s.action.amount) < MIN_BID_STEP for s in shown):
            continue
        shown.append(e)
    return shown


def _clearly_worse(top: Evaluation, other: Evaluation) -> bool:
    """``other`` trails ``top`` by ``REWARD_GAP`` and by ``CONFIDENCE`` standard errors on the common deals."""
    return top.reward - other.reward >= REWARD_GAP and top.beats(other, CONFIDENCE)


def _order(question: str, actions: list[Any], rng: random.Random) -> list[Any]:
    """The order the choices are shown in: bids from low to high, others shuffled (the best is not always first)."""
    if question == "bid":
        return sorted(actions, key=lambda a: a.amount)
    rng.shuffle(actions)
    return actions


def _check(view: BaseView, legal: Sequence[Any], question: str, seed: int, analyse_with: str | None,
           check_playouts: int) -> tuple[list[Any], int, list[Evaluation]] | None:
    """The position's choices, the best one's index and their evaluations, when one is clearly the best."""
    if question == "build":  # “Where to build?”: the seat builds this turn (UP-T3), the question is where
        legal = [a for a in legal if isinstance(a, Build)]
    ranked = analyse(view, legal, seed=seed, player=analyse_with)
    shown = _shown(question, ranked)
    # the first look must already show the gap (half of it: the search's means are noisy) before the second is paid
    if sum(1 for e in shown[1:] if shown[0].reward - e.reward >= REWARD_GAP / 2) < MIN_OTHERS:
        return None
    again = ISMCTS(check_playouts, seed + 7919).evaluate_moves(view, [e.action for e in shown], check_playouts)
    top = max(again, key=lambda e: e.reward)
    if top.action != shown[0].action:  # the second look must agree with the first
        return None
    worse = [e for e in again if e is not top and _clearly_worse(top, e)][: CHOICES - 1]
    if len(worse) < MIN_OTHERS:
        return None
    order = _order(question, [top.action, *(e.action for e in worse)], random.Random(seed))
    by_action = {e.action: e for e in again}
    return order, order.index(top.action), [by_action[a] for a in order]


def _decisions(game_name: str, index: int, spec: LadderSpec) -> Iterator[tuple[Game[Any], str, int]]:
    """Game ``index`` of ``spec`` played by its seats' players; yields (game, seat to act, seed) before each move."""
    rules = GAMES[game_name]
    seats, seed = lineup(spec, index)
    names = list(PUZZLE_NAMES[: spec.players])
    game = rules.new(names, seed)
    players = [make_player(name, seed=seed * 31 + index * 7 + i) for i, name in enumerate(seats)]
    while not game.is_over:
        seat = game.players_to_act()[0]
        yield game, seat, seed
        game.apply(decide(players[names.index(seat)], game, seat))


def mine(game_name: str, count: int, *, seed: int = 0, every: int = 3, analyse_with: str | None = None,
         check_playouts: int | None = None, max_games: int = 400, bots: Sequence[str] | None = None,
         questions: Sequence[str] | None = None,
         progress: Callable[[int, int], None] | None = None,
         on_found: Callable[[list[Puzzle]], None] | None = None) -> list[Puzzle]:
    """``count`` puzzles of ``game_name`` ("kk", "up") from the games of the ladder ``MINERS`` (or ``bots``):
    every ``every``-th decision of a puzzle kind is analysed (so the puzzles spread over many games and moments), at
    most one puzzle per question and seat of a game. ``on_found`` is told the puzzles so far after each one (the
    command line writes its file then, so a long run stopped keeps what it found)."""
    if game_name not in GAMES:
        raise ValueError(f"the game is one of {', '.join(GAMES)}, not {game_name!r}")
    if not 1 <= count <= MAX_PUZZLES:
        raise ValueError(f"count must be from 1 to {MAX_PUZZLES}, not {count}")
    playouts = check_playouts or CHECK_PLAYOUTS[game_name]
    spec = LadderSpec(game_name, PLAYERS[game_name], tuple(bots or MINERS[game_name]), max_games, seed)
    found: list[Puzzle] = []
    for index in range(max_games):
        taken: set[tuple[str, str]] = set()
        seen = 0
        for game, seat, game_seed in _decisions(game_name, index, spec):
            view, legal = game.view(seat), game.legal_actions(seat)
            question = question_of(view, legal)
            if question is None or (question, seat) in taken or (questions and question not in questions):
                continue
            seen += 1
            if seen % every:
                continue
            checked = _check(view, legal, question, game_seed * 1009 + len(game.log), analyse_with, playouts)
            if progress is not None:
                progress(len(found), index)
            if checked is None:
                continue
            order, best, evaluations = checked
            taken.add((question, seat))
            registry = game.registry
            found.append(Puzzle(
                id=f"{game_name}-{len(found) + 1:03d}", game=game_name, question=question, players=list(game.players),
                seed=game_seed, options={}, log=[registry.to_dict(a) for a in game.log], seat=seat,
                choices=[registry.to_dict(a) for a in order], best=best,
                evaluations=[{"place": round(e.place, 2), "wins": round(e.wins, 3), "money": round(e.money, 1),
                              "reward": round(e.reward, 3), "playouts": e.visits} for e in evaluations],
                rules=list(QUESTIONS[question])))
            if on_found is not None:
                on_found(found)
            if len(found) >= count:
                return found
    return found


def shipped_path(game_name: str) -> Path:
    """Where the play lessons' puzzles of ``game_name`` are kept (``railkit/data/<game>/puzzles.json``)."""
    return data_dir() / DATA_FOLDERS[game_name] / "puzzles.json"


@functools.lru_cache(maxsize=4)
def shipped(game_name: str) -> tuple[Puzzle, ...]:
    """The play lessons' puzzles of ``game_name`` ("kk", "up"), read once."""
    return tuple(load_puzzles(shipped_path(game_name)))
