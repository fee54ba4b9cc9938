"""Real browser, offline: a club plays the building lesson (up_building) on its own board.

The shared Voila server takes no environment variables, so the board arrives the way a learner brings
it: “Use your club's board” with ``railkit/data/union_pacific/example_board.json``. A broken file is
refused first (nothing changes); the good one restarts the lesson on it, and one train is placed there.
(The teacher's ``RAILKIT_UP_BOARD`` is covered headless in ``tests/ui/test_club_files.py``.)
"""

import json

import pytest
from conftest import ARTIFACTS, open_app, page_errors, painted, wait_text, wait_until_idle

from railkit.paths import data_dir

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]

EXAMPLE = data_dir() / "union_pacific" / "example_board.json"
UPLOAD = ".railkit-club-upload"  # ipywidgets' upload button: its file input is not in the page


def choose_file(page, path) -> None:
    with page.expect_file_chooser() as chooser:
        page.click(UPLOAD)
    chooser.value.set_files(str(path))


def test_building_on_a_club_board_offline(voila_server, offline_page, tmp_path):
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 1400})
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("up_building.ipynb"))
    page.wait_for_selector(".railkit-figure .js-plotly-plot", timeout=30000)
    page.click(".railkit-club :text('Use your club')")  # the closed box at the bottom

    # A broken board is refused in words naming the item; the lesson stays on the built-in board.
    broken = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    broken["companies"][1]["trains"] = 5  # UP-C1: red has 19
    bad = tmp_path / "our_board.json"
    bad.write_text(json.dumps(broken), encoding="utf-8")
    choose_file(page, bad)
    wait_text(page, ".railkit-message", "is not a board railkit can use")
    message = page.inner_text(".railkit-message")
    assert "company 'BNL'" in message and "UP-C1" in message and "Nothing was changed." in message
    assert page.locator(".railkit-section select option").count() > 100  # still the built-in map

    # The example board: the lesson starts again on it and says so.
    choose_file(page, EXAMPLE)
    wait_text(page, ".railkit-message", "Playing on example_board.json (your club's board).")
    wait_text(page, ".railkit-club-banner-box", "Playing on example_board.json")
    assert page.locator(".railkit-section select option").count() == 16  # 15 sections + “pick a section”
    wait_text(page, ".railkit-figure:has(.js-plotly-plot)", "your club's board")  # the map's note, instead of “reconstruction”

    # One step of building on it: company, card, a legal section, place the train.
    page.select_option(".railkit-company select", label="El Paso & Rio Grande (green)")
    page.click(".railkit-card button:text-is('General')")
    wait_text(page, ".railkit-legal", "legal sections for the El Paso & Rio Grande")
    legal = page.eval_on_selector_all(".railkit-section select option",
                                      "opts => opts.map(o => o.textContent).filter(t => t.startsWith('✔'))")
    assert legal, "the example board offers the green company a legal section"
    page.select_option(".railkit-section select", label=legal[0])
    section = legal[0].replace("\xa0", " ").removeprefix("✔ ").split(" · ")[0]  # the list shows no-break spaces
    wait_text(page, ".railkit-checklist-box", section)  # the checklist of the chosen section
    page.click(".railkit-place")
    try:
        wait_text(page, ".railkit-message", f"now runs on {section}", timeout=30000)
    finally:
        page.screenshot(path=str(ARTIFACTS / "up_building_club_board_placed.png"), full_page=False)
    assert "now runs on" in page.inner_text(".railkit-message"), page.inner_text(".railkit-message")
    assert page_errors(page) == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator(".railkit-app").first.evaluate("el => el.scrollIntoView({block: 'start'})")
    painted(page)
    page.screenshot(path=str(ARTIFACTS / "up_building_club_board.png"), full_page=False)
