"""Every page passes axe-core (vendored from npm), at rest and while a secret is held;
motion stops for those who ask; the phone leaves room at 200% text; live regions speak."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.engine import PUBLIC
from tests.browser.helpers import (
    HostClient, PHONE, axe_violations, failed_requests, page_errors, wait_synced, wait_until,
)

NAMES = ["Anne", "Bonny", "Calico Jack", "Drake"]
TV = {"width": 1280, "height": 720}
DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def shots(tmp_path) -> Path:
    return DOCS if os.environ.get("MUTINY_SCREENSHOTS") == "1" else tmp_path


def clean(page, live) -> None:
    found = axe_violations(page, live.url)
    assert found == [], "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n  "
                                  + "\n  ".join(v["nodes"]) for v in found)
    # The host page asks who is logged in: before the PIN, the API rightly says 401.
    failed = [line for line in failed_requests(page) if not line.startswith("401 ")]
    assert not page_errors(page) and not failed, (page_errors(page), failed)


def test_axe_finds_nothing_on_join_host_sim_and_an_empty_table(browser, serve):
    live = serve(seats=4)
    for path, viewport in (("/join", PHONE), ("/host", {"width": 1024, "height": 768}),
                           ("/sim/", {"width": 1024, "height": 700}), ("/table", TV)):
        page = live.page(browser, path, viewport=viewport)
        page.wait_for_load_state("networkidle") if path == "/join" else page.wait_for_timeout(400)
        clean(page, live)


def test_axe_finds_nothing_on_a_match_at_the_table_and_on_a_phone(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {}, NAMES)
    live.seat_client(0).act({"type": "declare"})
    table = live.page(browser, "/table", viewport=TV)
    phone = live.phone(browser, 1)
    wait_synced(table, live, PUBLIC)
    wait_synced(phone, live, 1)
    clean(table, live)
    clean(phone, live)
    # While the eye is held the secrets show: still nothing wrong.
    pad = phone.locator("#reveal-pad").bounding_box()
    phone.mouse.move(pad["x"] + 20, pad["y"] + 20)
    phone.mouse.down()
    wait_until(lambda: phone.locator("#private").is_visible(), "the secrets")
    clean(phone, live)
    phone.mouse.up()


def test_reduced_motion_stops_the_glow(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {}, NAMES)
    live.seat_client(0).act({"type": "declare"})
    for seat in range(4):
        live.seat_client(seat).act({"type": "ready"})
    still = live.phone(browser, 1, reduced_motion="reduce")
    moving = live.phone(browser, 1)
    for page in (still, moving):
        wait_synced(page, live, 1)
        page.locator('#screen[data-led="blink"]').wait_for()
    name = "() => getComputedStyle(document.getElementById('screen')).animationName"
    assert moving.evaluate(name) == "glow"
    assert still.evaluate(name) == "none"


def test_at_200_percent_text_the_bar_and_the_eye_leave_three_quarters(browser, serve, shots):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {}, NAMES)
    for size in ({"width": 360, "height": 640}, {"width": 430, "height": 932}):
        phone = live.phone(browser, 0, viewport=size)
        wait_synced(phone, live, 0)
        # Text zoom: every size on the page is in rem, so a root twice as large is it.
        phone.evaluate("() => { document.documentElement.style.fontSize = '200%'; }")
        phone.wait_for_timeout(100)
        fixed = phone.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter((node) => ['fixed', 'sticky'].includes(getComputedStyle(node).position))
            .reduce((sum, node) => sum + node.getBoundingClientRect().height, 0)""")
        assert fixed < size["height"] / 4, f"{fixed}px fixed of {size['height']}"
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], f"{width}px wide at 200% text"
        phone.screenshot(path=str(shots / f"phone-200-{size['width']}.png"))
        # A held secret shows whole: its box is as tall as what it holds (nothing
        # clipped or scrolled inside it), and every line of it is on the page.
        pad = phone.locator("#reveal-pad").bounding_box()
        phone.mouse.move(pad["x"] + 20, pad["y"] + 20)
        phone.mouse.down()
        wait_until(lambda: phone.locator("#private").is_visible(), "the secrets")
        clipped = phone.evaluate("""() => { const box = document.getElementById('private');
            return box.scrollHeight - box.clientHeight; }""")
        assert clipped <= 1, f"the held secret is cut by {clipped}px at 200% text"
        secret = phone.locator("#private").inner_text()
        for line in wait_synced(phone, live, 0)["display"]["private"]:
            assert line in secret or line in phone.locator("body").inner_text()
        phone.mouse.up()


def test_the_table_and_the_phone_announce_turns_and_results(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("booty-dice", 2, {"dice": "companion"}, NAMES[:2])
    table = live.page(browser, "/table", viewport=TV)
    phone = live.phone(browser, 0)
    wait_synced(phone, live, 0)
    assert phone.locator("#announce").inner_text().startswith("Your turn")
    assert phone.locator("#announce").get_attribute("aria-live") == "assertive"
    status, _ = HostClient(live).post("/api/host/act", {"action": {"type": "end"}})
    assert status == 200
    wait_synced(table, live, PUBLIC)
    wait_synced(phone, live, 0)
    assert table.locator("#announce").inner_text() == "The match has ended."
    assert "ended" in phone.locator("#announce").inner_text()
