"""After a game: each of one seat's decisions evaluated by the search player, the move made against the best.

``review_game(game, seat)`` replays the game's log (the log is the truth) and, at each decision of ``seat`` that
offered a choice, asks ``analyse(view, legal, include=[the move made])`` with the seat's view alone: what the
seat could know then, never another seat's cards or sealed bids (``review_decision`` is given nothing else, so a
review can show no more than the seat saw). Each ``Decision`` holds the move made and the search's best, both
evaluated (mean finishing place, money at the end, share of wins), the loss between them, a mark and the words
on why, with rule IDs. ``win_chance`` (the share of the search's playouts the seat won after the move it made) is
what the review's chart follows through the game.

**Marks** (``mark_for``), in the way Lichess marks chess moves by the winning chances they give away, here by
both things a multiplayer race is about, the chance of winning and the finishing place:

=============  ==================  ======================
mark           win share lost      or places lost (mean)
=============  ==================  ======================
inaccuracy     ≥ 10 points         ≥ 0.3
mistake        ≥ 20 points         ≥ 0.6
blunder        ≥ 30 points         ≥ 1.0 (a whole place)
=============  ==================  ======================

Why these: when the search's best is not the move made, the two are played out again on the same deals
(``PAIRED_PLAYOUTS``: 24 in Kap bis Kairo, 16 in Union Pacific; the hint's search drops weak moves after a few
playouts, too few to measure them). On 16–24 deals a win share's standard error is about 10 points, so a mark
starts there; and a loss counts only when the best move's reward beats the move made's by more than one standard
error of their paired difference (``Evaluation.beats``), else it is the luck of the deals and counted 0. A blunder
gives away a third of a win or a whole place out of four. The places lost count too because in a four-player game
a move that turns second into third costs something even when the win was out of reach. Smaller losses are not
marked: a learner who plays sensibly but differently is not told off. The best move's loss is 0 and its mark is
none; the mark never falls as either loss grows (tests/lab/test_lab_review.py checks both).

**Budget.** A review asks the hint's search player (``HINT_PLAYERS``) at every decision, the same strength as a
hint, plus the paired playouts: on the project's shared 2-core machine a whole Kap bis Kairo game (~30 decisions)
took 4 s of CPU (15 s of wall time under load), a Union Pacific game of 58 decisions 14 s of CPU (35 s), and a
learner's 114 decisions about two minutes in the browser (docs/benchmarks.md). ``player`` takes a smaller budget;
``progress`` is called after each decision so a page can show how far it is. Nothing here imports widgets.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from railkit.capecairo.actions import Bid, Build, Choose
from railkit.capecairo.actions import Pass as KKPass
from railkit.capecairo.bots import HeuristicBot as KKHeuristic
from railkit.capecairo.describe import describe_action as kk_describe
from railkit.capecairo.phrases import pounds
from railkit.capecairo.review import weak_move_reason
from railkit.game import BaseView, Game
from railkit.lab.analysis import HINT_PLAYERS, analyse
from railkit.lab.players import make_player
from railkit.lab.rules import rules_for
from railkit.lab.search import Evaluation
from railkit.messages import N_, Message, addressed
from railkit.unionpacific.actions import ChooseFirstShare, DrawShare
from railkit.unionpacific.describe import describe_action as up_describe
from railkit.unionpacific.review import better_move_reason, share_source
from railkit.unionpacific.state import card_name

# The learner's own bid, said to the learner (railkit.messages.addressed).
addressed("{player} bids {bid} (KK-A2)", "You bid {bid} (KK-A2)")
addressed("{player} takes a share from {source} (UP-B3)", "You take a share from {source} (UP-B3)")
addressed("{player} lays a first share of {company} face down (UP-S5)",
          "You lay a first share of {company} face down (UP-S5)")

__all__ = ["MARKS", "Decision", "GameReview", "decisions_of", "final_place", "mark_for", "review_decision",
           "review_decisions", "review_game"]

MARKS = ("", "inaccuracy", "mistake", "blunder")  # by severity; "" is no mark
WIN_LOSS = (0.10, 0.20, 0.30)  # win share lost for an inaccuracy, a mistake, a blunder (module docstring)
PLACE_LOSS = (0.3, 0.6, 1.0)  # mean finishing places lost for the same
# Playouts of the move made and the best move again, on the same deals, for their loss (the hint's search gives
# the moves it drops early only a few): KK's are cheap (0.75 ms), UP's ~2.5 ms to the next payout.
PAIRED_PLAYOUTS = {"kk": 24, "up": 16}
ALTERNATIVES = 3  # the moves besides the best that a decision keeps (a hint shows them too)


def mark_for(win_loss: float, place_loss: float) -> str:
    """The mark of a move that lost ``win_loss`` of the win share and ``place_loss`` finishing places against the
    best move: the worse of the two (module docstring)."""
    level = 0
    for i in range(3):
        if win_loss >= WIN_LOSS[i] - 1e-9 or place_loss >= PLACE_LOSS[i] - 1e-9:
            level = i + 1
    return MARKS[level]


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: where in the log (``move``, 1-based), the move made and the search's best, both
    evaluated, the best few alternatives, the losses and the mark, and the words (``made_words``, ``best_words``,
    ``why``: the engine's, with rule IDs)."""

    move: int
    made: Any
    best: Any
    made_eval: Evaluation
    best_eval: Evaluation
    alternatives: tuple[Evaluation, ...]
    win_loss: float
    place_loss: float
    mark: str
    made_words: Message
    best_words: Message
    why: Message | None

    @property
    def win_chance(self) -> float:
        """The seat's share of wins after the move it made, as the search saw it (the review's chart)."""
        return self.made_eval.wins

    @property
    def is_best(self) -> bool:
        return bool(self.made == self.best)


