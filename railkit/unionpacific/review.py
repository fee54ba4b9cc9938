"""A review of one player's moves after a game: the moves the heuristic player judged weak, with why.

``review_moves(game, player)`` replays the game's log from the deal. Before each move of ``player`` it asks
``HeuristicBot.scores`` how it values every legal move at that moment (it looks only at what that player
could know), and keeps the moves that score clearly below the heuristic's own choice, with a reason in
words naming the rules involved. Nothing here imports widgets: the play lesson shows the list.

The heuristic is a simple player, not an oracle: the review says “the heuristic player would have …”.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from railkit.unionpacific.actions import (
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
)
from railkit.unionpacific.bots import HeuristicBot, draws_before_next_dividend
from railkit.unionpacific.game import UnionPacificGame
from railkit.unionpacific.state import card_name, shares_words
from railkit.words import count

__all__ = ["MoveReview", "review_moves", "weak_margin"]

MIN_MARGIN = 1.0  # a move is weak when it scores this much below the best ...
RELATIVE_MARGIN = 0.25  # ... or this share of the best score, whichever is larger


@dataclass(frozen=True)
class MoveReview:
    """One weak move: where it was (``move``: index in the log; ``turn``), what was played and what the
    heuristic player would have played, how far apart they were (``gap``, in the heuristic's units), the
    two moves in the engine's words and the ``reason`` (rule IDs in brackets)."""

    move: int
    turn: int
    action: Any
    better: Any
    gap: float
    played: str
    instead: str
    reason: str

    def __str__(self) -> str:
        return f"Turn {self.turn}: {self.played}. The heuristic player would have: {self.instead}. {self.reason}"


def weak_margin(best: float) -> float:
    """How far below ``best`` a move must score to count as weak."""
    return max(MIN_MARGIN, RELATIVE_MARGIN * abs(best))


def review_moves(game: UnionPacificGame, player: str, limit: int | None = None) -> list[MoveReview]:
    """The moves of ``player`` in ``game`` that the heuristic player judged weak, in game order; with
    ``limit``, only that many of the weakest (still in game order)."""
    if player not in game.players:
        raise ValueError(f"{str(player)[:40]!r} does not play in this game")
    judge = HeuristicBot(0)
    replay = game.replay(0)
    found: list[MoveReview] = []
    for index, action in enumerate(game.log):
        if getattr(action, "player", None) == player:
            review = _judge(judge, replay, player, index, action)
            if review is not None:
                found.append(review)
        replay.apply(action)
    if limit is not None:
        keep = {id(r) for r in sorted(found, key=lambda r: -r.gap)[:limit]}
        found = [r for r in found if id(r) in keep]
    return found


def _judge(judge: HeuristicBot, game: UnionPacificGame, player: str, index: int, action: Any) -> MoveReview | None:
    scored = judge.scores(game, player)
    if len(scored) < 2:
        return None
    mine = next((s for a, s in scored if a == action), None)
    if mine is None:
        return None
    better, best = max(scored, key=lambda a_s: a_s[1])
    if best - mine <= weak_margin(best) or better == action:
        return None
    return MoveReview(index, game.state.turn_number, action, better, round(best - mine, 2), game.describe(action),
                      game.describe(better), _reason(game, player, action, better))


def _reason(game: UnionPacificGame, player: str, action: Any, better: Any) -> str:
    """Why ``better`` was the better move, in words with rule IDs."""
    board = game.board
    if isinstance(better, DiscardUnusable):
        return (f"A {better.card} card that no empty space can take any more may be swapped for a new one "
                "before you act, and the swap costs nothing (UP-T2).")
    if isinstance(action, Build) and isinstance(better, Invest):
        draws = draws_before_next_dividend(game, known_draws=sum(1 for a in game.log if type(a) is Build))
        return (f"A payout looked near (about {count(max(1, round(draws)), 'share draw')} away, UP-D1), and only "
                f"shares on the table are paid (UP-I4): laying {shares_words(board, better.cards)} first "
                "would have raised what you receive at it (UP-I1, UP-D3..UP-D6).")
    if isinstance(action, Invest) and isinstance(better, Build):
        return (f"A {card_name(board, better.company)} train (its value +1, UP-D2) and the share you draw after "
                "building (UP-B3) were worth more than laying these shares now (UP-I1, UP-T3): they count only "
                "at a payout (UP-I4), and none looked near.")
    if isinstance(action, Build) and isinstance(better, Build):
        if action.company == better.company:
            return (f"Both build for {card_name(board, better.company)}; the {better.card} card does it and "
                    f"keeps the {action.card} card, which is harder to draw again or fits more of your "
                    "companies (UP-B1, UP-C4).")
        mine_n, better_n = (game.table[player].get(k, 0) for k in (action.company, better.company))
        return (f"Each train adds 1 to its company's value (UP-D2), and a company pays its largest "
                f"shareholders (UP-D3..UP-D6): you held {count(better_n, 'share')} of "
                f"{card_name(board, better.company)} on the table and {count(mine_n, 'share')} of "
                f"{card_name(board, action.company)}, so the {card_name(board, better.company)} train was "
                "worth more to you (or helped the others less).")
    if isinstance(action, Invest) and isinstance(better, Invest):
        return (f"Laying {shares_words(board, better.cards)} would have changed your place among the "
                "shareholders more at the next payout (UP-I1, UP-D3..UP-D6, UP-D9).")
    if isinstance(better, DrawShare) and isinstance(action, DrawShare):
        return (f"The share from {_source(game, better)} was worth more to you than the one from "
                f"{_source(game, action)}: it moves you up among a company's shareholders, or Union Pacific's "
                "(UP-B3, UP-D3..UP-D6, UP-D9).")
    if isinstance(better, ExchangeForUP):
        return (f"Your {card_name(board, better.card)} share was unlikely to pay you; a Union Pacific share pays at "
                "every payout by your place among UP holders (UP-B4, UP-D9).")
    if isinstance(better, EndTurn) and isinstance(action, ExchangeForUP):
        return (f"Your {card_name(board, action.card)} share was worth more to you than a Union Pacific share "
                "(UP-B4, UP-D3..UP-D6, UP-D9): ending the turn keeps it (UP-B6).")
    if isinstance(better, ChooseFirstShare):
        return (f"A first share of the company you hold the most shares of ({card_name(board, better.card)}) "
                "starts a lead you can build on (UP-S5, UP-D3).")
    if isinstance(better, Pass):
        return (f"Discarding the {better.discard} card keeps the cards that fit your companies' sections "
                "(UP-T4, UP-B1).")
    return "The heuristic player valued its move more (UP-T3)."


def _source(game: UnionPacificGame, action: DrawShare) -> str:
    if action.source == "deck":
        return "the top of the share deck"
    if action.source == "up":
        return "the Union Pacific stack"
    slot = int(action.source[-1])
    display: Sequence[str | None] = game.display
    return f"the display ({card_name(game.board, display[slot])})"
