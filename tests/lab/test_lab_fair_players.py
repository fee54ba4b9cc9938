"""Fair players: a built-in player decides from what its seat may know. Changing another seat's hidden cards or
sealed bid changes nothing the seat sees, and no built-in player's decision (asked with the view, or, for the
heuristic players, with the game)."""

from __future__ import annotations

import random

import pytest
from lab_positions import positions, start

from railkit.bots import decide
from railkit.capecairo.actions import Bid
from railkit.capecairo.bots import HeuristicBot as KKHeuristic
from railkit.lab.players import make_player
from railkit.unionpacific.actions import ChooseFirstShare
from railkit.unionpacific.bots import HeuristicBot as UPHeuristic

PLAYERS = ("random", "heuristic", "flatmc:6", "ismcts:6")


def kk_hide_differently(game, seat, rng):
    """The same game for ``seat``, with every other hidden thing changed: the deck's order, which cards are
    discarded and which are bonus tracks (KK-R2), and the other seats' sealed bids (KK-A2)."""
    other = game.copy()
    state = other._state
    unseen = [*state.deck, *state.discard, *(c for p in other.players for c in state.bonus[p])]
    rng.shuffle(unseen)
    for p in other.players:
        n = len(state.bonus[p])
        state.bonus[p] = [unseen.pop() for _ in range(n)]
    n = len(state.discard)
    state.discard = [unseen.pop() for _ in range(n)]
    state.deck = unseen
    for p in list(state.bids):
        if p != seat:
            state.bids[p] = rng.randint(0, state.money[p])
    return other


def up_hide_differently(game, seat, rng):
    """The same game for ``seat``, with the other hands, the track pile and the share deck dealt differently
    (UP-I2), and the other seats' face-down first shares (UP-S5) chosen differently."""
    other = game.copy()
    state = other._state
    others = [p for p in other.players if p != seat]
    track = [*state.track_pile, *(c for p in others for c, n in state.track_hand[p].items() for _ in range(n))]
    rng.shuffle(track)
    for p in others:
        n = sum(state.track_hand[p].values())
        hand = {}
        for card in (track.pop() for _ in range(n)):
            hand[card] = hand.get(card, 0) + 1
        state.track_hand[p] = hand
    state.track_pile = track
    shares = [*(c for c in state.deck if c != "DIVIDEND"), *(c for p in others for c, n in state.share_hand[p].items()
                                                            for _ in range(n) if c != "UP")]
    rng.shuffle(shares)
    for p in others:
        ups = state.share_hand[p].get("UP", 0)
        n = sum(state.share_hand[p].values()) - ups
        hand = {"UP": ups} if ups else {}
        for card in (shares.pop() for _ in range(n)):
            hand[card] = hand.get(card, 0) + 1
        state.share_hand[p] = hand
    state.deck = [c if c == "DIVIDEND" else shares.pop() for c in state.deck]
    if state.step == "first_share":
        for p in others:
            if p in state.first_choices:
                state.first_choices[p] = rng.choice(sorted(state.share_hand[p]))
    return other


def decisions(game, seat, seed):
    out = [decide(make_player(name, seed), game, seat) for name in PLAYERS]
    heuristic = KKHeuristic(seed) if game.GAME == "cape_to_cairo" else UPHeuristic(seed)
    out.append(heuristic.choose(game, seat))  # asked with the game, as a search's playouts ask it
    return out


@pytest.mark.parametrize("game, hide", [("kk", kk_hide_differently), ("up", up_hide_differently)])
def test_KK_A2_UP_I2_changing_another_seats_hidden_cards_changes_no_built_in_players_decision(game, hide):
    rng = random.Random(11)
    found = positions(game, range(2), every=17 if game == "kk" else 37)
    for real, seat in found[:10 if game == "kk" else 6]:
        other = hide(real, seat, rng)
        assert other.state_dict() != real.state_dict()  # hidden things changed ...
        assert other.view(seat) == real.view(seat)  # ... and nothing the seat may see
        seed = rng.randrange(1000)
        assert decisions(other, seat, seed) == decisions(real, seat, seed)


def test_KK_A2_another_seats_sealed_bid_is_not_seen():
    game, _ = start("kk", seed=4)
    first, second = game.players[:2]
    low, high = game.copy(), game.copy()
    low.apply(Bid(first, 0))
    high.apply(Bid(first, 60))
    assert low.view(second) == high.view(second)
    for seed in range(3):
        assert decisions(low, second, seed) == decisions(high, second, seed)


def test_UP_S5_another_seats_face_down_first_share_is_not_seen():
    game, _ = start("up", seed=4)
    first, second = game.players[:2]
    choices = sorted({a.card for a in game.legal_actions(first)})
    one, two = game.copy(), game.copy()
    one.apply(ChooseFirstShare(first, choices[0]))
    two.apply(ChooseFirstShare(first, choices[-1]))
    assert one.view(second) == two.view(second)
    for seed in range(2):
        assert decisions(one, second, seed) == decisions(two, second, seed)
