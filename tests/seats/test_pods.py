"""Seat pods on the Pi side (companion/seats/pods.py) against the real firmware logic.

The pod is firmware/podapp.py itself (tests/firmware/fakepod.py gives it stand-in pins
and an in-memory screen). Three ways to reach it:

* a memory cable, stepped 10 ms at a time on one thread: every timing exact;
* a pty pair (``os.openpty``) that pyserial opens like a real /dev/ttyACM0, with the
  port threads of ``PodManager``; closing the pty is pulling the cable;
* a whole match: two seats on pty pods and two on simulated GPIO, under ``Table``.
"""
from __future__ import annotations

import json
import math
import os
import re
import select
import threading
import time
import tty
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import ImageDraw

from companion.cli import main as cli_main
from companion.engine import PUBLIC, Journal
from companion.engine.display import Choice, Display
from companion.errors import SeatError
from companion.seats import (CountingInterface, ManualClock, RecordingBus, ScreenState,
                             open_seats, parse_table_config, podlink, render, screen)
from companion.seats import font, podinstall
from companion.seats.pods import (PodButton, PodManager, PodSeat, find_pods, page_update,
                                  pod_report)
from companion.seats.ssd1306 import pack_pages
from companion.table import Table
from tests.firmware.fakepod import UID, UID_HEX, FakePod, ListPort

DOC = Path(__file__).resolve().parents[2] / "docs" / "pods.md"
JOIN_URL = "HTTP://10.42.0.1:8000/J/3F2A9C0D4E5B6A7988776655443322AA"
TICK = 10


def vote(**changes: Any) -> Display:
    fields: dict[str, Any] = dict(
        title="Mutiny at Dawn", lines=("Round 3 - night", "Captain: seat 2", "Rum: 4 barrels"),
        choices=(Choice("Mutiny!", {"type": "vote", "side": "mutiny"}),
                 Choice("Defend the Captain", {"type": "vote", "side": "defend"}, secret=True),
                 Choice("Abstain", {"type": "vote", "side": "abstain"})),
        private=("Role: First Mate", "Crew dice: 3 5 6"), led="on")
    fields.update(changes)
    return Display(**fields)


