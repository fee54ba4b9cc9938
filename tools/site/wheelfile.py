"""Reading and writing wheels deterministically (standard library only: pyc.py runs it inside Pyodide).

Sorted entries, one fixed timestamp and a fresh RECORD: the same files give the same bytes."""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from pathlib import Path

ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def read_wheel(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i) for i in z.infolist() if not i.is_dir()}


def write_wheel(dest: Path, files: dict[str, bytes]) -> Path:
    """Write ``files`` (archive name -> bytes) as a wheel with a fresh RECORD."""
    dist_info = next(n.split("/")[0] for n in files if n.split("/")[0].endswith(".dist-info"))
    record = f"{dist_info}/RECORD"
    body = {n: d for n, d in files.items() if n != record}
    lines = [_record_line(n, d) for n, d in sorted(body.items())] + [f"{record},,"]
    body[record] = ("\n".join(lines) + "\n").encode()
    return write_zip(dest, body, order=lambda n: (n.startswith(dist_info), n))  # dist-info last, as pip does


def write_zip(dest: Path, files: dict[str, bytes], order=None) -> Path:  # noqa: ANN001 - a sort key
    """Write ``files`` (archive name -> bytes) as a zip: sorted, one timestamp, deflated."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in sorted(files, key=order):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, files[name], compresslevel=9)
    dest.write_bytes(buf.getvalue())
    return dest
