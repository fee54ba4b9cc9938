"""Run the engine benchmarks one after another: ``python -m benchmarks`` (``make bench``).

The browser and load benchmark needs a Voila server and Chromium; run it on its own:
``python -m benchmarks.apps``. Copy the printed figures into docs/benchmarks.md.
"""

from __future__ import annotations

import runpy
import sys

ENGINE_BENCHMARKS = ("benchmarks.up_engine", "benchmarks.kk_engine")

for module in ENGINE_BENCHMARKS:
    print(f"== {module}", flush=True)
    sys.argv = [module]
    runpy.run_module(module, run_name="__main__")
