"""KK-B1..B8, KK-R1..R3, KK-E1: track building, the river bonus, the end of the game.

Scenarios stack known cards on top of the deck (option ``stack``) and use a frozen copy of
the assumed deck, so they stay valid if ``data/cape_to_cairo/deck.json`` is replaced.
"""

from pathlib import Path

import pytest

from railkit.capecairo import Bid, Build, Choose, Pass, new_game
from railkit.errors import GameOverError, NotYourTurnError, RuleError

FIXTURES = Path(__file__).parent / "fixtures"
DECK = str(FIXTURES / "kk_test_deck.json")
NO_TRACKS = str(FIXTURES / "kk_no_tracks_deck.json")

# Auction 1: Bob buys S09 and crosses it at once; auction 2: Ann buys R08 behind her V01.
TWO_AUCTIONS = ["V01", "S09", "S08", "R08", "D10", "M10", "D08", "V08", "S01", "R10", "M08", "V10"]
TO_SECOND_BUILD_PHASE = [
    Bid("Ann", 0), Bid("Bob", 10), Choose("Bob", "S09"), Build("Bob", 1),
    Bid("Ann", 1), Bid("Bob", 0), Choose("Ann", "R08"),
]


def stacked(stack, players=("Ann", "Bob"), deck=DECK, **options):
    return new_game(list(players), seed=0, stack=stack, deck=deck, **options)


def play(game, *actions):
    for action in actions:
        game.apply(action)
    return game


def second_build_phase(**options):
    """Ann: [V01 village 0 tracks, R08 river 3 tracks]; Bob: [D10 desert 3 tracks]; Ann has turned up M10."""
    return play(stacked(TWO_AUCTIONS, **options), *TO_SECOND_BUILD_PHASE)


def assert_refused(game, action, rule, error=RuleError):
    before = game.state_dict()
    with pytest.raises(error) as err:
        game.apply(action)
    assert err.value.rule == rule
    assert game.state_dict() == before
    return err.value


def test_KK_B1_auction_winner_turns_up_a_card_then_decides():
    game = second_build_phase()
    assert game.state.queues == {"Ann": ["V01", "R08"], "Bob": ["D10"]}
    assert game.current_player == "Ann" and game.state.flipped == ["M10"]
    assert game.view("Bob").flipped[0]["id"] == "M10"
    assert_refused(game, Build("Bob"), "KK-B3", NotYourTurnError)
    assert_refused(game, Pass("Bob"), "KK-B3", NotYourTurnError)
    assert_refused(game, Bid("Ann", 1), "KK-A2")
    fresh = stacked(TWO_AUCTIONS)
    assert_refused(fresh, Build("Ann"), "KK-B1")
    assert_refused(fresh, Pass("Ann"), "KK-B1")


def test_KK_B2_four_track_sources_and_buying_at_10():
    game = second_build_phase()
    why = game.explain_build("Ann")
    assert (why.terrain, why.requirement) == ("village", 7)
    assert (why.flipped_cards, why.flipped_tracks) == (1, 3)  # M10
    assert (why.own_cards, why.own_tracks) == (2, 3)  # V01 and R08, the one being crossed included
    assert why.bonus_tracks == 0
    assert (why.to_buy, why.cost, why.money, why.can_afford, why.can_build) == (1, 10, 99, True, True)
    assert "KK-B2" in str(why) and "10 pounds" in str(why) and why._repr_html_().startswith("<ul>")
    assert game.legal_actions() == [Pass("Ann"), Build("Ann", 1)]
    err = assert_refused(game, Build("Ann", 0), "KK-B2")
    assert "buy at least 1" in str(err)
    assert_refused(game, Build("Ann", 2), "KK-B2")
    assert_refused(game, Build("Ann", -1), "KK-B2")
    assert_refused(game, Build("Ann", True), "KK-B2")
    game.apply(Build("Ann"))  # buys the missing piece
    assert game.state.money["Ann"] == 99 - 10 + 7


def test_KK_B2_unaffordable_build_is_refused():
    game = play(stacked(["R01", "S09", "S01"]), Bid("Ann", 100), Bid("Bob", 0), Choose("Ann", "R01"))
    why = game.explain_build("Ann")
    assert (why.to_buy, why.cost, why.money, why.can_afford) == (10, 100, 0, False)
    assert "cannot afford" in str(why)
    assert game.legal_actions() == [Pass("Ann")]
    err = assert_refused(game, Build("Ann"), "KK-B2")
    assert "KK-C5" in str(err)


