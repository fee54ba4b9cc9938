"""A club's own Vom Kap bis Kairo deck in the lessons (``railkit.ui.club_files`` for Kap bis Kairo).

The teacher sets ``RAILKIT_KK_DECK=/path/deck.json`` for the whole server; a learner may upload a deck
in a lesson. Decks are checked by ``check_deck_file``, the checker behind
``python -m railkit.capecairo check-deck`` (format: ``railkit/data/cape_to_cairo/README.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from railkit.capecairo.deck import Card
from railkit.capecairo.deck_check import check_deck_file
from railkit.errors import DataError
from railkit.messages import N_
from railkit.ui.club_files import FileKind, LessonData, from_environment
from railkit.ui.docs import reconstruction_note
from railkit.ui.i18n import tr

__all__ = ["KK_DECK", "lesson_deck", "race_note"]


def _check(path: Path) -> tuple[tuple[Card, ...] | None, Sequence[DataError]]:
    return check_deck_file(path)


KK_DECK = FileKind(
    noun=N_("deck"), env_var="RAILKIT_KK_DECK", option="deck", check=_check,
    command="python -m railkit.capecairo check-deck",
    builtin_note=N_("The rulebook does not list the 50 terrain cards: this deck is railkit's reconstruction."))


def lesson_deck(data: LessonData | None = None) -> LessonData:
    """The deck a lesson starts on: ``data`` if given, else the teacher's ``RAILKIT_KK_DECK`` (or the
    built-in deck, with a banner when that file is broken)."""
    return data if data is not None else from_environment(KK_DECK)


def race_note(data: LessonData, built_in: str) -> str:
    """The note under the race map: ``built_in`` (route and deck reconstructed), or on a club deck the
    route's note and the club's deck named."""
    if data.club is None:
        return built_in
    return reconstruction_note(tr("The card game has no map: this route through nine real towns is an "
                                  "illustration (each leg is one terrain card).")) + data.note_html()
