"""The learner is “you” in every language: each play lesson, played headless with the default name (“You”,
“Sinä”, “Te”, “Tú”), never puts that name into a sentence written about a third person (“Sinä jättää”,
“Tú entrega”, “You has”, “A Tú le quedan”); sentences about the learner are their own second-person messages
(``railkit.messages.addressed``)."""

from __future__ import annotations

import html
import random
import re

import pytest
from babel.messages.pofile import read_po

from railkit.locale import LOCALE_DIR
from railkit.messages import Message, _you_forms, addressed
from railkit.ui import i18n
from railkit.ui.records.learner import VERBS, default_learner
from tests.ui.test_i18n_catalogs import widget_texts
from tests.ui.test_ui_kk_play import play_one_move
from tests.ui.test_ui_no_english_on_screen import screen_texts
from tests.ui.test_ui_up_play import act, first_legal

# The default name followed by a word that is not the language's “and”: a verb of a third-person sentence
# (the learner's own messages never start with the pronoun), or a case the pronoun cannot take. A list of players
# with the learner in it has its own patterns: its verb must be the second person plural (“Sinä ja Ann jaatte”,
# “Te és Ann osztoztok”, “Ann y tú empatáis”), never the third (“jakavat”, “osztoznak”, “empatan”), and the learner
# never takes a case a name takes (“Pelaajilla Sinä ja Ann”, “A Tú y Ann”). tests/test_translated_games.py checks
# that every engine message with such a list has its second-person plural form.
_FI_NAME = r"[A-ZÅÄÖ][\w&.'-]*(?: [A-Z][\w&.'-]*)*"
_HU_NAME = r"[A-ZÁÉÍÓÖŐÚÜŰ][\w&.'-]*(?: [A-Z][\w&.'-]*)*"
_ES_NAME = r"[A-ZÁÉÍÓÚÑ][\w&.'-]*(?: [A-Z][\w&.'-]*)*"
THIRD_PERSON = {
    "en": re.compile(rf"\bYou (?:{'|'.join(v for v in VERBS if v not in ('cannot', 'may', 'must', 'can', 'won'))})\b"
                     r"|\bYou \(you\)|(?<=[a-z] )You\b(?! and\b)"
                     rf"|\b[Yy]ou(?:, {_FI_NAME})* and {_FI_NAME} (?:{'|'.join(v for v in VERBS if v.endswith('s'))})\b"),
    "fi": re.compile(r"\bSinä (?!ja\b)[a-zäö]+|\b[Pp]elaaj\w* Sinä\b|\bnostaja Sinä\b|\bSinä \(sinä\)"
                     rf"|\bSinä\W+(?:voittaa|jakaa)\b"
                     rf"|\b[Ss]inä(?:, {_FI_NAME})* ja {_FI_NAME} (?:\w+ )?(?:\w+(?:vat|vät)|eivät)\b"),
    # Hungarian: an emphatic “Te” before a second-person verb is right (“Te kapod”, “Te lépsz”, “Te vagy”)
    "hu": re.compile(r"\bTe (?!és\b|vagy\b)[a-záéíóöőúüű]*[a-záéíóöőúüű](?<!sz)(?<!d)(?<!l)\b"
                     r"|\b[Aa] győztes Te\b|\bTe játékos|\bTe \(te\)|\bTe\W+nyert\b"
                     rf"|\b[Tt]e(?:, {_HU_NAME})* és {_HU_NAME}(?::| mindketten| mind)? (?:[^\s.;:,]+ ){{0,3}}?"
                     r"(?:\w*(?:nak|nek|tak|ták|ték|ük|uk)|játékosnak)\b"),
    "es": re.compile(r"\bTú (?!y\b)[a-záéíóúñ]+|\b(?:[Aa]|de|para|por|como) Tú\b|\bTú \(tú\)|\bTú\W+¡?gana\b"
                     rf"|\b[Tt]ú(?:, {_ES_NAME})* y {_ES_NAME} (?:\w+ )?[a-záéíóúñ]+(?:an|en|aron|ieron)\b"
                     rf"|\b{_ES_NAME}(?:, {_ES_NAME})* y [Tt]ú (?:\w+ )?[a-záéíóúñ]+(?:an|en|aron|ieron)\b"
                     rf"|\b[Aa] {_ES_NAME} y a? ?[Tt]ú\b"),
}
LANGUAGES = ("en", "fi", "hu", "es")


