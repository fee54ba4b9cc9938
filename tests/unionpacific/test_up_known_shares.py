"""The table's memory of each hand (UP-I2 ruling in docs/rulings.md): the shares everyone saw go into a hand
(UP-S3, UP-B3 from the display or the UP stack, UP-B4's UP share) and not leave it (UP-S5, UP-I1; after a
UP-B4 exchange one copy of each less, the card in the box being unseen). Public: every seat's view and the
spectator's show the same."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from railkit.bots import decide
from railkit.unionpacific import UP, ChooseFirstShare, DrawShare, ExchangeForUP, Invest, new_game
from railkit.unionpacific.bots import HeuristicBot, RandomBot


def known(game, player):
    return Counter(game.view(None).known_shares[player])


def expected_after(game, action, before):
    """What the table knows of each hand after ``action``, worked out from the action and the open cards."""
    after = {p: Counter(c) for p, c in before.items()}
    p = action.player
    if isinstance(action, DrawShare) and action.source.startswith("display"):
        after[p][game.view(None).display[int(action.source[-1])]] += 1  # UP-B3: taken face up
    elif isinstance(action, DrawShare) and action.source == "up":
        after[p][UP] += 1  # UP-B3 (first edition): from the UP stack
    elif isinstance(action, ExchangeForUP):  # UP-B4: an unseen card out, a UP share in
        after[p] = Counter({c: n - 1 for c, n in after[p].items() if n > 1})
        after[p][UP] += 1
    elif isinstance(action, Invest):  # UP-I1: laid face up
        after[p] -= Counter(action.cards)
    elif isinstance(action, ChooseFirstShare) and len(game.view(None).first_share_chosen) == len(game.players) - 1:
        choices = {**game._state.first_choices, p: action.card}  # UP-S5: all revealed with the last choice
        for q, card in choices.items():
            after[q] -= Counter([card])
    return after


@pytest.mark.parametrize("seed", range(6))
def test_UP_I2_UP_B3_UP_B4_UP_I1_the_table_knows_the_shares_it_saw_go_into_each_hand(seed):
    rng = random.Random(seed)
    players = ["Ann", "Bo", "Cy", "Di"][: 2 + seed % 3]
    options = {"direct_up_draw": seed % 2 == 0}  # UP-B3's UP stack draw (first edition) in half the games
    game = new_game(players, seed=seed, **options)
    bots = {p: (RandomBot if rng.random() < 0.5 else HeuristicBot)(seed) for p in players}
    assert all(known(game, p) == Counter({UP: 1}) for p in players)  # UP-S3 in front of everyone
    seen = Counter()
    while not game.is_over:
        player = game.players_to_act()[0]
        action = decide(bots[player], game, player)
        before = {p: known(game, p) for p in players}
        expected = expected_after(game, action, before)
        game.apply(action)
        seen[type(action).__name__] += 1
        for p in players:
            assert known(game, p) == +expected[p], (action, p)
            hand = Counter(game._state.share_hand[p])
            assert not known(game, p) - hand, f"{p} is known to hold a share not in the hand"
        views = [game.view(p).known_shares for p in players]
        assert all(v == game.view(None).known_shares for v in views)  # public: the same for every seat
    assert seen["DrawShare"] and seen["Invest"] and seen["ExchangeForUP"]


def test_UP_B3_a_share_drawn_from_the_top_of_the_deck_stays_unknown():
    game = new_game(["Ann", "Bo", "Cy"], seed=4)
    bots = {p: HeuristicBot(1) for p in game.players}
    deck_draws = 0
    while not game.is_over and deck_draws < 3:
        player = game.players_to_act()[0]
        action = decide(bots[player], game, player)
        if game.phase == "draw":
            action = DrawShare(player, "deck")
            before = known(game, player)
            game.apply(action)
            assert known(game, player) == before
            deck_draws += 1
        else:
            game.apply(action)
    assert deck_draws == 3
