"""Joining in seconds (issue 29): the table display's join code scans as a phone's camera
sees it from 2 m off a 55-inch TV, a phone with no camera joins by the typed table code,
and each phone gives its player's name, which every page then shows.

The camera is a screenshot of ``/table`` at 1280x720 scaled to a third (427x240, each
camera pixel the average of the screen's pixels it covers, as a sensor's are), decoded
by zxing-cpp, a real QR decoder (the ``test`` extra)."""
from __future__ import annotations

import io
import re

import zxingcpp
from PIL import Image, ImageFilter

from tests.browser.helpers import PHONE, page_errors, visible_text, wait_until, watch_errors

TV = {"width": 1280, "height": 720}
#: From 2 m a 55-inch TV (1.22 m wide) fills about a third of a phone camera's frame.
CAMERA_SHARE = 1 / 3


def camera_sees(page) -> list[str]:
    """What a QR decoder reads in the page as a phone's camera frames it from 2 m: the
    screenshot at a third of its size, slightly out of focus."""
    shot = Image.open(io.BytesIO(page.screenshot())).convert("L")
    small = shot.resize((round(shot.width * CAMERA_SHARE), round(shot.height * CAMERA_SHARE)),
                        Image.BOX).filter(ImageFilter.GaussianBlur(0.7))
    return [found.text for found in zxingcpp.read_barcodes(small)]


def shown_name(row) -> str:
    """A seat's name on the TV, without the seat's marker (a shape) before it."""
    return re.sub(r"^\W+", "", row.inner_text()).strip()


def codes_drawn(page) -> bool:
    """Every join code on the page has loaded (an image not yet decoded scans as none)."""
    return page.evaluate("""() => {
        const codes = [...document.querySelectorAll('#join-codes img')];
        return codes.length > 0 && codes.every((img) => img.complete && img.naturalWidth > 0);
    }""")