# -- a pod on a memory cable, stepped by hand --------------------------------------------------
class Wire:
    """The Pi's end of the memory cable; ``cut`` makes it fail like an unplugged port."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.cut = False
        self.closed = False
        self.timeouts = 0  # writes to fail with TimeoutError (a pod that stopped reading)

    def read_available(self) -> bytes:
        if self.cut:
            raise ConnectionError("device disconnected")
        data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def write(self, data: bytes) -> None:
        if self.cut:
            raise ConnectionError("device disconnected")
        if self.timeouts:
            self.timeouts -= 1
            raise TimeoutError("write timeout")
        self.outbox += data

    def close(self) -> None:
        self.closed = True


class Rig:
    """A PodManager, one bound PodSeat and a fake pod on a memory cable."""

    def __init__(self, *, uid: bytes = UID, bind: str = UID_HEX, session: int = 0x5EED,
                 hold_ms: int = 600) -> None:
        self.now = 0
        self.manager = PodManager(ports=lambda: [], clock=lambda: self.now)
        self.clock = ManualClock()
        self.seat = PodSeat(1, self.manager.bind(bind, 1, hold_ms=hold_ms), clock=self.clock)
        self.actions: list[dict[str, Any]] = []
        self.seat.when_action = self.actions.append
        self.port = ListPort()
        self.pod = FakePod(self.port, uid=uid, session=session, seat=1)
        self.to_pod = self.to_table = True  # each direction of the cable carries bytes
        self.sent_to_pod = bytearray()  # everything the table wrote that reached the pod
        self.plug()

    def plug(self, name: str = "memory") -> None:
        self.wire = Wire()
        self.connection = self.manager.attach(name, self.wire)

    def unplug(self) -> None:
        self.wire.cut = True

    def run(self, ms: int = 200) -> None:
        for _ in range(ms // TICK):
            self.now += TICK
            self.pod.step(self.now)
            sent = self.port.take()
            if self.to_table and not self.wire.cut:
                self.wire.inbox += sent
            self.connection.pump(self.now)
            back = bytes(self.wire.outbox)
            self.wire.outbox.clear()
            if self.to_pod and not self.wire.cut:
                self.port.inbox += back
                self.sent_to_pod += back
            self.clock.advance(TICK / 1000)

    def press(self, button: str, hold_ms: int = 0) -> None:
        self.pod.drive(button, True, self.now)
        self.run(max(hold_ms, 50))

    def release(self, button: str) -> None:
        self.pod.drive(button, False, self.now)
        self.run(50)

    def click(self, button: str) -> None:
        self.press(button)
        self.release(button)

    def shows_the_seat(self) -> bool:
        return self.pod.screen.pages() == pack_pages(self.seat.frame(), 8)

    def status(self) -> Any:
        return self.seat.status()


@pytest.fixture
def rig():
    made = Rig()
    yield made
    made.manager.close()
    made.seat.close()


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


# -- buttons, ports, the report ------------------------------------------------------------------
def test_a_pod_button_ignores_events_that_make_no_sense():
    button = PodButton("select")
    seen: list[str] = []
    button.when_pressed = lambda: seen.append("press")
    button.when_held = lambda b: seen.append(f"hold {b.name}")  # gpiozero style, too
    button.when_released = lambda: seen.append(f"release held={button.was_held}")
    for kind in ("hold", "release", "press", "press", "hold", "hold", "release", "release"):
        button.feed(kind)
    assert seen == ["press", "hold select", "release held=True"]
    assert button.wait_for_release(timeout=0)
    button.close()
    button.feed("press")
    assert not button.is_pressed


def test_find_pods_by_usb_id_prefers_by_id_names(tmp_path):
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    acm0, acm1 = tmp_path / "ttyACM0", tmp_path / "ttyACM1"
    acm0.touch()
    acm1.touch()
    (by_id / "usb-MicroPython_Board_in_FS_mode_e6614103e7000001-if00").symlink_to(acm0)
    ports = [SimpleNamespace(device=str(acm0), vid=0x2E8A, pid=0x0005),
             SimpleNamespace(device=str(acm1), vid=0x2E8A, pid=0x0005),
             SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001)]
    assert find_pods(lambda: ports, str(by_id)) == [
        str(by_id / "usb-MicroPython_Board_in_FS_mode_e6614103e7000001-if00"), str(acm1)]


def test_a_port_that_will_not_open_is_reported_with_the_fix():
    now = [0]

    def refuse(name: str) -> Any:
        raise PermissionError(13, "Permission denied")
    manager = PodManager(ports=lambda: ["/dev/ttyACM0"], opener=refuse, clock=lambda: now[0])
    assert manager.scan(threads=False) == []
    (status,) = manager.report()
    assert status.port == "/dev/ttyACM0" and "dialout" in status.state
    opened: list[str] = []
    manager.opener = lambda name: opened.append(name) or Wire()
    manager.scan(threads=False)
    assert opened == []  # not before REOPEN_MS
    now[0] = 10_000
    assert len(manager.scan(threads=False)) == 1 and opened == ["/dev/ttyACM0"]
    manager.close()


def test_open_seats_binds_pod_seats_and_the_table_closes_their_manager():
    config = parse_table_config('[[seat]]\npod = "E6614103E7000001"\nname = "Stern"\n',
                                backend="pi", bus_exists=lambda bus: True)
    manager = PodManager(ports=lambda: [])
    with open_seats(config, "pi", clock=ManualClock(), pods=manager) as table:
        seat = table[0]
        assert isinstance(seat, PodSeat) and seat.pod.uid == UID_HEX and seat.name == "Stern"
        assert table.pods is manager
        (report,) = pod_report(table)
        assert report["id"] == UID_HEX and report["seat"] == 1 and not report["connected"]
    assert manager._closed


def test_two_seats_cannot_share_a_pod_even_in_other_case():
    manager = PodManager(ports=lambda: [])
    manager.bind("e6614103e7000001", 1)
    with pytest.raises(SeatError, match="seats 1 and 2 both name pod 'E6614103E7000001'"):
        manager.bind("E6614103E7000001", 2)


def test_the_sim_backend_refuses_pods_with_the_fix():
    config = parse_table_config('[[seat]]\npod = "pod-1"\n', backend="sim")
    with pytest.raises(SeatError, match=r"seat 1 uses pod 'pod-1'.*Fix: use the pi backend"):
        open_seats(config, "sim", clock=ManualClock())


def test_a_table_without_pods_reports_none():
    from companion.seats import sim_table_config
    with open_seats(sim_table_config(1), "sim", clock=ManualClock()) as table:
        assert table.pods is None and pod_report(table) == []


# -- a fake pod on a pty, with PodManager's threads ---------------------------------------------
class PtyPod:
    """The fake pod on its own thread, behind the master end of a pty when plugged in.

    Unplugged, it keeps running (it has power, not a table): presses still queue.
    """

    def __init__(self, uid: bytes = UID, session: int = 0x5EED):
        self.port = ListPort()
        self.fake = FakePod(self.port, uid=uid, session=session)
        self.calls: list[Callable[[int], None]] = []
        self.lock = threading.Lock()
        self.master: int | None = None
        self.slave: int | None = None
        self.path: str | None = None
        self.now = 0
        self.running = True
        self.thread = threading.Thread(target=self._loop, daemon=True, name="fake pod")
        self.thread.start()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: bytes as they are
        with self.lock:
            self.master, self.slave, self.path = master, slave, os.ttyname(slave)

    def unplug(self) -> None:
        with self.lock:
            fds, self.master, self.slave, self.path = (self.master, self.slave), None, None, None
        for fd in fds:
            if fd is not None:
                os.close(fd)

    def press(self, button: str, down: bool = True) -> None:
        """Move a button on the pod's own thread (as its interrupt would)."""
        with self.lock:
            self.calls.append(lambda now: self.fake.drive(button, down, now))

    def click(self, button: str) -> None:
        self.press(button, True)
        self.press(button, False)

    def close(self) -> None:
        self.running = False
        self.thread.join(timeout=2)
        self.unplug()

    def _loop(self) -> None:
        while self.running:
            with self.lock:
                master, calls, self.calls = self.master, self.calls, []
            incoming = self._read(master)
            # Never backwards: each button edge below moves the pod's time on by 40 ms.
            now = self.now = max(int(time.monotonic() * 1000), self.now)
            for call in calls:
                call(now)
                now = self.now = now + 40  # past the debounce window: each edge counts
                self.fake.step(now)
            self.port.inbox += incoming
            self.fake.step(now)
            self._write(master, self.port.take())

    def _read(self, master: int | None) -> bytes:
        if master is None:
            time.sleep(0.002)
            return b""
        try:
            ready, _, _ = select.select([master], [], [], 0.002)
            return os.read(master, 4096) if ready else b""
        except OSError:
            return b""

    def _write(self, master: int | None, data: bytes) -> None:
        if master is not None and data:
            try:
                os.write(master, data)
            except OSError:
                pass  # unplugged meanwhile


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {condition.__doc__ or condition}")
        time.sleep(0.01)


