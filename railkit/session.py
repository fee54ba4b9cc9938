"""A play session: one game, who sits in each seat, the computer players, undo, save and load.

Both play lessons (Union Pacific and Vom Kap bis Kairo) keep their game in a ``Session``; the
widgets only show it and pass the learner's moves in. Nothing here imports widgets or an engine:
a session works with any ``railkit.game.Game`` and any bot policy ``(game, player) -> move``;
``seat_bots`` and ``position_bots`` make one from ``railkit.bots.Player``s, which are asked with
their seat's view and legal moves only.

* **Seats.** ``humans`` are the players at the screen (one learner, or several taking turns:
  hot seat); every other seat is a computer player. In hot seat a player's hand stays hidden
  until they reveal it (``toggle_hand``), and hides again when the turn passes on.
* **Computer players** move whenever one of them is to act (``run_bots``), at most
  ``max_bot_moves`` moves per call: then the session pauses (``paused``) and ``resume`` goes on. Which seat
  moves and the budget are the seat policy a class table shares (``railkit.bot_turns``).
  A bot that fails or picks an illegal move raises ``BotError`` and changes nothing.
* **Undo** goes back to just before the last human move, by replaying the log (the log is the
  game, ``railkit.game``).
* **Save and load**: a JSON wrapper around ``game.to_dict()`` that adds the seats. ``load`` checks
  the size before decoding and lets ``Game.load`` replay the moves; every problem is one
  ``SaveFileError`` in plain words.

    >>> from railkit.unionpacific import new_game
    >>> from railkit.unionpacific.bots import HeuristicBot
    >>> session = Session(new_game(["Ann", "Ben"], seed=1), humans=["Ann"], bot=seat_bots(HeuristicBot))
    >>> session.acting
    'Ann'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from railkit.bot_turns import PAGE_BOT_MOVES, BotTurns
from railkit.bots import Player, decide
from railkit.errors import RailkitError, RuleError, SaveFileError
from railkit.game import Game, parse_save
from railkit.messages import Message, addressed, nmessage

__all__ = [
    "LEGACY_SEATS_KEY",
    "MAX_BOT_MOVES",
    "SESSION_FORMAT",
    "BotError",
    "Notes",
    "Played",
    "Session",
    "SessionError",
    "position_bots",
    "save_problem",
    "seat_bots",
]

SESSION_FORMAT = "railkit-session"
SESSION_VERSION = 1
LEGACY_SEATS_KEY = "railkit_play"  # older saves: the seats inside the game's own dict
# A move made for a seat the session does not let a human play; the learner's own refusal speaks to them.
addressed("{player} is not a human player in this game", "you are not one of the human players in this game")
MAX_BOT_MOVES = PAGE_BOT_MOVES  # per call (railkit.bot_turns): the page never waits long

G = TypeVar("G", bound=Game[Any])


BotPolicy = Callable[[Any, str], Any]  # (game, player) -> the move that computer player makes now


class Notes(Protocol):
    """Something an app remembers about every move as it is made (and again when the log is replayed)."""

    def clear(self) -> None: ...

    def note(self, game: Any, action: Any, events: list[str]) -> None: ...


class SessionError(RailkitError, ValueError):
    """Something the session cannot do now (nothing to undo, not a human's turn, ...); plain words."""


class BotError(RailkitError):
    """A computer player could not move, or chose a move the rules refuse; the game is unchanged."""


def seat_bots(make: Callable[[int], Player]) -> BotPolicy:
    """One computer player per seat, made by ``make(seed)`` with the game's seed plus the seat number, and
    kept for the whole session (so its random choices go on from where they were). It is asked for each move
    with its seat's view and legal moves only (``railkit.bots.decide``), never the game."""
    bots: dict[str, Player] = {}

    def choose(game: Any, player: str) -> Any:
        if player not in bots:
            bots[player] = make(game.seed + list(game.players).index(player))
        return decide(bots[player], game, player)

    return choose


def position_bots(make: Callable[[int], Player]) -> BotPolicy:
    """A fresh computer player for every decision, seeded from the game's seed, the length of the log and
    the seat: the same position always gets the same move, also after an undo. It is asked with its seat's
    view and legal moves only (``railkit.bots.decide``)."""

    def choose(game: Any, player: str) -> Any:
        seat = list(game.players).index(player)
        return decide(make(game.seed * 100_003 + len(game.log) * 7 + seat), game, player)

    return choose


@dataclass
class Played:
    """What one human move caused: its own events, then the computer players' (engine's words)."""

    own: list[str] = field(default_factory=list)
    others: list[str] = field(default_factory=list)

    @property
    def events(self) -> list[str]:
        return self.own + self.others


class Session(Generic[G]):
    """A game with its seats (see the module docstring)."""

    def __init__(self, game: G, humans: Sequence[str], bot: BotPolicy | None = None, *,
                 max_bot_moves: int = MAX_BOT_MOVES, notes: Sequence[Notes] = ()) -> None:
        unknown = [h for h in humans if h not in game.players]
        if unknown:
            raise ValueError(f"these humans do not play in the game: {unknown}")
        if bot is None and len(set(humans)) < len(game.players):
            raise ValueError("computer players need a bot policy")
        if max_bot_moves < 1:
            raise ValueError("max_bot_moves must be at least 1")
        self.game: G = game
        self.humans: tuple[str, ...] = tuple(p for p in game.players if p in humans)  # seating order
        self.bot = bot
        self.max_bot_moves = max_bot_moves
        self.notes = tuple(notes)
        self.revealed_to: str | None = None  # hot seat: the human whose hand is on screen
        self.paused = False  # the computer players stopped at max_bot_moves

    # -- seats ------------------------------------------------------------------------------
    @property
    def bots(self) -> tuple[str, ...]:
        return tuple(p for p in self.game.players if p not in self.humans)

    @property
    def hot_seat(self) -> bool:
        """Several humans share the screen; their hands are hidden between turns."""
        return len(self.humans) > 1

    @property
    def you(self) -> str | None:
        """The one learner playing against the computer; None in hot seat."""
        return self.humans[0] if len(self.humans) == 1 else None

    @property
    def acting(self) -> str | None:
        """The human who must act now (None: game over, computer players to act, or paused)."""
        if self.game.is_over or self.paused:
            return None
        return next((p for p in self.game.players_to_act() if p in self.humans), None)

    def viewer(self) -> str | None:
        """Whose secret information the screen may show now (None: public information only)."""
        if not self.hot_seat:
            return self.you
        acting = self.acting
        return acting if acting is not None and self.revealed_to == acting else None

    @property
    def may_act(self) -> bool:
        """A human is to act and (in hot seat) has revealed their hand: show the move controls."""
        acting = self.acting
        return acting is not None and (not self.hot_seat or self.revealed_to == acting)

    def toggle_hand(self) -> bool:
        """Hot seat: show the acting player's hand, or hide it again. True when now shown."""
        acting = self.acting
        if not self.hot_seat or acting is None:
            raise SessionError(Message("there is no hidden hand to show now"))
        self.revealed_to = None if self.revealed_to == acting else acting
        return self.revealed_to is not None

    # -- moves ------------------------------------------------------------------------------
    def play(self, action: Any, bots: bool = True) -> Played:
        """A human's move: checked by the engine (a ``RuleError`` changes nothing), then (``bots``) the
        computer players move until a human must act again."""
        player = getattr(action, "player", None)
        if self.paused:
            raise SessionError(Message("the computer players are still moving"))
        if player not in self.humans:
            raise SessionError(Message("{player} is not a human player in this game", {"player": str(player)}))
        own = self._apply(action)
        return Played(own, self.run_bots() if bots else [])

    def run_bots(self, stop: Callable[[Any], bool] | None = None,
                 autopilot: Callable[[Any, str], bool] | None = None) -> list[str]:
        """Computer players move while one of them is to act, at most ``max_bot_moves`` moves.

        ``stop(game)``: stop before a move when it holds. ``autopilot(game, player)``: this human's
        move is made by the computer too. Returns the events, in the engine's words.
        """
        events: list[str] = []
        self.paused = False

        def computer(player: str) -> bool:
            return player not in self.humans or (autopilot is not None and autopilot(self.game, player))

        turns = BotTurns(lambda: self.game, computer, self.max_bot_moves, stop)  # the one seat policy
        for player in turns:
            events += self._bot_move(player)
        self.paused = turns.cut_short
        if self.revealed_to is not None and self.revealed_to != self.acting:
            self.revealed_to = None  # the turn passed on: the next player's hand starts hidden
        return events

    def resume(self) -> list[str]:
        """Let paused computer players go on."""
        if not self.paused:
            raise SessionError(Message("the computer players have nothing left to do"))
        return self.run_bots()

    def bot_move(self, player: str) -> Any:
        """The move the computer would make for ``player`` now (not applied)."""
        if self.bot is None:
            raise SessionError(Message("this session has no computer players"))
        return self.bot(self.game, player)

    def _bot_move(self, player: str) -> list[str]:
        try:
            action = self.bot_move(player)
        except SessionError:
            raise
        except Exception as exc:  # a bot must never take the page down
            raise BotError(Message("the computer player {player} could not choose a move ({error}); the game stops here",
                                   {"player": player, "error": str(exc) or type(exc).__name__})) from exc
        try:
            return self._apply(action)
        except RuleError as exc:
            raise BotError(Message("the computer player {player} chose a move the rules refuse: {reason} [{rule}]; "
                                   "the game stops here", {"player": player, "reason": exc.message, "rule": exc.rule})) \
                from exc
        except Exception as exc:  # not an action at all: the engine refuses it before changing anything
            raise BotError(Message("the computer player {player} chose something that is not a move ({error}); "
                                   "the game stops here", {"player": player, "error": type(exc).__name__})) from exc

    def _apply(self, action: Any) -> list[str]:
        events = self.game.apply(action)
        for notes in self.notes:
            notes.note(self.game, action, events)
        return events

    # -- undo -------------------------------------------------------------------------------
    def last_human_move(self) -> int | None:
        """Index in the log of the last move by a human, or None."""
        log = self.game.log
        return next((i for i in range(len(log) - 1, -1, -1) if getattr(log[i], "player", None) in self.humans), None)

    def undo(self) -> Any:
        """Back to just before the last human move (the log is replayed); returns that move."""
        index = self.last_human_move()
        if index is None:
            raise SessionError(Message("there is nothing to undo: no human move has been made yet"))
        undone = self.game.log[index]
        self.game = self.rebuilt(self.game, index)
        self.paused = False
        self.revealed_to = None
        self.run_bots()  # normally nothing: the computer players had moved before that human move
        return undone

    def rebuilt(self, game: G, upto: int | None = None) -> G:
        """``game`` replayed from the start up to move ``upto``; ``notes`` start afresh and hear every move."""
        if not self.notes:
            return game.replay(upto)
        fresh = game.replay(0)
        for notes in self.notes:
            notes.clear()
        for action in game.log[: len(game.log) if upto is None else upto]:
            events = fresh.apply(action)
            for notes in self.notes:
                notes.note(fresh, action, events)
        return fresh

    # -- save and load ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"format": SESSION_FORMAT, "version": SESSION_VERSION,
                "seats": {"humans": list(self.humans)}, "game": self.game.to_dict()}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def load(cls, save: str | bytes | Mapping[str, Any], game_class: type[G], bot: BotPolicy | None = None, *,
             allow_files: bool = True, max_bot_moves: int = MAX_BOT_MOVES,
             notes: Sequence[Notes] = ()) -> Session[G]:
        """A session from a save (this module's wrapper, or a plain game save: then every seat is
        human). ``allow_files=False`` for an uploaded save: options naming a board or deck file are
        refused (a save must not make the server read a file of its choosing). Every problem is a
        ``SaveFileError``.
        """
        data = parse_save(save)  # the size is checked before anything is decoded
        if data.get("format") == SESSION_FORMAT:
            if data.get("version") != SESSION_VERSION:
                raise SaveFileError(Message("the file is a session of another version ({version}); this railkit reads "
                                            "version {ours}", {"version": str(data.get("version"))[:20],
                                                               "ours": SESSION_VERSION}))
            game_data, seats = data.get("game"), data.get("seats")
            if not isinstance(game_data, Mapping):
                raise SaveFileError(Message("the file holds no game"))
        else:
            game_data, seats = data, data.get(LEGACY_SEATS_KEY)
        game = game_class.load(game_data, allow_files=allow_files)
        humans = _humans(seats, game.players)
        session = cls(game, humans, bot, max_bot_moves=max_bot_moves, notes=notes)
        if notes:
            session.game = session.rebuilt(game)
        return session


