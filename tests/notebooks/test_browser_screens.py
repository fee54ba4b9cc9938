"""Real browser: every lesson app fits a laptop (1366×768), a tablet (768×1024) and a phone (390×844), in English
and Finnish, and no label or button cuts its words short (a translation is often longer than the English).

Nothing in a lesson may stick out past the right edge of the screen, where a learner would have to scroll the
whole page sideways or could not reach it at all: no control, table or text; on a phone, nor out of the box around
it, which would cut it off (the table's “Your turn” once lost its right border so). A wide thing that scrolls inside
its own box is allowed, but the Kap bis Kairo race fits whole (eight cells, no sideways swipe in its box);
plotly draws its maps inside an SVG it sizes itself.
One page per lesson and language, resized from laptop to phone; screenshots of each in tests/artifacts/screens/
(with ``RAILKIT_SHOTS_DIR=/some/folder`` also a tall phone screenshot of each, 390 px wide, to look at).
The Kap bis Kairo auction is checked at 390×844 after a bid too: its reveal table stacks, no heading squeezed.
"""

import os
from pathlib import Path

import pytest
from conftest import (
    ARTIFACTS,
    cut_by_its_box,
    make_offline_page,
    notebooks,
    open_app,
    page_errors,
    painted,
    wait_text,
    wait_until_idle,
)

from railkit.lessons import LAB_NOTEBOOKS

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]

SIZES = {"laptop": {"width": 1366, "height": 768}, "tablet": {"width": 768, "height": 1024},
         "phone": {"width": 390, "height": 844}}
# The strategy lab's notebooks are code lessons, not apps (no .railkit-app): test_nb_browser.py opens them.
LESSONS = [nb.stem for nb in notebooks() if nb.stem not in ("index", "rulings", *LAB_NOTEBOOKS)]

# Elements of the app whose right edge lies past the screen's, unless a box around them scrolls or clips them.
STICKING_OUT_JS = """() => {
  const edge = document.documentElement.clientWidth + 1;
  const clipped = (el) => {
    for (let p = el.parentElement; p && !p.classList.contains('railkit-app'); p = p.parentElement) {
      const x = getComputedStyle(p).overflowX;
      if (x === 'auto' || x === 'scroll' || x === 'hidden') return true;
    }
    return false;
  };
  const found = [];
  for (const el of document.querySelectorAll('.railkit-app *')) {
    if (el.closest('svg') || el.offsetParent === null) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > edge && !clipped(el))
      found.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(-1)[0]} ends at ${Math.round(r.right)} px`);
  }
  const cut = [...document.querySelectorAll('.railkit-app button, .railkit-app .widget-label, .railkit-app label')]
    .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
    .map((el) => `"${el.innerText.trim().slice(0, 40)}" shows ${el.clientWidth} of ${el.scrollWidth} px`);
  return {page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          found: found.slice(0, 10), cut: cut.slice(0, 10)};
}"""


@pytest.mark.parametrize("lang", ["en", "fi"])
@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lesson_fits_a_tablet_and_a_phone(voila_server, browser, lesson, lang):
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    context, page, blocked = make_offline_page(browser, SIZES["laptop"])
    try:
        path = f"{lesson}.ipynb" if lang == "en" else f"{lang}/{lesson}.ipynb"
        open_app(page, voila_server.url(path))
        (ARTIFACTS / "screens").mkdir(parents=True, exist_ok=True)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            painted(page)
            page.locator(".railkit-app").first.evaluate("el => el.scrollIntoView({block: 'start'})")
            painted(page)
            page.screenshot(path=str(ARTIFACTS / "screens" / f"{lang}_{lesson}_{size}.png"))
            result = page.evaluate(STICKING_OUT_JS)
            assert result["page"] == 0, f"{size}: the page scrolls sideways by {result['page']} px"
            assert result["found"] == [], f"{size}: past the right edge of the screen: {result['found']}"
            assert result["cut"] == [], f"{size}: words cut short: {result['cut']}"
            if size == "phone":  # WCAG 1.4.10 at 390 px: nothing cut off by the box around it
                assert cut_by_its_box(page) == [], f"{size}: cut off by the box around it: {cut_by_its_box(page)}"
            swipes = page.evaluate("() => [...document.querySelectorAll('.kk-race-box')]"
                                   ".map((box) => box.scrollWidth - box.clientWidth)")
            assert all(extra <= 1 for extra in swipes), f"{size}: the race needs a sideways swipe of {swipes} px"
        long_shot(page, f"{lang}_{lesson}_phone_long.png")
        assert page_errors(page) == []
    finally:
        context.close()
    assert not blocked


def long_shot(page, name: str) -> None:
    """With ``RAILKIT_SHOTS_DIR``: the lesson 390 px wide on a tall screen, to look at (nothing is checked)."""
    folder = os.environ.get("RAILKIT_SHOTS_DIR")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 390, "height": 3000})
    painted(page)
    page.locator(".railkit-app").first.evaluate("el => el.scrollIntoView({block: 'start'})")
    painted(page)
    for part in range(3):  # in parts of 1000 px, each readable at its own size
        page.screenshot(path=str(Path(folder) / name.replace(".png", f"_{part + 1}.png")),
                        clip={"x": 0, "y": part * 1000, "width": 390, "height": 1000})
    page.set_viewport_size(SIZES["phone"])


# Lines of text in each visible cell of the reveal table (a heading squeezed into a narrow column takes many).
REVEAL_LINES_JS = """() => [...document.querySelectorAll('.railkit-kk-reveal table.kk-reveal :is(th, td)')]
  .filter((el) => el.offsetParent !== null && el.innerText.trim())
  .map((el) => { const range = document.createRange(); range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return [el.innerText.trim().slice(0, 40), tops.size, Math.round(el.getBoundingClientRect().width)]; })"""


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_the_auction_reveal_fits_a_phone(voila_server, browser, lang):
    """kk_auction after a bid, at 390×844: the reveal stacks one block per player, each value after its heading
    (no heading squeezed into a column a word wide), and nothing sticks out or is cut short."""
    wait_until_idle(voila_server)
    context, page, blocked = make_offline_page(browser, SIZES["phone"], has_touch=True, is_mobile=True)
    try:
        open_app(page, voila_server.url("kk_auction.ipynb" if lang == "en" else f"{lang}/kk_auction.ipynb"))
        wait_text(page, ".railkit-kk-offer", "(KK-A1)")
        page.locator(".railkit-kk-bid input").fill("25")
        page.locator(".railkit-kk-bid input").press("Enter")
        wait_text(page, ".railkit-kk-reveal", "75")
        page.locator(".railkit-kk-reveal").first.evaluate("el => el.scrollIntoView({block: 'start'})")
        painted(page)
        (ARTIFACTS / "screens").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "screens" / f"{lang}_kk_auction_reveal_phone.png"))
        cells = page.evaluate(REVEAL_LINES_JS)
        assert len(cells) >= 3 * 4  # three players, four values or more each
        squeezed = [cell for cell in cells if cell[1] > 2]
        assert squeezed == [], f"reveal cells that wrap into more than two lines: {squeezed}"
        result = page.evaluate(STICKING_OUT_JS)
        assert result["page"] == 0, f"the page scrolls sideways by {result['page']} px"
        assert result["found"] == [] and result["cut"] == [], result
        long_shot(page, f"{lang}_kk_auction_reveal_phone_long.png")
        assert page_errors(page) == []
    finally:
        context.close()
    assert not blocked
