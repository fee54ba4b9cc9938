"""Seeded random play of many complete games, checking the invariants after every action.

Every option combination is played at least once, with 2 to 6 players, mostly by
``RandomBot`` with some ``HeuristicBot`` seats. After every action: trains and shares are
conserved, money moves only at payouts, the board obeys UP-B2c/d/e, and the fast
placement caches agree with ``placement.py``. Every few actions the save is reloaded and
random illegal actions are tried (each must leave the state untouched).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import networkx as nx
import pytest

from railkit.errors import RuleError
from railkit.unionpacific import (
    DIVIDEND,
    GENERAL,
    IMAGINARY,
    TRACK_TYPES,
    UP,
    UP_SHARES,
    Build,
    ChooseFirstShare,
    DiscardUnusable,
    DrawShare,
    EndTurn,
    ExchangeForUP,
    Invest,
    Pass,
    legal_sections,
    load_game,
    new_game,
    reachable_cities,
)
from railkit.unionpacific.bots import HeuristicBot, RandomBot

OPTION_GRID = list(
    itertools.product(
        ("standard", "finnish", "dividend_cards"),  # deck
        (False, True),  # safe_round
        (True, False),  # direct_up_draw
        (False, True),  # countable_deck
        (False, True),  # removed_to_bottom
        (True, False),  # public_money
    )
)
RELOAD_EVERY = 40
ILLEGAL_EVERY = 15


def options_of(combo):
    deck, safe, direct, countable, bottom, public = combo
    return dict(deck=deck, safe_round=safe, direct_up_draw=direct, countable_deck=countable,
                removed_to_bottom=bottom, public_money=public)


def check_trains(game):
    board, net = game.board, game.state.net
    on_board = Counter()
    per_connection = Counter()
    for sid, keys in net.trains_on.items():
        section = board.sections[sid]
        assert len(keys) == len(set(keys)), f"a company twice on {sid} (UP-B2d)"
        per_connection.update((frozenset((section.a, section.b)), key) for key in keys)
        assert len(keys) <= section.spaces, f"{sid} over its spaces (UP-B2c)"
        on_board.update(keys)
    assert max(per_connection.values()) == 1, "a company twice on one connection (UP-B2d)"
    for company in board.companies:
        assert on_board[company.key] + net.supply[company.key] == company.trains, company.key
        assert net.supply[company.key] >= 0


def check_networks(game, full=False):
    board, net = game.board, game.state.net
    for company in board.companies:
        key = company.key
        edges = [(s.a, s.b, s.id) for s in board.sections.values() if key in net.trains_on[s.id]]
        g = board.graph.edge_subgraph(edges)
        assert company.headquarters in g, f"{key} network misses its HQ"
        assert nx.is_connected(g), f"{key} network is not connected (UP-B2e)"
        assert net.reach[key] == reachable_cities(board, net.trains_on, key), key
        if full:
            for card in (*TRACK_TYPES, GENERAL):
                assert net.sections_for(key, card) == legal_sections(
                    board, net.trains_on, net.supply, key, card
                ), (key, card)


def check_cards(game):
    counts = Counter()
    counts.update(c for c in game.state.deck)
    counts.update(c for c in game.state.display if c is not None)
    counts.update(game.state.reserve)
    counts.update(game.state.box)
    counts[UP] += game.state.up_stack
    for p in game.players:
        counts.update(game.state.share_hand[p])
        counts.update(game.state.table[p])
    if game.state.imaginary is not None:
        counts.update(game.state.imaginary)
    for company in game.board.companies:
        assert counts[company.key] == company.shares, company.key
    assert counts[UP] == UP_SHARES
    assert counts[DIVIDEND] == 4
    assert set(counts) <= {c.key for c in game.board.companies} | {UP, DIVIDEND}
    track = Counter(game.state.track_pile) + Counter(game.state.track_discards)
    for p in game.players:
        track.update(game.state.track_hand[p])
    assert dict(track) == {k: v for k, v in game.board.track_deck.items() if v}


def check_money(game):
    paid = Counter()
    for record in game.state.payouts:
        paid.update(record.amounts)
    holders = set(game.players) | ({IMAGINARY} if game.state.imaginary is not None else set())
    assert set(game.state.money) == holders
    for h in holders:
        assert game.state.money[h] == paid[h]


def random_illegal(game, rng):
    """A random action, mostly nonsense or out of turn, built from plausible values."""
    p = rng.choice(list(game.players) + ["Nobody"])
    cards = [c.key for c in game.board.companies] + [UP, "XX"]
    track = list(TRACK_TYPES) + [GENERAL, "lava"]
    sections = list(game.board.sections)[:20] + ["nowhere"]
    kind = rng.randrange(8)
    if kind == 0:
        return ChooseFirstShare(p, rng.choice(cards))
    if kind == 1:
        return DiscardUnusable(p, rng.choice(track))
    if kind == 2:
        return Build(p, rng.choice(track), rng.choice(cards), rng.choice(sections))
    if kind == 3:
        return DrawShare(p, rng.choice(["deck", "up", "display:0", "display:3", "display:9", "hand"]))
    if kind == 4:
        return ExchangeForUP(p, rng.choice(cards))
    if kind == 5:
        return EndTurn(p)
    if kind == 6:
        return Invest(p, tuple(rng.choice(cards) for _ in range(rng.randint(0, 4))), rng.choice(track))
    return Pass(p, rng.choice(track))


def play_checked(players, seed, options, heuristic_seats=()):
    game = new_game(players, seed=seed, **options)
    rng = random.Random(seed)
    bots = {p: (HeuristicBot(seed + i) if i in heuristic_seats else RandomBot(seed * 31 + i))
            for i, p in enumerate(game.players)}
    check_trains(game)
    check_cards(game)
    check_networks(game, full=True)
    steps = 0
    last_placed = sum(len(k) for k in game.state.net.trains_on.values())
    while not game.is_over:
        steps += 1
        assert steps < 3000, "the game does not end"
        if steps % ILLEGAL_EVERY == 0:
            before = game.state_dict()
            for _ in range(5):
                action = random_illegal(game, rng)
                try:
                    game.check(action)
                except RuleError as exc:
                    assert exc.rule.startswith("UP-")
                    assert game.state_dict() == before
        player = game.players_to_act()[0]
        legal = game.legal_actions(player)
        assert legal, f"{player} has no legal action at step {game.state.step}"
        action = bots[player].choose(game, player)
        assert action in legal
        money_before, payouts_before = dict(game.state.money), len(game.state.payouts)
        events = game.apply(action)
        assert events and all(isinstance(e, str) for e in events)
        if len(game.state.payouts) == payouts_before:
            assert game.state.money == money_before, "money moved without a payout (UP-D1)"
        check_trains(game)
        check_cards(game)
        check_money(game)
        placed = sum(len(k) for k in game.state.net.trains_on.values())
        if placed != last_placed or steps % 25 == 0:  # only a build changes the networks
            check_networks(game, full=steps % 25 == 0)
            last_placed = placed
        if steps % RELOAD_EVERY == 0:
            assert load_game(game.to_json()).state_dict() == game.state_dict()
    assert len(game.state.payouts) == (3 if len(game.players) == 2 else 4)
    assert load_game(game.to_json()).state_dict() == game.state_dict()
    assert game.legal_actions() == []
    result = game.result()
    best = max(result.money.values())
    assert result.winners == tuple(h for h, m in result.money.items() if m == best)
    return game


def play_combination(i):
    players = 2 + i % 5
    heuristic = (i % players,) if i % 3 == 0 else ()
    play_checked(players, seed=1000 + i, options=options_of(OPTION_GRID[i]), heuristic_seats=heuristic)


def covering_combinations():
    """Few grid indices that together play every value of every option, every player count (2-6) and both
    kinds of table (with and without a heuristic seat): the fast tier's share of the grid."""
    def features(i):
        return ({("option", k, v) for k, v in enumerate(OPTION_GRID[i])} | {("players", 2 + i % 5)}
                | {("heuristic", i % 3 == 0)})
    wanted = set().union(*(features(i) for i in range(len(OPTION_GRID))))
    chosen, covered = [], set()
    while covered != wanted:
        best = max(range(len(OPTION_GRID)), key=lambda i: (len(features(i) - covered), -i))
        chosen.append(best)
        covered |= features(best)
    return sorted(chosen)


