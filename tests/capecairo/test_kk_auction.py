"""KK-S1 and KK-A1..A7: setup and the all-pay sealed auction."""

import copy
from pathlib import Path

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from railkit.capecairo import (
    Bid,
    Build,
    Choose,
    Pass,
    auction_order,
    explain_auction_order,
    new_game,
)
from railkit.errors import NotYourTurnError, RuleError

DECK = str(Path(__file__).parent / "fixtures" / "kk_test_deck.json")


def stacked(stack, players=("Ann", "Bob"), **options):
    return new_game(list(players), seed=0, stack=stack, deck=DECK, **options)


def play(game, *actions):
    for action in actions:
        game.apply(action)
    return game


def scripted(coins):
    """A draw function returning scripted coins per player, recording who drew."""
    calls = []

    def draw(player):
        calls.append(player)
        return coins[player].pop(0)

    return draw, calls


# -- setup -------------------------------------------------------------------------------
def test_KK_S1_setup_every_player_at_100_deck_shuffled_first_auction_open():
    game = new_game(["Ann", "Bob", "Cy"], seed=7)
    state = game.state_dict()
    assert state["money"] == {"Ann": 100, "Bob": 100, "Cy": 100}
    assert state["queues"] == {"Ann": [], "Bob": [], "Cy": []}
    assert state["crossed"] == {"Ann": [], "Bob": [], "Cy": []}
    assert len(state["deck"]) + len(state["offer"]) == 50
    assert game.phase == "bid"
    # the shuffle comes from the seed
    assert new_game(["Ann", "Bob", "Cy"], seed=7).state_dict() == state
    assert new_game(["Ann", "Bob", "Cy"], seed=8).state_dict()["deck"] != state["deck"]


# -- the auction function (KK-A4, KK-A5) ------------------------------------------------------
def test_KK_A4_higher_bid_chooses_first():
    order = auction_order({"A": 5, "B": 10, "C": 0}, {"A": 95, "B": 90, "C": 100}, lambda p: pytest.fail("no draw"))
    assert order == ["B", "A", "C"]


def test_KK_A5_tie_goes_to_least_money_left():
    order = auction_order({"A": 5, "B": 5, "C": 9}, {"A": 30, "B": 20, "C": 1}, lambda p: pytest.fail("no draw"))
    assert order == ["C", "B", "A"]


def test_KK_A5_tie_chain_money_then_repeated_draws_only_for_those_still_tied():
    bids = {"A": 5, "B": 5, "C": 5, "D": 5}
    money = {"A": 50, "B": 50, "C": 50, "D": 10}
    draw, calls = scripted({"A": [3, 4, 2], "B": [7], "C": [3, 4, 9], "D": []})
    order = auction_order(bids, money, draw)
    # D has least money; B draws highest; A and C tie twice, then C wins
    assert order == ["D", "B", "C", "A"]
    assert calls == ["A", "B", "C", "A", "C", "A", "C"]


def test_KK_A5_tie_groups_settled_from_highest_bid_down_in_seating_order():
    bids = {"A": 3, "B": 3, "C": 9, "D": 9}
    money = {p: 40 for p in bids}
    draw, calls = scripted({"A": [1], "B": [2], "C": [5], "D": [6]})
    assert auction_order(bids, money, draw) == ["D", "C", "B", "A"]
    assert calls == ["C", "D", "A", "B"]


def test_KK_A5_draw_subgroups_resolved_from_highest_coin_down():
    bids = {p: 0 for p in "ABCD"}
    money = {p: 100 for p in "ABCD"}
    draw, calls = scripted({"A": [7, 1], "B": [7, 2], "C": [3, 5], "D": [3, 4]})
    assert auction_order(bids, money, draw) == ["B", "A", "C", "D"]
    assert calls == ["A", "B", "C", "D", "A", "B", "C", "D"]


def test_KK_A5_no_card_left_to_draw_falls_back_to_seating_order():
    assert auction_order({"A": 0, "B": 0}, {"A": 9, "B": 9}, lambda p: None) == ["A", "B"]
    assert auction_order({"B": 0, "A": 0}, {"A": 9, "B": 9}, lambda p: 5) == ["B", "A"]  # endless tie guard


