"""Check a Vom Kap bis Kairo deck file: ``python -m railkit.capecairo check-deck FILE``.

For a club that owns the printed game and types its real card list into a deck file (format in
``railkit/data/cape_to_cairo/README.md``). ``load_deck`` stops at the first problem; this check lists
every problem it finds (each naming the card or item), so one run shows what to fix. A deck it
accepts is exactly one ``load_deck`` accepts: the cards are parsed by the same function.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from railkit.capecairo.brief import brief
from railkit.capecairo.deck import DECK_FORMAT, DECK_SIZE, MAX_DECK_BYTES, REQUIREMENT, Card, _parse_card, parse_deck
from railkit.errors import DataError
from railkit.words import count

__all__ = ["check_deck_file", "main", "summary"]

MAX_PROBLEMS = 50  # a file of 5,000 broken cards is reported in part


def check_deck_file(path: str | os.PathLike[str]) -> tuple[tuple[Card, ...] | None, tuple[DataError, ...]]:
    """``(cards, ())`` for a good deck file, ``(None, problems)`` for a broken one (KK-C2..C4)."""
    file = Path(path)
    try:
        text = _read(file)
        data = _json(text, file)
    except DataError as exc:
        return None, (exc,)
    problems = _problems(data, file)
    if problems:
        return None, tuple(problems[:MAX_PROBLEMS])
    return parse_deck(text, file), ()


def _read(file: Path) -> str:
    """The file's text; its size is checked before and while reading (never more than the limit)."""
    try:
        info = file.stat()
    except OSError as exc:
        raise DataError(file, "file", f"cannot be read: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise DataError(file, "file", "is not a regular file (a deck is a .json text file)")
    try:
        with file.open("rb") as handle:
            data = handle.read(MAX_DECK_BYTES + 1)
    except OSError as exc:
        raise DataError(file, "file", f"cannot be read: {exc.strerror or exc}") from exc
    if len(data) > MAX_DECK_BYTES:
        raise DataError(file, "file", f"is more than {MAX_DECK_BYTES:,} bytes; a deck file is at most that")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(file, "file", f"is not UTF-8 text (byte {exc.start:,} cannot be read)") from exc


def _json(text: str, file: Path) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(file, f"line {exc.lineno} column {exc.colno}", f"not valid JSON: {exc.msg}") from exc
    except (ValueError, RecursionError) as exc:  # a number of 5,000 digits, or deep nesting
        raise DataError(file, "file", "holds a value too large or too deeply nested") from exc


def _problems(data: Any, file: Path) -> list[DataError]:
    if not isinstance(data, dict):
        return [DataError(file, "top level", "expected a JSON object with a 'cards' list")]
    problems = []
    if data.get("format") not in (None, DECK_FORMAT):
        problems.append(DataError(file, "format", f"expected {DECK_FORMAT!r}, found {brief(data.get('format'))}"))
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        return [*problems, DataError(file, "cards", "missing or not a list")]
    if len(raw_cards) != DECK_SIZE:
        problems.append(DataError(file, "cards", f"the deck must hold {DECK_SIZE} cards (KK-C2), "
                                                 f"found {len(raw_cards):,}"))
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
            problems.append(DataError(file, f"card {card.id!r}",
                                      f"duplicate id (card #{first[card.id]} and card #{number})"))
        else:
            first[card.id] = number
    return problems


def summary(cards: Sequence[Card]) -> str:
    """One line about a good deck: cards per terrain (KK-C3), track pieces and coins (KK-C2, KK-C4)."""
    per = Counter(c.terrain for c in cards)
    terrains = ", ".join(f"{per[t]} {t}" for t in REQUIREMENT)
    return (f"{count(len(cards), 'card')} ({terrains}), {count(sum(c.tracks for c in cards), 'track piece')}, "
            f"coins {min(c.coin for c in cards)}–{max(c.coin for c in cards)}")


def main(argv: Sequence[str] | None = None, prog: str = "python -m railkit.capecairo check-deck") -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Check a Vom Kap bis Kairo deck file (format: railkit/data/cape_to_cairo/README.md). "
                    "Lists every problem found. Exit code 0: the deck can be used; 1: it cannot.")
    parser.add_argument("file", help=f"the deck file (JSON, at most {MAX_DECK_BYTES:,} bytes)")
    args = parser.parse_args(argv)
    cards, problems = check_deck_file(args.file)
    if cards is None:
        print(f"{args.file}: {count(len(problems), 'problem')} found; the deck cannot be used:", file=sys.stderr)
        for p in problems:
            print(f"  - {p.item}: {p.problem}", file=sys.stderr)
        return 1
    print(f"OK: {summary(cards)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(prog="python -m railkit.capecairo.deck_check"))