FAST_COMBINATIONS = covering_combinations()


@pytest.mark.parametrize("index", FAST_COMBINATIONS)
def test_every_option_value_random_play(index):
    """The fast tier: a few combinations that play every option value, player count and kind of table."""
    play_combination(index)


def test_the_fast_combinations_cover_every_option_value():
    values = {k: {OPTION_GRID[i][k] for i in FAST_COMBINATIONS} for k in range(len(OPTION_GRID[0]))}
    assert all(values[k] == {combo[k] for combo in OPTION_GRID} for k in values)
    assert {2 + i % 5 for i in FAST_COMBINATIONS} == {2, 3, 4, 5, 6} and len(FAST_COMBINATIONS) <= 8


@pytest.mark.slow
@pytest.mark.parametrize("index", range(0, len(OPTION_GRID), 8))
def test_every_option_combination_random_play(index):
    """The full tier: every combination of the grid (eight per case) not already played by the fast tier."""
    for i in range(index, min(index + 8, len(OPTION_GRID))):
        if i not in FAST_COMBINATIONS:
            play_combination(i)


def play_default_options(players, seed):
    play_checked(players, seed=seed, options={}, heuristic_seats=(seed % players,) if seed % 2 else ())


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_default_options_random_play_each_player_count(players):
    """The fast tier: two games per player count, one of random players only, one with a heuristic seat."""
    for seed in (0, 1):
        play_default_options(players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_default_options_random_play_each_player_count_more_seeds(players):
    """The full tier: two more seeds per player count."""
    for seed in (2, 3):
        play_default_options(players, seed)


def test_heuristic_bots_only_complete_games():
    for players in (2, 4, 6):
        play_checked(players, seed=77, options={"safe_round": players >= 5}, heuristic_seats=tuple(range(players)))