def test_a_phone_scans_the_tv_from_two_metres_another_types_the_code_both_name_themselves(
        browser, serve):
    live = serve(seats=4)
    tv = live.context(browser, viewport=TV).new_page()
    watch_errors(tv)
    tv.goto(live.url + "/table")
    wait_until(lambda: codes_drawn(tv), "the join codes on the table display")
    links = {live.join_url(seat): seat for seat in range(4)}

    # The camera reads a free seat's code off the TV.
    seen = wait_until(lambda: camera_sees(tv), "a join code the camera can read")
    assert seen[0] in links, seen
    # ...which it could not at the size the codes had before (80 px on a 1280-px TV).
    tv.evaluate("() => document.getElementById('join-codes').style.setProperty('--qr-size', '80px')")
    assert camera_sees(tv) == []
    tv.evaluate("() => document.getElementById('join-codes').style.removeProperty('--qr-size')")

    # The phone that scanned opens the link, and gives its name when its page offers it.
    scanner = live.context(browser, viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    watch_errors(scanner)
    scanner.goto(seen[0].lower())
    assert scanner.url.endswith("/seat/")
    scanned = links[seen[0]]
    scanner.locator("#name-input").fill("Calico Jack")
    scanner.locator("#name-save").click()
    wait_until(lambda: live.table.access.names()[scanned] == "Calico Jack", "the scanned name")
    wait_until(lambda: scanner.locator("#name-form").is_hidden(), "the name field to close")

    # A phone with no camera types the address and the code the TV shows.
    words = tv.locator("#join-codes .join-typed")
    wait_until(lambda: words.is_visible(), "the address and code on the TV")
    address, code = (tv.locator("#join-codes .join-address").inner_text(),
                     tv.locator("#join-codes .join-letters").inner_text())
    assert address == "127.0.0.1:%d/join" % live.server.http.port
    assert code == live.table.access.table_code
    typer = live.context(browser, viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    watch_errors(typer)
    typer.goto(f"http://{address}")
    typer.locator("#table-code").fill(code.lower())
    typer.locator("#send-code").click()
    free = [s + 1 for s in range(4) if s != scanned]
    offered = typer.locator("#pick-seat button[name=seat]")
    assert [int(v) for v in offered.evaluate_all("(bs) => bs.map((b) => b.value)")] == free
    typer.locator(f"#pick-seat button[value='{free[-1]}']").click()
    assert typer.url.endswith("/seat/")
    # Its page offers the name field once, and the name reaches every page.
    typer.locator("#name-input").fill("  Anne   Bonny ")
    typer.locator("#name-input").press("Enter")
    wait_until(lambda: typer.locator("#seat-name").inner_text() == "Anne Bonny",
               "the phone to show its name")
    seat_row = tv.locator(f".tv-seat[data-seat='{free[-1] - 1}'] .tv-seat-name")
    wait_until(lambda: shown_name(seat_row) == "Anne Bonny", "the TV to show the name")
    # Later, from the phone's bar: a new name.
    typer.locator("#name-edit").click()
    assert typer.locator("#name-input").input_value() == "Anne Bonny"
    typer.locator("#name-input").fill("Anne")
    typer.locator("#name-save").click()
    wait_until(lambda: shown_name(seat_row) == "Anne", "the TV to show the new name")

    # The TV asks to scan while a seat is free, and stops once every seat has a player.
    call = tv.locator(".tv-lobby-call")
    assert "type the code" in call.inner_text()
    for seat in range(4):
        if not live.table.is_claimed(seat):
            live.seat_client(seat)
    wait_until(lambda: call.inner_text() == "Every seat has a player.", "the lobby's call")
    wait_until(lambda: tv.locator("#join-codes").is_hidden(), "the codes to go")
    assert "scan" not in visible_text(tv).lower()
    for page in (tv, scanner, typer):
        assert not page_errors(page), page_errors(page)


def test_on_the_smallest_phone_the_name_field_leaves_the_first_choice_in_sight(
        browser, serve):
    """A 360x640 phone that joins mid-match: the name field takes two lines (its close
    button beside the label), so the seat's first choice is whole above the secrets'
    dock; the close button ("Not now") puts the field away."""
    live = serve(seats=4)
    live.table.start("moon-yeti", 4, {}, seed="small-phone")
    phone = live.phone(browser, 1, viewport={"width": 360, "height": 640})
    form = phone.locator("#name-form")
    form.wait_for()
    choice = phone.locator("#choices .choice").first
    choice.wait_for()
    field, label = phone.locator("#name-input").bounding_box(), form.locator("label").bounding_box()
    skip = phone.locator("#name-skip").bounding_box()
    assert abs(skip["y"] + skip["height"] / 2 - (label["y"] + label["height"] / 2)) < 4
    assert skip["width"] >= 44 and skip["height"] >= 44  # a finger's target
    box, dock = choice.bounding_box(), phone.locator(".reveal-dock").bounding_box()
    assert field["y"] > label["y"] and box["y"] + box["height"] <= dock["y"], (box, dock)
    phone.locator("#name-skip").tap()
    wait_until(lambda: form.is_hidden(), "the name field to close")
    assert not page_errors(phone), page_errors(phone)


def test_a_long_name_keeps_the_phones_bar_on_one_line(browser, serve):
    """The longest name on the smallest phone: the bar stays one line (the name cut
    with an ellipsis), and the edit button, a pencil once the seat is named, is a
    finger's target that opens the field with the whole name."""
    live = serve(seats=4)
    live.table.start("moon-yeti", 4, {}, seed="small-phone")
    phone = live.phone(browser, 1, viewport={"width": 360, "height": 640})
    edit = phone.locator("#name-edit")
    assert edit.inner_text() == "Your name"
    name = "Bartholomew Roberts Jnr."  # 24 characters, the field's most
    phone.locator("#name-input").fill(name)
    phone.locator("#name-input").press("Enter")
    wait_until(lambda: phone.locator("#seat-name").inner_text() == name, "the name in the bar")
    wait_until(lambda: edit.get_attribute("aria-label") == "Change your name", "the pencil")
    middle = {}
    for part in ("#seat-number", "#seat-name", "#name-edit", "#conn"):
        box = phone.locator(part).bounding_box()
        middle[part] = (box["y"] + box["height"] / 2, box)
    lines = [y for y, _ in middle.values()]
    assert max(lines) - min(lines) < 4, middle  # one line
    pencil, conn = middle["#name-edit"][1], middle["#conn"][1]
    assert pencil["width"] >= 44 and pencil["height"] >= 44
    assert pencil["x"] + pencil["width"] <= conn["x"] and conn["x"] + conn["width"] <= 360
    assert phone.locator("#seat-name").evaluate("(n) => n.scrollWidth > n.clientWidth")
    edit.tap()
    assert phone.locator("#name-input").input_value() == name
    assert not page_errors(phone), page_errors(phone)
