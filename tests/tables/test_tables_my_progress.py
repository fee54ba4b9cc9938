"""“My progress” in a lesson, headless, against a real table server process (RECORDS-KEY): closed until the learner
opens it; then their own records only. The kernel keeps the progress key the server gave with the first record;
another kernel needs it in the page address; another learner's key or none shows the refusal in words, never
the records. No class server: no section."""

from __future__ import annotations

import html
import re

import pytest
from tables_client import ServerProcess
from test_tables_records_lessons import answer_rounds, fresh_kernel, server  # noqa: F401 - fixtures

from railkit.ui.capecairo.auction import KkAuctionApp
from railkit.ui.i18n import set_language
from railkit.ui.records import lesson_record
from railkit.ui.records.my_progress import MyProgress

pytestmark = pytest.mark.server


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def new_kernel(monkeypatch: pytest.MonkeyPatch, query: str) -> None:
    """A new lesson kernel (nothing sent, no key kept) on a page with address ``query``."""
    for name in ("_visits", "_right", "_hints", "_keys"):
        monkeypatch.setattr(lesson_record, name, {})
    for name in ("_opened", "_finished"):
        monkeypatch.setattr(lesson_record, name, set())
    monkeypatch.setenv("QUERY_STRING", query)


def opened(app: KkAuctionApp) -> tuple[MyProgress, str]:
    section = app._my_progress
    assert isinstance(section, MyProgress)
    if not section.shown:
        section.on_toggle()
    return section, text(section.body.value)


def rows(section: MyProgress) -> int:
    return section.body.value.count("railkit-my-progress-row")


def test_RECORDS_KEY_my_progress_shows_the_learners_own_records_only(
        server: tuple[ServerProcess, str], monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    new_kernel(monkeypatch, "name=Kim&lang=en")
    kim_app = KkAuctionApp(seed=5)
    section = kim_app._my_progress
    assert isinstance(section, MyProgress) and section.widget in kim_app.widget.children
    assert not section.shown and section.inner.layout.display == "none" and section.body.value == ""  # closed
    answer_rounds(kim_app, [True, False])
    assert lesson_record.wait_sent()
    kim_key = lesson_record.progress_key("Kim")
    assert kim_key and f"data-key='{kim_key}'" in section.key_mark.value  # for the template: address and storage
    section, shown = opened(kim_app)
    assert rows(section) == 4, shown  # opened, a right answer, a wrong one, the same question right
    assert "KK: The auction" in shown and "KK-A5" in shown and "1 of 2 exercises" in shown, shown
    assert "other learners cannot see them" in shown

    new_kernel(monkeypatch, "name=Ann&lang=en")  # Ann, on another page
    ann_app = KkAuctionApp(seed=6)
    answer_rounds(ann_app, [True])
    assert lesson_record.wait_sent()
    ann_key = lesson_record.progress_key("Ann")
    assert ann_key and ann_key != kim_key
    section, shown = opened(ann_app)
    assert rows(section) == 2 and "KK-A5 ×1" not in shown and "1 of 1 exercise" in shown, shown

    # Ann types Kim's name (a kernel that got no key for it): the refusal, none of Kim's records.
    new_kernel(monkeypatch, "name=Kim&lang=en")
    stranger = KkAuctionApp(seed=7)
    assert lesson_record.wait_sent()
    section, shown = opened(stranger)
    assert rows(section) == 0 and "only with your progress key" in shown and "KK-A5 ×1" not in shown, shown
    new_kernel(monkeypatch, f"name=Kim&progress={ann_key}&lang=en")  # ... with her own key in the address
    section, shown = opened(KkAuctionApp(seed=7))
    assert rows(section) == 0 and "is not the one of “Kim”" in shown, shown
    # Kim's next lesson page: the key came in the address (the template carries it with the name).
    new_kernel(monkeypatch, f"name=Kim&progress={kim_key}&lang=en")
    section, shown = opened(KkAuctionApp(seed=8))
    # Kim's records; this page's opening, less than SAME_OPENING_SECONDS after Kim's first, is the same opening
    assert rows(section) == 4 and "KK-A5 ×1" in shown, shown
    section.on_toggle()
    assert section.inner.layout.display == "none" and section.body.value == ""


def test_RECORDS_KEY_my_progress_speaks_the_learners_language(server: tuple[ServerProcess, str],  # noqa: F811
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    new_kernel(monkeypatch, "name=Kim&lang=en")
    app = KkAuctionApp(seed=5)
    answer_rounds(app, [False])
    assert lesson_record.wait_sent()
    try:
        for language, words in (("fi", "Oma edistymiseni"), ("hu", "Az előrehaladásom"), ("es", "Mi progreso")):
            set_language(language)
            app.relanguage()
            section, shown = opened(app)
            assert words in section.toggle.description, section.toggle.description
            assert "Lessons you opened" not in shown and "KK-A5" in shown, shown
    finally:
        set_language("en")


def test_RECORDS_KEY_no_class_server_no_progress_section(fresh_kernel: None,  # noqa: F811
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAILKIT_TABLES_URL", raising=False)
    monkeypatch.setenv("QUERY_STRING", "name=Kim")
    app = KkAuctionApp(seed=5)
    assert app._my_progress is None
    assert not any("railkit-my-progress-section" in getattr(w, "_dom_classes", ()) for w in app.widget.children)
