"""Tests wait on conditions, so a busy machine slows them down instead of failing them: no fixed pause, no exact-URL comparison.

* ``page.wait_for_timeout(...)`` is never used: wait for what the pause was for (``conftest``: ``wait_text``,
  ``wait_for_kernel``, ``hovered``, ``painted``, ``wait_for_address``).
* ``time.sleep(...)`` only inside a loop that polls a condition up to a deadline, or, on its own, marked
  ``# negative wait:`` when a test must let time pass to show that something does *not* happen (the culler).
* A URL is never compared with ``==``: servers add query strings on the way (JupyterHub's ``?redirects=1``);
  compare paths and parameters with ``conftest.same_address``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import same_address

TESTS = Path(__file__).resolve().parent
SOURCES = sorted(p for p in TESTS.rglob("*.py") if "artifacts" not in p.parts)


def _loops(tree: ast.AST) -> set[int]:
    """ids of the nodes inside a ``while`` or ``for`` loop."""
    inside: set[int] = set()
    for loop in ast.walk(tree):
        if isinstance(loop, (ast.While, ast.For)):
            inside |= {id(n) for n in ast.walk(loop)}
    return inside


def fixed_waits(path: Path, root: Path = TESTS) -> list[str]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    in_loop = _loops(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = ast.unparse(node.func)
        where = f"{path.relative_to(root)}:{node.lineno}"
        if name.endswith("wait_for_timeout"):
            found.append(f"{where}: {name}(...) is a fixed pause")
        elif name in ("time.sleep", "sleep") and id(node) not in in_loop and "# negative wait:" not in lines[node.lineno - 1]:
            found.append(f"{where}: {name}(...) outside a polling loop")
    return found


def url_equalities(path: Path, root: Path = TESTS) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "url" for s in sides):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_test_pauses_for_a_fixed_time():
    assert [w for p in SOURCES for w in fixed_waits(p)] == []


def test_no_test_compares_a_url_exactly():
    assert [w for p in SOURCES for w in url_equalities(p)] == []


def test_the_checks_find_what_they_forbid(tmp_path):
    bad = tmp_path / "test_bad.py"
    bad.write_text("import time\n\ndef test_x(page, reply):\n    page.wait_for_timeout(300)\n    time.sleep(2)\n"
                   "    assert reply.url == 'http://h/x'\n    while not page.ok:\n        time.sleep(0.1)\n")
    assert [w.split(": ", 1)[0] for w in fixed_waits(bad, tmp_path)] == ["test_bad.py:4", "test_bad.py:5"]
    assert len(url_equalities(bad, tmp_path)) == 1


@pytest.mark.parametrize("url, path, query, base, ok", [
    ("http://h:1/user/ada/voila/render/index.ipynb?redirects=1", "/user/ada/voila/render/index.ipynb", {}, "http://h:1", True),
    ("http://h:1/user/ada/voila/render/index.ipynb", "/user/ada/voila/render/index.ipynb", {}, "http://h:1", True),
    ("http://h:2/user/ada/voila/render/index.ipynb", "/user/ada/voila/render/index.ipynb", {}, "http://h:1", False),
    ("http://h:1/user/bo/voila/render/index.ipynb", "/user/ada/voila/render/index.ipynb", {}, None, False),
    ("http://h/voila/render/kk_play.ipynb?redirects=1&name=Aino", "kk_play.ipynb", {"name": "Aino"}, None, True),
    ("http://h/voila/render/kk_play.ipynb?name=Ben", "kk_play.ipynb", {"name": "Aino"}, None, False),
    ("http://h/voila/render/xkk_play.ipynb?name=Aino", "kk_play.ipynb", {"name": "Aino"}, None, False),
])
def test_same_address_ignores_added_query_parameters_only(url, path, query, base, ok):
    assert same_address(url, path, base=base, **query) is ok
