"""The host page: PIN, a new match with options, pause/undo/end, seats, and the result."""
from __future__ import annotations

import re
import urllib.request

from companion.engine import HOST, PUBLIC
from tests.browser.helpers import (
    HostClient,
    Live,
    page_errors,
    wait_synced,
    wait_until,
)

HOST_VIEW = {"width": 1000, "height": 900}


def play_booty_dice_to_the_end(live: Live, clients: dict) -> int:
    """Every roller stops after the first roll and picks the first target offered."""
    for count in range(3000):
        match = live.table.match
        if match.is_over:
            return count
        (seat,) = [s for s in range(match.seats) if live.payload(s)["display"]["choices"]]
        payload = live.payload(seat)
        actions = [c["action"] for c in payload["display"]["choices"]]
        action = next((a for a in actions if a["type"] == "stop"), actions[0])
        status, body = clients[seat].act(action, payload["version"])
        assert status == 200, body
    raise AssertionError("booty dice did not end")


def test_c_the_host_starts_a_match_with_options_runs_it_and_sees_the_result(browser, serve):
    live = serve(seats=4)
    host = live.page(browser, "/host", viewport=HOST_VIEW)
    table = live.page(browser, "/table", viewport={"width": 1280, "height": 800})

    # The PIN first: a wrong one is refused, the right one opens the console.
    host.locator("#login").wait_for()
    wrong = "000000" if live.pin != "000000" else "111111"
    host.fill("#pin", wrong)
    host.click("#login-button")
    wait_until(lambda: host.locator("#login-message").inner_text() == "Wrong PIN.", "wrong PIN")
    host.fill("#pin", live.pin)
    host.click("#login-button")
    host.locator("#console").wait_for()
    wait_synced(host, live, HOST)
    assert host.locator("#match-title").inner_text() == "No match"

    # A phone at seat 3 and seat 1, to see what kick and replace do to them.
    phone3 = live.phone(browser, 2)
    phone1 = live.phone(browser, 0)

    # Pick Booty Dice and set options with the form's own controls.
    host.select_option("#game", "booty-dice")
    host.fill("#players", "3")
    assert host.locator("#opt-dice").evaluate("e => e.tagName") == "SELECT"
    assert host.locator("#opt-first_seat").get_attribute("type") == "number"
    assert host.locator("#opt-first_seat").get_attribute("max") == "6"
    assert host.locator("#opt-plunder").get_attribute("type") == "checkbox"
    host.fill("#opt-first_seat", "2")
    host.select_option("#opt-order", "combos_first")
    host.uncheck("#opt-plunder")
    # Rename seat 2 (saved at once) and seat 1 (sent with the start).
    row2 = host.locator('#seat-rows input[data-seat="1"]')
    row2.fill("Bonny")
    host.locator('.seat-row[data-seat="1"] .seat-name button').click()
    wait_until(lambda: live.payload(PUBLIC)["table"]["names"][1] == "Bonny", "the rename")
    host.locator('#seat-rows input[data-seat="0"]').fill("Anne")
    host.click("#start")
    wait_until(lambda: live.table.match is not None, "the match to start")
    match = live.table.match
    assert match.game.spec.id == "booty-dice" and match.seats == 3
    assert match.options["first_seat"] == 2 and match.options["order"] == "combos_first"
    assert match.options["plunder"] is False and match.options["dice"] == "companion"
    assert match.names[:2] == ["Anne", "Bonny"]
    wait_synced(host, live, HOST)
    assert host.locator("#new-match").is_hidden()
    assert host.locator("#match-title").inner_text() == "Booty Dice"

    # Pause: the table says so and a seat cannot act; resume.
    host.click('#match-actions [data-action="pause"]')
    wait_until(lambda: live.table.match.is_paused, "the pause")
    wait_synced(table, live, PUBLIC)
    assert "Paused" in table.locator("#turn").inner_text()
    roller = live.table.match.view(PUBLIC)["state"]["roller"]
    assert roller == 1
    status, body = live.seat_client(roller).act({"type": "stop"})
    assert status == 409 and body["code"] == "paused"
    wait_synced(host, live, HOST)
    host.click('#match-actions [data-action="resume"]')
    wait_until(lambda: not live.table.match.is_paused, "the resume")

    # Undo takes back the roller's hold of die 1.
    assert live.seat_client(roller).act({"type": "hold", "die": 1})[0] == 200
    wait_until(lambda: live.table.match.view(PUBLIC)["state"]["held"][0], "the hold")
    wait_synced(host, live, HOST)
    host.click('#match-actions [data-action="undo"]')
    wait_until(lambda: not live.table.match.view(PUBLIC)["state"]["held"][0], "the undo")

    # End asks first; cancelling keeps the match going.
    wait_synced(host, live, HOST)
    host.click('#match-actions [data-action="end"]')
    host.locator("#confirm-dialog").wait_for()
    assert "End this match" in host.locator("#confirm-text").inner_text()
    host.click("#confirm-cancel")
    host.wait_for_timeout(200)
    assert not live.table.match.is_over

    # Kick seat 3 (asks first): its phone is out, its seat free.
    host.locator('.seat-row[data-seat="2"] [data-do="kick"]').click()
    host.click("#confirm-ok")
    wait_until(lambda: not live.table.is_claimed(2), "the kick")
    phone3.locator("#gone").wait_for()
    assert "not at a seat" in phone3.locator("#gone").inner_text()
    wait_synced(host, live, HOST)
    assert host.locator('.seat-row[data-seat="2"] .seat-state').inner_text() == "not joined"

    # Replace seat 1's phone: the old one is out, the new code is shown and works.
    host.locator('.seat-row[data-seat="0"] [data-do="replace"]').click()
    host.click("#confirm-ok")
    host.locator("#qr-dialog").wait_for()
    # The code is a picture only: no live link in the page's text.
    assert "/J/" not in host.locator("#qr-dialog").inner_text()
    assert "works once" in host.locator("#qr-note").inner_text()
    wait_until(lambda: host.locator("#qr-image").evaluate("i => i.complete && i.naturalWidth > 0"),
               "the QR code image")
    phone1.locator("#gone").wait_for()
    host.locator("#qr-dialog button").click()
    new_phone = live.phone(browser, 0)
    wait_synced(new_phone, live, 0)

    # Play to the end through the API (each seat with its own join link's cookie).
    clients = {seat: live.seat_client(seat) for seat in range(3)}
    play_booty_dice_to_the_end(live, clients)
    result = live.table.match.result()
    winner = live.table.match.names[result.winners[0]]

    wait_synced(table, live, PUBLIC)
    # The result: the board's own result part when it has one, else the banner.
    shown = table.locator('#result:not([hidden]), #board [data-part="result"]')
    assert winner in shown.first.inner_text()
    assert table.locator("#chart path.line").count() == 3
    assert table.locator("#scores li").count() == 3
    wait_synced(host, live, HOST)
    assert f"Winner: {winner}" in host.locator("#match-result").inner_text()
    assert host.locator('#match-actions [data-action="end"]').count() == 0

    # Back to the lobby: the new-match form comes back.
    host.click('#match-actions [data-action="lobby"]')
    wait_until(lambda: live.table.match is None, "the lobby")
    host.locator("#new-match").wait_for()
    wait_synced(table, live, PUBLIC)
    assert table.locator("#lobby").is_visible()
    for page in (host, table, new_phone):
        assert not page_errors(page), page_errors(page)


