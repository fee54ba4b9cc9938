"""The learner, named once, for every lesson of both games.

* The name travels in the page address: ``up_play.ipynb?name=Kim`` (the index page's “Your name” field
  writes it; the Voila template copies it onto the links to other lessons). Without one, the learner is
  “You”. A name the engines would refuse (empty, over ``MAX_NAME_LENGTH`` characters, control
  characters) is refused here too, with a message, and “You” is used.
* Voila pre-renders a lesson in a waiting kernel before anyone opens the page, so the address comes
  later: ``follow_page_address`` waits for it in the background and hands the name to the lesson.
* Seats: the learner's seat among the other players (``seat_options``, ``seat_players``), and names
  typed for the other players, separated by commas (``typed_names``).
* ``second_person``: an engine sentence about the learner as the learner reads it (“Kim pays 3” → “You
  pay 3”). The engines always write the third person; only the page changes.

Names are text, never markup: whoever shows one escapes it.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol
from urllib.parse import parse_qs, quote

from railkit.errors import InputError, RuleError
from railkit.game import MAX_NAME_LENGTH, normalize_players
from railkit.messages import N_, NC_, seat_name
from railkit.ui.i18n import DEFAULT_LANGUAGE, catalog_languages, get_language, tr, translations, trc, trn

__all__ = ["DEFAULT_LEARNER", "default_learner", "is_default_learner",
           "NAME_PARAMETER", "LearnerName", "addressed", "check_name", "follow_page_address", "greet_learner",
           "learner_name", "name_from_address", "name_query", "second_person", "seat_options", "seat_players",
           "typed_names"]

# The English default; the learner sees it translated (``default_learner``). A seat named so (a save made on an
# English page, loaded on a Finnish one) is shown translated too, as a seat the engine names (``seat_name``).
DEFAULT_LEARNER = seat_name(N_("You"))
NAME_PARAMETER = "name"  # up_play.ipynb?name=Kim
MAX_QUERY_FIELDS = 20  # a page address with more fields than this is not read further
log = logging.getLogger(__name__)


def default_learner() -> str:
    """The learner's name when nobody gave one: “You” in the language in use when the lesson starts
    (Finnish “Sinä”); a game started then keeps it as the player's name."""
    return tr(DEFAULT_LEARNER)


def is_default_learner(name: str) -> bool:
    """Is ``name`` the default learner, in English or any language railkit speaks (a save made on an English
    page holds “You”; a class table may seat a Finnish page's “Sinä”)?"""
    return name in (DEFAULT_LEARNER, default_learner()) or name in default_names()


@cache
def default_names() -> frozenset[str]:
    """The default learner's name in every language with a catalog (“You”, “Sinä”, “Te”, “Tú”)."""
    return frozenset({DEFAULT_LEARNER, *(translations(lang).gettext(DEFAULT_LEARNER) for lang in catalog_languages())})


# -- the name ------------------------------------------------------------------------------------
def check_name(text: str, label: str) -> str:
    """A name typed or given in the address, by the engines' own rules (``normalize_players``: at most
    ``MAX_NAME_LENGTH`` characters, no control characters); spaces are tidied. ``InputError`` naming
    ``label`` otherwise."""
    raw = str(text)
    if len(raw) > 4 * MAX_NAME_LENGTH:  # a huge text is refused before it is copied or tidied
        raise InputError(trn("“{field}” is too long: a name has at most {n} character (this one has {k}).",
                             "“{field}” is too long: a name has at most {n} characters (this one has {k}).",
                             MAX_NAME_LENGTH, field=label, k=len(raw)))
    if any(unicodedata.category(ch)[0] == "C" for ch in raw):  # a line break or a tab too, as the engines
        raise InputError(tr("“{field}” cannot hold control characters (a line break, a tab, …).", field=label))
    name = " ".join(raw.split())
    if not name:
        raise InputError(tr("“{field}” is empty: type a name.", field=label))
    if len(name) > MAX_NAME_LENGTH:
        raise InputError(trn("“{field}” is too long: a name has at most {n} character (this one has {k}).",
                             "“{field}” is too long: a name has at most {n} characters (this one has {k}).",
                             MAX_NAME_LENGTH, field=label, k=len(name)))
    try:
        (checked,) = normalize_players([name], 1, 1, "NAME")
    except RuleError:
        raise InputError(tr("“{field}” cannot hold control characters (a line break, a tab, …).",
                            field=label)) from None
    return checked


