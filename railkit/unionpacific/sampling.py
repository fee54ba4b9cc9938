"""Games dealt from one seat's view: everything the seat sees kept, everything hidden dealt again at random.

A computer player that looks ahead needs whole games to try its moves in, but it may know only its seat's
``UPView``. ``deal(view, rng)`` builds such a game from the view alone (so it cannot hold more than the seat
knows): the board, the trains, the tables, the display, the UP stack, the payouts, the money and the seat's own
hand as the view shows them; the other hands, the track pile and the share deck dealt from the cards nobody at
the table can see, in the sizes the view gives (UP-I2: hands are secret, their sizes are not).

What is hidden, and how it is dealt again:

* **Track cards** (UP-S2): the 40 cards less the discards (played face up, UP-B1) and the seat's own hand are
  shuffled into the other hands (by their sizes) and the draw pile (by its count).
* **Shares** (UP-S3, UP-S4, UP-B3): the company shares not on a table, in the display or in the seat's hand,
  and the UP shares not on a table, in the stack or in the seat's hand. UP shares only ever leave the stack
  into a hand (UP-B3, UP-B4), so the unseen ones are dealt into the other hands; the company shares are dealt
  into the rest of the other hands, the share deck, the safe-round reserve (UP-V2) and the box. The shares the
  table saw go into a hand and not leave it (``view.known_shares``: from the display or the UP stack, the UP
  share of UP-S3) are in that hand in every game dealt; only the rest of each hand is dealt at random.
* **The share deck** (UP-S7, UP-S7-FI, UP-V1): its layout is public (``sharedeck.deck_layout``): which piles
  hold how many dividend cards. The cards drawn so far are counted with a countable deck (UP-V3, the view's
  ``share_draws``), otherwise estimated from the public draws (a build draws one share, UP-B3; a dividend card
  met is one more), as a player at the table would; the rest of the piles is dealt again, each remaining
  dividend card somewhere in its own pile. While the game goes on the deck is never empty (an empty deck ends
  it, DECISION in ``dividends.settle``).
* **Sealed choices**: other players' first shares (UP-S5) are not dealt: in the game dealt they are still to
  choose. The seat's own choice is kept.

A dealt game has no history (its log starts empty) and its own random generator (drawn from ``rng``): the
track pile's later reshuffles (UP-S2) are as unknown as everything else. ``Dealer`` does the work that does not
depend on the draw once (the trains are placed again from the view), then deals many games fast.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import fields

from railkit.brief import brief
from railkit.errors import RuleError
from railkit.unionpacific.actions import DiscardUnusable, DrawShare
from railkit.unionpacific.board import Board, load_board
from railkit.unionpacific.game import UnionPacificGame
from railkit.unionpacific.moves import MoveCache
from railkit.unionpacific.network import Network
from railkit.unionpacific.sharedeck import DIVIDEND, deck_layout, safe_round_reserve_size
from railkit.unionpacific.state import DISPLAY, HAND_SHARES, UP, UP_SHARES, PayoutRecord, UPState
from railkit.unionpacific.views import UPOptions, UPView

__all__ = ["Dealer", "deal", "network_of", "seat_game"]

_BOARDS: dict[str | None, Board] = {}  # board file -> the board, read once per process
_CACHES: dict[tuple[int, tuple[str, ...]], MoveCache] = {}  # (board, players) -> the action objects, shared


def _board(path: str | None) -> Board:
    board = _BOARDS.get(path)
    if board is None:
        if len(_BOARDS) > 8:
            _BOARDS.clear()
        board = _BOARDS[path] = load_board(path)
    return board


def deal(view: UPView, rng: random.Random) -> UnionPacificGame:
    """A game consistent with ``view`` (a seat's, ``view.you`` set): see the module docstring."""
    return Dealer(view).deal(rng)


def seat_game(view: UPView) -> UnionPacificGame:
    """A game dealt from ``view`` with a fixed generator: for a player that reads only its own hand and the
    public parts, which are the view's own (``HeuristicBot`` asked with a view decides on it)."""
    return Dealer(view).deal(random.Random(0))


def network_of(board: Board, trains_on: Mapping[str, Sequence[str]]) -> Network:
    """The trains of a view placed again on a fresh board: each company's trains outward from its headquarters,
    in an order UP-B2e allows (the network's caches grow from the cities already reached), then every section's
    trains in the view's order."""
    net = Network(board)
    start = {sid: list(keys) for sid, keys in net.trains_on.items()}
    pending: dict[str, list[str]] = {}
    for sid, keys in trains_on.items():
        if sid not in start:
            raise ValueError(f"the view names a section the board does not have: {brief(sid)}")
        extra = Counter(keys)
        extra.subtract(start[sid])
        for key, count in extra.items():
            if count < 0:
                raise ValueError(f"the view leaves out a starting train on {sid!r} (UP-S1)")
            pending.setdefault(key, []).extend([sid] * count)
    ends = net.idx.ends
    index = net.idx.index
    for key, sids in pending.items():
        if key not in net.reach:
            raise ValueError(f"the view names a company the board does not have: {brief(key)}")
        left = list(sids)
        while left:
            reach = net.reach[key]
            placed = [sid for sid in left if ends[index[sid]][0] in reach or ends[index[sid]][1] in reach]
            if not placed:
                raise ValueError(f"{key} trains on the view's board do not link to its headquarters (UP-B2e)")
            for sid in placed:
                net.place(key, sid)
                left.remove(sid)
    for sid, keys in trains_on.items():
        net.trains_on[sid] = list(keys)
    return net


class Dealer:
    """Deals games consistent with one seat's view; the parts every game dealt shares are worked out once."""

    def __init__(self, view: UPView) -> None:
        if not isinstance(view, UPView):
            raise TypeError(f"a Union Pacific view is needed, not {type(view).__name__}")
        if view.you is None:
            raise ValueError("a spectator's view has no seat to deal for; use a player's view")
        if view.hand is None:
            raise ValueError("the view holds no hand")
        self.view = view
        options = {f.name: getattr(view.options, f.name) for f in fields(UPOptions)}
        self.board = board = _board(options["board"])
        self.options = options
        players = view.players
        self.cache = _CACHES.setdefault((id(board), players), MoveCache())
        if len(_CACHES) > 64:
            _CACHES.clear()
            self.cache = _CACHES[(id(board), players)] = MoveCache()
        self.net = network_of(board, view.trains_on)
        self._base = self._base_state()
        # what every deal starts from, worked out once per view
        self._track = self._unseen_track()
        companies, ups = self._unseen_shares()
        self._known, self._companies, self._ups = self._known_hands(companies, ups)
        self._piles = self._deck_piles(self._deck_size())
        self._reserve = self._reserve_size()
        self._draws = self._draws_so_far()

    # -- what every game dealt shares ----------------------------------------------------
    def _base_state(self) -> UPState:
        view = self.view
        you = view.you
        assert you is not None and view.hand is not None
        players = view.players
        over = view.is_over
        step = "over" if over else view.phase
        money = dict(view.money)
        if len(money) < len(players):  # UP-D13 hidden money: a player's money is what the payouts paid them
            paid: dict[str, int] = {}
            for payout in view.payouts:
                for holder, amount in payout.amounts.items():
                    paid[holder] = paid.get(holder, 0) + amount
            money = {**{p: paid.get(p, 0) for p in players}, **money}
        payouts = [PayoutRecord(p.number, p.drawer, p.reason, dict(p.values),
                                {k: dict(v) for k, v in p.holdings.items()}, dict(p.amounts), ())
                   for p in view.payouts]
        current = view.current_player
        turn_index = players.index(current) if current is not None and step != "first_share" else 0
        first = {you: view.my_first_share} if view.my_first_share is not None else {}
        t2_used = view.t2_used
        if step == "action" and current == you:  # the legal moves say it too (UP-T2)
            t2_used = t2_used and not any(isinstance(a, DiscardUnusable) for a in view.legal_actions)
        return UPState(
            players=players,
            options=dict(self.options),
            max_payouts=view.payouts_total,
            rng=random.Random(0),
            net=self.net,
            track_hand={p: {} for p in players},
            track_pile=[],
            track_discards=list(view.track_discards),
            share_hand={p: {} for p in players},
            known_shares={p: dict(cards) for p, cards in (view.known_shares or {}).items()},
            up_stack=view.up_stack,
            display=list(view.display) if view.display is not None else [None] * DISPLAY,
            deck=[],
            reserve=[],
            box=[],
            table={p: dict(view.tables.get(p, {})) for p in players},
            money=money,
            payouts=payouts,
            imaginary=None if view.imaginary is None else dict(view.imaginary),
            under_deck=0,
            dividends_drawn=len(view.payouts),
            pending_payouts=0,
            share_draws=0,
            first_choices=first,
            step=step,
            turn_index=turn_index,
            turn_number=view.turn_number,
            t2_used=t2_used,
            is_over=over,
            end_reason=view.end_reason,
        )

    def _unseen_track(self) -> list[str]:
        view = self.view
        assert view.hand is not None
        unseen = Counter(dict(self.board.track_deck))
        unseen.subtract(view.track_discards)
        unseen.subtract(dict(view.hand.track))
        return sorted(unseen.elements())

    def _unseen_shares(self) -> tuple[list[str], int]:
        """The company shares nobody at the table sees (a sorted list) and the number of unseen UP shares."""
        view = self.view
        assert view.hand is not None
        unseen = Counter({c.key: c.shares for c in self.board.companies})
        ups = UP_SHARES - view.up_stack
        for table in view.tables.values():
            ups -= table.get(UP, 0)
            unseen.subtract({k: n for k, n in table.items() if k != UP})
        if view.imaginary is not None:
            ups -= view.imaginary.get(UP, 0)
            unseen.subtract({k: n for k, n in view.imaginary.items() if k != UP})
        unseen.subtract([c for c in view.display or () if c is not None])
        hand = dict(view.hand.shares)
        ups -= hand.pop(UP, 0)
        unseen.subtract(hand)
        return sorted(unseen.elements()), max(0, ups)

    def _known_hands(self, companies: list[str], ups: int) -> tuple[dict[str, dict[str, int]], list[str], int]:
        """The other players' shares the table has seen in their hands (``view.known_shares``), and the unseen
        company shares and UP shares left once those are taken out; no more than the unseen cards and the hand's
        size allow (a view that says more than it can is read as far as it can be)."""
        view = self.view
        unseen = Counter(companies)
        known: dict[str, dict[str, int]] = {}
        for p, cards in (view.known_shares or {}).items():
            if p == view.you or p not in view.hand_sizes:
                continue
            room = view.hand_sizes[p]["shares"]
            hand: dict[str, int] = {}
            for card, n in sorted(cards.items()):
                left = ups if card == UP else unseen[card]
                n = min(n, left, room)
                if n <= 0:
                    continue
                hand[card] = n
                room -= n
                if card == UP:
                    ups -= n
                else:
                    unseen[card] -= n
            known[p] = hand
        return known, sorted(unseen.elements()), ups

    def _draws_so_far(self) -> int:
        """Cards that have left the share deck: counted with UP-V3, else estimated from the public draws (each
        build draws a share, UP-B3, from the deck or the display refilled from it; each dividend card met is one
        more, UP-D1), as a player who may not count the deck would."""
        view = self.view
        if view.share_draws is not None:
            return view.share_draws
        builds = sum(self.net.on_board(k) for k in self.net.idx.company_order) - _starting_trains(self.board)
        return max(0, builds) + len(view.payouts)

    def _deck_piles(self, size: int) -> list[tuple[int, int]]:
        """The share deck's rest as piles (cards, dividend cards), top first, ``size`` cards in all (UP-S7)."""
        view, options = self.view, self.options
        n = len(view.players)
        initial = sum(c.shares for c in self.board.companies) - HAND_SHARES * n - DISPLAY
        try:
            layout = deck_layout(options["deck"], initial, n, options["safe_round"])
        except RuleError:
            layout = ()
        dividends_left = max(0, 4 - len(view.payouts)) if not view.is_over else 0
        piles = [[p.size, p.dividends] for p in layout]
        # cut the drawn cards off the top
        drawn = sum(p[0] for p in piles) - size
        while piles and drawn > 0:
            take = min(drawn, piles[0][0])
            piles[0][0] -= take
            drawn -= take
            if piles[0][0] == 0:
                piles.pop(0)
        if drawn < 0 or not piles:  # more cards than the layout holds (UP-V2, UP-V4 put some back): on top
            piles.insert(0, [size - sum(p[0] for p in piles), 0])
        # the dividend cards still to come are the last ones of the layout
        need = dividends_left
        for pile in reversed(piles):
            pile[1] = min(pile[1], need, pile[0])
            need -= pile[1]
        if need > 0:  # the estimate cut off piles that still hold dividend cards: into the top pile
            piles[0][1] = min(piles[0][0], piles[0][1] + need)
        return [(cards, dividends) for cards, dividends in piles if cards > 0]

    def _deck_size(self) -> int:
        view = self.view
        if view.is_over:
            return 0
        if view.deck_count is not None:
            size = view.deck_count
        else:
            n = len(view.players)
            initial = sum(c.shares for c in self.board.companies) - HAND_SHARES * n - DISPLAY
            reserve = safe_round_reserve_size(n, self.options["safe_round"])
            size = initial - reserve + 4 - self._draws_so_far()
        if view.phase == "draw" and view.current_player == view.you:  # the legal draws say whether it is empty
            if not any(isinstance(a, DrawShare) and a.source == "deck" for a in view.legal_actions):
                return 0
        return max(1, size)  # while the game goes on the deck is not empty (DECISION in dividends.settle)

    def _reserve_size(self) -> int:
        if not self.options["safe_round"] or self.view.is_over:
            return 0
        n = len(self.view.players)
        return max(0, safe_round_reserve_size(n, True) - n * len(self.view.payouts))

    # -- dealing -------------------------------------------------------------------------
    def deal(self, rng: random.Random) -> UnionPacificGame:
        """One game consistent with the view, its hidden parts dealt with ``rng``."""
        view, base = self.view, self._base
        you = view.you
        assert you is not None and view.hand is not None
        state = base.copy()
        state.rng = random.Random(rng.getrandbits(64))
        others = [p for p in view.players if p != you]
        sizes = {p: view.hand_sizes[p] for p in others}
        # track cards (UP-S2)
        track = list(self._track)
        rng.shuffle(track)
        state.track_hand[you] = dict(view.hand.track)
        for p in others:
            hand: dict[str, int] = {}
            for _ in range(min(sizes[p]["track"], len(track))):
                card = track.pop()
                hand[card] = hand.get(card, 0) + 1
            state.track_hand[p] = hand
        state.track_pile = track[: view.track_pile_count] if view.track_pile_count < len(track) else track
        # shares (UP-S3, UP-S4, UP-B3)
        companies, ups = list(self._companies), self._ups
        rng.shuffle(companies)
        state.share_hand[you] = dict(view.hand.shares)
        known = self._known
        slots = [p for p in others for _ in range(sizes[p]["shares"] - sum(known.get(p, {}).values()))]
        rng.shuffle(slots)
        hands: dict[str, dict[str, int]] = {p: dict(known.get(p, {})) for p in others}
        for p in slots[:ups]:
            hands[p][UP] = hands[p].get(UP, 0) + 1
        for p in slots[ups:]:
            if not companies:
                break
            card = companies.pop()
            hands[p][card] = hands[p].get(card, 0) + 1
        state.share_hand.update(hands)
        if view.display is None and not view.is_over:  # UP-S6: dealt, face down until the first shares are shown
            state.display = [companies.pop() if companies else None for _ in range(DISPLAY)]
        deck: list[str] = []
        for cards, dividends in self._piles:
            pile = [DIVIDEND] * dividends + [companies.pop() for _ in range(min(cards - dividends, len(companies)))]
            rng.shuffle(pile)
            deck.extend(pile)
        state.deck = deck
        state.reserve = [companies.pop() for _ in range(min(self._reserve, len(companies)))]
        state.box = companies + [DIVIDEND] * len(view.payouts)
        state.share_draws = self._draws
        game = UnionPacificGame.dealt(view.players, state.options, state.rng)
        game.board = self.board
        game._state = state
        game.options = state.options
        game._cache = self.cache
        return game


def _starting_trains(board: Board) -> int:
    return sum(len(s.starting) for s in board.sections.values())

