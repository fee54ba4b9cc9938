"""How a game, its actions, explanations and results show themselves to a Python user."""

from pathlib import Path

import pytest

from railkit.capecairo import Bid, Build, Choose, Pass, explain_auction_order, explain_build, new_game
from railkit.capecairo.bots import RandomBot, play_game

DECK = str(Path(__file__).parent / "fixtures" / "kk_test_deck.json")


@pytest.mark.parametrize("action, words", [
    (Bid("Ann", 37), "Ann hands in a sealed bid (KK-A2)"),
    (Bid("Ann", 0), "Ann hands in a sealed bid (KK-A2)"),
    (Choose("Ann", "V01"), "Ann takes the village card V01 (KK-A4)"),
    (Choose("Ann", "Q99"), "Ann takes card 'Q99' (KK-A4)"),
    (Build("Ann"), "Ann crosses the next terrain, buying the fewest track pieces needed (KK-B2)"),
    (Build("Ann", 0), "Ann crosses the next terrain without buying track pieces (KK-B2)"),
    (Build("Ann", 1), "Ann crosses the next terrain, buying 1 track piece (KK-B2)"),
    (Build("Ann", 3), "Ann crosses the next terrain, buying 3 track pieces (KK-B2)"),
    (Pass("Ann"), "Ann passes (KK-B3)"),
])
def test_KK_A2_describe_says_every_kind_of_action_and_never_a_bid(action, words):
    game = new_game(["Ann", "Bob"], deck=DECK)
    assert game.describe(action) == words
    if isinstance(action, Bid):
        assert str(action.amount) not in game.describe(action)


def test_describe_refuses_what_is_not_an_action():
    with pytest.raises(TypeError, match="not a Vom Kap bis Kairo action"):
        new_game(2).describe("bid 5")


def test_KK_A2_status_card_shows_crossings_money_phase_and_who_acts_escaped():
    game = new_game(["<b>Ann</b>", "Bob & Co"], seed=1)
    game.apply(Bid("Bob & Co", 12))
    card = game._repr_html_()
    assert "<b>Ann</b>" not in card and "&lt;b&gt;Ann&lt;/b&gt;" in card and "Bob &amp; Co" in card
    assert "0/8" in card and "£100" in card and "sealed bids" in card
    assert "to act: &lt;b&gt;Ann&lt;/b&gt;" in card and "12" not in card.replace("£100", "")
    play_game(game, [RandomBot(1), RandomBot(2)])
    card = game._repr_html_()
    assert "Over." in card and game.result().end_reason in card


def test_reprs_are_short_and_readable():
    game = new_game(["Ann", "Bob"], seed=1)
    assert repr(game).startswith("<CapeToCairoGame Ann, Bob: 0 moves, bid")
    why = explain_build(game, "Ann")
    assert repr(why) == "<BuildExplanation Ann: no terrain to cross>"
    explained = explain_auction_order({"Ann": 3, "Bob": 5}, {"Ann": 97, "Bob": 95}, lambda p: None)
    assert repr(explained) == "<AuctionExplanation: Bob, Ann choose in this order>"
    play_game(game, [RandomBot(1), RandomBot(2)])
    assert repr(game.result()).startswith("<Outcome: ") and "won (KK-" in repr(game.result())
    assert repr(game.state).startswith("KKState(deck=") and "rng" not in repr(game.state)


@pytest.mark.parametrize("action", [Bid(10**5000, 1), Choose("Ann", ["x"] * 100), Build("Ann", -(10**5000)),
                                    Build("Ann", "many"), Build(None, True), Pass(["Ann"])])
def test_describe_says_even_junk_actions_briefly(action):
    words = new_game(2).describe(action)
    assert len(words) < 120 and words.endswith(")")
