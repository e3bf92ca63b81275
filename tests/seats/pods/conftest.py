"""Seat pods on the Pi side (companion/seats/pods/) against the real firmware logic.

The pod is firmware/podapp.py itself (tests/firmware/fakepod.py gives it stand-in pins
and an in-memory screen). Three ways to reach it, made here:

* a memory cable, stepped 10 ms at a time on one thread: every timing exact (``Rig``);
* a pty pair (``os.openpty``) that pyserial opens like a real /dev/ttyACM0, with the
  port threads of ``PodManager``; closing the pty is pulling the cable (``PtyPod``);
* a whole match: two seats on pty pods and two on simulated GPIO, under ``Table``
  (``MixedTable``).
"""
from __future__ import annotations

import os
import select
import threading
import time
import tty
from pathlib import Path
from typing import Any, Callable

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.engine import PUBLIC, Journal
from companion.engine.display import Choice, Display
from companion.seats import (
    CountingInterface,
    ManualClock,
    RecordingBus,
    open_seats,
    parse_table_config,
)
from companion.seats.pods import PodManager, PodSeat
from companion.seats.ssd1306 import pack_pages
from companion.table import Table
from tests.firmware.fakepod import UID, UID_HEX, FakePod, ListPort

DOC = Path(__file__).resolve().parents[3] / "docs" / "pods.md"
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
