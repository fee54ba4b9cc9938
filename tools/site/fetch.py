"""Downloads for the site, from PyPI (pip) and npm (npm pack) only, checked against the hashes pinned
in ``tools/site/`` and kept in the cache folder: a second build downloads nothing."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from packaging.utils import canonicalize_name, parse_wheel_filename
from wheelfile import sha256

PYODIDE_PYTHON = "3.13"  # Pyodide 0.29.3's Python


def _pins(path: Path) -> list[tuple[str, str, str]]:
    """(name, version, sha256) from ``name==version --hash=sha256:...`` lines."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)\s+--hash=sha256:([0-9a-f]{64})", line.strip())
        if m:
            out.append((canonicalize_name(m[1]), m[2], m[3]))
    return out


def wheels(pins_file: Path, cache: Path) -> list[Path]:
    """The pinned wheels, from the cache, downloaded first when any is missing or altered."""
    cache.mkdir(parents=True, exist_ok=True)
    pins = _pins(pins_file)

    def cached() -> dict[str, Path]:
        found = {}
        for whl in cache.glob("*.whl"):
            name, version, _build, _tags = parse_wheel_filename(whl.name)
            for pin_name, pin_version, digest in pins:
                if (canonicalize_name(name), str(version)) == (pin_name, pin_version) and sha256(whl) == digest:
                    found[pin_name] = whl
        return found

    found = cached()
    if len(found) < len(pins):
        print(f"site: downloading {len(pins) - len(found)} wheel(s) from PyPI", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                        "--no-deps", "--only-binary=:all:", "--platform", "any", "--implementation", "py",
                        "--abi", "none", "--python-version", PYODIDE_PYTHON, "--require-hashes",
                        "-r", str(pins_file), "-d", str(cache)], check=True)
        found = cached()
    missing = sorted({p[0] for p in pins} - set(found))
    if missing:
        raise SystemExit(f"site: wheels missing or with a wrong hash after download: {missing}")
    return [found[p[0]] for p in pins]


def npm_packages(pins_file: Path, cache: Path) -> dict[str, Path]:
    """Each pinned npm package (``name@version sha256``) unpacked; name -> its ``package/`` folder."""
    cache.mkdir(parents=True, exist_ok=True)
    out = {}
    for line in pins_file.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        spec, digest = line.split()
        name, version = spec.rsplit("@", 1)
        tarball = cache / (name.lstrip("@").replace("/", "-") + f"-{version}.tgz")
        if not tarball.exists() or sha256(tarball) != digest:
            print(f"site: downloading {spec} from npm", flush=True)
            subprocess.run(["npm", "pack", "--silent", spec, "--pack-destination", str(cache)],
                           check=True, stdout=subprocess.DEVNULL)
        if sha256(tarball) != digest:
            raise SystemExit(f"site: {tarball.name} does not have the pinned sha256 {digest}")
        unpacked = cache / f"{tarball.name[:-4]}"
        if not (unpacked / ".complete").exists():
            shutil.rmtree(unpacked, ignore_errors=True)
            with tarfile.open(tarball) as tar:
                tar.extractall(unpacked, filter="data")
            (unpacked / ".complete").write_text(digest)
        out[name] = unpacked / "package"
    return out
