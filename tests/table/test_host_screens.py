"""The host's actions show on every seat's screen and phone at once: pause, end,
replace and kick (docs/seats.md)."""
from __future__ import annotations

from companion.engine import HOST
from tests.table.conftest import claim_all


def started(table, hardware):
    claim_all(hardware)
    table.start("booty-dice", 4, seed="host")
    assert table.display(0).choices  # seat 1 rolls first


def test_a_paused_match_says_so_on_every_oled_and_phone_with_no_choice(table, hardware):
    started(table, hardware)
    table.submit(HOST, {"type": "pause"})
    for seat in range(4):
        shown = hardware[seat].display
        assert shown.lines[0] == "Paused by the host"
        assert shown.choices == () and shown.led == "off" and hardware[seat].led_state == "off"
        _serial, payload = table.payload(seat)
        assert payload["display"]["lines"][0] == "Paused by the host"
        assert payload["display"]["choices"] == []
    table.submit(HOST, {"type": "resume"})
    assert table.display(0).choices and "Paused by the host" not in table.display(0).lines


def test_an_ended_match_shows_the_end_never_a_turn(table, hardware):
    started(table, hardware)
    table.submit(HOST, {"type": "end"})
    for seat in range(4):
        shown = hardware[seat].display
        assert shown.title == "Match ended" and shown.led == "off"
        assert not any("turn" in line.lower() for line in shown.lines)
        _serial, payload = table.payload(seat)
        assert payload["display"]["title"] == "Match ended"
    # Seat 1 alone may play again or pick another game; nobody else has a choice.
    assert [c.action["type"] for c in table.display(0).choices] == [
        "lobby_rematch", "lobby_back"]
    assert all(not table.display(seat).choices for seat in range(1, 4))


def test_replace_puts_the_new_code_on_that_seats_oled_until_its_next_press(table, hardware):
    started(table, hardware)
    old = table.join_url(2)
    new = table.replace_seat(2)
    assert new != old and table.is_claimed(2)
    assert hardware[2].mode == "qr"
    assert [hardware[s].mode for s in (0, 1, 3)] == ["rest"] * 3
    hardware.click(2, "next")  # the player is back: the game again, still seated
    assert hardware[2].mode == "rest" and table.is_claimed(2)
    assert hardware[2].display == table.display(2)


def test_kick_frees_the_seat_and_shows_its_new_code(table, hardware):
    started(table, hardware)
    table.replace_seat(1, unclaim=True)
    assert hardware[1].mode == "qr" and not table.is_claimed(1)
