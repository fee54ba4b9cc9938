"""railkit.messages: engine sentences as msgid + parameters, English when read as a str.

The pattern's first family is the dividend payout explanation (UP-D2..UP-D11,
railkit.unionpacific.payouts): every step is a Message whose str is the old English sentence.
"""

import copy
import gettext
import pickle

import pytest
from babel.messages.catalog import Catalog
from babel_catalogs import compiled, translations

from railkit.locale import LOCALE_DIR
from railkit.messages import Fixed, Message, names_message, nmessage
from railkit.unionpacific.payouts import explain_company_payout, explain_union_pacific_payout
from railkit.unionpacific.state import IMAGINARY


def catalog(*entries: tuple[str | tuple[str, str], str | tuple[str, str]]) -> gettext.GNUTranslations:
    """(msgid, msgstr) pairs (tuples for plural forms) compiled as the build compiles a catalog (Babel)."""
    messages = Catalog(locale="fi")
    for msgid, msgstr in entries:
        messages.add(msgid, msgstr)
    return translations(messages)


def test_a_message_is_its_english_sentence_and_keeps_its_parts():
    m = Message("{player} receives {amount}", {"player": "Ann", "amount": 5})
    assert m == "Ann receives 5" and isinstance(m, str) and str(m) == "Ann receives 5"
    assert m.msgid == "{player} receives {amount}" and dict(m.params) == {"player": "Ann", "amount": 5}


def test_plural_messages_choose_the_english_form_by_n():
    one = nmessage("{players} holds none", "{players} hold none", 1, {"players": "Ann"})
    two = nmessage("{players} holds none", "{players} hold none", 2, {"players": names_message(["Ann", "Ben"])})
    assert (one, two) == ("Ann holds none", "Ann and Ben hold none")
    assert two.plural == "{players} hold none" and two.n == 2


def test_names_message_reads_like_railkit_words_names():
    assert names_message(["Ann"]) == "Ann"
    assert names_message(["Ann", "Ben", "Cy"]) == "Ann, Ben and Cy"
    assert names_message([]) == "nobody"


def test_render_translates_nested_messages_plurals_and_numbers():
    tr = catalog(("{names} and {last}", "{names} ja {last}"),
                 (("{players} holds none", "{players} hold none"), ("{players} ei omista", "{players} eivät omista")),
                 ("{total} ÷ {ways} = {exact}", "{total} ÷ {ways} = {exact}"))
    m = nmessage("{players} holds none", "{players} hold none", 2, {"players": names_message(["Ann", "Ben"])})
    assert m.render(tr) == "Ann ja Ben eivät omista"
    split = Message("{total} ÷ {ways} = {exact}", {"total": 7, "ways": 3, "exact": Fixed(7 / 3)})
    assert split == "7 ÷ 3 = 2.33"
    assert split.render(tr, number=lambda v, places=None: f"{v:.{places or 0}f}".replace(".", ",")) == "7 ÷ 3 = 2,33"


def test_a_broken_translation_renders_english():
    tr = catalog(("{player} wins", "{pelaaja} voittaa"))
    assert Message("{player} wins", {"player": "Ann"}).render(tr) == "Ann wins"


def test_messages_survive_copy_and_pickle_with_their_parts():
    m = nmessage("{players} holds none", "{players} hold none", 2, {"players": names_message(["Ann", "Ben"])})
    for again in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert again == m and again.msgid == m.msgid and again.n == 2
        assert again.params["players"].msgid == "{names} and {last}"


# -- the payout explanation family (UP-D2..UP-D11) ------------------------------------------
def test_up_d3_company_steps_are_messages_with_rule_and_amounts_as_parameters():
    e = explain_company_payout(7, {"Ann": 3, "Ben": 2, "Cy": 0}, company="Central Pacific")
    assert e.title.msgid == "{company}, value {value}" and dict(e.title.params) == {"company": "Central Pacific", "value": 7}
    first, held, none, primary, secondary, total = e.steps
    assert all(isinstance(s, Message) for s in e.steps)
    assert first.params["value"] == 7 and "(UP-D2)" in first.msgid
    assert held.params["holdings"] == "Ann 3, Ben 2"
    assert none.n == 1 and none.params["players"] == "Cy"
    assert primary.msgid.startswith("{player} holds the most") and primary.params["player"] == "Ann"
    assert dict(secondary.params) == {"player": "Ben", "count": 2, "value": 7, "half": 3}
    assert total.msgid == "Paid in total: {total}." and total.params["total"] == 10
    assert str(secondary) == ("Ben holds the second most (2): secondary shareholder, receives half the value "
                              "rounded down, 7 ÷ 2 = 3 (UP-D3).")