def test_KK_A5_explain_auction_order_in_words():
    draw, _ = scripted({"A": [2], "B": [8]})
    explained = explain_auction_order({"A": 4, "B": 4, "C": 1}, {"A": 10, "B": 10, "C": 0}, draw)
    assert explained.order == ["B", "A", "C"]
    text = str(explained)
    assert "KK-A5" in text and "B coin 8" in text and "Choosing order: B, A, C." in text
    assert explained._repr_html_().startswith("<ol>")
    again = scripted({"A": [2], "B": [8]})[0]
    assert explained.order == auction_order({"A": 4, "B": 4, "C": 1}, {"A": 10, "B": 10, "C": 0}, again)


# -- the auction in the game ------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_KK_A1_as_many_cards_on_sale_as_players(players):
    game = new_game(players, seed=players)
    assert len(game.state.offer) == players
    assert len(game.state.deck) == 50 - players


def test_KK_A2_bids_are_sealed_whole_numbers_from_zero_to_money():
    game = stacked(["V01", "S09"])
    assert [a.amount for a in game.legal_actions("Ann")] == list(range(101))
    assert game.players_to_act() == ("Ann", "Bob")
    events = game.apply(Bid("Bob", 37))
    assert "37" not in " ".join(events) and "37" not in " ".join(game.narrative)
    assert game.players_to_act() == ("Ann",)
    assert game.view("Bob").your_bid == 37
    ann_sees = game.view("Ann")
    assert ann_sees.your_bid is None and ann_sees.bids_handed_in == ("Bob",)
    assert ann_sees.money["Bob"] == 100
    # Ann's view does not depend on the amount Bob wrote
    other = copy.deepcopy(game)
    other._state.bids["Bob"] = 3
    assert other.view("Ann") == ann_sees and other.view(None) == game.view(None)
    assert game.legal_actions("Bob") == []


@pytest.mark.parametrize("amount", [-1, 1.5, "5", True, None, 101])
def test_KK_A2_bad_bids_are_refused_without_change(amount):
    game = stacked(["V01", "S09"])
    before = game.state_dict()
    with pytest.raises(RuleError) as err:
        game.apply(Bid("Ann", amount))
    assert err.value.rule == "KK-A2"
    assert game.state_dict() == before


def test_KK_A2_one_bid_per_player():
    game = play(stacked(["V01", "S09", "S08"], players=("Ann", "Bob", "Cy")), Bid("Ann", 3))
    before = game.state_dict()
    with pytest.raises(RuleError, match="once per auction") as err:
        game.apply(Bid("Ann", 4))
    assert err.value.rule == "KK-A2" and game.state_dict() == before


def test_KK_A3_everyone_pays_their_own_bid_winner_or_not():
    game = play(stacked(["V01", "S09", "S08"], players=("Ann", "Bob", "Cy")), Bid("Ann", 30), Bid("Bob", 12), Bid("Cy", 0))
    assert game.state.money == {"Ann": 70, "Bob": 88, "Cy": 100}
    assert game.view(None).last_auction["bids"] == {"Ann": 30, "Bob": 12, "Cy": 0}


def test_KK_A4_highest_bidder_chooses_first_and_everyone_gets_one_card():
    game = play(stacked(["V01", "S09", "S08"], players=("Ann", "Bob", "Cy")), Bid("Ann", 1), Bid("Bob", 12), Bid("Cy", 5))
    assert game.state.choosers == ["Bob", "Cy", "Ann"]
    assert game.current_player == "Bob"
    assert {a.card_id for a in game.legal_actions()} == {"V01", "S09", "S08"}
    before = game.state_dict()
    with pytest.raises(NotYourTurnError) as err:
        game.apply(Choose("Ann", "V01"))
    assert err.value.rule == "KK-A4" and game.state_dict() == before
    with pytest.raises(RuleError, match="not on offer") as err:
        game.apply(Choose("Bob", "R01"))
    assert err.value.rule == "KK-A4" and game.state_dict() == before
    play(game, Choose("Bob", "S08"), Choose("Cy", "V01"))
    # the last card has no choice left and goes to the last chooser
    assert game.state.queues == {"Ann": ["S09"], "Bob": ["S08"], "Cy": ["V01"]}


