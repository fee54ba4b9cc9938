"""Where a train may go: the six conditions of UP-B2, explained in plain words.

The game owns the state and passes it in:

- ``trains_on``: section id -> company keys with a train there, starting trains included;
- ``supply``: company key -> trains not yet on the board (a missing key counts as 0).

``explain_placement`` answers every condition (UP-B2a–f) with a sentence a learner can
read; ``legal_sections`` is the fast bulk version and must agree with it;
``placement_error`` turns the first failed condition into a ``RuleError``.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from railkit.errors import RuleError
from railkit.messages import N_, Message, nmessage
from railkit.unionpacific.board import GENERAL, TRACK_TYPES, Board, Company, Section
from railkit.unionpacific.phrases import listing, track_type
from railkit.words import a

RULES = ("UP-B2a", "UP-B2b", "UP-B2c", "UP-B2d", "UP-B2e", "UP-B2f")


@dataclass(frozen=True)
class Check:
    rule: str  # "UP-B2a" .. "UP-B2f"
    passed: bool
    sentence: str


@dataclass(frozen=True)
class PlacementExplanation:
    company: str
    section: str
    card: str
    checks: tuple[Check, ...]  # always six, UP-B2a..f in order
    title: str = ""  # e.g. "Denver Midland train on Denver–El Paso with a mountain card"

    @property
    def legal(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if not c.passed)

    def __str__(self) -> str:
        verdict = "allowed" if self.legal else "not allowed"
        lines = [f"{self.title or f'{self.company} on {self.section} with {self.card}'}: {verdict}"]
        lines += [f"  [{'x' if c.passed else ' '}] {c.rule} {c.sentence}" for c in self.checks]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        verdict = "allowed" if self.legal else "not allowed"
        rows = "".join(
            f"<tr><td>{'&#10004;' if c.passed else '&#10008;'}</td><td>{c.rule}</td>"
            f"<td>{html.escape(c.sentence)}</td></tr>"
            for c in self.checks
        )
        title = html.escape(self.title or f"{self.company} on {self.section} with {self.card}")
        return (f"<table><caption>{title}: <b>{verdict}</b></caption>"
                f"<tr><th></th><th>rule</th><th>why</th></tr>{rows}</table>")


# -- lookups that turn bad keys into RuleErrors ---------------------------------------
def _company(board: Board, key: str) -> Company:
    for company in board.companies:
        if company.key == key:
            return company
    known = ", ".join(c.key for c in board.companies)
    raise RuleError("UP-B2", f"there is no company {key!r}; choose one of {known}")


def _section(board: Board, section_id: str) -> Section:
    try:
        return board.sections[section_id]
    except KeyError:
        raise RuleError("UP-B2", f"there is no section {section_id!r} on this board; "
                        "pick a section id from the map") from None


def _check_card(board: Board, card: str) -> None:
    if card != GENERAL and card not in TRACK_TYPES:
        raise RuleError("UP-B2", f"{card!r} is not a track card; play one of "
                        f"{', '.join(TRACK_TYPES)} or {GENERAL}")


# -- the state questions ---------------------------------------------------------------
def reachable_cities(board: Board, trains_on: Mapping[str, Sequence[str]], company_key: str) -> set[str]:
    """UP-B2e: the HQ plus every city linked to it by sections carrying the company's trains."""
    hq = _company(board, company_key).headquarters
    own = []
    for sid, keys in trains_on.items():
        if company_key in keys:
            section = _section(board, sid)
            own.append((section.a, section.b, sid))
    if not own:
        return {hq}
    network = board.graph.edge_subgraph(own)  # the company's own rails only
    if hq not in network:  # trains cut off from the HQ never happen in play, but be exact
        return {hq}
    return set(nx.node_connected_component(network, hq))


def _free_neutral(section: Section, trains: Sequence[str]) -> int:
    # Trains of companies starting here sit on their coloured space; the rest use neutral
    # ones. Equals spaces - len(trains) when starting trains are listed, as the game does.
    return section.neutral_spaces - sum(1 for key in trains if key not in section.starting)


