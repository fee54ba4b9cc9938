"""Real browser, offline: one lesson per language opened with ``?lang=`` in the page
address. The template's head script opens the translated notebook (notebooks/<lang>/, markdown translated
too); the language picker then switches the app back to English in place."""

import pytest
from conftest import ARTIFACTS, open_app, page_errors, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]

# (lesson, language, its title there, a control's label there)
CASES = [
    ("up_dividends.ipynb", "fi", "Union Pacificin osingot", "Laskin"),
    ("up_play.ipynb", "hu", "Union Pacific: játssz egy játszmát", "Új játék és beállítások"),
    ("kk_auction.ipynb", "es", "Vom Kap bis Kairo: la subasta", "Entregar puja secreta"),
]


@pytest.mark.parametrize("nb, lang, title, label", CASES)
def test_a_lesson_opens_in_the_language_of_its_address(voila_server, offline_page, nb, lang, title, label):
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 900})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url(nb) + f"?lang={lang}")
    wait_text(page, ".railkit-header", title)
    wait_text(page, ".railkit-app", label)
    assert f"/voila/render/{lang}/{nb}" in page.url  # the teacher's link led to the translated lesson
    heading = page.inner_text("h1").replace("¶", "").strip()  # the lesson's own text, from notebooks/<lang>/
    assert heading == {"fi": "Union Pacific: osingot", "hu": "Union Pacific: játssz egy játszmát",
                       "es": "Vom Kap bis Kairo: la subasta"}[lang], heading
    assert page.input_value(".railkit-language select") == {"fi": "suomi", "hu": "magyar", "es": "español"}[lang]
    assert not page_errors(page), page_errors(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"language_{lang}_{nb.removesuffix('.ipynb')}.png"), full_page=False)
    # The picker switches back to English in place.
    page.select_option(".railkit-language select", label="English")
    wait_text(page, ".railkit-header", {"fi": "Union Pacific dividends", "hu": "Union Pacific: play a game",
                                        "es": "Vom Kap bis Kairo: the auction"}[lang])
    assert not page_errors(page), page_errors(page)
