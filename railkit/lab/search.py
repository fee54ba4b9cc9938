"""Search players for both games: information-set Monte-Carlo tree search and a flat Monte-Carlo baseline.

Both decide from the seat's view and legal moves alone (``railkit.bots.Player``). Hidden information is handled
the way Cowling, Powley & Whitehouse (2012) do for information-set MCTS: every deal is a game consistent with
the view (the engine's ``sampling.Dealer``: unseen cards reshuffled, the deck's and piles' make-up kept, other
seats' sealed bids left to be chosen again), the seat's moves are tried in it, and the game is played out by
the heuristic players (``rules.policy``, asked with the game: fast, and the game is dealt, not the real one).
Only the engines' ``copy``/``apply`` (narration off) move the pieces: no rule is written here.

**Common deals.** The root's candidate moves are compared on the same deals: each deal is copied once per move
and played out with the policy's random generator seeded alike, so two moves differ by what the moves do, not
by which cards came up (common random numbers). A playout is one iteration of the budget.

* ``FlatMC`` (the baseline): the heuristic's best ``width`` moves, every one on every deal; below the root the
  heuristic plays the seat's later moves too.
* ``ISMCTS``: the root's moves by sequential halving (Karnin, Koren & Somekh 2013): the budget is cut into
  rounds, each round deals the surviving moves alike and keeps the better half (the heuristic's own move is
  kept to the end, and the root is narrowed until every round deals each move ``min_deals`` times or more).
  Below each root move grows a
  tree of the seat's own later decisions (between them the other seats move by the heuristic policy, as in the
  playouts), chosen by UCB1 with availability counts (a move is only tried in the deals where it is legal) and
  progressive widening (a node visited n times considers the heuristic's best ``widen_base + widen_rate·√n``
  moves: Union Pacific offers a median of 50 moves a decision, up to 188, and the heuristic puts good ones first;
  there the best move of each kind comes first, ``rules._distinct_first``: a build's card and company before its place).

A budget is iterations (``ismcts:200``) or seconds of wall time (``ismcts:1.5s``, what a learner waits for). A
decision may spend at most ``per_move`` playouts per candidate move within the budget (``PER_MOVE``, 25, in Union
Pacific; no cap in Kap bis Kairo, whose build-or-pass decisions need the whole budget: capped at 25 a candidate
its search won ~80 % against three heuristic players, uncapped ~90 %, docs/benchmarks.md); no search runs when
one move is all there is.
A game may also end a decision early (``decisive``, Kap bis Kairo: 3): once the leading move beats every other move
still in the race by that many standard errors of the paired difference over ``DECISIVE_DEALS`` common deals, the
rest of the budget would not change the choice.
The heuristic's own move stays unless another beats it on the common deals by more than ``confidence``
standard errors of the paired difference (luck of a few deals is not a reason to leave it). Both keep, per
root move, its mean finishing place, money and win share: ``evaluate`` returns them (hints and analysis read
them).
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

__all__ = ["PER_MOVE", "Budget", "Evaluation", "FlatMC", "ISMCTS", "SearchPlayer"]

PER_MOVE = 25  # playouts a candidate move may have at most in one decision, unless the game says otherwise
DECISIVE_DEALS = 16  # common deals a move needs before a search may stop early for it (``decisive``)


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
    by_deal: dict[int, float] = field(default_factory=dict, repr=False)  # the reward on each common deal

    def add(self, reward: float, place: int, money: int, win: float, deal: int | None = None) -> None:
        self.visits += 1
        self.reward += reward
        self.place += place
        self.money += money
        self.wins += win
        if deal is not None:
            self.by_deal[deal] = reward

    def mean(self) -> Evaluation:
        n = max(1, self.visits)
        return Evaluation(self.action, self.visits, self.reward / n, self.place / n, self.money / n, self.wins / n,
                          self.prior, self.by_deal)

    def beats(self, other: Evaluation, confidence: float) -> bool:
        """Whether this move's reward is above ``other``'s by more than ``confidence`` standard errors of their
        difference on the deals both were played on (with fewer than two such deals: by its mean alone)."""
        common = [d for d in self.by_deal if d in other.by_deal]
        if len(common) < 2:
            return self.reward > other.reward
        diffs = [self.by_deal[d] - other.by_deal[d] for d in common]
        mean = sum(diffs) / len(diffs)
        variance = sum((x - mean) ** 2 for x in diffs) / (len(diffs) - 1)
        return mean > confidence * math.sqrt(variance / len(diffs))


@dataclass
class _Node:
    stats: dict[Any, Evaluation] = field(default_factory=dict)  # per move: its playouts from here
    children: dict[Any, _Node] = field(default_factory=dict)
    available: dict[Any, int] = field(default_factory=dict)  # per move: the visits in which it was legal
    visits: int = 0


class _Search:
    """What both searches share: the budget, the common deals, the playouts, the bookkeeping per root move."""

    name = "search"

    def __init__(self, budget: Budget | int | str = 200, seed: int = 0, *, rules: LabRules | None = None,
                 horizon: int | None | str = "game", per_move: int | None | str = "game",
                 confidence: float | None = None, phases: Sequence[str] | None = None,
                 decisive: float | None | str = "game") -> None:
        self.budget = budget if isinstance(budget, Budget) else Budget.parse(str(budget))
        self.rng = random.Random(seed)
        self.rules = rules
        self._horizon = horizon  # "game": the game's own default (rules.horizon); None: play out to the end
        self.horizon: int | None = None
        self._per_move = per_move  # "game": the game's own (rules.search "per_move", else PER_MOVE)
        self.per_move: int | None = PER_MOVE
        self._decisive = decisive  # "game": the game's own (rules.search "decisive", else None: no early stop)
        self.decisive: float | None = None
        self._confidence = confidence  # None: the game's own (rules.search)
        self.confidence = 1.0
        self.phases = None if phases is None else tuple(phases)  # the steps searched (None: all)
        self.iterations = 0  # playouts made, over every decision (the benchmark reads it)
        self._policies: dict[str, Any] = {}
        self._deals = 0

    # -- the Player API ---------------------------------------------------------------
    def choose(self, view: BaseView, legal: Sequence[Any]) -> Any:
        """The search's best move, unless it does not clearly beat the heuristic's own (see the module
        docstring)."""
        if len(legal) == 1:
            return legal[0]
        if self.phases is not None and view.phase not in self.phases:  # a step left to the heuristic
            rules = self._begin(view)
            return self._policy(rules).choose(view, legal)
        ranked = self.evaluate(view, legal)
        best = ranked[0]
        own = next((e for e in ranked if e.prior == 0), None)
        if own is not None and own is not best and own.visits and not best.beats(own, self.confidence):
            best = own
        return next((a for a in legal if a == best.action), best.action)

    def evaluate(self, view: BaseView, legal: Sequence[Any]) -> list[Evaluation]:
        """Every candidate move of the seat with what the search found, best first."""
        if view.you is None:
            raise ValueError("a spectator's view has no seat to search for")
        if not legal:
            raise ValueError("there is no legal move to choose from")
        rules = self._begin(view)
        policy = self._policy(rules)
        candidates = rules.view_candidates(view, legal, policy)
        root = {a: Evaluation(a, prior=i) for i, a in enumerate(candidates)}
        if len(candidates) > 1:
            self._search(rules, view, candidates, root, policy)
        return sorted((e.mean() for e in root.values()), key=self._rank)

    def evaluate_moves(self, view: BaseView, moves: Sequence[Any], playouts: int) -> list[Evaluation]:
        """Each of ``moves`` (legal for ``view.you``) played out on the same ``playouts`` deals: flat, no tree."""
        if view.you is None:
            raise ValueError("a spectator's view has no seat to search for")
        rules = self._begin(view)
        policy = self._policy(rules)
        dealer = rules.dealer(view)
        found = {a: Evaluation(a, prior=i) for i, a in enumerate(moves)}
        for _ in range(max(0, playouts)):
            deal, world, seed = self._deal(dealer)
            for action in moves:
                found[action].add(*self._try(rules, world, seed, action, policy, view.you, None), deal=deal)
        return [e.mean() for e in found.values()]

    def _rank(self, e: Evaluation) -> tuple[float, ...]:
        """Best first: the highest mean reward; moves never tried last, in the heuristic's order."""
        return (0.0 if e.visits else 1.0, -e.reward, e.prior)

    def _begin(self, view: BaseView) -> LabRules:
        rules = self.rules or rules_for(view)
        self.horizon = rules.horizon if self._horizon == "game" else self._horizon  # type: ignore[assignment]
        self.confidence = self._confidence if self._confidence is not None else rules.search.get("confidence", 1.0)
        per_move = rules.search.get("per_move", PER_MOVE) if self._per_move == "game" else self._per_move
        self.per_move = per_move  # type: ignore[assignment]
        self.decisive = rules.search.get("decisive") if self._decisive == "game" else self._decisive  # type: ignore[assignment]
        return rules

    def _policy(self, rules: LabRules) -> Any:
        policy = self._policies.get(rules.name)
        if policy is None:
            policy = self._policies[rules.name] = rules.policy(self.rng.randrange(2**31))
        return policy

    def _search(self, rules: LabRules, view: BaseView, candidates: list[Any], root: dict[Any, Evaluation],
                policy: Any) -> None:
        raise NotImplementedError

    def _limit(self, moves: int) -> int | None:
        """The playouts a decision among ``moves`` candidates may spend: the budget's, at most ``per_move`` a
        candidate; ``None`` for a budget in seconds."""
        iterations = self.budget.iterations
        if iterations is None or self.per_move is None:
            return iterations
        return min(iterations, self.per_move * moves)

    def _deal(self, dealer: Any) -> tuple[int, Game[Any], int]:
        """A new common deal: its number, the game dealt and the seed of the playouts' policy on it."""
        self._deals += 1
        return self._deals, dealer.deal(self.rng), self.rng.getrandbits(32)

    def _try(self, rules: LabRules, world: Game[Any], seed: int, action: Any, policy: Any, me: str,
             tree: _Node | None) -> tuple[float, int, int, float]:
        """``action`` on a copy of ``world``, then (``tree``) the seat's later decisions from the tree, then the
        playout: the seat's reward, place, money and win."""
        game = world.copy()
        policy.rng.seed(seed)
        start = self._start(rules, game)
        game.apply(action)
        if tree is not None:
            self._descend(rules, game, tree, policy, me)
        self._playout(rules, game, policy, start)
        self.iterations += 1
        score = self._score(rules, game, me)
        return score

    def _descend(self, rules: LabRules, game: Game[Any], tree: _Node, policy: Any, me: str) -> None:
        raise NotImplementedError

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

    def _timed_out(self, started: float) -> bool:
        seconds = self.budget.seconds
        return seconds is not None and time.perf_counter() - started >= seconds


