"""Build the static site: every ``notebooks/*.ipynb`` as a Voici app whose Python runs in the
learner's browser (Pyodide), from PyPI and npm only. Run by ``make site`` with ``.site-venv``'s Python.

    .site-venv/bin/python tools/site/build.py [--out site] [--cache .cache/site] [--force]

Steps: download the pinned npm packages and wheels into the cache (once); build the railkit wheel
from the checkout; lay out a JupyterLite folder (Pyodide's core, the wheels, a lock for them, the
notebooks, the site's page template); ``voici build``; make the pages' paths relative and check
that nothing is loaded from another host. A build whose inputs have not changed is skipped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fetch  # noqa: E402
import pages  # noqa: E402
import wheels  # noqa: E402
from package import railkit_wheel  # noqa: E402
from wheelfile import sha256  # noqa: E402

ROOT = HERE.parent.parent
PYODIDE_CORE = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm")  # + python_stdlib.zip, compiled
# The kernel's own wheels (from jupyterlite-pyodide-kernel): loaded with Pyodide at start, like the
# others, instead of installed by micropip/piplite after it (jupyter-lite.json lists them in
# "packages", so the kernel skips its installs: ~1.5 s of each lesson's start, see tools/site/README.md).
KERNEL_WHEELS = ("piplite", "ipykernel", "pyodide_kernel")
# Packages the kernel asks for by name that no lesson uses: empty wheels stand in (wheels.placeholder).
PLACEHOLDERS = {
    "sqlite3": "IPython's command history; Pyodide builds it separately and no registry has it",
    "jedi": "tab completion, which a Voici app never offers (1.7 MB with parso)",
}
# The federated extensions the pages need: the kernel, and plotly's renderer (plotly.js). Voila's
# JupyterLab preview and jupyterlab_pygments, also in the build venv, have no use in an app page.
EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "jupyterlab-plotly")
STAMP = ".site-inputs"


def inputs_digest() -> str:
    """A digest of everything the site is built from (a changed lesson, module or pin rebuilds it)."""
    h = hashlib.sha256()
    paths = [*HERE.rglob("*"), *(ROOT / "railkit").rglob("*"), *(ROOT / "notebooks").glob("*.ipynb"),
             *(ROOT / "notebooks").glob("*/*.ipynb"),
             ROOT / "docs" / "rulings.md", ROOT / "pyproject.toml", ROOT / "setup.py", ROOT / "README.md"]
    for path in sorted(p for p in paths if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".mo"):
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(sys.version.encode())
    return h.hexdigest()


def source_date_epoch() -> int:
    """File times in the site and its wheels: the last commit's time, so rebuilds are byte-identical."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return int(os.environ["SOURCE_DATE_EPOCH"])
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True, check=True)
        return int(out.stdout.strip())
    except (OSError, subprocess.CalledProcessError, ValueError):
        return 315532800  # 1980-01-01, the earliest time a zip file can hold


def pyodide_folder(dest: Path, cache: Path, epoch: int) -> list[str]:
    """Pyodide's core from npm, the site's wheels beside it and a lock for exactly those wheels.
    Returns the notes to print (none today)."""
    npm = fetch.npm_packages(HERE / "npm-packages.txt", cache / "npm")
    downloaded = fetch.wheels(HERE / "browser-wheels.txt", cache / "wheels")
    shutil.rmtree(dest, ignore_errors=True)  # a build cut short may have left it
    dest.mkdir(parents=True)
    for name in PYODIDE_CORE:
        shutil.copy2(npm["pyodide"] / name, dest / name)
    slim = cache / "slim"
    shutil.rmtree(slim, ignore_errors=True)
    slim.mkdir(parents=True)
    railkit = railkit_wheel(ROOT, cache / "railkit-build", slim, epoch)
    kernel = [next(kernel_wheels().glob(f"{name}-*.whl")) for name in KERNEL_WHEELS]
    sources = [*(wheels.slimmed(w, slim) for w in [*downloaded, *kernel]), railkit, npm["pyodide"] / "python_stdlib.zip"]
    shipped = compiled(sources, dest, cache / "pyc", npm["pyodide"])
    shipped = [p for p in shipped if p.suffix == ".whl"]
    shipped += [wheels.placeholder(name, "0", f"Not in the railkit site: {why}.", dest) for name, why in PLACEHOLDERS.items()]
    core_lock = json.loads((npm["pyodide"] / "pyodide-lock.json").read_text(encoding="utf-8"))
    lock = wheels.lock(core_lock, shipped, set(PLACEHOLDERS))
    wheels.write_lock(lock, dest / "pyodide-lock.json")
    return []


def kernel_wheels() -> Path:
    """The folder of the wheels jupyterlite-pyodide-kernel ships (its piplite index)."""
    return (Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite" / "pyodide-kernel-extension"
            / "static" / "pypi")


