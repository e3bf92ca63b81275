"""How to play: the table display teaches the game before the first move, every phone
opens its help (with its own part) at any time without losing its place, and a timed
walkthrough from the first QR scan to the first action of a Booty Dice match."""
from __future__ import annotations

import time

from companion.engine import PUBLIC
from tests.browser.helpers import (
    HostClient,
    page_errors,
    wait_synced,
    wait_until,
)

NAMES = ["Anne", "Bonny", "Calico", "Drake"]


def test_the_table_shows_how_to_play_until_the_first_move(browser, serve):
    live = serve(seats=4)
    HostClient(live).start("booty-dice", 4, {}, NAMES)
    table = live.page(browser, "/table")
    wait_synced(table, live, PUBLIC)
    panel = table.locator("#howto-panel")
    panel.wait_for()
    assert panel.locator("h2").inner_text() == "How to play Booty Dice"
    assert live.payload(PUBLIC)["howto"]["game"] == "booty-dice"  # its texts: fetched
    howto = live.table.match.game.how_to_play()
    assert howto["goal"] in panel.inner_text()
    assert panel.locator("ol li").count() == 3  # a turn in three lines
    # The phones' part is there; a display short of room leaves it out rather than
    # shrinking the type (docs/boards.md, "less shown, never smaller").
    phones = panel.locator(".howto-section").filter(has_text="phone")
    assert phones.count() == 1
    assert phones.is_visible() or "tv-left-out" in phones.get_attribute("class")

    roller = next(s for s in range(4) if live.table.match.legal_actions(s))
    live.seat_client(roller).act(live.table.match.legal_actions(roller)[0])
    wait_until(lambda: table.locator("#howto-panel").count() == 0, "the panel to go")
    # ... and it comes back on request.
    table.locator("#howto-open").click()
    panel.wait_for()
    assert not page_errors(table)


def test_a_phone_opens_its_help_sees_its_role_and_closes_it_on_the_same_menu(browser,
                                                                                serve):
    live = serve(seats=4)
    HostClient(live).start("moon-yeti", 4, {}, NAMES)
    live.seat_client(0).act({"type": "declare"})
    roles = live.table.match.snapshot()["state"]["roles"]
    bosun = roles.index("Boatswain")
    phone = live.phone(browser, bosun)
    wait_synced(phone, live, bosun)
    phone.locator('#choices .choice-group[data-group="Your move"]').tap()
    phone.locator("#choices .choice-back").wait_for()
    level = phone.locator("#choices").inner_text()

    phone.locator("#howto-open").tap()
    dialog = phone.locator("#howto-dialog")
    dialog.wait_for()
    mine = dialog.locator("#howto-mine").inner_text()
    assert "You are the Boatswain." in mine and "Cabin Search" in mine
    assert "How to play Moon Yeti" in dialog.inner_text()
    # Whether this seat is the Mutineer shows only while its owner holds the pad.
    secret = dialog.locator(".howto-secret-lines")
    assert secret.is_hidden()
    dialog.locator(".howto-hold").dispatch_event("pointerdown")
    mutineer = live.table.match.snapshot()["state"]["mutineer"]
    assert secret.is_visible()
    assert ("You are the Mutineer" in secret.inner_text()) == (bosun == mutineer)
    dialog.locator(".howto-hold").dispatch_event("pointerup")
    assert secret.is_hidden()
    dialog.locator("#howto-close").tap()
    wait_until(lambda: not dialog.is_visible(), "the help to close")

    assert phone.locator("#choices .choice-back").count() == 1  # still inside the group
    assert phone.locator("#choices").inner_text() == level
    assert not page_errors(phone)


def test_walkthrough_from_the_first_qr_scan_to_the_first_action(browser, serve):
    """Four phones scan their seats' codes, seat 1 picks Booty Dice on its phone, the
    roller makes the first move. Prints the seconds (the issue wants under 60 for a
    new group; a script does not read, so this is the table's share of that minute)."""
    live = serve(seats=4)
    started = time.monotonic()
    phones = []
    for seat in range(4):  # the four QR scans, one after the other as at a table
        phones.append(live.phone(browser, seat))
        wait_synced(phones[seat], live, seat)
    # The table display, in a tab of seat 1's browser: five browsers of their own would
    # pass the server's connection cap for one address (every test page is 127.0.0.1).
    table = phones[0].context.new_page()
    table.goto(live.url + "/table")
    taps = 0
    lines = phones[0].locator("#choices .choice")
    phones[0].locator('#choices .choice-group[data-group="Booty Dice"]').tap()
    phones[0].locator("#choices .choice-back").wait_for()
    lines.filter(has_text="Booty Dice, 4 players").tap()
    taps += 2
    wait_until(lambda: live.table.match is not None, "the match to start")
    table.locator("#howto-panel").wait_for()  # the table teaches the game

    # Every player glances at their own help and closes it.
    for phone in phones:
        phone.locator("#howto-open").tap()
        phone.locator("#howto-mine").wait_for()
        phone.locator("#howto-close").tap()
        taps += 2
    roller = next(s for s in range(4) if live.table.match.legal_actions(s))
    wait_synced(phones[roller], live, roller)
    phones[roller].locator("#choices .choice").first.tap()
    taps += 1
    wait_until(lambda: table.locator("#howto-panel").count() == 0, "the first action")
    seconds = time.monotonic() - started
    print(f"\nwalkthrough, first QR scan to first action (booty-dice, 4 phones): "
          f"{seconds:.1f} s, {taps} taps")
    assert table.locator("#howto-open").count() == 1  # on request from now on
    for phone in phones:
        assert not page_errors(phone)
