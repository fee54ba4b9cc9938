"""railkit's Voila template ("railkit"): Voila's lab template without CDN links.

Voila finds templates only under ``<jupyter data dir>/voila/templates/<name>``, Jupyter kernels under
``<jupyter data dir>/kernels/<name>``. Both are wheel data (pyproject.toml ``[tool.setuptools.data-files]``):
installing railkit's wheel puts the template folder ``railkit/`` and the lesson kernel's spec
``railkit-lesson/kernel.json`` (``lesson_kernel``: ipykernel without its debugger) under
``<sys.prefix>/share/jupyter``. ``notebooks/voila.json`` selects the template with ``"template": "railkit"``.

An editable install (``make venv``, Binder's ``postBuild``) installs no data files: setuptools 80 skips them
(setuptools#3399; its ``editable_wheel`` asks the distribution for ``has_data``, which does not exist). So
those, and an environment whose Jupyter data folder is not where pip put railkit's data (the class hub's
user environment), run the fallback, which copies both from the package unless they are there already::

    python -m railkit.ui.voila_template                           # under this Python's sys.prefix
    python -m railkit.ui.voila_template --prefix /opt/tljh/user   # under PREFIX/share/jupyter
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import sys
from pathlib import Path

NAME = "railkit"
SOURCE = Path(__file__).resolve().parent / NAME


def target_dir(prefix: str | Path = sys.prefix) -> Path:
    return Path(prefix) / "share" / "jupyter" / "voila" / "templates" / NAME


def kernel_dir(prefix: str | Path = sys.prefix) -> Path:
    from railkit.ui.voila_template.lesson_kernel import KERNEL_NAME

    return Path(prefix) / "share" / "jupyter" / "kernels" / KERNEL_NAME


def _copy(source: Path, target: Path) -> bool:
    """Make ``target`` a copy of folder ``source``; False when it already was one."""
    if target.is_dir() and not target.is_symlink():
        compared = filecmp.dircmp(source, target)
        if not (compared.left_only or compared.diff_files or compared.funny_files):
            return False
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif target.is_dir():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source, target)
    return True


def install_kernel(prefix: str | Path = sys.prefix) -> Path:
    """Copy the ``railkit-lesson`` kernel spec under ``prefix``; returns its folder."""
    from railkit.ui.voila_template.lesson_kernel import SPEC_FILE

    folder = kernel_dir(prefix)
    _copy(SPEC_FILE.parent, folder)
    return folder


def install(prefix: str | Path = sys.prefix) -> Path:
    """Copy the template (and the lesson kernel spec) under ``prefix`` unless they are there already;
    returns where the template is."""
    install_kernel(prefix)
    target = target_dir(prefix)
    _copy(SOURCE, target)
    return target


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copy", action="store_true", help="(kept for old scripts: the files are always copied)")
    parser.add_argument("--prefix", default=sys.prefix, help="environment prefix (default: this Python's)")
    args = parser.parse_args(argv)
    print(f"railkit Voila template installed at {install(args.prefix)}")


if __name__ == "__main__":
    main()
