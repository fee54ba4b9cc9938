"""Voila's preheated kernel pools sized for a class: ``make run CLASS=30 LESSON=up_play``.

Voila keeps ``pool_size`` kernels per notebook started and the notebook already run in them, so a
learner who opens the page takes a ready kernel. ``notebooks/voila.json`` keeps one per lesson (a
teacher trying the apps alone); a class that opens one lesson at once needs as many as there are
learners, or the rest wait for fresh kernels (measured: docs/benchmarks.md, "A class on one server").

The pools are Voila's own option ``VoilaKernelManager.kernel_pools_config`` (a mapping from notebook
path to ``{"pool_size": n}``, ``"default"`` for the others), given on Voila's command line so that
voila.json stays as it is: ``python -m railkit.ui.voila_template.class_config 30 up_play`` prints
the arguments, which ``make run`` hands to Voila. With no lesson the class is spread over every
lesson; with no class size nothing is printed and voila.json's pools apply. (traitlets warns that a
whole dict on the command line is deprecated; its ``key=value`` form would hand Voila strings.)

A kernel used by a learner is replaced in the pool, so a class of N uses about 2N kernels' memory
while the class is on (``KERNEL_MB`` each, measured). The size is refused above ``MAX_CLASS``: past
that a class belongs on the JupyterHub recipe in deploy/ (README, "A class on one server").
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from railkit.errors import InputError
from railkit.lessons import LAB_NOTEBOOKS, LESSONS

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
KERNEL_MB = 70  # RSS of one up_play kernel with its page open: 68 MB (benchmarks/kernel.py --live; 134 MB before
# the lean lesson kernel, page_request and railkit.ui.plot)
MAX_CLASS = 60  # learners on one 2-core server; more belong on deploy/ (JupyterHub)
SMALL_POOL = 1  # the other lessons: one ready kernel each, as in voila.json
# Voila replaces a kernel taken from a pool after ``fill_delay`` seconds (default 1). For a class that
# arrives at once, 30 replacements starting at once took both cores while the learners' pages were
# loading (median 30 s instead of a few); a class gets its first minute to itself. A learner beyond the
# class size then waits up to this long for a kernel.
CLASS_FILL_DELAY_S = 60
PAGES = ("index", "rulings", *LAB_NOTEBOOKS)  # notebooks that are not lessons but a class may open together


def lesson_file(lesson: str, notebooks: Path = NOTEBOOKS) -> str:
    """``up_play`` or ``up_play.ipynb`` → ``up_play.ipynb``, the name Voila keys its pools by: a lesson of
    the registry (``railkit/lessons.py``) or one of the ``PAGES``, whose notebook is in ``notebooks``."""
    name = lesson.strip()
    stem = name.removesuffix(".ipynb")
    known = [x.id for x in LESSONS] + list(PAGES)
    if stem not in known or not (notebooks / f"{stem}.ipynb").is_file():
        raise InputError(f"LESSON={lesson!r} is not a lesson in {notebooks.name}/ (one of: {', '.join(known)})")
    return f"{stem}.ipynb"


def class_size(text: str | int) -> int:
    """The number of learners (``CLASS=``): a whole number from 1 to ``MAX_CLASS``."""
    try:
        learners = int(text)
    except ValueError:
        raise InputError(f"CLASS={text!r} must be a whole number of learners") from None
    if not 1 <= learners <= MAX_CLASS:
        raise InputError(f"CLASS={learners} must be from 1 to {MAX_CLASS}; a larger class needs the "
                         "JupyterHub recipe in deploy/ (README, 'A class on one server')")
    return learners


def pools_config(learners: int, lesson: str | None = None, notebooks: Path = NOTEBOOKS) -> dict[str, dict[str, int]]:
    """Voila's ``kernel_pools_config`` for a class: ``learners`` kernels for ``lesson`` (the others
    ``SMALL_POOL``), or, without a lesson, the class spread evenly over every lesson."""
    learners = class_size(learners)
    if lesson:
        return {"default": {"pool_size": SMALL_POOL}, lesson_file(lesson, notebooks): {"pool_size": learners}}
    lessons = [p for p in notebooks.glob("*.ipynb") if p.stem != "index"] or [Path("any")]
    return {"default": {"pool_size": max(SMALL_POOL, math.ceil(learners / len(lessons)))}}


def pool_kernels(config: dict[str, dict[str, int]], notebooks: Path = NOTEBOOKS) -> int:
    """How many kernels the pools hold when full (every notebook Voila serves has a pool)."""
    default = config.get("default", {}).get("pool_size", 1)
    return sum(config.get(p.name, {}).get("pool_size", default) for p in notebooks.glob("*.ipynb"))


def voila_args(learners: int | str | None, lesson: str | None = None, notebooks: Path = NOTEBOOKS) -> list[str]:
    """Voila command-line arguments for the class (none without a class size)."""
    if learners in (None, ""):
        if lesson:
            raise InputError("LESSON= needs CLASS= too (how many learners open it)")
        return []
    config = pools_config(class_size(learners), lesson or None, notebooks)
    # No spaces: make's recipe passes the words on unquoted.
    return ["--VoilaKernelManager.kernel_pools_config=" + json.dumps(config, separators=(",", ":")),
            f"--VoilaKernelManager.fill_delay={CLASS_FILL_DELAY_S}"]


def memory_note(config: dict[str, dict[str, int]], notebooks: Path = NOTEBOOKS) -> str:
    """What the pools will cost, for the teacher: used kernels are replaced, so up to twice the pools."""
    kernels = pool_kernels(config, notebooks)
    need_gb = 2 * kernels * KERNEL_MB / 1024
    note = f"class pools: {kernels} preheated kernels; up to ~{need_gb:.1f} GB while the class is on"
    free_gb = available_gb()
    if free_gb is not None and need_gb > free_gb:
        note += f" — more than the {free_gb:.1f} GB available: use a smaller CLASS or deploy/ (JupyterHub)"
    return note


def available_gb() -> float | None:
    """Memory available to new processes (Linux's MemAvailable), or None where unknown."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 2**20
    except (OSError, ValueError, IndexError):
        pass
    return None


def main(argv: Sequence[str]) -> int:
    """``class_config [CLASS [LESSON]]``: print Voila's arguments (make passes its variables, maybe empty)."""
    learners, lesson = (list(argv) + ["", ""])[:2]
    try:
        args = voila_args(learners or None, lesson or None)
    except InputError as exc:
        print(f"make run: {exc}", file=sys.stderr)
        return 2
    if args:
        print(memory_note(pools_config(int(learners), lesson or None)), file=sys.stderr)
    print(" ".join(args))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
