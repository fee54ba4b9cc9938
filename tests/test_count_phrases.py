"""Counts in their role of a sentence, for every count (issue 35): the noun after a number takes the case and
agreement its sentence needs, by each language's rule, as Hungarian's article is chosen by rule.

* Finnish: the object of a verb in a statement is “1 punnan” (genitive) and “7 puntaa” (partitive after any other
  number); a price “10 punnalla” (adessive).
* Hungarian: an object is accusative after every number, the noun singular: “1 fontot”, “7 fontot”; a price
  “10 fontért”.
* Spanish: the noun and what agrees with it follow the number: “1 pieza de vía comprada”, “3 piezas … compradas”.

The phrases are ``railkit.capecairo.phrases`` and ``railkit.unionpacific.phrases`` in their message contexts
(``npmessage``); the catalogs give each language's forms and gettext's plural rule picks one for the number.
"""

from __future__ import annotations

import re

import pytest

from railkit.capecairo.phrases import bonus_tracks, pounds, terrains, track_pieces
from railkit.messages import Message, nmessage
from railkit.ui import i18n
from railkit.unionpacific.phrases import shares_message

COUNTS = range(0, 13)


@pytest.fixture(autouse=True)
def english_again():
    yield
    i18n.set_language("en")


def said(lang: str, message: object) -> str:
    i18n.set_language(lang)
    return i18n.render(message)  # type: ignore[arg-type]


@pytest.mark.parametrize("phrase", [pounds, track_pieces, bonus_tracks, terrains])
def test_an_object_after_a_number_takes_its_case_in_finnish_and_hungarian_for_every_count(phrase):
    for n in COUNTS:
        fi, hu = said("fi", phrase(n, "object")), said("hu", phrase(n, "object"))
        noun = fi.split(" ", 1)[1]
        assert fi.startswith(f"{n} ") and (noun.endswith("n") if n == 1 else re.search(r"[aä]$", noun)), (n, fi)
        assert hu.startswith(f"{n} ") and hu.endswith("t"), (n, hu)
        assert said("hu", phrase(n)) != hu  # the plain phrase is the nominative: "7 font", Finnish "1 punta"
        assert (said("fi", phrase(n)) != fi) == (n == 1)
    assert (said("fi", pounds(1, "object")), said("fi", pounds(4, "object"))) == ("1 punnan", "4 puntaa")
    assert (said("hu", pounds(4, "object")), said("hu", track_pieces(3, "object"))) == ("4 fontot", "3 sínelemet")


def test_a_price_takes_its_case_and_the_plain_count_stays_nominative():
    assert said("fi", pounds(10, "price")) == "10 punnalla"
    assert said("hu", pounds(10, "price")) == "10 fontért"
    assert said("es", pounds(10, "price")) == "10 libras"
    assert (said("fi", pounds(1)), said("hu", pounds(7)), said("es", pounds(1))) == ("1 punta", "7 font", "1 libra")


def test_spanish_agrees_with_the_number_of_pieces_bought():
    for n in COUNTS:
        if n == 0:
            continue
        bought = nmessage("{n} track piece bought for {cost}", "{n} track pieces bought for {cost}", n,
                          {"cost": pounds(10 * n, "price")})
        text = said("es", bought)
        assert text.startswith(f"{n} pieza de vía comprada por" if n == 1 else f"{n} piezas de vía compradas por"), text


def test_shares_as_an_object_in_every_language():
    shares = shares_message([(1, "Denver Midland"), (2, "Union Pacific")], "object")
    assert said("fi", shares) == "1 Denver Midland -osakkeen ja 2 Union Pacific -osaketta"
    assert said("hu", shares) == "1 Denver Midland-részvényt és 2 Union Pacific-részvényt"
    assert said("es", shares) == "1 acción de Denver Midland y 2 acciones de Union Pacific"


def test_the_receiving_sentence_of_a_crossing_reads_right_with_one_pound():
    crossing = Message("{player} crosses {card} with {flipped} from turned-up cards, {own} from their own terrain "
                       "cards, {bonus} and {bought}; {player} receives {coin} (KK-B2, KK-B4).",
                       {"player": "Ben", "card": "R05", "flipped": track_pieces(1, "object"), "own": 0,
                        "bonus": bonus_tracks(1, "object"), "bought": Message("none bought"),
                        "coin": pounds(1, "object")})
    assert said("fi", crossing).endswith("Ben saa 1 punnan (KK-B2, KK-B4).")
    assert "käyttää 1 radanpätkän" in said("fi", crossing) and "1 bonusradan" in said("fi", crossing)
    assert said("hu", crossing).endswith("Ben 1 fontot kap (KK-B2, KK-B4).")
    assert "felhasznál 1 sínelemet" in said("hu", crossing) and "az R05 lapon" in said("hu", crossing)
