"""Building the Union Pacific share deck (UP-S7, UP-S7-FI, UP-V1, UP-V2).

Cards are plain strings: company keys (``"BNL"``, ...) and ``DIVIDEND``. The deck is a
list with index 0 = the TOP card (the next one drawn).

``deck_layout`` describes the piles without any randomness (for the setup lesson's
picture); ``build_share_deck`` deals real cards into exactly that layout, so the two can
never disagree.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from railkit.errors import RuleError
from railkit.messages import N_, Message

__all__ = [
    "DECK_OPTIONS",
    "DIVIDEND",
    "DIVIDEND_CARDS",
    "Pile",
    "build_share_deck",
    "deck_layout",
    "safe_round_reserve_size",
]

DIVIDEND = "DIVIDEND"
DIVIDEND_CARDS = 4  # UP-C1
DECK_OPTIONS = ("standard", "finnish", "dividend_cards")
_RULE = {"standard": "UP-S7", "finnish": "UP-S7-FI", "dividend_cards": "UP-V1"}
SAFE_ROUND_CARDS_PER_PLAYER = 3  # UP-V2


@dataclass(frozen=True)
class Pile:
    """One pile of the share deck. ``cards`` counts share cards only; ``dividends`` is how
    many dividend cards are shuffled in among them (so the pile holds cards + dividends)."""

    label: str
    cards: int
    dividends: int

    @property
    def size(self) -> int:
        return self.cards + self.dividends


def safe_round_reserve_size(players: int, safe_round: bool) -> int:
    """UP-V2: 3 × players share cards are set aside when the safe round is played, else none."""
    return SAFE_ROUND_CARDS_PER_PLAYER * players if safe_round else 0


def _check_option(option: object) -> str:
    if option not in _RULE:
        raise RuleError("UP-S7", Message(N_("unknown share-deck option {option}; choose one of {options}"),
                                         {"option": repr(option), "options": ", ".join(DECK_OPTIONS)}))
    return str(option)


def _check_players(players: object) -> None:
    if type(players) is not int or players < 1:
        raise RuleError("UP-V2", f"the number of players must be a whole number ≥ 1, not {players!r}")


def _split_evenly(total: int, parts: int) -> list[int]:
    # "Roughly equal" (UP-V1): sizes differ by at most one; the extra cards go to the
    # piles nearest the top, as when dealing round-robin starting with the top pile.
    base, extra = divmod(total, parts)
    return [base + 1 if i < extra else base for i in range(parts)]


def deck_layout(option: str, remaining_cards: int, players: int, safe_round: bool) -> tuple[Pile, ...]:
    """The piles of the share deck, top pile first, for ``remaining_cards`` share cards.

    ``remaining_cards`` counts the company shares left after the hands (UP-S4) and the
    display (UP-S6) are dealt, BEFORE any safe-round reserve is set aside: it is
    ``len(cards)`` as passed to ``build_share_deck``. With ``safe_round`` the layout
    itself takes the 3 × players reserve (UP-V2) off first; the reserve is not a pile of
    the deck (see ``safe_round_reserve_size``).
    """
    rule = _RULE[_check_option(option)]
    _check_players(players)
    if type(remaining_cards) is not int or remaining_cards < 0:
        raise RuleError(
            rule, f"the number of remaining share cards must be a whole number ≥ 0, not {remaining_cards!r}"
        )
    reserve = safe_round_reserve_size(players, safe_round)
    n = remaining_cards - reserve
    fixed = {"standard": 6 + 18, "finnish": 6 + 18 + 6, "dividend_cards": 4 * 6}[option]
    if n < fixed:
        if safe_round and remaining_cards >= fixed:
            raise RuleError("UP-V2", Message(
                N_("the safe round sets aside {reserve} of the {cards} share cards, leaving {left}, but the "
                   "{option} deck ({rule}) needs at least {needed}; play without safe_round or with fewer players"),
                {"reserve": reserve, "cards": remaining_cards, "left": n, "option": option, "rule": rule,
                 "needed": fixed}))
        raise RuleError(rule, Message(
            N_("the {option} deck needs at least {needed} share cards after the hands and display are dealt, "
               "not {cards}; play with fewer players or another deck option"),
            {"option": option, "needed": fixed, "cards": remaining_cards}))
    rest = n - fixed
    if option == "standard":  # UP-S7: 6 | 18 + 1 dividend | rest + 3 dividends
        return (Pile("top six", 6, 0), Pile("eighteen", 18, 1), Pile("rest", rest, 3))
    if option == "finnish":  # UP-S7-FI: as UP-S7 with six more, dividend-free cards at the bottom
        return (Pile("top six", 6, 0), Pile("eighteen", 18, 1), Pile("rest", rest, 3), Pile("bottom six", 6, 0))
    # UP-V1: built from the bottom as dividend pile, six, dividend pile, six, ...; so read
    # from the top it is six, dividend pile, six, dividend pile, ..., dividend pile.
    piles: list[Pile] = []
    for i, size in enumerate(_split_evenly(rest, DIVIDEND_CARDS), 1):
        piles.append(Pile(f"six {i}", 6, 0))
        piles.append(Pile(f"dividend pile {i}", size, 1))
    return tuple(piles)


def build_share_deck(
    cards: Sequence[str],
    rng: random.Random,
    option: str = "standard",
    players: int = 4,
    safe_round: bool = False,
) -> tuple[list[str], list[str]]:
    """Shuffle ``cards`` into the share deck; return ``(deck, safe_round_reserve)``.

    ``cards`` are the company shares left after dealing the hands (UP-S4) and the display
    (UP-S6); UP shares (UP-S3) and dividend cards must not be among them: the four
    dividend cards are added here. ``deck[0]`` is the top card. The reserve is empty
    unless ``safe_round`` (UP-V2); the game puts ``players`` of its cards on top of the
    deck after each payout.

    ``rng`` is consumed in a fixed order, so a given seed always gives the same deck:
    1. one shuffle of all of ``cards`` (the piles are then cut from the top down);
    2. the reserve is the first 3 × players of them;
    3. one shuffle per pile that receives dividend cards, top pile first.
    """
    layout = deck_layout(option, len(cards), players, safe_round)
    for card in cards:
        if not isinstance(card, str):
            raise RuleError("UP-S7", f"share cards are company keys (strings), not {card!r}")
        if card == DIVIDEND:
            raise RuleError("UP-S7", "pass the share cards only; the four dividend cards are shuffled in here")
        if card == "UP":
            raise RuleError("UP-S3", "Union Pacific shares form their own stack and never go into the share deck")
    pool = list(cards)
    rng.shuffle(pool)
    reserve_size = safe_round_reserve_size(players, safe_round)
    reserve, pool = pool[:reserve_size], pool[reserve_size:]
    deck: list[str] = []
    start = 0
    for pile in layout:
        part = pool[start : start + pile.cards]
        start += pile.cards
        if pile.dividends:
            part.extend([DIVIDEND] * pile.dividends)
            rng.shuffle(part)  # the dividend card(s) may land anywhere in this pile
        deck.extend(part)
    return deck, reserve
