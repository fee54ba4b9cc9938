"""Links for the class: one address per lesson that starts every learner on the same game.

The teacher's page (``railkit.ui.teacher.page``) makes them; the lessons read them from the page address:

* ``seed``: the game number (the deal; 0 to 999 999 999);
* ``players``: how many play (the lesson's own range);
* ``variant``: Union Pacific's share deck (``standard``, ``finnish``, ``dividend_cards``: UP-S7, UP-S7-FI,
  UP-V1); Vom Kap bis Kairo's length (``8``, ``5`` or ``3`` terrains to win, KK-E1);
* ``lang``: the language (``railkit.ui.language`` reads it), ``table``: a class table's code to join.

Which lesson takes which field is ``LINK_FIELDS``. A value out of bounds or not understood is refused in
words (``ClassOptions.problems``) and the lesson starts with its defaults for that field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

from railkit.ui.i18n import tr
from railkit.ui.records.learner import address_fields
from railkit.ui.tables.table_link import is_table_code

__all__ = ["LINK_FIELDS", "ClassOptions", "LinkFields", "class_link", "class_options"]

MAX_SEED = 999_999_999


@dataclass(frozen=True)
class LinkFields:
    """What a lesson's link may set: ``players`` (fewest, most) and the ``variants`` it knows (None: neither)."""

    players: tuple[int, int] | None = None
    variants: tuple[str, ...] = ()
    table: bool = False  # the lesson has “Play with others”: a table's code may travel in the link
    seed: bool = False  # the lesson deals its game from the link's number


LINK_FIELDS: dict[str, LinkFields] = {
    "up_play": LinkFields((2, 6), ("standard", "finnish", "dividend_cards"), table=True, seed=True),
    "kk_play": LinkFields((2, 4), ("8", "5", "3"), table=True, seed=True),
    "kk_auction": LinkFields((2, 4), seed=True),
    "up_setup": LinkFields((2, 6), ("standard", "finnish", "dividend_cards"), seed=True),
}


@dataclass(frozen=True)
class ClassOptions:
    """The class link's fields as a lesson reads them (None: not given, or refused)."""

    seed: int | None = None
    players: int | None = None
    variant: str | None = None
    problems: tuple[str, ...] = ()

    @property
    def given(self) -> bool:
        return self.seed is not None or self.players is not None or self.variant is not None


def _refused(field: str, why: str) -> str:
    return tr("The page address's “{field}” was not used ({why}); the lesson starts with its default.",
              field=field, why=why)


def class_options(lesson: str, query: str | None = None) -> ClassOptions:
    """The class link's ``seed``, ``players`` and ``variant`` in the page address (``None``: Voila's), as
    lesson ``lesson`` may use them; hostile or out-of-range values are refused in words."""
    fields = address_fields(query)
    spec = LINK_FIELDS.get(lesson, LinkFields())
    problems: list[str] = []
    seed = players = variant = None
    raw = fields.get("seed", [""])[-1].strip()
    if raw and spec.seed:
        if raw.isascii() and raw.isdigit() and len(raw) <= 9:
            seed = int(raw)
        else:
            problems.append(_refused("seed", tr("a game number is a whole number from 0 to {n}", n=MAX_SEED)))
    raw = fields.get("players", [""])[-1].strip()
    if raw and spec.players is not None:
        low, high = spec.players
        if raw.isascii() and raw.isdigit() and len(raw) <= 2 and low <= int(raw) <= high:
            players = int(raw)
        else:
            problems.append(_refused("players", tr("this game is for {low} to {high} players", low=low, high=high)))
    raw = fields.get("variant", [""])[-1].strip()
    if raw and spec.variants:
        if raw in spec.variants:
            variant = raw
        else:
            problems.append(_refused("variant", tr("it is one of {names}", names=", ".join(spec.variants))))
    return ClassOptions(seed, players, variant, tuple(problems))


def link_to_deal(lesson: str, show_error: Callable[[str], object], started: bool) -> ClassOptions | None:
    """The class link a lesson deals its game from: its refused values said through ``show_error``; ``None``
    when the address has none or the learner has ``started`` (their game stays)."""
    link = class_options(lesson)
    if link.problems:
        show_error(" ".join(link.problems))
    return link if link.given and not started else None


def class_link(lesson: str, seed: int | None = None, players: int | None = None, variant: str | None = None,
               lang: str | None = None, table: str | None = None) -> str:
    """The address of ``lesson`` beside the teacher's page (``../up_play.ipynb?seed=…``) with the fields it
    takes; a field the lesson does not take is left out (``ValueError`` for a value out of bounds)."""
    spec = LINK_FIELDS.get(lesson, LinkFields())
    query: dict[str, str] = {}
    if seed is not None and spec.seed:
        if not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed {seed} is not from 0 to {MAX_SEED}")
        query["seed"] = str(seed)
    if players is not None and spec.players is not None:
        if not spec.players[0] <= players <= spec.players[1]:
            raise ValueError(f"{lesson} is for {spec.players[0]} to {spec.players[1]} players")
        query["players"] = str(players)
    if variant and spec.variants:
        if variant not in spec.variants:
            raise ValueError(f"{lesson}'s variants are {', '.join(spec.variants)}")
        query["variant"] = variant
    if lang:
        query["lang"] = lang
    if table and spec.table:
        if not is_table_code(table):
            raise ValueError(f"{table!r} is not a table's code")
        query["table"] = table
    return f"../{lesson}.ipynb" + (f"?{urlencode(query)}" if query else "")
