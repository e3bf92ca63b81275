"""Secret choices made with the seat's three buttons alone (MockFactory presses), the
screen read at each press: what shows, what select would do, and that a secret label
never stays on the screen at rest (docs/seats.md, "Buttons")."""
from __future__ import annotations

from PIL import Image, ImageDraw

from companion.seats import font
from companion.seats.screen import line_text
from tests.table.conftest import choose, claim_all

HINT = (0, 40, 128, 48)  # row 5: what select does, while browsing
CHOICE_ROW = (0, 56, 128, 64)


def words(text: str) -> bytes:
    """One left-aligned text row as the screen draws it."""
    image = Image.new("1", (128, 8))
    font.draw_text(ImageDraw.Draw(image), (1, 0), text)
    return image.tobytes()


def hint(hardware, seat: int) -> bytes:
    return hardware.frame(seat).crop(HINT).tobytes()


def highlighted(hardware, seat: int) -> str:
    device = hardware[seat]
    line = device.menu_lines[device.highlight]
    return line_text(device.display, device.menu_path, line, 21)


def test_a_moon_yeti_vote_by_presses_alone_says_what_each_press_does(table, hardware):
    claim_all(hardware)
    table.start("moon-yeti", 4, seed="buttons", options={"time_source": "typed"})
    choose(hardware, 0, lambda a: a == {"type": "declare", "minute": 7})
    for seat in range(4):
        choose(hardware, seat, lambda a: a["type"] == "ready")
    hardware.advance(5)
    seat = 0
    device = hardware[seat]
    names = [c.label for c in device.display.choices]
    assert names[0].startswith("Innocent") and all(c.secret for c in device.display.choices)
    # At rest: the secret is masked; the row says what select does.
    assert hardware.frame(seat).crop(CHOICE_ROW).tobytes() == \
        words(f"? 1/{len(names)} - press to see")
    hardware.click(seat, "next")  # browsing: the second target shows, and what select does
    assert device.mode == "browse" and highlighted(hardware, seat) == names[1]
    assert hint(hardware, seat) == words("select: cast vote")
    for _ in range(3):  # a player taking their time: each press keeps it on screen
        hardware.advance(3.5)
        hardware.click(seat, "next")
        hardware.click(seat, "previous")
        assert device.mode == "browse" and highlighted(hardware, seat) == names[1]
    hardware.advance(5)  # the player looks away: the label hides at rest
    assert device.mode == "rest"
    assert hardware.frame(seat).crop(CHOICE_ROW).tobytes() == \
        words(f"? 2/{len(names)} - press to see")
    hardware.click(seat, "select")  # only shows it again, and says the next press votes
    assert table.match.view(seat)["state"]["vote1"]["mine"] == []
    assert hint(hardware, seat) == words("select: cast vote")
    hardware.click(seat, "select")  # casts
    assert table.match.view(seat)["state"]["vote1"]["mine"] == [
        device_target(names[1], table, seat)]
    assert device.mode == "rest" and not device.display.choices
    assert "Ballots 1 of 5" in device.display.lines


def device_target(label: str, table, seat: int) -> int:
    """The seat a vote's label names."""
    return table.match.names.index(label.removeprefix("Innocent "))


def test_a_captains_orders_pass_by_presses_alone_says_what_each_press_does(table, hardware):
    claim_all(hardware)
    table.start("captains-orders", 4, seed="buttons")
    match = table.match
    seat = match.acting()[0]
    device = hardware[seat]
    target = next(i for i, c in enumerate(device.display.choices)
                  if c.action["type"] == "pass")
    presses = device.presses_to_choose(target)
    for button in presses[:-1]:
        hardware.click(seat, button)
        assert device.mode == "browse"
        line = device.menu_lines[device.highlight]
        if line.is_group:
            assert hint(hardware, seat) == words("select: open"), line
        elif device.display.choices[line.index].action["type"] == "pass":
            assert hint(hardware, seat) == words("select: pass it")
    # On the target, in the card's group: the screen names the whole decision.
    assert device.menu_path[0] == "Pass a card"
    assert highlighted(hardware, seat) == device.display.choices[target].short
    assert hint(hardware, seat) == words("select: pass it")
    hardware.click(seat, presses[-1])
    assert match.acting() != [seat]  # the receiver discards next
    # At rest nothing of the pass shows: the top of the menu, its secrets masked.
    assert device.mode == "rest" and device.menu_path == () and device.highlight == 0
    assert hint(hardware, seat) != words("select: pass it")