class FlatMC(_Search):
    """Flat Monte-Carlo: the heuristic's best ``width`` moves, each played out on every common deal."""

    name = "flatmc"

    def __init__(self, budget: Budget | int | str = 200, seed: int = 0, *, rules: LabRules | None = None,
                 horizon: int | None | str = "game", per_move: int | None | str = "game",
                 confidence: float | None = None,
                 phases: Sequence[str] | None = None, width: int = 8) -> None:
        # every candidate plays on every deal: there is no race to end early (``decisive`` is ISMCTS's)
        super().__init__(budget, seed, rules=rules, horizon=horizon, per_move=per_move, confidence=confidence,
                         phases=phases, decisive=None)
        self.width = width

    def _search(self, rules: LabRules, view: BaseView, candidates: list[Any], root: dict[Any, Evaluation],
                policy: Any) -> None:
        me = view.you
        assert me is not None
        dealer = rules.dealer(view)
        alive = candidates[: self.width]
        limit = self._limit(len(alive))
        started = time.perf_counter()
        done = 0
        while (done < limit) if limit is not None else not self._timed_out(started):
            deal, world, seed = self._deal(dealer)
            for action in alive:
                root[action].add(*self._try(rules, world, seed, action, policy, me, None), deal=deal)
            done += len(alive)


