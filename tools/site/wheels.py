"""Wheels for the browser kernel: slimmed copies, empty placeholders, and the ``pyodide-lock.json``
that tells Pyodide about them.

Why rewrite the lock: Pyodide's own lock names its own builds (different files, different hashes),
and lists packages the site does not ship. The site's lock lists exactly the wheels it ships, with
their real sha256, the modules each provides (``imports``: the kernel loads a package when a cell
imports it) and their dependencies as declared in the wheels' metadata for Pyodide's platform.

Every wheel is written deterministically (sorted entries, fixed timestamps), so the same inputs give
the same bytes and the same lock.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable, Iterable
from email.parser import Parser
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename
from wheelfile import read_wheel, sha256, write_wheel

# Markers evaluated as Pyodide 0.29 (Python 3.13 in WebAssembly) would.
PYODIDE_ENV = {
    "sys_platform": "emscripten", "platform_system": "Emscripten", "platform_machine": "wasm32",
    "os_name": "posix", "implementation_name": "cpython", "platform_python_implementation": "CPython",
    "python_version": "3.13", "python_full_version": "3.13.2", "implementation_version": "3.13.2",
    "platform_release": "", "platform_version": "", "extra": "",
}
# Requirements the browser kernel does without, and why.
NOT_IN_BROWSER = {
    "widgetsnbextension": "the widgets' front end for the classic notebook; Voici's bundle has its own",
    "jupyterlab-widgets": "the widgets' front end for JupyterLab; Voici's bundle has its own",
    "ipykernel": "the kernel brings its own ipykernel for Pyodide (from jupyterlite-pyodide-kernel)",
    "anywidget": "only plotly's FigureWidget needs it; railkit draws figures with FigureView",
    # plotly.js draws the figures in the page (the jupyterlab-plotly extension, from the build venv);
    # the lessons build them as JSON (railkit.ui.plot), so plotly's Python (13 MB unpacked, ~1 s of
    # every start) and its narwhals stay off the site.
    "plotly": "the lessons build figures as plotly.js JSON (railkit.ui.plot); plotly.js is in the page",
    # Shipped and in the lock (a cell's `import prompt_toolkit` still loads it), but not loaded with
    # IPython at every start: only its terminal imports it, and the site defers that (PATCHES).
    "prompt-toolkit": "IPython's terminal only (IPython.embed, imported when called)",
}
# Never used by a kernel in the browser, in any wheel: test suites and data files for sys.prefix
# (a JupyterLab extension in ``*.data/``; the site gets plotly's from the build venv instead).
ALWAYS_DROP = ("/tests/", ".data/")
# Per package: files the lessons never load (none at present: plotly, the one that had them, is no
# longer shipped).
SLIM: dict[str, tuple[str, ...]] = {}
# Imports the kernel makes at every start that no lesson needs, deferred to their first use (each
# measured in the browser, see tools/site/README.md). Per package: (file, text, replacement); a
# text that is not there stops the build (a new version needs a new look).
LAZY_EMBED = '''def embed(*args, **kwargs):
    """IPython's terminal ``embed``, imported when called (railkit's static site: the terminal and
    prompt_toolkit are no part of a browser kernel's start)."""
    from .terminal.embed import embed as terminal_embed

    return terminal_embed(*args, **kwargs)
'''
LAZY_PIPLITE = '''"""piplite for railkit's static site: micropip is imported at the first ``piplite.install``
(a ``%pip`` in a cell), not when the kernel starts; the real module is ``piplite._piplite``."""

#: set by the kernel at start, handed to the real module at the first install
_PIPLITE_URLS: list = []
_PIPLITE_DISABLE_PYPI = False


def _real():
    from . import _piplite

    _piplite._PIPLITE_URLS = _PIPLITE_URLS
    _piplite._PIPLITE_DISABLE_PYPI = _PIPLITE_DISABLE_PYPI
    return _piplite


async def install(*args, **kwargs):
    return await _real().install(*args, **kwargs)


def __getattr__(name):
    if name.startswith("_"):  # probes of modules (__path__, _ipython_display_...) load nothing
        raise AttributeError(name)
    return getattr(_real(), name)
