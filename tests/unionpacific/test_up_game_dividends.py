"""The Union Pacific engine: dividend cards and payouts (UP-D), two players (UP-2P) and the
variants (UP-V). Payouts are arranged by putting dividend cards on top of the deck and
choosing the table holdings; those games are not replayed afterwards.
"""

from __future__ import annotations

import pytest
from up_helpers import started

from railkit.errors import GameOverError, RuleError
from railkit.unionpacific import (
    DIVIDEND,
    IMAGINARY,
    UP,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    PayoutExplanation,
    new_game,
)


def draw_with_top(game, *top, source="deck"):
    """Rig: the current player has built (no train placed) and the deck starts with ``top``."""
    game._state.step = "draw"
    game._state.deck[0:0] = list(top)
    p = game.current_player
    return p, game.apply(DrawShare(p, source))


def set_tables(game, **holdings):
    """``holdings``: company key -> tuple of counts in seat order."""
    for p in game.players:
        game._state.table[p] = {}
    for key, counts in holdings.items():
        for p, n in zip(game.players, counts, strict=False):
            if n:
                game._state.table[p][key] = n


def set_value(game, key, value):
    """Rig a company's value (UP-D2) through its trains on the board."""
    game._state.net.supply[key] = game.state.net.totals[key] - (value - 1)


# -- dividend cards (UP-D1) ------------------------------------------------------------------------
def test_UP_D1_dividend_on_a_deck_draw_the_drawer_draws_again_then_payout():
    game = started(4)
    hand_before = sum(game.state.share_hand[game.current_player].values())
    p, events = draw_with_top(game, DIVIDEND, "SPS")
    assert game.state.share_hand[p]["SPS"] >= 1 and sum(game.state.share_hand[p].values()) == hand_before + 1
    assert len(game.state.payouts) == 1 and game.state.payouts[0].drawer == p
    assert game.state.box[-1] == DIVIDEND
    text = "\n".join(events)
    assert text.index("dividend card") < text.index("takes the top card") < text.index("Payout 1")


def test_UP_D1_dividend_on_a_display_refill():
    game = started(4)
    p, _ = draw_with_top(game, DIVIDEND, "PAS", source="display:1")
    assert game.state.display[1] == "PAS" and len(game.state.payouts) == 1


def test_UP_D1_double_dividend_pays_twice_in_a_row():
    game = started(4)
    _, events = draw_with_top(game, DIVIDEND, DIVIDEND, "KCCL")
    assert [r.number for r in game.state.payouts] == [1, 2]
    assert sum(e.startswith("Payout ") for e in events) == 2


def test_UP_D1_chain_keeps_drawing_until_a_share_DECISION():
    game = started(5)
    _, events = draw_with_top(game, DIVIDEND, DIVIDEND, DIVIDEND, "KCCL")
    assert [r.number for r in game.state.payouts] == [1, 2, 3] and not game.is_over
    assert game.state.box.count(DIVIDEND) == 3


def test_UP_D1_after_the_payout_the_drawer_may_exchange_then_the_next_player_DECISION():
    game = started(4)
    p, _ = draw_with_top(game, DIVIDEND, "SPS")
    assert game.current_player == p and game.state.step == "exchange"
    game.apply(ExchangeForUP(p, "SPS"))
    assert game.current_player == game.players[1]


def test_UP_D2_value_is_trains_on_board_plus_one():
    game = started(4)
    values = game.view(None).company_values
    assert values["EPRG"] == 3 and all(v == 2 for k, v in values.items() if k != "EPRG")
    build = game.legal_placements()[0]
    game.apply(build)
    assert game.view(None).company_values[build.company] == values[build.company] + 1


def test_UP_D3_primary_gets_the_value_secondary_half_rounded_down():
    game = started(3)
    set_tables(game, DM=(2, 1, 0))
    set_value(game, "DM", 7)
    draw_with_top(game, DIVIDEND, "SPS")
    assert dict(game.state.payouts[0].amounts) == dict(zip(game.players, (7, 3, 0), strict=True))


def test_UP_D4_sole_shareholder_gets_both_amounts():
    game = started(3)
    set_tables(game, SFRB=(0, 2, 0))
    set_value(game, "SFRB", 6)
    draw_with_top(game, DIVIDEND, "SPS")
    assert game.state.payouts[0].amounts[game.players[1]] == 9