def test_KK_B3_pass_goes_left_and_the_next_player_turns_up_another_card():
    game = play(second_build_phase(), Pass("Ann"))
    assert game.current_player == "Bob" and game.state.flipped == ["M10", "D08"]
    why = game.explain_build("Bob")
    assert why.flipped_tracks == 6 and why.own_tracks == 3 and why.to_buy == 0  # 9 for the desert's 8
    three = play(stacked(["V01", "S09", "S08", "S01", "S02"], players=("Ann", "Bob", "Cy")),
                 Bid("Ann", 0), Bid("Bob", 5), Bid("Cy", 1), Choose("Bob", "V01"), Choose("Cy", "S09"))
    assert three.current_player == "Bob"
    play(three, Pass("Bob"))
    assert three.current_player == "Cy"
    play(three, Pass("Cy"))
    assert three.current_player == "Ann" and three.state.flipped == ["S01", "S02", three.state.flipped[2]]


def test_KK_B4_builder_earns_the_coin_turned_cards_discarded_uncrossed_cards_stay():
    game = play(second_build_phase(), Pass("Ann"), Pass("Bob"))
    assert game.state.flipped == ["M10", "D08", "V08"]
    events = game.apply(Build("Ann"))
    assert game.state.money["Ann"] == 99 + 7
    assert game.state.crossed["Ann"] == ["V01"] and game.state.queues["Ann"] == ["R08"]
    assert game.view(None).crossed["Ann"] == 1
    assert game.state.discard[:3] == ["S08", "M10", "D08"]  # V08 went on top, then became Ann's bonus (KK-R1)
    assert any("receives 7 pounds" in e for e in events)
    # R08's pieces count again on the next attempt
    assert game.explain_build("Ann").own_tracks == 3


def test_KK_B4_spent_bonus_tracks_are_discarded_or_kept_by_buying():
    game = play(second_build_phase(), Pass("Ann"), Pass("Bob"), Build("Ann"))
    assert game.state.bonus["Ann"] == ["V08"] and game.state.flipped == ["S01"]
    nums = game.build_numbers("Ann")  # river: 10 needed, 3 own + 0 turned up + 1 bonus
    assert (nums.min_buy, nums.missing) == (6, 7)
    assert game.legal_actions() == [Pass("Ann"), Build("Ann", 6), Build("Ann", 7)]
    keep = play(second_build_phase(), Pass("Ann"), Pass("Bob"), Build("Ann"), Build("Ann", 7))
    assert keep.state.bonus["Ann"] == ["V08"] and keep.state.money["Ann"] == 106 - 70 + 6
    play(game, Build("Ann"))
    assert game.state.bonus["Ann"] == [] and "V08" in game.state.discard
    assert game.state.money["Ann"] == 106 - 60 + 6


def test_KK_B5_building_goes_on_with_the_last_builder_until_a_line_is_empty():
    game = play(second_build_phase(), Pass("Ann"), Pass("Bob"), Build("Ann"))
    assert game.phase == "build" and game.current_player == "Ann" and game.state.flipped == ["S01"]
    events = game.apply(Build("Ann"))  # crosses R08: Ann's line is empty
    assert any("KK-B5" in e for e in events)
    assert game.phase == "bid" and game.state.auction_no == 3 and len(game.state.offer) == 2
    assert game.state.flipped == [] and game.state.queues["Bob"] == ["D10"]


def test_KK_B5_phase_ends_when_another_players_line_is_empty():
    game = play(second_build_phase(), Pass("Ann"), Build("Bob"))  # Bob crosses his only card
    assert game.phase == "bid" and game.state.queues == {"Ann": ["V01", "R08"], "Bob": []}


def test_KK_B6_one_crossing_per_build_even_with_surplus_tracks():
    game = play(second_build_phase(), Pass("Ann"), Pass("Bob"), Pass("Ann"), Pass("Bob"), Pass("Ann"))
    why = game.explain_build("Bob")
    assert why.flipped_tracks >= 15
    play(game, Pass("Bob"))
    why = game.explain_build("Ann")
    assert why.flipped_tracks + why.own_tracks >= 7 + 10  # enough for both of Ann's terrains
    game.apply(Build("Ann"))
    assert game.state.crossed["Ann"] == ["V01"] and game.state.queues["Ann"] == ["R08"]
    assert game.current_player == "Ann" and len(game.state.flipped) == 1  # a new turn, a new card


def test_KK_B7_empty_deck_is_refilled_from_the_discards():
    # a tie-break puts four cards on the discard pile; then everyone passes through the deck
    game = play(stacked(["V01", "S09", "R05", "M03", "S01", "R01"]), Bid("Ann", 5), Bid("Bob", 5), Choose("Bob", "V01"))
    while game.state.deck:
        game.apply(Pass(game.current_player))
    assert game.state.reshuffles == 0 and len(game.state.discard) == 4
    events = game.apply(Pass(game.current_player))
    assert game.state.reshuffles == 1 and any("KK-B7" in e for e in events)
    assert len(game.state.deck) == 3 and game.state.discard == []