@pytest.fixture
def pty_pods():
    made: list[PtyPod] = []

    def make(uid: bytes = UID) -> PtyPod:
        pod = PtyPod(uid)
        pod.plug()
        made.append(pod)
        return pod
    yield made, make
    for pod in made:
        pod.close()


def fast_manager(pods: list[PtyPod]) -> PodManager:
    return PodManager(ports=lambda: [p.path for p in pods if p.path], scan_seconds=0.05)


def test_a_pty_pod_is_found_linked_unplugged_and_plugged_back(pty_pods):
    pods, make = pty_pods
    pod = make()
    manager = fast_manager(pods)
    clock = ManualClock()
    seat = PodSeat(1, manager.bind(UID_HEX, 1), clock=clock)
    manager.start()
    try:
        seat.show(vote())
        wait_until(lambda: pod.fake.screen.pages() == pack_pages(seat.frame(), 8))
        assert seat.status().connected and seat.status().port == pod.path
        pod.unplug()
        wait_until(lambda: seat.status().state == "unplugged")
        pod.click("next")  # while unplugged: queued on the pod
        seat.show(vote(title="Mutiny at Noon"))
        pod.plug()
        wait_until(lambda: seat.highlight == 1)
        wait_until(lambda: pod.fake.screen.pages() == pack_pages(seat.frame(), 8))
        assert seat.status().connects == 2 and seat.highlight == 1
    finally:
        manager.close()
        seat.close()
    wait_until(lambda: pod.fake.screen.lines is not None)  # BYE: "waiting for the table"


# -- a match: two pods, two wired seats ----------------------------------------------------------
MIXED = """
[[seat]]
name = "Bow"
buttons = { previous = 5, select = 6, next = 13 }
screen = { bus = 1, mux = 0x70, channel = 0 }

[[seat]]
name = "Port"
buttons = { previous = 19, select = 26, next = 16 }
screen = { bus = 1, mux = 0x70, channel = 1 }

[[seat]]
name = "Stern"
pod = "e6614103e7000003"

[[seat]]
name = "Starboard"
pod = "e6614103e7000004"
"""
WIRED_PINS = {0: {"previous": 5, "select": 6, "next": 13},
              1: {"previous": 19, "select": 26, "next": 16}}


