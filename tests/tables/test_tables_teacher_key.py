"""The teacher key as `make run` makes and prints it (no server needed): made once at random in the data
folder, readable by its owner only, the same at every start; ``RAILKIT_TEACHER_KEY`` wins; a weak one is
refused with its rule."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from railkit.classroom.teacher import KeyProblem, load_key


def test_TEACHER_KEY_made_once_kept_private_and_printed_by_the_command(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAILKIT_TEACHER_KEY", raising=False)
    path = tmp_path / "data" / "teacher.key"
    key = load_key(path)
    assert len(key) >= 32 and (path.stat().st_mode & 0o777) == 0o600
    assert load_key(path) == key
    printed = subprocess.run([sys.executable, "-m", "railkit.classroom.teacher", str(path)], check=True,
                             capture_output=True, text=True).stdout.strip()
    assert printed == key
    assert load_key(tmp_path / "other.key") != key  # another class, another key


def test_TEACHER_KEY_the_environment_wins_and_a_weak_key_is_refused(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILKIT_TEACHER_KEY", "  our-class-key-2026-spring ")
    assert load_key(tmp_path / "teacher.key") == "our-class-key-2026-spring"
    assert not (tmp_path / "teacher.key").exists()
    for weak in ("short", "has a space in it here", "x" * 201):
        monkeypatch.setenv("RAILKIT_TEACHER_KEY", weak)
        with pytest.raises(KeyProblem, match="TEACHER-KEY"):
            load_key(tmp_path / "teacher.key")
    monkeypatch.delenv("RAILKIT_TEACHER_KEY")
    (tmp_path / "teacher.key").write_text("tiny\n")
    with pytest.raises(KeyProblem, match="TEACHER-KEY"):
        load_key(tmp_path / "teacher.key")