'''
PATCHES: dict[str, list[tuple[str, str, str]]] = {
    # IPython/__init__ imports the terminal's embed (prompt_toolkit, the terminal shell, the debugger):
    # ~0.5-1 s of each kernel start in the browser, and a Voici kernel has no terminal.
    "ipython": [("IPython/__init__.py", "from .terminal.embed import embed\n", LAZY_EMBED)],
    # The kernel's working folder is /drive, the page's files reached through the service worker,
    # and sys.path[0] is '' (that folder): every top-level import stat()ed it with a synchronous
    # request to the page, ~105 of them per start (0.5-0.8 s). No lesson imports a module from its
    # folder, so the site's kernel does not look there ('' stays in sys.path; no finder for it).
    "pyodide-kernel": [("pyodide_kernel/__init__.py", "import sys\n\n# 0. do early mocks",
                        "import sys\n\nimport os as _os\n\n"
                        "# railkit's static site: no imports from the notebook's folder (tools/site/wheels.py)\n"
                        "sys.path_importer_cache[_os.getcwd()] = None\n"
                        "del _os\n\n# 0. do early mocks")],
}
# Modules moved aside and replaced (package -> {new name: (old name or None, text)}).
REPLACED: dict[str, dict[str, tuple[str | None, str]]] = {
    # The kernel imports piplite.piplite at start only to set two options; its module imports
    # micropip (the package index, vendored packaging): ~0.5 s of each start. The real one is kept.
    "piplite": {"piplite/_piplite.py": ("piplite/piplite.py", ""), "piplite/piplite.py": (None, LAZY_PIPLITE)},
}


def patched(name: str, files: dict[str, bytes]) -> dict[str, bytes]:
    """``files`` of package ``name`` with its ``PATCHES`` and ``REPLACED`` modules applied."""
    files = dict(files)
    for path, text, replacement in PATCHES.get(name, []):
        source = files[path].decode("utf-8")
        if source.count(text) != 1:
            raise SystemExit(f"site: {path} no longer contains {text!r} once (tools/site/wheels.py PATCHES)")
        files[path] = source.replace(text, replacement).encode("utf-8")
    replaced = REPLACED.get(name, {})
    originals = {new: files[old] for new, (old, _text) in replaced.items() if old}
    for new, (old, text) in replaced.items():
        files[new] = originals[new] if old else text.encode("utf-8")
    return files


def slimmed(src: Path, out_dir: Path, extra: dict[str, bytes] | None = None) -> Path:
    """A copy of wheel ``src`` in ``out_dir`` without the files no lesson loads (``ALWAYS_DROP``,
    ``SLIM``), with the kernel's start-up imports deferred (``PATCHES``, ``REPLACED``), plus ``extra`` files."""
    name = canonicalize_name(parse_wheel_filename(src.name)[0])
    drop = SLIM.get(name, ())
    files = {n: d for n, d in read_wheel(src).items()
             if not any(p in n for p in ALWAYS_DROP) and not n.startswith(drop)}
    files = patched(name, files)
    files.update(extra or {})
    return write_wheel(out_dir / src.name, files)


def placeholder(name: str, version: str, reason: str, out_dir: Path) -> Path:
    """An empty wheel for ``name``: the kernel asks for the package by name, but the lessons never
    use it, so the kernel's request succeeds without downloading anything big (or anything at all
    that is not on the site). ``import name`` still fails, which its users handle."""
    dist = f"{name}-{version}.dist-info"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {reason}\n"
    wheel = "Wheel-Version: 1.0\nGenerator: railkit tools/site\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    return write_wheel(out_dir / f"{name}-{version}-py3-none-any.whl",
                       {f"{dist}/METADATA": meta.encode(), f"{dist}/WHEEL": wheel.encode()})


def metadata(path: Path) -> tuple[str, str, list[str]]:
    """(name, version, Requires-Dist lines) of a wheel."""
    with zipfile.ZipFile(path) as z:
        meta_name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
        msg = Parser().parsestr(z.read(meta_name).decode("utf-8"))
    return msg["Name"], msg["Version"], msg.get_all("Requires-Dist") or []


def needed_in_browser(requires: Iterable[str]) -> list[str]:
    """Canonical names of the requirements that apply in Pyodide (no extras, markers evaluated)."""
    names = []
    for line in requires:
        req = Requirement(line)
        if req.marker is None or Marker(str(req.marker)).evaluate(dict(PYODIDE_ENV)):
            names.append(canonicalize_name(req.name))
    return sorted(set(names))


def top_level_modules(path: Path) -> list[str]:
    """The importable top-level names in a wheel (packages with ``__init__.py``, single modules)."""
    names = set()
    with zipfile.ZipFile(path) as z:
        for n in z.namelist():
            parts = n.split("/")
            if parts[0].endswith((".dist-info", ".data")):
                continue
            if len(parts) == 1 and n.endswith((".py", ".pyc")):
                names.add(n.rsplit(".", 1)[0])
            elif len(parts) == 2 and parts[1] in ("__init__.py", "__init__.pyc"):
                names.add(parts[0])
    return sorted(names)


def lock(core_lock: dict, wheels: list[Path], placeholders: set[str],
         extra_depends: Callable[[str], list[str]] = lambda _name: []) -> dict:
    """Pyodide's lock with its packages replaced by ``wheels`` (all beside the lock file).

    A wheel's requirement that is neither shipped nor in ``NOT_IN_BROWSER`` stops the build: the
    kernel would fail to import it in the browser."""
    shipped = {canonicalize_name(parse_wheel_filename(w.name)[0]): w for w in wheels}
    packages = {}
    for key, path in sorted(shipped.items()):
        name, version, requires = metadata(path)
        depends = [d for d in needed_in_browser(requires) if d not in NOT_IN_BROWSER] + extra_depends(key)
        missing = [d for d in depends if d not in shipped]
        if missing:
            raise SystemExit(f"{path.name} needs {missing}, which the site does not ship: "
                             "add them to tools/site/browser-wheels.txt")
        packages[key] = {
            "name": key, "version": version, "file_name": path.name, "install_dir": "site",
            "sha256": sha256(path), "package_type": "package",
            "imports": [] if key in placeholders else top_level_modules(path),
            "depends": sorted(set(depends)), "unvendored_tests": False,
        }
    return {"info": core_lock["info"], "packages": packages}


def write_lock(data: dict, dest: Path) -> None:
    dest.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
