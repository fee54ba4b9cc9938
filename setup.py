"""The one build step pyproject.toml cannot declare: compile the gettext catalogs into the wheel.

``build_py`` copies ``railkit/locale/<lang>/LC_MESSAGES/railkit.po`` as package data; this subclass
then writes each ``.mo`` beside it in the build folder. The compiler is railkit's standard-library
``railkit/locale/mofile.py``, loaded by path: the build needs neither Babel nor railkit's dependencies.
"""

import importlib.util
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _mofile():
    spec = importlib.util.spec_from_file_location("_railkit_mofile", HERE / "railkit" / "locale" / "mofile.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class BuildPyWithCatalogs(build_py):
    def run(self):
        super().run()
        if not self.dry_run:
            _mofile().compile_catalogs(HERE / "railkit" / "locale", Path(self.build_lib) / "railkit" / "locale")


setup(cmdclass={"build_py": BuildPyWithCatalogs})