def compiled(sources: list[Path], dest: Path, cache: Path, pyodide: Path) -> list[Path]:
    """``sources`` byte-compiled by Pyodide (pyc.py), copied to ``dest``; compiled wheels are cached
    by the hash of their source wheel and of the compiler scripts."""
    salt = "".join(sha256(HERE / f) for f in ("pyc.py", "pyc.mjs", "wheelfile.py"))
    targets, jobs = [], []
    for src in sources:
        key = hashlib.sha256((sha256(src) + salt).encode()).hexdigest()[:20]
        target = cache / key / src.name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            jobs.append({"src": str(src), "dest": str(target), "keep_sources": src.name.startswith("railkit-"),
                         "stdlib": src.suffix == ".zip"})
        targets.append(target)
    if jobs:
        print(f"site: byte-compiling {len(jobs)} wheel(s) with Pyodide in Node", flush=True)
        job_file = cache / "jobs.json"
        job_file.write_text(json.dumps(jobs))
        subprocess.run(["node", str(HERE / "pyc.mjs"), str(pyodide), str(job_file)], check=True)
    for target in targets:
        shutil.copy2(target, dest / target.name)
    return [dest / t.name for t in targets]


def lite_folder(lite: Path, cache: Path, epoch: int) -> list[str]:
    """The JupyterLite project folder ``voici build`` reads."""
    shutil.rmtree(lite, ignore_errors=True)
    notes = pyodide_folder(lite / "static" / "pyodide", cache, epoch)
    files = lite / "files"
    files.mkdir()
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        shutil.copy2(nb, files / nb.name)
    for nb in sorted((ROOT / "notebooks").glob("*/*.ipynb")):  # the lessons in fi, hu, es
        (files / nb.parent.name).mkdir(exist_ok=True)
        shutil.copy2(nb, files / nb.parent.name / nb.name)
    shutil.copy2(HERE / "jupyter-lite.json", lite / "jupyter-lite.json")
    templates = lite / "jupyter" / "voila" / "templates"
    repo_template = ROOT / "railkit" / "ui" / "voila_template" / "railkit"
    if not repo_template.is_dir():
        raise SystemExit(f"site: railkit's Voila template is not at {repo_template.relative_to(ROOT)} (tools/site/build.py)")
    # railkit's Voila template: the look of `make run`, and no CDN links (Voila's lab template links
    # Font Awesome and mermaid from CDNs; Voici's own bundle already carries Font Awesome 5).
    shutil.copytree(repo_template, templates / "railkit")
    extensions = lite / "labextensions"
    share = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    for name in EXTENSIONS:
        shutil.copytree(share / name, extensions / name, ignore=shutil.ignore_patterns("*.map"))
    # Only those extensions, not every one installed in the build venv.
    config = {"LiteBuildConfig": {"ignore_sys_prefix": ["federated_extensions"]},
              "FederatedExtensionAddon": {"extra_labextensions_path": [str(extensions)]}}
    (lite / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    return notes


def voici_build(lite: Path, out: Path, epoch: int) -> None:
    voici = Path(sys.executable).parent / "voici"
    cmd = [str(voici), "build", "--lite-dir", str(lite), "--contents", str(lite / "files"), "--output-dir", str(out),
           "--apps", "voici", "--no-sourcemaps", "--no-unused-shared-packages", "--source-date-epoch", str(epoch),
           "--template", "railkit", "--strip_sources=True", "--show_tracebacks=False"]
    env = {**os.environ, "JUPYTER_PATH": str(lite / "jupyter"), "SOURCE_DATE_EPOCH": str(epoch)}
    result = subprocess.run(cmd, cwd=lite, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"site: voici build failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site")
    parser.add_argument("--cache", type=Path, default=ROOT / ".cache" / "site")
    parser.add_argument("--force", action="store_true", help="rebuild even if no input changed")
    args = parser.parse_args(argv)
    out, cache = args.out.resolve(), args.cache.resolve()
    digest = inputs_digest()
    if not args.force and (out / STAMP).is_file() and (out / STAMP).read_text() == digest:
        print(f"site: {out.relative_to(Path.cwd()) if out.is_relative_to(Path.cwd()) else out} is up to date")
        return 0
    start = time.monotonic()
    epoch = source_date_epoch()
    lite, staged = cache / "lite", cache / "out"
    notes = lite_folder(lite, cache, epoch)
    shutil.rmtree(staged, ignore_errors=True)
    voici_build(lite, staged, epoch)
    start_page = "index.html" if (lite / "files" / "index.ipynb").exists() else "../tree/index.html"
    pages.finish(staged, start_page)
    shutil.rmtree(staged / ".jupyterlite.doit.db", ignore_errors=True)
    (staged / STAMP).write_text(digest)
    shutil.rmtree(out, ignore_errors=True)
    shutil.move(str(staged), str(out))
    for note in notes:
        print(f"site: {note}")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"site: built {out} ({size / 1e6:.1f} MB, {len(list((lite / 'files').glob('*.ipynb')))} notebooks) "
          f"in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
