"""Checking Union Pacific actions: every rule an action can break, with the rule ID.

A mixin of ``UnionPacificGame``. Checks only read the state; ``apply`` performs an
action only after its check passed, so a rejected action leaves the game untouched.
"""

from __future__ import annotations

from typing import Any, Callable

from railkit.errors import GameOverError, NotYourTurnError, RuleError
from railkit.unionpacific.actions import (
    ACTIONS,
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
)
from railkit.unionpacific.placement import placement_error

__all__ = ["Checks", "DISPLAY_SOURCES"]

DISPLAY_SOURCES = tuple(f"display:{i}" for i in range(4))  # UP-S6: four display slots


class Checks:
    """``check`` and its per-action helpers (state lives on the game)."""

    players: tuple[str, ...]
    options: dict[str, Any]
    step: str
    over: bool
    turn_index: int
    t2_used: bool
    first_choices: dict[str, str]
    share_hand: dict[str, dict[str, int]]
    track_hand: dict[str, dict[str, int]]
    display: list[str | None]
    deck: list[str]
    up_stack: int
    net: Any
    board: Any

    # -- checks (never change the state) ----------------------------------------------------
    def check(self, action: Any) -> None:
        checker = self._CHECKS.get(type(action))
        if checker is None:
            raise RuleError("UP-T3", f"{action!r} is not a Union Pacific action; use one of {', '.join(ACTIONS.names())}")
        if self.over:
            raise self._over_error()
        player = action.player
        if not isinstance(player, str) or player not in self.track_hand:
            raise RuleError("UP-S8", f"{player!r} is not playing; players are {', '.join(self.players)}")
        if self.step == "first_share":
            if type(action) is not ChooseFirstShare:
                raise RuleError("UP-S5", "first every player chooses a first share from hand (ChooseFirstShare)")
        elif player != self.players[self.turn_index]:
            raise NotYourTurnError("UP-S8", f"it is {self.players[self.turn_index]}'s turn, not {player}'s; wait for your turn")
        checker(self, action)

    def _over_error(self) -> RuleError:
        return GameOverError("UP-D12", "the game is over; no more actions")

    def _need_step(self, step: str, rule: str, what: str) -> None:
        if self.step != step:
            raise RuleError(rule, f"{what}; now {self._step_words()}")

    def _step_words(self) -> str:
        return {
            "first_share": "every player chooses a first share",
            "action": "build, invest or pass (UP-T3), optionally after discarding an unusable track card (UP-T2)",
            "draw": "draw a share (UP-B3)",
            "exchange": "exchange a share for UP (UP-B4) or end the turn (UP-B6)",
        }.get(self.step, "the game is over")

    def _need_track(self, player: str, card: Any, rule: str) -> None:
        if not isinstance(card, str) or card not in self.track_hand[player]:
            held = ", ".join(sorted(self.track_hand[player])) or "none"
            raise RuleError(rule, f"{player} has no {card!r} track card; track cards in hand: {held}")

    def _need_share(self, player: str, card: Any, rule: str, n: int = 1) -> None:
        if not isinstance(card, str) or self.share_hand[player].get(card, 0) < n:
            held = ", ".join(f"{k}×{v}" for k, v in sorted(self.share_hand[player].items())) or "none"
            what = f"{n} shares" if n > 1 else "a share"
            raise RuleError(rule, f"{player} does not hold {what} of {card!r} in hand; shares in hand: {held}")

    def _check_first(self, a: ChooseFirstShare) -> None:
        self._need_step("first_share", "UP-S5", "the first shares have already been chosen")
        if a.player in self.first_choices:
            raise RuleError("UP-S5", f"{a.player} has already chosen a first share; wait for the others")
        self._need_share(a.player, a.card, "UP-S5")

    def _check_discard_unusable(self, a: DiscardUnusable) -> None:
        self._need_step("action", "UP-T2", "an unusable track card may only be swapped at the start of a turn")
        if self.t2_used:
            raise RuleError("UP-T2", "only one unusable track card may be swapped per turn; now build, invest or pass")
        self._need_track(a.player, a.card, "UP-T2")
        if self.net.usable(a.card):
            raise RuleError("UP-T2", f"a {a.card} card is still usable: some {a.card} section has an empty neutral space; keep it")

    def _check_build(self, a: Build) -> None:
        self._need_step("action", "UP-T3", "you may build only once, at the start of your turn")
        self._need_track(a.player, a.card, "UP-B1")
        if not isinstance(a.company, str) or not isinstance(a.section, str):
            raise RuleError("UP-B2", "name the company by its key and the section by its id (text)")
        if not self.net.is_legal(a.company, a.section, a.card):
            err = placement_error(self.board, self.net.trains_on, self.net.supply, a.company, a.section, a.card)
            # The fast index and placement.py agree (tested); this fallback only guards typos.
            raise err or RuleError("UP-B2", f"a {a.company} train may not go on {a.section} now")

    def _check_draw(self, a: DrawShare) -> None:
        self._need_step("draw", "UP-B3", "a share is drawn only after building")
        src = a.source
        if src in DISPLAY_SOURCES:
            if self.display[int(src[-1])] is None:
                raise RuleError("UP-B3", f"display slot {src[-1]} is empty; take another display card or the top of the deck")
        elif src == "deck":
            if not self.deck:
                raise RuleError("UP-B3", "the share deck is empty; take a display card")
        elif src == "up":
            if not self.options["direct_up_draw"]:
                raise RuleError("UP-B3-FI", "UP shares may not be drawn directly in this game; take a display card or the deck top (then exchange, UP-B4)")
            if not self.up_stack:
                raise RuleError("UP-B3", "the UP stack is empty; take a display card or the deck top")
        else:
            raise RuleError("UP-B3", f"unknown source {src!r}; use display:0..display:3, deck or up")

    def _check_exchange(self, a: ExchangeForUP) -> None:
        self._need_step("exchange", "UP-B4", "a share may be exchanged for UP only after drawing in a build turn")
        if not self.up_stack:
            raise RuleError("UP-B4", "the UP stack is empty; end the turn instead")
        self._need_share(a.player, a.card, "UP-B4")

    def _check_end_turn(self, a: EndTurn) -> None:
        self._need_step("exchange", "UP-B6", "a turn ends by itself after investing or passing; after building, draw a share first")

    def _check_invest(self, a: Invest) -> None:
        self._need_step("action", "UP-T3", "you may invest only instead of building, at the start of your turn")
        cards = a.cards
        if not isinstance(cards, tuple) or not cards or not all(isinstance(c, str) for c in cards):
            raise RuleError("UP-I1", "invest at least one share: any number of one company, or one each of two companies")
        kinds = set(cards)
        if len(kinds) > 2 or (len(kinds) == 2 and len(cards) != 2):
            raise RuleError("UP-I1", f"{list(cards)} mixes companies; play any number of ONE company, or exactly one share each of TWO companies")
        for card in kinds:
            self._need_share(a.player, card, "UP-I1", cards.count(card))
        self._need_track(a.player, a.discard, "UP-I3")

    def _check_pass(self, a: Pass) -> None:
        self._need_step("action", "UP-T4", "passing replaces building or investing")
        if self.share_hand[a.player]:
            raise RuleError("UP-T4", "you hold shares, so you can invest; passing is only for a player who can neither build nor invest")
        if self.net.any_build(self.track_hand[a.player]):
            raise RuleError("UP-T4", "one of your track cards can place a train; build instead of passing")
        self._need_track(a.player, a.discard, "UP-T4")

    _CHECKS: dict[type, Callable[[Any, Any], None]] = {
        ChooseFirstShare: _check_first,
        DiscardUnusable: _check_discard_unusable,
        Build: _check_build,
        DrawShare: _check_draw,
        ExchangeForUP: _check_exchange,
        EndTurn: _check_end_turn,
        Invest: _check_invest,
        Pass: _check_pass,
    }
