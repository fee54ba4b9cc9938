"""Search players for both games: information-set Monte-Carlo tree search and a flat Monte-Carlo baseline.

Both decide from the seat's view and legal moves alone (``railkit.bots.Player``). Hidden information is handled
the way Cowling, Powley & Whitehouse (2012) do for information-set MCTS: every iteration deals a game consistent
with the view (the engine's ``sampling.Dealer``: unseen cards reshuffled, the deck's and piles' make-up kept,
other seats' sealed bids left to be chosen again), tries a line of the seat's own moves in it, and plays the
game out with the heuristic players (``rules.policy``, asked with the game: fast, and the game is dealt, not
the real one). Only the engines' ``copy``/``apply`` (narration off) move the pieces: no rule is written here.

* ``FlatMC``: every candidate move of the root gets an equal share of the playouts; the best mean wins.
* ``ISMCTS``: a tree of the seat's own decisions (the other seats move by the heuristic policy between them,
  as in the playouts). A node's children are chosen by UCB1 with availability counts (a move is only tried in
  the deals where it is legal) and progressive widening (a node visited n times considers the heuristic's best
  ``widen_base + widen_rate·√n`` moves): Union Pacific offers a median of 50 moves a decision, up to 188, and
  the heuristic's order puts the good ones first.

A budget is iterations (``ismcts:200``) or seconds of wall time (``ismcts:1.5s``, what a learner waits for). A
decision spends at most ``per_move`` (25) iterations per candidate move within the budget (a choice between
building and passing needs fewer playouts than one among twenty bids); ISMCTS stops when its most visited move
can no longer be caught; no search runs when one move is all there is. Both keep, per root move, its mean finishing place, money and
win share: ``evaluate`` returns them (the lab's hints and analysis read them).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from railkit.game import BaseView, Game
from railkit.lab.rules import LabRules, rules_for

__all__ = ["Budget", "Evaluation", "FlatMC", "ISMCTS", "SearchPlayer"]


@dataclass(frozen=True)
class Budget:
    """How long a search may think: ``iterations`` playouts, or ``seconds`` of CPU time (whichever is given)."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if (self.iterations is None) == (self.seconds is None):
            raise ValueError("a budget is a number of iterations or of seconds")
        if self.iterations is not None and not 1 <= self.iterations <= 1_000_000:
            raise ValueError(f"iterations must be from 1 to 1000000, not {self.iterations}")
        if self.seconds is not None and not 0 < self.seconds <= 600:
            raise ValueError(f"seconds must be above 0 and at most 600, not {self.seconds}")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"200"`` (iterations) or ``"1.5s"`` (seconds)."""
        text = text.strip()
        try:
            if text.endswith("s"):
                return cls(seconds=float(text[:-1]))
            return cls(iterations=int(text))
        except ValueError as exc:
            raise ValueError(f"a budget is a number of iterations (200) or seconds (1.5s), not {text!r}: {exc}") \
                from None

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)


@dataclass
class Evaluation:
    """One of the seat's moves as a search saw it: over ``visits`` playouts, the seat's mean finishing place
    (1 = first), mean money at the end, share of wins, and the search's mean reward."""

    action: Any
    visits: int = 0
    reward: float = 0.0  # sums while searching; means once ``done``
    place: float = 0.0
    money: float = 0.0
    wins: float = 0.0
    prior: int = 0  # the move's rank in the heuristic's order (0 = the heuristic's own choice)

    def add(self, reward: float, place: int, money: int, win: float) -> None:
        self.visits += 1
        self.reward += reward
        self.place += place
        self.money += money
        self.wins += win

    def mean(self) -> Evaluation:
        n = max(1, self.visits)
        return Evaluation(self.action, self.visits, self.reward / n, self.place / n, self.money / n, self.wins / n,
                          self.prior)


@dataclass
class _Node:
    children: dict[Any, _Node] = field(default_factory=dict)
    stats: dict[Any, Evaluation] = field(default_factory=dict)  # per move: its playouts from here
    available: dict[Any, int] = field(default_factory=dict)  # per move: the visits in which it was legal
    visits: int = 0


