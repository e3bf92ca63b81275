"""One phone per seat at a time, in real browsers: a second phone opening a seat's code is
asked first; declining changes nothing; taking over tells the first phone plainly and
ends its acting; the host page shows each seat's phone and lets it go."""
from __future__ import annotations

from tests.browser.helpers import (
    PHONE,
    HostClient,
    page_errors,
    wait_synced,
    wait_until,
    watch_errors,
)

HOST_VIEW = {"width": 1000, "height": 900}
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15"
          " (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")
HOLD = "{action: {type: 'hold', die: 1}}"


def act_from(page) -> int:
    """A booty-dice hold sent from the page's own cookie, as its buttons would send it:
    the HTTP status it got."""
    return page.evaluate(f"""async () => (await fetch('/api/seat/act', {{
        method: 'POST', headers: {{'Content-Type': 'application/json'}},
        body: JSON.stringify({HOLD})}})).status""")


def seat_phones(host, seat: int) -> str:
    return host.locator(f'#seat-rows li[data-seat="{seat}"] .seat-phones').inner_text()


def test_a_second_phone_takes_a_seat_over_and_the_first_says_so(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("booty-dice", 2)
    first = live.phone(browser, 0)
    wait_synced(first, live, 0)

    host = live.page(browser, "/host", viewport=HOST_VIEW)
    host.fill("#pin", live.pin)
    host.click("#login-button")
    host.locator("#console").wait_for()
    wait_until(lambda: "Phone: Chrome on Linux" in seat_phones(host, 0), "seat 1's phone")
    assert seat_phones(host, 1) == "No phone"
    assert host.evaluate("""() => [...document.styleSheets].some((sheet) =>
        (sheet.href || "").includes("/takeover.css") && sheet.cssRules.length > 0)""")

    second = live.context(browser, viewport=PHONE, has_touch=True, is_mobile=True,
                          user_agent=IPHONE).new_page()
    watch_errors(second)
    # Asked first; "no" leaves the seat to the first phone.
    second.goto(live.join_url(0))
    assert second.locator("#take-seat").inner_text() == "Take over seat 1"
    assert "Chrome on Linux" in second.locator("#holder").inner_text()
    second.click("#keep-seat")
    second.wait_for_url("**/table")
    assert first.locator("#gone").is_hidden()
    assert "Phone: Chrome on Linux" in seat_phones(host, 0)

    # Yes: the second phone holds the seat, the first says so and can no longer act.
    second.goto(live.join_url(0))
    second.click("#take-seat")
    second.wait_for_url("**/seat/")
    wait_synced(second, live, 0)
    first.locator('#gone[data-why="taken_over"]').wait_for()
    told = first.locator("#gone-text").inner_text()
    assert told.startswith("Another phone took over seat 1 at ") and told.endswith(
        ". This phone can no longer act for it."), told
    assert first.locator("#phone").is_hidden() and first.locator("#choices").is_hidden()
    assert act_from(first) == 403
    assert act_from(second) == 200
    assert live.table.match.snapshot()["state"]["held"][0] is True

    # The host page shows the new phone, and lets it go.
    wait_until(lambda: "Phone: Safari on iPhone" in seat_phones(host, 0), "the new phone")
    host.locator('#seat-rows li[data-seat="0"] button[data-do="revoke"]').click()
    host.click("#confirm-ok")
    wait_until(lambda: seat_phones(host, 0) == "No phone", "the phone let go")
    second.locator("#gone").wait_for()
    assert second.locator("#gone").get_attribute("data-why") is None
    assert act_from(second) == 401
    for page in (first, second, host):
        assert not page_errors(page), page_errors(page)