@pytest.fixture
def language(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def seen(app, found: set[str]) -> None:
    for text in widget_texts(app.widget):
        found.add(" ".join(html.unescape(text).split()))
    found |= screen_texts(app)  # the figures too: the race map names the winner
    found.add(app.message_text)


def third_person(found: set[str], lang: str) -> list[str]:
    return sorted(t for t in found if THIRD_PERSON[lang].search(t))


@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
def test_kk_play_speaks_to_the_default_learner(language):
    from railkit.ui.capecairo.play import KkPlayApp

    app = KkPlayApp(seed=3, players=3)
    assert app.you == default_learner()
    rng, found = random.Random(1), set()
    for _ in range(400):
        if app.game.is_over:
            break
        play_one_move(app, rng)
        seen(app, found)
    assert app.game.is_over
    assert not third_person(found, language), third_person(found, language)[:10]


@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
def test_kk_auction_speaks_to_the_default_learner(language):
    from railkit.ui.capecairo.auction import KkAuctionApp

    app = KkAuctionApp(seed=3, players=3)
    rng, found = random.Random(1), set()
    for _ in range(200):
        game = app.game
        if game.is_over:
            break
        if game.phase == "bid":
            app.auction.bid_field.value = str(rng.randint(0, min(12, game.state.money[app.you])))
            app.on_bid()
        elif game.phase == "choose":
            app.on_choose(rng.choice(game.state.offer))
        else:
            app.on_next_auction()
        seen(app, found)
    app.auction.bid_field.value = "150"  # more than the learner has: the refusal speaks to them (KK-C5)
    app.on_bid()
    seen(app, found)
    found.add(app.load_save(app.save_file().text))  # “Loaded: …” names no default learner (“pelaat pelaajana Sinä”)
    assert not third_person(found, language), third_person(found, language)[:10]


# The map's labels are placed anew after every move (most of a game's time, and no sentence about a player):
# this test leaves the map undrawn and plays through the first two payouts, which show every kind of move,
# draw and payout step.
@pytest.mark.parametrize("language", LANGUAGES, indirect=True)
def test_up_play_speaks_to_the_default_learner(language, monkeypatch):
    from railkit.ui.unionpacific.play import PlayApp
    from railkit.ui.unionpacific.play.build import BuildPanel

    monkeypatch.setattr(BuildPanel, "draw_map", lambda self, screen: None)
    app = PlayApp(seed=3, players=3, game_number=2)
    found: set[str] = set()
    for moves in range(1, 400):
        if app.game.is_over or len(app.game.state.payouts) >= 2:
            break
        act(app, first_legal(app))
        if moves % 4 == 0 or app.game.state.payouts:
            seen(app, found)
    seen(app, found)
    assert app.game.state.payouts
    assert not third_person(found, language), third_person(found, language)[:10]


def test_a_sentence_about_the_learner_is_its_own_message_and_others_keep_their_name():
    third = addressed("{player} tests a sentence (KK-X1).", "You test a sentence (KK-X1).")
    try:
        about_you = Message(third, {"player": "Kim"})
        assert about_you.render(you="Kim") == "You test a sentence (KK-X1)."
        assert about_you.render(you="Ann") == "Kim tests a sentence (KK-X1)." == str(about_you)
        nested = Message("{first}; {rest}", {"first": about_you, "rest": "then Ann"})
        assert nested.render(you="Kim") == "You test a sentence (KK-X1).; then Ann"
    finally:
        del _you_forms[third]


@pytest.mark.parametrize("lang", ("fi", "hu", "es"))
def test_every_second_person_form_replaces_a_message_the_engines_make_and_is_translated(lang):
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "railkit.po").open("rb") as f:
        catalog = read_po(f)
    for third, form in _you_forms.items():
        assert catalog.get(third) is not None, f"no engine message {third!r}"
        you = catalog.get(form.msgid)
        assert you is not None and you.string and all(you.string if isinstance(you.string, tuple) else [you.string])
        assert default_learner() not in str(you.string)


@pytest.mark.parametrize("language", ("fi", "hu", "es"), indirect=True)
def test_the_index_page_and_the_setup_legend_name_the_default_learner_in_the_language(language):
    from railkit.ui.index import IndexApp
    from railkit.ui.unionpacific.setup import SetupApp

    texts = widget_texts(IndexApp().widget) + widget_texts(SetupApp(seed=3).widget)
    says_default = [t for t in texts if re.search(r"[“”„«]You[”»]", t)]
    assert not says_default
    assert any(default_learner() in t for t in texts if "”" in t or "»" in t)


@pytest.mark.parametrize("language, expected", [
    ("en", "it is Ann's turn, not yours; wait for your turn"), ("fi", "vuorossa on Ann, et sinä; odota vuoroasi"),
    ("hu", "most Ann következik, nem te; várd ki a köröd"), ("es", "es el turno de Ann, no el tuyo; espera tu turno"),
], indirect=["language"])
def test_a_move_out_of_turn_tells_the_learner_it_is_not_their_turn(language, expected):
    from railkit.game import N_  # the engine declares the learner's form where it makes the refusal

    refusal = Message(N_("it is {current}'s turn, not {player}'s; wait for your turn"), {"current": "Ann", "player": "Kim"})
    assert i18n.render(refusal, you="Kim") == expected
    assert "Kim" in i18n.render(refusal, you="Ben")  # about another player: the name stays
