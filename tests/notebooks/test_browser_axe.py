"""axe-core on every lesson (issue 23, item 4): no critical or serious accessibility violation in a lesson's
first state, in English and in Finnish (``?lang=fi``). axe-core is pinned in tests/a11y (tests/axe_check.py)."""

import json

import pytest
from axe_check import BLOCKING, axe_all, describe
from conftest import ARTIFACTS, NOTEBOOKS_DIR, has_app, notebook_ids, open_app, page_errors, wait_for_kernel, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("voila")]


@pytest.mark.parametrize("lang", ["en", "fi"])
@pytest.mark.parametrize("nb", notebook_ids())
def test_a_lesson_has_no_serious_accessibility_violation(voila_server, offline_page, nb, lang):
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    ready = ".railkit-app" if has_app(NOTEBOOKS_DIR / nb) else None  # the rulings page is text only
    open_app(page, voila_server.url(nb) + ("?lang=fi" if lang == "fi" else ""), ready=ready)
    if ready:
        wait_for_kernel(page)
    page.wait_for_timeout(1500)  # plotly figures drawn
    assert not page_errors(page), page_errors(page)
    everything = axe_all(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    counts = {impact: sum(1 for v in everything if v["impact"] == impact)
              for impact in ("critical", "serious", "moderate", "minor")}
    (ARTIFACTS / f"axe_{lang}_{nb.removesuffix('.ipynb')}.json").write_text(
        json.dumps({"counts": counts, "violations": everything}, indent=1), encoding="utf-8")
    page.screenshot(path=str(ARTIFACTS / f"axe_{lang}_{nb.removesuffix('.ipynb')}.png"), full_page=False)
    found = [v for v in everything if v["impact"] in BLOCKING]
    assert not found, f"{nb} ({lang}): {counts}\n" + describe(found)