def test_UP_D5_tie_for_most_pools_primary_and_secondary():
    game = started(4)
    set_tables(game, BNL=(2, 2, 2, 1))
    set_value(game, "BNL", 7)
    draw_with_top(game, DIVIDEND, "SPS")
    assert list(game.state.payouts[0].amounts.values()) == [3, 3, 3, 0]


def test_UP_D6_tied_secondaries_split_the_secondary_amount():
    game = started(4)
    set_tables(game, CLS=(3, 1, 1, 1))
    set_value(game, "CLS", 5)
    draw_with_top(game, DIVIDEND, "SPS")
    assert list(game.state.payouts[0].amounts.values()) == [5, 0, 0, 0]


def test_UP_D7_rulebook_examples():
    game = started(3)
    set_tables(game, EPRG=(3, 2, 1), SFRB=(4, 2, 1))
    set_value(game, "SFRB", 6)  # five trains
    draw_with_top(game, DIVIDEND, "SPS")
    record = game.state.payouts[0]
    assert list(record.holdings["EPRG"].values()) == [3, 2, 1] and record.values["EPRG"] == 3
    assert list(record.amounts.values()) == [3 + 6, 1 + 3, 0]


def test_UP_D8_companies_in_summary_card_order_then_UP():
    game = started(4)
    set_tables(game, **{k: (1, 0, 0, 0) for k in reversed(game.company_order)}, UP=(1, 0, 0, 0))
    draw_with_top(game, DIVIDEND, "SPS")
    titles = [e.title for e in game.state.payouts[0].explanations]
    names = [game.board.company(k).name for k in game.company_order]
    assert [t.split(",")[0] for t in titles] == names + ["Union Pacific"]


def test_UP_D9_union_pacific_table_by_payout_number():
    game = started(6)
    set_tables(game, UP=(6, 5, 4, 3, 2, 1))
    draw_with_top(game, DIVIDEND, DIVIDEND, DIVIDEND, "SPS")
    amounts = [[r.amounts[p] for p in game.players] for r in game.state.payouts]
    assert amounts == [[0] * 6, [10, 8, 6, 4, 2, 0], [15, 12, 9, 6, 3, 0]]


def test_UP_D10_fewer_than_five_holders_unused_positions_not_paid():
    game = started(4)
    set_tables(game, UP=(0, 3, 1, 0))
    draw_with_top(game, DIVIDEND, DIVIDEND, "SPS")
    assert list(game.state.payouts[1].amounts.values()) == [0, 10, 8, 0]


def test_UP_D11_ties_share_consecutive_positions():
    game = started(5)
    set_tables(game, UP=(4, 2, 2, 2, 0))
    draw_with_top(game, DIVIDEND, DIVIDEND, "SPS")
    assert list(game.state.payouts[1].amounts.values()) == [10, 6, 6, 6, 0]  # (8 + 6 + 4) / 3
    game = started(4)
    set_tables(game, UP=(3, 3, 3, 1))
    draw_with_top(game, DIVIDEND, DIVIDEND, DIVIDEND, "SPS")
    assert list(game.state.payouts[2].amounts.values()) == [12, 12, 12, 6]  # (15 + 12 + 9) / 3


def test_UP_D12_game_ends_immediately_after_the_fourth_payout():
    game = started(4)
    p, events = draw_with_top(game, DIVIDEND, DIVIDEND, DIVIDEND, DIVIDEND, "SPS")
    assert game.is_over and len(game.state.payouts) == 4 and game.state.step == "over"
    assert game.current_player is None and game.players_to_act() == () and game.legal_actions() == []
    assert "UP-D12" in events[-1]
    with pytest.raises(GameOverError) as info:
        game.apply(EndTurn(p))
    assert info.value.rule == "UP-D12"
    result = game.result()
    best = max(result.money.values())
    assert result.winners == tuple(q for q, m in result.money.items() if m == best)
    assert len(result.details["payouts"]) == 4


