"""Real browser: every lesson app fits a laptop (1366×768), a tablet (768×1024) and a phone (390×844), in English
and Finnish, and no label or button cuts its words short (a translation is often longer than the English).

Nothing in a lesson may stick out past the right edge of the screen, where a learner would have to scroll the
whole page sideways or could not reach it at all: no control, table or text. A wide thing that scrolls inside
its own box (the Kap bis Kairo race on a phone) is allowed; plotly draws its maps inside an SVG it sizes itself.
One page per lesson and language, resized from laptop to phone; screenshots of each in tests/artifacts/screens/.
"""

import pytest
from conftest import ARTIFACTS, make_offline_page, notebooks, open_app, page_errors, painted, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]

SIZES = {"laptop": {"width": 1366, "height": 768}, "tablet": {"width": 768, "height": 1024},
         "phone": {"width": 390, "height": 844}}
LESSONS = [nb.stem for nb in notebooks() if nb.stem not in ("index", "rulings")]

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
        assert page_errors(page) == []
    finally:
        context.close()
    assert not blocked
