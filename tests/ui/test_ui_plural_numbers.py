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
    fields = {"section": "Denver–Pueblo", "track": "x", "spaces": 1}
    assert one in trn(*ids, 1, **fields)
    assert two in trn(*ids, 2, **{**fields, "spaces": 2})


def test_the_map_hover_text_of_a_one_space_section_says_space():
    from railkit.ui.unionpacific.board_map import building_map
    from railkit.unionpacific.board import load_board

    board = load_board()
    texts = " ".join(str(t.hovertext) + str(t.text) for t in building_map(board, {}).data)
    assert any(s.spaces == 1 for s in board.sections.values())  # the built-in board has one-space sections
    assert "1 spaces" not in texts and "1 space)" in texts
