"""Seat screens drawn in the background: a thread per I2C bus, newest screen first."""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Protocol, Sequence

from companion.engine import Display

log = logging.getLogger(__name__)


class SeatDevice(Protocol):
    """What the table needs of one seat's hardware (see :mod:`companion.seats`)."""

    when_action: Callable[[dict[str, Any]], None] | None
    when_claimed: Callable[[], None] | None

    def show(self, display: Display) -> None: ...
    def show_qr(self, url: str) -> None: ...
    def close(self) -> None: ...


def paint(device: SeatDevice, shown: Display | str) -> None:
    """Draw ``shown`` on ``device`` now: a Display, or a join URL as its QR code."""
    if isinstance(shown, Display):
        device.show(shown)
    else:
        device.show_qr(shown)


class ScreenPainter:
    """Draws seat screens in the background, newest first: a seat whose screen changed
    twice before it was drawn is drawn once, with the newer one. Seats are drawn in the
    order the table handed them.

    Each I2C bus gets a thread of its own (a device's ``i2c_bus``; devices without one
    share a thread). Screens on one bus take turns on its two wires anyway, but two buses
    move their bytes at the same time (smbus2's transfers release the GIL), so after a
    reveal every screen is drawn once the busiest bus is done, not once all buses are.
    A screen that fails is logged, and the others are drawn all the same.

    ``settle(timeout)``, if given, is called before each round of drawing: the hub's
    ``wait_sent``, so the phones' updates go out first and the CPU time of eight
    redraws (about 2 ms on the simulated table) does not delay them.

    A round starts once the table has been quiet for ``QUIET_SECONDS`` (no screen
    changed), or ``LATEST_SECONDS`` after its first change at the latest, and never
    sooner than ``GAP_SECONDS`` after the last round began nor sooner than twice that
    round's drawing time after it ended (the screens take a third of the interpreter
    at most, on a slow CPU too): a burst of changes (votes back to back, a bot's moves)
    is drawn once, newest first, instead of each change being drawn and overdrawn a
    few milliseconds later while the next one is being answered. Between two seats the
    thread lets the others run (a request waiting for the interpreter does not wait
    out a round)."""

    #: The longest the screens wait for the phones, in seconds.
    SETTLE_SECONDS = 0.02
    #: How long no screen may have changed before a round starts, in seconds.
    QUIET_SECONDS = 0.003
    #: The longest a change waits for a quiet moment, in seconds. An SSD1306 frame
    #: takes 23 ms on a 400 kHz bus, and a person does not read a screen that changes
    #: more often than this either.
    LATEST_SECONDS = 0.025
    #: The shortest time between the starts of two rounds on one bus, in seconds.
    GAP_SECONDS = 0.01

    def __init__(self, devices: Sequence[SeatDevice],
                 settle: Callable[[float], Any] | None = None):
        self._devices = devices
        self._settle = settle
        self._closed = False
        # One lock for every bus's conditions: paint() and close() need no more.
        self._lock = threading.Lock()
        self._bus_of = [getattr(device, "i2c_bus", None) for device in devices]
        self._due: dict[int | None, dict[int, Display | str]] = {}
        self._changed_at: dict[int | None, float] = {}  # each bus's latest change
        self._wake: dict[int | None, threading.Condition] = {}
        self._threads: list[threading.Thread] = []
        for bus in dict.fromkeys(self._bus_of):  # each bus once, in seat order
            self._due[bus] = {}
            self._wake[bus] = threading.Condition(self._lock)
            name = "seat-screens" if bus is None else f"seat-screens-i2c-{bus}"
            self._threads.append(threading.Thread(target=self._run, args=(bus,), name=name,
                                                  daemon=True))
        for thread in self._threads:
            thread.start()

    def paint(self, index: int, shown: Display | str) -> None:
        """Draw ``shown`` (a Display, or a join URL's QR code) on seat ``index`` soon."""
        bus = self._bus_of[index]
        with self._lock:
            due = self._due[bus]
            if not due:  # (the thread wakes for a round's first change only)
                self._wake[bus].notify()
            due[index] = shown
            self._changed_at[bus] = time.monotonic()

    def _run(self, bus: int | None) -> None:
        due, wake = self._due[bus], self._wake[bus]
        soonest = float("-inf")  # when the next round may start
        while self._round_due(bus, soonest):
            if self._settle is not None:
                self._settle(self.SETTLE_SECONDS)
            with wake:
                batch = dict(due)
                due.clear()
            began = time.monotonic()
            for index, shown in batch.items():  # in the order the table handed them
                time.sleep(0)  # let a waiting request have the interpreter
                try:
                    paint(self._devices[index], shown)
                except Exception:  # a screen's fault must not stop the others
                    log.exception("seat %d: drawing failed", index + 1)
            ended = time.monotonic()
            soonest = max(began + self.GAP_SECONDS, ended + 2 * (ended - began))

    def _round_due(self, bus: int | None, soonest: float) -> bool:
        """Wait until ``bus`` has screens to draw and the table has been quiet (see the
        class), not before ``soonest``; False once the painter is closed."""
        due, wake = self._due[bus], self._wake[bus]
        with wake:
            wake.wait_for(lambda: due or self._closed)
            latest = time.monotonic() + self.LATEST_SECONDS
            while not self._closed:
                quiet = self._changed_at[bus] + self.QUIET_SECONDS
                start = max(min(quiet, latest), soonest)
                now = time.monotonic()
                if now >= start:
                    return True
                wake.wait(start - now)
            return False

    def close(self) -> None:
        """Stop drawing (what is still due is dropped). Idempotent."""
        with self._lock:
            self._closed = True
            for wake in self._wake.values():
                wake.notify_all()
        for thread in self._threads:
            thread.join(5)
