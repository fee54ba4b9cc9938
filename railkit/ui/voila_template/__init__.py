"""railkit's Voila template ("railkit"): Voila's lab template without CDN links.

Voila finds templates only under ``<jupyter data dir>/voila/templates/<name>``, and an editable
install does not copy data files, so ``make venv`` and Binder's ``postBuild`` run::

    python -m railkit.ui.voila_template            # symlink into sys.prefix (edits apply at once)
    python -m railkit.ui.voila_template --copy     # copy instead (Binder)

``notebooks/voila.json`` selects it with ``"template": "railkit"``. The same command writes the kernel spec
``railkit-lesson`` (``lesson_kernel``: ipykernel without its debugger) that railkit's Voila starts.
"""

from __future__ import annotations

import argparse
import json
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


def install_kernel(prefix: str | Path = sys.prefix) -> Path:
    """Write the ``railkit-lesson`` kernel spec (``lesson_kernel``) under ``prefix``; returns its folder."""
    from railkit.ui.voila_template.lesson_kernel import spec

    folder = kernel_dir(prefix)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "kernel.json").write_text(json.dumps(spec(), indent=1) + "\n", encoding="utf-8")
    return folder


def install(prefix: str | Path = sys.prefix, copy: bool = False) -> Path:
    """Make the template (and the lesson kernel spec) visible to Voila under ``prefix``; returns where
    the template went."""
    install_kernel(prefix)
    target = target_dir(prefix)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif target.is_dir():
        shutil.rmtree(target)
    if copy:
        shutil.copytree(SOURCE, target)
    else:
        target.symlink_to(SOURCE, target_is_directory=True)
    return target


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copy", action="store_true", help="copy instead of symlinking")
    parser.add_argument("--prefix", default=sys.prefix, help="environment prefix (default: this Python's)")
    args = parser.parse_args(argv)
    print(f"railkit Voila template installed at {install(args.prefix, args.copy)}")


if __name__ == "__main__":
    main()