class _Search:
    """What both searches share: the budget, the deals, the playouts, the bookkeeping per root move."""

    name = "search"

    def __init__(self, budget: Budget | int | str = 200, seed: int = 0, *, rules: LabRules | None = None,
                 horizon: int | None | str = "game", per_move: int | None = 25) -> None:
        self.budget = budget if isinstance(budget, Budget) else Budget.parse(str(budget))
        self.rng = random.Random(seed)
        self.rules = rules
        self._horizon = horizon  # "game": the game's own default (rules.horizon); None: play out to the end
        self.horizon: int | None = None
        self.per_move: int | None = per_move
        self.iterations = 0  # playouts made, over every decision (the benchmark reads it)
        self._policies: dict[str, Any] = {}

    # -- the Player API ---------------------------------------------------------------
    def choose(self, view: BaseView, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        best = self.evaluate(view, legal)[0].action
        return next((a for a in legal if a == best), best)

    def evaluate(self, view: BaseView, legal: Sequence[Any]) -> list[Evaluation]:
        """Every candidate move of the seat with what the search found, best first."""
        if view.you is None:
            raise ValueError("a spectator's view has no seat to search for")
        if not legal:
            raise ValueError("there is no legal move to choose from")
        rules = self.rules or rules_for(view)
        self.horizon = rules.horizon if self._horizon == "game" else self._horizon  # type: ignore[assignment]
        policy = self._policy(rules)
        candidates = rules.view_candidates(view, legal, policy)
        root = {a: Evaluation(a, prior=i) for i, a in enumerate(candidates)}
        if len(candidates) > 1:
            self._search(rules, view, candidates, root, policy)
        return sorted((e.mean() for e in root.values()), key=self._rank)

    def _rank(self, e: Evaluation) -> tuple[float, ...]:
        """Best first: the highest mean reward; moves never tried last, in the heuristic's order."""
        return (0.0 if e.visits else 1.0, -e.reward, e.prior)

    def _policy(self, rules: LabRules) -> Any:
        policy = self._policies.get(rules.name)
        if policy is None:
            policy = self._policies[rules.name] = rules.policy(self.rng.randrange(2**31))
        return policy

    def _search(self, rules: LabRules, view: BaseView, candidates: list[Any], root: dict[Any, Evaluation],
                policy: Any) -> None:
        raise NotImplementedError

    def _limit(self, moves: int) -> int | None:
        """The iterations a decision among ``moves`` candidates may spend: the budget's, at most ``per_move``
        a candidate (a choice between two moves needs fewer playouts than one among twenty)."""
        iterations = self.budget.iterations
        if iterations is None or self.per_move is None:
            return iterations
        return min(iterations, self.per_move * moves)

    def _stop(self, done: int, started: float, limit: int | None) -> bool:
        if limit is not None:
            return done >= limit
        return time.perf_counter() - started >= self.budget.seconds  # type: ignore[operator]

    def _playout(self, rules: LabRules, game: Game[Any], policy: Any, start: int | None) -> None:
        """Everyone moves by the heuristic policy to the end, or (with a horizon) until the game has gone
        ``horizon`` steps of ``rules.progress`` past ``start``."""
        horizon, progress = self.horizon, rules.progress
        if horizon is None or progress is None or start is None:
            while not game.is_over:
                game.apply(policy.choose(game, game.players_to_act()[0]))
            return
        stop = start + horizon
        while not game.is_over and progress(game) < stop:
            game.apply(policy.choose(game, game.players_to_act()[0]))

    def _start(self, rules: LabRules, game: Game[Any]) -> int | None:
        return None if self.horizon is None or rules.progress is None else rules.progress(game)

    def _score(self, rules: LabRules, game: Game[Any], me: str) -> tuple[float, int, int, float]:
        if game.is_over or rules.estimate is None:
            result = rules.standing(game)
        else:
            result = rules.estimate(game)
        win = 1.0 / len(result.winners) if me in result.winners else 0.0
        return result.reward(me), result.places[me], result.money[me], win


class FlatMC(_Search):
    """Flat Monte-Carlo: the playouts shared out equally among the heuristic's best ``width`` moves."""

    name = "flatmc"

    def __init__(self, budget: Budget | int | str = 200, seed: int = 0, *, rules: LabRules | None = None,
                 horizon: int | None | str = "game", per_move: int | None = 25, width: int = 8) -> None:
        super().__init__(budget, seed, rules=rules, horizon=horizon, per_move=per_move)
        self.width = width

    def _search(self, rules: LabRules, view: BaseView, candidates: list[Any], root: dict[Any, Evaluation],
                policy: Any) -> None:
        me = view.you
        assert me is not None
        dealer = rules.dealer(view)
        candidates = candidates[: self.width]
        limit = self._limit(len(candidates))
        started = time.perf_counter()
        done = 0
        while not self._stop(done, started, limit):
            action = candidates[done % len(candidates)]
            game = dealer.deal(self.rng)
            start = self._start(rules, game)
            game.apply(action)
            self._playout(rules, game, policy, start)
            root[action].add(*self._score(rules, game, me))
            done += 1
        self.iterations += done


class ISMCTS(_Search):
    """Information-set MCTS over the seat's own decisions (see the module docstring)."""

    name = "ismcts"

    def __init__(self, budget: Budget | int | str = 200, seed: int = 0, *, rules: LabRules | None = None,
                 horizon: int | None | str = "game", per_move: int | None = 25, exploration: float = 0.7,
                 widen_base: int = 3, widen_rate: float = 1.0) -> None:
        super().__init__(budget, seed, rules=rules, horizon=horizon, per_move=per_move)
        self.exploration = exploration
        self.widen_base = widen_base
        self.widen_rate = widen_rate

    @staticmethod
    def _settled(root: dict[Any, Evaluation], done: int, limit: int | None) -> bool:
        """Whether the most visited move is so far ahead that the iterations left cannot change the choice."""
        if limit is None or done < 2:
            return False
        first = second = 0
        for e in root.values():
            if e.visits > first:
                first, second = e.visits, first
            elif e.visits > second:
                second = e.visits
        return first - second > limit - done

    def _rank(self, e: Evaluation) -> tuple[float, ...]:
        """Best first: the most visited (UCB1 visits the best most), then the highest mean reward."""
        return (-e.visits, -e.reward, e.prior)

    def _width(self, visits: int) -> int:
        return self.widen_base + int(self.widen_rate * math.sqrt(visits))

    def _search(self, rules: LabRules, view: BaseView, candidates: list[Any], root: dict[Any, Evaluation],
                policy: Any) -> None:
        me = view.you
        assert me is not None
        dealer = rules.dealer(view)
        tree = _Node()
        limit = self._limit(len(candidates))
        started = time.perf_counter()
        done = 0
        while not self._stop(done, started, limit) and not self._settled(root, done, limit):
            game = dealer.deal(self.rng)
            start = self._start(rules, game)
            node, path, first = tree, [], None
            moves = candidates  # at the root: the view's candidates (legal in every deal)
            while True:
                allowed = moves[: self._width(node.visits)]
                action = self._select(node, allowed)
                path.append((node, action))
                if first is None:
                    first = action
                game.apply(action)
                child = node.children.get(action)
                if child is None:  # a new node: expand it and play out from here
                    node.children[action] = _Node()
                    break
                node = child
                # the others move by the policy until the seat is to act again
                while not game.is_over and me not in game.players_to_act():
                    player = game.players_to_act()[0]
                    game.apply(policy.choose(game, player))
                if game.is_over:
                    break
                legal = game.legal_actions(me)
                moves = rules.candidates(game, me, legal, policy) if len(legal) > 1 else legal
            self._playout(rules, game, policy, start)
            score = self._score(rules, game, me)
            for node, action in path:
                node.visits += 1
                node.stats.setdefault(action, Evaluation(action)).add(*score)
            root[first].add(*score)
            done += 1
        self.iterations += done

    def _select(self, node: _Node, allowed: Sequence[Any]) -> Any:
        """An untried move first (in the heuristic's order), else UCB1 with availability counts."""
        for action in allowed:
            node.available[action] = node.available.get(action, 0) + 1
        for action in allowed:
            if action not in node.stats:
                return action
        c = self.exploration
        best, best_value = allowed[0], -math.inf
        for action in allowed:
            stats = node.stats[action]
            value = stats.reward / stats.visits + c * math.sqrt(math.log(node.available[action]) / stats.visits)
            if value > best_value:
                best, best_value = action, value
        return best


def SearchPlayer(kind: str, budget: Budget | int | str, seed: int = 0) -> _Search:  # noqa: N802 - a factory
    """``ISMCTS`` or ``FlatMC`` by name ("ismcts", "flatmc")."""
    classes: dict[str, type[_Search]] = {"ismcts": ISMCTS, "flatmc": FlatMC}
    if kind not in classes:
        raise ValueError(f"the search players are {', '.join(classes)}, not {kind!r}")
    return classes[kind](budget, seed)
