"""The kernel railkit's Voila starts for a lesson: ipykernel without its debugger.

ipykernel imports debugpy at start-up so that JupyterLab's debugger can attach; a Voila page never
debugs, and debugpy costs every lesson's kernel about 8 MB (measured with ``benchmarks/kernel.py
--live``). The kernel spec ``railkit-lesson`` (``railkit-lesson/kernel.json`` beside this module, installed
as wheel data under ``<sys.prefix>/share/jupyter/kernels``: pyproject.toml) runs this module, and
``RailkitKernelManager`` starts it for notebooks whose kernel is ``python3``.
JupyterLab and Binder's notebooks keep the ordinary ``python3`` kernel, debugger and all.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

KERNEL_NAME = "railkit-lesson"
SPEC_FILE = Path(__file__).resolve().parent / KERNEL_NAME / "kernel.json"


def spec() -> dict[str, object]:
    """The kernel spec (``kernel.json``): ``python`` is the Python that runs the server (jupyter_client)."""
    return json.loads(SPEC_FILE.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def main() -> None:
    sys.modules["debugpy"] = None  # type: ignore[assignment]  # ipykernel then runs with no debugger
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
