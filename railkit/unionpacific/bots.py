"""Computer players for Union Pacific: a random one and a simple heuristic one.

Bots only choose among the legal moves, so they can never break a rule. ``HeuristicBot``
looks only at what its player may know: its own hand, the tables, the display, the board,
the payouts so far and the share-deck layout (UP-S7 / UP-V1); the deck count only when it
is public (UP-V3), otherwise an estimate from the public draws. Asked as a ``Player``
(``choose(view, legal)``) it decides on a game dealt from the seat's view
(``sampling.seat_game``), whose hidden parts are made up: it reads none of them, so the
move is the one it makes asked with the game itself (``choose(game, player)``).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, compress, repeat, starmap
from operator import is_, itemgetter
from typing import Any

from railkit.bots import Bot, Player, RandomBot, play_game
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
from railkit.unionpacific.board import GENERAL
from railkit.unionpacific.bot_estimates import (
    UNKNOWN,
    UP_LAST,
    Estimates,
    company_amounts_of,
    company_stake,
    deck_piles,
    draws_before,
    draws_before_next_dividend,
    estimates_of,
    union_pacific_amounts_of,
)
from railkit.unionpacific.game import UnionPacificGame
from railkit.unionpacific.moves import ActionStepMoves
from railkit.unionpacific.sampling import seat_game
from railkit.unionpacific.state import UP
from railkit.unionpacific.views import UPView

__all__ = ["Bot", "HeuristicBot", "Player", "RandomBot", "play_game", "draws_before_next_dividend"]


def _no_game() -> None:
    """A dead weak reference: no game's estimates are at hand yet."""
    return None


