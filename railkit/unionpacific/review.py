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

from railkit.brief import brief
from railkit.messages import N_, Message, nmessage
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
from railkit.unionpacific.phrases import card_words, shares_message, track_type
from railkit.unionpacific.state import card_name, shares_words

__all__ = ["MoveReview", "better_move_reason", "review_moves", "share_source", "weak_margin"]

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
        return self.message()

    def message(self) -> Message:
        """The whole review line as one message (``str`` gives its English)."""
        return Message(N_("Turn {turn}: {played}. The heuristic player would have: {instead}. {reason}"),
                       {"turn": self.turn, "played": self.played, "instead": self.instead, "reason": self.reason})


def weak_margin(best: float) -> float:
    """How far below ``best`` a move must score to count as weak."""
    return max(MIN_MARGIN, RELATIVE_MARGIN * abs(best))


def review_moves(game: UnionPacificGame, player: str, limit: int | None = None) -> list[MoveReview]:
    """The moves of ``player`` in ``game`` that the heuristic player judged weak, in game order; with
    ``limit``, only that many of the weakest (still in game order)."""
    if player not in game.players:
        raise ValueError(f"{brief(player)} does not play in this game")
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
                      game.describe(better), better_move_reason(game, player, action, better))


def better_move_reason(game: UnionPacificGame, player: str, action: Any, better: Any) -> Message:
    """Why ``better`` was a better move for ``player`` than ``action`` in ``game`` (the position before either),
    in words with rule IDs. The search review (``railkit.lab.review``) borrows these words for its own verdicts."""
    board = game.board
    if isinstance(better, DiscardUnusable):
        return Message(N_("A {card} card that no empty space can take any more may be swapped for a new one before "
                          "you act, and the swap costs nothing (UP-T2)."), {"card": track_type(better.card)})
    if isinstance(action, Build) and isinstance(better, Invest):
        draws = draws_before_next_dividend(game, known_draws=sum(1 for a in game.log if type(a) is Build))
        return nmessage("A payout looked near (about {n} share draw away, UP-D1), and only shares on the table are "
                        "paid (UP-I4): laying {shares} first would have raised what you receive at it "
                        "(UP-I1, UP-D3..UP-D6).",
                        "A payout looked near (about {n} share draws away, UP-D1), and only shares on the table are "
                        "paid (UP-I4): laying {shares} first would have raised what you receive at it "
                        "(UP-I1, UP-D3..UP-D6).", max(1, round(draws)), {"shares": shares_words(board, better.cards)})
    if isinstance(action, Invest) and isinstance(better, Build):
        return Message(N_("A {company} train (its value +1, UP-D2) and the share you draw after building (UP-B3) "
                          "were worth more than laying these shares now (UP-I1, UP-T3): they count only at a payout "
                          "(UP-I4), and none looked near."), {"company": card_name(board, better.company)})
    if isinstance(action, Build) and isinstance(better, Build):
        if action.company == better.company:
            return Message(N_("Both build for {company}; the {card} card does it and keeps the {kept} card, which is "
                              "harder to draw again or fits more of your companies (UP-B1, UP-C4)."),
                           {"company": card_name(board, better.company), "card": track_type(better.card),
                            "kept": track_type(action.card)})
        mine_n, better_n = (game._state.table[player].get(k, 0) for k in (action.company, better.company))
        return Message(N_("Each train adds 1 to its company's value (UP-D2), and a company pays its largest "
                          "shareholders (UP-D3..UP-D6): you held {better_shares} on the table and {your_shares}, "
                          "so the {better} train was worth more to you (or helped the others less)."),
                       {"better_shares": shares_message([(better_n, card_name(board, better.company))]),
                        "your_shares": shares_message([(mine_n, card_name(board, action.company))]),
                        "better": card_name(board, better.company)})
    if isinstance(action, Invest) and isinstance(better, Invest):
        return Message(N_("Laying {shares} would have changed your place among the shareholders more at the next "
                          "payout (UP-I1, UP-D3..UP-D6, UP-D9)."), {"shares": shares_words(board, better.cards)})
    if isinstance(better, DrawShare) and isinstance(action, DrawShare):
        return Message(N_("The share from {better} was worth more to you than the one from {played}: it moves you "
                          "up among a company's shareholders, or Union Pacific's (UP-B3, UP-D3..UP-D6, UP-D9)."),
                       {"better": share_source(game, better), "played": share_source(game, action)})
    if isinstance(better, ExchangeForUP):
        return Message(N_("Your {company} share was unlikely to pay you; a Union Pacific share pays at every payout "
                          "by your place among UP holders (UP-B4, UP-D9)."), {"company": card_name(board, better.card)})
    if isinstance(better, EndTurn) and isinstance(action, ExchangeForUP):
        return Message(N_("Your {company} share was worth more to you than a Union Pacific share "
                          "(UP-B4, UP-D3..UP-D6, UP-D9): ending the turn keeps it (UP-B6)."),
                       {"company": card_name(board, action.card)})
    if isinstance(better, ChooseFirstShare):
        return Message(N_("A first share of the company you hold the most shares of ({company}) starts a lead you "
                          "can build on (UP-S5, UP-D3)."), {"company": card_name(board, better.card)})
    if isinstance(better, Pass):
        return Message(N_("Discarding the {card} card keeps the cards that fit your companies' sections "
                          "(UP-T4, UP-B1)."), {"card": track_type(better.discard)})
    return Message(N_("The heuristic player valued its move more (UP-T3)."))


def share_source(game: UnionPacificGame, action: DrawShare) -> Message:
    """Where the share of ``action`` is drawn from, in words: "the top of the share deck", "the Union Pacific
    stack" or "the display (Wabash)" (the display is public, UP-B3)."""
    if action.source == "deck":
        return Message(N_("the top of the share deck"))
    if action.source == "up":
        return Message(N_("the Union Pacific stack"))
    slot = int(action.source[-1])
    display: Sequence[str | None] = game._state.display
    return Message(N_("the display ({card})"), {"card": card_words(card_name(game.board, display[slot]))})
