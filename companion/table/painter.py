"""What is shown first after a change, and the seat screens drawn in the background.

:class:`DrawingOrder` is the one place that decides the order in which a change reaches
the table's screens and phones (docs/table.md, "Drawing order"); :class:`ScreenPainter`
draws the seat screens it hands on, a thread per I2C bus.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Protocol, Sequence

from companion.engine import Display

log = logging.getLogger(__name__)

#: What a seat's device is handed: a Display, or a join URL shown as its QR code.
Shown = Display | str


class SeatDevice(Protocol):
    """What the table needs of one seat's hardware (see :mod:`companion.seats`)."""

    when_action: Callable[[dict[str, Any]], None] | None
    when_claimed: Callable[[], None] | None

    def show(self, display: Display) -> None: ...
    def show_qr(self, url: str) -> None: ...
    def close(self) -> None: ...


def paint(device: SeatDevice, shown: Shown) -> None:
    """Draw ``shown`` on ``device`` now: a Display, or a join URL as its QR code."""
    if isinstance(shown, Display):
        device.show(shown)
    else:
        device.show_qr(shown)


class DrawingOrder:
    """The order in which a change is shown, decided here and nowhere else:

    1. **The acting seat's screen**, when the change came from that seat's own buttons
       (its player is looking at it): drawn at once, on the thread that made the
       change, before anything else of the change is built or sent (:meth:`first`).
    2. **The phones and pages**: every live stream is sent its viewer's update
       (``publish``, the hub's: it writes each open stream's event itself).
    3. **The other seat screens** (and the acting seat's, when it acted from its
       phone: that player is looking at the phone), the acting seat first among them:
       handed to the :class:`ScreenPainter`'s threads, or drawn right here without
       them (:meth:`rest`).

    The steps run one after the other on the thread that made the change, under the
    table's lock, so the order holds however busy the CPU is: no step waits on a timer,
    or for another thread to have finished an earlier one. (A phone whose socket is full
    is left to its stream's own thread by step 2, and holds up no screen.)

    A seat is handed only a screen that differs from the last one it was handed. The
    screens' own changes (a highlight moving, a held select) are the seat's business,
    and a seat's own redraw after a confirmed choice waits until the table has taken
    the choice (``Seat._on_select_released`` queues it behind ``when_action``), so step 1
    is the frame its player sees next."""

    def __init__(self, devices: Sequence[SeatDevice], publish: Callable[[], None] | None,
                 *, background: bool):
        """``publish`` sends the phones and pages their updates (the hub's; None: no
        pages). ``background``: the other screens (step 3) are drawn on the painter's
        threads, so an action's answer does not wait for I2C transfers; off, they are
        drawn before :meth:`rest` returns (what tests want)."""
        self._devices = devices
        self._publish = publish
        self._painter = ScreenPainter(devices) if background and devices else None
        self._handed: dict[int, Shown] = {}  # what each seat was last handed

    def first(self, seat: int, shown: Shown) -> None:
        """Step 1: the seat whose buttons made the change is drawn now."""
        if not self._changed(seat, shown):
            return
        if self._painter is not None:
            self._painter.paint_now(seat, shown)
        else:
            paint(self._devices[seat], shown)

    def rest(self, screens: dict[int, Shown], acting: Any = None) -> None:
        """Steps 2 and 3: the phones and pages, then every seat screen in ``screens``
        (seat -> what its device shows) that changed, ``acting``'s first."""
        if self._publish is not None:
            self._publish()
        self.screens(screens, acting)

    def screens(self, screens: dict[int, Shown], acting: Any = None) -> None:
        """Step 3 alone, for a change no phone hears of (a second of the step timer on
        the seats' screens): each seat in ``screens`` that changed, ``acting``'s first."""
        order = sorted(screens, key=lambda seat: seat != acting)  # (a stable sort)
        for seat in order:
            shown = screens[seat]
            if not self._changed(seat, shown):
                continue  # most actions change one or two seats' screens
            if self._painter is not None:
                self._painter.paint(seat, shown)
            else:
                paint(self._devices[seat], shown)

    def close(self) -> None:
        """Stop the painter's threads (what is still due is dropped). Idempotent."""
        if self._painter is not None:
            self._painter.close()

    def _changed(self, seat: int, shown: Shown) -> bool:
        if self._handed.get(seat) == shown:
            return False
        self._handed[seat] = shown
        return True


