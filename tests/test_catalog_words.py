"""The books' words and no workaround grammar in the translated catalogs (issues 22 and 35, docs/glossary.md, the
style guides docs/style.{fi,hu,es}.md): a relapse in any message, the class tables', the teacher's room's, My
progress' and the lessons' prose (notebooks.po) included, fails here naming the message."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from railkit.locale import LOCALE_DIR

# language -> (pattern, why) that no translation may contain
BANNED: dict[str, list[tuple[str, str]]] = {
    "hu": [(r"\b[Aa]\(z\)", "“a(z)”: write “a” before the placeholder, the catalog picks a/az (railkit.locale.hungarian)"),
           (r"\b(?:ezt|ilyet|ezekkel):", "“ezt:”/“ilyet:”: build the sentence so the word takes its place"),
           (r"\b(?:ide|ezen|ehhez is|ezzel a lappal):\s*\{|a következők ellen",
            "“ide: {section}”: a noun after the placeholder takes the case (“a {section} szakaszra”)"),
           (r"készlet", "the book's supply is the “doboz” (glossary)"),
           (r"hegység", "the book's mountains are “hegyvidék”, one word (glossary)"),
           (r"[Kk]éppel (?:le|fel)", "the book's face down/up is “arccal lefelé/felfelé” (hu:5, hu:9)"),
           (r"UP-kupac|húzópakli|dobópakli", "the book's words: Union Pacific pakli, sínkártyapakli, dobott lapok (glossary)"),
           (r"kirakat", "the display is “a felfordított részvények” (glossary)"),
           (r"\bNézés\b", "a button that opens a table to watch is “Megtekintés”"),
           (r"“", "Hungarian quote marks are „…”")],
    "es": [(r"compañía", "the book's company is the “empresa” (glossary)"),
           (r"mazo de acciones|mazo estándar|mazo finlandés|exposición", "Union Pacific's share deck is the “pila de "
            "acciones” and the display the “acciones a la vista”; the “mazo” is Kap bis Kairo's terrain deck (glossary)"),
           (r"montón de descartes|espacio neutral\b", "the glossary's “pila de descartes” and “espacio neutro”"),
           (r"puja sellada|pujas selladas", "a sealed bid is a “puja secreta” (glossary)"),
           (r"sala del profesor|Actualizar solo\b", "the teacher's room is “la sala de profesores”; “Actualizar "
            "automáticamente”"),
           (r"[“”]", "Spanish quote marks are «…»")],
    "fi": [(r"[Tt]urvakierro", "the book's safe round is “Turvallinen kierros” (glossary)"),
           (r"\b[Kk]ylä(?:n|ä|ssä|stä|lle|)\b", "the terrain is always the plural “kylät” (glossary)"),
           (r"\b[Ss]ijoit", "the book's invest is “investoida” (fi:83; glossary)"),
           (r"\b[Vv]arasto", "the book's supply is the “laatikko” (fi:29; glossary)"),
           (r"[Nn]ostopak", "the track cards' draw pile is the “ratakorttipakka” (glossary)"),
           (r"\b[Uu]usinta\b|Päivitä itsestään", "a replay is a “toisto” (“uusinta” is a rematch); “Päivitä "
            "automaattisesti”"),
           (r"\{(?:card|kind|kept|track|rich|poor)\}-", "a track type is the first part of a compound, without a hyphen "
            "(“{card}ratakortti”: tasankoratakortti; railkit.unionpacific.phrases)"),
           (r"“", "Finnish quote marks are ”…”")],
}


def strings(language: str, domain: str) -> list[tuple[str, str]]:
    with open(LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
        catalog = read_po(f)
    found = []
    for m in catalog:
        if m.id:
            texts = m.string if isinstance(m.string, tuple) else (m.string,)
            found += [(m.id if isinstance(m.id, str) else m.id[0], t) for t in texts if t]
    return found


@pytest.mark.parametrize("domain", ["railkit", "notebooks"])
@pytest.mark.parametrize("language", sorted(BANNED))
def test_the_books_words_and_no_workaround_grammar(language, domain):
    bad = [f"{why}: {msgid[:60]!r} -> {text!r}" for msgid, text in strings(language, domain)
           for pattern, why in BANNED[language] if re.search(pattern, text)]
    assert not bad, "\n".join(bad)
