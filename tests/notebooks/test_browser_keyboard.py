"""Real browser, keyboard only: the lessons played with Tab, Shift+Tab, Enter, Space and the arrow keys, never a
mouse click (WCAG 2.1.1). Enter in a text box submits it; after a move the focus is on the next thing to do and the
message bar, a polite live region, says what happened (4.1.3); every control and collapsible section on screen is
a Tab stop, the map toolbars are not; the focus ring is at least 2 px with 3:1 contrast (2.4.7, 1.4.11)."""

import pytest
from conftest import ARTIFACTS, open_app, page_errors, painted, wait_for_kernel, wait_text, wait_until_idle

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("voila")]

MOST_TABS = 200  # a page whose controls take more Tab stops than this is not keyboard friendly anyway

# Where the focus is, and how its ring looks: the outline's width and colour against what lies beside it (the
# white halo of a ring drawn inside a button, else the first coloured background outside the element).
FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const style = getComputedStyle(el);
  let beside = null;
  if (parseFloat(style.outlineOffset) < 0 && style.boxShadow.includes('inset')) beside = rgb(style.boxShadow);
  for (let p = el.parentElement; !beside && p; p = p.parentElement) {
    const bg = rgb(getComputedStyle(p).backgroundColor);
    if (bg.length >= 3 && (bg.length === 3 || bg[3] > 0)) beside = bg;
  }
  beside = beside || [255, 255, 255];
  const ring = rgb(style.outlineColor);
  const [a, b] = [lum(ring), lum(beside)].sort((x, y) => y - x);
  return {tag: el.tagName, cls: String(el.className), text: (el.innerText || el.value || '').trim().slice(0, 60),
          width: parseFloat(style.outlineWidth), style: style.outlineStyle, contrast: (a + 0.05) / (b + 0.05),
          modebar: !!el.closest('.modebar'), inApp: !!el.closest('.railkit-app'), seen: el.dataset.kbSeen || null};
}"""

# Every control a learner can use on screen now, each marked with a number (data-kb-id).
CONTROLS_JS = """() => {
  const found = [];
  const all = document.querySelectorAll('.railkit-app :is(button, input, select, textarea, summary, a[href], '
    + '.jupyter-widget-Collapse-header, .lm-TabBar-tab.lm-mod-current)');
  for (const el of all) {
    if (el.offsetParent === null || el.disabled || el.closest('.modebar') || el.type === 'hidden') continue;
    if (el.closest('[hidden], [aria-hidden="true"]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    el.dataset.kbId = String(found.length);
    found.push((el.innerText || el.value || el.getAttribute('aria-label') || el.className).trim().slice(0, 50));
  }
  return found;
}"""


def focused(page) -> dict | None:
    return page.evaluate(FOCUSED_JS)


def active_matches(page, css: str, text: str = "") -> bool:
    return page.evaluate("([css, text]) => !!document.activeElement && document.activeElement.matches(css) && "
                         "(document.activeElement.innerText || '').includes(text)", [css, text])


def wait_focus_on(page, css: str) -> None:
    """Wait until the keyboard focus is on an element matching ``css`` (the lesson moved it there)."""
    page.wait_for_function("(css) => !!document.activeElement && document.activeElement.matches(css)", arg=css,
                           timeout=60_000)


def tab_to(page, css: str, key: str = "Tab", text: str = "") -> int:
    """Press Tab (or ``key``) until the focus is on an element matching ``css`` (and showing ``text``); the number
    of presses."""
    for presses in range(1, MOST_TABS + 1):
        page.keyboard.press(key)
        if active_matches(page, css, text):
            return presses
    raise AssertionError(f"{css} not reached with {MOST_TABS} presses of {key}; focus on {focused(page)}")


def check_ring(where: dict) -> None:
    assert where["style"] != "none" and where["width"] >= 2, f"no visible focus ring: {where}"
    assert where["contrast"] >= 3, f"focus ring contrast {where['contrast']:.2f}:1 < 3:1: {where}"


def every_control_is_a_tab_stop(page) -> int:
    """Tab once around the whole page: every control on screen is reached (each with a visible ring), no map
    toolbar button is; the number of the app's Tab stops."""
    controls = page.evaluate(CONTROLS_JS)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    reached: set[int] = set()
    stops = 0
    first = None
    for _ in range(MOST_TABS):
        page.keyboard.press("Tab")
        where = page.evaluate("() => { const el = document.activeElement; return el && el !== document.body ? "
                              "(el.dataset.kbId ?? '') + '|' + el.tagName + '|' + (el.innerText || '').slice(0, 30) "
                              ": null; }")
        if where is None:
            continue
        if where == first:
            break
        first = first or where
        info = focused(page)
        assert info is not None and not info["modebar"], f"a map toolbar button is a Tab stop: {info}"
        if info["inApp"]:
            stops += 1
            check_ring(info)
        kb_id = where.split("|", 1)[0]
        if kb_id:
            reached.add(int(kb_id))
    missing = [label for i, label in enumerate(controls) if i not in reached]
    assert not missing, f"not reachable with Tab: {missing}"
    return stops


def type_and_enter(page, text: str) -> None:
    """Type into the focused text box (its old text selected first) and press Enter."""
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def message(page) -> str:
    return page.inner_text(".railkit-app > .railkit-message").strip()


def wait_message_change(page, old: str) -> str:
    page.wait_for_function("(old) => { const m = document.querySelector('.railkit-app > .railkit-message'); "
                           "return m && m.innerText.trim() && m.innerText.trim() !== old; }", arg=old, timeout=120_000)
    return message(page)


def check_live_region(page) -> None:
    # the template marks the bar as its page's widgets appear (within 250 ms; later on a busy machine)
    page.wait_for_function("() => { const m = document.querySelector('.railkit-app > .railkit-message'); "
                           "return m && m.getAttribute('aria-live'); }", timeout=30_000)
    attrs = page.evaluate("() => { const m = document.querySelector('.railkit-app > .railkit-message'); "
                          "return [m.getAttribute('role'), m.getAttribute('aria-live')]; }")
    assert attrs == ["status", "polite"], attrs


def test_kk_auction_is_played_to_its_end_with_the_keyboard(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)  # no page while a pool kernel pre-renders (conftest)
    open_app(page, voila_server.url("kk_auction.ipynb"))
    wait_text(page, ".railkit-kk-offer", "On sale in auction 1 (KK-A1)")
    wait_for_kernel(page)
    page.wait_for_function("() => !!document.querySelector('.railkit-message[aria-live]')", timeout=30_000)
    check_live_region(page)
    stops = every_control_is_a_tab_stop(page)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    tabs_to_bid = tab_to(page, ".railkit-kk-bid input")
    check_ring(focused(page))

    # A bad bid: Enter hands it in, the refusal names the rule, the focus stays in the box.
    old = message(page)
    type_and_enter(page, "500")
    said = wait_message_change(page, old)
    assert "KK-A2" in said and active_matches(page, ".railkit-kk-bid input"), said

    moves = auctions = 0
    heard: list[str] = []
    while True:
        assert moves < 60, "the game did not end"
        old = message(page)
        if active_matches(page, ".railkit-kk-bid input"):
            type_and_enter(page, "0")
            said = wait_message_change(page, old)
            assert "Bids revealed" in said and "choosing order:" in said, said  # the auction's result, spoken
            auctions += 1
            wait_focus_on(page, ".railkit-kk-choose button.kk-take, .railkit-kk-next")
        elif active_matches(page, ".railkit-kk-choose button.kk-take"):
            check_ring(focused(page))
            page.keyboard.press("Enter")
            said = wait_message_change(page, old)
            assert "You took" in said, said
            wait_focus_on(page, ".railkit-kk-next")
        elif active_matches(page, ".railkit-kk-next"):
            check_ring(focused(page))
            page.keyboard.press("Space")
            said = wait_message_change(page, old)
            if "The game is over" in said:
                heard.append(said)
                break
            assert "Auction" in said, said
            wait_focus_on(page, ".railkit-kk-bid input")
        else:
            raise AssertionError(f"after a move the focus is on {focused(page)}; the message says {old!r}")
        heard.append(said)
        moves += 1
    wait_focus_on(page, ".railkit-kk-new")  # the game is over: a new one is the next thing to do
    status = page.inner_text(".railkit-kk-status")  # whoever won, the learner too: the banner names the rule
    assert page.locator(".railkit-kk-status .kk-over").count() == 1 and ("KK-E1" in status or "KK-B8" in status)
    painted(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "keyboard_kk_auction_end.png"), full_page=False)

    # The exercise tab, by keyboard: the tab bar is one Tab stop, the arrow keys move along it.
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    tab_to(page, ".lm-TabBar-tab")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_selector(".railkit-kk-quiz-situation", state="visible", timeout=60_000)
    wait_for_kernel(page)  # the tab's situation is drawn
    tab_to(page, ".railkit-kk-quiz-place select")
    for place in range(page.locator(".railkit-kk-quiz-place:visible select").count()):
        for _ in range(place + 1):  # a different player for each place, in seat order
            page.keyboard.press("ArrowDown")
            wait_for_kernel(page)  # at a person's pace: each choice reaches the lesson before the next key
        page.keyboard.press("Tab")
    tab_to(page, ".railkit-kk-quiz-check")
    page.keyboard.press("Enter")
    wait_text(page, ".railkit-kk-quiz-feedback", "Choosing order:")
    assert page_errors(page) == []
    print(f"kk_auction by keyboard: {stops} Tab stops in the app, {tabs_to_bid} Tabs from the top to the bid box, "
          f"{auctions} auctions, {moves} moves; last message: {heard[-1][:120]!r}")


def select_by_arrows(page, css: str, label: str) -> int:
    """With the focus on the select ``css``: Home, then ArrowDown until the option showing ``label`` is chosen."""
    page.keyboard.press("Home")
    for presses in range(300):
        shown = page.eval_on_selector(css, "s => s.selectedIndex >= 0 ? s.options[s.selectedIndex].text : ''")
        if label in shown.replace("\xa0", " "):
            return presses
        page.keyboard.press("ArrowDown")
        wait_for_kernel(page)
    raise AssertionError(f"{label} not found in {css}")


def test_up_building_is_played_with_the_keyboard(voila_server, offline_page):
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("up_building.ipynb"))
    page.wait_for_selector(".railkit-figure .js-plotly-plot", timeout=60_000)
    wait_for_kernel(page)
    page.wait_for_function("() => [...document.querySelectorAll('.modebar-btn')].every(b => b.tabIndex === -1)",
                           timeout=60_000)
    stops = every_control_is_a_tab_stop(page)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")

    tab_to(page, ".railkit-company select")
    select_by_arrows(page, ".railkit-company select", "Billings Northern Lights (red)")
    tab_to(page, ".railkit-card button", text="Mountain")
    page.keyboard.press("Space")
    wait_text(page, ".railkit-legal", "legal sections for the Billings Northern Lights")
    wait_focus_on(page, ".railkit-section select")  # the card chosen: the section list is next

    # A refused placement names its rule; a legal one changes the board.
    select_by_arrows(page, ".railkit-section select", "Denver–El Paso · Mountain")
    wait_text(page, ".railkit-checklist-box", "UP-B2e")
    tab_to(page, ".railkit-place")
    old = message(page)
    page.keyboard.press("Enter")
    assert "(rule UP-B2e)" in wait_message_change(page, old)
    tab_to(page, ".railkit-section select", "Shift+Tab")
    select_by_arrows(page, ".railkit-section select", "✔ Helena–Salt Lake City · Mountain")
    wait_text(page, ".railkit-checklist-box", "train on Helena–Salt Lake City with a mountain card: allowed")
    tab_to(page, ".railkit-place")
    old = message(page)
    page.keyboard.press("Enter")
    assert "now runs on Helena–Salt Lake City" in wait_message_change(page, old)

    # A rulebook example, then the exercise tab: ticked with Space, checked with Enter.
    tab_to(page, "button", "Shift+Tab", text="Denver–El Paso refused (UP-B2e)")
    old = message(page)
    page.keyboard.press("Enter")
    assert "Rulebook: not allowed. railkit: not allowed." in wait_message_change(page, old)
    tab_to(page, ".lm-TabBar-tab", "Shift+Tab")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_selector(".railkit-exercise-situation", state="visible", timeout=60_000)
    wait_for_kernel(page)
    for label in ("Helena–Salt Lake City", "Denver–Salt Lake City"):
        for _ in range(MOST_TABS):
            page.keyboard.press("Tab")
            box = page.evaluate("() => { const b = document.activeElement.closest('.widget-checkbox'); "
                                "return b ? b.innerText : ''; }")
            if label in box:
                break
        page.keyboard.press("Space")
    tab_to(page, ".railkit-check")
    old = message(page)
    page.keyboard.press("Enter")
    assert "All right!" in wait_message_change(page, old)
    assert page_errors(page) == []
    painted(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "keyboard_up_building_exercise.png"), full_page=False)
    print(f"up_building by keyboard: {stops} Tab stops in the app")