def test_KK_B8_stall_nobody_can_afford_and_no_card_left_ends_the_game():
    game = play(stacked(["R01", "S09"], deck=NO_TRACKS), Bid("Ann", 100), Bid("Bob", 90), Choose("Ann", "R01"))
    assert game.state.money == {"Ann": 0, "Bob": 10}
    passes = 0
    while not game.is_over:
        assert game.legal_actions() == [Pass(game.current_player)]  # nobody can afford to build
        game.apply(Pass(game.current_player))
        passes += 1
    # 48 cards were left after the auction: one turned up on each of 48 turns (all passed),
    # then a full round of two passes with nothing left to turn up
    assert passes == 48 + 2
    result = game.result()
    assert result.is_over and result.end_reason == "KK-B8"
    assert result.winners == ("Bob",)  # nobody crossed anything; Bob has more money
    assert result.score == {"Ann": 0, "Bob": 0} and result.money == {"Ann": 0, "Bob": 10}
    assert "KK-B8" in str(result)
    err = assert_refused(game, Pass("Ann"), "KK-B8", GameOverError)
    assert "over" in str(err)
    assert game.legal_actions() == [] and game.current_player is None


def test_KK_B8_passing_by_choice_with_nothing_to_turn_also_ends_and_can_be_shared():
    game = play(stacked(["V01", "S09"]), Bid("Ann", 0), Bid("Bob", 0))
    while game.phase == "choose":
        game.apply(game.legal_actions()[0])
    idle_seen = []
    while not game.is_over:
        game.apply(Pass(game.current_player))
        idle_seen.append(game.state.idle_passes)
    assert game.result().end_reason == "KK-B8"
    assert game.result().winners == ("Ann", "Bob")  # same crossings, same money: a shared win
    assert idle_seen[-2:] == [1, 2]


def test_KK_R1_river_next_earns_a_bonus_builder_included_river_further_ahead_not():
    ahead = play(second_build_phase(), Pass("Ann"), Build("Bob"))
    assert ahead.state.bonus == {"Ann": [], "Bob": []}  # Ann's river is second in line
    game = play(second_build_phase(), Pass("Ann"), Pass("Bob"))
    events = game.apply(Build("Ann"))  # Ann's next terrain is now the river R08
    assert len(game.state.bonus["Ann"]) == 1 and any("KK-R1" in e for e in events)
    off = play(second_build_phase(river_bonus_for_builder=False), Pass("Ann"), Pass("Bob"), Build("Ann"))
    assert off.state.bonus["Ann"] == []


# Bob buys a savanna in each auction and crosses it at once; Ann never builds and faces R01.
CYCLES = [("S10", "R01", "V10"), ("S08", "S01", "D10"), ("S04", "S02", "M10"), ("S06", "S03", "R10"),
          ("S09", "S05", "M08"), ("S07", "V01", "R08"), ("V08", "V02", "D08"), ("V09", "V03", "D09")]


def bob_builds(cycles):
    game = stacked([card for cycle in CYCLES for card in cycle])
    for bob_card, _, _ in CYCLES[:cycles]:
        play(game, Bid("Ann", 0), Bid("Bob", 1), Choose("Bob", bob_card), Build("Bob"))
    return game


def test_KK_R2_bonus_card_comes_from_the_discard_and_is_worth_one_track():
    game = bob_builds(1)
    assert game.state.bonus["Ann"] == ["V10"]  # the card just discarded, 3 pieces printed on it
    assert game.state.discard == []
    assert game.explain_build("Ann").bonus_tracks == 1
    assert game.view("Bob").bonus_tracks == {"Ann": 1, "Bob": 0}


def test_KK_R3_at_most_five_bonus_tracks():
    game = bob_builds(5)
    assert len(game.state.bonus["Ann"]) == 5
    game = bob_builds(6)
    assert len(game.state.bonus["Ann"]) == 5
    assert any("KK-R3" in e for e in game.narrative)


def test_KK_E1_first_to_cross_eight_terrains_wins_at_once_money_irrelevant():
    game = bob_builds(7)
    assert not game.is_over and len(game.state.crossed["Bob"]) == 7
    game = bob_builds(8)
    result = game.result()
    assert result.is_over and result.end_reason == "KK-E1" and result.winners == ("Bob",) and result.winner == "Bob"
    assert result.money["Ann"] > result.money["Bob"]
    assert result.score == {"Ann": 0, "Bob": 8}
    assert game.phase == "over" and game.state.offer == [] and "KK-E1" in game.narrative[-1]
    assert_refused(game, Bid("Ann", 0), "KK-E1", GameOverError)


def test_KK_E1_short_game_option():
    game = stacked([c for cycle in CYCLES for c in cycle], win_crossings=2)
    for bob_card, _, _ in CYCLES[:2]:
        play(game, Bid("Ann", 0), Bid("Bob", 1), Choose("Bob", bob_card), Build("Bob"))
    assert game.result().winners == ("Bob",)
