"""Real browser, offline: one lesson per language opened with ``?lang=`` in the page
address. The template's head script opens the translated notebook (notebooks/<lang>/, markdown translated
too); the language picker then switches the whole lesson back to English, its text too, and a play lesson's kept
game comes along."""

import pytest
from conftest import ARTIFACTS, kk_one_move, open_app, page_errors, same_address, wait_for_address, wait_text, wait_until_idle

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
    # The picker switches the whole lesson back to English: the English notebook, its text too.
    page.select_option(".railkit-language select", label="English")
    wait_for_address(page, f"/voila/render/{nb}")
    wait_text(page, ".railkit-header", {"fi": "Union Pacific dividends", "hu": "Union Pacific: play a game",
                                        "es": "Vom Kap bis Kairo: the auction"}[lang])
    heading = page.inner_text("h1").replace("¶", "").strip()
    assert heading == {"fi": "Union Pacific: dividends", "hu": "Union Pacific: play a game",
                       "es": "Vom Kap bis Kairo: the auction"}[lang], heading
    assert "lang=" not in page.url
    assert not page_errors(page), page_errors(page)


def test_the_picker_switches_the_lesson_text_and_keeps_the_game(voila_server, offline_page):
    """kk_play in English, one bid, then “suomi” in the picker: the Finnish notebook opens (its headings in
    Finnish) with the same ?game= key, and the game comes back where it was."""
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 1600})
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("kk_play.ipynb"))
    wait_text(page, ".railkit-kk-status", "Your move")
    assert kk_one_move(page, 0, bid=3)
    page.wait_for_function("() => new URLSearchParams(location.search).get('game')", timeout=60_000)
    game = page.evaluate("() => new URLSearchParams(location.search).get('game')")
    log_before = page.inner_text(".railkit-kk-log summary")
    english_heading = page.inner_text("h1").replace("¶", "").strip()
    page.select_option(".railkit-language select", label="suomi")
    wait_for_address(page, "/voila/render/fi/kk_play.ipynb", game=game)
    open_app(page, page.url)
    assert same_address(page.url, "/voila/render/fi/kk_play.ipynb", game=game, lang="fi")
    heading = page.inner_text("h1").replace("¶", "").strip()
    assert heading != english_heading and "Kairo" in heading, heading  # the lesson's own text, from notebooks/fi/
    wait_text(page, ".railkit-message", "Pelisi jatkuu")  # the Finnish app says the kept game is back
    n_before = int("".join(ch for ch in log_before if ch.isdigit()) or 0)
    summary = page.inner_text(".railkit-kk-log summary")
    assert int("".join(ch for ch in summary if ch.isdigit()) or 0) == n_before, (log_before, summary)
    assert not page_errors(page), page_errors(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "language_picker_fi_kk_play.png"), full_page=False)
