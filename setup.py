"""The one build step pyproject.toml cannot declare: compile the gettext catalogs, with Babel.

``build_py`` copies ``railkit/locale/<lang>/LC_MESSAGES/railkit.po`` as package data; this subclass then
compiles them with Babel, as ``pybabel compile`` does: in the build folder for a wheel, and in the
checkout for an editable install (``pip install -e .``: ``make venv``, Binder), whose package is the
checkout itself. ``python setup.py catalogs`` (``make catalogs``) compiles a checkout's the same way. Babel is a build requirement (pyproject.toml
``[build-system]``); railkit needs no compiler at run time. The ``.mo`` files stay out of git
(``.gitignore``); ``make catalogs`` recompiles a checkout's after a ``.po`` changed.
"""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
DOMAIN = "railkit"


def compile_catalogs(locale_dir: Path) -> list[Path]:
    """Every language's ``railkit.po`` under ``locale_dir`` compiled to the ``.mo`` beside it, as ``pybabel
    compile`` does (Babel's ``read_po``, ``Catalog.check``, ``write_mo``: fuzzy and untranslated entries left
    out, so gettext shows the English text for them). A catalog error stops the build, except Babel's
    ``%``-format check on a ``{}``-format message, which reads “{floor}% or more” as a ``% o`` placeholder
    (railkit formats with ``str.format``; tests/ui/test_i18n_catalogs.py checks the ``{}`` placeholders)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    sources = sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    if not sources:
        raise SystemExit(f"setup.py: no {DOMAIN}.po catalogs under {locale_dir}")
    for po in sources:
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name)
        errors = [f"{po}:{message.lineno}: {error}" for message, found in catalog.check() for error in found
                  if "python-brace-format" not in message.flags]
        if errors:
            raise SystemExit("setup.py: the catalogs have errors:\n" + "\n".join(errors))
        mo = po.with_suffix(".mo")
        with mo.open("wb") as f:
            write_mo(f, catalog)
        written.append(mo)
    return written


class BuildPyWithCatalogs(build_py):
    def run(self):
        super().run()
        if self.dry_run:
            return
        if getattr(self, "editable_mode", False):
            compile_catalogs(HERE / "railkit" / "locale")  # the checkout is the installed package
        else:
            compile_catalogs(Path(self.build_lib) / "railkit" / "locale")


if __name__ == "__main__" and sys.argv[1:] == ["catalogs"]:  # `make catalogs`: the checkout's, the same way
    print("compiled", ", ".join(str(mo.relative_to(HERE)) for mo in compile_catalogs(HERE / "railkit" / "locale")))
else:
    setup(cmdclass={"build_py": BuildPyWithCatalogs})
