"""The shape both games share: the action log is the game.

A ``Game`` is built from (players, seed, options) by a deterministic setup; every change
afterwards is an action passed to ``apply``. Saving writes the log; ``load``, ``undo``,
``replay`` and ``copy`` all rebuild the game by applying the log again to a fresh setup
(``copy`` may take a faster route where a game's state copies cheaply).

Each game subclasses ``Game[A]`` with its action union ``A`` and supplies: ``GAME`` (the save
name), ``TITLE``, ``PLAYER_RANGE``/``PLAYER_RULE`` (how many may play), ``registry``
(its actions), ``_check_options``, ``_setup`` and the rule methods below.

Every size that comes from outside is bounded before anything is allocated: the text of a
save (``MAX_SAVE_BYTES``), the number of players and the length of their names
(``MAX_NAME_LENGTH``), the number of moves (``MAX_ACTIONS``), the seed (``MAX_SEED``) and,
in ``railkit.actions``, every field of a move.
"""

from __future__ import annotations

import html
import json
import random
import types
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, ClassVar, Generic, TypeVar, Union, get_args, get_origin, get_type_hints

from railkit.actions import ActionRegistry
from railkit.brief import brief
from railkit.datafiles import DuplicateKeyError, duplicate_key_problem, unique_keys
from railkit.errors import GameOverError, HistoryError, NotYourTurnError, RuleError, SaveFileError
from railkit.messages import N_, QUIET_DEPTH, Deferred, Draft, Grouped, Message, addressed, nmessage, shown

# The learner's own turn errors: "not yours" rather than the learner's name (railkit.messages.addressed).
addressed("it is {current}'s turn, not {player}'s; wait for your turn",
          "it is {current}'s turn, not yours; wait for your turn")
addressed("it is {current}'s turn to {task}, not {player}'s; wait for your turn",
          "it is {current}'s turn to {task}, not yours; wait for your turn")

__all__ = [
    "BaseView",
    "view_from_json",
    "Game",
    "MAX_ACTIONS",
    "MAX_NAME_LENGTH",
    "MAX_SAVE_BYTES",
    "MAX_SEED",
    "Outcome",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SaveFileError",
    "check_seed",
    "normalize_players",
    "not_playing",
    "parse_save",
    "view_json",
]

SAVE_FORMAT = "railkit-game"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 1_000_000  # a finished six-player game saves in about 60 kB
MAX_ACTIONS = 10_000  # a six-player Union Pacific game takes about 400 moves
MAX_NAME_LENGTH = 30  # characters in a player's name
MAX_SEED = 2**63  # seeds are whole numbers in (-MAX_SEED, MAX_SEED)
MAX_OPTION_TEXT = 300  # characters in a text option (a file path)

A = TypeVar("A")
G = TypeVar("G", bound="Game[Any]")


@dataclass(frozen=True, slots=True, kw_only=True)
class BaseView:
    """What one player (``you``) or a spectator (``you is None``) sees: the fields both games have, with
    the same names. Each game's view adds its own; ``to_json`` gives what the table server sends a seat."""

    game: str
    players: tuple[str, ...]
    you: str | None  # whose view this is; None for a spectator
    phase: str  # the step of play (e.g. "bid", "action"); "over" at the end
    current_player: str | None  # who acts next (in a simultaneous step, the first still to act)
    to_act: tuple[str, ...]  # who may act now (several in a simultaneous step)
    log_length: int
    is_over: bool
    end_reason: str | None  # the rule ID that ended the game; None while it goes on
    winners: tuple[str, ...]  # empty until the game is over; several when they share the win

    def to_json(self) -> dict[str, Any]:
        return view_json(self)

    @classmethod
    def from_json(cls: type[V], data: Mapping[str, Any]) -> V:
        """The view a table client received as JSON (``to_json``), typed again, so that the lessons draw a
        seat's view with the same functions as their own game's. Unknown keys are ignored."""
        return view_from_json(cls, data)


V = TypeVar("V", bound=BaseView)


def view_from_json(cls: type[V], data: Mapping[str, Any]) -> V:
    """``BaseView.from_json`` for a view class that reads some fields its own way (a slotted dataclass's
    ``from_json`` cannot call ``super()``): every field typed from its annotation."""
    return _from_json(cls, data)  # type: ignore[no-any-return]


