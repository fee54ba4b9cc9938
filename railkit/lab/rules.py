"""What the lab needs of each game, in one place per game: how to set one up, deal one from a seat's view, play
it on fast (the heuristic player asked with the game, for games played out inside a search), which of a seat's
moves a search tries first (and which it never needs to), and how a finished game ranks its players.

Everything goes through the engines: ``new_game``, ``sampling.Dealer`` (a game dealt from one seat's view),
``copy``/``apply`` with narration off, ``result``. No rule is written twice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from railkit.capecairo import sampling as kk_sampling
from railkit.capecairo.actions import Bid
from railkit.capecairo.bots import HeuristicBot as KKHeuristic
from railkit.capecairo.game import CapeToCairoGame
from railkit.capecairo.views import KKView
from railkit.game import BaseView, Game, Outcome
from railkit.unionpacific import sampling as up_sampling
from railkit.unionpacific.actions import Build as UPBuild
from railkit.unionpacific.actions import Invest
from railkit.unionpacific.actions import Pass as UPPass
from railkit.unionpacific.bots import HeuristicBot as UPHeuristic
from railkit.unionpacific.game import UnionPacificGame
from railkit.unionpacific.views import UPView

__all__ = ["GAMES", "LabRules", "Standing", "rules_for", "standing"]


@dataclass(frozen=True)
class Standing:
    """How a finished game ranks its players: ``places`` (1 = first; equal players share the better place, as
    they share a win), ``winners``, each player's ``score`` (KK: terrains crossed; UP: money) and ``money``."""

    places: Mapping[str, int]
    winners: tuple[str, ...]
    score: Mapping[str, int]
    money: Mapping[str, int]

    def reward(self, player: str) -> float:
        """What a search plays for: a win (shared wins split), and a little for a better place, so that a
        position lost anyway still tells second from last (0 for last alone, 1 for a sole win)."""
        n = len(self.places)
        win = 1.0 / len(self.winners) if player in self.winners else 0.0
        place = (n - self.places[player]) / (n - 1) if n > 1 else 1.0
        return 0.8 * win + 0.2 * place


def standing(game: Game[Any], rank_key: Callable[[Outcome, str], tuple[int, ...]]) -> Standing:
    """The standing of a finished game, its players ranked by ``rank_key`` of the game's result (greater is
    better). The result is worked out once: a search ranks every playout's end."""
    outcome = game.result()
    keys = {p: rank_key(outcome, p) for p in game.players}
    places = {p: 1 + sum(1 for q in game.players if keys[q] > keys[p]) for p in game.players}
    return Standing(places=places, winners=tuple(outcome.winners), score=dict(outcome.score),
                    money={p: outcome.money.get(p, 0) for p in game.players})


def _kk_rank(outcome: Outcome, player: str) -> tuple[int, ...]:
    """KK-E1 (the eighth crossing wins), then KK-B8's order: terrain crossed, then money."""
    return (int(player in outcome.winners), outcome.score[player], outcome.money[player])


def _up_rank(outcome: Outcome, player: str) -> tuple[int, ...]:
    """UP-D12: the most money wins; equal money shares a place."""
    return (outcome.money[player],)


def _kk_view_rank(view: Any, player: str) -> tuple[int, ...]:
    """``_kk_rank`` from a finished game's view: the winners, the terrain crossed and the money are public then."""
    return (int(player in view.winners), int(view.crossed.get(player, 0)), int(view.money.get(player, 0)))


def _up_view_rank(view: Any, player: str) -> tuple[int, ...]:
    """``_up_rank`` from a finished game's view: everyone's money is shown at the end (UP-D12)."""
    return (int(view.money.get(player, 0)),)


def _no_view_rank(view: Any, _player: str) -> tuple[int, ...]:
    raise ValueError(f"no ranking from the view of {type(view).__name__}")


def _up_estimate(game: Game[Any]) -> Standing:
    """A Union Pacific game stopped before its end, ranked by the money each player would have if the payouts
    still to come paid what the board and the tables pay now (UP-D2..D11): the money so far plus payouts
    ``done + 1 .. all``, each worked out by the engine (``compute_payout``)."""
    assert isinstance(game, UnionPacificGame)
    done, total = game.payouts
    money = dict(game.result().money)
    for number in range(done + 1, total + 1):
        for holder, amount in game.compute_payout(number, explain=False).amounts.items():
            if holder in money:
                money[holder] += amount
    players = game.players
    best = max(money[p] for p in players)
    places = {p: 1 + sum(1 for q in players if money[q] > money[p]) for p in players}
    return Standing(places=places, winners=tuple(p for p in players if money[p] == best), score=money, money=money)


def _up_progress(game: Game[Any]) -> int:
    assert isinstance(game, UnionPacificGame)
    return game.payouts[0]


KK_BIDS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20)  # bids a search tries besides the heuristic's own


def _kk_candidates(game: Game[Any], player: str, legal: Sequence[Any], policy: Any) -> list[Any]:
    """A seat's moves worth searching, the heuristic's own first. Bids (KK-A2) run from 0 to all the money: the
    search tries a handful around the heuristic's and a spread of small ones; the other steps are short lists."""
    first = policy.choose(game, player)
    if not isinstance(first, Bid):
        return [first, *(a for a in legal if a != first)]
    return _bids(player, first.amount, max(a.amount for a in legal))


def _kk_view_candidates(view: BaseView, legal: Sequence[Any], policy: Any) -> list[Any]:
    assert isinstance(view, KKView) and view.you is not None
    first = policy.choose(view, legal)
    if not isinstance(first, Bid):
        return [first, *(a for a in legal if a != first)]
    return _bids(view.you, first.amount, view.money[view.you])