class MixedTable:
    """Table + two wired seats on mock pins + two pty pods, and how to press on each."""

    def __init__(self, pods: list[PtyPod]):
        self.pods = {2: pods[0], 3: pods[1]}
        self.clock = ManualClock()
        self.factory = MockFactory(pin_class=MockPWMPin)
        config = parse_table_config(MIXED, backend="pi", bus_exists=lambda bus: True)
        self.hardware = open_seats(config, "pi", clock=self.clock, pin_factory=self.factory,
                                   i2c=lambda bus, address: CountingInterface(),
                                   smbus=lambda bus: RecordingBus(), bus_exists=lambda bus: True,
                                   pods=fast_manager(pods))
        self.table = Table(Journal(":memory:"), list(self.hardware))

    def click(self, seat: int, button: str) -> None:
        if seat in self.pods:
            self.pods[seat].click(button)
            return
        pin = self.factory.pin(WIRED_PINS[seat][button])
        for drive in (pin.drive_low, pin.drive_high):
            drive()
            self.clock.advance(0.031)

    def choose(self, seat: int, wanted: Callable[[dict], bool], wait: bool = True) -> None:
        """Pick the first choice whose action matches, with buttons alone (as test_table)."""
        device = self.hardware[seat]
        choices = device.display.choices
        target = next(i for i, c in enumerate(choices) if wanted(c.action))
        for button in device.presses_to_choose(target):  # through the choice's groups
            self.click(seat, button)
        if wait:
            wait_until(lambda: device.display.choices != choices)

    def ballots(self) -> dict[str, Any]:
        return self.table.payload(PUBLIC)[1]["match"]["state"]["vote1"]

    def close(self) -> None:
        self.table.close()
        self.hardware.close()
        self.factory.reset()


def test_a_match_with_two_pods_survives_a_pod_pulled_out_during_the_vote(pty_pods):
    pods, make = pty_pods
    make(bytes.fromhex("e6614103e7000003"))
    make(bytes.fromhex("e6614103e7000004"))
    mixed = MixedTable(pods)
    table, hardware = mixed.table, mixed.hardware
    try:
        for seat in range(4):
            mixed.click(seat, "select")
            wait_until(lambda: table.is_claimed(seat))
        table.start("moon-yeti", 4, seed="pods", options={"time_source": "clock"})
        match = table.match
        mixed.choose(0, lambda a: a["type"] == "declare")
        for seat in range(4):
            mixed.choose(seat, lambda a: a["type"] == "ready")
        wait_until(lambda: match.step() == "vote1")
        pulled = mixed.pods[2]
        pulled.unplug()
        wait_until(lambda: hardware[2].status().state == "unplugged")
        before = mixed.ballots()["ballots_in"]
        mixed.choose(2, lambda a: a["type"] == "vote", wait=False)  # queued on the pod
        votes = {2: 1}
        assert mixed.ballots()["ballots_in"] == before
        pulled.plug()
        wait_until(lambda: mixed.ballots()["ballots_in"] == before + 1)
        wait_until(lambda: pulled.fake.screen.pages() == pack_pages(hardware[2].frame(), 8))
        while match.step() == "vote1":
            for seat in match.acting():
                mixed.choose(seat, lambda a: a["type"] == "vote")
                votes[seat] = votes.get(seat, 0) + 1
        for pod in pods:  # every press delivered and acknowledged
            wait_until(lambda: not pod.fake.pod.link.queue)
        public = match.view("public")["state"]["vote1"]
        assert public["revealed"] and public["ballots_in"] == public["ballots_total"]
        # Each ballot once: the pulled pod's included, its presses neither lost nor doubled.
        assert {seat: len(public["cast"][seat]) for seat in votes} == votes
        assert hardware[2].status().connects == 2
    finally:
        mixed.close()


# -- the byte figures of docs/pods.md -------------------------------------------------------------
TEXT_COST = 4  # op, x, y, flags (bold, scale, length) before the characters
LINE_COST = 5  # op, x0, y0, x1, y1
CLEAR_COST = 3  # op, first page, last page
FRAME_COST = 11  # type, seq, ack, crc, COBS code byte, delimiter: what each frame adds