_TYPE_HINTS: dict[type, dict[str, Any]] = {}


def _from_json(hint: Any, value: Any) -> Any:
    """``value`` (JSON types) as the type ``hint`` says: dataclasses by their fields, tuples from lists."""
    if value is None:
        return None
    if isinstance(hint, type) and is_dataclass(hint):
        hints = _TYPE_HINTS.get(hint)
        if hints is None:  # found once per class: a table client types every state it receives
            hints = _TYPE_HINTS[hint] = get_type_hints(hint)
        return hint(**{name: _from_json(hints[name], value.get(name)) for name in _field_names(hint)})
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return _from_json(options[0], value) if len(options) == 1 else value
    if origin is tuple and isinstance(value, list):
        return tuple(_from_json(args[0], v) for v in value) if args else tuple(value)
    if origin in (Mapping, dict) and isinstance(value, dict) and len(args) == 2:
        return {k: _from_json(args[1], v) for k, v in value.items()}
    return value


def view_json(view: BaseView) -> dict[str, Any]:
    """A view as JSON types, built from its fields alone (what the table server sends a seat)."""
    return {name: _json_value(getattr(view, name)) for name in _field_names(type(view))}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_PLAIN = (str, int, float, bool, type(None))


def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, found once per class (a table server turns views into JSON all the time)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def _json_value(value: Any) -> Any:
    """Part of a view as JSON types: dataclasses become objects, tuples lists, mappings dicts."""
    if isinstance(value, _PLAIN):  # most of a view: names, numbers (a Message is a str too)
        return value
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return {name: _json_value(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, Mapping):
        return {k: _json_value(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Outcome:
    """How a game stands at its end (or that it has not ended), the same type in both games.

    ``end_reason`` is the rule ID (or DECISION) that ended the game; ``score`` is what ranks the
    players (Union Pacific: money; Vom Kap bis Kairo: terrains crossed); ``details`` holds what
    one game adds (e.g. the imaginary shareholder's money); ``words`` says it all in a sentence.
    """

    is_over: bool
    winners: tuple[str, ...]
    end_reason: str | None
    score: Mapping[str, int]
    money: Mapping[str, int]
    words: str
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winner(self) -> str | None:
        """The single winner, or ``None`` (not over yet, or a shared win)."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "is_over": self.is_over,
            "winners": list(self.winners),
            "end_reason": self.end_reason,
            "score": dict(self.score),
            "money": dict(self.money),
            "details": dict(self.details),
            "words": self.words,
        }

    def __str__(self) -> str:
        return self.words

    def __repr__(self) -> str:
        if not self.is_over:
            return "<Outcome: not over>"
        return f"<Outcome: {' and '.join(self.winners)} won ({self.end_reason})>"


def normalize_players(players: object, lo: int, hi: int, rule: str) -> tuple[str, ...]:
    """``3`` becomes ``("Player 1", "Player 2", "Player 3")``; names must be unique, short, plain text.

    The count is checked before anything is built, so ``10**12`` players costs nothing.
    """
    if isinstance(players, bool):
        raise TypeError(Message(N_("players must be a number or a list of names, not {found}"), {"found": repr(players)}))
    if isinstance(players, int):
        if not lo <= players <= hi:
            raise RuleError(rule, _player_count(lo, hi, brief(players)))
        return tuple(f"Player {i + 1}" for i in range(players))
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise TypeError(Message(N_("players must be a number or a list of names, not {found}"),
                                {"found": type(players).__name__}))
    if not lo <= len(players) <= hi:
        raise RuleError(rule, _player_count(lo, hi, len(players)))
    if not all(isinstance(p, str) for p in players):
        raise TypeError(Message(N_("every player's name must be text")))
    names = tuple(unicodedata.normalize("NFC", p).strip() for p in players)
    for name in names:
        if not name:
            raise RuleError(rule, Message("every player needs a name; one is empty"))
        if len(name) > MAX_NAME_LENGTH:
            raise RuleError(rule, Message("a player's name may have at most {most} characters; {name}… is longer",
                                          {"most": MAX_NAME_LENGTH, "name": repr(name[:MAX_NAME_LENGTH])}))
        if any(unicodedata.category(ch)[0] == "C" for ch in name):
            raise RuleError(rule, Message("a player's name may not hold control characters: {name}",
                                          {"name": repr(name)}))
    if len(set(names)) != len(names):
        raise RuleError(rule, Message("player names must be different: {names}", {"names": ", ".join(names)}))
    return names


def check_seed(seed: object) -> int:
    """A seed is a whole number; anything else is a ``TypeError``, a huge one a ``ValueError``."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(Message(N_("the seed must be a whole number, not {kind}"), {"kind": type(seed).__name__}))
    if not -MAX_SEED < seed < MAX_SEED:
        raise ValueError(Message("the seed must be smaller than 2**63 in size, not {seed}",
                                 {"seed": brief(seed)}))
    return seed


def not_playing(player: object, players: Sequence[str]) -> Message:
    """The refusal for a name that is not at the table (an action's player, a view's seat)."""
    return Message(N_("{player} is not playing; the players are {players}"),
                   {"player": brief(player), "players": ", ".join(players)})


def _player_count(lo: int, hi: int, given: object) -> Message:
    return Message("this game takes {lo} to {hi} players, not {given}", {"lo": lo, "hi": hi, "given": given})


def parse_save(save: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    """The JSON object of a save, or ``SaveFileError`` in plain words (size checked first)."""
    if isinstance(save, Mapping):
        return save
    if isinstance(save, (bytes, bytearray)):
        if len(save) > MAX_SAVE_BYTES:
            raise SaveFileError(_too_big(N_("the file is {size} bytes; a saved game is at most {most}"), len(save)))
        try:
            save = bytes(save).decode("utf-8")
        except UnicodeDecodeError:
            raise SaveFileError(Message("the file is not text (a saved game is a .json text file)")) from None
    if not isinstance(save, str):
        raise TypeError(f"a save is JSON text or a dict, not {type(save).__name__}")
    if len(save) > MAX_SAVE_BYTES:
        raise SaveFileError(_too_big(N_("the file is {size} characters; a saved game is at most {most}"), len(save)))
    if not save.strip():
        raise SaveFileError(Message("the file is empty"))
    try:
        data = json.loads(save, object_pairs_hook=unique_keys)
    except DuplicateKeyError as exc:  # JSON would keep the last of the two silently
        raise SaveFileError(Message("the file is not a saved game: {problem}",
                                    {"problem": duplicate_key_problem(exc)})) from None
    except json.JSONDecodeError as exc:
        if exc.pos >= len(save.rstrip()) - 1:
            raise SaveFileError(Message("the file is cut off near the end (it was not saved completely)")) from None
        raise SaveFileError(Message("the file is not a saved game: its text is broken on line {line}, character {column}",
                                    {"line": exc.lineno, "column": exc.colno})) from None
    except (ValueError, RecursionError):  # e.g. a number of 5,000 digits, or deep nesting
        raise SaveFileError(Message("the file is not a saved game: it holds a value too large or too deeply nested")) \
            from None
    if not isinstance(data, dict):
        raise SaveFileError(Message("the file is not a saved game: it should hold one JSON object"))
    return data


class Game(ABC, Generic[A]):
    """Base class of both engines: setup from (players, seed, options), then the action log."""

    GAME: ClassVar[str]  # the name written into saves
    TITLE: ClassVar[str]  # the game's printed name
    PLAYER_RANGE: ClassVar[tuple[int, int]]
    PLAYER_RULE: ClassVar[str]  # the rule ID that sets how many may play
    OPTIONS_RULE: ClassVar[str]  # the rule ID cited for an unknown option
    ACTIONS_RULE: ClassVar[str]  # the rule ID cited for something that is not one of this game's actions
    FILE_OPTIONS: ClassVar[tuple[str, ...]] = ()  # options that name a file on this machine
    OPTION_DEFAULTS: ClassVar[Mapping[str, Any]]
    registry: ClassVar[ActionRegistry[Any]]
    VIEW: ClassVar[type[BaseView]]  # the class ``view`` returns (what a client reads a view's JSON back into)
    # The rules' version a stored log was played under: raised whenever a change would replay an old log
    # differently (a table records it and is set aside, with the reason, by a server that plays another one).
    RULES_VERSION: ClassVar[int] = 1
    # What the log hides (``seat_action``): action type -> the fields no other seat may read while the action is
    # sealed (a sealed bid's amount), and the action types whose sealed fields no other seat ever reads.
    SEALED: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    HIDDEN_FOR_GOOD: ClassVar[frozenset[str]] = frozenset()

    # False: nobody reads this game's events as they happen (bots' games, benchmarks), so ``apply`` returns
    # none and keeps them as ``Draft``s, rendered only if ``narrative`` is read (the same sentences then).
    narrate: bool = True
    # The action ``random_action`` drew from the legal moves, and the length of the log then: ``apply`` of that
    # very object at that point need not check it again (a speed-up for bots' games; nothing else changes).
    _drawn: tuple[Any, int] | None = None

    players: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    _log: list[A]
    rng: random.Random

    def __init__(self, players: int | Sequence[str], seed: int = 0, **options: Any) -> None:
        self.players = normalize_players(players, *self.PLAYER_RANGE, self.PLAYER_RULE)
        self.seed = check_seed(seed)
        unknown = sorted(set(options) - set(self.OPTION_DEFAULTS))
        if unknown:
            shown = ", ".join(brief(u) for u in unknown[:5])
            known = ", ".join(self.OPTION_DEFAULTS)
            raise RuleError(self.OPTIONS_RULE, nmessage("unknown option {shown}; the options are {known}",
                                                        "unknown options {shown}; the options are {known}",
                                                        len(unknown), {"shown": shown, "known": known}))
        for name, value in options.items():
            if isinstance(value, str) and len(value) > MAX_OPTION_TEXT:
                raise RuleError(self.OPTIONS_RULE, Message("option {name} is longer than {most} characters",
                                                           {"name": name, "most": MAX_OPTION_TEXT}))
        self.options = self._check_options({**self.OPTION_DEFAULTS, **options})
        self._log = []
        self.rng = random.Random(self.seed)
        self._narrative: list[str] = []
        self._setup()

    # -- the rules, per game -------------------------------------------------
    @abstractmethod
    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """All options (defaults filled in), checked: ``TypeError`` / ``RuleError`` otherwise."""

    @abstractmethod
    def _setup(self) -> None:
        """Deal and lay out the game, using ``self.rng`` in a fixed order; may add to the narrative."""

    @property
    @abstractmethod
    def current_player(self) -> str | None:
        """Who acts next; ``None`` once the game is over. In a simultaneous step
        (sealed bids, first investment) the first player still to act."""

    def players_to_act(self) -> tuple[str, ...]:
        """Everyone who may act now (several during a simultaneous step)."""
        player = self.current_player
        return () if player is None else (player,)

    @property
    @abstractmethod
    def phase(self) -> str:
        """The step of play, named as in the views; ``"over"`` at the end."""

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @abstractmethod
    def legal_actions(self, player: str | None = None) -> list[A]:
        """Every legal action for ``player`` (default: the current player)."""

    def random_action(self, player: str, rng: random.Random) -> A:
        """A legal action of ``player`` picked uniformly with ``rng`` (what ``railkit.bots.RandomBot`` plays);
        a game may pick without listing every action, drawing the same way."""
        return self._legal_draw(rng.choice(self.legal_actions(player)))

    def _legal_draw(self, action: A) -> A:
        """``action``, drawn from this player's legal moves now: remembered, so that ``apply`` of it right
        after skips ``check`` (it would pass: the move is legal, and checking never changes the state)."""
        self._drawn = (action, len(self._log))
        return action

    @abstractmethod
    def _check_rules(self, action: A) -> None:
        """Raise ``RuleError`` if ``action`` breaks one of this game's own rules now (the shared duties of
        ``check`` have passed: an action of this game, by a player at the table, in turn, the game not over).
        Never changes the state."""

    def _simultaneous(self) -> bool:
        """Whether everyone still to act may act now in any order (sealed bids, first shares); then the
        game's own step rules say who may still act, and ``check`` does not ask whose turn it is."""
        return False

    def _turn_rule(self) -> str:
        """The rule ID that says whose turn it is now."""
        return self.PLAYER_RULE

    def _turn_task(self) -> Message | None:
        """What the player whose turn it is must do now ("build or pass"), so that a refusal out of turn
        tells the learner which step the table is at; ``None`` says nothing more."""
        return None

    @abstractmethod
    def _perform(self, action: A) -> list[str]:
        """Carry out a checked action; return what happened, in plain words."""

    @abstractmethod
    def result(self) -> Outcome: ...

    @abstractmethod
    def view(self, player: str | None) -> BaseView:
        """What ``player`` may see (``None``: a spectator, public information only), as the game's own
        ``BaseView`` subclass. Engines begin with ``self._check_seat(player)``."""

    def sealed_from(self) -> int:
        """The log position of the first sealed action still waiting to be revealed (the log's length when none
        waits): every sealed action before it has been shown to all, save those ``HIDDEN_FOR_GOOD``. Engines with
        sealed actions say when they are revealed; by default nothing waits."""
        return len(self._log)

    def hidden_fields(self, index: int, seat: str | None, data: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """The fields of action ``index`` that ``seat`` (None: a spectator) may not read now: none of its own
        moves, none once revealed, and for good those of a ``HIDDEN_FOR_GOOD`` action. ``data`` is the action's
        save-file object when the caller has it already."""
        if data is None:
            data = self.registry.to_dict(self._log[index])
        kind = str(data.get("type"))
        fields = self.SEALED.get(kind, ())
        if not fields or data.get("player") == seat:
            return ()
        if kind in self.HIDDEN_FOR_GOOD or index >= self.sealed_from():
            return fields
        return ()

    def seat_action(self, index: int, seat: str | None, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Action ``index`` of the log as ``seat`` may read it now: its save-file object with the ``hidden_fields``
        left out and named under ``"sealed"``."""
        if data is None:
            data = self.registry.to_dict(self._log[index])
        hidden = self.hidden_fields(index, seat, data)
        if not hidden:
            return dict(data)
        return {**{k: v for k, v in data.items() if k not in hidden}, "sealed": list(hidden)}

    def log_for(self, seat: str | None, start: int = 0) -> list[dict[str, Any]]:
        """The log from position ``start`` on as ``seat`` (None: a spectator) may read it (``seat_action``)."""
        return [self.seat_action(i, seat) for i in range(max(0, start), len(self._log))]

    def _check_seat(self, player: object) -> None:
        """A view is asked for a player at the table, or ``None`` (a spectator)."""
        if player is None:
            return
        if not isinstance(player, str):
            raise TypeError(Message(N_("a player is named by text, not {kind}"), {"kind": type(player).__name__}))
        if player not in self.players:
            raise RuleError(self.PLAYER_RULE, not_playing(player, self.players))

    @abstractmethod
    def state_dict(self) -> dict[str, Any]:
        """The whole state, hidden parts included, as JSON types (for tests and debugging)."""

    @abstractmethod
    def describe(self, action: A) -> str:
        """``action`` in plain words, e.g. "Ann builds a Wabash train on Denver–Pueblo"."""

    def _game_over_rule(self) -> str:
        return self.PLAYER_RULE

    # -- shared machinery ----------------------------------------------------
    def apply(self, action: A) -> list[str]:
        """Check and carry out ``action``; append it to the log; return the events in words.

        A rejected action raises ``RuleError`` and leaves the game exactly as it was. A game with
        ``narrate = False`` returns no events (``narrative`` still has them).
        """
        log = self._log
        moves = len(log)
        if moves >= MAX_ACTIONS and not self.is_over:
            raise RuleError(self._game_over_rule(), Message("a game holds at most {most} moves",
                                                            {"most": Grouped(MAX_ACTIONS)}))
        drawn = self._drawn
        if drawn is None or drawn[0] is not action or drawn[1] != moves:
            self.check(action)
        self._drawn = None
        if not self.narrate:
            # As ``with quiet():`` (the events are made as Drafts: their English is rendered if someone reads
            # it), without its two method calls per move.
            QUIET_DEPTH.depth += 1
            try:
                drafts = self._perform(action)
            finally:
                QUIET_DEPTH.depth -= 1
            log.append(action)
            self._narrative.extend(drafts)
            return []
        events = self._perform(action)
        log.append(action)
        self._narrative.extend(events)
        return events

    def check(self, action: A) -> None:
        """Raise ``RuleError`` (naming the rule) if ``action`` is illegal now; never changes the state.

        The duties both games share are done here, once, in this order: the game is not over
        (``GameOverError``), ``action`` is one of this game's actions, its player is at the table, and
        it is that player's turn (``NotYourTurnError``); then the game's own rules (``_check_rules``).
        """
        if self.is_over:
            raise GameOverError(self._game_over_rule(), Message("the game is over; no more moves can be made"))
        if not self.registry.knows(action):
            raise RuleError(self.ACTIONS_RULE, Message(N_("{action} is not a {game} action; use one of {actions}"),
                                                       {"action": brief(action), "game": self.TITLE,
                                                        "actions": ", ".join(self.registry.names())}))
        player = getattr(action, "player", None)
        if not isinstance(player, str) or player not in self.players:
            raise RuleError(self.PLAYER_RULE, not_playing(player, self.players))
        if not self._simultaneous():
            current = self.current_player
            if player != current:
                task = self._turn_task()
                params: dict[str, object] = {"current": str(current), "player": player}
                if task is None:
                    refusal = Message(N_("it is {current}'s turn, not {player}'s; wait for your turn"), params)
                else:
                    refusal = Message(N_("it is {current}'s turn to {task}, not {player}'s; wait for your turn"),
                                      {**params, "task": task})
                raise NotYourTurnError(self._turn_rule(), refusal)
        self._check_rules(action)

    def is_legal(self, action: A) -> bool:
        try:
            self.check(action)
        except RuleError:
            return False
        return True

    @property
    def log(self) -> tuple[A, ...]:
        """The actions so far, in order (a tuple: the game changes only through ``apply``)."""
        return tuple(self._log)

    @property
    def narrative(self) -> list[str]:
        """Everything that has happened, in plain words (public information only)."""
        narrative = self._narrative
        for i, event in enumerate(narrative):
            if isinstance(event, Draft):  # kept while nobody narrated: rendered now, once
                narrative[i] = event.message()
            elif isinstance(event, Deferred):  # text nobody had read yet (a payout's explanation): made now
                narrative[i] = event.text()
        return list(narrative)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.GAME,
            "players": list(self.players),
            "seed": self.seed,
            "options": dict(self.options),
            "actions": [self.registry.to_dict(a) for a in self._log],
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def load(cls: type[G], save: str | bytes | Mapping[str, Any], *, allow_files: bool = True) -> G:
        """Rebuild a saved game (JSON text, bytes or the mapping of ``to_dict``) by replaying its log.

        Every problem is a ``SaveFileError`` whose message says, in words, what is wrong. A save
        that came from outside (an upload) is loaded with ``allow_files=False``: options that name
        a file on this machine (a board or deck file) are then refused, so a save cannot make the
        server open a file of its choosing.
        """
        data = parse_save(save)
        if data.get("format") != SAVE_FORMAT:
            raise SaveFileError(Message("the file is not a railkit saved game (it has no \"format\": \"railkit-game\")"))
        if data.get("game") != cls.GAME:
            other = data.get("game")
            shown = repr(other[:40]) if isinstance(other, str) else Message("no game")
            raise SaveFileError(Message("the file is a save of {other}, not of {game}", {"other": shown, "game": cls.TITLE}))
        if data.get("version") != SAVE_VERSION:
            raise SaveFileError(Message("the file is a save of another version ({version}); this railkit reads version "
                                        "{ours}", {"version": str(data.get("version"))[:20], "ours": SAVE_VERSION}))
        for key in ("players", "seed"):
            if key not in data:
                raise SaveFileError(Message("the file has no {key}", {"key": repr(key)}))
        options = data.get("options", {})
        actions = data.get("actions", [])
        if not isinstance(options, dict):
            raise SaveFileError(Message("the file's 'options' must be a JSON object"))
        if not isinstance(actions, list):
            raise SaveFileError(Message("the file's 'actions' must be a list of moves"))
        named = [k for k in cls.FILE_OPTIONS if options.get(k) is not None]
        if named and not allow_files:
            raise SaveFileError(Message("the save names a file on the computer ({option} option); an uploaded save can "
                                        "only use the shipped board and deck", {"option": named[0]}))
        if len(actions) > MAX_ACTIONS:
            raise SaveFileError(Message("the file holds {moves} moves; a game has at most {most}",
                                        {"moves": Grouped(len(actions)), "most": Grouped(MAX_ACTIONS)}))
        try:
            game = cls(data["players"], seed=data["seed"], **{str(k): v for k, v in options.items()})
        except (RuleError, TypeError, ValueError) as exc:
            raise SaveFileError(Message("the game it describes cannot be set up: {reason}",
                                        {"reason": _reason(exc)})) from None
        for index, raw in enumerate(actions, start=1):
            try:
                action = cls.registry.from_dict(raw)
                game.apply(action)
            except (RuleError, TypeError, ValueError) as exc:
                raise SaveFileError(Message("move {move} cannot be replayed: {reason}",
                                            {"move": index, "reason": _reason(exc)})) from None
        return game

    @classmethod
    def from_dict(cls: type[G], data: Mapping[str, Any]) -> G:
        return cls.load(data)

    @classmethod
    def from_json(cls: type[G], text: str | bytes) -> G:
        return cls.load(text)

    def replay(self: G, upto: int | None = None) -> G:
        """A fresh game rebuilt from the first ``upto`` actions of this one's log."""
        count = len(self._log) if upto is None else _move_count(upto)
        if not 0 <= count <= len(self._log):
            raise HistoryError(nmessage("cannot replay {count} moves; the game has {n} move so far",
                                        "cannot replay {count} moves; the game has {n} moves so far",
                                        len(self._log), {"count": brief(count)}))
        game = type(self)(self.players, seed=self.seed, **self.options)
        for action in self._log[:count]:
            game.apply(action)
        return game

    def undo(self: G, count: int = 1) -> G:
        """The game as it was ``count`` actions ago (rebuilt by replay)."""
        count = _move_count(count)
        if not 0 <= count <= len(self._log):
            raise HistoryError(nmessage("cannot undo {count} moves; the game has {n} move so far",
                                        "cannot undo {count} moves; the game has {n} moves so far",
                                        len(self._log), {"count": brief(count)}))
        return self.replay(len(self._log) - count)

    def copy(self: G) -> G:
        """An independent game in the same state (engines may override with a faster copy)."""
        return self.replay()

    # -- games dealt from one seat's view (each engine's ``sampling.deal``) ---------------
    @classmethod
    def dealt(cls: type[G], players: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> G:
        """A game object without setup and without history, for an engine's ``sampling`` module to give a state
        dealt from a view. Its log starts empty (it has no past to replay) and it is not narrated."""
        game = object.__new__(cls)
        game.players = tuple(players)
        game.seed = 0
        game.options = dict(options)
        game._log = []
        game.rng = rng
        game._narrative = []
        game.narrate = False
        return game

    # -- how a game shows itself ---------------------------------------------
    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self.phase}, {', '.join(self.players_to_act())} to act"
        return f"<{type(self).__name__} {', '.join(self.players)}: {len(self._log)} moves, {state}>"

    def _repr_html_(self) -> str:
        """A small status card for notebooks: players, step of play, who acts, the outcome (its words shown in
        the language the teaching layer chose, ``railkit.messages.shown``)."""
        esc = html.escape
        if self.is_over:
            status = f"<b>{esc(shown(Message('Over.')))}</b> {esc(shown(self.result().words))}"
        else:
            status = esc(shown(Message("{step}; to act: {players}",
                                       {"step": self.phase, "players": ", ".join(self.players_to_act())})))
        last = self._narrative[-1] if self._narrative else ""
        return (
            "<div style='border:1px solid #999;border-radius:6px;padding:6px 10px;display:inline-block'>"
            f"<b>{esc(self.TITLE)}</b> — {esc(', '.join(self.players))}<br>"
            f"{esc(shown(nmessage('{n} move', '{n} moves', len(self._log))))} · {status}"
            + (f"<br><i>{esc(shown(last))}</i>" if last else "")
            + "</div>"
        )



def _reason(exc: BaseException) -> str:
    """The words of an error without doubled prefixes (a ``Message`` when the error holds one)."""
    if isinstance(exc, RuleError):
        return Message("{reason} [{rule}]", {"reason": exc.message, "rule": exc.rule})
    words = exc.args[0] if len(exc.args) == 1 else None
    return words if isinstance(words, Message) else str(exc)


def _move_count(count: object) -> int:
    """A number of moves for ``replay``/``undo``: a whole number, else ``TypeError``."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(Message(N_("a number of moves must be a whole number, not {kind}"),
                                {"kind": type(count).__name__}))
    return count


def _too_big(msgid: str, size: int) -> Message:
    """A save over the size limit; the sizes are written with thousands separators, as before."""
    return Message(msgid, {"size": Grouped(size), "most": Grouped(MAX_SAVE_BYTES)})
