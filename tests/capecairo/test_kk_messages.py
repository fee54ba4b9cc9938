"""Vom Kap bis Kairo's sentences are structured messages: each narrative event, auction
step, build explanation, refusal, move description, review reason and result is a ``railkit.messages.Message``
whose str is the English sentence it was before, and whose msgid and parameters tests (and the lessons'
translations) can read. The catalogs (``railkit/locale/*/LC_MESSAGES/railkit.po``) translate every msgid."""

import random
import re
import string

import pytest
from babel_catalogs import compiled, gettext_key, header, read, translated
from kk_transcript import ENGLISH, GAMES, auctions_text, game_text
from test_kk_english import DECK, NAMES
from text_compare import assert_same_text

from railkit.capecairo import Bid, Build, Choose, Pass, explain_auction_order, explain_build, new_game
from railkit.capecairo.checks import phase_words
from railkit.capecairo.review import review_moves
from railkit.errors import RuleError
from railkit.locale import LOCALE_DIR
from railkit.messages import Message

REGENERATE = "`.venv/bin/python tests/capecairo/kk_transcript.py`"


def plural_forms(language):
    """(nplurals, the Plural-Forms value) from the language's own .po header: the JSON follows the catalog."""
    forms = header(read(LOCALE_DIR / language / "LC_MESSAGES" / "railkit.po"), "Plural-Forms").strip()
    return int(re.search(r"nplurals=(\d+)", forms).group(1)), forms


PLURAL_FORMS = {language: plural_forms(language) for language in ("fi", "hu", "es")}


def started(stack=("S10", "V01", "S08", "R01")):
    game = new_game(["Ann", "Ben"], deck=DECK, stack=list(stack))
    return game


def refusal(game, action):
    with pytest.raises(RuleError) as caught:
        game.check(action)
    return caught.value


def msgids(message):
    """Every msgid in ``message`` and its nested parameters (the plural's key as in the JSON)."""
    if not isinstance(message, Message):
        return set()
    own = message.msgid if message.plural is None else f"{message.msgid}\x00{message.plural}"
    return {own}.union(*(msgids(v) for v in message.params.values()))


# -- structure, family by family --------------------------------------------------------------
def test_kk_s1_setup_and_kk_a1_auction_narrative_are_messages_with_counts_as_parameters():
    game = started()
    shuffled, auction = game.narrative
    assert shuffled.msgid.startswith("The deck of {cards} terrain cards") and dict(shuffled.params) == {
        "cards": 50, "money": 100}
    assert auction.msgid.startswith("Auction {number}: on sale {cards}.") and auction.params["number"] == 1
    first_card = auction.params["cards"].params["first"]
    assert first_card.params["id"] == "S10" and first_card.params["terrain"].msgid == "savanna"
    assert first_card.plural is not None and first_card.n == game.card("S10").tracks


def test_kk_a3_reveal_kk_a6_choice_and_kk_b1_turn_up_name_player_and_card():
    game = started()
    events = game.apply(Bid("Ann", 5)) + game.apply(Bid("Ben", 3))
    assert events[0] == "Ann hands in a sealed bid." and events[0].params["player"] == "Ann"
    reveal = next(e for e in events if e.msgid.startswith("Bids revealed"))
    assert reveal.params["bids"] == "Ann 5, Ben 3"
    events = game.apply(Choose("Ann", "S10"))
    took, last, won, turned = events[:4]
    assert took.msgid == "{player} takes {card} and lays it at the end of their line (KK-A6)."
    assert took.params["card"].params["id"] == "S10"
    assert last.msgid == "{player} gets the last card, {card} (KK-A4, KK-A6)." and last.params["player"] == "Ben"
    assert won.params["player"] == "Ann" and "(KK-A7)" in won.msgid
    assert turned.msgid == "{player} turns up {card} (KK-B1)."


def test_kk_b2_build_event_keeps_every_source_as_a_plural_message():
    game = started()
    for action in (Bid("Ann", 5), Bid("Ben", 3), Choose("Ann", "S10")):
        game.apply(action)
    events = game.apply(Build("Ann"))
    built = next(e for e in events if "(KK-B2, KK-B4)" in e.msgid)
    assert built.params["player"] == "Ann"
    for key in ("flipped", "bonus", "coin"):
        assert built.params[key].plural is not None, key
    assert built.params["coin"].msgid == "{n} pound" and built.params["coin"].n == game.card("S10").coin


def test_kk_a5_auction_steps_use_both_or_all_and_names_message():
    coins = [2, 1, 4, 4]  # drawn from the end: a tie on 4, then 1 and 2
    two = explain_auction_order({"Ann": 3, "Ben": 3}, {"Ann": 5, "Ben": 5}, lambda p: coins.pop())
    tie, same, draws, again, *_ = two.steps[1:]
    assert tie.msgid.startswith("{players} both bid {bid}") and tie.params["players"].msgid == "{names} and {last}"
    assert same.params["money"].msgid == "{n} pound" and same.params["money"].n == 5
    assert draws.msgid == "Draws: {draws}." and again.msgid == "{players} both drew coin {coin}: they draw again."
    three = explain_auction_order({"Ann": 1, "Ben": 1, "Cy": 1}, {"Ann": 0, "Ben": 2, "Cy": 9}, lambda p: None)
    assert three.steps[1].msgid.startswith("{players} all bid {bid}") and three.steps[2].params["money"] == "0 pounds"
    assert three.steps[-1].msgid == "Choosing order: {order}." and three.order == ["Ann", "Ben", "Cy"]


