"""Compile gettext ``.po`` catalogs to ``.mo`` with the standard library only.

Imported by ``setup.py`` by file path (at build time railkit's dependencies may be missing), so this
module imports nothing from railkit. It reads what ``pybabel update`` writes: ``msgctxt``, ``msgid``,
``msgid_plural``, ``msgstr``/``msgstr[n]``, multi-line strings, ``#, fuzzy`` flags and obsolete
``#~`` entries. Like ``msgfmt`` it leaves out fuzzy and untranslated entries (gettext then falls back
to the English text) but keeps the header, which carries ``Plural-Forms``.
"""

from __future__ import annotations

import ast
import struct
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["PoEntry", "compile_catalogs", "compile_po", "mo_bytes", "read_po"]


@dataclass
class PoEntry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    context: str | None = None
    flags: set[str] = field(default_factory=set)

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr)

    @property
    def key(self) -> str:
        """The key gettext looks up: context and msgid joined by EOT, plural forms by NUL."""
        msgid = self.msgid if self.msgid_plural is None else f"{self.msgid}\0{self.msgid_plural}"
        return msgid if self.context is None else f"{self.context}\x04{msgid}"


def read_po(text: str) -> list[PoEntry]:
    """The live entries of a ``.po`` file (the header is the entry with the empty msgid)."""
    entries: list[PoEntry] = []
    entry = PoEntry()
    target: tuple[str, int] | None = None  # which field a continuation line extends
    seen = False

    def finish() -> None:
        nonlocal entry, seen, target
        if seen:
            entries.append(entry)
        entry, seen, target = PoEntry(), False, None

    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#~"):
            if not line:
                finish()
            continue
        if line.startswith("#,"):
            if seen:
                finish()
            entry.flags.update(f.strip() for f in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            if target is None:
                raise ValueError(f"a string continues nothing: {line[:40]}")
            _append(entry, target, ast.literal_eval(line))
            continue
        keyword, _, rest = line.partition(" ")
        value = ast.literal_eval(rest.strip())
        if seen and entry.msgstr and keyword in ("msgctxt", "msgid"):
            finish()  # the next entry began without a blank line
        seen = True
        if keyword == "msgctxt":
            entry.context, target = value, ("context", 0)
        elif keyword == "msgid":
            entry.msgid, target = value, ("msgid", 0)
        elif keyword == "msgid_plural":
            entry.msgid_plural, target = value, ("msgid_plural", 0)
        elif keyword.startswith("msgstr"):
            index = int(keyword[7:-1]) if keyword.startswith("msgstr[") else 0
            while len(entry.msgstr) <= index:
                entry.msgstr.append("")
            entry.msgstr[index] = value
            target = ("msgstr", index)
        else:
            raise ValueError(f"unknown .po keyword {keyword!r}")
    finish()
    return entries


def _append(entry: PoEntry, target: tuple[str, int], more: str) -> None:
    name, index = target
    if name == "msgstr":
        entry.msgstr[index] += more
    elif name == "context":
        entry.context = (entry.context or "") + more
    elif name == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + more
    else:
        entry.msgid += more


def mo_bytes(entries: list[PoEntry]) -> bytes:
    """GNU ``.mo`` bytes of the translated, non-fuzzy entries (and the header)."""
    pairs = {}
    for e in entries:
        if e.msgid == "" and e.context is None:
            pairs[""] = e.msgstr[0] if e.msgstr else ""
        elif e.translated and "fuzzy" not in e.flags:
            pairs[e.key] = "\0".join(e.msgstr)
    keys = sorted(pairs)
    ids = [k.encode() for k in keys]
    strs = [pairs[k].encode() for k in keys]
    n = len(keys)
    start = 7 * 4 + 16 * n  # header, then the two offset tables
    offsets, data = [], b""
    for blob in ids + strs:
        offsets.append((len(blob), start + len(data)))
        data += blob + b"\0"
    table = b"".join(struct.pack("<2I", length, offset) for length, offset in offsets)
    header = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    return header + table + data


def compile_po(po: Path, mo: Path) -> None:
    mo.parent.mkdir(parents=True, exist_ok=True)
    mo.write_bytes(mo_bytes(read_po(po.read_text(encoding="utf-8"))))


def compile_catalogs(locale_dir: Path, out_dir: Path | None = None) -> list[Path]:
    """Compile every ``<lang>/LC_MESSAGES/*.po`` under ``locale_dir`` (into ``out_dir``, same layout)."""
    written = []
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo = (out_dir or locale_dir) / po.relative_to(locale_dir).with_suffix(".mo")
        compile_po(po, mo)
        written.append(mo)
    return written