def connection_trains(board: Board, trains_on: Mapping[str, Sequence[str]], section: Section,
                      company_key: str) -> list[Section]:
    """UP-B2d: the sections of ``section``'s connection (every section between the same two
    cities, parallel ones included) that already carry a ``company_key`` train."""
    return [s for s in board.sections_between(section.a, section.b) if company_key in trains_on.get(s.id, ())]


def legal_sections(board: Board, trains_on: Mapping[str, Sequence[str]], supply: Mapping[str, int],
                   company_key: str, card: str) -> list[str]:
    """Every section id (file order) where ``card`` may place a ``company_key`` train now."""
    company = _company(board, company_key)
    _check_card(board, card)
    if supply.get(company_key, 0) <= 0:  # UP-B2f
        return []
    reach = reachable_cities(board, trains_on, company_key)
    result = []
    for sid, section in board.sections.items():
        trains = trains_on.get(sid, ())
        if ((card == GENERAL or card == section.track_type)          # a
                and section.track_type in company.track_types         # b
                and _free_neutral(section, trains) > 0                # c
                and not connection_trains(board, trains_on, section, company_key)  # d
                and (section.a in reach or section.b in reach)):      # e
            result.append(sid)
    return result


# -- explanations ----------------------------------------------------------------------
def _a(kind: object, noun: str) -> Message:
    """ "a plains section" / "an ... card" (English picks the article from the words)."""
    an = a(f"{kind} {noun}").startswith("an ")
    if noun == "section":
        return Message(N_("an {kind} section") if an else N_("a {kind} section"), {"kind": kind})
    return Message(N_("an {kind} card") if an else N_("a {kind} card"), {"kind": kind})


def _a_kinds(kinds: object) -> Message:
    """ "a plains, hills or mountain section": a section of one of several kinds (a list), a message of its own, as
    Finnish cannot put a list of kinds before a compound's second part."""
    if a(f"{kinds} section").startswith("an "):
        return Message(N_("an {kinds} section"), {"kinds": kinds})
    return Message(N_("a {kinds} section"), {"kinds": kinds})