def test_up_d5_tie_split_keeps_the_exact_quotient_as_a_fixed_number():
    e = explain_company_payout(7, {"Ann": 3, "Ben": 3, "Cy": 3, "Dev": 1})
    split = e.steps[-3].params["split"]
    assert split.msgid == "{total} ÷ {ways} = {exact}, rounded down to {each} each"
    assert split.params["exact"] == Fixed(10 / 3) and split.params["each"] == 3
    assert e.steps[-3] == "Split equally between the 3 of them: 10 ÷ 3 = 3.33, rounded down to 3 each (UP-D5)."
    assert e.steps[-2].n == 1 and e.steps[-2] == "Dev holds fewer shares and gets nothing (UP-D5)."


def test_up_d11_union_pacific_tie_message_names_positions_and_the_pool():
    e = explain_union_pacific_payout(2, {"Ann": 4, "Ben": 2, "Cleo": 2, "Dev": 2})
    assert e.title.msgid == "Union Pacific, payout {number}" and e.title.params["number"] == 2
    tie = next(s for s in e.steps if "UP-D11" in s.msgid)
    assert tie.params["positions"].msgid == "positions {start}–{end}"
    assert (tie.params["count"], tie.params["sum"], tie.params["pool"]) == (2, "8 + 6 + 4", 18)
    assert tie.params["players"] == "Ben, Cleo and Dev"
    assert e.steps[-2].msgid == "Position {start} is unused and not paid (UP-D10)."
    assert e.amounts == {"Ann": 10, "Ben": 6, "Cleo": 6, "Dev": 6}


def test_large_numbers_keep_english_commas_and_take_the_languages_grouping():
    """"1,000,001 bytes" in English; the UI's number format elsewhere (fi: no-break space)."""
    import pytest

    from railkit.capecairo import CapeToCairoGame
    from railkit.errors import SaveFileError
    from railkit.messages import Grouped
    from railkit.ui import i18n

    with pytest.raises(SaveFileError) as caught:
        CapeToCairoGame.load(b"x" * 1_000_001)
    words = caught.value.args[0]
    assert str(words) == "the file is 1,000,001 bytes; a saved game is at most 1,000,000"
    assert words.params["size"] == Grouped(1_000_001)
    previous = i18n.get_language()
    try:
        i18n.set_language("fi")
        finnish = i18n.render(words)
    finally:
        i18n.set_language(previous)
    assert "1\u00a0000\u00a0001" in finnish and "1,000,001" not in finnish


# -- games nobody narrates (bots, random play: no words built) ----------------------------------------
def test_a_draft_made_inside_quiet_renders_as_the_message_made_outside():
    from railkit.messages import Draft, quiet

    def made():
        return Message("{player} takes {card}", {"player": "Ann", "card": nmessage("{n} card", "{n} cards", 2)})

    with quiet():
        draft = made()
    loud = made()
    assert isinstance(draft, Draft) and not isinstance(loud, Draft)
    again = draft.message()
    assert isinstance(again, Message) and again == loud == str(draft) == "Ann takes 2 cards"
    assert again.msgid == loud.msgid and again.params["card"].n == 2 and isinstance(again.params["card"], Message)
    assert pickle.loads(pickle.dumps(draft)) == loud


def test_a_game_nobody_narrates_plays_the_same_and_tells_the_same_when_read():
    from railkit.capecairo import new_game as kk_game
    from railkit.capecairo.bots import RandomBot as KKRandom
    from railkit.capecairo.bots import play_game as kk_play
    from railkit.unionpacific import new_game as up_game
    from railkit.unionpacific.bots import RandomBot as UPRandom
    from railkit.unionpacific.bots import play_game as up_play

    for seed in range(3):
        told, quiet = kk_game(4, seed=seed), kk_game(4, seed=seed)
        quiet.narrate = False
        kk_play(told, [KKRandom(seed + i) for i in range(4)])
        kk_play(quiet, [KKRandom(seed + i) for i in range(4)])
        assert quiet.log == told.log and quiet.state_dict() == told.state_dict()
        assert quiet.narrative == told.narrative
        assert all(type(a) is type(b) and a.msgid == b.msgid for a, b in zip(quiet.narrative, told.narrative, strict=True)
                   if isinstance(b, Message))
        told, quiet = up_game(4, seed=seed), up_game(4, seed=seed)
        quiet.narrate = False
        up_play(told, {p: UPRandom(seed) for p in told.players})
        up_play(quiet, {p: UPRandom(seed) for p in quiet.players})
        assert quiet.log == told.log and quiet.state_dict() == told.state_dict()
        assert quiet.narrative == told.narrative and str(quiet.result()) == str(told.result())
    game = kk_game(4, seed=0)
    game.narrate = False
    assert game.apply(game.legal_actions()[0]) == [] and len(game.narrative) > 1


