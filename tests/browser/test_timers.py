"""Step timers and nudges in the browser: a Moon Yeti discussion timer counts down on the
phones and the table display, runs out, and the match moves on to the vote; the phones
buzz when the vote opens (docs/table.md, "Timers" and "Nudges")."""
from __future__ import annotations

import re

from companion.engine import PUBLIC
from tests.browser.helpers import HostClient, page_errors, wait_synced, wait_until

NAMES = ["Anne", "Bonny", "Calico", "Drake"]
SECONDS = 3


def face_seconds(page) -> int:
    """The seconds the page's timer face shows ("1:29" is 89)."""
    minutes, _, seconds = page.locator("#timer .timer-face").inner_text().partition(":")
    return int(minutes) * 60 + int(seconds)


def nudges(page) -> list[dict]:
    return page.evaluate("() => window.__mutinyNudges")


def test_a_discussion_timer_runs_out_and_the_vote_opens(browser, serve):
    live = serve(seats=4)
    host = HostClient(live)
    table = live.page(browser, "/table", viewport={"width": 1280, "height": 720})
    host.start("moon-yeti", 4, {"time_source": "typed", "discussion_seconds": SECONDS}, NAMES)
    phones = [live.phone(browser, seat) for seat in range(4)]
    for seat, phone in enumerate(phones):
        wait_synced(phone, live, seat)
    assert live.table.timekeeper.shown() is None  # declaring the time is not timed

    live.seat_client(0).act({"type": "declare", "minute": 7})
    assert live.table.match.step() == "discuss1"
    # Every phone and the table display count the discussion down, on the table's clock.
    for page in [*phones, table]:
        wait_until(lambda page=page: page.locator("#timer").is_visible(), "the timer to show")
        shown = page.locator("#timer .timer-face").inner_text()
        assert re.fullmatch(r"0:0[0-3]", shown), shown
    assert "Time left" in phones[1].locator("#timer").inner_text()

    # Nobody presses Ready: the time runs out, the discussion ends, the vote opens.
    wait_until(lambda: live.table.match.step() == "vote1", "the vote to open", seconds=15)
    assert live.table.match.acting() == [0, 1, 2, 3]  # no ballot was cast by the timer
    for seat, phone in enumerate(phones):
        wait_synced(phone, live, seat)
        assert phone.locator("#timer").is_hidden()  # the vote has no timer
        # The vote lit every seat: every phone buzzed (the browser may refuse a vibration
        # before the first tap; the page asked for it all the same).
        wait_until(lambda phone=phone: any(n["kind"] == "vibrate" for n in nudges(phone)),
                   "the phone to buzz")
        assert not page_errors(phone), page_errors(phone)
    wait_until(lambda: any(n["kind"] == "sound" for n in nudges(table)), "the display's chime")
    assert table.locator("#timer").is_hidden()
    assert live.payload(PUBLIC)["nudge"]["sound"] is True


def test_the_host_switches_the_buzz_off(browser, serve):
    live = serve(seats=4)
    host = HostClient(live)
    host.start("booty-dice", 3, {}, NAMES[:3])
    phones = [live.phone(browser, seat) for seat in range(3)]
    for seat, phone in enumerate(phones):
        wait_synced(phone, live, seat)
    assert host.post("/api/host/nudges", {"vibrate": False})[0] == 200
    for seat, phone in enumerate(phones):
        wait_synced(phone, live, seat)
    roller = live.table.match.acting()[0]
    live.seat_client(roller).act({"type": "stop"})
    while live.table.match.acting() == [roller]:
        live.seat_client(roller).act(live.table.match.legal_actions(roller)[0])
    following = live.table.match.acting()[0]
    wait_synced(phones[following], live, following)
    assert live.payload(following)["nudge"] == {"count": 1, "vibrate": False}
    assert nudges(phones[following]) == []  # due, but the host switched the buzz off


def test_the_host_gives_more_time_and_ends_it(browser, serve):
    live = serve(seats=4)
    host = HostClient(live)
    host.start("moon-yeti", 4, {"time_source": "typed", "discussion_seconds": 60}, NAMES)
    console = live.page(browser, "/host", viewport={"width": 390, "height": 844})
    console.locator("#pin").fill(live.pin)
    console.locator("#login-button").click()
    live.seat_client(0).act({"type": "declare", "minute": 7})
    wait_until(lambda: console.locator("#timer-controls").is_visible(), "the host's timer")
    console.locator("#timer-more").click()
    wait_until(lambda: live.table.timekeeper.shown()["left"] > 60, "thirty seconds more")
    # The page shows it once its payload has come (on a busy machine a moment later).
    wait_until(lambda: 80 <= face_seconds(console) <= 90, "the host page to show 1:2x")
    console.locator("#timer-end").click()
    wait_until(lambda: live.table.match.step() == "vote1", "the vote to open")
    wait_until(lambda: console.locator("#timer-controls").is_hidden(), "the timer to go")
    assert not page_errors(console), page_errors(console)
