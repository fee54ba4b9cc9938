"""The small phrases Vom Kap bis Kairo's sentences are built from, as ``railkit.messages.Message``s:
counts with their plural forms, terrain names and a card in words. Each reads as the
English ``railkit.words`` gave before; a lesson renders it in the learner's language."""

from __future__ import annotations

from railkit.capecairo.deck import Card
from railkit.messages import N_, Message, nmessage, phrase

__all__ = ["bonus_tracks", "card_words", "cards", "crossing", "pounds", "terrain_word",
           "terrains", "track_pieces", "tracks"]


@phrase
def pounds(n: int) -> Message:
    return nmessage("{n} pound", "{n} pounds", n)


@phrase
def track_pieces(n: int) -> Message:
    return nmessage("{n} track piece", "{n} track pieces", n)


@phrase
def tracks(n: int) -> Message:
    return nmessage("{n} track", "{n} tracks", n)


@phrase
def cards(n: int) -> Message:
    return nmessage("{n} card", "{n} cards", n)


@phrase
def bonus_tracks(n: int) -> Message:
    return nmessage("{n} bonus track", "{n} bonus tracks", n)


@phrase
def terrains(n: int) -> Message:
    return nmessage("{n} terrain", "{n} terrains", n)


# KK-C3: the five terrains, as the engine names them (lower case inside a sentence).
TERRAIN_WORDS = {"river": N_("river"), "mountains": N_("mountains"), "desert": N_("desert"),
                 "village": N_("village"), "savanna": N_("savanna")}
# "crossing a river", "crossing mountains": one phrase per terrain, so each language can inflect it.
CROSSINGS = {"river": N_("crossing a river"), "mountains": N_("crossing mountains"),
             "desert": N_("crossing a desert"), "village": N_("crossing a village"),
             "savanna": N_("crossing a savanna")}


@phrase
def terrain_word(terrain: str) -> Message | str:
    word = TERRAIN_WORDS.get(terrain)
    return terrain if word is None else Message(word)


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
