"""The real pod firmware (firmware/podapp.py, keys.py) on CPython, with stand-in parts.

The Pi-side tests talk to this "fake pod": the firmware's own logic, with a screen that
keeps pages in memory (CPython has no ``framebuf``), the tests' ``machine.Pin`` for its
buttons and LED, and a byte port the test connects to the Pi (a memory cable or a pty).
"""
from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

from . import machine

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

import keys as fw_keys  # noqa: E402  (the firmware's modules, found through FIRMWARE)
import podapp  # noqa: E402

UID = machine.UID
UID_HEX = UID.hex()
BUTTON_PINS = {"previous": 10, "select": 11, "next": 12}


class StepClock:
    """The pod's clock in a test: ``t`` is set by whoever drives the pod."""

    def __init__(self) -> None:
        self.t = 0

    def raw(self) -> int:
        return self.t

    def at(self, raw: int) -> int:
        return raw


class MemoryScreen:
    """The pod screen's interface, keeping the 1,024-byte frame in memory."""

    def __init__(self) -> None:
        self.buffer = bytearray(1024)
        self.level: int | None = None
        self.lines: tuple[str, ...] | None = None  # the waiting screen's text, if shown
        self.errors = 0

    def page(self, index: int, data: bytes, column: int = 0) -> None:
        start = index * 128 + column
        self.buffer[start:start + len(data)] = data
        self.lines = None

    def contrast(self, level: int) -> None:
        self.level = level

    def text(self, lines) -> None:
        self.lines = tuple(lines)

    def flush(self, now: int) -> None:
        """Nothing to send: the frame is already "on the panel"."""

    def pages(self) -> list[bytes]:
        return [bytes(self.buffer[p * 128:(p + 1) * 128]) for p in range(8)]


class ListPort:
    """A port whose input the test fills and whose output it empties."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.lock = threading.Lock()

    def read(self) -> bytes:
        with self.lock:
            data = bytes(self.inbox)
            self.inbox.clear()
            return data

    def write(self, data: bytes) -> None:
        with self.lock:
            self.outbox += data

    def take(self) -> bytes:
        with self.lock:
            data = bytes(self.outbox)
            self.outbox.clear()
            return data


class FakePod:
    """The firmware's ``Pod`` with stand-in hardware; ``press()`` and friends move pins."""

    def __init__(self, port: Any, *, uid: bytes = UID, session: int = 0x5EED, seat: int = 0):
        self.clock = StepClock()
        self.pins = {name: machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP)
                     for name, number in BUTTON_PINS.items()}
        self.led_pin = machine.Pin(15, machine.Pin.OUT, value=0)
        self.screen = MemoryScreen()
        self.keys = fw_keys.Keys([self.pins[n] for n in BUTTON_PINS], self.clock)
        self.pod = podapp.Pod(port, self.screen, self.keys, podapp.Led(self.led_pin), uid,
                              session, seat)

    def step(self, now: int) -> bool:
        self.clock.t = now
        return self.pod.step(now)

    def drive(self, button: str, down: bool, now: int) -> None:
        """Move a button's pin at ``now`` (its interrupt notes the time)."""
        self.clock.t = now
        self.pins[button].drive(0 if down else 1)

    @property
    def linked(self) -> bool:
        return self.pod.linked
