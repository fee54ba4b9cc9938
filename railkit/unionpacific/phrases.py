"""Pieces of Union Pacific sentences as ``railkit.messages.Message``s.

The English grammar ``railkit.words`` gives ("a plains card", "2 shares of X and 1 share of Y")
lives here as msgids instead, so a translation can decline the pieces its own way. Track types
and the empty display slot are messages too; company and player names stay as printed.
"""

from __future__ import annotations

from collections.abc import Sequence

from railkit.messages import N_, Message, nmessage, phrase
from railkit.words import a as article

__all__ = ["a_card", "a_share", "a_train", "card_words", "listing", "shares_message", "track_type"]

# The track types of the printed board (board.json) and the wild card, marked for extraction.
TRACK_TYPE_WORDS = (N_("plains"), N_("hills"), N_("mountain"), N_("river"), N_("river valley"), N_("general"))


@phrase
def track_type(card: object) -> Message | str:
    """A track type (a card's key) as a word a catalog can translate; unknown keys stay as typed."""
    text = str(card)
    return Message(text) if text in TRACK_TYPE_WORDS else text


@phrase
def a_card(card: object, adjective: str = "") -> Message:
    """ "a plains card" / "an unusable river card": English picks the article, a catalog the case."""
    english = article(f"{adjective + ' ' if adjective else ''}{card} card")
    if adjective == "unusable":
        return Message(N_("an unusable {card} card"), {"card": track_type(card)})
    if english.startswith("an "):
        return Message(N_("an {card} card"), {"card": track_type(card)})
    return Message(N_("a {card} card"), {"card": track_type(card)})


def listing(items: Sequence[object], joiner: str = "and") -> object:
    """ "A", "A and B", "A, B and C" like ``railkit.words.names``, keeping nested messages whole
    (``joiner="or"``: "A, B or C")."""
    if not items:
        return Message(N_("nobody"))
    if len(items) == 1:
        return items[0]
    head: object = items[0]
    for item in items[1:-1]:
        head = Message(N_("{first}, {next}"), {"first": head, "next": item})
    if joiner == "or":
        return Message(N_("{names} or {last}"), {"names": head, "last": items[-1]})
    return Message(N_("{names} and {last}"), {"names": head, "last": items[-1]})


def shares_message(names: Sequence[tuple[int, str]]) -> object:
    """ "2 shares of Denver Midland and 1 share of Union Pacific" from (count, company name) pairs."""
    return listing([nmessage("{n} share of {company}", "{n} shares of {company}", n, {"company": c})
                    for n, c in names])


@phrase
def card_words(name: str | None) -> Message | str:
    """A share card's name in a sentence; the empty display slot is a translatable "(empty)"."""
    return Message(N_("(empty)")) if name is None or name == "(empty)" else name


@phrase
def a_train(company: str) -> Message:
    """ "a Denver Midland train" / "an El Paso ... train": the article follows the company's name."""
    if article(f"{company} train").startswith("an "):
        return Message(N_("an {company} train"), {"company": company})
    return Message(N_("a {company} train"), {"company": company})


@phrase
def a_share(company: str) -> Message:
    """ "a Union Pacific share" / "an ... share"."""
    if article(f"{company} share").startswith("an "):
        return Message(N_("an {company} share"), {"company": company})
    return Message(N_("a {company} share"), {"company": company})