@pytest.mark.parametrize(("language", "seat"), [("fi", "Kuvitteellinen kolmas pelaaja"), ("hu", "Virtuális játékos"),
                                                ("es", "Jugador imaginario")])
def test_up_2p2_the_imaginary_seat_is_translated_anywhere_in_a_list_of_names(language, seat):
    """UP-2P2: a two-player game's third seat is named by the engine (``seat_name``); a list of names
    (``names_message``) shows it in the page's language wherever it stands, not only last."""
    tr = compiled(LOCALE_DIR / language / "LC_MESSAGES" / "railkit.po")
    for names in (["Ann", IMAGINARY, "Ben"], [IMAGINARY, "Ann", "Ben"], ["Ann", "Ben", IMAGINARY], [IMAGINARY, "Ann"]):
        listed = names_message(names).render(tr)
        assert "Imaginary" not in listed and listed.count(seat) == 1, listed
        assert listed.index("Ann") < listed.index(seat) if names.index("Ann") < names.index(IMAGINARY) else True
    tied = nmessage("{players} holds none", "{players} hold none", 3, {"players": names_message(["Ann", IMAGINARY, "Ben"])})
    assert seat in tied.render(tr) and "Imaginary" not in tied.render(tr)


def test_names_message_keeps_every_name_a_parameter_of_its_own():
    listed = names_message(["Ann", "Ben", "Cy", "Di"])
    assert listed == "Ann, Ben, Cy and Di" and listed.params["last"] == "Di"
    assert listed.params["names"].msgid == "{names}, {name}" and listed.params["names"].params["name"] == "Cy"


def test_a_group_with_the_learner_in_it_is_addressed_in_the_second_person_plural_in_each_languages_order():
    """``addressed_group``: the learner among others reads "you" in the plural form of the group's message, the others
    as parameters (``{other}``, or ``{others}`` and ``{last}``), so Spanish can name the learner last. A group
    without the learner, or the learner alone, keeps the third person (or the learner's own ``addressed`` form)."""
    from railkit.messages import _group_forms, addressed_group, list_names

    third = addressed_group("{players} tie (UP-X1).", "You and {other} tie (UP-X1).",
                            "You, {others} and {last} tie (UP-X1).")
    try:
        spanish = catalog(("{names} and {last}", "{names} y {last}"), ("{names}, {name}", "{names}, {name}"),
                          (("You and {other} tie (UP-X1).", "You, {others} and {last} tie (UP-X1)."),
                           ("{other} y tú empatáis (UP-X1).", "{others}, {last} y tú empatáis (UP-X1).")))
        for names, english, es in (
                (["Ann", "Kim"], "You and Ann tie (UP-X1).", "Ann y tú empatáis (UP-X1)."),
                (["Ann", "Kim", "Ben"], "You, Ann and Ben tie (UP-X1).", "Ann, Ben y tú empatáis (UP-X1)."),
                (["Kim", "Ann", "Ben", "Cy"], "You, Ann, Ben and Cy tie (UP-X1).", "Ann, Ben, Cy y tú empatáis (UP-X1).")):
            tie = Message(third, {"players": names_message(names)})
            assert list_names(tie.params["players"]) == names
            assert tie.render(you="Kim") == english and tie.render(spanish, you="Kim") == es
            assert tie.render(you="Di") == str(tie)  # the learner not in the group: the third person
        assert Message(third, {"players": "Kim"}).render(you="Kim") == "Kim tie (UP-X1)."  # one: addressed()'s job
        assert list_names(Message("{n} share", {"n": 2})) is None
    finally:
        del _group_forms[third]
