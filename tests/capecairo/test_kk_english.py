"""Every sentence the engine writes is correct English: no "1 pounds", no "card(s)", "both"
for two players and "all" for more, "a"/"an" right. Checked over many random games (every
player count, every option) and random auctions, including the refusals of illegal moves."""

import random
import re
from pathlib import Path

import pytest

from railkit.capecairo import Bid, Build, Choose, Pass, explain_auction_order, explain_build, new_game
from railkit.capecairo.bots import HeuristicBot, RandomBot
from railkit.errors import RuleError

DECK = str(Path(__file__).parent / "fixtures" / "kk_test_deck.json")
NAMES = ["Ann", "Ben", "Ines", "Uma"]  # no digits (a name like "Player 1" would look like a count)
UNITS = r"(?:pounds|cards|tracks|terrains|pieces|rounds|moves|coins)"
SINGULAR = r"(?:track piece|bonus track|terrain card|pound|card|terrain|piece|track|round|move)"
FAULTS = {
    "one with a plural": re.compile(rf"\b1 (?:[\w-]+ )?{UNITS}\b|\b1 (?!bonus\b)\w+s\b"),
    "many with a singular": re.compile(rf"(?<![-\w])(?:0|[2-9]|\d\d+) {SINGULAR}\b(?! piece| card| track)"),
    "an (s) plural": re.compile(r"\w\(s\)"),
    "a before a vowel": re.compile(r"\ba (?!(?:uni|use|one|eu))[aeiou]", re.IGNORECASE),
    "an before a consonant": re.compile(r"\ban (?!(?:hour|honest))[b-df-hj-np-tv-z]", re.IGNORECASE),
    "two names with all": re.compile(r"(?:^|[:.;] )[A-Z]\w* and [A-Z]\w* all\b"),
    "many names with both": re.compile(r", [A-Z]\w* and [A-Z]\w* both\b"),
    "a doubled word": re.compile(r"\b(\w+) \1\b"),
}


def faults(sentences):
    return sorted({f"{name}: {s!r}" for s in sentences for name, pattern in FAULTS.items() if pattern.search(s)})


def test_the_fault_patterns_catch_the_faults():
    bad = ["Ann has 1 pounds left.", "the 1 discarded cards", "2 card with 3 track piece", "1 card(s)",
           "a event", "an savanna", "Ann and Ben all bid 7", "Ann, Ben and Cy both bid", "the the"]
    good = ["Ann has 1 pound left.", "1 bonus track", "3 track pieces", "an open space", "a river card",
            "Ann and Ben both bid 7", "Ann, Ben and Cy all bid 7", "a unit"]
    assert len(faults(bad)) == len(bad)
    assert faults(good) == []


def refusals(game, rng):
    """The messages of moves the rules refuse now (the state stays as it was)."""
    tries = []
    for p in game.players:
        tries += [Bid(p, game.state.money[p] + 1), Bid(p, -1), Pass(p), Build(p), Choose(p, "R01")]
        if game.phase == "build" and game.state.turn == p and game.state.queues[p]:
            nums = game.build_numbers(p)
            tries += [Build(p, b) for b in range(nums.missing + 2)]
    out = []
    for action in rng.sample(tries, min(len(tries), 6)):
        try:
            game.check(action)
        except RuleError as exc:
            out.append(str(exc))
    return out


def sentences_of_a_game(players, seed):
    rng = random.Random(seed)
    options = {"win_crossings": rng.choice([1, 2, 5, 8, 8]), "river_bonus_for_builder": rng.random() < 0.7}
    game = new_game(NAMES[:players], seed=seed, **options)
    bots = [rng.choice([RandomBot, HeuristicBot])(seed + i) for i in range(players)]
    quitting = seed % 3 == 0  # some tables stop building, so games stall (KK-B8)
    said = []
    while not game.is_over:
        player = game.current_player
        if rng.random() < 0.3:
            said += refusals(game, rng)
            for p in game.players:
                said += explain_build(game, p).sentences
        action = bots[game.players.index(player)].choose(game, player)
        if quitting and game.phase == "build" and len(game.log) > 40:
            action = Pass(player)
        said.append(game.describe(action))
        game.apply(action)
    said += game.narrative + [str(game.result())] + refusals(game, rng)
    return said


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_engine_sentence_of_random_games_is_good_english(players):
    said = []
    for seed in range(12):
        said += sentences_of_a_game(players, 100 * players + seed)
    assert len(said) > 1000
    assert faults(said) == []


def test_sentences_about_a_one_pound_player_and_short_decks_are_good_english():
    # Ann bids all but 1 pound and cannot pay for her savanna
    game = new_game(["Ann", "Ben"], deck=DECK, stack=["S10", "V01", "S08", "R01"])
    for action in (Bid("Ann", 99), Bid("Ben", 3), Choose("Ann", "S10")):
        game.apply(action)
    said = explain_build(game, "Ann").sentences + explain_build(game, "Ben").sentences
    said += [str(e) for e in _refused(game, Bid("Ann", 5), Build("Ann", 4), Build("Ann", 1), Build("Ann", 0))]
    # the last cards run out (as in test_kk_card_shortage): Ben hoards the deck, white-box
    game = new_game(["Ann", "Ben"], deck=DECK, stack=["S10", "V01", "S08", "R01"])
    for action in (Bid("Ann", 4), Bid("Ben", 3), Choose("Ann", "S10")):
        game.apply(action)
    game._state.queues["Ben"].extend(reversed(game._state.deck))
    game._state.deck.clear()
    for action in (Build("Ann"), Bid("Ann", 0), Bid("Ben", 0), Build("Ann"), Pass("Ann"), Build("Ben")):
        said += explain_build(game).sentences
        game.apply(action)
    said += game.narrative + [str(game.result())]
    assert any("Only 1 card" in s for s in said)
    assert faults(said) == []


def _refused(game, *actions):
    out = []
    for action in actions:
        try:
            game.check(action)
        except RuleError as exc:
            out.append(exc)
    return out


def test_every_auction_explanation_is_good_english():
    rng = random.Random(5)
    said = []
    for _ in range(600):
        players = NAMES[: rng.randint(2, 4)]
        bids = {p: rng.choice([0, 1, 1, 2, 5]) for p in players}
        money = {p: rng.choice([0, 1, 1, 2, 30]) for p in players}
        coins = [rng.choice([1, 1, 2, 9]) for _ in range(rng.randint(0, 12))]
        said += explain_auction_order(bids, money, lambda p, pool=coins: pool.pop() if pool else None).steps
    assert faults(said) == []