def test_KK_A5_tie_in_game_least_money_then_draws_to_discard():
    # Ann wins auction 1 and builds (her line empties); both then bid 5: Ann has less money left.
    game = play(
        stacked(["S10", "V01", "S08", "R01", "S09"]),
        Bid("Ann", 10), Bid("Bob", 0), Choose("Ann", "S10"), Build("Ann"),
        Bid("Ann", 5), Bid("Bob", 5),
    )
    assert game.state.money == {"Ann": 86, "Bob": 95}
    assert game.state.choosers[0] == "Ann"
    # equal bids and equal money: both draw from the deck; the drawn cards go to the discard
    game = play(stacked(["V01", "S09", "R05", "M03", "S01", "R01"]), Bid("Ann", 5), Bid("Bob", 5))
    assert game.state.last_auction["tie_break_cards"] == ["R05", "M03", "S01", "R01"]  # 7 v 7, then 5 v 10
    assert game.phase == "choose" and game.state.choosers == ["Bob", "Ann"]
    assert game.state.last_auction["order"] == ["Bob", "Ann"]
    assert game.state.discard == ["R05", "M03", "S01", "R01"]
    assert any("draw again" in e for e in game.narrative)


def test_KK_A6_cards_lie_in_purchase_order():
    game = play(
        stacked(["V01", "S09", "S08", "R08", "D10"]),
        Bid("Ann", 0), Bid("Bob", 10), Choose("Bob", "S09"), Build("Bob", 1),
        Bid("Ann", 1), Bid("Bob", 0), Choose("Ann", "R08"),
    )
    assert game.state.queues["Ann"] == ["V01", "R08"]  # crossed in this order
    assert game.view(None).queues["Ann"][0]["id"] == "V01"


def test_KK_A7_auction_winner_opens_the_building_phase():
    game = play(stacked(["V01", "S09", "S08"]), Bid("Ann", 0), Bid("Bob", 10), Choose("Bob", "S09"))
    assert game.phase == "build" and game.current_player == "Bob"
    assert game.state.flipped == ["S08"]
    assert {type(a) for a in game.legal_actions()} == {Pass, Build}


# -- properties of the order, and refusals that are not about bids ------------------------------
@settings(max_examples=examples(300), deadline=None)
@given(
    table=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3)), min_size=2, max_size=4),
    coins=st.lists(st.integers(1, 10), min_size=60, max_size=60),
)
def test_KK_A4_A5_order_is_by_bid_then_least_money(table, coins):
    players = [f"P{i}" for i in range(len(table))]
    bids = {p: bid for p, (bid, _) in zip(players, table, strict=True)}
    money = {p: left for p, (_, left) in zip(players, table, strict=True)}
    pool = iter(coins)
    order = auction_order(bids, money, lambda p: next(pool, None))
    assert sorted(order) == sorted(players)
    keys = [(-bids[p], money[p]) for p in order]
    assert keys == sorted(keys)


def test_KK_S1_unknown_players_actions_and_options_are_refused():
    game = new_game(["Ann", "Bob"])
    before = game.state_dict()
    with pytest.raises(RuleError) as err:
        game.apply(Bid("Zed", 1))
    assert err.value.rule == "KK-S1" and "Ann, Bob" in str(err.value)
    with pytest.raises(RuleError, match="not a Vom Kap bis Kairo action"):
        game.apply("bid 5")
    assert game.state_dict() == before
    with pytest.raises(RuleError, match="unknown option"):
        new_game(2, colour="red")
    with pytest.raises(ValueError, match="win_crossings"):
        new_game(2, win_crossings=9)
    with pytest.raises(ValueError, match="not in the deck"):
        new_game(2, stack=["Q99"])
    with pytest.raises(RuleError, match="different"):
        new_game(["Ann", "Ann"])
