"""axe-core on every lesson: no critical or serious accessibility violation in a lesson's first state, in English and,
switched in the page (one page load per lesson; tests/axe_check.py), in Finnish, Hungarian and Spanish. axe-core is
pinned in tests/a11y (tests/axe_check.py). The states the other browser tests play to (a deal's cards, a table, the
teacher's room, My progress) are checked there, with the same ``assert_clean``."""

import pytest
from axe_check import assert_clean, in_every_language
from conftest import (
    ARTIFACTS,
    NOTEBOOKS_DIR,
    has_app,
    notebook_ids,
    open_app,
    page_errors,
    painted,
    shot,
    wait_for_kernel,
    wait_until_idle,
)

from railkit.lessons import LAB_NOTEBOOKS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("voila")]


@pytest.mark.parametrize("nb", notebook_ids())
def test_a_lesson_has_no_serious_accessibility_violation_in_any_language(voila_server, offline_page, nb):
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    ready = ".railkit-app" if has_app(NOTEBOOKS_DIR / nb) else None  # the rulings page is text only
    open_app(page, voila_server.url(nb), ready=ready)
    if ready:
        wait_for_kernel(page)
    painted(page)  # what the kernel sent is laid out and painted before axe looks at the page
    assert not page_errors(page), page_errors(page)
    name = nb.removesuffix(".ipynb")
    assert_clean(page, f"en_{name}")
    if ready:
        shot(page, f"axe_en_{name}.png")  # the app at its top, to look at the colours
        in_every_language(page, name)
        shot(page, f"axe_es_{name}.png")
    else:  # the rulings page: text only, translated as a page of its own
        page.screenshot(path=str(ARTIFACTS / f"axe_en_{name}.png"), full_page=False)
        # A lab notebook's page runs a small ladder each time (its translations are not preheated): its English page
        # is checked here, its translations' text by test_nb_i18n.py (the same widgets, other words).
        for code in () if name in LAB_NOTEBOOKS else ("fi", "hu", "es"):
            open_app(page, voila_server.url(f"{code}/{nb}"), ready=None)
            painted(page)
            assert_clean(page, f"{code}_{name}")


FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  return {tag: el.tagName, cls: el.className, width: parseFloat(style.outlineWidth), style: style.outlineStyle,
          colour: style.outlineColor, modebar: !!el.closest('.modebar')};
}"""


def test_the_keyboard_focus_is_visible_and_skips_the_map_toolbars(voila_server, offline_page):
    """Keyboard users see where they are: every control reached with Tab shows a ring of at least 2 px (the template's 3 px
    near-black ring); the plotly toolbars (6 buttons per map) are not in the Tab order."""
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("up_play.ipynb"))
    wait_for_kernel(page)
    page.wait_for_selector(".railkit-figure .modebar-btn", state="attached", timeout=60000)
    # the template marks toolbar buttons every 0.5 s: wait until it has marked them all
    page.wait_for_function("() => [...document.querySelectorAll('.modebar-btn')].every(b => b.tabIndex === -1)",
                           timeout=60000)
    assert page.evaluate("() => [...document.querySelectorAll('.modebar-btn')].every(b => b.tabIndex === -1)")
    page.locator(".railkit-app").first.evaluate("el => el.scrollIntoView({block: 'start'})")
    seen = []
    for _ in range(25):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED_JS)
        if focused is None:
            continue
        seen.append(focused)
        assert not focused["modebar"], focused
        assert focused["style"] != "none" and focused["width"] >= 2, focused
        if focused["tag"] == "BUTTON" and len(seen) >= 4:
            break
    assert any(f["tag"] == "BUTTON" for f in seen), seen
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "axe_focus_up_play.png"), full_page=False)
