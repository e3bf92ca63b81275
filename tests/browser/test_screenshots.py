"""The pages at their target sizes: they fit, and (with MUTINY_SCREENSHOTS=1) their
pictures are saved for the docs.

    MUTINY_SCREENSHOTS=1 ./dev test tests/browser/test_screenshots.py

writes docs/phone.png and docs/phone-revealed.png (360x740), docs/table.png (1280x800)
and docs/host.png. Without the variable the same pages are drawn and checked, and the
pictures go to a temporary folder.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.engine import HOST, PUBLIC
from tests.browser.helpers import PHONE, page_errors, wait_synced, wait_until

DOCS = Path(__file__).resolve().parents[2] / "docs"
TV = {"width": 1280, "height": 800}
PIRATES = ["Anne", "Bonny", "Calico Jack", "Drake", "Mary Read"]


@pytest.fixture
def shots(tmp_path) -> Path:
    return DOCS if os.environ.get("MUTINY_SCREENSHOTS") == "1" else tmp_path


def fits_width(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide"


def booty_dice_turns(table, turns: int) -> None:
    """Rollers keep Doubloons and Shields, roll once more, then stop; the last turn is
    left at its first roll, with the Doubloons held."""
    done = 0
    while not table.match.is_over:
        match = table.match
        (seat,) = match.acting()
        state = match.view(PUBLIC)["state"]
        legal = match.legal_actions(seat)
        holds = [a for a in legal if a["type"] == "hold"
                 and state["dice"][a["die"] - 1] in ("doubloon", "shield")
                 and not state["held"][a["die"] - 1]]
        if state["step"] == "deciding" and state["rolls"] == 1 and holds:
            table.submit(seat, holds[0])
            continue
        if done == turns:
            return
        if state["step"] == "deciding" and state["rolls"] == 1:
            table.submit(seat, {"type": "roll"})
        elif state["step"] == "deciding":
            table.submit(seat, {"type": "stop"})
            done += 1
        else:
            table.submit(seat, legal[0])


def test_e_the_table_and_host_pages_at_their_sizes(browser, serve, shots):
    live = serve(seats=6)
    for seat, name in enumerate(PIRATES + ["Pirate"]):
        live.table.rename(seat, name)
    live.table.start("booty-dice", 5, {"dice": "companion"}, names=PIRATES, seed="docs")
    for seat in range(4):
        live.table.claim(seat)
    booty_dice_turns(live.table, 9)

    table = live.page(browser, "/table", viewport=TV)
    wait_synced(table, live, PUBLIC)
    table.locator("#game-panel .bd-die").first.wait_for()
    table.locator("#chart svg").wait_for()
    # Landscape tablet: everything on one screen, no scrolling, every seat inside.
    assert table.evaluate("() => document.documentElement.scrollHeight") <= TV["height"]
    fits_width(table)
    for box in table.locator("#seats .tv-seat").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().toJSON())"):
        assert box["left"] >= 0 and box["right"] <= TV["width"] and box["bottom"] <= TV["height"]
    table.wait_for_timeout(300)
    table.screenshot(path=str(shots / "table.png"))

    host = live.page(browser, "/host", viewport={"width": 1100, "height": 1000})
    host.fill("#pin", live.pin)
    host.click("#login-button")
    host.locator("#console").wait_for()
    wait_synced(host, live, HOST)
    host.locator("#mini-chart svg").wait_for()
    fits_width(host)
    host.screenshot(path=str(shots / "host.png"), full_page=True)

    # The host page on a phone still fits its width.
    small = live.context(browser, viewport=PHONE).new_page()
    small.goto(live.url + "/host")
    small.fill("#pin", live.pin)
    small.click("#login-button")
    small.locator("#console").wait_for()
    fits_width(small)
    for page in (table, host):
        assert not page_errors(page)


def test_e_the_phone_at_rest_and_revealed(browser, serve, shots):
    live = serve(seats=5)
    names = PIRATES
    for seat, name in enumerate(names):
        live.table.rename(seat, name)
    live.table.start("moon-yeti", 5, {"role_seats": "first_four"}, names=names, seed="docs")
    table = live.table
    table.submit(0, {"type": "declare"})
    state = table.match.view(PUBLIC)["state"]
    boatswain = state["roles"].index("Boatswain")
    for seat in range(5):
        for action in table.match.legal_actions(seat):
            if action["type"] == "search":
                table.submit(seat, action)
                break
        table.submit(seat, {"type": "ready"})
    for seat in range(5):
        if seat != boatswain:
            table.submit(seat, table.match.legal_actions(seat)[0])

    phone = live.phone(browser, boatswain)
    payload = wait_synced(phone, live, boatswain)
    assert any(c["secret"] for c in payload["display"]["choices"])
    fits_width(phone)
    phone.wait_for_timeout(200)
    phone.screenshot(path=str(shots / "phone.png"))

    pad = phone.locator("#reveal-pad").bounding_box()
    phone.mouse.move(pad["x"] + pad["width"] / 2, pad["y"] + pad["height"] / 2)
    phone.mouse.down()
    wait_until(lambda: phone.locator("#private").is_visible(), "the secrets")
    fits_width(phone)
    phone.wait_for_timeout(200)
    phone.screenshot(path=str(shots / "phone-revealed.png"))
    phone.mouse.up()
    assert not page_errors(phone)
