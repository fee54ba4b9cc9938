"""What a Union Pacific bot can work out from what its player may know (UP-S7, UP-V1..V4): how far the next
dividend is, the payouts of holdings it counted itself (UP-D3..D11), and the estimates the ``HeuristicBot``s
of one game keep between their decisions (worked out again only where the moves since touched them).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterable

from railkit.errors import RuleError
from railkit.unionpacific.actions import Build, ChooseFirstShare, Invest
from railkit.unionpacific.board import Board
from railkit.unionpacific.game import UnionPacificGame
from railkit.unionpacific.network import Network
from railkit.unionpacific.payouts import UP_TABLE
from railkit.unionpacific.sharedeck import Pile, deck_layout
from railkit.unionpacific.state import UP

__all__ = ["Estimates", "SeatEstimates", "company_amounts_of", "company_stake", "deck_piles", "draws_before",
           "draws_before_next_dividend", "estimates_of", "union_pacific_amounts_of", "UNKNOWN", "UP_LAST"]


# -- what a player can know about the next dividend --------------------------------------
def _initial_deck_cards(game: UnionPacificGame) -> int:
    """Company shares that went into the share deck at setup (public: it follows from the rules)."""
    total = sum(c.shares for c in game.board.companies)
    return total - 4 * len(game.players) - 4  # UP-S4 hands and the UP-S6 display


def _deck_layout(option: str, remaining_cards: int, players: int, safe_round: bool) -> tuple[Pile, ...]:
    """``deck_layout``, remembered (a pure function of a few numbers, asked at every decision)."""
    try:
        return _remembered_layout(option, remaining_cards, players, safe_round)
    except TypeError:  # an option that cannot be a key
        return deck_layout(option, remaining_cards, players, safe_round)


_remembered_layout = functools.lru_cache(maxsize=64)(deck_layout)


def draws_before_next_dividend(game: UnionPacificGame, known_draws: int | None = None) -> float:
    """Expected share-deck draws before the next dividend card, from public knowledge.

    Uses the deck layout (which pile holds which dividend) and the number of cards that
    have left the deck: exact with a countable deck (UP-V3), otherwise ``known_draws``
    (an estimate the caller supplies, e.g. the number of builds so far; without one the
    true count is used, which only a lesson about the deck should do). Cards the safe
    round (UP-V2) or UP-V4 put back are ignored: it is an estimate.
    """
    return draws_before(game, deck_piles(game), known_draws)


def deck_piles(game: UnionPacificGame) -> tuple[Pile, ...] | None:
    """The share deck's piles as laid out at setup (UP-S7), or None for a board whose deck cannot be laid out."""
    opts = game.options
    try:
        return _deck_layout(opts["deck"], _initial_deck_cards(game), len(game.players), opts["safe_round"])
    except RuleError:
        return None


def draws_before(game: UnionPacificGame, piles: tuple[Pile, ...] | None, known_draws: int | None) -> float:
    """``draws_before_next_dividend`` with the deck's piles known."""
    if piles is None:  # an unusual board: fall back to "somewhere in what is left"
        return 20.0
    opts = game.options
    drawn = game._state.share_draws if opts["countable_deck"] or known_draws is None else known_draws
    seen = game._state.dividends_drawn if opts["countable_deck"] else len(game._state.payouts)
    # Walk the piles top-down to the one holding the next (seen+1)-th dividend card.
    above, count = 0, 0
    for pile in piles:
        if count + pile.dividends > seen:
            start, size = above, pile.size
            left_in_pile = start + size - max(drawn, start)
            left_divs = count + pile.dividends - seen
            before_pile = max(0, start - drawn)
            return before_pile + max(0, left_in_pile) / (left_divs + 1)
        above += pile.size
        count += pile.dividends
    return 0.0


