"""The terrain cards as data (KK-C2..C4), validated on load.

The real card list is not in the sources (KK-C4), so railkit ships an assumed list in
``data/cape_to_cairo/deck.json``; replace that file to play with the real one.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, TypeGuard

from railkit.brief import brief
from railkit.datafiles import FILE, TOP_LEVEL, DuplicateKeyError, duplicate_key_problem, json_problem, unique_keys
from railkit.errors import DataError
from railkit.messages import N_, Grouped, Message, nmessage
from railkit.paths import data_dir

# KK-C3: tracks needed to cross each terrain.
REQUIREMENT: dict[str, int] = {"river": 10, "mountains": 9, "desert": 8, "village": 7, "savanna": 6}
DECK_SIZE = 50  # KK-C2
TRACKS_RANGE = (0, 3)  # KK-C2: 0-3 track pieces on the front
COIN_RANGE = (1, 10)  # KK-C4: reviews give coins from 1 to 10
DECK_FORMAT = "railkit-cape-to-cairo-deck"
MAX_DECK_BYTES = 1_000_000  # the shipped deck file is about 3.5 kB
MAX_ID_LENGTH = 20  # characters in a card id
MAX_CACHED_DECKS = 16


class CardDict(TypedDict):
    id: str
    terrain: str
    tracks: int
    coin: int


@dataclass(frozen=True)
class Card:
    """One terrain card: what its front shows (KK-C2)."""

    id: str
    terrain: str
    tracks: int
    coin: int

    @property
    def requirement(self) -> int:
        return REQUIREMENT[self.terrain]

    def __str__(self) -> str:
        pieces = "piece" if self.tracks == 1 else "pieces"
        return f"{self.id} ({self.terrain}, {self.tracks} track {pieces}, coin {self.coin})"

    def to_dict(self) -> CardDict:
        return {"id": self.id, "terrain": self.terrain, "tracks": self.tracks, "coin": self.coin}

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self  # immutable: shared by every game using the deck


def default_deck_path() -> Path:
    return data_dir() / "cape_to_cairo" / "deck.json"


_CACHE: dict[tuple[str, int, int], tuple[tuple[Card, ...], dict[str, Card]]] = {}


def load_deck(path: str | os.PathLike[str] | None = None) -> tuple[Card, ...]:
    """Read and validate a deck file; raise ``DataError`` naming file, item and problem.

    Parsed decks are cached per (path, mtime, size): games are set up often (replay, undo).
    """
    return _load(path)[0]


def cards_by_id(path: str | os.PathLike[str] | None = None) -> Mapping[str, Card]:
    """The deck as ``{id: card}`` in file order: one dict per deck file, shared by every game
    that uses it (read it, never change it)."""
    return _load(path)[1]


_DEFAULT_FILE: dict[str | None, tuple[Path, str]] = {}  # RAILKIT_DATA -> the shipped deck's path, resolved


def _load(path: str | os.PathLike[str] | None) -> tuple[tuple[Card, ...], dict[str, Card]]:
    if path is None:  # every game on the shipped deck: its path is found once (importlib.resources is slow)
        data = os.environ.get("RAILKIT_DATA")
        found = _DEFAULT_FILE.get(data)
        if found is None:
            file = default_deck_path()
            found = _DEFAULT_FILE[data] = (file, str(file.resolve()))
        file, resolved = found
    else:
        file = Path(path)
        resolved = str(file.resolve())
    info = deck_stat(file)
    key = (resolved, info.st_mtime_ns, info.st_size)
    cached = _CACHE.get(key)
    if cached is None:
        cards = parse_deck(read_deck_text(file, info), file)
        if len(_CACHE) >= MAX_CACHED_DECKS:
            _CACHE.clear()
        cached = _CACHE[key] = (cards, {c.id: c for c in cards})
    return cached


def deck_stat(file: Path) -> os.stat_result:
    """The deck file's ``stat``; a ``DataError`` when it cannot be looked at."""
    try:
        return file.stat()
    except OSError as exc:
        raise DataError(file, FILE, Message(N_("cannot be read: {reason}"), {"reason": str(exc.strerror or exc)})) from exc


def read_deck_text(file: Path, info: os.stat_result) -> str:
    """The text of a deck file, its size checked before and while reading (a path from a save
    may name anything: a device, a folder, a huge file). ``load_deck`` and ``check-deck`` both read
    through here, so they refuse the same files with the same words."""
    if not stat.S_ISREG(info.st_mode):
        raise DataError(file, FILE, Message(N_("is not a regular file (a deck is a .json text file)")))
    if info.st_size > MAX_DECK_BYTES:
        raise DataError(file, FILE, Message(N_("is {size} bytes; a deck file is at most {most}"),
                                            {"size": Grouped(info.st_size), "most": Grouped(MAX_DECK_BYTES)}))
    try:
        with file.open("rb") as handle:
            data = handle.read(MAX_DECK_BYTES + 1)
    except OSError as exc:
        raise DataError(file, FILE, Message(N_("cannot be read: {reason}"), {"reason": str(exc.strerror or exc)})) from exc
    if len(data) > MAX_DECK_BYTES:
        raise DataError(file, FILE, Message(N_("is more than {most} bytes; a deck file is at most that"),
                                            {"most": Grouped(MAX_DECK_BYTES)}))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(file, FILE, Message(N_("is not UTF-8 text (byte {byte} cannot be read)"),
                                            {"byte": Grouped(exc.start)})) from exc


