"""A number in a sentence takes the noun's plural form of the language (``trn``/``ngettext``): the map's hover
text says “1 space” / “1 ruutu” / “1 espacio”, the legal sections “1 legal section”, in every language."""

from __future__ import annotations

import pytest

from railkit.ui import i18n
from railkit.ui.i18n import trn

# (singular, plural) msgid, then each language's text for 1 and for 2 (a word that must be in it)
CASES = [
    (("{section} ({track}, {spaces} space)", "{section} ({track}, {spaces} spaces)"),
     {"en": ("1 space)", "2 spaces)"), "fi": ("1 ruutu)", "2 ruutua)"), "hu": ("1 mező)", "2 mező)"),
      "es": ("1 espacio)", "2 espacios)")}),
    ((" — {n} legal section", " — {n} legal sections"),
     {"en": ("1 legal section", "2 legal sections"), "fi": ("1 sallittu yhteys", "2 sallittua yhteyttä"),
      "hu": ("1 szabályos szakasz", "2 szabályos szakasz"), "es": ("1 sección válida", "2 secciones válidas")}),
    (("{n} piece", "{n} pieces"),
     {"en": ("1 piece", "2 pieces"), "fi": ("1 pätkä", "2 pätkää"), "hu": ("1 elem", "2 elem"),
      "es": ("1 pieza", "2 piezas")}),
    (("Deck: {n} card, discard pile: {discard}.", "Deck: {n} cards, discard pile: {discard}."),
     {"en": ("Deck: 1 card,", "Deck: 2 cards,"), "fi": ("Pakka: 1 kortti,", "Pakka: 2 korttia,"),
      "hu": ("Pakli: 1 kártya,", "Pakli: 2 kártya,"), "es": ("Mazo: 1 carta;", "Mazo: 2 cartas;")}),
    (("you and {n} computer player", "you and {n} computer players"),
     {"en": ("you and 1 computer player", "you and 2 computer players"),
      "fi": ("sinä ja 1 tietokonepelaaja", "sinä ja 2 tietokonepelaajaa"),
      "hu": ("te és 1 gépi játékos", "te és 2 gépi játékos"),
      "es": ("tú y 1 jugador del ordenador", "tú y 2 jugadores del ordenador")}),
    (("Loaded: {n} move replayed. {next}", "Loaded: {n} moves replayed. {next}"),
     {"en": ("1 move replayed", "2 moves replayed"), "fi": ("1 siirto pelattu", "2 siirtoa pelattu"),
      "hu": ("1 lépés újrajátszva", "2 lépés újrajátszva"),
      "es": ("se ha vuelto a jugar 1 jugada", "se han vuelto a jugar 2 jugadas")}),
]


@pytest.fixture
def language(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


@pytest.mark.parametrize("language", ("en", "fi", "hu", "es"), indirect=True)
@pytest.mark.parametrize(("ids", "expected"), CASES)
def test_a_number_takes_the_plural_form_of_the_language(language, ids, expected):
    one, two = expected[language]
    fields = {"section": "Denver–Pueblo", "track": "x", "spaces": 1, "discard": 0, "next": ""}
    assert one in trn(*ids, 1, **fields)
    assert two in trn(*ids, 2, **{**fields, "spaces": 2})


def test_spanish_counts_a_million_with_its_own_form():
    i18n.set_language("es")
    try:
        assert trn("you and {n} computer player", "you and {n} computer players", 1_000_000).endswith("jugadores del ordenador")
    finally:
        i18n.set_language("en")


def test_the_map_hover_text_of_a_one_space_section_says_space():
    from railkit.ui.unionpacific.board_map import building_map
    from railkit.unionpacific.board import load_board

    board = load_board()
    texts = " ".join(str(t.hovertext) + str(t.text) for t in building_map(board, {}).data)
    assert any(s.spaces == 1 for s in board.sections.values())  # the built-in board has one-space sections
    assert "1 spaces" not in texts and "1 space)" in texts
