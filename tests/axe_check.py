"""axe-core in the browser tests: no critical or serious accessibility violation in a lesson.

axe-core comes from npm, pinned in ``tests/a11y/package.json`` and ``package-lock.json``; ``axe_script()``
installs it with ``npm ci`` into ``tests/a11y/node_modules/`` (gitignored) the first time it is needed, so
nothing is fetched while a page is being checked. ``axe_violations(page)`` injects it with Playwright's
``add_script_tag(path=...)`` and returns the findings of the given impacts (critical and serious by default);
``describe(found)`` turns them into readable lines for an assertion message.

``assert_clean(page, where)`` runs axe, keeps its findings in ``tests/artifacts/axe_<where>.json`` and fails on any
critical or serious one. ``in_every_language(page, where)`` does that once per translation (fi, hu, es), switching the
lesson's language in the page itself, as the teacher's room does: the language picker's widget model is set (no page
load, no new kernel; a lesson page would otherwise open its translated notebook), the app is built again in that
language, and the page's ``lang`` is set as the translated page's would be. One page load per lesson, then about two
seconds per language.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

A11Y_DIR = Path(__file__).resolve().parent / "a11y"
AXE_JS = A11Y_DIR / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("critical", "serious")
ALWAYS = ("empty-table-header",)  # minor for axe, but every table's columns are named here (issue 37)

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


TRANSLATIONS = ("fi", "hu", "es")
LANGUAGE_NAMES = {"en": "English", "fi": "suomi", "hu": "magyar", "es": "español"}  # railkit.ui.language
# Choose a language in the lesson's picker through its widget model (the kernel switches the app in place).
SWITCH_JS = """async (label) => {
  const manager = window.jupyterapp && window.jupyterapp.widgetManager;
  if (!manager) throw new Error('no widget manager on this page');
  const models = (await Promise.allSettled(Object.values(manager._models || {})))
    .filter((s) => s.status === 'fulfilled').map((s) => s.value);
  const pickers = models.filter((m) => (m.get('_options_labels') || []).includes(label)
    && (m.get('_options_labels') || []).includes('English'));
  if (!pickers.length) throw new Error('no language picker on this page');
  for (const picker of pickers) {
    picker.set('index', picker.get('_options_labels').indexOf(label));
    picker.save_changes();
  }
}"""


def assert_clean(page, where: str) -> list[dict]:
    """axe on ``page`` now: its findings go to ``ARTIFACTS/axe_<where>.json``; no critical or serious one, and no table
    column without a name (``ALWAYS``)."""
    from conftest import ARTIFACTS

    everything = axe_all(page)
    counts = {impact: sum(1 for v in everything if v["impact"] == impact)
              for impact in ("critical", "serious", "moderate", "minor")}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"axe_{where}.json").write_text(json.dumps({"counts": counts, "violations": everything}, indent=1),
                                                 encoding="utf-8")
    found = [v for v in everything if v["impact"] in BLOCKING or v["id"] in ALWAYS]
    assert not found, f"{where}: {counts}\n" + describe(found) + widget_errors(page)
    return everything


def widget_errors(page) -> str:
    """What ipywidgets' error placeholders on ``page`` say (a widget the front end could not draw shows an icon
    with its message hidden under it), so that a failing check names the widget's error, not only the icon."""
    texts = page.evaluate("""() => Array.from(document.querySelectorAll('.jupyter-widgets-error-widget'))
        .map((e) => (e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 400))""")
    return "".join(f"\n    widget error: {text}" for text in texts)


def switch_language(page, code: str) -> None:
    """Switch the page's lesson (or teacher's room) to ``code`` in place and wait until it is drawn in it."""
    from conftest import painted, wait_for_kernel

    from railkit.ui.i18n import translations

    page.evaluate(SWITCH_JS, LANGUAGE_NAMES[code])
    word = translations(code).gettext("Language") if code != "en" else "Language"
    page.get_by_role("combobox", name=word, exact=True).first.wait_for(state="visible", timeout=120_000)
    wait_for_kernel(page)
    page.evaluate("(code) => { document.documentElement.lang = code; }", code)
    painted(page)


def in_every_language(page, where: str, languages: tuple[str, ...] = TRANSLATIONS) -> None:
    """``assert_clean`` in each of ``languages``, switched in the page (the page is left in the last one)."""
    for code in languages:
        switch_language(page, code)
        assert_clean(page, f"{code}_{where}")
