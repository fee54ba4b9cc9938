"""Check a Vom Kap bis Kairo deck file: ``python -m railkit.capecairo check-deck FILE``.

For a club that owns the printed game and types its real card list into a deck file (format in
``railkit/data/cape_to_cairo/README.md``). ``load_deck`` stops at the first problem; this check lists
every problem it finds (each naming the card or item), so one run shows what to fix. A deck it
accepts is exactly one ``load_deck`` accepts: the cards are parsed by the same function.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from railkit.capecairo.deck import (
    DECK_FORMAT,
    DECK_SIZE,
    MAX_DECK_BYTES,
    NOT_AN_OBJECT,
    REQUIREMENT,
    Card,
    _parse_card,
    card_item,
    deck_stat,
    duplicate_id,
    json_line,
    parse_deck,
    read_deck_text,
    wrong_format,
    wrong_size,
)
from railkit.capecairo.phrases import terrain_word
from railkit.cli import Voice, speaking
from railkit.cli import parser as cli_parser
from railkit.datafiles import FILE, TOP_LEVEL, DuplicateKeyError, duplicate_key_problem, json_problem, unique_keys
from railkit.errors import DataError
from railkit.messages import N_, Grouped, Message, nmessage

__all__ = ["check_deck_file", "main", "summary"]

MAX_PROBLEMS = 50  # a file of 5,000 broken cards is reported in part


def check_deck_file(path: str | os.PathLike[str]) -> tuple[tuple[Card, ...] | None, tuple[DataError, ...]]:
    """``(cards, ())`` for a good deck file, ``(None, problems)`` for a broken one (KK-C2..C4)."""
    file = Path(path)
    try:
        text = read_deck_text(file, deck_stat(file))
        data = _json(text, file)
    except DataError as exc:
        return None, (exc,)
    problems = _problems(data, file)
    if problems:
        return None, tuple(problems[:MAX_PROBLEMS])
    return parse_deck(text, file), ()


def _json(text: str, file: Path) -> Any:
    try:
        return json.loads(text, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as exc:
        raise DataError(file, json_line(exc), json_problem(exc)) from exc
    except DuplicateKeyError as exc:  # "format": "junk", "format": ... must not pass as the second
        raise DataError(file, FILE, duplicate_key_problem(exc)) from None
    except (ValueError, RecursionError) as exc:  # a number of 5,000 digits, or deep nesting
        raise DataError(file, FILE, Message(N_("holds a value too large or too deeply nested"))) from exc


def _problems(data: Any, file: Path) -> list[DataError]:
    if not isinstance(data, dict):
        return [DataError(file, TOP_LEVEL, NOT_AN_OBJECT)]
    problems = []
    if data.get("format") not in (None, DECK_FORMAT):
        problems.append(DataError(file, "format", wrong_format(data.get("format"))))
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        return [*problems, DataError(file, "cards", Message(N_("missing or not a list")))]
    if len(raw_cards) != DECK_SIZE:
        problems.append(DataError(file, "cards", wrong_size(len(raw_cards))))
    first: dict[str, int] = {}
    for number, raw in enumerate(raw_cards, 1):
        if len(problems) >= MAX_PROBLEMS:
            break
        try:
            card = _parse_card(raw, number, file)
        except DataError as exc:
            problems.append(exc)
            continue
        if card.id in first:
            problems.append(DataError(file, card_item(card.id), duplicate_id(first[card.id], number)))
        else:
            first[card.id] = number
    return problems


def summary(cards: Sequence[Card]) -> Message:
    """One line about a good deck: cards per terrain (KK-C3), track pieces and coins (KK-C2, KK-C4)."""
    per = Counter(c.terrain for c in cards)
    terrains: Message | str = ""
    for t in REQUIREMENT:
        one = Message(N_("{n} {terrain}"), {"n": per[t], "terrain": terrain_word(t)})
        terrains = Message(N_("{first}, {next}"), {"first": terrains, "next": one}) if terrains else one
    return Message(N_("{cards} ({terrains}), {pieces}, coins {low}–{high}"),
                   {"cards": nmessage("{n} card", "{n} cards", len(cards)), "terrains": terrains,
                    "pieces": nmessage("{n} track piece", "{n} track pieces", sum(c.tracks for c in cards)),
                    "low": min(c.coin for c in cards), "high": max(c.coin for c in cards)})


def main(argv: Sequence[str] | None = None, prog: str = "python -m railkit.capecairo check-deck") -> int:
    voice = Voice.chosen()
    with speaking(voice):
        parser = cli_parser(prog, Message(N_(
            "Check a Vom Kap bis Kairo deck file (format: railkit/data/cape_to_cairo/README.md). "
            "Lists every problem found. Exit code 0: the deck can be used; 1: it cannot.")), voice)
        size = Message(N_("the deck file (JSON, at most {most} bytes)"), {"most": Grouped(MAX_DECK_BYTES)})
        parser.add_argument("file", metavar=voice.say(FILE), help=voice.say(size))
        args = parser.parse_args(argv)
    cards, problems = check_deck_file(args.file)
    if cards is None:
        print(voice.say(nmessage("{path}: {n} problem found; the deck cannot be used:",
                                 "{path}: {n} problems found; the deck cannot be used:", len(problems),
                                 {"path": args.file})), file=sys.stderr)
        for p in problems:
            print(f"  - {voice.say(p.item)}: {voice.say(p.problem)}", file=sys.stderr)
        return 1
    print(f"OK: {voice.say(summary(cards))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(prog="python -m railkit.capecairo.deck_check"))