def test_kk_play_is_played_to_its_end_with_the_keyboard(voila_server, offline_page):
    """A short game (the fewest terrains to win) by keyboard: after every move the focus is on the next control
    (the bid box, a card, the purchase list) and the message bar names the computer players' moves."""
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("kk_play.ipynb"))
    wait_text(page, ".railkit-kk-status", "Your move")
    wait_for_kernel(page)
    check_live_region(page)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    tab_to(page, ".railkit-kk-length select")
    page.keyboard.press("End")  # the shortest game is the last choice
    wait_for_kernel(page)
    tab_to(page, ".railkit-kk-new")
    page.keyboard.press("Enter")
    wait_focus_on(page, ".railkit-kk-bid input")  # the new game's first thing to do
    moves = 0
    spoken_others = 0
    while True:
        assert moves < 150, "the game did not end"
        old = message(page)
        log = page.inner_text(".railkit-kk-log summary")  # grows with every move (a message can repeat)
        if active_matches(page, ".railkit-kk-bid input"):
            type_and_enter(page, "1")
        elif active_matches(page, ".railkit-kk-choose button.kk-take, .railkit-kk-build, .railkit-kk-pass"):
            page.keyboard.press("Enter")
        elif active_matches(page, ".railkit-kk-buy select"):
            page.keyboard.press("Tab")  # Build when the engine allows it, else on to Pass
            if not active_matches(page, ".railkit-kk-build"):
                tab_to(page, ".railkit-kk-pass")
            page.keyboard.press("Enter")
        elif active_matches(page, ".railkit-kk-new"):
            break
        else:
            raise AssertionError(f"after a move the focus is on {focused(page)}; the message says {old!r}")
        page.wait_for_function("(old) => document.querySelector('.railkit-kk-log summary').innerText !== old",
                               arg=log, timeout=120_000)
        wait_for_kernel(page)
        said = message(page)
        spoken_others += "Then" in said
        moves += 1
        if "The game is over" in said:
            wait_focus_on(page, ".railkit-kk-new")
            break
        wait_focus_on(page, ".railkit-kk-bid input, .railkit-kk-choose button.kk-take, .railkit-kk-buy select, "
                            ".railkit-kk-build, .railkit-kk-pass")
    assert "The game is over" in message(page)
    assert spoken_others > 0
    assert page_errors(page) == []
    painted(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "keyboard_kk_play_end.png"), full_page=False)
    print(f"kk_play by keyboard: {moves} moves, the others' moves spoken after {spoken_others}")


