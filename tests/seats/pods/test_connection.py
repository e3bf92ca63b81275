"""One pod on a memory cable, stepped by hand: the link's table end (handshake,
resends, keepalive, pages sent as changed columns)."""
from __future__ import annotations

from companion.seats import podlink
from companion.seats.pods import page_update
from tests.firmware.fakepod import UID, UID_HEX, FakePod, ListPort
from tests.seats.pods.conftest import Rig, vote


def test_a_pod_links_and_shows_its_seat(rig):
    assert rig.pod.screen.lines[3] == "waiting for"  # before the table answers
    rig.run(100)
    assert rig.pod.linked and rig.connection.binding is rig.seat.pod
    rig.seat.show(vote())
    rig.run(200)
    assert rig.shows_the_seat()
    assert rig.pod.keys.hold_ms == 600 and rig.pod.keys.bounce_ms == 30  # SETUP
    assert rig.pod.led_pin.level == 1  # led="on"
    status = rig.status()
    assert (status.id, status.seat, status.port, status.firmware, status.connected,
            status.dropped, status.state) == (UID_HEX, 1, "memory", podlink.FIRMWARE_VERSION,
                                              True, 0, "linked")


def test_buttons_drive_the_same_seat_logic_as_wired_buttons(rig):
    rig.run(100)
    rig.seat.show(vote())
    rig.run(100)
    rig.click("next")
    assert rig.seat.mode == "browse" and rig.seat.highlight == 1
    rig.click("select")
    assert rig.actions == [{"type": "vote", "side": "defend"}]
    rig.press("select", hold_ms=700)
    assert rig.seat.mode == "private"
    rig.release("select")
    assert rig.actions == [{"type": "vote", "side": "defend"}]  # a hold never confirms
    rig.run(200)
    assert rig.shows_the_seat()


