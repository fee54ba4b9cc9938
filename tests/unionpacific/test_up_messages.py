"""The Union Pacific engine's sentences are Messages: msgid + parameters, English as a str.

Each family is asserted on structure (a build explanation, a narrative event, a RuleError, describe);
50 seeded games say exactly the English the engine said before the conversion (digests recorded from
that engine, see up_transcript.py); and the catalogs render it in Finnish,
Hungarian and Spanish with the same placeholders and the catalogs' number of plural forms.
"""

from __future__ import annotations

import gettext
import re
import string
from pathlib import Path

import pytest
from babel_catalogs import compiled
from text_compare import assert_same_text
from up_helpers import started
from up_transcript import GAMES, expected_path, text

from railkit.errors import NotYourTurnError, RuleError
from railkit.messages import Message
from railkit.unionpacific import Build, DrawShare, EndTurn, Invest, Pass
from railkit.unionpacific.checks import step_words

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("fi", "hu", "es")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# -- structure, family by family ------------------------------------------------------------------
def test_up_b2_build_checklist_is_six_messages_with_the_facts_as_parameters():
    game = started(seed=3)
    build = game.legal_placements()[0]
    e = game.explain_placement(build.company, build.section, build.card)
    assert e.legal and isinstance(e.title, Message)
    assert e.title.msgid == "{company} train on {section} with {a_card}"
    assert e.title.params["a_card"].msgid in ("a {kind} card", "an {kind} card")
    for check in e.checks:
        assert isinstance(check.sentence, Message) and check.sentence.msgid == "{fact} ({rule})."
        assert check.sentence.params["rule"] == check.rule
    supply = e.checks[-1].sentence.params["fact"]
    assert supply.plural == "The {company} has {n} trains left in the supply" and supply.n >= 1


def test_up_b2_a_refused_build_is_a_rule_error_whose_message_keeps_fact_and_advice():
    game = started(seed=3)
    company = game.board.companies[0].key
    player = game.players_to_act()[0]
    card = sorted(game.state.track_hand[player])[0]
    sections = [sid for sid in game.board.sections
                if not game.explain_placement(company, sid, card).legal]
    with pytest.raises(RuleError) as caught:
        game.apply(Build(player, card, company, sections[0]))
    message = caught.value.message
    assert isinstance(message, Message) and message.msgid == "{fact}; {todo}"
    assert caught.value.rule.startswith("UP-B")
    assert str(caught.value) == f"{message} [{caught.value.rule}]"


def test_a_rule_error_names_the_step_as_a_nested_message():
    game = started(seed=1)
    player = game.players_to_act()[0]
    with pytest.raises(RuleError) as caught:
        game.apply(EndTurn(player))
    m = caught.value.message
    assert m.msgid == "{problem}; now {step}" and caught.value.rule == "UP-B6"
    assert m.params["problem"].msgid.startswith("a turn ends by itself")
    assert m.params["step"] == step_words(game.state) and m.params["step"].msgid.startswith("build, invest or pass")


def test_not_your_turn_keeps_both_names_as_parameters():
    game = started(seed=1)
    other = next(p for p in game.players if p != game.players_to_act()[0])
    with pytest.raises(NotYourTurnError) as caught:
        game.apply(DrawShare(other, "deck"))
    assert caught.value.message.msgid == "it is {current}'s turn to {task}, not {player}'s; wait for your turn"
    params = dict(caught.value.message.params)
    assert params.pop("task") == step_words(game.state)  # the step the table is at (UP-T3)
    assert params == {"current": game.players_to_act()[0], "player": other}


def test_a_share_count_uses_plural_forms_not_english_grammar():
    game = started(seed=1)
    player = game.players_to_act()[0]
    with pytest.raises(RuleError) as caught:
        game.apply(Invest(player, ("up", "up", "up", "up", "up"), sorted(game.state.track_hand[player])[0]))
    m = caught.value.message
    assert m.n == 5 and m.plural.startswith("{player} does not hold {n} shares of {card}")


def test_narrative_events_are_messages_with_player_and_turn():
    game = started(seed=2)
    turn = next(m for m in game.narrative if isinstance(m, Message) and m.msgid.startswith("Turn {turn}"))
    assert turn.params["player"] in game.players and turn.params["turn"] == 1
    build = game.legal_placements()[0]
    game.apply(build)
    event = next(m for m in reversed(game.narrative) if getattr(m, "msgid", "").startswith("{player} plays {card}"))
    assert event.params["player"] == build.player and event.params["card"].params["card"] == build.card
    assert event.params["value"] == game.state.net.on_board(build.company) + 1


def test_describe_is_a_message_with_nested_card_and_source():
    game = started(seed=2)
    player = game.players_to_act()[0]
    d = game.describe(DrawShare(player, "deck"))
    assert d.msgid == "{player} takes a share from {source} (UP-B3)"
    assert d.params["source"].msgid == "the top of the share deck"
    p = game.describe(Pass(player, "river"))
    assert p.params["card"].msgid == "a {card} card" and p.params["card"].params["card"].msgid == "river"
    assert p == f"{player} passes, discarding a river card (UP-T4)"


def test_invest_words_keep_each_count_as_a_plural_message():
    game = started(seed=2)
    d = game.describe(Invest("Ann", ("up", "up", "cp"), "plains"))
    shares = d.params["shares"]
    assert shares.msgid == "{names} and {last}"
    assert shares.params["names"].n == 2 and shares.params["last"].n == 1


# -- the English is what it was -----------------------------------------------------------------
# The fast tier compares the first FAST_GAMES games (every deck, option and player count between them); the
# full tier all 50 (the others are marked slow).
FAST_GAMES = 12


@pytest.mark.parametrize("seed", [s if s < FAST_GAMES else pytest.param(s, marks=pytest.mark.slow) for s in range(GAMES)])
def test_fifty_games_say_exactly_the_english_of_the_engine_before_messages(seed):
    assert_same_text(text(seed), expected_path(seed), "`python -m tests.unionpacific.up_transcript`")


def test_a_changed_sentence_shows_as_a_diff(tmp_path):
    expected = tmp_path / "game.txt"
    expected.write_text("Ann takes a share (UP-B3)\nBea passes (UP-T4)\n", encoding="utf-8")
    with pytest.raises(AssertionError) as failed:
        assert_same_text("Ann takes a share (UP-B3)\nBea passes, discarding (UP-T4)\n", expected, "the tool")
    assert "-Bea passes (UP-T4)\n+Bea passes, discarding (UP-T4)" in str(failed.value)


def test_most_sentences_of_a_game_are_messages():
    game = started(seed=4)
    for _ in range(30):
        if game.is_over:
            break
        game.apply(game.legal_actions(game.players_to_act()[0])[0])
    assert all(isinstance(m, Message) for m in game.narrative[1:])


# -- the catalogs ---------------------------------------------------------------------------------
def incoming_catalog(lang: str) -> gettext.GNUTranslations:
    """The language's catalog (railkit/locale/<lang>/LC_MESSAGES/railkit.po) compiled as ``make catalogs`` would."""
    return compiled(ROOT / "railkit" / "locale" / lang / "LC_MESSAGES" / "railkit.po")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_renders_in_each_language_without_falling_back_to_english(lang):
    catalog = incoming_catalog(lang)
    game = started(seed=5)
    for _ in range(60):
        if game.is_over:
            break
        game.apply(game.legal_actions(game.players_to_act()[0])[0])
    engine = [m for m in game.narrative if isinstance(m, Message)]
    assert engine
    for m in engine:
        text = m.render(catalog)
        assert text != str(m) and not re.search(r"\{\w+\}", text), (m.msgid, text)