def test_up_play_first_moves_and_its_sections_by_keyboard(voila_server, offline_page):
    """up_play: every control and each closed section (“New game and options”, “Save and load”, …) is a Tab stop
    opened with Enter; the first share is laid by keyboard and the focus goes on to the next step."""
    page = offline_page.page
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_until_idle(voila_server)
    open_app(page, voila_server.url("up_play.ipynb"))
    wait_for_kernel(page)
    page.wait_for_function("() => document.querySelectorAll('.jupyter-widget-Collapse-header[tabindex=\"0\"]')"
                           ".length >= 4", timeout=60_000)
    stops = every_control_is_a_tab_stop(page)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    tab_to(page, ".railkit-first-pick select")
    page.keyboard.press("ArrowDown")
    wait_for_kernel(page)
    tab_to(page, ".railkit-lay")
    old = message(page)
    page.keyboard.press("Enter")
    said = wait_message_change(page, old)
    assert "first share" in said, said
    wait_focus_on(page, ".railkit-unusable select, .railkit-action-mode button, .railkit-draw button")
    check_ring(focused(page))

    tab_to(page, ".jupyter-widget-Collapse-header", text="Save and load")
    assert page.evaluate("() => document.activeElement.getAttribute('aria-expanded')") == "false"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.getAttribute('aria-expanded') === 'true'", timeout=30_000)
    page.wait_for_selector(".railkit-app textarea", state="visible", timeout=30_000)
    assert page_errors(page) == []
    painted(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "keyboard_up_play_sections.png"), full_page=False)
    print(f"up_play by keyboard: {stops} Tab stops in the app")
