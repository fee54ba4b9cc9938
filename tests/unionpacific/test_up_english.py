"""Every sentence the Union Pacific engine writes is correct English.

Runs every explanation generator over many states and rejects the faults found before:
"1 spaces" (a plural unit after 1), "a El Paso" (a wrong article), "card(s)", "With no
shareholders, The company" (a capital article mid-sentence), "invests 1 Billings Northern
Lights" (a count glued to a company name), doubled words.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from railkit.errors import RuleError
from railkit.unionpacific import (
    GENERAL,
    TRACK_TYPES,
    UP,
    explain_company_payout,
    explain_placement,
    explain_union_pacific_payout,
    load_board,
    new_game,
    placement_error,
)
from railkit.unionpacific.bots import HeuristicBot, RandomBot

NAMES = ("Ann", "Bea", "Cy", "Dov", "Eli", "Flo")  # names that end in no digit: "Player 1 takes" is fine
UNITS = ("pounds", "millions", "spaces", "sections", "connections", "cards", "trains", "shares", "points",
         "positions", "payouts", "players", "moves", "companies", "types", "shareholders", "holders", "turns")
BOARD = load_board()
COMPANY = "|".join(re.escape(c.name) for c in BOARD.companies) + "|Union Pacific"

FAULTS = {
    "a plural unit after 1": re.compile(r"\b1 (?:[a-z-]+ ){0,2}(?:" + "|".join(UNITS) + r")\b"),
    "a plural verb after one thing": re.compile(r"\b1 (?:[a-z-]+ ){0,2}[a-z]+ (?:are|have|were)\b"),
    "'a' before a vowel sound": re.compile(r"\ba (?:[AEIOaeio]|U(?!nion|P\b)|u(?!s|ni))"),
    "'an' before a consonant sound": re.compile(r"\ban (?!hour|honest|UP\b)[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]"),
    "'(s)' instead of a plural": re.compile(r"\w\(s\)"),
    "a capital article mid-sentence": re.compile(r"[,;] (?:The|A|An) "),
    "a count glued to a company name": re.compile(r"\b\d+ (?:" + COMPANY + r")\b"),
    "a doubled word": re.compile(r"\b(\w+) \1\b", re.IGNORECASE),
    "a doubled prefix": re.compile(r"(\[UP-[\w-]+\]).*\1|\bUP-\w+ UP-\w+ "),
}


def faults(text: str) -> list[str]:
    return [f"{name}: {m.group(0)!r} in {text!r}" for name, rx in FAULTS.items() for m in [rx.search(text)] if m]


def assert_english(texts) -> None:
    found = [f for text in texts for f in faults(text)]
    assert not found, "\n".join(found[:20])


# -- the detector catches the faults it is for ------------------------------------------------------
@pytest.mark.parametrize("bad", [
    "Denver–Pueblo has 1 empty neutral spaces (UP-B2c).", "a El Paso & Rio Grande share", "Ann holds 1 shares",
    "the deck holds 3 card(s)", "With no shareholders, The company pays nothing.", "Ann invests 1 Billings Northern Lights",
    "1 legal sections", "an plains card", "Ann has 1 pounds", "1 of them are unused",
])
def test_the_detector_rejects_each_known_fault(bad):
    assert faults(bad)


@pytest.mark.parametrize("good", [
    "Ann exchanges a share of El Paso & Rio Grande for a Union Pacific share (UP-B4)", "a UP share",
    "an unusable river card", "a usable card", "Ann holds 1 share", "Position 5 is unused",
    "With no shareholders, the company pays nothing.", "Player 1 takes a share", "display slot 1 stays empty",
    "Ann invests 2 shares of Denver Midland", "With no shareholders, Denver Midland pays nothing.",
])
def test_the_detector_accepts_correct_sentences(good):
    assert not faults(good)


# -- every generator, many states -------------------------------------------------------------------
OPTION_GRID = list(itertools.product(("standard", "finnish", "dividend_cards"), (False, True), (True, False),
                                     (False, True), (False, True), (True, False)))


def _options(combo):
    deck, safe, direct, countable, bottom, public = combo
    return dict(deck=deck, safe_round=safe, direct_up_draw=direct, countable_deck=countable,
                removed_to_bottom=bottom, public_money=public)


def _random_placements(game, rng, n=12):
    texts = []
    net = game.state.net
    sections = list(BOARD.sections)
    for _ in range(n):
        key = rng.choice(game.company_order)
        sid = rng.choice(sections)
        card = rng.choice((*TRACK_TYPES, GENERAL))
        ex = explain_placement(BOARD, net.trains_on, net.supply, key, sid, card)
        texts += [str(ex), ex.title, *(c.sentence for c in ex.checks)]
        err = placement_error(BOARD, net.trains_on, net.supply, key, sid, card)
        if err is not None:
            texts.append(str(err))
    return texts


def _junk_errors(game, rng):
    """Messages of refused actions (what a learner reads after a wrong click)."""
    from test_up_random_games import random_illegal

    texts = []
    for _ in range(4):
        try:
            game.check(random_illegal(game, rng))
        except RuleError as exc:
            texts.append(str(exc))
    return texts


def _covering(grid):
    """Few indices of ``grid`` that together hold every value of every option and every player count (2 + i % 5)."""
    def features(i):
        return {("option", k, v) for k, v in enumerate(grid[i])} | {("players", 2 + i % 5)}
    wanted = set().union(*(features(i) for i in range(len(grid))))
    chosen, covered = [], set()
    while covered != wanted:
        best = max(range(len(grid)), key=lambda i: (len(features(i) - covered), -i))
        chosen.append(best)
        covered |= features(best)
    return sorted(chosen)


# The fast tier plays a covering share of the grid; the full tier (slow) every other combination too.
FAST_INDICES = _covering(OPTION_GRID)


def test_the_fast_share_covers_every_option_value_and_player_count():
    assert all({OPTION_GRID[i][k] for i in FAST_INDICES} == {c[k] for c in OPTION_GRID} for k in range(6))
    assert {2 + i % 5 for i in FAST_INDICES} == {2, 3, 4, 5, 6}


@pytest.mark.parametrize("index", [i if i in FAST_INDICES else pytest.param(i, marks=pytest.mark.slow)
                                   for i in range(len(OPTION_GRID))])
def test_narrative_describe_placements_and_errors_of_full_games(index):
    rng = random.Random(index)
    players = list(NAMES[: 2 + index % 5])
    game = new_game(players, seed=index, **_options(OPTION_GRID[index]))
    bots = {p: (HeuristicBot(index) if i == 0 else RandomBot(index + i)) for i, p in enumerate(players)}
    texts = []
    while not game.is_over:
        player = game.players_to_act()[0]
        legal = game.legal_actions(player)
        texts += [game.describe(a) for a in legal[:12]]
        if rng.random() < 0.05:
            texts += _random_placements(game, rng, 3) + _junk_errors(game, rng)
        game.apply(bots[player].choose(game, player))
    texts += game.narrative + [str(game.result()), repr(game)]
    texts += [str(r) for r in game.state.payouts]
    assert_english(texts)


def test_payout_explanations_over_random_holdings():
    rng = random.Random(8)
    texts = []
    for _ in range(3000):
        n = rng.randint(1, 6)
        holders = rng.sample(NAMES, n)
        shares = {p: rng.choice((0, 0, 1, 1, 2, 3, 4, 7)) for p in holders}
        company = rng.choice([None, *(c.name for c in BOARD.companies)])
        for ex in (explain_company_payout(rng.randint(0, 25), shares, company=company),
                   explain_union_pacific_payout(rng.randint(1, 4), shares)):
            texts += [ex.title, *ex.steps]
    assert_english(texts)


def test_placement_explanations_over_random_states():
    rng = random.Random(3)
    texts = []
    for seed in range(12):
        game = new_game(list(NAMES[:4]), seed=seed)
        bot = RandomBot(seed)
        for _ in range(rng.randint(0, 250)):
            if game.is_over:
                break
            game.apply(bot.choose(game, game.players_to_act()[0]))
        texts += _random_placements(game, rng, 80)
    assert_english(texts)


def test_describe_every_kind_of_action_in_correct_english():
    from railkit.unionpacific import (
        Build,
        ChooseFirstShare,
        DiscardUnusable,
        DrawShare,
        EndTurn,
        ExchangeForUP,
        Invest,
        Pass,
    )

    game = new_game(["Ann", "Bea"], seed=0)
    texts = []
    for card in [c.key for c in BOARD.companies] + [UP]:
        texts += [game.describe(ExchangeForUP("Ann", card)), game.describe(Invest("Ann", (card,), "river")),
                  game.describe(Invest("Ann", (card, card, card), "hills")), game.describe(ChooseFirstShare("Ann", card))]
    for track in (*TRACK_TYPES, GENERAL):
        texts += [game.describe(DiscardUnusable("Ann", track)), game.describe(Pass("Ann", track)),
                  game.describe(Build("Ann", track, "EPRG", "albuquerque--el-paso"))]
    texts += [game.describe(DrawShare("Ann", s)) for s in ("deck", "up", "display:0")]
    texts.append(game.describe(EndTurn("Ann")))
    assert_english(texts)
    assert "a share of El Paso & Rio Grande" in game.describe(ExchangeForUP("Ann", "EPRG"))
    assert "1 share of Billings Northern Lights" in game.describe(Invest("Ann", ("BNL",), "plains"))
