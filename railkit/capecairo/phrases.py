"""The small phrases Vom Kap bis Kairo's sentences are built from, as ``railkit.messages.Message``s:
counts with their plural forms, terrain names and a card in words. Each reads as the
English ``railkit.words`` gave before; a lesson renders it in the learner's language.

A count has a role in its sentence, and some languages inflect the noun after the number for it
(Finnish "saa 1 punnan" / "7 puntaa", Hungarian "kap 7 fontot"): ``role="object"`` (what a player
receives, uses, buys) and ``role="price"`` (what it costs: "10 punnalla", "10 fontért") are the same
English phrase in a message context of their own (``npmessage``), which each catalog fills with the
form its grammar needs after that number (the plural rule picks 1 or many)."""

from __future__ import annotations

from railkit.capecairo.deck import Card
from railkit.messages import N_, NC_, Message, nmessage, npmessage, phrase

__all__ = ["bonus_tracks", "card_words", "cards", "crossing", "pounds", "terrain_word",
           "terrains", "track_pieces", "tracks"]


@phrase
def pounds(n: int, role: str = "") -> Message:
    """"7 pounds"; ``role`` "object" (Finnish "7 puntaa", "1 punnan", Hungarian "7 fontot") or "price"
    (Finnish "10 punnalla", Hungarian "10 fontért")."""
    if role == "object":
        return npmessage("object", "{n} pound", "{n} pounds", n)
    if role == "price":
        return npmessage("price", "{n} pound", "{n} pounds", n)
    return nmessage("{n} pound", "{n} pounds", n)


@phrase
def track_pieces(n: int, role: str = "") -> Message:
    """"3 track pieces"; ``role`` "object" (Finnish "1 radanpätkän", Hungarian "3 sínelemet")."""
    if role == "object":
        return npmessage("object", "{n} track piece", "{n} track pieces", n)
    return nmessage("{n} track piece", "{n} track pieces", n)


@phrase
def tracks(n: int) -> Message:
    return nmessage("{n} track", "{n} tracks", n)


@phrase
def cards(n: int) -> Message:
    return nmessage("{n} card", "{n} cards", n)


@phrase
def bonus_tracks(n: int, role: str = "") -> Message:
    """"2 bonus tracks"; ``role`` "object" (Finnish "1 bonusradan", Hungarian "2 bónuszsínt")."""
    if role == "object":
        return npmessage("object", "{n} bonus track", "{n} bonus tracks", n)
    return nmessage("{n} bonus track", "{n} bonus tracks", n)


@phrase
def terrains(n: int, role: str = "") -> Message:
    """"8 terrains"; ``role`` "object" (Finnish "ylittänyt 1 maaston", Hungarian "8 terepet")."""
    if role == "object":
        return npmessage("object", "{n} terrain", "{n} terrains", n)
    return nmessage("{n} terrain", "{n} terrains", n)


# KK-C3: the five terrains, as the engine names them (lower case inside a sentence). In the context "terrain":
# Kap bis Kairo's river is not Union Pacific's river track (railkit.unionpacific.phrases).
TERRAIN_WORDS = {"river": NC_("terrain", "river"), "mountains": NC_("terrain", "mountains"),
                 "desert": NC_("terrain", "desert"), "village": NC_("terrain", "village"),
                 "savanna": NC_("terrain", "savanna")}
# "crossing a river", "crossing mountains": one phrase per terrain, so each language can inflect it.
CROSSINGS = {"river": N_("crossing a river"), "mountains": N_("crossing mountains"),
             "desert": N_("crossing a desert"), "village": N_("crossing a village"),
             "savanna": N_("crossing a savanna")}


@phrase
def terrain_word(terrain: str) -> Message | str:
    word = TERRAIN_WORDS.get(terrain)
    return terrain if word is None else Message(word, context="terrain")


@phrase
def crossing(terrain: str) -> Message | str:
    phrase = CROSSINGS.get(terrain)
    return f"crossing {terrain}" if phrase is None else Message(phrase)


def card_words(card: Card) -> Message:
    """``str(card)``: "R01 (river, 2 track pieces, coin 4)" (railkit.capecairo.deck.Card)."""
    known = _BY_CARD.get(id(card))
    if known is not None and known[0] is card:  # the same card object (it never changes): its words again
        return known[1]
    words = _card_words(card.id, card.terrain, card.tracks, card.coin)
    if len(_BY_CARD) >= 4096:
        _BY_CARD.clear()
    _BY_CARD[id(card)] = (card, words)
    return words


_BY_CARD: dict[int, tuple[Card, Message]] = {}  # id of a card -> (the card, kept alive; its words)


@phrase
def _card_words(card_id: str, terrain: str, pieces: int, coin: int) -> Message:
    return nmessage("{id} ({terrain}, {n} track piece, coin {coin})", "{id} ({terrain}, {n} track pieces, coin {coin})",
                    pieces, {"id": card_id, "terrain": terrain_word(terrain), "coin": coin})