class HeuristicBot:
    """Builds for companies it leads or co-leads, invests to take or defend majorities when a
    dividend may be near, draws the share that helps it most, and swaps weak shares for UP."""

    # Weights (tuned by playing variants against each other, see docs/benchmarks.md).
    INVEST_BASE = 0.35  # how much investing is worth when no dividend is near
    SOON_WEIGHT = 1.0  # how much a near dividend pushes towards investing
    LATER_PAYOUTS = 0.3  # extra weight per payout still to come after the next

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        # Speed only, never what is chosen: while a move is chosen, the game's estimates (``Estimates``, shared
        # by the bots of the game and kept up to date between decisions from the moves made).
        self._rarities: dict[tuple[Any, str], float] = {}  # _rarity per (board, card)
        self._spends: tuple[Any, dict[str, float]] = (None, {})  # (board, what spending each card costs)
        self._est: Estimates | None = None  # while a move is chosen: the game's estimates, up to date
        self._last: tuple[Callable[[], UnionPacificGame | None], Estimates | None] = (_no_game, None)

    def _estimates(self, game: UnionPacificGame) -> Estimates:
        """The estimates the bots of ``game`` share, brought up to date; the last game's are kept at hand (a
        bot plays one game at a time), by a weak reference that does not keep the game alive."""
        last_game, est = self._last
        if last_game() is game and est is not None:
            est.sync(game)
            return est
        est = estimates_of(game)
        self._last = (weakref.ref(game), est)
        return est

    def _deciding(self, game: UnionPacificGame, work: Callable[[UnionPacificGame, str], Any], player: str) -> Any:
        """``work(game, player)`` with the game's estimates at hand (``self._est``), up to date with the moves
        made since the last decision; inside another decision, the estimates already at hand. Every decision
        (``choose``, ``scores``) is made this way, so the methods below always have the estimates."""
        if self._est is not None:
            return work(game, player)
        self._est = self._estimates(game)
        try:
            return work(game, player)
        finally:
            self._est = None

    # the estimates -------------------------------------------------------------------------
    @property
    def est(self) -> Estimates:
        """The game's estimates, during a decision (``_deciding``)."""
        est = self._est
        if est is None:
            raise RuntimeError("a HeuristicBot's estimates are read only while it decides (choose, scores)")
        return est

    def _counts(self, game: UnionPacificGame, key: str) -> tuple[int, ...]:
        """The table shares of ``key`` (a company or UP) per player, in seating order."""
        return self.est.counts[key]

    def _payouts_left(self, game: UnionPacificGame) -> int:
        return game._state.max_payouts - len(game._state.payouts)

    def _next_up_number(self, game: UnionPacificGame) -> int:
        return min(len(game._state.payouts) + 1, UP_LAST)

    def _gain(self, game: UnionPacificGame, me: str, key: str, extra: int, value_bonus: int = 0) -> float:
        """Money I gain at one payout by having ``extra`` more table shares of ``key``."""
        # what the gain depends on: UP's payout number, or the company's value; the holdings
        size = -self._next_up_number(game) if key == UP else game._state.net.on_board(key) + 1 + value_bonus
        return self._gain_of(game.players.index(me), size, extra, self._counts(game, key))

    def _gain_of(self, seat: int, size: int, extra: int, counts: tuple[int, ...]) -> float:
        """``_gain`` from what it depends on: my seat, the company's value (minus UP's payout number for UP),
        the extra shares and the holdings per seat."""
        mine = counts[seat]
        if size < 0:  # UP
            now, then = union_pacific_amounts_of(-size, counts, seat, (mine, mine + extra))
            # UP pays more later; weigh the remaining columns
            later_now, later_then = union_pacific_amounts_of(UP_LAST, counts, seat, (mine, mine + extra))
            return ((then + later_then) - (now + later_now)) / 2
        now, then = company_amounts_of(size, counts, seat, (mine, mine + extra))
        return then - now

    def _stake_of(self, seat: int, value: int, hand: int, counts: tuple[int, ...]) -> float:
        """``_stake`` from what it depends on: my seat, the company's value, my shares of it in hand and
        on the table per seat."""
        return company_stake(value, counts, seat, hand)  # shares I can still lay down count for later payouts

    def _stake(self, game: UnionPacificGame, me: str, key: str) -> float:
        """How much one more train of ``key`` is worth to me, relative to the others."""
        return self._stake_of(game.players.index(me), game._state.net.on_board(key) + 1,
                              game._state.share_hand[me].get(key, 0), self._counts(game, key))

    def _stakes(self, game: UnionPacificGame, me: str) -> dict[str, float]:
        """``_stake`` of every company, in summary-card order (worked out again only for the companies the
        moves since my last decision touched; do not change the dict)."""
        est = self.est
        seat = est.seat_of[me]
        mine = est.seat(seat, me, game)
        stakes = mine.stakes
        hand = game._state.share_hand[me].get
        net = game._state.net
        totals, supply, counts = net.idx.totals, net.supply, est.counts
        if stakes is None:
            stakes = mine.stakes = {key: company_stake(totals[key] - supply[key] + 1, counts[key], seat, hand(key, 0))
                                    for key in game.company_order}
        else:
            for key in mine.stale:
                if key in stakes:  # a company (UP has no stake)
                    stakes[key] = company_stake(totals[key] - supply[key] + 1, counts[key], seat, hand(key, 0))
        mine.stale = set()
        return stakes

    def _share_worth(self, game: UnionPacificGame, me: str, card: str) -> float:
        """What one more share of ``card`` in hand is worth to me (to be laid down later)."""
        return self._share_worths(game, me, (card,))[0]

    def _share_worths(self, game: UnionPacificGame, me: str, cards: Iterable[str | None]) -> list[float]:
        """``_share_worth`` of each of ``cards`` (``None``, an empty place, is skipped)."""
        state = game._state
        est = self.est
        seat = est.seat_of[me]
        known, all_counts = est.seat(seat, me, game).worths, est.counts
        hand = state.share_hand[me]
        supply, totals = state.net.supply, state.net.idx.totals
        worths = []
        for card in cards:
            if card is None:
                continue
            worth = known.get(card)
            if worth is not None:
                worths.append(worth)
                continue
            held = hand.get(card, 0)
            counts = all_counts[card]
            if card == UP:
                size = -self._next_up_number(game)
            else:
                left = supply[card]
                growth = min(6, left) * 0.5
                size = totals[card] - left + 1 + int(growth)  # on the board, + 1, + growth
            mine = counts[seat]
            if card == UP:  # 1.0 + _gain(held + 1) - _gain(held), the same sums of the same numbers
                holdings = (mine, mine + held, mine + held + 1)
                base, now, then = map(sum, zip(union_pacific_amounts_of(-size, counts, seat, holdings),
                                               union_pacific_amounts_of(UP_LAST, counts, seat, holdings),
                                               strict=True))
                worth = 1.0 + (then - base) / 2 - (now - base) / 2
            else:  # _gain(held + 1) - _gain(held) + 0.2: the payouts at mine + held cancel out
                now, then = company_amounts_of(size, counts, seat, (mine + held, mine + held + 1))
                worth = then - now + 0.2
            known[card] = worth
            worths.append(worth)
        return worths

    def _soon(self, game: UnionPacificGame) -> float:
        """Rough chance that the next dividend comes before my next turn: about 0.8 draws per player per round
        against the draws expected before it (``draws_before_next_dividend``, the builds so far standing in for
        the draws when the deck cannot be counted, UP-V3)."""
        est = self.est
        state = game._state
        # what the answer depends on: the draws and dividends seen with a countable deck, otherwise the builds
        # and the payouts (the rest of what it reads is fixed per game), so it is remembered by those
        if game.options["countable_deck"]:
            inputs = (state.share_draws, state.dividends_drawn)
        else:
            inputs = (est.builds, len(state.payouts))
        soon = est.soon_memo.get(inputs)
        if soon is None:
            if est.piles is UNKNOWN:  # fixed for the whole game: laid out once
                est.piles = deck_piles(game)
            expected = draws_before(game, est.piles, est.builds)  # type: ignore[arg-type]
            soon = est.soon_memo[inputs] = min(1.0, 0.8 * len(game.players) / max(expected, 0.5))
        return soon

    # choosing ---------------------------------------------------------------------------
    def choose(self, game: UnionPacificGame | UPView, player: Any) -> Any:
        """The move: ``choose(view, legal)`` from the seat's view (a ``Player``), or ``choose(game, player)``
        (a ``Bot``, for games played out inside a search); the same move either way."""
        if isinstance(game, UPView):
            action = self._from_view(game, player, self._choose)
            return next((a for a in player if a == action), action)  # the caller's own object of that move
        return self._deciding(game, self._choose, player)

    def _from_view(self, view: UPView, legal: Sequence[Any], work: Callable[..., Any]) -> Any:
        """``work(game, player, legal)`` on a game dealt from ``view`` (``sampling.seat_game``): its hidden parts
        are made up, and nothing here reads them; the answer is the same as on the game the view came from."""
        player = view.you
        if player is None:
            raise ValueError("a spectator's view has no seat to choose for")
        game = seat_game(view)
        return self._deciding(game, lambda g, p: work(g, p, legal), player)

    def _choose(self, game: UnionPacificGame, player: str, legal: Sequence[Any] | None = None) -> Any:
        state = game._state
        if state.step == "action" and not state.is_over and player == state.players[state.turn_index]:
            return self._choose_action_step(game, player)
        actions = game.legal_actions(player) if legal is None else list(legal)
        action = self._choose_among(game, player, actions)
        if any(map(is_, actions, repeat(action))):  # one of the legal moves now: ``apply`` of it skips ``check``
            game._legal_draw(action)
        return action

    def _choose_among(self, game: UnionPacificGame, player: str, actions: list[Any]) -> Any:
        if len(actions) == 1:
            return actions[0]
        step = game._state.step
        if step == "first_share":
            hand = game._state.share_hand[player]
            firsts = [a for a in actions if isinstance(a, ChooseFirstShare)]
            return max(firsts, key=lambda a: (hand[a.card] * (1 if a.card != UP else 0.9), self.rng.random()))
        if step == "draw":
            return self._choose_draw(game, player, actions)
        if step == "exchange":
            return self._choose_exchange(game, player, actions)
        return self._choose_turn(game, player, actions)

    def _draw_worth(self, game: UnionPacificGame, me: str, a: DrawShare) -> float:
        if a.source == "deck":
            return 0.8  # an unknown share, usually a small help
        if a.source == "up":
            return self._share_worth(game, me, UP)
        return self._share_worth(game, me, game._state.display[int(a.source[-1])])  # type: ignore[arg-type]

    def _choose_draw(self, game: UnionPacificGame, me: str, actions: list[Any]) -> Any:
        # each draw's worth as _draw_worth has it, the known shares' worked out together
        display = game._state.display
        cards = [None if a.source == "deck" else UP if a.source == "up" else display[int(a.source[-1])]
                 for a in actions]
        known = iter(self._share_worths(game, me, cards))
        worths = [0.8 if card is None else next(known) for card in cards]
        noise = self.rng.random
        # one draw per move, in list order, breaks ties: the largest (worth, draw), the first if equal
        keys = [(worth, noise()) for worth in worths]
        return actions[max(range(len(actions)), key=keys.__getitem__)]

    END_TURN_MARGIN = 1.0  # an exchange must gain this much over keeping the share

    def _choose_exchange(self, game: UnionPacificGame, me: str, actions: list[Any]) -> Any:
        swaps = [a for a in actions if isinstance(a, ExchangeForUP) and a.card != UP]
        up, *losses = self._share_worths(game, me, [UP, *(a.card for a in swaps)])
        best: Any = actions[0]  # EndTurn
        margin = self.END_TURN_MARGIN
        for a, loss in zip(swaps, losses, strict=True):
            if up - loss > margin:
                best, margin = a, up - loss
        return best

    def _rarity(self, game: UnionPacificGame, card: str) -> float:
        """How hard another card of this kind is to draw, from the deck's split (UP-C4): 1 for the
        rarest kind (the 4 general cards), 4/14 for the most common (plains on the shipped board)."""
        known = self._rarities.get((game.board, card))
        if known is None:
            deck = game.board.track_deck
            rarest = min((n for n in deck.values() if n), default=1)
            known = self._rarities[game.board, card] = rarest / max(deck.get(card, 0), rarest)
        return known

    def _spend(self, game: UnionPacificGame) -> dict[str, float]:
        """What spending each kind of track card on a build costs: 0.7 × its rarity squared (0.7 for a general
        card, little for a common type), per board (the last board's kept)."""
        board, spend = self._spends
        if board is not game.board:
            spend = {card: 0.7 * self._rarity(game, card) ** 2 for card in game.board.track_deck}
            self._spends = (game.board, spend)
        return spend

    def _track_keep(self, game: UnionPacificGame, me: str, card: str,
                    stakes: dict[str, float] | None = None) -> float:
        """How much I want to keep a track card (higher = keep); ``stakes``: ``_stake`` per company, if known."""
        if card == GENERAL:
            return 100.0
        score = 0.2 * self._rarity(game, card)
        net = game._state.net
        for key in game.company_order:
            if net.mask_for(key, card):  # the same as "sections_for is not empty", without the list
                score += max(0.0, stakes[key] if stakes is not None else self._stake(game, me, key)) + 0.1
        return score

    def _track_keeps(self, game: UnionPacificGame, cards: set[str], stakes: dict[str, float]) -> dict[str, float]:
        """``_track_keep`` of each of ``cards``, with the stakes known: the open sections per company found
        once for all the cards."""
        net = game._state.net
        supply, frontier, free, type_mask = net.supply, net.frontier, net.free_mask, net.idx.type_mask
        # the companies that may build (UP-B2f), with where and what keeping a card for them adds
        open_ = [(frontier[key] & free, max(0.0, stakes[key]) + 0.1) for key in game.company_order if supply[key] > 0]
        keeps = {}
        for card in cards:
            if card == GENERAL:
                keeps[card] = 100.0
                continue
            score = 0.2 * self._rarity(game, card)
            usable = type_mask.get(card, 0)
            for mask, more in open_:
                if mask & usable:
                    score += more
            keeps[card] = score
        return keeps

    def _choose_turn(self, game: UnionPacificGame, me: str, actions: list[Any]) -> Any:
        for a in actions:
            if isinstance(a, DiscardUnusable):
                return a  # a dead card for a fresh one is free
        builds = [a for a in actions if isinstance(a, Build)]
        invests = [a for a in actions if isinstance(a, Invest)]
        if not builds and not invests:
            passes = [a for a in actions if isinstance(a, Pass)]
            return min(passes, key=lambda a: self._track_keep(game, me, a.discard))
        scored_builds, scored_invests = self._turn_scores(game, me, builds, invests, self.rng.random)
        best_build, build_score = max(scored_builds, key=lambda bs: bs[1], default=(None, float("-inf")))
        best_invest, invest_score = max(scored_invests, key=lambda bs: bs[1], default=(None, float("-inf")))
        if best_build is None or (best_invest is not None and invest_score >= build_score):
            return best_invest
        return best_build

    def _choose_action_step(self, game: UnionPacificGame, me: str) -> Any:
        """``_choose_turn`` over ``legal_actions``, the same choice and the same random draws, without making
        the moves: the builds are scored per (card, company) from their count, noise drawn for each in list
        order; only the move chosen is made (one of the legal moves now: ``apply`` of it skips ``check``)."""
        moves = ActionStepMoves(game._state, game._cache, me)
        if len(moves) <= 1 or moves.discards:
            return game._legal_draw(moves[0])  # the only move; or the first discard of a dead card, free
        track = moves.track
        if not moves.n_builds and not moves.n_choices:
            keeps = [self._track_keep(game, me, d) for d in track]
            return game._legal_draw(moves[keeps.index(min(keeps))])  # the first pass that keeps the most
        soon = self._soon(game)
        left = self._payouts_left(game)
        stakes = self._stakes(game, me)
        draw_bonus = max(
            [0.8, *self._share_worths(game, me, game._state.display)]
        )
        after_build = draw_bonus * (1.0 - 0.5 * soon)  # a build also draws a share (UP-B3)
        best_build, build_score = -1, float("-inf")
        # spending a rare card costs more: 0.7 for a general card, little for a common type
        spend = self._spend(game)
        # One random draw per build, in list order, breaks ties between builds; only the groups (one card, one
        # company) that may win are scored, the draws of the others are skipped: ``getrandbits(64 * n)`` moves
        # the generator on exactly as n draws do (a draw takes two 32-bit words), so later draws stay the same.
        noise, skip = self.rng.random, self.rng.getrandbits
        groups = moves.builds
        drawn = 0  # the draws made or skipped so far
        if groups:
            fixeds = [stakes[key] * left - spend[card] for _count, card, key, _mask in groups]
            # A draw adds less than 0.05, so a group whose part without it is 0.06 under the largest can
            # neither beat nor tie the group that has it: only the others are scored, in list order.
            floor = max(fixeds) - 0.06
            ends = list(accumulate(map(itemgetter(0), groups)))  # where each group's draws end
            for i in compress(range(len(groups)), map(floor.__lt__, fixeds)):
                fixed, end = fixeds[i], ends[i]
                at = end - groups[i][0]
                if at > drawn:
                    skip(64 * (at - drawn))
                draws = list(starmap(noise, repeat((), end - at)))  # noise() per build, called from C
                drawn = end
                # The score grows with the draw (a draw is < 1): a group that cannot beat the best so far is
                # skipped; otherwise its best is the largest draw's score, at the first draw that scores as
                # much (a smaller draw may round to the same score), as a scan in list order finds it.
                if best_build < 0 or fixed + 0.05 + after_build > build_score:
                    top = max(draws)
                    first = draws.index(top)
                    score = fixed + top * 0.05 + after_build
                    if first and fixed + max(draws[:first]) * 0.05 + after_build == score:
                        first = next(j for j, d in enumerate(draws) if fixed + d * 0.05 + after_build == score)
                    if best_build < 0 or score > build_score:
                        best_build, build_score = at + first, score
        if moves.n_builds > drawn:
            skip(64 * (moves.n_builds - drawn))
        best_invest, invest_score = -1, float("-inf")
        gains = self._hand_gains(game, me, moves.hand) if moves.hand else []  # per share choice (moves.invests)
        if gains:
            weight = self.INVEST_BASE + self.SOON_WEIGHT * soon
            later = 1 + self.LATER_PAYOUTS * (left - 1)
            # An investment scores its gain * weight * later less what keeping its discard is worth (never
            # below 0); when even the largest gain without that cannot reach the best build, the build wins
            # and the discards need not be valued (rounding is monotonic: the bound holds for the floats).
            if best_build >= 0 and weight > 0 and later > 0 and max(gains) * weight * later < build_score:
                return game._legal_draw(moves[best_build])
            keep = self._track_keeps(game, set(track), stakes)
            i = moves.n_builds
            for d in track:
                kept = 0.01 * keep.get(d, 0)
                for gain in gains:
                    score = gain * weight * later - kept
                    if best_invest < 0 or score > invest_score:
                        best_invest, invest_score = i, score
                    i += 1
        if best_build < 0 or (best_invest >= 0 and invest_score >= build_score):
            return game._legal_draw(moves[best_invest])
        return game._legal_draw(moves[best_build])

    def _invest_gain(self, game: UnionPacificGame, me: str, cards: tuple[str, ...]) -> float:
        """What laying ``cards`` on the table gains me at one payout."""
        return sum(self._gain(game, me, k, cards.count(k)) for k in set(cards))

    def _hand_gains(self, game: UnionPacificGame, me: str, hand: dict[str, int]) -> list[float]:
        """``_invest_gain`` of every share choice of ``hand`` (UP-I1), in ``invest_choices``' order, without
        listing the choices: per company (sorted) 1..n of its shares, then one share of it with one of each later
        company. The gains per company and number of shares are kept in the seat's estimates."""
        est = self.est
        seat = est.seat_of[me]
        known, counts = est.seat(seat, me, game).gains, est.counts
        net = game._state.net
        totals, supply = net.idx.totals, net.supply
        up_size = -self._next_up_number(game)
        gain_of = self._gain_of
        keys = sorted(hand)
        by_key = []
        for key in keys:
            by_extra = known.get(key)
            if by_extra is None:
                by_extra = known[key] = {}
            size = up_size if key == UP else totals[key] - supply[key] + 1  # UP's payout number, or the value
            by_key.append((by_extra, size, counts[key]))
        ones = []  # the gain of one more share of each company
        for by_extra, size, held in by_key:
            gain = by_extra.get(1)
            if gain is None:
                gain = by_extra[1] = gain_of(seat, size, 1, held)
            ones.append(gain)
        gains = []
        for i, key in enumerate(keys):
            by_extra, size, held = by_key[i]
            for extra in range(1, hand[key] + 1):
                gain = by_extra.get(extra)
                if gain is None:
                    gain = by_extra[extra] = gain_of(seat, size, extra, held)
                gains.append(gain)
            one = 0.0 + ones[i]  # a pair's gain: 0.0 + the first's + the second's, as _invest_gain sums it
            gains.extend([one + other for other in ones[i + 1:]])
        return gains

    def _turn_scores(self, game: UnionPacificGame, me: str, builds: list[Build], invests: list[Invest],
                     noise: Callable[[], float]) -> tuple[list[tuple[Build, float]], list[tuple[Invest, float]]]:
        """Each build and each investment with its score (``noise()`` breaks ties between builds)."""
        soon = self._soon(game)
        left = self._payouts_left(game)
        stakes = {key: self._stake(game, me, key) for key in game.company_order}
        draw_bonus = max(
            [0.8, *self._share_worths(game, me, game._state.display)]
        )
        after_build = draw_bonus * (1.0 - 0.5 * soon)  # a build also draws a share (UP-B3)
        scored_builds: list[tuple[Build, float]] = []
        # Per (company, card) the part of the score without noise, once per call (the sum is made in the
        # same order as for one build: stake - rarity, + noise, + the draw).
        base: dict[tuple[str, str], float] = {}
        for b in builds:
            pair = (b.company, b.card)
            fixed = base.get(pair)
            if fixed is None:
                # spending a rare card costs more: 0.7 for a general card, little for a common type
                fixed = base[pair] = stakes[b.company] * left - 0.7 * self._rarity(game, b.card) ** 2
            scored_builds.append((b, fixed + noise() * 0.05 + after_build))
        scored_invests: list[tuple[Invest, float]] = []
        if invests:
            keep = {c: self._track_keep(game, me, c, stakes) for c in game._state.track_hand[me]}
            by_cards: dict[tuple[str, ...], float] = {}
            for a in invests:
                if a.cards not in by_cards:
                    by_cards[a.cards] = self._invest_gain(game, me, a.cards)
            for a in invests:
                s = (by_cards[a.cards] * (self.INVEST_BASE + self.SOON_WEIGHT * soon)
                     * (1 + self.LATER_PAYOUTS * (left - 1)) - 0.01 * keep.get(a.discard, 0))
                scored_invests.append((a, s))
        return scored_builds, scored_invests

    # judging -------------------------------------------------------------------------------
    def scores(self, game: UnionPacificGame | UPView, player: Any) -> list[tuple[Any, float]]:
        """Every legal move of ``player`` now with how much this player values it (higher is better), by
        the same estimates as ``choose`` without its random tie-breaks. Scores compare moves of one
        step only. Used to review a learner's moves (``railkit.unionpacific.review``). ``scores(view, legal)``
        scores the seat's legal moves from its view."""
        if isinstance(game, UPView):
            return self._from_view(game, player, self._scores)  # type: ignore[no-any-return]
        return self._deciding(game, self._scores, player)  # type: ignore[no-any-return]

    def _scores(self, game: UnionPacificGame, player: str,
                legal: Sequence[Any] | None = None) -> list[tuple[Any, float]]:
        actions: list[Any] = list(game.legal_actions(player) if legal is None else legal)
        step = game._state.step
        if step == "first_share":
            hand = game._state.share_hand[player]
            return [(a, hand[a.card] * (1 if a.card != UP else 0.9)) for a in actions]
        if step == "draw":
            return [(a, self._draw_worth(game, player, a)) for a in actions]
        if step == "exchange":
            up = self._share_worth(game, player, UP)

            def exchange_worth(a: Any) -> float:
                if isinstance(a, EndTurn):
                    return self.END_TURN_MARGIN
                return up - self._share_worth(game, player, a.card) if a.card != UP else 0.0

            return [(a, exchange_worth(a)) for a in actions]
        builds = [a for a in actions if isinstance(a, Build)]
        invests = [a for a in actions if isinstance(a, Invest)]
        scored: list[tuple[Any, float]] = []
        if builds or invests:
            scored_builds, scored_invests = self._turn_scores(game, player, builds, invests, lambda: 0.0)
            scored = [*scored_builds, *scored_invests]
        top = max((s for _, s in scored), default=0.0)
        for a in actions:
            if isinstance(a, DiscardUnusable):
                scored.append((a, top + 1.0))  # a dead card for a fresh one is free (UP-T2): always first
            elif isinstance(a, Pass):
                scored.append((a, -self._track_keep(game, player, a.discard)))
        return scored