# -- payouts of holdings the bot counted itself ------------------------------------------
# ``company_payout`` and ``union_pacific_payout`` check their input and work on dicts; the bot's estimates ask
# for tens of thousands of payouts a game, on tuples of holdings per seat (whole numbers ≥ 0), and only
# differences of them. These give the same amounts (tests/unionpacific/test_up_payouts.py compares them on
# every small table), without checks or dicts.
def company_amounts_of(value: int, counts: tuple[int, ...], seat: int, holdings: Iterable[int]) -> list[int]:
    """``company_payout`` (UP-D3..D6) to ``seat`` when it holds each of ``holdings`` in turn, the other seats
    holding ``counts``: their largest holdings found once, ``seat``'s place among them per holding."""
    others = counts[:seat] + counts[seat + 1:]
    ranked = sorted(others, reverse=True)  # a few seats: one C call finds the largest and the next
    top = ranked[0]
    n_top = others.count(top)
    below = ranked[n_top] if n_top < len(ranked) else 0  # the largest holding under the top one
    half = value // 2  # UP-D3
    amounts = []
    for mine in holdings:
        if not mine:
            amounts.append(0)
        elif mine > top:  # sole primary; secondary too when nobody else holds any (UP-D4)
            amounts.append(value if top else value + half)
        elif mine == top:  # tied for most: primary and secondary pooled (UP-D5)
            amounts.append((value + half) // (n_top + 1))
        elif n_top > 1 or mine < below:  # others tied for most take both, or someone else is secondary
            amounts.append(0)
        elif mine > below:  # sole secondary
            amounts.append(half)
        else:  # tied secondaries split the secondary amount (UP-D6)
            amounts.append(half // (others.count(below) + 1))
    return amounts


def company_stake(value: int, counts: tuple[int, ...], seat: int, hand: int) -> float:
    """What one more train (``value`` -> ``value + 1``) adds to ``seat``'s payout once it has laid its ``hand``
    shares down too, less 0.6 × the most it adds to another seat's payout now (UP-D3..D6: who is primary or
    secondary does not depend on the value, so a role's rise is a difference of two amounts)."""
    up = value + 1
    half_rise = up // 2 - value // 2  # what the secondary amount (half the value, UP-D3) rises by
    mine_now = counts[seat]
    # the largest rise of another seat, from the roles they hold now (UP-D3..D6)
    ranked = sorted(counts, reverse=True)  # a few seats: one C call finds the largest and the next
    best = ranked[0]
    others_rise = 0
    if best:
        if ranked[1] == best:  # tied for most (never only me)
            n_best = counts.count(best)
            others_rise = (up + up // 2) // n_best - (value + value // 2) // n_best
        else:
            second = ranked[1]
            if mine_now != best:
                others_rise = 1 if second else 1 + half_rise
            if second:
                n_second = counts.count(second)
                if n_second > (mine_now == second):
                    rise = up // 2 // n_second - value // 2 // n_second
                    if rise > others_rise:
                        others_rise = rise
    # my rise holding mine_now + hand, the others as they are
    mine = mine_now + hand
    if not mine:
        return -0.6 * others_rise
    others = counts[:seat] + counts[seat + 1:]
    ranked = sorted(others, reverse=True)
    top = ranked[0]
    if mine > top:
        rise = 1 if top else 1 + half_rise
    elif mine == top:
        n = others.count(top) + 1
        rise = (up + up // 2) // n - (value + value // 2) // n
    else:
        n_top = others.count(top)
        if n_top > 1:
            rise = 0
        else:
            below = ranked[1] if len(ranked) > 1 else 0
            if mine < below:
                rise = 0
            elif mine == below:
                n = others.count(below) + 1
                rise = up // 2 // n - value // 2 // n
            else:
                rise = half_rise
    return rise - 0.6 * others_rise


def union_pacific_amounts_of(number: int, counts: tuple[int, ...], seat: int, holdings: Iterable[int]) -> list[int]:
    """``union_pacific_payout`` (UP-D9..D11) to ``seat`` when it holds each of ``holdings`` in turn, the other
    seats holding ``counts``: its position is the number of seats holding more; a tie splits its positions."""
    row = UP_TABLE[number]
    others = counts[:seat] + counts[seat + 1:]
    amounts = []
    for mine in holdings:
        if not mine:
            amounts.append(0)
            continue
        position = len([n for n in others if n > mine])
        tied = others.count(mine) + 1
        amounts.append(sum(row[position:position + tied]) // tied)  # past the 5th position: 0 (UP-D10)
    return amounts


# -- the heuristic player ----------------------------------------------------------------
UP_LAST = max(UP_TABLE)  # the last (largest) column of UP's payout table


UNKNOWN = object()  # not worked out yet


class SeatEstimates:
    """One seat's estimates as last worked out: stakes per company, share worths per card, invest gains per
    card and number of shares; and what they were worked out from (the moves seen, the hand, UP's payout
    number), so that only what the moves since then touched is worked out again."""

    __slots__ = ("at", "gains", "hand", "number", "pos", "stakes", "stale", "worths")

    def __init__(self) -> None:
        self.at = -1  # the log length when last brought up to date
        self.pos = 0  # how much of ``Estimates.touched`` had been seen then
        self.hand: dict[str, int] = {}
        self.number = 0
        self.stakes: dict[str, float] | None = None
        self.stale: set[str] = set()  # companies whose stake is out of date
        self.worths: dict[str, float] = {}
        self.gains: dict[str, dict[int, float]] = {}


class Estimates:
    """What the HeuristicBots of one game know between their decisions, kept up to date from the moves.

    Only ``apply`` changes a game, and it logs every move, so the moves logged since the last decision say
    what changed: a build changes its company's value and supply, an investment (and the first shares,
    UP-S5) the holdings on the table, a payout UP's payout number; a seat's hand is compared with what it
    was. The holdings per company are counted once and updated per investment; each seat's estimates
    (``SeatEstimates``) are worked out again only for the companies touched. Every bot of the game reads
    the same estimates (they depend on the seat, never on the bot). Per game, not per process, so that a
    game costs the same whatever was played before it.
    """

    __slots__ = ("builds", "counts", "keys", "log", "piles", "seat_of", "seats", "seen", "soon_memo", "touched")

    def __init__(self, game: UnionPacificGame) -> None:
        self.soon_memo: dict[tuple[int, ...], float] = {}
        self.piles: object = UNKNOWN  # the share deck's piles (``deck_piles``), once asked
        self.keys = (*game.company_order, UP)
        self.seat_of = {p: i for i, p in enumerate(game.players)}
        self._start(game)

    def _start(self, game: UnionPacificGame) -> None:
        self.log = game._log
        self.seen = len(game._log)
        # every build puts one train on the board and none ever leaves it: the builds so far are the trains
        # placed since the start (UP-S1), which a game dealt from a view (no history) knows as well
        net = game._state.net
        self.builds = sum(net.on_board(k) for k in net.idx.company_order) - _starting_trains(net)
        self.touched: list[str] = []  # the companies (and UP) each move since the start touched, in order
        self.seats = [SeatEstimates() for _ in game.players]
        self._count(game)

    def _count(self, game: UnionPacificGame) -> None:
        """The table shares per company (and UP) per seat, from the state."""
        table = game._state.table
        keys = self.keys
        zeros = (0,) * len(keys)
        self.counts: dict[str, tuple[int, ...]] = dict(
            zip(keys, zip(*[map(table[p].get, keys, zeros) for p in game.players], strict=True), strict=True))

    def sync(self, game: UnionPacificGame) -> None:
        """Take in the moves logged since the last call."""
        log = game._log
        if log is not self.log or len(log) < self.seen:  # not the log followed so far: start again
            self._start(game)
            return
        if len(log) == self.seen:
            return
        counts, touched, recount = self.counts, self.touched, False
        for a in log[self.seen:]:
            if isinstance(a, Build):
                self.builds += 1
                touched.append(a.company)
            elif isinstance(a, Invest):
                seat = self.seat_of[a.player]
                for card in a.cards:
                    held = list(counts[card])
                    held[seat] += 1
                    counts[card] = tuple(held)
                    touched.append(card)
            elif isinstance(a, ChooseFirstShare):
                recount = True  # the last first share puts every first share on the table (UP-S5)
        if recount:
            self._count(game)
            touched.extend(self.keys)
        self.seen = len(log)

    def seat(self, seat: int, player: str, game: UnionPacificGame) -> SeatEstimates:
        """``seat``'s estimates, with those the moves since it last looked touched forgotten (stakes marked
        stale)."""
        mine = self.seats[seat]
        if mine.at == self.seen:
            return mine
        mine.at = self.seen
        touched = self.touched
        dirty = set(touched[mine.pos:])
        mine.pos = len(touched)
        state = game._state
        hand = state.share_hand[player]
        if hand != mine.hand:
            # the (card, count) pairs in one hand only: their cards changed (a card kept at 0 in one hand and
            # missing from the other is marked too, which only works its estimates out again)
            dirty.update(dict(hand.items() ^ mine.hand.items()))  # their cards, as a dict's keys
            mine.hand = dict(hand)
        number = min(len(state.payouts) + 1, UP_LAST)
        if number != mine.number:
            dirty.add(UP)
            mine.number = number
        worths, gains = mine.worths, mine.gains
        for key in dirty:
            worths.pop(key, None)
            gains.pop(key, None)
        mine.stale |= dirty
        return mine


def _starting_trains(net: Network) -> int:
    """The trains on the board at the start (UP-S1), per board."""
    board = net.idx.board
    count = _STARTING.get(board)
    if count is None:
        count = _STARTING[board] = sum(len(s.starting) for s in board.sections.values())
    return count


_STARTING: weakref.WeakKeyDictionary[Board, int] = weakref.WeakKeyDictionary()
_GAME_ESTIMATES: weakref.WeakKeyDictionary[UnionPacificGame, Estimates] = weakref.WeakKeyDictionary()


def estimates_of(game: UnionPacificGame) -> Estimates:
    """The estimates the bots of ``game`` share, brought up to date with its log."""
    est = _GAME_ESTIMATES.get(game)
    if est is None:
        est = _GAME_ESTIMATES[game] = Estimates(game)
    else:
        est.sync(game)
    return est
