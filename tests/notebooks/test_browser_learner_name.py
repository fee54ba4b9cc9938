"""Real browser, offline: the learner named once. The index opened with ``?name=Aino`` fills
its “Your name” field; a lesson link (the index's own list, and the link row the field writes) carries
``?name=Aino`` to kk_play and up_play, and each lesson seats and shows Aino."""

import pytest
from conftest import ARTIFACTS, fill, open_app, page_errors, wait_for_address, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=False)


def test_the_name_typed_once_travels_to_every_lesson(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 900})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("index.ipynb") + "?name=Aino")
    wait_text(page, ".railkit-index-links", "Links for Aino")  # the preheated kernel heard the address
    assert page.input_value(".railkit-learner-name input") == "Aino"
    shot(page, "index_learner_name.png")

    # The index's own list (markdown): the template's script carries the name onto the link.
    link = page.locator("a[href*='kk_play.ipynb']:not(.railkit-lesson-link)").first
    link.hover()
    assert link.get_attribute("href").endswith("kk_play.ipynb?name=Aino")
    link.click()
    wait_for_address(page, "kk_play.ipynb", name="Aino")
    page.wait_for_selector(".railkit-app", state="visible", timeout=90000)
    wait_text(page, ".railkit-kk-players", "Aino")
    assert page.input_value(".railkit-kk-name input") == "Aino"
    assert "You (you)" not in page.inner_text(".railkit-kk-players")
    page.locator(".railkit-kk-seat").scroll_into_view_if_needed()
    shot(page, "kk_play_learner_name.png")
    assert page_errors(page) == []

    # Back on the index, the link row the field writes leads to up_play with the name.
    page.go_back()
    page.wait_for_selector(".railkit-index-links a", state="visible", timeout=90000)
    wait_text(page, ".railkit-index-links", "Links for Aino")
    up_link = page.locator(".railkit-index-links a[href^='up_play.ipynb']")
    assert up_link.get_attribute("href") == "up_play.ipynb?name=Aino"
    up_link.click()
    wait_for_address(page, "up_play.ipynb", name="Aino")
    page.wait_for_selector(".railkit-app", state="visible", timeout=90000)
    wait_text(page, ".railkit-players-panel", "Aino")
    wait_text(page, ".railkit-status", "choose a first share")
    assert page.input_value(".railkit-name input") == "Aino"
    shot(page, "up_play_learner_name.png")

    # Lesson to lesson: a link on up_play to another lesson keeps the name (the index link drops nothing).
    back = page.locator("a[href*='index.ipynb']").first
    back.hover()
    assert back.get_attribute("href").endswith("index.ipynb?name=Aino")
    assert page_errors(page) == []


def test_a_name_typed_on_the_index_is_kept_in_its_address_for_back_and_reload(voila_server, offline_page):
    """A learner types their name on the index, opens a lesson, comes Back (or reloads): the index still has the name
    (the template writes it into the index's own address), so the next lesson's link carries it too."""
    page = offline_page.page
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("index.ipynb"))
    fill(page, ".railkit-learner-name", "Eero")
    page.click(".railkit-use-name")
    wait_text(page, ".railkit-index-links", "Links for Eero")
    wait_for_address(page, "index.ipynb", name="Eero")
    page.reload()
    page.wait_for_selector(".railkit-app", state="visible", timeout=90000)
    wait_text(page, ".railkit-index-links", "Links for Eero")
    assert page.input_value(".railkit-learner-name input") == "Eero"
    assert page.get_attribute(".railkit-index-links a[href^='kk_play.ipynb']", "href") == "kk_play.ipynb?name=Eero"
    assert page_errors(page) == []
