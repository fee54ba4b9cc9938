"""The Vom Kap bis Kairo engine: auction and track building alternate until someone crosses
eight terrains (KK-E1) or the game stalls (KK-B8).

The action log is the game (see ``railkit.game.Game``): setup shuffles the deck with
``random.Random(seed)``; every later reshuffle uses the same generator, in a fixed order.
The game holds a fixed ``KKTable`` and a mutable ``KKState`` (``state.py``); the rules are
functions over them: checks in ``checks.py``, changes in ``perform.py``, views, the state
dict and the result in ``views.py``, words and the status card in ``describe.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from railkit.brief import brief
from railkit.capecairo import checks, moves, perform, views
from railkit.capecairo.actions import Bid, Build, KKAction, Pass, registry
from railkit.capecairo.checks import TRACK_PRICE, BuildNumbers
from railkit.capecairo.deck import DECK_SIZE, Card, cards_by_id
from railkit.capecairo.describe import describe_action, status_card
from railkit.capecairo.explain import BuildExplanation, explain_build
from railkit.capecairo.perform import BONUS_CAP, START_MONEY
from railkit.capecairo.state import KKState, KKTable
from railkit.errors import RuleError
from railkit.game import Game, Outcome
from railkit.messages import N_, Grouped, Message

WIN_CROSSINGS = 8  # KK-E1
OPTION_DEFAULTS: dict[str, Any] = {
    "deck": None,  # path of a deck file (KK-C4); None: the shipped data/cape_to_cairo/deck.json
    "win_crossings": WIN_CROSSINGS,  # KK-E1; fewer makes a short teaching game
    "river_bonus_for_builder": True,  # KK-R1 DECISION
    "stack": None,  # card ids laid on top of the shuffled deck, first turned up first (lessons, tests)
}
COLOURS = ("red", "yellow", "green", "blue")  # KK-C1: one train and tender per colour


class CapeToCairoGame(Game[KKAction]):
    GAME = "cape_to_cairo"
    TITLE = "Vom Kap bis Kairo"
    PLAYER_RANGE = (2, 4)
    PLAYER_RULE = "KK-S1"
    OPTIONS_RULE = "KK-S1"
    ACTIONS_RULE = "KK"
    OPTION_DEFAULTS = OPTION_DEFAULTS
    FILE_OPTIONS = ("deck",)
    registry = registry
    VIEW = views.KKView
    SEALED = {"bid": ("amount",)}  # KK-A2: a bid is sealed until every player has handed one in

    table: KKTable  # what never changes: seating, colours, the shared cards, the options
    _state: KKState  # everything that changes (the live state: only the engine reads it directly)

    @property
    def state(self) -> KKState:
        """The whole state, as a copy: changing it changes nothing in the game (only ``apply`` does)."""
        return self._state.copy()

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return check_options(options)

    def _setup(self) -> None:
        options = self.options
        self.table = KKTable(
            players=self.players,
            cards=cards_by_id(options["deck"]),
            colours=dict(zip(self.players, COLOURS, strict=False)),  # KK-C1
            seat={p: i for i, p in enumerate(self.players)},
            win_crossings=options["win_crossings"],
            river_bonus_for_builder=options["river_bonus_for_builder"],
        )
        self._state = perform.setup(self.table, self.rng, options["stack"], self._narrative)

    # -- the Game interface -----------------------------------------------------------------
    @property
    def phase(self) -> str:
        """bid | choose | build | over"""
        return self._state.phase

    @property
    def is_over(self) -> bool:
        return self._state.phase == "over"  # asked before every move: one step shorter than via phase

    @property
    def current_player(self) -> str | None:
        return checks.current_player(self.table, self._state)

    def players_to_act(self) -> tuple[str, ...]:
        return checks.players_to_act(self.table, self._state)

    def _game_over_rule(self) -> str:
        return self._state.end_reason or "KK-E1"

    def _simultaneous(self) -> bool:
        return self._state.phase == "bid"  # KK-A2: sealed bids are handed in at once

    def _turn_rule(self) -> str:
        return "KK-A4" if self._state.phase == "choose" else "KK-B3"

    def _turn_task(self) -> Message | None:
        if self._state.phase == "choose":
            return Message(N_("choose a terrain card (KK-A4)"))
        return Message(N_("build or pass (KK-B3)")) if self._state.phase == "build" else None

    def _check_rules(self, action: KKAction) -> None:
        checks.check(self.table, self._state, action)

    def legal_actions(self, player: str | None = None) -> list[KKAction]:
        return moves.legal_actions(self.table, self._state, player)

    def random_action(self, player: str, rng: random.Random) -> KKAction:
        state = self._state
        if state.phase == "bid":  # a uniform pick from legal_actions, without listing 100 bids
            bid = _made(Bid, player, rng.randint(0, state.money[player]))
            return self._legal_draw(bid) if player not in state.bids else bid
        if state.phase == "build" and player == state.turn:
            # legal_actions lists Pass, then a Build per purchase: the same draw over their count
            buys = checks.build_numbers(self.table, state, player).buy_options()
            pick = rng.choice(range(1 + len(buys)))
            return self._legal_draw(_made(Pass, player) if pick == 0 else _made(Build, player, buys[pick - 1]))
        return self._legal_draw(rng.choice(self.legal_actions(player)))

    def _perform(self, action: KKAction) -> list[str]:
        return perform.perform(self.table, self._state, action)

    def result(self) -> Outcome:
        return views.result(self.table, self._state)

    def view(self, player: str | None) -> views.KKView:
        self._check_seat(player)
        return views.view(self.table, self._state, player, self.GAME, len(self._log), self.options["deck"])

    def sealed_from(self) -> int:
        """KK-A2: the bids of the open auction (one per player who handed one in, the latest ones in the log) stay
        sealed until every player has bid; all bids before them were opened."""
        waiting = len(self._state.bids)
        index = len(self._log)
        while waiting and index > 0:
            index -= 1
            if isinstance(self._log[index], Bid):
                waiting -= 1
        return index

    def state_dict(self) -> dict[str, Any]:
        """Everything, hidden parts included, as JSON types (for tests and debugging)."""
        options = dict(self.options)
        if options["stack"] is not None:
            options["stack"] = list(options["stack"])
        return {"players": list(self.players), "seed": self.seed, "options": options,
                **views.state_dict(self._state), "actions": len(self._log), "narrative_length": len(self._narrative)}

    def describe(self, action: KKAction) -> Message:
        """``action`` in plain words (a sealed bid's amount stays hidden, KK-A2)."""
        return describe_action(self.table, action)

    def copy(self) -> CapeToCairoGame:
        """An independent game in the same state, without replaying: the table and the cards
        are shared (they never change), the state, log and narrative are copied."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)  # the same attributes; then every mutable one replaced
        new._state = self._state.copy()
        new.rng = new._state.rng
        new._log = list(self._log)
        new._narrative = list(self._narrative)
        new.options = dict(self.options)
        return new

    __copy__ = copy  # copy.copy(game) is independent too; copy.deepcopy and pickle work as usual

    def _repr_html_(self) -> str:
        return status_card(self.table, self._state, self.TITLE, len(self._log))

    # -- helpers for explanations, bots and the UI -------------------------------------------
    def build_numbers(self, player: str) -> BuildNumbers:
        return checks.build_numbers(self.table, self._state, player)

    def explain_build(self, player: str | None = None) -> BuildExplanation:
        return explain_build(self, player)

    def card(self, card_id: str) -> Card:
        return self.table.cards[card_id]

    def left_of(self, player: str) -> str:
        """The next player in seating order: the turn passes to the left (KK-B3)."""
        return self.table.left_of(player)


_MADE: dict[tuple[Any, ...], KKAction] = {}  # (action class, its fields) -> the one action object made for them


def _made(kind: Callable[..., KKAction], *fields: Any) -> KKAction:
    """``kind(*fields)``, made once and shared after that (actions are frozen, equal by their fields: a log that
    holds one object twice is the same log); ``random_action`` draws tens of them a game."""
    key = (kind, *fields)
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= 4096:
            _MADE.clear()
        made = _MADE[key] = kind(*fields)
    return made


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options, checked: a wrong type is a ``TypeError``, a value the rules forbid a
    ``RuleError`` naming the rule. ``stack`` becomes a tuple (options never change)."""
    win = options["win_crossings"]
    if isinstance(win, bool) or not isinstance(win, int):
        raise TypeError(Message(N_("win_crossings must be a whole number, not {found}"), {"found": type(win).__name__}))
    if not 1 <= win <= WIN_CROSSINGS:
        raise RuleError("KK-E1", Message("win_crossings must be from 1 to {most} (the eighth crossing wins a full "
                                         "game), not {value}", {"most": WIN_CROSSINGS, "value": brief(win)}))
    if not isinstance(options["river_bonus_for_builder"], bool):
        raise TypeError(Message(N_("river_bonus_for_builder must be True or False, not {found}"),
                                {"found": type(options["river_bonus_for_builder"]).__name__}))
    deck = options["deck"]
    if deck is not None and not isinstance(deck, str):
        raise TypeError(Message(N_("deck must be the path of a deck file (text), not {found}"),
                                {"found": type(deck).__name__}))
    stack = options["stack"]
    if stack is not None:
        if not isinstance(stack, (list, tuple)) or not all(isinstance(c, str) for c in stack):
            raise TypeError(Message(N_("stack must be a list of card ids (texts)")))
        if len(stack) > DECK_SIZE:
            raise RuleError("KK-S1", Message("stack lists {cards} cards; the deck holds only {size} (KK-C2)",
                                             {"cards": Grouped(len(stack)), "size": DECK_SIZE}))
        if len(set(stack)) != len(stack):
            raise RuleError("KK-S1", Message("stack names a card twice; each card is in the deck once"))
        options = {**options, "stack": tuple(stack)}
    return dict(options)


def new_game(players: int | Sequence[str], seed: int = 0, **options: Any) -> CapeToCairoGame:
    """A new game: ``players`` is 2-4 names or a count; options: ``deck``, ``win_crossings``,
    ``river_bonus_for_builder``, ``stack`` (see ``OPTION_DEFAULTS``)."""
    return CapeToCairoGame(players, seed=seed, **options)


def load_game(save: str | bytes | Mapping[str, Any]) -> CapeToCairoGame:
    """Rebuild a saved game (``to_json()`` text or ``to_dict()``) by replaying its log;
    ``SaveFileError`` in plain words when it cannot be read."""
    return CapeToCairoGame.load(save)


__all__ = ["BONUS_CAP", "CapeToCairoGame", "START_MONEY", "TRACK_PRICE", "WIN_CROSSINGS", "check_options",
           "load_game", "new_game"]