@dataclass(frozen=True)
class GameReview:
    """A whole game's review for ``seat``: its decisions in game order, and the game's real end for the seat."""

    game: str  # "kk" or "up"
    seat: str
    decisions: tuple[Decision, ...]
    place: int  # where the seat finished (1 = first)
    won: bool

    def marked(self, mark: str) -> list[Decision]:
        return [d for d in self.decisions if d.mark == mark]


def decisions_of(game: Game[Any], seat: str) -> Iterator[tuple[int, BaseView, list[Any], Any]]:
    """The seat's decisions in ``game``'s log that offered a choice: (move number from 1, the seat's view then, its
    legal moves, the move it made). The game is replayed from its deal; the views are the seat's own."""
    if seat not in game.players:
        raise ValueError(f"{seat!r} does not play in this game")
    replay = type(game)(list(game.players), seed=game.seed, **game.options)
    replay.narrate = False
    for number, action in enumerate(game.log, 1):
        if getattr(action, "player", None) == seat:
            legal = replay.legal_actions(seat)
            if len(legal) > 1:
                yield number, replay.view(seat), legal, action
        replay.apply(action)


def review_decision(view: BaseView, legal: Sequence[Any], made: Any, move: int = 0, *, seed: int = 0,
                    player: str | None = None) -> Decision:
    """One decision of ``view.you`` reviewed from its view and legal moves alone (see the module docstring)."""
    if made not in legal:
        raise ValueError(f"the move {made!r} was not legal for {view.you!r} there")
    rules = rules_for(view)
    name = player or HINT_PLAYERS[rules.name]
    found = analyse(view, legal, include=[made], seed=seed, player=name)
    by_move = {e.action: e for e in found}
    best_eval, made_eval = found[0], by_move[made]
    win_loss = place_loss = 0.0
    if made != best_eval.action:  # the two moves again, on the same deals (common random numbers)
        best_eval, made_eval = make_player(name, seed + 1).evaluate_moves(view, [best_eval.action, made],
                                                                          PAIRED_PLAYOUTS[rules.name])
        if best_eval.beats(made_eval, 1.0):  # else within the luck of the deals: no loss counted
            win_loss = max(0.0, best_eval.wins - made_eval.wins)
            place_loss = max(0.0, made_eval.place - best_eval.place)
    alternatives = tuple(e for e in found[1:] if e.visits)[:ALTERNATIVES]
    dealt = rules.deal(view, random.Random(seed))  # a game the seat could be in: what the words may read
    why = _why(rules.name, dealt, view.you, made, best_eval.action) if made != best_eval.action else None
    return Decision(move, made, best_eval.action, made_eval, best_eval, alternatives, round(win_loss, 4),
                    round(place_loss, 4), mark_for(win_loss, place_loss), move_words(rules.name, dealt, made),
                    move_words(rules.name, dealt, best_eval.action), why)


def review_game(game: Game[Any], seat: str, *, seed: int = 0, player: str | None = None,
                progress: Callable[[int, int], object] | None = None) -> GameReview:
    """Every decision of ``seat`` in ``game`` (finished or not) reviewed (module docstring); ``progress(done,
    total)`` is called before the first and after each decision."""
    found = list(decisions_of(game, seat))
    rules = rules_for(game)
    place, won = 0, False
    if game.is_over:
        standing = rules.standing(game)
        place, won = standing.places[seat], seat in standing.winners
    return review_decisions(rules.name, seat, found, place, won, seed=seed, player=player, progress=progress)


