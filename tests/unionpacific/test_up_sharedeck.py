"""Building the share deck: UP-S7, UP-S7-FI, UP-V1, UP-V2."""

import random
from collections import Counter

import pytest

from railkit.errors import RuleError
from railkit.unionpacific.sharedeck import (
    DIVIDEND,
    Pile,
    build_share_deck,
    deck_layout,
    safe_round_reserve_size,
)

# UP-C1: shares per company (98 in all); keys are stand-ins for the ten companies
SHARES_PER_COMPANY = {"C1": 18, "C2": 15, "C3": 12, "C4": 10, "C5": 9, "C6": 8, "C7": 7, "C8": 7, "C9": 6, "C10": 6}
ALL_SHARES = [key for key, n in SHARES_PER_COMPANY.items() for _ in range(n)]
OPTIONS = ("standard", "finnish", "dividend_cards")


def remaining_shares(players: int) -> list[str]:
    """The shares left after UP-S4 (4 per player) and UP-S6 (4 in the display)."""
    assert len(ALL_SHARES) == 98
    cards = ALL_SHARES[:]
    random.Random(players).shuffle(cards)
    return cards[4 * players + 4 :]


def dividend_positions(deck: list[str]) -> list[int]:
    return [i for i, card in enumerate(deck) if card == DIVIDEND]


def build(option: str, players: int = 4, seed: int = 1, safe_round: bool = False):
    return build_share_deck(remaining_shares(players), random.Random(seed), option, players, safe_round)


# -- UP-S7 standard ----------------------------------------------------------------
def test_UP_S7_layout_six_eighteen_rest():
    assert deck_layout("standard", 78, 4, False) == (
        Pile("top six", 6, 0),
        Pile("eighteen", 18, 1),
        Pile("rest", 54, 3),
    )


@pytest.mark.parametrize("seed", range(30))
def test_UP_S7_dividend_positions(seed):
    deck, reserve = build("standard", seed=seed)
    assert reserve == []
    assert len(deck) == 78 + 4
    positions = dividend_positions(deck)
    assert len(positions) == 4
    assert not any(p < 6 for p in positions)  # nothing in the top six
    assert sum(6 <= p < 25 for p in positions) == 1  # cards 7..25: eighteen + one dividend
    assert sum(p >= 25 for p in positions) == 3  # the rest


def test_UP_S7_dividend_can_lie_anywhere_in_its_pile():
    seen: set[int] = set()
    for seed in range(400):
        deck, _ = build("standard", seed=seed)
        seen.update(p for p in dividend_positions(deck) if p < 25)
    assert min(seen) == 6 and max(seen) == 24


# -- UP-S7-FI Finnish ----------------------------------------------------------------
def test_UP_S7_FI_layout_has_a_bottom_six():
    layout = deck_layout("finnish", 78, 4, False)
    assert [(p.cards, p.dividends) for p in layout] == [(6, 0), (18, 1), (48, 3), (6, 0)]


@pytest.mark.parametrize("seed", range(30))
def test_UP_S7_FI_dividend_positions(seed):
    deck, reserve = build("finnish", seed=seed)
    assert reserve == []
    positions = dividend_positions(deck)
    assert len(deck) == 82 and len(positions) == 4
    assert not any(p < 6 for p in positions)
    assert sum(6 <= p < 25 for p in positions) == 1
    assert sum(25 <= p < len(deck) - 6 for p in positions) == 3
    assert DIVIDEND not in deck[-6:]  # the last six hold no dividend


# -- UP-V1 dividend-card variant -------------------------------------------------------------
def test_UP_V1_layout_alternates_six_and_dividend_piles():
    layout = deck_layout("dividend_cards", 78, 4, False)
    assert len(layout) == 8
    assert [p.cards for p in layout[0::2]] == [6, 6, 6, 6]  # six-piles, one on top
    assert all(p.dividends == 0 for p in layout[0::2])
    assert all(p.dividends == 1 for p in layout[1::2])  # bottom pile is a dividend pile
    # 78 - 24 = 54 into four roughly equal piles
    assert [p.cards for p in layout[1::2]] == [14, 14, 13, 13]


@pytest.mark.parametrize("remaining", [24, 25, 53, 54, 55, 57, 86])
def test_UP_V1_dividend_piles_are_roughly_equal(remaining):
    sizes = [p.cards for p in deck_layout("dividend_cards", remaining, 4, False)[1::2]]
    assert sum(sizes) == remaining - 24
    assert max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize("seed", range(30))
