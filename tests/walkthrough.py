"""Play the lessons to their end in a real browser, as a learner would, and keep screenshots to look at.

    .venv/bin/python tests/walkthrough.py --lang en --lang fi      # every lesson, two languages
    .venv/bin/python tests/walkthrough.py --lang hu --lesson kk_play

Not a test (it takes minutes and its point is the pictures): run it before resolving work that touches a
lesson, then open ``tests/artifacts/walkthrough/`` and look. For each lesson and language it saves the
opening screen at desktop (1280×900) and phone (390×844) sizes; the two play lessons are then played until
the game is over with ordinary clicks (Kap bis Kairo: bids of 0-10, the first card offered, building every
other turn; Union Pacific: the first share, investing when it can, else building the first legal section,
else passing, drawing from the deck, answering every payout exercise) and their final screen is saved too.
It prints one line per lesson and exits 1 if any page showed an error ("Something went wrong", a
traceback, a Python error) or a game did not end.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import (  # noqa: E402 - the test helpers live beside this script
    ARTIFACTS,
    CHROMIUM,
    NOTEBOOKS_DIR,
    dropdown_labels,
    fill,
    kk_one_move,
    make_offline_page,
    open_app,
    page_errors,
    start_voila,
    wait_for_kernel,
    wait_for_pools,
    wait_until_idle,
)

LESSONS = ["index", "up_setup", "up_dividends", "up_building", "up_play", "kk_auction", "kk_play", "rulings"]
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
OUT = ARTIFACTS / "walkthrough"


def visible(page, css: str) -> bool:
    return page.locator(css).first.is_visible() if page.locator(css).count() else False


def shown_errors(page) -> list[str]:
    found = page_errors(page)
    body = page.inner_text("body")
    if "Something went wrong" in body or "IndexError" in body or "KeyError" in body:
        found.append("an unexpected error is shown: " + body[body.find("Something"):][:200])
    return found


def up_build(page) -> bool:
    """Build the first legal section with the first card that has one; False if no card does."""
    page.locator(".railkit-action-mode button").first.click()  # the first mode offered is building
    wait_for_kernel(page)
    cards = page.locator(".railkit-card button")
    for i in range(cards.count()):
        cards.nth(i).click()
        wait_for_kernel(page)
        company = next((k for k, o in enumerate(dropdown_labels(page, ".railkit-company select")) if o.startswith("✔ ")), -1)
        if company < 0:
            continue
        page.select_option(".railkit-company select", index=company)
        wait_for_kernel(page)
        section = next((k for k, o in enumerate(dropdown_labels(page, ".railkit-section select")) if o.startswith("✔ ")), -1)
        if section < 0:
            continue
        page.select_option(".railkit-section select", index=section)
        wait_for_kernel(page)
        page.click(".railkit-build")
        wait_for_kernel(page)
        return True
    return False


def up_move(page) -> bool:
    """One learner's move in up_play; False when there is none (the game is over)."""
    if visible(page, ".railkit-quiz-answer input"):
        fill(page, ".railkit-quiz-answer", "0")
        page.click(".railkit-quiz-check")
        wait_for_kernel(page)
    if visible(page, ".railkit-first-pick select"):
        page.select_option(".railkit-first-pick select", index=1)
        page.click(".railkit-lay")
    elif visible(page, ".railkit-draw-deck") and page.is_enabled(".railkit-draw-deck"):
        page.click(".railkit-draw-deck")
    elif visible(page, ".railkit-draw button:enabled"):
        page.locator(".railkit-draw button:enabled").first.click()
    elif visible(page, ".railkit-end-turn"):
        page.click(".railkit-end-turn")
    elif visible(page, ".railkit-pass"):
        page.select_option(".railkit-pass-discard select", index=1)
        page.click(".railkit-pass")
    elif visible(page, ".railkit-action-mode"):
        invest = page.locator(".railkit-action-mode button").nth(1)
        if page.locator(".railkit-action-mode button").count() > 1:
            invest.click()
            wait_for_kernel(page)
        if visible(page, ".railkit-invest") and len(dropdown_labels(page, ".railkit-invest-pick select")) > 1:
            page.select_option(".railkit-invest-pick select", index=1)
            page.select_option(".railkit-invest-discard select", index=1)
            page.click(".railkit-invest")
        elif not up_build(page):
            return False
    else:
        return False
    wait_for_kernel(page)
    return True


def play(page, lesson: str, limit: int = 400) -> int:
    """Moves until the game is over (or an error shows); returns how many the learner made."""
    turns = 0
    while turns < limit:
        made = kk_one_move(page, turns, bid=turns % 11) if lesson == "kk_play" else up_move(page)
        if not made or shown_errors(page):
            return turns
        turns += 1
    return turns


def walk(browser, server, lesson: str, lang: str) -> list[str]:
    path = f"{lesson}.ipynb" if lang == "en" else f"{lang}/{lesson}.ipynb"
    problems: list[str] = []
    for size, viewport in SIZES.items():
        wait_until_idle(server)  # as the browser tests do: no page while a pool kernel pre-renders (conftest)
        context, page, blocked = make_offline_page(browser, viewport)
        try:
            open_app(page, server.url(path), ready=".railkit-app" if lesson not in ("index", "rulings") else None)
            page.screenshot(path=str(OUT / f"{lang}_{lesson}_{size}.png"), full_page=False)
            problems += [f"{size}: {p}" for p in shown_errors(page)]
            if size == "desktop" and lesson in ("kk_play", "up_play"):
                start = time.monotonic()
                turns = play(page, lesson)
                over = page.inner_text(".railkit-app")
                problems += [f"{size} after {turns} moves: {p}" for p in shown_errors(page)]
                if visible(page, ".railkit-kk-bid, .railkit-kk-build-box, .railkit-action-mode, .railkit-draw"):
                    problems.append(f"the game did not end after {turns} moves")
                page.screenshot(path=str(OUT / f"{lang}_{lesson}_end.png"), full_page=True)
                print(f"  {lesson} [{lang}] played {turns} moves in {time.monotonic() - start:.0f} s; "
                      f"the end says: {over[-300:]!r}")
            problems += [f"blocked request {u}" for u in blocked]
        finally:
            context.close()
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", action="append", help="en, fi, hu or es (repeatable; default en and fi)")
    parser.add_argument("--lesson", action="append", choices=LESSONS, help="default: every lesson")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    server = start_voila(NOTEBOOKS_DIR, ARTIFACTS / "walkthrough_voila.log")
    failed = False
    try:
        wait_for_pools(server, [f"{lesson}.ipynb" for lesson in LESSONS])
        wait_until_idle(server)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True)
            for lang in args.lang or ["en", "fi"]:
                for lesson in args.lesson or LESSONS:
                    try:
                        problems = walk(browser, server, lesson, lang)
                    except Exception as error:  # noqa: BLE001 - one lesson's failure is reported, the rest still run
                        problems = [f"{type(error).__name__}: {str(error).splitlines()[0]}"]
                    failed |= bool(problems)
                    print(f"{lang} {lesson}: {'ok' if not problems else '; '.join(problems)}", flush=True)
            browser.close()
    finally:
        server.stop()
    print(f"screenshots in {OUT}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