class ScreenPainter:
    """Draws seat screens in the background, newest first: a seat whose screen changed
    twice before it was drawn is drawn once, with the newer one. Seats are drawn in the
    order they were handed (:class:`DrawingOrder` decides it).

    Each I2C bus gets a thread of its own (a device's ``i2c_bus``; devices without one
    share a thread). Screens on one bus take turns on its two wires anyway, but two buses
    move their bytes at the same time (smbus2's transfers release the GIL), so after a
    reveal every screen is drawn once the busiest bus is done, not once all buses are.
    A screen that fails is logged, and the others are drawn all the same.

    A round starts once the table has been quiet for ``QUIET_SECONDS`` (no screen
    changed), or ``LATEST_SECONDS`` after its first change at the latest, and never
    sooner than ``GAP_SECONDS`` after the last round began nor sooner than twice that
    round's drawing time after it ended (the screens take a third of the interpreter
    at most, on a slow CPU too): a burst of changes (votes back to back, a bot's moves)
    is drawn once, newest first, instead of each change being drawn and overdrawn a
    few milliseconds later while the next one is being answered. Between two seats the
    thread lets the others run (a request waiting for the interpreter does not wait
    out a round). The benchmark behind the rounds: ``bench/cpu_budget.py`` (CPU per
    ballot) and ``bench/peer.py`` (back to back), docs/performance.md, "Why each speed
    trick is there"."""

    #: How long no screen may have changed before a round starts, in seconds.
    QUIET_SECONDS = 0.003
    #: The longest a change waits for a quiet moment, in seconds. An SSD1306 frame
    #: takes 23 ms on a 400 kHz bus, and a person does not read a screen that changes
    #: more often than this either.
    LATEST_SECONDS = 0.025
    #: The shortest time between the starts of two rounds on one bus, in seconds.
    GAP_SECONDS = 0.01

    def __init__(self, devices: Sequence[SeatDevice]):
        self._devices = devices
        self._closed = False
        # One lock for every bus's conditions: paint() and close() need no more.
        self._lock = threading.Lock()
        self._bus_of = [getattr(device, "i2c_bus", None) for device in devices]
        # Each seat's newest screen, numbered: a round draws a seat's screen only while
        # it is still the newest (paint_now may have drawn a newer one meanwhile).
        self._newest: dict[int, int] = {}
        self._drawing = [threading.Lock() for _ in devices]  # held while a seat draws
        self._due: dict[int | None, dict[int, tuple[int, Shown]]] = {}
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

    def paint(self, index: int, shown: Shown) -> None:
        """Draw ``shown`` (a Display, or a join URL's QR code) on seat ``index`` soon."""
        bus = self._bus_of[index]
        with self._lock:
            due = self._due[bus]
            if not due:  # (the thread wakes for a round's first change only)
                self._wake[bus].notify()
            due[index] = (self._number(index), shown)
            self._changed_at[bus] = time.monotonic()

    def paint_now(self, index: int, shown: Shown) -> None:
        """Draw ``shown`` on seat ``index`` on this thread, now; anything older still
        due for that seat is never drawn."""
        with self._lock:
            self._due[self._bus_of[index]].pop(index, None)
            number = self._number(index)
        self._draw(index, number, shown)

    def _number(self, index: int) -> int:
        # Callers hold self._lock.
        number = self._newest[index] = self._newest.get(index, 0) + 1
        return number

    def _draw(self, index: int, number: int, shown: Shown) -> None:
        with self._drawing[index]:
            if self._newest.get(index) != number:
                return  # a newer screen was handed (and drawn, or due) meanwhile
            try:
                paint(self._devices[index], shown)
            except Exception:  # a screen's fault must not stop the others
                log.exception("seat %d: drawing failed", index + 1)

    def _run(self, bus: int | None) -> None:
        due, wake = self._due[bus], self._wake[bus]
        soonest = float("-inf")  # when the next round may start
        while self._round_due(bus, soonest):
            with wake:
                batch = dict(due)
                due.clear()
            began = time.monotonic()
            for index, (number, shown) in batch.items():  # in the order handed
                time.sleep(0)  # let a waiting request have the interpreter
                self._draw(index, number, shown)
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
                if not due:  # (paint_now took the only screen that was due)
                    wake.wait_for(lambda: due or self._closed)
                    latest = time.monotonic() + self.LATEST_SECONDS
                    continue
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
