"""The books' words and no workaround grammar in the translated catalogs (issue 22, docs/glossary.md, the
style guides docs/style.{fi,hu,es}.md): a relapse in any message, the class tables' and teacher's room's
included, fails here naming the message."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from railkit.locale import LOCALE_DIR

# language -> (pattern, why) that no translation may contain
BANNED: dict[str, list[tuple[str, str]]] = {
    "hu": [(r"\b[Aa]\(z\)", "“a(z)”: write “a” before the placeholder, the catalog picks a/az (railkit.locale.hungarian)"),
           (r"\b(?:ezt|ilyet|ezekkel):", "“ezt:”/“ilyet:”: build the sentence so the word takes its place"),
           (r"készlet", "the book's supply is the “doboz” (glossary)"),
           (r"hegység", "the book's mountains are “hegyvidék”, one word (glossary)")],
    "es": [(r"compañía", "the book's company is the “empresa” (glossary)"),
           (r"mazo de acciones", "the book's share deck is the “pila de acciones” (glossary)")],
    "fi": [(r"[Tt]urvakierro", "the book's safe round is “Turvallinen kierros” (glossary)"),
           (r"\b[Kk]ylä(?:n|ä|ssä|stä|lle|)\b", "the terrain is always the plural “kylät” (glossary)")],
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