def test_UP_D12_equal_money_shares_the_win_DECISION():
    game = started(3)
    set_tables(game, BNL=(1, 1, 0))
    draw_with_top(game, DIVIDEND, DIVIDEND, DIVIDEND, DIVIDEND, "SPS")
    result = game.result()
    a, b, c = game.players
    assert result.money[a] == result.money[b] > result.money[c]
    assert result.winners == (a, b)
    assert "share the win" in game.narrative[-1]


def test_UP_D13_hidden_money_shows_only_your_own_until_the_end():
    game = started(3, public_money=False)
    a, b, _ = game.players
    assert game.view(a).money == {a: 0}
    assert game.view(None).money == {}
    assert started(3).view(a).money == {p: 0 for p in game.players}
    draw_with_top(game, DIVIDEND, DIVIDEND, DIVIDEND, DIVIDEND, "SPS")
    assert set(game.view(None).money) == set(game.players)


def test_UP_D_payout_is_explained_in_the_narrative():
    game = started(3)
    set_tables(game, EPRG=(3, 2, 1))
    _, events = draw_with_top(game, DIVIDEND, "SPS")
    text = "\n".join(game.narrative)
    assert "Payout 1 of 4" in text and "El Paso & Rio Grande, value 3" in text
    assert "primary shareholder" in text and "UP-D3" in text
    record = game.state.payouts[0]
    assert all(isinstance(e, PayoutExplanation) for e in record.explanations)
    assert str(record.explanations[0]) in events
    assert sum(e.amounts[p] for e in record.explanations for p in game.players) == sum(record.amounts.values())


# -- the deck runs out -----------------------------------------------------------------------------
def test_deck_exhausted_pays_the_remaining_payouts_at_once_DECISION():
    game = started(4)
    draw_with_top(game, DIVIDEND, "SPS")
    game.apply(EndTurn(game.current_player))
    game._state.deck[:] = ["BNL"]  # rig: the last card, no dividend left
    p, events = draw_with_top(game)
    assert game.is_over and len(game.state.payouts) == 4 and game.state.end_reason == "UP-D12"
    assert game.state.payouts[-1].reason == "share deck exhausted"
    assert any("run out" in e for e in events)


def test_draw_from_empty_deck_is_rejected():
    game = started(4)
    game._state.deck.clear()
    game._state.step = "draw"
    with pytest.raises(RuleError) as info:
        game.apply(DrawShare(game.current_player, "deck"))
    assert info.value.rule == "UP-B3"


# -- two players -------------------------------------------------------------------------------------
def test_UP_2P1_two_players_end_after_the_third_payout_fourth_card_unused():
    game = started(2)
    _, events = draw_with_top(game, DIVIDEND, DIVIDEND, DIVIDEND, DIVIDEND, "SPS")
    assert game.is_over and len(game.state.payouts) == 3
    assert any("UP-2P1" in e for e in events)
    assert DIVIDEND not in game.state.deck  # what was left went to the imaginary player (UP-2P2)


def test_UP_2P2_imaginary_third_player_after_the_draw_completes():
    game = started(2)
    draw_with_top(game, DIVIDEND, DIVIDEND, "SPS")
    game.apply(EndTurn(game.current_player))
    display = [c for c in game.state.display]
    p = game.current_player
    rest_after_draw = list(game.state.deck)  # the drawer takes the rigged "PAS" first
    stack = game.state.up_stack
    draw_with_top(game, DIVIDEND, "PAS")
    assert game.state.share_hand[p].get("PAS"), "the drawer completes the draw first"
    expected = {}
    for card in display + rest_after_draw:
        if card != DIVIDEND:
            expected[card] = expected.get(card, 0) + 1
    expected[UP] = stack
    assert game.state.imaginary == expected
    assert IMAGINARY in game.state.payouts[-1].amounts and IMAGINARY in game.result().money
    assert game.is_over and not game.state.deck and game.state.display == [None] * 4 and game.state.up_stack == 0


def test_UP_2P2_imaginary_player_can_win():
    game = started(2)
    set_tables(game)  # the two real players hold nothing on the table
    draw_with_top(game, DIVIDEND, DIVIDEND, DIVIDEND, "SPS")
    assert game.result().winners == (IMAGINARY,)


def test_UP_2P2_name_is_reserved():
    with pytest.raises(RuleError):
        new_game(["Ann", IMAGINARY])


