"""Save and load in both play apps (``railkit.ui.saves``): uploads are limited to 1 MB, checked on the
upload's size before anything is decoded; a broken save gives one plain message and changes nothing."""

import datetime
import json

import pytest

from railkit.game import MAX_SAVE_BYTES
from railkit.ui.capecairo.play import KkPlayApp
from railkit.ui.unionpacific.play import PlayApp


def upload(app, content: bytes, size: int | None = None, name: str = "game.json") -> None:
    """What the browser sends when a file is chosen (the observer loads it at once)."""
    app.saves.upload.value = ({"name": name, "type": "application/json", "size": len(content) if size is None else size,
                               "content": memoryview(content), "last_modified": datetime.datetime.now()},)


def snapshot(app) -> tuple[int, str]:
    return id(app.game), json.dumps(app.game.state_dict(), sort_keys=True)


@pytest.fixture(params=["up", "kk"])
def app(request):
    return PlayApp(seed=1, players=3, game_number=7) if request.param == "up" else KkPlayApp(seed=1)


def test_an_uploaded_save_loads_at_once(app):
    saved = app.saves.on_save()
    other = type(app)(seed=9)
    upload(other, saved.encode("utf-8"))
    assert other.message_kind == "ok" and "Loaded" in other.message_text, other.message_text
    assert snapshot(other)[1] == snapshot(app)[1]
    assert other.saves.upload.value == ()  # cleared: the same file can be chosen again


@pytest.mark.parametrize("content, size, words", [
    (b"{" + b" " * MAX_SAVE_BYTES + b"}", None, "is 1,000,002 bytes; a saved game is at most 1 MB (1,000,000 bytes)"),
    (b"\xff\xfe not even text", 5_000_000, "is 5,000,000 bytes"),  # the size alone refuses it: nothing is decoded
    (b"\xff\xfe\x00 not text", None, "not text"),
    (b"", None, "empty"),
    (b'{"format": "railkit-game"', None, "cut off"),
    (b'{"format": "railkit-session", "version": 1, "seats": {"humans": ["Nobody"]}, "game": {}}', None,
     "not a railkit saved game"),
])
def test_a_broken_or_too_big_upload_changes_nothing(app, content, size, words):
    before = snapshot(app)
    upload(app, content, size)
    assert app.message_kind == "error" and words in app.message_text, app.message_text
    assert "Nothing was changed" in app.message_text
    assert app.message_text.lower().count("cannot be loaded") <= 1
    assert snapshot(app) == before


def test_pasted_text_longer_than_a_save_is_refused_before_parsing(app):
    before = snapshot(app)
    app.saves.area.value = "x" * (MAX_SAVE_BYTES + 10)
    assert app.saves.on_load() is None
    assert app.message_kind == "error" and "has 1,000,010 characters; a saved game has at most 1 MB" in app.message_text
    assert snapshot(app) == before


def test_a_save_naming_a_data_file_is_refused(app):
    data = json.loads(app.saves.on_save())
    data["game"]["options"]["board" if isinstance(app, PlayApp) else "deck"] = "/etc/passwd"
    before = snapshot(app)
    upload(app, json.dumps(data).encode("utf-8"))
    assert app.message_kind == "error" and "names a file on the computer" in app.message_text
    assert snapshot(app) == before


def test_the_limit_is_stated_next_to_the_buttons(app):
    assert "at most 1 MB" in app.saves.widget.children[0].children[0].value


def test_a_file_over_the_limit_refused_by_the_page_gets_the_same_words(app):
    """The page checks ``file.size`` before sending (a file over the server's 10 MiB
    message limit would close the connection); it reports the name and size, and the learner reads the same
    refusal as for a 1-10 MB file the kernel received."""
    assert "railkit-max-bytes-1000000" in app.saves.upload._dom_classes
    before = snapshot(app)
    upload(app, b"{}", size=5_000_000)
    received = app.message_text
    app.clear_message()
    app.saves.limit.refuse("game.json", 5_000_000)
    assert app.message_kind == "error" and app.message_text == received
    assert snapshot(app) == before
    app.saves.limit.refuse("huge.json", 50 * 2**20)
    assert "is 52,428,800 bytes; a saved game is at most 1 MB" in app.message_text


@pytest.mark.parametrize("report", ["", "not json", "[1]", '{"name": 3, "size": 5}', '{"name": "a", "size": -1}',
                                    '{"name": "a", "size": true}', '{"name": "a", "size": 5' + " " * 3000 + "}"])
def test_a_malformed_report_from_the_page_is_ignored(app, report):
    app.clear_message()
    app.saves.limit.box.value = report
    assert app.message_kind == ""
