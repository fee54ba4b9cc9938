"""Pieces of Union Pacific sentences as ``railkit.messages.Message``s.

The English grammar ``railkit.words`` gives ("a plains card", "2 shares of X and 1 share of Y")
lives here as msgids instead, so a translation can decline the pieces its own way. Track types
and the empty display slot are messages too; company and player names stay as printed.

Two message contexts keep the translations apart where one English word or phrase plays two parts:

* "track type": a track type as it names a card's, a section's or a track's kind ("a plains card", "the
  river track"). Union Pacific's "river" is the River valley track, not Kap bis Kairo's terrain (context
  "terrain" there); Finnish writes the first part of a compound ("tasanko" → "tasankoratakortti"),
  Hungarian an adjective ("síksági sínkártya"), Spanish "de llanura".
* "object": a card, a train or shares as the object of a verb ("plays a plains card", "builds a Denver
  Midland train", "lays 2 shares of …"): Finnish "tasankoratakortin", Hungarian "egy Denver Midland-mozdonyt".
"""

from __future__ import annotations

from collections.abc import Sequence

from railkit.messages import N_, NC_, Message, nmessage, npmessage, phrase
from railkit.words import a as article

__all__ = ["a_card", "a_share", "a_train", "card_words", "listing", "shares_message", "track_type"]

# The track types of the printed board (board.json) and the wild card, marked for extraction in their context.
TRACK_TYPE_WORDS = (NC_("track type", "plains"), NC_("track type", "hills"), NC_("track type", "mountain"),
                    NC_("track type", "river"), NC_("track type", "river valley"), NC_("track type", "general"))
OBJECT = "object"  # the role of a phrase that is the object of its sentence's verb (the module docstring)


@phrase
def track_type(card: object) -> Message | str:
    """A track type (a card's key) as a word a catalog can translate, in the context "track type"; unknown keys
    stay as typed."""
    text = str(card)
    return Message(text, context="track type") if text in TRACK_TYPE_WORDS else text


@phrase
def a_card(card: object, adjective: str = "", role: str = "") -> Message:
    """ "a plains card" / "an unusable river card": English picks the article, a catalog the case (``role``
    "object": the object of a verb)."""
    english = article(f"{adjective + ' ' if adjective else ''}{card} card")
    params = {"card": track_type(card)}
    if role == OBJECT:
        if adjective == "unusable":
            return Message("an unusable {card} card", params, context="object")
        if english.startswith("an "):
            return Message("an {card} card", params, context="object")
        return Message("a {card} card", params, context="object")
    if adjective == "unusable":
        return Message(N_("an unusable {card} card"), params)
    if english.startswith("an "):
        return Message(N_("an {card} card"), params)
    return Message(N_("a {card} card"), params)



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


def shares_message(names: Sequence[tuple[int, str]], role: str = "") -> object:
    """ "2 shares of Denver Midland and 1 share of Union Pacific" from (count, company name) pairs (``role``
    "object": the object of a verb, Finnish "1 Denver Midland -osakkeen", Hungarian "2 … részvényt")."""
    if role == OBJECT:
        return listing([npmessage("object", "{n} share of {company}", "{n} shares of {company}", n, {"company": c})
                        for n, c in names])
    return listing([nmessage("{n} share of {company}", "{n} shares of {company}", n, {"company": c})
                    for n, c in names])


@phrase
def card_words(name: str | None) -> Message | str:
    """A share card's name in a sentence; the empty display slot is a translatable "(empty)"."""
    return Message(N_("(empty)")) if name is None or name == "(empty)" else name


@phrase
def a_train(company: str, role: str = "") -> Message:
    """ "a Denver Midland train" / "an El Paso ... train": the article follows the company's name (``role``
    "object": Finnish "Denver Midland -junan", Hungarian "egy Denver Midland-mozdonyt")."""
    if role == OBJECT:
        if article(f"{company} train").startswith("an "):
            return Message("an {company} train", {"company": company}, context="object")
        return Message("a {company} train", {"company": company}, context="object")
    if article(f"{company} train").startswith("an "):
        return Message(N_("an {company} train"), {"company": company})
    return Message(N_("a {company} train"), {"company": company})


@phrase
def a_share(company: str, role: str = "") -> Message:
    """ "a Union Pacific share" / "an ... share" (``role`` "object": the object of a verb)."""
    if role == OBJECT:
        if article(f"{company} share").startswith("an "):
            return Message("an {company} share", {"company": company}, context="object")
        return Message("a {company} share", {"company": company}, context="object")
    if article(f"{company} share").startswith("an "):
        return Message(N_("an {company} share"), {"company": company})
    return Message(N_("a {company} share"), {"company": company})
