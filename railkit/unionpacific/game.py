"""The Union Pacific game: setup and turn flow; what each action does.

The action log is the game (``railkit.game.Game``): ``apply`` checks an action against
the rules (``checks.py``: raising ``RuleError`` and changing nothing), then performs it
(here). Share-deck draws and payouts live in ``dividends.py``, the legal-action lists in
``moves.py``, what players may see in ``views.py``, the options in ``options.py`` and the
fast placement index in ``network.py``.

Steps of play (``self.step``):
``first_share`` (UP-S5, everyone at once) → per turn ``action`` (UP-T2 optional discard,
then build, invest or pass) → after a build ``draw`` (UP-B3) → ``exchange`` (UP-B4, or
end the turn) → the next player's turn starts with the automatic track draw (UP-T1).
The game ends after the last payout (``over``).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from railkit.errors import RuleError
from railkit.game import Game
from railkit.unionpacific.actions import (
    ACTIONS,
    UPAction,
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
)
from railkit.unionpacific.board import GENERAL, Board, load_board
from railkit.unionpacific.checks import Checks
from railkit.unionpacific.dividends import IMAGINARY, UP, DeckAndDividends, PayoutRecord
from railkit.unionpacific.moves import Moves, invest_choices
from railkit.unionpacific.network import Network, board_companies
from railkit.unionpacific.options import OPTION_DEFAULTS, validate_options
from railkit.unionpacific.sharedeck import build_share_deck
from railkit.unionpacific.views import Views

__all__ = ["OPTION_DEFAULTS", "UP_SHARES", "UnionPacificGame", "invest_choices", "new_game", "validate_options"]

UP_SHARES = 20  # UP-C1
HAND_TRACK = 3  # UP-S2
HAND_SHARES = 4  # UP-S4
DISPLAY = 4  # UP-S6


def _take(counts: dict[str, int], card: str, n: int = 1) -> None:
    left = counts[card] - n
    if left:
        counts[card] = left
    else:
        del counts[card]


def _put(counts: dict[str, int], card: str, n: int = 1) -> None:
    counts[card] = counts.get(card, 0) + n


class UnionPacificGame(Checks, Moves, DeckAndDividends, Views, Game[UPAction]):
    """A game of Union Pacific for 2–6 players. Build it with ``new_game``."""

    GAME = "union_pacific"
    TITLE = "Union Pacific"
    PLAYER_RANGE = (2, 6)
    PLAYER_RULE = "UP-S8"
    OPTIONS_RULE = "UP-V"
    OPTION_DEFAULTS = OPTION_DEFAULTS
    registry = ACTIONS

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return validate_options(options)

    # -- setup (UP-S1..S8); the random generator is used in this fixed order ---------------
    def _setup(self) -> None:
        if len(self.players) == 2 and IMAGINARY in self.players:
            raise RuleError("UP-2P2", f"{IMAGINARY!r} is the name of the imaginary shareholder; pick another name")
        self.board: Board = load_board(self.options["board"])
        board, rng, n = self.board, self.rng, len(self.players)
        companies = board_companies(board)
        self.company_order = tuple(c.key for c in companies)  # UP-D8 summary-card order
        self.company_names = {c.key: c.name for c in companies}
        self.company_names[UP] = "Union Pacific"
        self.net = Network(board)  # UP-S1: starting trains placed, the rest is the supply
        self.max_payouts = 3 if n == 2 else 4  # UP-2P1 / UP-D12
        # Speed caches of immutable action objects (see legal_actions); not game state.
        self._actions: dict[tuple[Any, ...], Any] = {}
        self._build_lists: dict[tuple[str, str, str], tuple[int, list[Build]]] = {}
        self._invest_lists: dict[tuple[Any, ...], dict[str, list[Any]]] = {}
        self._invest_memo: dict[tuple[Any, ...], Invest] = {}
        self._build_memo: dict[tuple[str, str, str, int], Build] = {}
        # UP-S2: shuffle the 40 track cards, deal three each; the rest is the draw pile.
        track = [t for t, count in board.track_deck.items() for _ in range(count)]
        rng.shuffle(track)
        self.track_hand: dict[str, dict[str, int]] = {p: {} for p in self.players}
        for p in self.players:
            for _ in range(HAND_TRACK):
                _put(self.track_hand[p], track.pop())
        self.track_pile: list[str] = track  # top = last
        self.track_discards: list[str] = []
        # UP-S3: one UP share each; the rest is the UP stack.
        self.share_hand: dict[str, dict[str, int]] = {p: {UP: 1} for p in self.players}
        self.up_stack = UP_SHARES - n
        # UP-S4: shuffle the company shares and deal four each.
        shares = [c.key for c in companies for _ in range(c.shares)]
        rng.shuffle(shares)
        for p in self.players:
            for _ in range(HAND_SHARES):
                _put(self.share_hand[p], shares.pop())
        # UP-S6: four shares face up; UP-B5 applies from the start.
        removed: list[str] = []
        self.display: list[str | None] = [shares.pop() for _ in range(DISPLAY)]
        while len(set(self.display)) == 1 and len(shares) >= DISPLAY:
            removed += self.display  # type: ignore[arg-type]
            self.display = [shares.pop() for _ in range(DISPLAY)]
        # UP-S7 / UP-S7-FI / UP-V1 (+ UP-V2 reserve): the share deck, index 0 = top.
        self.deck, self.reserve = build_share_deck(
            shares, rng, self.options["deck"], players=n, safe_round=self.options["safe_round"]
        )
        self.box: list[str] = []
        if self.options["removed_to_bottom"]:
            self.deck.extend(removed)  # UP-V4
        else:
            self.box.extend(removed)
        self.table: dict[str, dict[str, int]] = {p: {} for p in self.players}
        self.money: dict[str, int] = {p: 0 for p in self.players}  # DECISION: no starting money
        self.payouts: list[PayoutRecord] = []
        self.imaginary: dict[str, int] | None = None
        self.dividends_drawn = 0
        self.pending_payouts = 0
        self.share_draws = 0  # cards that have left the share deck (public when counted, UP-V3)
        self.first_choices: dict[str, str] = {}
        self.step = "first_share"
        self.turn_index = 0  # UP-S8: players[0] starts, then seat order
        self.turn_number = 0
        self.t2_used = False
        self.over = False
        self.end_reason: str | None = None
        if removed:
            self._narrative.append(f"Setup: the first display was four cards of one company; replaced (UP-B5).")
        self._narrative.append(
            f"Setup for {n} players: three track cards and five shares each (one UP); "
            f"display {self._display_words()}. Everyone now chooses a first share (UP-S5)."
        )

    # -- Game interface --------------------------------------------------------------------
    @property
    def current_player(self) -> str | None:
        if self.over:
            return None
        if self.step == "first_share":
            for p in self.players:
                if p not in self.first_choices:
                    return p
        return self.players[self.turn_index]

    def players_to_act(self) -> tuple[str, ...]:
        if self.over:
            return ()
        if self.step == "first_share":
            return tuple(p for p in self.players if p not in self.first_choices)
        return (self.players[self.turn_index],)

    @property
    def phase(self) -> str:
        return "over" if self.over else self.step

    def _game_over_rule(self) -> str:
        return "UP-D12"

    def describe(self, action: UPAction) -> str:
        """``action`` in plain words (hidden cards stay hidden: a first share is not named)."""
        p = action.player
        if isinstance(action, ChooseFirstShare):
            return f"{p} chooses a first share (UP-S5)"
        if isinstance(action, DiscardUnusable):
            return f"{p} discards an unusable {action.card} card (UP-T2)"
        if isinstance(action, Build):
            s = self.board.sections[action.section]
            return f"{p} plays a {action.card} card to build a {self.company_names[action.company]} train on {s.a}–{s.b} (UP-B1)"
        if isinstance(action, DrawShare):
            where = {"deck": "the top of the share deck", "up": "the UP stack"}.get(action.source, "the display")
            return f"{p} takes a share from {where} (UP-B3)"
        if isinstance(action, ExchangeForUP):
            return f"{p} exchanges a {self._card_name(action.card)} share for a UP share (UP-B4)"
        if isinstance(action, EndTurn):
            return f"{p} ends the turn (UP-B6)"
        if isinstance(action, Invest):
            laid = ", ".join(f"{action.cards.count(k)} {self._card_name(k)}" for k in dict.fromkeys(action.cards))
            return f"{p} invests {laid} and discards a {action.discard} card (UP-I1)"
        if isinstance(action, Pass):
            return f"{p} passes, discarding a {action.discard} card (UP-T4)"
        raise TypeError(f"{action!r} is not a Union Pacific action")

    # -- performing (only after check) ------------------------------------------------------
    def _perform(self, action: Any) -> list[str]:
        events: list[str] = []
        self._PERFORMS[type(action)](self, action, events)
        return events

    def _do_first(self, a: ChooseFirstShare, events: list[str]) -> None:
        self.first_choices[a.player] = a.card
        events.append(f"{a.player} has chosen a first share (face down, UP-S5).")
        if len(self.first_choices) < len(self.players):
            return
        for p in self.players:  # UP-S5: revealed together
            card = self.first_choices[p]
            _take(self.share_hand[p], card)
            _put(self.table[p], card)
        shown = ", ".join(f"{p}: {self._card_name(self.first_choices[p])}" for p in self.players)
        events.append(f"First shares revealed together (UP-S5): {shown}.")
        self._start_turn(events)

    def _do_discard_unusable(self, a: DiscardUnusable, events: list[str]) -> None:
        self.t2_used = True
        _take(self.track_hand[a.player], a.card)
        self.track_discards.append(a.card)
        new = self._draw_track(events)
        if new is not None:
            _put(self.track_hand[a.player], new)
        events.append(f"{a.player} discards an unusable {a.card} card and draws a replacement (UP-T2).")

    def _do_build(self, a: Build, events: list[str]) -> None:
        _take(self.track_hand[a.player], a.card)
        self.track_discards.append(a.card)  # UP-B1: face up onto the discard pile
        self.net.place(a.company, a.section)
        s = self.board.sections[a.section]
        events.append(
            f"{a.player} plays a {a.card} card and builds a {self.company_names[a.company]} train on {s.a}–{s.b} "
            f"(UP-B1/B2); {self.company_names[a.company]} is now worth {self.net.on_board(a.company) + 1}."
        )
        self.step = "draw"
        if not self._draw_sources():  # DECISION: nothing left to draw, so the draw is skipped
            events.append(f"No share can be drawn (deck, display and UP stack unavailable); {a.player} skips the draw.")
            self._after_draw(a.player, events)

    def _do_draw(self, a: DrawShare, events: list[str]) -> None:
        p, src = a.player, a.source
        if src == "up":
            self.up_stack -= 1
            _put(self.share_hand[p], UP)
            events.append(f"{p} takes a Union Pacific share from the UP stack (UP-B3).")
        elif src == "deck":
            card = self._deck_card(events, p, "drawing the top card")
            if card is not None:
                _put(self.share_hand[p], card)
                events.append(f"{p} takes the top card of the share deck (UP-B3).")
            else:
                events.append(f"{p} finds no share left in the deck (UP-B3).")
        else:
            slot = int(src[-1])
            card = self.display[slot]
            _put(self.share_hand[p], card)  # type: ignore[arg-type]
            events.append(f"{p} takes {self._card_name(card)} from the display (UP-B3).")
            self._refill(slot, events, p)
        self._settle(events, p)
        if not self.over:
            self._after_draw(p, events)

    def _after_draw(self, player: str, events: list[str]) -> None:
        self.step = "exchange"
        if not self.up_stack or not self.share_hand[player]:  # UP-B4 impossible: the turn just ends
            self._end_turn(events)

    def _do_exchange(self, a: ExchangeForUP, events: list[str]) -> None:
        _take(self.share_hand[a.player], a.card)
        self.up_stack -= 1
        _put(self.share_hand[a.player], UP)
        if self.options["removed_to_bottom"]:
            self.deck.append(a.card)  # UP-V4
            events.append(f"{a.player} exchanges a share for a UP share; the card goes face down under the deck (UP-B4, UP-V4).")
        else:
            self.box.append(a.card)
            events.append(f"{a.player} exchanges a share for a UP share; the card goes face down into the box (UP-B4).")
        self._end_turn(events)

    def _do_end_turn(self, a: EndTurn, events: list[str]) -> None:
        self._end_turn(events)

    def _do_invest(self, a: Invest, events: list[str]) -> None:
        hand, table = self.share_hand[a.player], self.table[a.player]
        for card in a.cards:
            _take(hand, card)
            _put(table, card)
        _take(self.track_hand[a.player], a.discard)
        self.track_discards.append(a.discard)
        laid = ", ".join(f"{a.cards.count(k)} {self._card_name(k)}" for k in dict.fromkeys(a.cards))
        events.append(f"{a.player} invests: {laid} onto the table, and discards a {a.discard} card (UP-I1..I3).")
        self._end_turn(events)

    def _do_pass(self, a: Pass, events: list[str]) -> None:
        _take(self.track_hand[a.player], a.discard)
        self.track_discards.append(a.discard)
        events.append(f"{a.player} can neither build nor invest and passes, discarding a {a.discard} card (UP-T4).")
        self._end_turn(events)

    _PERFORMS: dict[type, Callable[[Any, Any, list[str]], None]] = {
        ChooseFirstShare: _do_first,
        DiscardUnusable: _do_discard_unusable,
        Build: _do_build,
        DrawShare: _do_draw,
        ExchangeForUP: _do_exchange,
        EndTurn: _do_end_turn,
        Invest: _do_invest,
        Pass: _do_pass,
    }

    # -- turn flow ----------------------------------------------------------------------------
    def _end_turn(self, events: list[str]) -> None:
        self.turn_index = (self.turn_index + 1) % len(self.players)  # UP-S8: clockwise
        self._start_turn(events)

    def _start_turn(self, events: list[str]) -> None:
        p = self.players[self.turn_index]
        self.turn_number += 1
        self.step = "action"
        self.t2_used = False
        card = self._draw_track(events)  # UP-T1
        if card is not None:
            _put(self.track_hand[p], card)
        events.append(f"Turn {self.turn_number}: {p} draws a track card (UP-T1).")
        if not any(self.share_hand.values()) and not self.net.any_build((GENERAL,)):
            # DECISION: nobody can ever build or invest again, so nothing can draw the
            # remaining dividend cards; the remaining payouts are paid now.
            events.append("No train can be placed anywhere and no one holds a share: the remaining payouts are paid now (DECISION).")
            self._pay_the_rest(events, "no move left")

    def _draw_track(self, events: list[str]) -> str | None:
        if not self.track_pile and self.track_discards:
            self.track_pile = self.track_discards  # UP-S2: reshuffle the discards
            self.track_discards = []
            self.rng.shuffle(self.track_pile)
            events.append("The track draw pile is empty: the discards are shuffled into a new pile (UP-S2).")
        return self.track_pile.pop() if self.track_pile else None

def new_game(players: int | Sequence[str], seed: int = 0, **options: Any) -> UnionPacificGame:
    """A new game of Union Pacific. ``players``: 2–6, or a list of unique names."""
    return UnionPacificGame(players, seed=seed, **options)