def _explain(board: Board, trains_on: Mapping[str, Sequence[str]], supply: Mapping[str, int],
             company_key: str, section_id: str, card: str) -> tuple[PlacementExplanation, dict[str, Message]]:
    """The explanation, plus for each failed rule the advice a RuleError adds."""
    company = _company(board, company_key)
    section = _section(board, section_id)
    _check_card(board, card)
    trains = trains_on.get(section_id, ())
    label = {t: track_type(board.track_labels.get(t, t).lower()) for t in TRACK_TYPES}
    label[GENERAL] = track_type(GENERAL)
    kind = label[section.track_type]
    where = {"section": section.name, "kind": kind, "company": company.name, "a": section.a, "b": section.b}
    allowed = [label[t] for t in TRACK_TYPES if t in company.track_types]
    checks: list[Check] = []
    advice: dict[str, Message] = {}

    def add(rule: str, passed: bool, fact: str, params: Mapping[str, object] | None = None,
            todo: str = "") -> None:
        said = fact if isinstance(fact, Message) else Message(fact, {**where, **(params or {})})
        checks.append(Check(rule, passed, Message(N_("{fact} ({rule})."), {"fact": said, "rule": rule})))
        if not passed:
            advice[rule] = Message(N_("{fact}; {todo}"), {"fact": said, "todo": Message(todo, {**where, **(params or {})})})

    # UP-B2a: the card sets the track type; a general card is wild
    if card == GENERAL:
        add("UP-B2a", True, N_("The general card matches any track type, including the {kind} track of {section}"))
    elif card == section.track_type:
        add("UP-B2a", True, N_("The {kind} card matches the {kind} track of {section}"))
    else:
        add("UP-B2a", False, N_("{section} is {a_section}, but the card played is {a_card}"),
            {"a_section": _a(kind, "section"), "a_card": _a(label[card], "card"), "a_kind_card": _a(kind, "card")},
            N_("play {a_kind_card} or a general card"))

    # UP-B2b: the company's own track types
    if section.track_type in company.track_types:
        add("UP-B2b", True, N_("The {company} may build on {kind} track"))
    else:
        add("UP-B2b", False, N_("{section} is {a_section} and the {company} may only build on {allowed}"),
            {"a_section": _a(kind, "section"), "allowed": listing(allowed),
             "a_allowed": _a_kinds(listing(allowed, "or"))},
            N_("pick {a_allowed} for it, or build for another company"))

    # UP-B2c: an empty neutral space (coloured starting spaces never take trains)
    free = _free_neutral(section, trains)
    if free > 0:
        add("UP-B2c", True, nmessage("{section} has {n} empty neutral space", "{section} has {n} empty neutral spaces",
                                     free, where))
    elif section.neutral_spaces == 0:
        add("UP-B2c", False, N_("{section} has no neutral space: its only space is a coloured starting space"),
            todo=N_("starting spaces never take trains; pick another section"))
    else:
        add("UP-B2c", False, N_("{section} has no empty neutral space left"), todo=N_("pick another section"))

    # UP-B2d: one train per company per connection (parallel sections between the same two
    # cities are one connection, DECISION in docs/rulings.md)
    held = connection_trains(board, trains_on, section, company_key)
    parallel = len(board.sections_between(section.a, section.b)) > 1
    if not held:
        add("UP-B2d", True, N_("The {company} has no train between {a} and {b} yet") if parallel
            else N_("The {company} has no train on {section} yet"))
    elif held[0].id == section.id:
        add("UP-B2d", False, N_("The {company} already has a train on {section}"),
            todo=N_("a company runs at most one train per connection; pick another section"))
    else:
        add("UP-B2d", False, N_("The {company} already has a train between {a} and {b}, on the {held} section"),
            {"held": label[held[0].track_type]},
            N_("a company runs at most one train per connection, even where two sections join the same "
               "cities; pick another section"))

    # UP-B2e: linked to the headquarters by the company's own trains
    hq = company.headquarters
    reach = reachable_cities(board, trains_on, company_key)
    if section.touches(hq):
        add("UP-B2e", True, N_("{section} touches {hq}, the headquarters of the {company}"), {"hq": hq})
    elif section.a in reach or section.b in reach:
        city = section.a if section.a in reach else section.b
        add("UP-B2e", True, N_("{section} touches {city}, which the {company} trains already link to its "
                               "headquarters in {hq}"), {"hq": hq, "city": city})
    else:
        add("UP-B2e", False, N_("Neither {a} nor {b} is linked to {hq}, the headquarters of the {company}, "
                                "by its own trains"), {"hq": hq},
            N_("first build the {company} out to {a} or {b}"))

    # UP-B2f: a train left in the supply
    left = supply.get(company_key, 0)
    if left > 0:
        add("UP-B2f", True, nmessage("The {company} has {n} train left in the supply",
                                     "The {company} has {n} trains left in the supply", left, where))
    else:
        add("UP-B2f", False, N_("All {trains} trains of the {company} are on the board"), {"trains": company.trains},
            N_("a company with no trains left cannot expand; build for another company"))

    title = Message(N_("{company} train on {section} with {a_card}"), {**where, "a_card": _a(label[card], "card")})
    return PlacementExplanation(company_key, section_id, card, tuple(checks), title), advice


def explain_placement(board: Board, trains_on: Mapping[str, Sequence[str]], supply: Mapping[str, int],
                      company_key: str, section_id: str, card: str) -> PlacementExplanation:
    """All six UP-B2 conditions for one placement, each passed or failed with a sentence."""
    return _explain(board, trains_on, supply, company_key, section_id, card)[0]


def placement_error(board: Board, trains_on: Mapping[str, Sequence[str]], supply: Mapping[str, int],
                    company_key: str, section_id: str, card: str) -> RuleError | None:
    """The first failed UP-B2 condition as a ``RuleError`` (what is wrong; what to do), or None."""
    explanation, advice = _explain(board, trains_on, supply, company_key, section_id, card)
    for check in explanation.checks:
        if not check.passed:
            return RuleError(check.rule, advice[check.rule])
    return None
