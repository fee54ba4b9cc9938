"""A learner with a screen reader at a class table: a whole Vom Kap bis Kairo game, and a Union Pacific game to its
first payout (UP-D1), each against computer players, in real Chromium with the session's Voila and table server.

The learner (``Listener``) never uses the mouse, a CSS selector or the text on screen. They find controls as a screen
reader does, by role and accessible name (Playwright's ``get_by_role``; ``focus()`` is the screen reader's jump to a
control), act with the keyboard, know where the focus is from Chromium's accessibility tree (the focused element's
role and name, through the DevTools protocol), and learn what happened only from the announcements: the page's
``log`` region (``railkit.ui.tables.table_announce``). So the test fails if a move is not announced, if the turn or the end
is not said, if Enter does not hand in a bid or make a move, or if the focus does not go to the seat's move when its
turn begins (WCAG 4.1.3, 2.1.1, 2.4.3). A trusted pointer event anywhere on the page fails it too.

The announcements' region is one element for the whole game: it is never rebuilt (checked by identity at the end).
"""

from __future__ import annotations

import time

import pytest
from conftest import ARTIFACTS, STEP_DEADLINE_MS, Server, make_offline_page

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("tables")]

LOG = "Announcements from the table"
MOVE_CONTROLS = {("spinbutton", "Your sealed bid"), ("combobox", "Your move")}
STORY = ("region", "At the table")
MOST_STEPS = 400  # the learner's moves and waits: a whole KK game takes about 40 moves of theirs
# Trusted pointer events (a real mouse or touch) counted from the page's start; the keyboard never makes one.
POINTERS_JS = """() => {
  window.__railkitPointers = 0;
  for (const kind of ['pointerdown', 'mousedown', 'touchstart'])
    document.addEventListener(kind, (e) => { if (e.isTrusted) window.__railkitPointers += 1; }, true);
}"""


class Listener:
    """The learner: roles and names, the keyboard, the focused element from the accessibility tree, and the log."""

    def __init__(self, page) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.heard: list[str] = []

    def control(self, role: str, name: str):
        return self.page.get_by_role(role, name=name)

    def jump(self, role: str, name: str) -> None:
        """Go to a control by its role and name (a screen reader's list of controls), waiting for it to be shown."""
        found = self.control(role, name).first
        found.wait_for(state="visible", timeout=STEP_DEADLINE_MS)
        found.focus()

    def press(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)

    def focus(self) -> tuple[str, str, object, dict] | None:
        """The focused element as the accessibility tree gives it: role, name, value and properties (None: the page
        itself, or an element no longer in the tree)."""
        found = self.cdp.send("Runtime.evaluate", {"expression": "document.activeElement"})
        handle = found["result"].get("objectId")
        if handle is None:
            return None
        node = self.cdp.send("Accessibility.getPartialAXTree", {"objectId": handle, "fetchRelatives": False})["nodes"][0]
        self.cdp.send("Runtime.releaseObject", {"objectId": handle})
        role = node.get("role", {}).get("value")
        if node.get("ignored") or role in (None, "RootWebArea", "generic", "none"):
            return None
        props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
        return str(role), str(node.get("name", {}).get("value", "")), node.get("value", {}).get("value"), props

    def news(self) -> list[str]:
        """Everything announced so far."""
        log = self.control("log", LOG)
        return log.get_by_role("paragraph").all_inner_texts() if log.count() else []

    def hear(self, words: str = "", timeout: float = STEP_DEADLINE_MS / 1000) -> list[str]:
        """Wait for new announcements (one containing ``words``, when given); return the new ones."""
        deadline = time.monotonic() + timeout
        while True:
            news = self.news()
            assert len(news) >= len(self.heard), "the announcements' region lost some (it keeps a whole game's)"
            new = news[len(self.heard):]
            if new and (not words or any(words in line for line in new)):
                self.heard = news
                return new
            if time.monotonic() > deadline:
                raise AssertionError(f"not announced within {timeout:.0f} s: {words or 'anything'}; "
                                     f"heard last: {news[-6:]}; the focus is on {self.focus()}")
            time.sleep(0.1)

    def settle(self, want: set[tuple[str, str]] | None = None, timeout: float = 30) -> tuple:
        """Where the focus rests: on an element (not the page itself), the same twice 0.2 s apart (``want``: wait
        until it is one of those)."""
        deadline, last = time.monotonic() + timeout, object()
        while True:
            now = self.focus()
            spot = (now[0], now[1]) if now else None
            if now is not None and spot == last and (want is None or spot in want):
                return now
            if time.monotonic() > deadline:
                raise AssertionError(f"the focus rests on {now}, not on one of {want}; heard last: {self.news()[-4:]}")
            last = spot
            time.sleep(0.2)


