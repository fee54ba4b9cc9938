"""railkit's message catalogs: ``<lang>/LC_MESSAGES/railkit.po`` (the source, kept in git) and the
template ``railkit.pot`` (written by ``make messages``).

The ``.mo`` files gettext reads are not kept in git: the wheel build compiles them (``setup.py``),
``make catalogs`` compiles them in a checkout, and ``railkit.ui.i18n`` compiles a ``.po`` in memory
when its ``.mo`` is missing or older (an editable install from a fresh clone needs no build step).
``mofile`` does the compiling with the standard library only, so neither the build nor the apps need
Babel; Babel is the developers' tool for extracting and updating the catalogs.
"""

from pathlib import Path

DOMAIN = "railkit"
LOCALE_DIR = Path(__file__).resolve().parent
