"""Real browser, offline: a file over an upload's limit is refused by the page before it is sent.
ipywidgets sends a chosen file whole in one websocket message, and one over the server's 10 MiB
message limit used to close the connection without a word; railkit's template checks ``file.size`` first and
the lesson says what it says for a 1-10 MB file it received (``railkit.ui.upload_limit``)."""

import pytest
from conftest import open_app, page_errors, wait_for_kernel, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("voila")]

UPLOAD = ".railkit-club-upload"


def choose_file(page, path) -> None:
    with page.expect_file_chooser() as chooser:
        page.click(UPLOAD)
    chooser.value.set_files(str(path))


def test_a_club_file_over_the_limit_is_refused_before_it_is_sent(voila_server, offline_page, tmp_path):
    page = offline_page.page
    sent: list[int] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(len(payload))))
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("up_building.ipynb"))
    page.click(".railkit-club :text('Use your club')")
    for size in (12 * 2**20, 2_000_000):  # over the server's message limit, and over railkit's
        big = tmp_path / f"board_{size}.json"
        big.write_bytes(b" " * size)
        choose_file(page, big)
        wait_text(page, ".railkit-message", f"is {size:,} bytes; a board file is at most 1,000,000 bytes")
        assert "Nothing was changed." in page.inner_text(".railkit-message")
        assert not sent or max(sent) < 100_000  # the file never went to the kernel
    wait_for_kernel(page)  # the lesson still answers: the connection is open
    assert sent, "the page talked to its kernel over a websocket"
    assert page_errors(page) == []