# -- variants ---------------------------------------------------------------------------------------
def test_UP_V1_dividend_card_variant_deck():
    game = new_game(4, seed=2, deck="dividend_cards")
    deck = game.state.deck
    assert DIVIDEND not in deck[:6] and deck.count(DIVIDEND) == 4
    rest = len(deck) - 24 - 4
    size = [rest // 4 + (1 if i < rest % 4 else 0) + 1 for i in range(4)]
    start = 0
    for s in size:
        start += 6
        assert DIVIDEND not in deck[start - 6:start]
        assert deck[start:start + s].count(DIVIDEND) == 1
        start += s


def test_UP_V2_safe_round_reserve_goes_on_top_after_each_payout():
    game = started(4, safe_round=True)
    assert len(game.state.reserve) == 12
    first = game.state.reserve[:4]
    draw_with_top(game, DIVIDEND, "SPS")
    assert game.state.deck[:4] == first and len(game.state.reserve) == 8
    assert any("UP-V2" in e for e in game.narrative)


def test_UP_V3_countable_deck_count_is_public():
    game = started(4, countable_deck=True)
    assert game.view(None).deck_count == len(game.state.deck)
    assert started(4).view(None).deck_count is None


def test_UP_V4_removed_cards_go_under_the_deck():
    game = started(4, removed_to_bottom=True)
    p, _ = draw_with_top(game, "SPS")
    game.apply(ExchangeForUP(p, "SPS"))
    assert game.state.deck[-1] == "SPS" and "SPS" not in game.state.box
    game._state.step = "draw"
    game._state.display[:] = ["DM", "DM", "DM", "PAS"]
    game._state.deck[0:0] = ["DM", "BNL", "BNL", "CLS", "KCCL"]
    game.apply(DrawShare(game.current_player, "display:3"))
    assert game.state.deck[-4:] == ["DM"] * 4 and game.state.display == ["BNL", "BNL", "CLS", "KCCL"]


def test_UP_V4_removed_shares_do_not_count_for_the_imaginary_player_with_two_players():
    """Finnish book: removed cards go under the deck "where they do not affect the game"; with two
    players they are not sorted into the imaginary third player's holdings (UP-2P2)."""
    game = started(2, removed_to_bottom=True)
    set_tables(game)
    p, _ = draw_with_top(game, "DM")
    game.apply(ExchangeForUP(p, "DM"))  # the DM share goes face down under the deck
    assert game.state.deck[-1] == "DM" and game.state.under_deck >= 1
    in_play = [c for c in game.state.display + game.state.deck[:len(game.state.deck) - game.state.under_deck]
               if c not in (None, DIVIDEND)]
    box_before = len(game.state.box)
    removed = game.state.deck[len(game.state.deck) - game.state.under_deck:]
    draw_with_top(game, DIVIDEND, DIVIDEND, DIVIDEND, "SPS")
    expected = {}
    for card in in_play:
        expected[card] = expected.get(card, 0) + 1
    assert game.state.imaginary is not None and game.is_over
    assert {k: v for k, v in game.state.imaginary.items() if k != UP} == expected
    assert game.state.box[box_before:].count("DM") >= removed.count("DM") >= 1  # the removed card is boxed
    # the same game without the option: the exchanged share is boxed at once, the count agrees
    plain = started(2)
    set_tables(plain)
    q, _ = draw_with_top(plain, "DM")
    plain.apply(ExchangeForUP(q, "DM"))
    draw_with_top(plain, DIVIDEND, DIVIDEND, DIVIDEND, "SPS")
    assert plain.state.imaginary.get("DM", 0) == game.state.imaginary.get("DM", 0)


def test_UP_V4_setup_removal_follows_the_option():
    for seed in range(3000):
        plain = new_game(3, seed=seed)
        if plain._state.box:  # four of a kind replaced in the first display (UP-B5; told only after the reveal, UP-S5)
            break
    else:
        pytest.fail("no seed in 3000 deals four of a kind in the first display (UP-B5): the setup changed")
    assert len(plain.state.box) % 4 == 0 and plain.state.box
    bottom = new_game(3, seed=seed, removed_to_bottom=True)
    assert not bottom.state.box and bottom.state.deck[-len(plain.state.box):] == plain.state.box