def parse_deck(text: str, path: object = "<deck>") -> tuple[Card, ...]:
    """The cards of a deck file's text; ``DataError`` naming ``path``, the item and the problem."""
    try:
        data = json.loads(text, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as exc:
        raise DataError(path, json_line(exc), json_problem(exc)) from exc
    except DuplicateKeyError as exc:  # "format": "junk", "format": ... must not pass as the second
        raise DataError(path, FILE, duplicate_key_problem(exc)) from None
    except (ValueError, RecursionError) as exc:  # a number of 5,000 digits, or deep nesting
        raise DataError(path, FILE, Message(N_("holds a value too large or too deeply nested"))) from exc
    if not isinstance(data, dict):
        raise DataError(path, TOP_LEVEL, NOT_AN_OBJECT)
    if data.get("format") not in (None, DECK_FORMAT):
        raise DataError(path, "format", wrong_format(data.get("format")))
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        raise DataError(path, "cards", Message(N_("missing or not a list")))
    if len(raw_cards) != DECK_SIZE:
        raise DataError(path, "cards", wrong_size(len(raw_cards)))
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(raw_cards, 1):
        card = _parse_card(raw, number, path)
        if card.id in seen:
            raise DataError(path, card_item(card.id), duplicate_id(seen[card.id], number))
        seen[card.id] = number
        cards.append(card)
    return tuple(cards)


# The words of a broken deck (KK-C2..C4), shared with ``deck_check``; file values stay as typed.
NOT_AN_OBJECT = Message(N_("expected a JSON object with a 'cards' list"))


def json_line(exc: json.JSONDecodeError) -> Message:
    return Message(N_("line {line} column {column}"), {"line": exc.lineno, "column": exc.colno})


def wrong_format(found: object) -> Message:
    return Message(N_("expected {format}, found {found}"), {"format": repr(DECK_FORMAT), "found": brief(found)})


def wrong_size(found: int) -> Message:
    return Message(N_("the deck must hold {size} cards (KK-C2), found {found}"), {"size": DECK_SIZE, "found": Grouped(found)})


def card_item(card_id: str) -> Message:
    return Message(N_("card {id}"), {"id": repr(card_id)})


def duplicate_id(first: int, again: int) -> Message:
    return Message(N_("duplicate id (card #{first} and card #{again})"), {"first": first, "again": again})


def _parse_card(raw: Any, number: int, path: object) -> Card:
    numbered = Message(N_("card #{number}"), {"number": number})
    if not isinstance(raw, dict):
        raise DataError(path, numbered, Message(N_("expected an object with id, terrain, tracks and coin")))
    card_id = raw.get("id")
    if not isinstance(card_id, str) or not card_id.strip():
        raise DataError(path, numbered, Message(N_("needs a non-empty text 'id'")))
    if len(card_id) > MAX_ID_LENGTH or not card_id.isprintable():
        raise DataError(path, numbered, Message(N_("its id {id} must be at most {most} printable characters"),
                                                {"id": brief(card_id), "most": MAX_ID_LENGTH}))
    item = card_item(card_id)
    terrain = raw.get("terrain")
    if not isinstance(terrain, str) or terrain not in REQUIREMENT:
        raise DataError(path, item, Message(N_("unknown terrain {found}; expected one of {terrains} (KK-C3)"),
                                            {"found": brief(terrain), "terrains": ", ".join(REQUIREMENT)}))
    tracks, coin = raw.get("tracks"), raw.get("coin")
    lo, hi = TRACKS_RANGE
    if not _is_int(tracks) or not lo <= tracks <= hi:
        raise DataError(path, item, Message(N_("tracks must be a whole number from {low} to {high} (KK-C2), found "
                                               "{found}"), {"low": lo, "high": hi, "found": brief(tracks)}))
    lo, hi = COIN_RANGE
    if not _is_int(coin) or not lo <= coin <= hi:
        raise DataError(path, item, Message(N_("coin must be a whole number from {low} to {high} (KK-C4), found "
                                               "{found}"), {"low": lo, "high": hi, "found": brief(coin)}))
    extra = sorted(str(key) for key in raw if key not in ("id", "terrain", "tracks", "coin"))
    if extra:
        shown = ", ".join(brief(key, 20) for key in extra[:5]) + (", …" if len(extra) > 5 else "")
        raise DataError(path, item, nmessage("unknown field {fields}; a card has id, terrain, tracks and coin",
                                             "unknown fields {fields}; a card has id, terrain, tracks and coin",
                                             len(extra), {"fields": shown}))
    return Card(card_id, terrain, tracks, coin)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