def review_decisions(game_name: str, seat: str, items: Sequence[tuple[int, BaseView, Sequence[Any], Any]],
                     place: int, won: bool, *, seed: int = 0, player: str | None = None,
                     progress: Callable[[int, int], object] | None = None) -> GameReview:
    """``seat``'s decisions ``items`` (move number from 1, the seat's view then, its legal moves, the move it made:
    ``decisions_of``'s, or a class table's sent to the seat at the end) reviewed one by one (``review_decision``),
    in one ``GameReview`` with the game's real end for the seat (``place``, ``won``); ``progress(done, total)`` is
    called before the first and after each decision. ``game_name`` is "kk" or "up" (or the engine's name)."""
    out = []
    if progress is not None:
        progress(0, len(items))
    for i, (move, view, legal, made) in enumerate(items):
        out.append(review_decision(view, legal, made, move, seed=seed + move, player=player))
        if progress is not None:
            progress(i + 1, len(items))
    return GameReview(rules_for(game_name).name, seat, tuple(out), place, won)


def final_place(view: BaseView, seat: str) -> tuple[int, bool]:
    """Where ``seat`` finished and whether it won, read from a finished game's view (the public result: the
    winners, and the ranking's public facts, ``LabRules.view_rank``), as ``LabRules.standing`` ranks a game."""
    rank = rules_for(view).view_rank
    keys = {p: rank(view, p) for p in view.players}
    return 1 + sum(1 for p in view.players if keys[p] > keys[seat]), seat in view.winners


# The rules behind each kind of move, for a decision the heuristic review has no words for.
_KK_RULES = {Bid: "KK-A2..KK-A5", Choose: "KK-A6, KK-B2, KK-C3", Build: "KK-B2, KK-B4", KKPass: "KK-B3"}


def _why(game: str, dealt: Game[Any], seat: str | None, made: Any, best: Any) -> Message | None:
    """Why the best move was better, in the engine's words with rule IDs: the heuristic review's reason (read from
    ``dealt``, a game consistent with the seat's view), else the rules both moves follow."""
    if game == "up":
        return better_move_reason(dealt, str(seat), made, best)  # type: ignore[arg-type]
    said = weak_move_reason(dealt, KKHeuristic(0), made)  # type: ignore[arg-type]
    if said is not None:
        return said
    rules = dict.fromkeys(_KK_RULES[type(a)] for a in (made, best) if type(a) in _KK_RULES)
    return Message(N_("The search found the other move better over many games played out from here ({rules})."),
                   {"rules": ", ".join(rules)})


def hint_rows(view: BaseView, legal: Sequence[Any], *, seed: int = 0, player: str | None = None,
              shown: int = 1 + ALTERNATIVES) -> list[tuple[Evaluation, Message]]:
    """A hint: the search player's best move and the next best, each evaluated and in the engine's words."""
    found = [e for e in analyse(view, legal, seed=seed, player=player) if e.visits][:shown]
    rules = rules_for(view)
    dealt = rules.deal(view, random.Random(seed))
    return [(e, move_words(rules.name, dealt, e.action)) for e in found]


def move_words(game: str, dealt: Game[Any], action: Any) -> Message:
    """``action`` in the engine's words (a game dealt from the seat's view names the cards and places); the seat's
    own bid with its amount, which the engine's public words keep sealed (KK-A2)."""
    if isinstance(action, Bid):
        return Message(N_("{player} bids {bid} (KK-A2)"), {"player": action.player, "bid": pounds(action.amount)})
    if game == "kk":
        return kk_describe(dealt.table, action)  # type: ignore[attr-defined]
    if isinstance(action, DrawShare):  # which share: the display is public (UP-B3)
        return Message(N_("{player} takes a share from {source} (UP-B3)"),
                       {"player": action.player, "source": share_source(dealt, action)})  # type: ignore[arg-type]
    if isinstance(action, ChooseFirstShare):  # the seat's own first share, named to the seat only (UP-S5)
        return Message(N_("{player} lays a first share of {company} face down (UP-S5)"),
                       {"player": action.player, "company": card_name(dealt.board, action.card)})  # type: ignore[attr-defined]
    return up_describe(dealt.board, action)  # type: ignore[attr-defined]