class ISMCTS(_Search):
    """Information-set MCTS: sequential halving over common deals at the root, a tree of the seat's own later
    decisions below it (see the module docstring)."""

    name = "ismcts"

    def __init__(self, budget: Budget | int | str = 200, seed: int = 0, *, rules: LabRules | None = None,
                 horizon: int | None | str = "game", per_move: int | None | str = "game",
                 confidence: float | None = None,
                 phases: Sequence[str] | None = None, decisive: float | None | str = "game", root_width: int = 16,
                 min_deals: int | None = None,
                 exploration: float = 0.7, widen_base: int = 1, widen_rate: float = 0.5) -> None:
        super().__init__(budget, seed, rules=rules, horizon=horizon, per_move=per_move, confidence=confidence,
                         phases=phases, decisive=decisive)
        self.root_width = root_width
        self._pending: list[tuple[_Node, Any]] = []  # the tree's moves of the playout under way
        self._min_deals = min_deals  # None: the game's own (rules.search)
        self.exploration = exploration
        self.widen_base = widen_base
        self.widen_rate = widen_rate

    def _rank(self, e: Evaluation) -> tuple[float, ...]:
        """Best first: the moves that lasted longest in the halving (most playouts), then the highest reward."""
        return (-e.visits, -e.reward, e.prior)

    def _search(self, rules: LabRules, view: BaseView, candidates: list[Any], root: dict[Any, Evaluation],
                policy: Any) -> None:
        me = view.you
        assert me is not None
        dealer = rules.dealer(view)
        limit = self._limit(len(candidates))
        width = min(self.root_width, len(candidates))
        if limit is not None:  # every round deals each surviving move at least ``min_deals`` times
            min_deals = self._min_deals if self._min_deals is not None else rules.search.get("min_deals", 4)
            while width > 2 and limit < min_deals * width * math.ceil(math.log2(width)):
                width -= 1
        alive = candidates[:width]
        rounds = max(1, math.ceil(math.log2(len(alive))))
        tree = _Node()
        started = time.perf_counter()
        done = 0
        for round_ in range(rounds):
            if limit is not None:
                share = (limit - done) // (rounds - round_)
                deals = max(1, share // len(alive))
            else:
                deals = 1_000_000
                round_ends = started + self.budget.seconds * (round_ + 1) / rounds  # type: ignore[operator]
            decided = False
            for dealt in range(1, deals + 1):
                deal, world, seed = self._deal(dealer)
                for action in alive:
                    node = tree.children.setdefault(action, _Node())
                    root[action].add(*self._try(rules, world, seed, action, policy, me, node), deal=deal)
                    done += 1
                if limit is None and time.perf_counter() >= round_ends:
                    break
                if dealt % 8 == 0 and self._decided(alive, root):
                    decided = True
                    break
            if len(alive) == 1 or decided:
                break
            ranked = sorted(alive, key=lambda a: -root[a].reward / max(1, root[a].visits))
            kept = ranked[: max(1, math.ceil(len(alive) / 2))]
            own = candidates[0]  # the heuristic's move stays to the end: the last comparison is with it
            if own in alive and own not in kept:
                kept = [*kept[:-1], own] if len(kept) > 1 else [*kept, own]
            alive = kept

    def _decided(self, alive: Sequence[Any], root: dict[Any, Evaluation]) -> bool:
        """Whether the leading move already beats every other move still in the race by ``decisive`` standard
        errors of the paired difference, over ``DECISIVE_DEALS`` common deals or more: the rest of the budget
        would not change the choice (a build that wins the race, a card far better than the others)."""
        if self.decisive is None or len(alive) < 2:
            return False
        leader = max(alive, key=lambda a: root[a].reward / max(1, root[a].visits))
        if root[leader].visits < DECISIVE_DEALS:
            return False
        return all(root[leader].beats(root[a], self.decisive) for a in alive if a != leader)

    def _descend(self, rules: LabRules, game: Game[Any], tree: _Node, policy: Any, me: str) -> None:
        """The seat's later decisions in this deal by UCB1 in the tree under the root move, the others moving by
        the policy between them, until a move not in the tree yet (it is added) or the end."""
        node, path = tree, []
        while True:
            while not game.is_over and me not in game.players_to_act():
                game.apply(policy.choose(game, game.players_to_act()[0]))
            if game.is_over:
                break
            legal = game.legal_actions(me)
            moves = rules.candidates(game, me, legal, policy) if len(legal) > 1 else legal
            allowed = moves[: self.widen_base + int(self.widen_rate * math.sqrt(node.visits))]
            action = self._select(node, allowed)
            path.append((node, action))
            game.apply(action)
            child = node.children.get(action)
            if child is None:
                node.children[action] = _Node()
                break
            node = child
        self._pending = path

    def _try(self, rules: LabRules, world: Game[Any], seed: int, action: Any, policy: Any, me: str,
             tree: _Node | None) -> tuple[float, int, int, float]:
        self._pending = []
        score = super()._try(rules, world, seed, action, policy, me, tree)
        for node, move in self._pending:
            node.visits += 1
            node.stats.setdefault(move, Evaluation(move)).add(*score)
        if tree is not None:
            tree.visits += 1
        return score

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