@dataclass(frozen=True)
class LearnerName:
    """The learner's name as the page address gives it: ``name`` (“You” when there is none or it was
    refused) and, when it was refused, ``problem`` (the message to show)."""

    name: str = field(default_factory=default_learner)
    problem: str = ""
    given: bool = False  # the address named the learner (and the name was good)


def address_fields(query: str | None = None) -> dict[str, list[str]]:
    """The fields of the page address's query string; ``None`` reads the one Voila gives the kernel
    (``QUERY_STRING``). An address with more than ``MAX_QUERY_FIELDS`` fields is not read at all."""
    if query is None:
        query = os.environ.get("QUERY_STRING", "")
    try:
        return parse_qs(str(query).lstrip("?"), max_num_fields=MAX_QUERY_FIELDS)
    except ValueError:
        return {}


def name_from_address(query: str | None = None) -> LearnerName:
    """The learner's name from the page address's query string (``?name=Kim``); ``None`` reads the one
    Voila gives the kernel (``QUERY_STRING``)."""
    values = address_fields(query).get(NAME_PARAMETER)
    if not values or not values[-1].strip():
        return LearnerName()
    try:
        return LearnerName(check_name(values[-1], tr("Your name")), given=True)
    except InputError as exc:
        return LearnerName(problem=tr("The name in the page address was not used: {why} You are “{you}” for now; "
                                      "type your name in the “Your name” field.", why=str(exc),
                                      you=default_learner()))


def learner_name(query: str | None = None, default: str = DEFAULT_LEARNER) -> str:
    """Just the name: the address's, else ``default``."""
    found = name_from_address(query)
    return found.name if found.given else default


def name_query(name: str) -> str:
    """``?name=…`` for a link (URL-encoded); empty for the default learner."""
    name = " ".join(str(name).split())
    if not name or is_default_learner(name):
        return ""
    return f"?{NAME_PARAMETER}={quote(name, safe='')}"


_address_lock = threading.Lock()
_address_followers: list[Callable[[LearnerName], object]] = []
_address_state: dict[str, threading.Thread | None] = {"waiting": None}  # the thread that waits


def follow_page_address(on_name: Callable[[LearnerName], object]) -> threading.Thread | None:
    """In a pre-rendered Voila kernel (``VOILA_PREHEAT``), wait in the background for the page address and
    then call ``on_name``; elsewhere the address (if any) was read at the start and this does nothing.

    Voila answers one waiter per kernel, so the kernel waits once and tells every follower in the order
    they came (the page's language, railkit.ui.language, follows first, then the learner's name)."""
    if os.environ.get("VOILA_PREHEAT") != "True":
        return None
    def wait() -> None:
        try:
            from railkit.ui.page_request import wait_for_page_request

            wait_for_page_request()
        except Exception:  # noqa: BLE001 - the page works on with the name it has
            log.exception("the page address could not be read")
            with _address_lock:
                _address_state["waiting"] = None
                _address_followers.clear()
            return
        with _address_lock:  # a later follower waits again (Voila answers it at once from its cache)
            _address_state["waiting"] = None
            followers = list(_address_followers)
            _address_followers.clear()
        _tell(followers)

    with _address_lock:
        _address_followers.append(on_name)
        waiting = _address_state["waiting"]
        if waiting is not None:
            return waiting
        thread = _address_state["waiting"] = threading.Thread(target=wait, name="railkit-page-address", daemon=True)
    thread.start()
    return thread


