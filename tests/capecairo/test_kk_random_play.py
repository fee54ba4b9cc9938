"""Seeded play of many complete games, checking the invariants after every action.

The fast tier plays ``FAST_GAMES`` games per player count, chosen to reach the same ground as the full run
(every kind of bot, tables of quitters, both endings, hidden bids, reloads); the full tier (``make test``,
marked ``slow``) plays the other seeds up to ``GAMES_PER_COUNT``: about 600 games in all."""

import random
from collections import Counter

import pytest

from railkit.capecairo import Bid, Build, Choose, Pass, load_game, new_game
from railkit.capecairo.bots import HeuristicBot, RandomBot
from railkit.errors import RuleError

GAMES_PER_COUNT = 200
FAST_GAMES = 12  # per player count; seeds 0..11 (seed % 8 == 0: every seat a quitter)


class StingyBot:
    """Bids nothing and builds only for free: drives games towards empty decks and stalls."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, game, player):
        if game.phase == "bid":
            return Bid(player, 0)
        actions = game.legal_actions(player)
        free = [a for a in actions if isinstance(a, Build) and a.buy == 0]
        if free and self.rng.random() < 0.6:
            return free[0]
        return self.rng.choice([a for a in actions if not isinstance(a, Build)] or actions)


class QuitterBot(HeuristicBot):
    """Plays like the heuristic bot until the table has crossed a few terrains, then only
    passes: when everyone quits, the game must stall and end by KK-B8."""

    def __init__(self, seed):
        super().__init__(seed)
        self.quit_at = self.rng.randint(0, 12)

    def choose(self, game, player):
        if game.phase == "build" and sum(map(len, game.state.crossed.values())) >= self.quit_at:
            return Pass(player)
        return super().choose(game, player)


def cards_in_play(state):
    zones = [state["deck"], state["discard"], state["flipped"], state["offer"]]
    for p in state["players"]:
        zones += [state["queues"][p], state["crossed"][p], state["bonus"][p]]
    return sorted(c for zone in zones for c in zone)


def expected_money(game, action):
    """Money after ``action``: only bids, purchases and coins move it."""
    money = dict(game.state.money)
    if isinstance(action, Bid) and len(game.state.bids) == len(game.players) - 1:
        for p, amount in {**game.state.bids, action.player: action.amount}.items():
            money[p] -= amount
    elif isinstance(action, Build):
        nums = game.build_numbers(action.player)
        money[action.player] += nums.card.coin - 10 * nums.resolve_buy(action.buy)
    return money


def illegal_action(game, rng):
    """Something the rules forbid right now."""
    player = rng.choice(game.players)
    if game.phase == "bid":
        if player in game.state.bids:
            return Bid(player, 0)  # a second bid
        return rng.choice([Bid(player, game.state.money[player] + 1), Bid(player, -1), Bid(player, True), Pass(player)])
    if game.phase == "choose":
        chooser = game.state.choosers[0]
        if player != chooser:
            return Choose(player, game.state.offer[0])
        return Choose(chooser, next(c for c in sorted(game.table.cards) if c not in game.state.offer))
    if player != game.state.turn:
        return rng.choice([Pass(player), Build(player)])
    nums = game.build_numbers(player)
    if nums.card is None:
        return Build(player)
    return Build(player, nums.missing + 1)


SEEN = Counter()  # what the played games reached, for the coverage check of the fast tier


def check_hidden_bids(game):
    """view(p) must not depend on any other player's pending bid."""
    SEEN["hidden bids checked"] += 1
    for p in game.players:
        for q, amount in list(game.state.bids.items()):
            if q == p:
                continue
            seen = game.view(p)
            game._state.bids[q] = amount + 1 if amount == 0 else amount - 1
            try:
                assert game.view(p) == seen
            finally:
                game._state.bids[q] = amount
        assert game.view(p).your_bid == game.state.bids.get(p)


def play_checked(players, seed):
    rng = random.Random(seed)
    if seed % 8 == 0:
        bot_kinds = [QuitterBot] * players
    else:
        bot_kinds = [rng.choice([RandomBot, HeuristicBot, StingyBot, QuitterBot]) for _ in range(players)]
    game = new_game(players, seed=seed)
    bots = {p: kind(seed * 10 + i) for i, (p, kind) in enumerate(zip(game.players, bot_kinds, strict=True))}
    SEEN.update(kind.__name__ for kind in bot_kinds)
    all_cards = sorted(game.table.cards)
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps < 5000, "the game must end"
        assert game.players_to_act() and game.current_player in game.players_to_act()
        # a rejected action leaves the state untouched
        before = game.state_dict()
        with pytest.raises(RuleError):
            game.apply(illegal_action(game, rng))
        assert game.state_dict() == before
        player = rng.choice(game.players_to_act())  # sealed bids may come in any order
        action = bots[player].choose(game, player)
        assert game.is_legal(action)
        money = expected_money(game, action)
        game.apply(action)
        state = game.state_dict()
        assert cards_in_play(state) == all_cards  # every one of the 50 cards exactly once
        assert state["money"] == money and min(money.values()) >= 0
        if game.phase == "bid" and game.state.bids:
            check_hidden_bids(game)
        if steps % 40 == 0:
            assert load_game(game.to_json()).state_dict() == state
            SEEN["reloads"] += 1
    assert load_game(game.to_json()).state_dict() == game.state_dict()
    assert load_game(game.to_dict()).narrative == game.narrative
    return game


def play_and_check_endings(players, seeds):
    endings = Counter()
    for seed in seeds:
        game = play_checked(players, 1000 * players + seed)
        result = game.result()
        assert result.is_over and result.end_reason in ("KK-E1", "KK-B8")
        endings[result.end_reason] += 1
        if result.end_reason == "KK-E1":
            (winner,) = result.winners
            assert result.score[winner] == 8
            assert all(n < 8 for p, n in result.score.items() if p != winner)
        else:
            best = max((result.score[p], result.money[p]) for p in game.players)
            assert result.winners and all((result.score[w], result.money[w]) == best for w in result.winners)
    return endings


@pytest.mark.parametrize("players", [2, 3, 4])
def test_KK_E1_KK_B8_seeded_random_games_keep_every_invariant(players):
    """The fast tier's share: the first ``FAST_GAMES`` seeds, which reach every bot, both endings and the checks."""
    SEEN.clear()
    endings = play_and_check_endings(players, range(FAST_GAMES))
    assert endings["KK-E1"] > 0 and endings["KK-B8"] > 0
    assert {"RandomBot", "HeuristicBot", "StingyBot", "QuitterBot"} <= set(SEEN), SEEN
    assert SEEN["hidden bids checked"] > 0 and SEEN["reloads"] > 0, SEEN


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_KK_E1_KK_B8_all_600_seeded_random_games_keep_every_invariant(players):
    """The full tier: the remaining seeds up to ``GAMES_PER_COUNT`` (600 games with the fast tier's)."""
    endings = play_and_check_endings(players, range(FAST_GAMES, GAMES_PER_COUNT))
    assert endings["KK-E1"] > 0 and endings["KK-B8"] > 0


def test_undo_and_replay_rebuild_earlier_states():
    game = new_game(3, seed=5)
    bots = [RandomBot(1), HeuristicBot(2), RandomBot(3)]
    states = [game.state_dict()]
    for _ in range(60):
        p = game.current_player
        game.apply(bots[game.players.index(p)].choose(game, p))
        states.append(game.state_dict())
    assert game.undo(1).state_dict() == states[-2]
    assert game.undo(25).state_dict() == states[-26]
    assert game.replay(0).state_dict() == states[0]