def drawing_ops(state: ScreenState, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int]]:
    """What drawing commands would draw ``state``: (bytes, top row, bottom row) each.

    Recorded from the drawing itself: each text run, rule, and the QR code as one bitmap.
    """
    ops: list[tuple[int, int, int]] = []
    draw_text, line, draw_code = font.draw_text, ImageDraw.ImageDraw.line, screen._draw_code

    def text(draw, xy, string, fill=1, scale=1, bold=False):
        ops.append((TEXT_COST + len(string), xy[1], xy[1] + font.GLYPH_H * scale - 1))
        draw_text(draw, xy, string, fill, scale, bold)

    def rule(self, xy, *args, **kwargs):
        ops.append((LINE_COST, xy[1], xy[3]))
        line(self, xy, *args, **kwargs)

    def code(canvas, matrix, side):
        ops.append((3 + math.ceil(len(matrix) ** 2 / 8), 0, side - 1))
        draw_code(canvas, matrix, side)
    with monkeypatch.context() as patch:
        patch.setattr(font, "draw_text", text)
        patch.setattr(ImageDraw.ImageDraw, "line", rule)
        patch.setattr(screen, "_draw_code", code)
        screen._draw(state, (screen.WIDTH, screen.HEIGHT))  # not render: it may reuse a frame
    return ops


def command_bytes(ops: list[tuple[int, int, int]], changed: list[int]) -> int:
    """Clear each run of changed pages, redraw every op that touches it, in frames."""
    total, runs = 0, []
    for page in changed:
        if runs and runs[-1][1] == page - 1:
            runs[-1][1] = page
        else:
            runs.append([page, page])
    for first, last in runs:
        total += CLEAR_COST + sum(cost for cost, top, bottom in ops
                                  if top <= last * 8 + 7 and bottom >= first * 8)
    return total + FRAME_COST * math.ceil(total / podlink.MAX_PAYLOAD) if total else 0


def state_of(seat: PodSeat) -> ScreenState:
    mode = seat.mode
    if mode == "qr":
        return ScreenState("qr", None, 0, seat.number, JOIN_URL)
    return ScreenState(mode, seat.display, seat.highlight, seat.number)


def measure_pods(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int, int, int]]:
    """The docs/seats.md session on a pod seat: per step, the pages changed and the bytes
    to the pod as whole pages, as changed columns (what is sent) and as drawing commands."""
    made = Rig()
    steps = [
        ("show a vote on a blank screen", lambda: made.seat.show(vote())),
        ("the same display again", lambda: made.seat.show(vote())),
        ("one public line changes", lambda: made.seat.show(vote(
            lines=("Round 3 - night", "Captain: seat 4", "Rum: 4 barrels")))),
        ("next pressed (starts browsing)", lambda: made.click("next")),
        ("next pressed again", lambda: made.click("next")),
        ("browsing times out", lambda: made.clock.advance(5)),
        ("select pressed (browsing)", lambda: made.press("select")),
        ("select held 0.6 s: private lines", lambda: made.run(600)),
        ("select released (browsing)", lambda: made.release("select")),
        ("browsing times out again", lambda: made.clock.advance(5)),
        ("idle 5 minutes: the screen dims", lambda: made.clock.advance(300)),
        ("join QR code", lambda: made.seat.show_qr(JOIN_URL)),
        ("pod plugged back in: everything again", lambda: (made.unplug(), made.run(100),
                                                           made.plug("again"))),
    ]
    rows = []
    made.run(200)
    try:
        for name, step in steps:
            before = list(made.seat.pod.pages) if not name.startswith("pod") else [None] * 8
            made.sent_to_pod.clear()
            step()
            made.run(300)
            after = list(made.seat.pod.pages)
            assert render(state_of(made.seat)).tobytes() == made.seat.frame().tobytes()
            changed = [p for p in range(8) if before[p] != after[p]]
            whole = sum(len(podlink.encode(podlink.PAGE, 1, 1, podlink.pack_page(p, after[p])))
                        for p in changed)
            spans = sum(len(podlink.encode(podlink.PAGE, 1, 1,
                                           page_update(p, before[p], after[p])))
                        for p in changed)
            assert spans == sent_page_bytes(made.sent_to_pod)  # what really went out
            commands = command_bytes(drawing_ops(state_of(made.seat), monkeypatch), changed)
            rows.append((name, len(changed), whole, spans, commands))
    finally:
        made.manager.close()
        made.seat.close()
    return rows