def _tell(followers: Sequence[Callable[[LearnerName], object]]) -> None:
    found = name_from_address()
    for on_name in followers:
        try:
            on_name(found)
        except Exception:  # noqa: BLE001 - one follower failing leaves the others their turn
            log.exception("a page-address follower failed")


def addressed(words: str, name: str) -> str:
    """A lesson's words to the learner, with their name when they gave one: “Kim, pick a company …”."""
    if not name or is_default_learner(name) or not words:
        return words
    return tr("{name}, {words}", name=name, words=words[0].lower() + words[1:])


class Greeted(Protocol):
    def show_info(self, text: str) -> None: ...

    def show_error(self, text: str) -> None: ...


def greet_learner(app: Greeted, words: str, use: Callable[[str], bool] | None = None) -> str:
    """A lesson's first message: ``words`` addressed to the learner named in the page address, or why that
    name was refused. A name arriving later (pre-rendered Voila) is handed to ``use`` (its lesson shows
    it; False: too late, the learner has begun) and greeted. The learner's name now (“You” by default)."""
    found = name_from_address()
    if found.problem:
        app.show_error(found.problem)
    elif words:
        app.show_info(addressed(words, found.name))

    def later(arrived: LearnerName) -> None:
        if arrived.problem:
            app.show_error(arrived.problem)
        elif arrived.given and (use is None or use(arrived.name)) and words:
            app.show_info(addressed(words, arrived.name))

    follow_page_address(later)
    return found.name


# -- seats and the other players' names ------------------------------------------------------------
# A seat's number, in the context "seat": Spanish writes a seat (asiento) "1.º", a place in the choosing order
# (posición) "1.ª" (railkit.ui.capecairo.common.ordinal).
ORDINALS = (NC_("seat", "1st"), NC_("seat", "2nd"), NC_("seat", "3rd"), NC_("seat", "4th"), NC_("seat", "5th"),
            NC_("seat", "6th"))


def seat_options(n: int, first: str = "") -> list[tuple[str, int]]:
    """“1st — {first}”, “2nd”, … for ``n`` seats (``first``: what the first seat does in this game)."""
    labels = [trc("seat", o) for o in ORDINALS[:n]]
    if first and labels:
        labels[0] = f"{labels[0]} — {first}"
    return [(label, i) for i, label in enumerate(labels)]


def seat_players(you: str, others: Sequence[str], seat: int) -> list[str]:
    """The table in seating order: ``others`` with the learner at ``seat`` (0 = first)."""
    seat = max(0, min(seat, len(others)))
    return [*others[:seat], you, *others[seat:]]


def typed_names(text: str, n: int, label: str, defaults: Sequence[str], taken: Sequence[str] = ()) -> list[str]:
    """``n`` names typed in one field, separated by commas; seats left unnamed take the first of
    ``defaults`` not typed and not ``taken`` (the learner). ``InputError`` naming ``label``: too many
    names, a bad one, or the same name twice."""
    raw = str(text)
    if len(raw) > (MAX_NAME_LENGTH + 2) * (n + 1):
        raise InputError(trn("“{field}” is too long for {n} name.", "“{field}” is too long for {n} names.", n, field=label))
    typed = [check_name(part, label) for part in raw.split(",") if part.strip()]
    if len(typed) > n:
        raise InputError(trn("“{field}”: you typed {k} names for {n} player.", "“{field}”: you typed {k} names for {n} players.",
                                 n, field=label, k=len(typed)))
    used = {name.casefold() for name in (*typed, *taken)}
    spare = [d for d in defaults if d.casefold() not in used]
    names = typed + spare[: n - len(typed)]
    everyone = [*taken, *names]
    twice = sorted({name for name in everyone if [e.casefold() for e in everyone].count(name.casefold()) > 1})
    if twice:
        raise InputError(tr("“{field}”: every player needs a different name ({names} twice).", field=label,
                            names=", ".join(twice)))
    return names


