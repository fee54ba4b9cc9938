"""Byte-compile wheels for Pyodide's Python, so the browser does not compile every module it imports.

Measured in Pyodide under Node: importing IPython, networkx, plotly and a lesson took 4.9 s from
sources and 1.8 s from compiled files. Runs *inside* Pyodide 0.29.3 (``pyc.mjs`` starts it in Node),
so the bytecode is exactly that Python's, without a CPython 3.13 on the build machine.

* Third-party wheels become sourceless, as Pyodide's own packages are: each ``x.py`` is replaced by
  ``x.pyc`` in the same folder (smaller than keeping both; their tracebacks lose source lines).
* ``keep_sources`` (railkit): ``x.py`` stays, ``__pycache__/x.cpython-313.pyc`` is added, an
  unchecked hash-based pyc (extracting a wheel does not keep file times, which timestamp pycs need).
* ``stdlib``: Pyodide's ``python_stdlib.zip`` (imported from ``/lib/python313.zip`` by zipimport,
  which cannot write bytecode) becomes sourceless too: every page load compiled each standard-library
  module it imported from source (pydoc, pdb, pickle... for IPython), about 1 s of a lesson's start.
  Docstrings and asserts stay (``optimize=0``): the standard library is used as it is everywhere.

    python pyc.py JOBS.json      # [{"src": ..., "dest": ..., "keep_sources": bool, "stdlib": bool}, ...]
"""

from __future__ import annotations

import importlib._bootstrap_external as bootstrap  # the documented way to write pycs is py_compile: files only
import importlib.util
import json
import sys
import zipfile
from pathlib import Path

from wheelfile import read_wheel, write_wheel, write_zip

SITE_PACKAGES = "/lib/python3.13/site-packages/"  # where Pyodide installs wheels: the paths tracebacks show
TAG = "cpython-313"


def compile_wheel(src: Path, dest: Path, keep_sources: bool) -> Path:
    files = read_wheel(src)
    out: dict[str, bytes] = {}
    for name, data in files.items():
        top = name.split("/")[0]
        if not name.endswith(".py") or top.endswith((".dist-info", ".data")):
            out[name] = data
            continue
        try:
            code = compile(data, SITE_PACKAGES + name, "exec", dont_inherit=True, optimize=0 if keep_sources else 2)
        except SyntaxError:  # e.g. templates named .py: leave them as they are
            out[name] = data
            continue
        if keep_sources:
            pyc = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            folder, _, stem = name.rpartition("/")
            out[f"{folder + '/' if folder else ''}__pycache__/{stem[:-3]}.{TAG}.pyc"] = bytes(pyc)
            out[name] = data
        else:
            out[name[:-3] + ".pyc"] = bytes(bootstrap._code_to_timestamp_pyc(code, 0, len(data)))
    return write_wheel(dest, out)


def compile_stdlib(src: Path, dest: Path) -> Path:
    """A copy of the standard library's zip with each ``x.py`` replaced by a sourceless ``x.pyc``."""
    out: dict[str, bytes] = {}
    with zipfile.ZipFile(src) as z:  # folders too: zipimport finds namespace packages by them
        files = {i.filename: z.read(i) for i in z.infolist()}
    for name, data in files.items():
        if not name.endswith(".py"):
            out[name] = data
            continue
        try:
            code = compile(data, "/lib/python3.13/" + name, "exec", dont_inherit=True, optimize=0)
        except SyntaxError:  # lib2to3-style test data and the like: leave them as they are
            out[name] = data
            continue
        out[name[:-3] + ".pyc"] = bytes(bootstrap._code_to_timestamp_pyc(code, 0, len(data)))
    return write_zip(dest, out)


def main(argv: list[str]) -> int:
    if sys.version_info[:2] != (3, 13):
        raise SystemExit(f"pyc.py must run in Pyodide's Python 3.13, not {sys.version.split()[0]}")
    for job in json.loads(Path(argv[0]).read_text()):
        if job.get("stdlib"):
            compile_stdlib(Path(job["src"]), Path(job["dest"]))
        else:
            compile_wheel(Path(job["src"]), Path(job["dest"]), job["keep_sources"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