def sent_page_bytes(stream: bytes) -> int:
    return sum(len(raw) + 1 for raw in podlink.Deframer().feed(bytes(stream))
               if podlink.decode(raw)[0] == podlink.PAGE)


def figure_rows(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    rows = measure_pods(monkeypatch)
    out = [f"| {name} | {pages} | {whole} | {spans} | {commands} |"
           for name, pages, whole, spans, commands in rows]
    totals = [sum(row[i] for row in rows) for i in range(1, 5)]
    out.append("| **the whole session** | {} | {} | {} | {} |".format(*totals))
    return out


def test_the_byte_figures_in_the_docs_are_measured(monkeypatch):
    documented = [line for line in DOC.read_text().splitlines()
                  if re.match(r"\| .* \| \d+ \| \d+ \| \d+ \| \d+ \|$", line)]
    measured = figure_rows(monkeypatch)
    assert documented == measured, "\n".join(["re-measured:"] + measured)


# -- mutiny pod install ---------------------------------------------------------------------
def test_pod_install_dry_run_prints_the_plan(capsys):
    assert cli_main(["pod", "install", "/dev/ttyACM0", "--seat", "3", "--pin", "led=none",
                     "--pin", "select=GP20", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("would run: ") and "mpremote connect /dev/ttyACM0 exec" in out[0]
    assert out[1] == 'would write pod_config.json: {"seat": 3, "led": null, "select": 20}'
    assert "cp " in out[2] and out[2].endswith(" : + cp '<pod_config.json>' "
                                               ":pod_config.json + reset")
    assert out[2].index("podlink.py") < out[2].index("main.py")  # main.py goes last
    assert out[3] == ('then add to the table config, in seat 3\'s [[seat]] block: '
                      'pod = "<the id it reads>"')


def test_pod_install_runs_mpremote_and_writes_the_seat(capsys):
    plan = podinstall.plan("/dev/ttyACM1", seat=2, flip=True)
    runs: list[list[str]] = []
    written: list[dict] = []

    def run(command, capture_output, text, check):
        runs.append(command)
        if "exec" in command:
            return SimpleNamespace(returncode=0, stdout="POD-ID E6614103E7000001\n", stderr="")
        config = command[command.index(":pod_config.json") - 1]
        written.append(json.loads(Path(config).read_text()))
        return SimpleNamespace(returncode=0, stdout="", stderr="")
    import sys
    assert podinstall.install(plan, sys.stdout, run) == UID_HEX
    assert written == [{"seat": 2, "flip": True}]
    assert [c[c.index("connect") + 2] for c in runs] == ["exec", "cp"]
    out = capsys.readouterr().out
    assert f'pod = "{UID_HEX}"' in out and "seat 2's [[seat]] block" in out


@pytest.mark.parametrize("args, message", [
    (["--pin", "select"], "is not NAME=GPIO"),
    (["--pin", "bogus=3"], "is not NAME=GPIO"),
    (["--pin", "led=40"], "is not a Pico GPIO"),
    (["--seat", "0"], "out of range"),
    (["--firmware", "/nonexistent"], "no pod firmware in /nonexistent"),
])
def test_pod_install_refuses_bad_arguments(args, message, capsys):
    assert cli_main(["pod", "install", "/dev/ttyACM0", "--dry-run", *args]) == 1
    assert message in capsys.readouterr().err


def test_pod_install_explains_a_board_that_says_no_id():
    plan = podinstall.plan("/dev/ttyACM0")
    assert plan.config is None  # no seat, no pins: the pod keeps its config

    def run(command, capture_output, text, check):
        return SimpleNamespace(returncode=0, stdout=">>> ", stderr="")
    with pytest.raises(podinstall.InstallError, match="did not say its id.*Hold select"):
        podinstall.install(plan, open(os.devnull, "w"), run)

    def fail(command, capture_output, text, check):
        return SimpleNamespace(returncode=1, stdout="", stderr="could not enter raw repl")
    with pytest.raises(podinstall.InstallError, match="failed \\(exit 1\\): could not enter"):
        podinstall.install(plan, open(os.devnull, "w"), fail)


def test_pod_install_needs_mpremote(monkeypatch):
    import importlib.util
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(podinstall.InstallError, match=r"pip install 'mutiny-table\[pod\]'"):
        podinstall.require_mpremote()