def test_UP_V1_one_dividend_per_dividend_pile(seed):
    deck, _ = build("dividend_cards", seed=seed)
    layout = deck_layout("dividend_cards", 78, 4, False)
    start = 0
    for pile in layout:
        segment = deck[start : start + pile.size]
        assert segment.count(DIVIDEND) == pile.dividends
        start += pile.size
    assert start == len(deck)
    assert DIVIDEND not in deck[:6]


# -- UP-V2 safe round ------------------------------------------------------------------------
@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("players", range(2, 7))
def test_UP_V2_reserve_is_three_per_player_and_holds_no_dividend(option, players):
    cards = remaining_shares(players)
    deck, reserve = build_share_deck(cards, random.Random(7), option, players, safe_round=True)
    assert len(reserve) == 3 * players == safe_round_reserve_size(players, True)
    assert DIVIDEND not in reserve
    assert len(deck) == len(cards) - 3 * players + 4
    assert Counter(deck) + Counter(reserve) == Counter(cards) + Counter({DIVIDEND: 4})


def test_UP_V2_layout_counts_cards_before_the_reserve():
    # 70 cards with six players: 18 set aside leaves 52 = 6 + 18 + 28
    layout = deck_layout("standard", 70, 6, True)
    assert [p.cards for p in layout] == [6, 18, 28]
    assert safe_round_reserve_size(6, False) == 0


def test_UP_V2_too_few_cards_for_the_reserve_names_the_safe_round():
    with pytest.raises(RuleError) as err:
        build_share_deck(["C1"] * 30, random.Random(0), "standard", 6, safe_round=True)
    assert err.value.rule == "UP-V2"
    assert "safe_round" in err.value.message


# -- all options -------------------------------------------------------------------------------
@pytest.mark.parametrize("safe_round", [False, True])
@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("players", range(2, 7))
def test_UP_S7_layout_agrees_with_built_deck(players, option, safe_round):
    cards = remaining_shares(players)
    layout = deck_layout(option, len(cards), players, safe_round)
    for seed in range(5):
        deck, reserve = build_share_deck(cards, random.Random(seed), option, players, safe_round)
        assert len(deck) == sum(p.size for p in layout)
        assert sum(p.dividends for p in layout) == 4
        assert len(reserve) == safe_round_reserve_size(players, safe_round)
        start = 0
        for pile in layout:
            assert deck[start : start + pile.size].count(DIVIDEND) == pile.dividends, pile
            start += pile.size
        # card conservation: nothing lost, nothing invented
        assert Counter(deck) + Counter(reserve) == Counter(cards) + Counter({DIVIDEND: 4})


@pytest.mark.parametrize("option", OPTIONS)
def test_UP_S7_same_seed_same_deck(option):
    cards = remaining_shares(3)
    first = build_share_deck(cards, random.Random(42), option, 3, True)
    again = build_share_deck(cards, random.Random(42), option, 3, True)
    other = build_share_deck(cards, random.Random(43), option, 3, True)
    assert first == again
    assert first != other


def test_UP_S7_input_is_not_modified():
    cards = remaining_shares(4)
    before = list(cards)
    build_share_deck(cards, random.Random(0))
    assert cards == before


# -- errors ----------------------------------------------------------------------------------
def test_UP_S7_unknown_option_raises():
    with pytest.raises(RuleError) as err:
        build_share_deck(remaining_shares(4), random.Random(0), "hungarian")
    assert err.value.rule == "UP-S7" and "standard" in err.value.message
    with pytest.raises(RuleError):
        deck_layout("hungarian", 78, 4, False)


@pytest.mark.parametrize(
    "option, minimum, rule", [("standard", 24, "UP-S7"), ("finnish", 30, "UP-S7-FI"), ("dividend_cards", 24, "UP-V1")]
)
def test_UP_S7_too_few_cards_raises(option, minimum, rule):
    deck, _ = build_share_deck(["C1"] * minimum, random.Random(0), option)
    assert len(deck) == minimum + 4
    with pytest.raises(RuleError) as err:
        build_share_deck(["C1"] * (minimum - 1), random.Random(0), option)
    assert err.value.rule == rule


@pytest.mark.parametrize("bad, rule", [(DIVIDEND, "UP-S7"), ("UP", "UP-S3"), (3, "UP-S7")])
def test_UP_S7_rejects_non_company_cards(bad, rule):
    cards = remaining_shares(4)
    cards[10] = bad
    with pytest.raises(RuleError) as err:
        build_share_deck(cards, random.Random(0))
    assert err.value.rule == rule
