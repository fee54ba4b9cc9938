"""Write ``numbers.json``: how each catalog language writes numbers, from Babel's CLDR data.

Run by ``make messages`` (Babel is a developer's tool). ``railkit.ui.i18n.format_number`` reads the
table, so the apps (and the static site) need no Babel at run time; tests/ui/test_i18n_catalogs.py
checks the table still agrees with ``babel.numbers.format_decimal``.
"""

import json
from pathlib import Path

from babel.numbers import format_decimal

HERE = Path(__file__).resolve().parent
LANGUAGES = ("en", "fi", "hu", "es")


def symbols(language: str) -> dict[str, str]:
    return {"decimal": format_decimal(1.5, locale=language)[1],
            "group": format_decimal(1000, locale=language)[1],
            "minus": format_decimal(-1, locale=language)[0]}


if __name__ == "__main__":
    table = {language: symbols(language) for language in LANGUAGES}
    (HERE / "numbers.json").write_text(json.dumps(table, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