# -- sentences about the learner --------------------------------------------------------------------
# The engines' verbs in sentences about one player (“Kim plays …”), with the form after “you”.
VERBS = {
    "plays": "play", "takes": "take", "invests": "invest", "exchanges": "exchange", "turns": "turn", "has": "have",
    "draws": "draw", "ends": "end", "passes": "pass", "discards": "discard", "lays": "lay", "chooses": "choose",
    "swaps": "swap", "builds": "build", "holds": "hold", "receives": "receive", "wins": "win", "is": "are",
    "places": "place", "gets": "get", "moves": "move", "pays": "pay", "buys": "buy", "bids": "bid",
    "hands": "hand", "crosses": "cross", "keeps": "keep", "opens": "open", "spends": "spend", "shares": "share",
    "was": "were", "does": "do", "cannot": "cannot", "may": "may", "must": "must", "can": "can", "needs": "need",
    "uses": "use", "counts": "count", "reaches": "reach", "loses": "lose", "scores": "score", "puts": "put",
    "shows": "show", "adds": "add", "sells": "sell", "starts": "start", "sits": "sit", "faces": "face",
    "won": "won",
}
_VERB_WORDS = "|".join(sorted(VERBS, key=len, reverse=True))
_ALSO = re.compile(rf"\b(and|so|or|then) ({_VERB_WORDS})\b")  # “… and builds …” in the same clause
_THEIR = re.compile(r"\b(their|themselves)\b")  # “… at the end of their line” in the learner's clause


def _capital_at(line: str, start: int) -> bool:
    """Does a sentence begin at ``start``? (the line's start, or after “. ”, “: ”, “! ”, “? ”, “; ” etc.)"""
    before = line[:start].rstrip(" ")
    return not before or before[-1] in ".!?\n" or bool(re.search(r"(^|\s)\d+\.$", before))


def second_person(line: str, name: str | None) -> str:
    """An engine sentence about ``name`` as the learner reads it: “Kim plays a card” → “You play a card”,
    “Turn 3: Kim draws …” → “Turn 3: you draw …”, “Kim +3” → “you +3”, “Kim's line” → “your line”.

    Only the name as the subject of one of the engine's verbs (or before a payout amount, or as an owner)
    changes; the rest keeps the engine's words. When the learner is called “You”, a “You” left elsewhere
    in a sentence reads “you”."""
    if not name or name not in line or get_language() != DEFAULT_LANGUAGE:
        return line  # the rewriting knows English verbs only; other languages' messages address the learner
    who = re.escape(name)
    subject = re.compile(rf"(?<![\w&]){who}(?P<count> \(\d+\))? "
                         rf"(?:(?P<verb>{_VERB_WORDS})\b(?P<rest>(?:(?!{who}\W)[^;.\n])*)|(?=[+−-]\d))")
    owner = re.compile(rf"(?<![\w&]){who}[’']s\b")

    def you(at: int) -> str:
        return "You" if _capital_at(line, at) else "you"

    def as_subject(m: re.Match[str]) -> str:
        head = you(m.start()) + (m.group("count") or "")
        verb = m.group("verb")
        if not verb:
            return f"{head} "
        rest = _ALSO.sub(lambda a: f"{a.group(1)} {VERBS[a.group(2)]}", m.group("rest"))
        rest = _THEIR.sub(lambda t: {"their": "your", "themselves": "yourself"}[t.group(1)], rest)
        return f"{head} {VERBS[verb]}{rest}"

    out = subject.sub(as_subject, line)
    out = owner.sub(lambda m: "Your" if _capital_at(m.string, m.start()) else "your", out)
    if name == DEFAULT_LEARNER:  # “… pays You 3” → “… pays you 3”
        out = re.sub(r"(?<![\w&])You\b", _you_in, out)
    return out


def _you_in(m: re.Match[str]) -> str:
    return "You" if _capital_at(m.string, m.start()) else "you"
