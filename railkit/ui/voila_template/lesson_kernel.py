"""The kernel railkit's Voila starts for a lesson: ipykernel without its debugger.

ipykernel imports debugpy at start-up so that JupyterLab's debugger can attach; a Voila page never
debugs, and debugpy costs every lesson's kernel about 8 MB (measured with ``benchmarks/kernel.py
--live``). ``python -m railkit.ui.voila_template`` installs the kernel spec ``railkit-lesson`` that
runs this module, and ``RailkitKernelManager`` starts it for notebooks whose kernel is ``python3``.
JupyterLab and Binder's notebooks keep the ordinary ``python3`` kernel, debugger and all.
"""

from __future__ import annotations

import sys

KERNEL_NAME = "railkit-lesson"


def spec() -> dict[str, object]:
    """The kernel spec (``kernel.json``): ``python`` is the Python that runs the server (jupyter_client)."""
    return {
        "argv": ["python", "-m", "railkit.ui.voila_template.lesson_kernel", "-f", "{connection_file}"],
        "display_name": "Python 3 (railkit lesson, no debugger)",
        "language": "python",
        "metadata": {"debugger": False},
        "kernel_protocol_version": "5.5",
    }


def main() -> None:
    sys.modules["debugpy"] = None  # type: ignore[assignment]  # ipykernel then runs with no debugger
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
