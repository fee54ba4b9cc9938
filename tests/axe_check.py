"""axe-core in the browser tests: no critical or serious accessibility violation in a lesson.

axe-core comes from npm, pinned in ``tests/a11y/package.json`` and ``package-lock.json``; ``axe_script()``
installs it with ``npm ci`` into ``tests/a11y/node_modules/`` (gitignored) the first time it is needed, so
nothing is fetched while a page is being checked. ``axe_violations(page)`` injects it with Playwright's
``add_script_tag(path=...)`` and returns the findings of the given impacts (critical and serious by default);
``describe(found)`` turns them into readable lines for an assertion message.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

A11Y_DIR = Path(__file__).resolve().parent / "a11y"
AXE_JS = A11Y_DIR / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("critical", "serious")

# WCAG 2.x A and AA rules plus axe's best practices (the `region` landmark rule is one).
RUN_JS = """async () => {
  return await window.axe.run(document, {
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']},
    resultTypes: ['violations'],
  }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(' '), summary: n.failureSummary, impact: n.impact})),
  })));
}"""


def axe_script() -> Path:
    """The axe-core bundle, installed with ``npm ci`` from the lock file when missing."""
    if not AXE_JS.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("npm not found: the accessibility tests install axe-core with `npm ci` in tests/a11y")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=A11Y_DIR, check=True, timeout=300)
    return AXE_JS


def axe_all(page) -> list[dict]:
    """Every axe violation on ``page`` (injecting axe-core when the page has none yet)."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(axe_script()))
    return page.evaluate(RUN_JS)


def axe_violations(page, impacts: tuple[str, ...] = BLOCKING) -> list[dict]:
    """The violations on ``page`` whose impact is one of ``impacts`` (default: critical and serious)."""
    return [v for v in axe_all(page) if v["impact"] in impacts]


def describe(found: list[dict], nodes: int = 6) -> str:
    """Readable lines: rule, impact, help text, then the first ``nodes`` elements and why each fails."""
    lines = []
    for v in found:
        lines.append(f"{v['impact']}: {v['id']} — {v['help']} ({len(v['nodes'])} elements)")
        for n in v["nodes"][:nodes]:
            summary = " ".join((n["summary"] or "").split())
            lines.append(f"    {n['target']}: {summary[:300]}")
    return "\n".join(lines)