def _humans(seats: object, players: Sequence[str]) -> tuple[str, ...]:
    """The human seats a save names; all seats when it names none (a plain game save)."""
    if seats is None:
        return tuple(players)
    if not isinstance(seats, Mapping) or not isinstance(seats.get("humans"), list):
        raise SaveFileError(Message("the file's 'seats' must name the human players in a list"))
    named = seats["humans"]
    strangers = [h for h in named if h not in players]
    if strangers:
        # The English keeps its "player(s)"; the plural forms let every other language say it right.
        raise SaveFileError(nmessage("the seats name {n} player(s) who are not in the game",
                                     "the seats name {n} player(s) who are not in the game", len(strangers)))
    if not named:
        raise SaveFileError(Message("the seats name no human player"))
    return tuple(p for p in players if p in named)


_PREFIXES = ("the save cannot be loaded:", "this save cannot be loaded:", "the saved game cannot be loaded:",
             "cannot load the save:")


def save_problem(error: SaveFileError) -> str:
    """The words of a ``SaveFileError`` without a leading “… cannot be loaded:” (the apps say that
    once themselves). The engine's own ``Message`` comes back as it is (it has no such prefix), so
    the app can render it in the learner's language."""
    words = error.args[0] if len(error.args) == 1 else None
    if isinstance(words, Message) and words == words.strip() and not words.endswith(".") \
            and not words.lower().startswith(_PREFIXES):
        return words
    text = str(error).strip()
    changed = True
    while changed:
        changed = False
        for prefix in _PREFIXES:
            if text.lower().startswith(prefix):
                text = text[len(prefix):].strip()
                changed = True
    return text.rstrip(".") or "it is not a saved game"

