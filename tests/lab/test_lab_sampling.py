"""Games dealt from one seat's view (railkit/{capecairo,unionpacific}/sampling.py): the seat sees the same view in
them and has the same moves; what it cannot see is dealt again, in the sizes and piles the rules fix."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from lab_positions import positions, start

from railkit.bots import RandomBot, play_game
from railkit.capecairo.sampling import Dealer as KKDealer
from railkit.unionpacific.sampling import Dealer as UPDealer
from railkit.unionpacific.sharedeck import DECK_OPTIONS, DIVIDEND
from railkit.unionpacific.state import UP, UP_SHARES

SEALED = ("current_player", "to_act", "bids_handed_in", "first_share_chosen")  # other seats' sealed moves


def seen(game, seat):
    """What ``seat``'s view shows of ``game``; while sealed moves are pending, less who has made them (in a dealt
    game the others make theirs again)."""
    view = game.view(seat).to_json()
    view.pop("log_length")  # a dealt game has no history
    if view["phase"] in ("bid", "first_share"):
        for key in SEALED:
            view.pop(key, None)
    return view


@pytest.mark.parametrize("game, dealer, options", [
    ("kk", KKDealer, {}),
    ("up", UPDealer, {}),
    ("up", UPDealer, {"deck": "finnish", "countable_deck": True, "public_money": False}),
    ("up", UPDealer, {"deck": "dividend_cards", "safe_round": True, "removed_to_bottom": True}),
])
def test_KK_S1_UP_I2_a_game_dealt_from_a_seats_view_shows_the_seat_the_same_view_and_moves(game, dealer, options):
    rng = random.Random(3)
    checked = 0
    for real, seat in positions(game, range(2), every=9, **options):
        dealt = dealer(real.view(seat)).deal(rng)
        assert seen(dealt, seat) == seen(real, seat)
        assert dealt.legal_actions(seat) == real.legal_actions(seat)
        checked += 1
    assert checked > 10


def test_a_dealt_game_plays_on_to_its_end_with_the_engine():
    rng = random.Random(5)
    for game, dealer in (("kk", KKDealer), ("up", UPDealer)):
        for real, seat in positions(game, range(1), every=40):
            dealt = dealer(real.view(seat)).deal(rng)
            play_game(dealt, [RandomBot(1)] * len(dealt.players))
            assert dealt.is_over and dealt.result().winners


def test_KK_S1_the_unseen_cards_are_the_deck_discards_and_bonus_tracks_and_are_dealt_again():
    real, seat = positions("kk", range(1), every=60)[1]
    view = real.view(seat)
    dealer = KKDealer(view)
    decks = set()
    for i in range(6):
        state = dealer.deal(random.Random(i))._state
        assert len(state.deck) == view.deck_count and len(state.discard) == view.discard_count
        assert {p: len(b) for p, b in state.bonus.items()} == view.bonus_tracks
        places = [*state.deck, *state.discard, *(c for b in state.bonus.values() for c in b),
                  *(c for q in state.queues.values() for c in q), *(c for q in state.crossed.values() for c in q),
                  *state.flipped, *state.offer]
        assert sorted(places) == sorted(real.table.cards)  # every card once
        decks.add(tuple(state.deck))
    assert len(decks) == 6  # the deck's order is dealt again each time


def test_KK_A2_other_seats_sealed_bids_are_not_dealt_the_seats_own_is_kept():
    real, _ = start("kk")
    assert real.phase == "bid"
    first, second = real.players[0], real.players[1]
    real.apply(type(real.legal_actions(first)[0])(first, 7))  # a sealed bid of 7
    real.apply(type(real.legal_actions(second)[0])(second, 3))
    dealt = KKDealer(real.view(second)).deal(random.Random(1))
    assert dealt._state.bids == {second: 3}
    assert first in dealt.players_to_act()


def test_UP_I2_hidden_shares_and_track_cards_are_dealt_in_the_sizes_the_view_gives():
    for real, seat in positions("up", range(1), every=50):
        view = real.view(seat)
        dealt = UPDealer(view).deal(random.Random(2))
        state = dealt._state
        for p in real.players:
            assert sum(state.share_hand[p].values()) == view.hand_sizes[p]["shares"]
            assert sum(state.track_hand[p].values()) == view.hand_sizes[p]["track"]
        track = Counter(state.track_pile) + Counter(state.track_discards)
        for hand in state.track_hand.values():
            track.update(hand)
        assert track == Counter(dict(real.board.track_deck))  # all 40 track cards, once (UP-C4)
        ups = state.up_stack + sum(t.get(UP, 0) for t in state.table.values()) + sum(
            h.get(UP, 0) for h in state.share_hand.values())
        assert ups == UP_SHARES  # UP-S3: every UP share is in the stack, on a table or in a hand


def test_UP_S7_the_dealt_share_deck_keeps_each_dividend_card_in_its_pile():
    real, seat = start("up")  # the deck is whole
    dealer = UPDealer(real.view(seat))
    firsts = set()
    for i in range(20):
        deck = dealer.deal(random.Random(i))._state.deck
        assert len(deck) == len(real._state.deck)
        assert DIVIDEND not in deck[:6]  # UP-S7: the top six hold none
        assert deck[6:25].count(DIVIDEND) == 1  # the next eighteen and one dividend card
        assert deck[25:].count(DIVIDEND) == 3
        firsts.add(deck.index(DIVIDEND))
    assert len(firsts) > 3  # where in its pile is dealt again


def test_deck_options_are_all_dealt():
    for option in DECK_OPTIONS:
        real, seat = start("up", deck=option)
        deck = UPDealer(real.view(seat)).deal(random.Random(0))._state.deck
        assert deck.count(DIVIDEND) == 4


def test_a_spectators_view_deals_nothing():
    real, _ = start("kk")
    with pytest.raises(ValueError, match="spectator"):
        KKDealer(real.view(None))
    real, _ = start("up")
    with pytest.raises(ValueError, match="spectator"):
        UPDealer(real.view(None))


def test_UP_I2_a_dealt_game_keeps_every_share_the_table_saw_in_its_hand():
    """The shares the table saw go into a hand (UP-B3 display or UP stack, UP-S3) are in that hand in every game
    dealt from another seat's view; the rest of the hand is dealt again (so the deals still differ)."""
    checked = differ = 0
    for real, seat in positions("up", range(2), every=7):
        view = real.view(seat)
        dealer = UPDealer(view)
        hands = set()
        for i in range(4):
            state = dealer.deal(random.Random(i))._state
            for p in real.players:
                if p != seat:
                    assert not Counter(view.known_shares[p]) - Counter(state.share_hand[p]), (p, i)
                    checked += sum(view.known_shares[p].values())
            hands.add(tuple(sorted((p, tuple(sorted(h.items()))) for p, h in state.share_hand.items() if p != seat)))
        differ += len(hands) > 1
    assert checked > 50 and differ > 5