def open_lesson(reader: Listener, voila: Server, lesson: str) -> None:
    reader.page.add_init_script(f"({POINTERS_JS})()")
    reader.page.goto(voila.url(lesson))
    if lesson.startswith("kk"):  # a tab of the lesson; the tab bar is one Tab stop, Enter opens the tab
        reader.jump("tab", "Play with others")
        reader.press("Enter")
    else:  # a section that opens with Enter
        reader.jump("button", "Play with others")
        reader.press("Enter")


def create_table(reader: Listener, players: int, computers: int) -> None:
    reader.jump("textbox", "Your name")
    reader.page.keyboard.type("Ann")
    reader.jump("combobox", "Players")
    reader.press(str(players))  # a list takes the typed first letter
    reader.jump("combobox", "Computer players")
    reader.press(str(computers))
    reader.jump("button", "Create a table")
    reader.press("Enter")


def play(reader: Listener, until: str, bid: int) -> tuple[int, list[str]]:
    """Play every turn from the announcements and the focus until an announcement contains ``until``. When the turn
    begins, the focus must be on the seat's move: a sealed bid's box (Enter hands in ``bid``, or all the seat has if
    less), “Your move” (Enter makes the move it starts on) or a pass's own button (labelled with its move). After a
    move, the move is told and the focus goes on: to the seat's next move, or to the table's story."""
    heard, moves = list(reader.hear("Your turn")), 0
    reader.control("log", LOG).evaluate("el => { el.railkitFirst = true; }")  # the region the game starts in
    for _ in range(MOST_STEPS):
        if any(until in line for line in heard):
            return moves, heard
        role, name, value, props = reader.settle()
        if (role, name) == STORY:  # the others play: listen
            heard += reader.hear()
            continue
        assert (role, name) in MOVE_CONTROLS or role == "button", (role, name, heard[-3:])
        if role == "spinbutton":  # KK-A2: a sealed bid
            reader.press("Control+a")
            reader.page.keyboard.type(str(min(bid, int(props.get("valuemax") or 0))))
        elif role == "combobox" and not value:  # only moves that hand the turn on (UP-T4): a deliberate pick
            reader.press("ArrowDown")
        reader.press("Enter")
        moves += 1
        heard += reader.hear()  # the move is told
    raise AssertionError(f"{until!r} not announced after {MOST_STEPS} steps; heard last: {heard[-8:]}")


def finish(reader: Listener, name: str) -> None:
    page = reader.page
    assert page.evaluate("() => window.__railkitPointers") == 0, "a pointer was used"
    # one region, never rebuilt: the element the game's first announcement went into is still the page's log
    assert reader.control("log", LOG).evaluate("el => el.railkitFirst === true")
    reader.jump("button", "Leave the table")
    reader.press("Enter")
    reader.settle({("textbox", "Your name")})  # the start form, with the focus in it
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"screen_reader_{name}.png"), full_page=False)


def test_a_screen_reader_learner_plays_a_whole_kk_table_game_by_keyboard(browser, class_voila):
    context, page, blocked = make_offline_page(browser)
    try:
        reader = Listener(page)
        open_lesson(reader, class_voila, "kk_play.ipynb")
        create_table(reader, players=2, computers=1)
        moves, heard = play(reader, "The game is over.", bid=4)
        assert any("Bids revealed" in line for line in heard)  # KK-A3, said
        assert any(line.startswith("Computer 1 ") for line in heard)  # the other seat's moves, said
        assert any(line.startswith("You ") for line in heard)  # this seat's own, in the second person
        assert sum("The game is over." in line for line in heard) == 1
        finish(reader, "kk")
        print(f"KK by screen reader: {moves} moves, {len(heard)} announcements; the last: {heard[-1]!r}")
    finally:
        context.close()
    assert not blocked


def test_a_screen_reader_learner_plays_a_up_table_to_its_first_payout(browser, class_voila):
    context, page, blocked = make_offline_page(browser)
    try:
        reader = Listener(page)
        open_lesson(reader, class_voila, "up_play.ipynb")
        create_table(reader, players=3, computers=2)
        moves, heard = play(reader, "Payout 1 of", bid=0)
        assert any(line.startswith("Computer 1 ") for line in heard)
        finish(reader, "up")
        print(f"UP by screen reader: {moves} moves, {len(heard)} announcements to the first payout")
    finally:
        context.close()
    assert not blocked
