"""Union Pacific dividend payouts: UP-D2..UP-D11."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from railkit.errors import RuleError
from railkit.unionpacific.payouts import (
    UP_TABLE,
    PayoutExplanation,
    company_payout,
    company_value,
    explain_company_payout,
    explain_union_pacific_payout,
    union_pacific_payout,
)


# -- railway companies ---------------------------------------------------------
def test_UP_D2_value_is_trains_plus_headquarters():
    assert company_value(1) == 2  # every company at the start
    assert company_value(2) == 3  # EP&RG at the start
    assert company_value(5) == 6


def test_UP_D3_primary_gets_value_secondary_half_rounded_down():
    assert company_payout(7, {"Ann": 4, "Bob": 2, "Cid": 1}) == {"Ann": 7, "Bob": 3, "Cid": 0}
    assert company_payout(8, {"Ann": 1, "Bob": 3}) == {"Ann": 4, "Bob": 8}


def test_UP_D4_sole_shareholder_gets_both_amounts():
    assert company_payout(6, {"Ann": 2, "Bob": 0, "Cid": 0}) == {"Ann": 9, "Bob": 0, "Cid": 0}
    assert company_payout(7, {"Ann": 1}) == {"Ann": 10}


def test_UP_D5_tie_for_most_pools_and_splits_rounded_down():
    # the rulebook example: value 7, three tied -> (7 + 3) / 3 -> 3 each
    assert company_payout(7, {"A": 2, "B": 2, "C": 2}) == {"A": 3, "B": 3, "C": 3}
    # players with fewer shares get nothing, even though a secondary place is "free"
    assert company_payout(6, {"A": 3, "B": 3, "C": 1}) == {"A": 4, "B": 4, "C": 0}


def test_UP_D6_one_primary_tied_secondaries_split_half_possibly_to_nothing():
    # the rulebook example: value 5, three tied secondaries -> 2 / 3 -> 0 each
    assert company_payout(5, {"P": 3, "S1": 1, "S2": 1, "S3": 1}) == {"P": 5, "S1": 0, "S2": 0, "S3": 0}
    assert company_payout(9, {"P": 3, "S1": 1, "S2": 1}) == {"P": 9, "S1": 2, "S2": 2}


def test_UP_D7_worked_examples():
    # El Paso & Rio Grande worth 3, holdings 3 / 2 / 1
    assert company_payout(3, {"Laura": 3, "Ville": 2, "Erkka": 1}) == {"Laura": 3, "Ville": 1, "Erkka": 0}
    # Sioux Falls Royal Blue worth 6 (five trains), holdings 4 / 2 / 1
    assert company_payout(company_value(5), {"Mikko": 4, "Inkeri": 2, "Suvi": 1}) == {
        "Mikko": 6,
        "Inkeri": 3,
        "Suvi": 0,
    }


def test_UP_D3_non_shareholders_appear_with_zero_in_input_order():
    shares = {"Dan": 0, "Bob": 2, "Ann": 5, "Eve": 0}
    result = company_payout(4, shares)
    assert list(result) == ["Dan", "Bob", "Ann", "Eve"]
    assert result == {"Dan": 0, "Bob": 2, "Ann": 4, "Eve": 0}
    assert company_payout(4, {"Ann": 0, "Bob": 0}) == {"Ann": 0, "Bob": 0}
    assert company_payout(4, {}) == {}


# -- Union Pacific -------------------------------------------------------------
def test_UP_D9_table():
    assert dict(UP_TABLE) == {
        1: (0, 0, 0, 0, 0),
        2: (10, 8, 6, 4, 2),
        3: (15, 12, 9, 6, 3),
        4: (20, 16, 12, 8, 4),
    }
    shares = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}
    for number, row in UP_TABLE.items():
        assert union_pacific_payout(number, shares) == dict(zip("ABCDE", row, strict=True))


def test_UP_D9_first_payout_pays_nothing():
    assert union_pacific_payout(1, {"A": 9, "B": 1}) == {"A": 0, "B": 0}


def test_UP_D10_unused_positions_are_not_paid():
    assert union_pacific_payout(3, {"A": 1, "B": 3, "C": 0}) == {"A": 12, "B": 15, "C": 0}
    assert sum(union_pacific_payout(4, {"A": 2}).values()) == 20


def test_UP_D11_examples():
    # 2nd payout, three tied for 2nd -> (8 + 6 + 4) / 3 = 6 each
    result = union_pacific_payout(2, {"A": 4, "B": 2, "C": 2, "D": 2})
    assert result == {"A": 10, "B": 6, "C": 6, "D": 6}
    # 3rd payout, three tied for 1st -> (15 + 12 + 9) / 3 = 12 each; the next takes position 4
    result = union_pacific_payout(3, {"A": 3, "B": 3, "C": 3, "D": 1})
    assert result == {"A": 12, "B": 12, "C": 12, "D": 6}


def test_UP_D11_tie_reaching_past_fifth_adds_zero():
    # positions 4..6 at the 4th payout: 8 + 4 + 0 = 12, / 3 = 4 each
    shares = {"A": 9, "B": 8, "C": 7, "D": 1, "E": 1, "F": 1, "G": 0}
    assert union_pacific_payout(4, shares) == {"A": 20, "B": 16, "C": 12, "D": 4, "E": 4, "F": 4, "G": 0}
    # positions 5..6 at the 3rd payout: 3 + 0 = 3, / 2 = 1 each (rounded down)
    shares = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1, "F": 1}
    assert union_pacific_payout(3, shares) == {"A": 15, "B": 12, "C": 9, "D": 6, "E": 1, "F": 1}
    # a sixth player on their own is past the table
    shares = {"A": 6, "B": 5, "C": 4, "D": 3, "E": 2, "F": 1}
    assert union_pacific_payout(2, shares)["F"] == 0


def test_UP_D11_next_player_after_a_tie_takes_next_free_position():
    result = union_pacific_payout(4, {"A": 3, "B": 3, "C": 2, "D": 1})
    assert result == {"A": 18, "B": 18, "C": 12, "D": 8}


# -- bad input -------------------------------------------------------------------
@pytest.mark.parametrize(
    "value, shares, rule",
    [
        (-1, {"A": 1}, "UP-D2"),
        (2.5, {"A": 1}, "UP-D2"),
        ("7", {"A": 1}, "UP-D2"),
        (True, {"A": 1}, "UP-D2"),
        (5, {"A": -1}, "UP-D3"),
        (5, {"A": 1.0}, "UP-D3"),
        (5, {"A": True}, "UP-D3"),
        (5, [("A", 1)], "UP-D3"),
    ],
)
def test_UP_D3_bad_company_input_raises_rule_error(value, shares, rule):
    with pytest.raises(RuleError) as err:
        company_payout(value, shares)
    assert err.value.rule == rule
    with pytest.raises(RuleError):
        explain_company_payout(value, shares)


@pytest.mark.parametrize(
    "number, shares",
    [(0, {"A": 1}), (5, {"A": 1}), (2.0, {"A": 1}), ("2", {"A": 1}), (None, {}), (2, {"A": -2}), (2, {"A": "1"})],
)
def test_UP_D9_bad_union_pacific_input_raises_rule_error(number, shares):
    with pytest.raises(RuleError) as err:
        union_pacific_payout(number, shares)
    assert err.value.rule == "UP-D9"
    assert "UP-D9" in str(err.value)
    with pytest.raises(RuleError):
        explain_union_pacific_payout(number, shares)


def test_UP_D2_bad_train_count_raises():
    with pytest.raises(RuleError, match="UP-D2"):
        company_value(-1)


# -- explanations ----------------------------------------------------------------
def test_UP_D5_explanation_walks_through_the_tie():
    exp = explain_company_payout(7, {"Ann": 2, "Bob": 2, "Cid": 2, "Dan": 0}, company="Billings Northern Lights")
    assert isinstance(exp, PayoutExplanation)
    assert exp.title == "Billings Northern Lights, value 7"
    assert dict(exp.amounts) == {"Ann": 3, "Bob": 3, "Cid": 3, "Dan": 0}
    text = str(exp)
    assert text.splitlines()[0] == exp.title
    assert text.splitlines()[1].startswith("1. ")
    assert "UP-D5" in text and "7 + 3 = 10" in text and "rounded down to 3" in text
    assert "Dan" in text
    html = exp._repr_html_()
    assert "<ol>" in html and "Billings Northern Lights" in html


def test_UP_D11_explanation_names_the_positions_and_the_sum():
    exp = explain_union_pacific_payout(2, {"A": 4, "B": 2, "C": 2, "D": 2})
    assert exp.title == "Union Pacific, payout 2"
    text = str(exp)
    assert "positions 2–4" in text and "8 + 6 + 4 = 18" in text and "UP-D11" in text
    assert "UP-D10" in text  # position 5 is unused


def test_UP_D9_explanation_html_escapes_names():
    exp = explain_union_pacific_payout(3, {"<b>": 1})
    html = exp._repr_html_()
    assert "&lt;b&gt;" in html and "<b>" not in html


# -- properties ------------------------------------------------------------------
holdings = st.dictionaries(
    st.sampled_from(["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]), st.integers(0, 12), max_size=7
)
values = st.integers(0, 30)
payout_numbers = st.integers(1, 4)


@given(values, holdings)
def test_UP_D5_company_total_never_exceeds_value_plus_half(value, shares):
    result = company_payout(value, shares)
    assert list(result) == list(shares)
    assert sum(result.values()) <= value + value // 2
    assert all(result[p] == 0 for p, n in shares.items() if n == 0)


@given(payout_numbers, holdings)
def test_UP_D11_union_pacific_total_never_exceeds_table_column(number, shares):
    result = union_pacific_payout(number, shares)
    assert list(result) == list(shares)
    assert sum(result.values()) <= sum(UP_TABLE[number])
    assert all(result[p] == 0 for p, n in shares.items() if n == 0)


@given(values, payout_numbers, holdings)
def test_UP_D3_D9_more_shares_never_get_less_money(value, number, shares):
    for result in (company_payout(value, shares), union_pacific_payout(number, shares)):
        for a, na in shares.items():
            for b, nb in shares.items():
                if na > nb:
                    assert result[a] >= result[b]


@given(values, payout_numbers, holdings)
def test_UP_D3_D9_explanations_agree_with_plain_functions(value, number, shares):
    exp = explain_company_payout(value, shares, company="Denver Midland")
    assert dict(exp.amounts) == company_payout(value, shares)
    assert list(exp.amounts) == list(shares)
    exp = explain_union_pacific_payout(number, shares)
    assert dict(exp.amounts) == union_pacific_payout(number, shares)
    assert exp.steps and exp.steps[-1] == f"Paid in total: {sum(exp.amounts.values())}."


@given(values, holdings)
def test_UP_D3_D9_listing_order_does_not_change_amounts(value, shares):
    # money depends on holdings only, never on the order the players are listed in
    reversed_shares = dict(reversed(list(shares.items())))
    assert company_payout(value, reversed_shares) == company_payout(value, shares)
    assert union_pacific_payout(4, reversed_shares) == union_pacific_payout(4, shares)


def test_UP_D3_D11_the_bots_payouts_of_counted_holdings_match_the_checked_ones():
    """HeuristicBot works payouts out on tuples of holdings (no dicts, no checks): on every table of 2-4 seats
    holding 0-3 shares each (0-2 with five seats, 0-1 with six), each seat holding 0-4 is paid what company_payout and
    union_pacific_payout pay, and a seat's stake in one more train is what the payouts before and after it give."""
    import itertools

    from railkit.unionpacific.bot_estimates import company_amounts_of, company_stake, union_pacific_amounts_of

    mine = range(5)
    for seats in range(2, 7):
        for counts in itertools.product(range({5: 3, 6: 2}.get(seats, 4)), repeat=seats):
            shares = dict(enumerate(counts))
            for value in (0, 3, 8):
                paid = company_payout(value, shares)
                rise = [company_payout(value + 1, shares)[p] - paid[p] for p in shares]
                for seat in range(seats):
                    for hand in range(3):  # my rise with my hand laid down too; the others' as they are
                        future = {**shares, seat: counts[seat] + hand}
                        my_rise = company_payout(value + 1, future)[seat] - company_payout(value, future)[seat]
                        expected = my_rise - 0.6 * max(rise[:seat] + rise[seat + 1:])
                        assert company_stake(value, counts, seat, hand) == expected, (value, counts, seat, hand)
                    expected = [company_payout(value, {**shares, seat: n})[seat] for n in mine]
                    assert company_amounts_of(value, counts, seat, mine) == expected, (value, counts, seat)
            for number in UP_TABLE:
                for seat in range(seats):
                    expected = [union_pacific_payout(number, {**shares, seat: n})[seat] for n in mine]
                    assert union_pacific_amounts_of(number, counts, seat, mine) == expected, (number, counts, seat)