def test_the_host_page_says_how_long_the_pin_is_locked(browser, serve):
    live = serve(seats=4)
    wrong = "000000" if live.pin != "000000" else "111111"
    for _ in range(5):
        live.post("/api/host/login", {"pin": wrong})
    host = live.page(browser, "/host", viewport=HOST_VIEW)
    host.locator("#login").wait_for()
    host.fill("#pin", wrong)
    host.click("#login-button")
    wait_until(lambda: "try again in" in host.locator("#login-message").inner_text(), "the lock")
    text = host.locator("#login-message").inner_text()
    assert re.search(r"try again in \d+ s", text), text
    assert host.locator("#login-button").is_disabled()


def test_a_logged_in_host_can_start_from_the_api_and_log_out(browser, serve):
    live = serve(seats=4)
    host = live.page(browser, "/host", viewport=HOST_VIEW)
    host.fill("#pin", live.pin)
    host.click("#login-button")
    host.locator("#console").wait_for()
    HostClient(live).start("moon-yeti", 4)
    wait_synced(host, live, HOST)
    assert host.locator("#match-title").inner_text() == "Moon Yeti"
    host.click("#logout")
    host.locator("#login").wait_for()
    # The cookie is gone: the host's API is closed to this browser again.
    status = host.evaluate("() => fetch('/api/host/view').then(r => r.status)")
    assert status == 401
    with urllib.request.urlopen(live.url + "/host") as reply:
        assert reply.status == 200
