"""The lessons' markdown in Finnish, Hungarian and Spanish, generated from the English
notebooks so a translation cannot drift silently.

* ``extract``: every paragraph (blank-line separated block) of every markdown cell of ``notebooks/*.ipynb``
  becomes a message of ``railkit/locale/<lang>/LC_MESSAGES/notebooks.po``; a new paragraph starts empty,
  a removed one is dropped (translate the empty ones, as in railkit.po; terms: docs/glossary.md).
* ``write``: ``notebooks/<lang>/<lesson>.ipynb`` for every lesson: markdown translated paragraph by
  paragraph, code cells identical but for a first line that sets the lesson's language (``?lang=`` in the
  page address still wins), the same cell ids with the language in front. The cell tagged ``languages``
  (the English index's links to the other languages) becomes links back to all four.
* ``check``: exit 1 when a paragraph has no translation or a generated notebook differs from what ``write``
  would write (tests/notebooks/test_nb_i18n.py runs the same check).

``make notebooks-i18n`` runs extract then write.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LOCALE = ROOT / "railkit" / "locale"
LANGUAGES = ("fi", "hu", "es")
LANGUAGE_LINKS = ("[English](../index.ipynb) · [suomi](../fi/index.ipynb) · [magyar](../hu/index.ipynb) · "
                  "[español](../es/index.ipynb)")
SET_LANGUAGE = 'from railkit.ui.language import switch_language; switch_language("{lang}")\n'


def lessons() -> list[Path]:
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def paragraphs(text: str) -> list[str]:
    return [p for p in re.split(r"\n[ \t]*\n", text.strip("\n")) if p.strip()]


def source(cell: dict[str, Any]) -> str:
    src = cell["source"]
    return "".join(src) if isinstance(src, list) else str(src)


def is_language_links(cell: dict[str, Any]) -> bool:
    return "languages" in cell.get("metadata", {}).get("tags", [])


def english_paragraphs() -> list[tuple[str, str]]:
    """(paragraph, notebook name) in notebook order, each paragraph once."""
    seen: dict[str, str] = {}
    for path in lessons():
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown" and not is_language_links(cell):
                for p in paragraphs(source(cell)):
                    seen.setdefault(p, path.name)
    return list(seen.items())


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "notebooks.po"


def read_catalog(lang: str) -> dict[str, str]:
    path = po_path(lang)
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        return {m.id: str(m.string) for m in read_po(f) if m.id and isinstance(m.id, str) and m.string}


def extract() -> None:
    found = english_paragraphs()
    for lang in LANGUAGES:
        old = read_catalog(lang)
        catalog = Catalog(locale=lang, project="railkit notebooks", fuzzy=False)
        if po_path(lang).is_file():  # the header's date stays, so an unchanged catalog stays unchanged
            with po_path(lang).open("rb") as f:
                catalog.creation_date = read_po(f).creation_date
        for text, where in found:
            catalog.add(text, old.get(text, ""), locations=[(f"notebooks/{where}", 0)])
        po_path(lang).parent.mkdir(parents=True, exist_ok=True)
        with po_path(lang).open("wb") as f:
            write_po(f, catalog, width=100, omit_header=False, no_location=False, include_previous=False)


def to_lines(text: str) -> list[str]:
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def translated(path: Path, lang: str, catalog: dict[str, str]) -> tuple[dict[str, Any], list[str]]:
    """The notebook ``path`` in ``lang`` and the paragraphs that have no translation."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = copy.deepcopy(nb)
    missing: list[str] = []
    first_code = True
    for cell in out["cells"]:
        if cell.get("id"):
            cell["id"] = f"{lang}-{cell['id']}"
        if cell["cell_type"] == "markdown":
            if is_language_links(cell):
                cell["source"] = to_lines(LANGUAGE_LINKS)
                continue
            parts = []
            for p in paragraphs(source(cell)):
                if not catalog.get(p):
                    missing.append(p)
                parts.append(catalog.get(p) or p)
            cell["source"] = to_lines("\n\n".join(parts))
        elif cell["cell_type"] == "code" and first_code:
            cell["source"] = to_lines(SET_LANGUAGE.format(lang=lang) + source(cell))
            first_code = False
    out.setdefault("metadata", {})["language_info"] = nb.get("metadata", {}).get("language_info", {"name": "python"})
    return out, missing


def rendered(nb: dict[str, Any]) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def targets() -> dict[Path, tuple[str, list[str]]]:
    """Every generated notebook's path with its text and the paragraphs missing a translation."""
    out: dict[Path, tuple[str, list[str]]] = {}
    for lang in LANGUAGES:
        catalog = read_catalog(lang)
        for path in lessons():
            nb, missing = translated(path, lang, catalog)
            out[NOTEBOOKS / lang / path.name] = (rendered(nb), missing)
    return out


def write() -> None:
    for path, (text, _missing) in targets().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def problems() -> list[str]:
    found = []
    english = {p for p, _ in english_paragraphs()}
    for lang in LANGUAGES:
        stale = set(read_catalog(lang)) - english
        if stale:
            found.append(f"{po_path(lang).relative_to(ROOT)}: {len(stale)} paragraphs no notebook has (make notebooks-i18n)")
    for path, (text, missing) in targets().items():
        rel = path.relative_to(ROOT)
        for p in missing:
            found.append(f"{rel}: no translation for {p[:60]!r}…")
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            found.append(f"{rel} differs from what tools/notebooks_i18n.py writes (make notebooks-i18n)")
        folder = path.parent
        stray = sorted(set(folder.glob("*.ipynb")) - {folder / p.name for p in lessons()})
        found += [f"{s.relative_to(ROOT)} has no English notebook" for s in stray]
    return sorted(set(found))


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "extract":
        extract()
    elif command == "write":
        write()
    elif command == "check":
        found = problems()
        print("\n".join(found) or "notebooks: every translation is there and every generated notebook is current")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