def test_a_changed_line_sends_only_its_changed_columns(rig):
    rig.run(100)
    rig.seat.show(vote())
    rig.run(200)
    rig.sent_to_pod.clear()
    rig.seat.show(vote(lines=("Round 3 - night", "Captain: seat 4", "Rum: 4 barrels")))
    rig.run(100)
    pages = [podlink.describe(*_kind_payload(raw)) for raw in podlink.Deframer().feed(
        bytes(rig.sent_to_pod)) if podlink.decode(raw)[0] == podlink.PAGE]
    assert [(p["page"], p["column"], len(p["data"]) // 2) for p in pages] == [(2, 85, 5)]
    assert rig.shows_the_seat()


def _kind_payload(raw: bytes) -> tuple[int, bytes]:
    kind, _, _, payload = podlink.decode(raw)
    return kind, payload


def test_presses_made_while_unplugged_arrive_once_and_the_screen_is_redrawn(rig):
    rig.run(100)
    rig.seat.show(vote())
    rig.run(200)
    rig.unplug()
    rig.run(100)
    assert rig.connection.closed and rig.status().state == "unplugged"
    rig.click("next")
    rig.click("next")  # queued on the pod
    rig.seat.show(vote(title="Mutiny at Noon"))  # the seat moves on without its pod
    rig.run(podlink.TIMEOUT_MS)
    assert rig.pod.screen.lines is not None  # the pod gave up: "waiting for the table"
    rig.plug("memory-2")
    rig.run(300)
    assert rig.seat.highlight == 2 and rig.seat.mode == "browse"  # both nexts, once each
    assert rig.shows_the_seat()
    status = rig.status()
    assert (status.connected, status.port, status.connects) == (True, "memory-2", 2)


def test_lost_acks_never_double_a_press(rig):
    rig.run(100)
    rig.seat.show(vote())
    rig.run(100)
    rig.to_pod = False  # the table hears the pod, the pod hears nothing back
    rig.click("next")
    rig.run(podlink.RETRANSMIT_MS * 3)  # the pod resends; the table sees duplicates
    assert rig.seat.highlight == 1
    assert rig.connection.link.stats["duplicate"] > 0
    rig.unplug()
    rig.run(podlink.TIMEOUT_MS)
    rig.to_pod = True
    rig.plug("again")
    rig.run(300)  # the WELCOME's ack tells the pod the press already arrived
    assert rig.seat.highlight == 1 and rig.pod.pod.link.queue == []


def test_a_table_that_restarts_gets_the_presses_it_never_saw():
    first = Rig()
    first.run(100)
    first.seat.show(vote())
    first.run(100)
    first.to_table = False
    first.click("next")  # never reaches the first table
    first.manager.close()
    first.seat.close()
    second = Rig()  # a new table process: no memory of the pod's session
    second.port, second.pod = first.port, first.pod
    second.now = first.now
    second.seat.show(vote())
    second.run(300)  # its ASK makes the pod say HELLO; the queued press follows
    assert second.pod.linked and second.seat.highlight == 1
    assert second.shows_the_seat()
    second.manager.close()
    second.seat.close()


def test_a_pod_that_restarts_mid_press_confirms_nothing(rig):
    rig.run(100)
    rig.seat.show(vote())
    rig.run(100)
    rig.click("next")
    rig.press("select")
    assert rig.seat.buttons.select.is_pressed
    rig.port = ListPort()  # the pod lost power and booted again: a new session
    rig.pod = FakePod(rig.port, session=0xB007, seat=1)
    rig.run(300)
    assert not rig.seat.buttons.select.is_pressed
    assert rig.actions == [] and rig.pod.linked and rig.shows_the_seat()


def test_a_silent_pod_is_reported_and_asked_again(rig):
    rig.run(100)
    rig.to_table = False
    rig.run(podlink.TIMEOUT_MS + 100)
    assert (rig.status().state, rig.status().connected, rig.status().port) == (
        "silent", False, "memory")
    assert rig.connection.binding is None and not rig.connection.closed
    assert len(rig.manager.report()) == 1  # its port is not listed again as a stranger
    rig.to_table = True
    rig.run(podlink.TIMEOUT_MS)  # the pod timed out too, and says HELLO again
    assert rig.status().connected and rig.shows_the_seat()


def test_a_pod_nobody_named_shows_its_id(rig):
    stranger = Rig(uid=bytes.fromhex("e6614103e70000ff"), bind="e6614103e7000001")
    stranger.run(200)
    status = [s for s in stranger.manager.report() if s.id == "e6614103e70000ff"]
    assert status and status[0].seat is None and status[0].connected
    assert any(stranger.pod.screen.pages())  # "Unknown pod ... table config"
    assert stranger.seat.status().state == "waiting"
    stranger.manager.close()
    stranger.seat.close()


def test_noise_and_corrupt_frames_are_counted_never_raised(rig):
    rig.seat.show(vote())
    rig.run(100)
    rig.wire.inbox += b"\x01\x02garbage\x00" + b"\x41" * 700 + b"\x00"
    rig.wire.inbox += podlink.encode(podlink.HELLO, 0, 0, b"\x01\x00")  # malformed
    rig.wire.inbox += podlink.encode(0x3F, 0, 0, b"")  # a message nobody knows
    rig.run(50)
    status = rig.status()
    assert status.connected and status.dropped == 4  # the 700-byte run counts too
    table = status.details["table"]
    assert (table["bad"], table["malformed"], table["unknown"]) == (1, 1, 1)
    rig.click("next")  # and the link still works
    assert rig.seat.highlight == 1 and rig.seat.mode == "browse"


def test_the_pods_own_counters_come_with_its_pings(rig):
    rig.run(100)
    rig.port.inbox += b"\x05noise\x00"
    rig.run(podlink.KEEPALIVE_MS + 100)
    assert rig.seat.pod.pod_counters["bad"] == 1
    assert rig.status().dropped == 1


def test_a_pod_speaking_another_protocol_is_not_linked(rig):
    hello = bytearray(podlink.pack_hello(7, 0, 1, UID, "0.1"))
    hello[0] = podlink.PROTOCOL + 1
    rig.wire.inbox += podlink.encode(podlink.HELLO, 0, 0, bytes(hello))
    rig.connection.pump(0)
    assert rig.connection.binding is None
    report = rig.manager.report()
    assert any(s.state.startswith(f"protocol {podlink.PROTOCOL + 1}") for s in report)


def test_a_pod_that_stops_reading_costs_a_timeout_not_a_hang(rig):
    rig.run(100)
    rig.wire.timeouts = 3
    rig.seat.show(vote())
    rig.run(500)
    assert rig.connection.write_timeouts == 3 and rig.shows_the_seat()


def test_pages_are_sent_whole_when_the_pod_is_unknown_else_as_changed_columns():
    page = bytes(range(128))
    assert page_update(3, None, page) == podlink.pack_page(3, page)
    changed = bytearray(page)
    changed[40] ^= 1
    changed[44] ^= 1
    assert page_update(3, page, bytes(changed)) == podlink.pack_page(3, changed[40:45], 40)