def _bids(player: str, first: int, money: int) -> list[Any]:
    """The heuristic's bid first, then a few around it and the spread of ``KK_BIDS``, all within ``money``."""
    amounts = dict.fromkeys([first, *(first + d for d in (-2, -1, 1, 2, 4)), *KK_BIDS])
    return [Bid(player, a) for a in amounts if 0 <= a <= money]


def _up_kind(action: Any) -> Any:
    """What kind of choice a Union Pacific move is, for a search: a build is which card for which company (UP-B2),
    an investment which shares (UP-I1), a pass which card it gives up (UP-T4); any other move is its own kind."""
    if isinstance(action, UPBuild):
        return ("build", action.card, action.company)
    if isinstance(action, Invest):
        return ("invest", action.cards)
    if isinstance(action, UPPass):
        return ("pass", action.discard)
    return action


def _distinct_first(ordered: Sequence[Any]) -> list[Any]:
    """``ordered`` with the best move of each kind (``_up_kind``) first, in their order, then the others. The
    heuristic values a build by its card and company alone (where the track goes is its random tie-break), so
    its best dozen moves are often one build in a dozen places; a search given those would spend its playouts
    comparing places its playouts do not tell apart, instead of building against investing or one company
    against another."""
    seen: set[Any] = set()
    first: list[Any] = []
    later: list[Any] = []
    for action in ordered:
        kind = _up_kind(action)
        (later if kind in seen else first).append(action)
        seen.add(kind)
    return first + later


def _by_score(scored: list[tuple[Any, float]]) -> list[Any]:
    """The moves of the heuristic's ``scores``, best first (equal scores in the heuristic's order)."""
    scored.sort(key=lambda a_s: -a_s[1])
    return [a for a, _ in scored]


def _up_candidates(game: Game[Any], player: str, legal: Sequence[Any], policy: Any) -> list[Any]:
    """A seat's moves ordered by the heuristic's own scores (UP: a median of 50 moves, up to 188), the best of
    each kind first (``_distinct_first``)."""
    return _distinct_first(_by_score(policy.scores(game, player)))


def _up_view_candidates(view: BaseView, legal: Sequence[Any], policy: Any) -> list[Any]:
    ordered = _by_score(policy.scores(view, legal))
    return _distinct_first([a for a in ordered if a in legal] or list(legal))


@dataclass(frozen=True)
class LabRules:
    """One game as the lab plays it."""

    name: str  # "kk" or "up", as the command line names it
    cls: type[Game[Any]]
    view_cls: type[BaseView]
    dealer: Callable[[Any], Any]  # (seat's view) -> a Dealer: deal(rng) -> a game consistent with the view
    policy: Callable[[int], Any]  # (seed) -> the heuristic player, asked with the game (fast, for playouts)
    candidates: Callable[[Game[Any], str, Sequence[Any], Any], list[Any]]  # (game, seat, legal, policy)
    view_candidates: Callable[[BaseView, Sequence[Any], Any], list[Any]]  # (view, legal, policy)
    rank_key: Callable[[Outcome, str], tuple[int, ...]]  # (the game's result, player)
    options: Mapping[str, Any]  # the options of the lab's games (the defaults)
    # A game played out only so far, ranked by an estimate of its end (None: always play to the end):
    progress: Callable[[Game[Any]], int] | None = None  # how far the game is (UP: payouts made)
    estimate: Callable[[Game[Any]], Standing] | None = None
    horizon: int | None = None  # the playouts' default: stop once ``progress`` has grown by this much
    search: Mapping[str, Any] = field(default_factory=dict)  # the search players' settings for this game
    # ``rank_key`` read from a finished game's view (the public result), for a game the kernel holds only views of
    view_rank: Callable[[Any, str], tuple[int, ...]] = _no_view_rank

    def new(self, players: Sequence[str], seed: int) -> Game[Any]:
        game = self.cls(list(players), seed=seed, **self.options)
        game.narrate = False  # nobody reads a lab game as it is played; its narrative is made if asked for
        return game

    def standing(self, game: Game[Any]) -> Standing:
        return standing(game, self.rank_key)

    def deal(self, view: BaseView, rng: random.Random) -> Game[Any]:
        return self.dealer(view).deal(rng)  # type: ignore[no-any-return]


KK = LabRules("kk", CapeToCairoGame, KKView, kk_sampling.Dealer, KKHeuristic, _kk_candidates, _kk_view_candidates,
              _kk_rank, {}, view_rank=_kk_view_rank,
              # the whole budget for a build-or-pass choice too, unless one move is clearly ahead (3 s.e.)
              search={"per_move": None, "decisive": 3.0})
UP = LabRules("up", UnionPacificGame, UPView, up_sampling.Dealer, UPHeuristic, _up_candidates, _up_view_candidates,
              _up_rank, {}, _up_progress, _up_estimate, 1,
              # Union Pacific: a playout stops at the next payout and estimates the rest; the search leaves the
              # heuristic's move for any move that did better on the common deals (docs/benchmarks.md)
              {"confidence": 0.0, "min_deals": 2}, _up_view_rank)
GAMES: dict[str, LabRules] = {"kk": KK, "up": UP}


def rules_for(game_or_view: object) -> LabRules:
    """The lab's rules for a game, a view, a game class or a name ("kk", "up", or the save names)."""
    for rules in GAMES.values():
        if game_or_view in (rules.name, rules.cls.GAME, rules.cls) or isinstance(game_or_view, (rules.cls,
                                                                                               rules.view_cls)):
            return rules
    raise ValueError(f"the lab plays Union Pacific (up) and Vom Kap bis Kairo (kk), not {game_or_view!r}")