def test_kk_b2_build_explanation_sentences_are_messages():
    game = started()
    for action in (Bid("Ann", 99), Bid("Ben", 3), Choose("Ann", "S10")):
        game.apply(action)
    said = explain_build(game, "Ann").sentences
    assert all(isinstance(s, Message) for s in said)
    assert said[0].params["crossing"].msgid == "crossing a savanna" and said[0].params["need"] == 6
    assert said[1].params["cards"].n == 1 and said[1].params["pieces"] == "3 track pieces"
    assert said[-1].params["coin"] == "1 pound" and said[-1].params["coin"].n == 1
    assert explain_build(game, "Ben").sentences[-1].msgid == "It is not {player}'s turn to build now."


def test_kk_refusals_keep_their_message_and_rule():
    game = started()
    too_much = refusal(game, Bid("Ann", 101))
    assert too_much.rule == "KK-A2" and too_much.message.params["money"].n == 100
    assert str(too_much) == "Ann has only 100 pounds and cannot bid 101 (money never goes below 0, KK-C5) [KK-A2]"
    early = refusal(game, Pass("Ann"))
    assert early.message.msgid == "building starts after the auction ({phase})"
    assert early.message.params["phase"].msgid == "the auction is waiting for sealed bids"
    stranger = refusal(game, Bid("Zed", 1))
    assert stranger.message.msgid == "{player} is not playing; the players are {players}"
    for action in (Bid("Ann", 99), Bid("Ben", 3), Choose("Ann", "S10")):
        game.apply(action)
    extra = refusal(game, Build("Ann", 1))
    assert extra.message.msgid == "no track piece is missing; buy none" and extra.rule == "KK-B2"
    river = new_game(["Ann", "Ben"], deck=DECK, stack=["R01", "V01", "S08", "S10"])
    for action in (Bid("Ann", 5), Bid("Ben", 3), Choose("Ann", "R01")):
        river.apply(action)
    nums = river.build_numbers("Ann")
    if nums.min_buy:
        short = refusal(river, Build("Ann", 0))
        assert short.message.plural is not None and short.message.params["pieces"].msgid == "{n} track piece"
        assert short.message.n == nums.free + nums.bonus
    assert phase_words(game.state).params["player"] == "Ann"


def test_kk_describe_review_and_result_are_messages():
    game = started()
    assert game.describe(Bid("Ann", 7)).msgid == "{player} hands in a sealed bid (KK-A2)"
    take = game.describe(Choose("Ann", "S10"))
    assert take.params["card"].params["terrain"].msgid == "savanna"
    assert game.describe(Build("Ann", 2)).params["pieces"].n == 2
    assert game.result().words.msgid == "The game is still going on."
    game = new_game(["Ann", "Ben"], seed=3, win_crossings=1)
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    words = game.result().words
    assert isinstance(words, Message) and words.params["scores"].msgid in {"{first}; {rest}"}
    for weak in review_moves(game, "Ann") + review_moves(game, "Ben"):
        assert weak.words.msgid == "Move {move}: {reason}" and isinstance(weak.reason, Message)


# -- English unchanged -------------------------------------------------------------------------
# The fast tier compares the first FAST_GAMES games (2, 3 and 4 players, every option); the full tier all 50.
FAST_GAMES = 12


@pytest.mark.parametrize("i", [i if i < FAST_GAMES else pytest.param(i, marks=pytest.mark.slow) for i in range(GAMES)])
def test_english_of_50_random_games_is_what_it_was_before_the_messages(i):
    assert_same_text(game_text(i), ENGLISH / f"kk_game_{i:02d}.txt", REGENERATE)


def test_english_of_300_auction_explanations_is_what_it_was_before_the_messages():
    assert_same_text(auctions_text(), ENGLISH / "kk_auctions.txt", REGENERATE)


# -- the translations --------------------------------------------------------------------------
class _Blank(dict):
    def __missing__(self, key):
        return ""


def fields(text):
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def catalog(language):
    """The language's catalog (railkit/locale/<language>/LC_MESSAGES/railkit.po) as gettext."""
    po = LOCALE_DIR / language / "LC_MESSAGES" / "railkit.po"
    return compiled(po)


@pytest.mark.parametrize("language", ["fi", "hu", "es"])
def test_every_msgid_of_a_game_is_translated_and_renders(language):
    po = LOCALE_DIR / language / "LC_MESSAGES" / "railkit.po"
    known = {gettext_key(m) for m in read(po) if translated(m)}
    known |= {"{names} and {last}", "nobody"}  # railkit.messages' own, translated with the payouts
    tr = catalog(language)
    seen = set()
    for seed in (11, 12, 13):
        game = new_game(NAMES[:3], seed=seed, win_crossings=2)
        rng = random.Random(seed)
        said = []
        while not game.is_over:
            said += explain_build(game).sentences
            action = rng.choice(game.legal_actions())
            said.append(game.describe(action))
            game.apply(action)
        said += game.narrative + [game.result().words]
        for message in said:
            seen |= msgids(message)
            if any(ch.isalpha() for ch in string.Formatter().vformat(message.msgid, (), _Blank())):
                assert message.render(tr) != str(message), message.msgid
    assert seen - known == set()

