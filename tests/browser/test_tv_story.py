"""The table display keeps the room told: its story's new lines said to a screen
reader, once each (never the whole story again), and its join codes current, a new
night's after a restart, never a broken picture when a code is asked for at a bad time."""
from __future__ import annotations

import io
import random

import zxingcpp
from PIL import Image
from playwright.sync_api import Error as PlaywrightError

from companion.engine import PUBLIC
from tests.browser.helpers import page_errors, wait_synced, wait_until, watch_errors
from tests.browser.test_tv_layout import NAMES
from tests.browser.test_tv_moments import TV, step, table_through_a_cable


def story(payload: dict) -> list[str]:
    """The story's lines in a public payload (the board's log part)."""
    return [line for part in payload["board"] if part["part"] == "log" for line in part["lines"]]


def said(page) -> list[str]:
    """What the story's live region holds now."""
    return page.locator("#story-news p").all_inner_texts()


def test_the_story_says_only_its_new_lines(browser, serve):
    live = serve(seats=4)
    live.table.start("captains-orders", 4, {}, names=NAMES[:4], seed="story")
    for seat in range(4):
        live.table.claim(seat)
    rng = random.Random(3)
    step_count = 0
    while len(story(live.payload(PUBLIC))) < 2:  # a story to come in on
        live.table.submit(*_any_move(live, rng))
        step_count += 1
        assert step_count < 200, "no story"
    page = live.page(browser, "/table", viewport=TV)
    before = story(wait_synced(page, live, PUBLIC))
    news = page.locator("#story-news")
    assert news.get_attribute("aria-live") == "polite"
    # The list at the side is not a live region of its own (it is drawn anew each time).
    assert page.locator(".side-board .log-lines").get_attribute("aria-live") == "off"
    assert said(page) == [], "the story the page came in on was said"
    told = 0
    for _ in range(300):
        payload = step(live, page, rng)
        now = story(payload)
        if now == before:
            continue
        fresh = now[len(now) - _new_count(before, now):]
        assert fresh, (before, now)
        # Exactly the new lines: none of the story before them said again.
        wait_until(lambda f=fresh: said(page) == f, f"the live region to hold {fresh}")
        before = now
        told += 1
        if told == 4 or live.table.match.is_over:
            break
    assert told >= 2, "the story never moved"
    assert not page_errors(page), page_errors(page)


def _any_move(live, rng: random.Random) -> tuple[int, dict]:
    match = live.table.match
    seat = rng.choice([a for a in match.acting() if isinstance(a, int)])
    return seat, rng.choice(match.legal_actions(seat))


def _new_count(before: list[str], now: list[str]) -> int:
    """How many of ``now``'s last lines came after ``before`` (which it continues)."""
    for run in range(min(len(before), len(now)), 0, -1):
        if before[-run:] == now[:run]:
            return len(now) - run
    return len(now)


def code_shown(page, seat: int) -> str | None:
    """What a QR decoder reads in the seat's join code as the display shows it now."""
    img = page.locator(f"#join-codes img[alt='Join code of seat {seat + 1}']")
    if not img.count() or not img.evaluate("(i) => i.complete && i.naturalWidth > 0"):
        return None
    try:
        png = img.screenshot(timeout=2000)
    except PlaywrightError:
        return None  # redrawn while being read (a new code came in): read it next time
    shot = Image.open(io.BytesIO(png)).convert("L")
    found = zxingcpp.read_barcodes(shot)
    return found[0].text if found else None


def test_a_new_night_after_a_restart_shows_its_new_join_codes(browser, serve):
    live = serve(seats=4)
    with table_through_a_cable(browser, live) as (page, cable):
        wait_until(lambda: code_shown(page, 0) == live.join_url(0), "seat 1's code")
        old_code = live.table.access.table_code
        assert page.locator(".join-letters").inner_text() == old_code
        live.close()  # the table stops between matches ...
        again = serve(seats=4, data="data0")  # ... and starts a new night on its files
        assert again.join_url(0) != live.join_url(0)
        cable.target = ("127.0.0.1", int(again.url.rsplit(":", 1)[1]))
        wait_synced(page, again, PUBLIC, 30)
        wait_until(lambda: code_shown(page, 0) == again.join_url(0),
                   "the new night's code for seat 1", seconds=15)
        wait_until(lambda: page.locator(".join-letters").inner_text()
                   == again.table.access.table_code, "the new table code")
        assert not page_errors(page), page_errors(page)


def test_a_code_asked_for_too_soon_is_asked_again_never_a_broken_picture(browser, serve):
    live = serve(seats=4)
    context = live.context(browser, viewport=TV)
    page = context.new_page()
    watch_errors(page)
    # The race, made certain: seat 1's first code is answered as the server answers a
    # seat whose code is not (or no longer) public, the next ones by the server itself.
    refused: list[str] = []

    def first_refused(route) -> None:
        if len(refused) < 2:
            refused.append(route.request.url)
            route.fulfill(status=404, content_type="application/json",
                          body='{"error": "not_found"}')
        else:
            route.continue_()
    page.route("**/api/public/seats/1/qr.svg*", first_refused)
    page.goto(live.url + "/table")
    wait_synced(page, live, PUBLIC)
    img = page.locator("#join-codes img[alt='Join code of seat 1']")
    img.wait_for(state="attached")
    wait_until(lambda: refused, "seat 1's code asked for")
    # Until it comes, the place is kept and nothing broken is in sight.
    wait_until(lambda: img.evaluate("(i) => getComputedStyle(i).visibility") == "hidden",
               "the refused code hidden")
    assert img.bounding_box()["width"] > 0
    wait_until(lambda: code_shown(page, 0) == live.join_url(0), "seat 1's code asked again")
    assert len(refused) == 2 and img.is_visible()
    assert img.evaluate("(i) => getComputedStyle(i).visibility") == "visible"
    assert not page_errors(page), page_errors(page)
