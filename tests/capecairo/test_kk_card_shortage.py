"""When deck and discard run short (KK-A1, KK-A5, KK-B1, KK-R2, KK-B8 rulings).

With 50 cards this almost never happens in play (see docs/rulings.md), so these tests move
the spare cards out of reach by hand: they pretend Bob has hoarded the rest of the deck
behind his first card. This bypasses the action log on purpose; nothing here is saved.
"""

from pathlib import Path

from railkit.capecairo import Bid, Build, Choose, Pass, new_game

DECK = str(Path(__file__).parent / "fixtures" / "kk_test_deck.json")


def all_cards(game):
    zones = [game.state.deck, game.state.discard, game.state.flipped, game.state.offer]
    for p in game.players:
        zones += [game.state.queues[p], game.state.crossed[p], game.state.bonus[p]]
    return sorted(c for zone in zones for c in zone)


def starved_game():
    # Auction 1: Ann takes S10, Bob V01; Ann turns up S08. Ann 96, Bob 97.
    game = new_game(["Ann", "Bob"], seed=0, deck=DECK, stack=["S10", "V01", "S08", "R01"])
    for action in (Bid("Ann", 4), Bid("Bob", 3), Choose("Ann", "S10")):
        game.apply(action)
    assert game.state.queues == {"Ann": ["S10"], "Bob": ["V01"]} and game.state.flipped == ["S08"]
    # Bob "hoards" every card left in the deck, R01 first (white-box surgery)
    game._state.queues["Bob"].extend(reversed(game._state.deck))
    game._state.deck.clear()
    assert game.state.queues["Bob"][1] == "R01" and len(all_cards(game)) == 50
    return game


def test_KK_A1_short_auction_and_KK_A5_tie_with_no_card_to_draw():
    game = starved_game()
    events = game.apply(Build("Ann"))  # S10 crossed; S08 is the only card left anywhere
    assert game.phase == "bid" and game.state.offer == ["S08"] and game.state.deck == [] and game.state.discard == []
    assert any("Only 1 card" in e for e in events)
    game.apply(Bid("Ann", 0))
    events = game.apply(Bid("Bob", 0))  # equal bids, equal money (97), nothing to draw
    assert any("seating order decides" in e for e in events)
    assert any("Bob gets no card" in e for e in events)
    assert game.state.queues["Ann"] == ["S08"]
    # KK-B1 with nothing to turn up: Ann's turn starts without a card
    assert game.phase == "build" and game.current_player == "Ann" and game.state.flipped == []
    assert any("no card is left to turn up" in e for e in events)
    assert len(all_cards(game)) == 50


def test_KK_A1_no_card_to_auction_skips_the_auction_and_KK_R2_no_bonus_card():
    game = starved_game()
    for action in (Build("Ann"), Bid("Ann", 0), Bid("Bob", 0)):
        game.apply(action)
    events = game.apply(Build("Ann"))  # buys 3 pieces; Ann's line is empty again
    assert any("there is no auction" in e for e in events)
    assert game.phase == "build" and game.current_player == "Ann" and game.state.auction_no == 3
    assert game.legal_actions() == [Pass("Ann")]  # no terrain to cross
    game.apply(Pass("Ann"))
    events = game.apply(Build("Bob"))  # Bob's hoard pays for V01; his next terrain is the river R01
    assert any("no card is left for a bonus track" in e for e in events)
    assert game.state.bonus["Bob"] == [] and len(all_cards(game)) == 50
    assert game.phase == "build" and game.current_player == "Bob"


def test_KK_B8_no_cards_anywhere_and_everyone_passes_ends_the_game():
    game = starved_game()
    for action in (Build("Ann"), Bid("Ann", 0), Bid("Bob", 0), Build("Ann"), Pass("Ann")):
        game.apply(action)
    events = game.apply(Pass("Bob"))
    assert game.is_over and game.result().end_reason == "KK-B8"
    assert game.result().winners == ("Ann",)  # two crossings against none
    assert any("KK-B8" in e for e in events)
