"""“My progress” in real Chromium pages (RECORDS-KEY): Voila serves the auction lesson with ``RAILKIT_TABLES_URL``
pointing at a real table server process, as ``make run`` does. Kim and Ann, each in a browser of their own with
their name in the page address, answer the exercise; the page address takes each one's progress key; each opens
“My progress” and sees exactly their own records. Ann typing Kim's name sees a refusal and none of his rows; Kim
coming back by his name alone, in his own browser, sees his again (the key kept in the browser).

Screenshot: tests/artifacts/my_progress.png.
"""

from __future__ import annotations

import pytest
from axe_check import assert_clean, in_every_language
from conftest import (
    ARTIFACTS,
    Server,
    open_app,
    shot,
    wait_text,
)
from tables_client import ServerProcess, call
from test_browser_teacher import answer_quiz, quiz_pages, tables, voila  # noqa: F401 - fixtures (Voila serving kk_auction beside a table server)

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("teacher")]

ROWS = ".railkit-my-progress .railkit-my-progress-row"


def progress_key_in_address(page) -> str:
    """Wait until the template has put the learner's progress key into the page address; the key."""
    page.wait_for_function("() => new URLSearchParams(window.location.search).get('progress')")
    return str(page.evaluate("() => new URLSearchParams(window.location.search).get('progress')"))


def open_progress(page, words: str) -> str:
    """Open “My progress” and wait until it shows ``words``; its text."""
    page.click(".railkit-my-progress-toggle")
    wait_text(page, ".railkit-my-progress", words)
    return str(page.inner_text(".railkit-my-progress"))


def records_of(server: ServerProcess, key: str, name: str) -> int:
    status, out = call("GET", f"http://127.0.0.1:{server.port}/api/records?learner={name}",
                       headers={"X-Railkit-Teacher-Key": key})
    assert status == 200, out
    return int(out["total"])


def test_RECORDS_KEY_two_learners_each_see_only_their_own_records(
        browser, voila: Server, tables: tuple[ServerProcess, str]) -> None:  # noqa: F811
    server, teacher_key = tables
    pages = quiz_pages(browser, voila, ("Kim", "Ann"))
    kim, ann = pages["Kim"][1], pages["Ann"][1]
    engine = answer_quiz(kim, None)
    if "✘" not in kim.inner_text(".railkit-kk-quiz-feedback"):  # right at once: one wrong on purpose too
        answer_quiz(kim, list(reversed(engine)))
    answer_quiz(kim, engine)
    answer_quiz(ann, None)
    keys = {name: progress_key_in_address(page) for name, (_c, page) in pages.items()}
    assert keys["Kim"] != keys["Ann"]

    # Closed until opened; then each learner's rows, as many as the server holds for them, and no one else's.
    assert not kim.locator(".railkit-my-progress").is_visible()
    seen = {}
    for name, (_context, page) in pages.items():
        shown = open_progress(page, "These are your own records")
        seen[name] = page.locator(ROWS).count()
        assert seen[name] == records_of(server, teacher_key, name), shown
    assert seen["Kim"] >= 3 and seen["Ann"] == 2  # opened + Kim's wrong and right answers; opened + Ann's answer
    assert "KK-A5 ×1" in kim.inner_text(".railkit-my-progress")
    shot(kim, ARTIFACTS / "my_progress.png")
    assert_clean(kim, "my_progress")
    kim.set_viewport_size({"width": 390, "height": 844})
    assert_clean(kim, "my_progress_phone")
    in_every_language(kim, "my_progress")  # the lesson switched in place: My progress stays open, translated
    kim.set_viewport_size({"width": 1280, "height": 1600})

    # Ann types Kim's name into the address: no key for it in her browser: the refusal, none of Kim's rows.
    open_app(ann, voila.url("kk_auction.ipynb?name=Kim"))
    shown = open_progress(ann, "progress key")
    assert ann.locator(ROWS).count() == 0 and "KK-A5" not in shown, shown
    # ... with her own key beside his name: refused as well.
    open_app(ann, voila.url(f"kk_auction.ipynb?name=Kim&progress={keys['Ann']}"))
    shown = open_progress(ann, "Kim")
    assert ann.locator(ROWS).count() == 0 and "KK-A5" not in shown, shown

    # Kim comes back by his name alone in his own browser: the key it kept opens his records again.
    open_app(kim, voila.url("kk_auction.ipynb?name=Kim"))
    assert progress_key_in_address(kim) == keys["Kim"]
    open_progress(kim, "These are your own records")
    assert kim.locator(ROWS).count() == records_of(server, teacher_key, "Kim")
    for context, _page in pages.values():
        context.close()
