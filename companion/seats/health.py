"""When a part of a seat fails: what the table says about it, and the watch that takes it
back the moment it answers again.

A seat's screen (or the multiplexer in front of it) that fails a transfer is *down*
(``Seat.screen_error``); a pod that is not linked does not answer; a button held far
longer than any real hold is *stuck* (``Seat.stuck_buttons``). None of these stops the
table: the seat is played from its phone, which plays every game. ``SeatWatch``, on a
thread of its own, asks each screen that is down whether it answers again (one short
write, with a back-off from half a second to five) and has it drawn from scratch when it
does; whenever the list of faults changes it calls ``when_changed()`` (the table then
refreshes, and the host page, ``/table`` and the seat's phone say which part failed and
what to check). Nothing here runs on a press (docs/seats.md, "When a part fails").
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterable

from .config import SeatConfig
from .interfaces import MuxNotAnswering

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PartFault:
    """One part of one seat that does not answer (or is stuck), in plain words."""

    seat: int  #: the seat's number, from 1
    part: str  #: "screen", "mux", "pod" or "button"
    words: str  #: what the pages say: the part, what to check, and to play on the phone

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _phone(number: int) -> str:
    return f"play seat {number} on its phone"


def screen_fault(number: int, config: SeatConfig | None, error: Exception) -> PartFault:
    """The words for a seat whose screen (or the mux in front of it) does not answer."""
    screen = config.screen if config is not None else None
    if isinstance(error, MuxNotAnswering):
        where = f" on I2C bus {screen.bus}" if screen is not None else ""
        return PartFault(number, "mux", f"Seat {number}'s screen cannot be reached: its "
                         f"multiplexer{where} does not answer. Check the multiplexer's power "
                         f"and its wires to the Pi; {_phone(number)}")
    if screen is not None and screen.channel is not None:
        check = f"check its cable and the mux channel {screen.channel}"
    elif screen is not None:
        check = f"check its cable to the Pi (I2C bus {screen.bus})"
    else:
        check = "check its cable"
    return PartFault(number, "screen",
                     f"Seat {number}'s screen does not answer: {check}; {_phone(number)}")


def pod_fault(number: int) -> PartFault:
    return PartFault(number, "pod", f"Seat {number}'s pod does not answer: check its USB "
                     f"cable and that it is plugged in to the Pi; {_phone(number)}")


def button_fault(number: int, role: str) -> PartFault:
    return PartFault(number, "button", f"Seat {number}'s {role} button is stuck down and "
                     f"ignored until it comes up: free it, or check its wire does not touch "
                     f"ground; {_phone(number)} meanwhile")


class SeatWatch:
    """Watches a table's seats: takes back screens that answer again, notices pods that
    come and go and buttons that stick, and tells ``when_changed()`` (no argument) each
    time the list of faults changes.

    ``check()`` is one round (tests call it by hand, with their own ``now``);
    ``start()`` runs rounds on a thread of its own: at once when a seat reports a change,
    when a retry falls due, and every ``POLL_SECONDS`` besides (pods are asked then).
    """

    #: The first retry of a screen that went down, in seconds; each failed retry
    #: doubles the wait, up to ``LONGEST_RETRY``.
    FIRST_RETRY = 0.5
    LONGEST_RETRY = 5.0
    #: How often a round runs when nothing else wakes the watch.
    POLL_SECONDS = 1.0
    #: A pod never seen has this long after the start to link before it is said missing
    #: (the manager finds and opens ports about once a second).
    POD_GRACE = 5.0

    def __init__(self, seats: Iterable[Any], configs: Iterable[SeatConfig] = (), *,
                 when_changed: Callable[[], Any] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.seats = list(seats)
        self.configs = {config.number: config for config in configs}
        self.when_changed = when_changed
        self._clock = clock
        self._started = clock()
        self._retry: dict[int, tuple[float, float]] = {}  # seat number -> (due, wait)
        self._faults: list[PartFault] = []
        self._lock = threading.Lock()  # one round at a time
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        for seat in self.seats:
            seat.when_health_changed = self.poke

    def poke(self) -> None:
        """A seat's health changed: run a round soon (never on the caller's thread)."""
        self._wake.set()

    def faults(self) -> list[PartFault]:
        """What does not answer now, seat by seat (screen or mux, pod, stuck buttons)."""
        now = self._clock()
        found: list[PartFault] = []
        for seat in self.seats:
            error = getattr(seat, "screen_error", None)
            if error is not None:
                found.append(screen_fault(seat.number, self.configs.get(seat.number), error))
            status = seat.status() if hasattr(seat, "pod") else None
            if status is not None and not status.connected and (
                    status.state != "waiting" or now - self._started >= self.POD_GRACE):
                found.append(pod_fault(seat.number))
            found += [button_fault(seat.number, role)
                      for role in getattr(seat, "stuck_buttons", ())]
        return found

    def check(self, now: float | None = None) -> list[PartFault]:
        """One round: retry each screen that is down and due, then compare the faults
        with the last round's (``when_changed()`` if they differ). Returns them."""
        with self._lock:
            now = self._clock() if now is None else now
            for seat in self.seats:
                if getattr(seat, "screen_error", None) is None:
                    self._retry.pop(seat.number, None)
                    continue
                due, wait = self._retry.setdefault(
                    seat.number, (now + self.FIRST_RETRY, self.FIRST_RETRY))
                if now < due:
                    continue
                if seat.revive_screen():
                    self._retry.pop(seat.number, None)
                else:
                    wait = min(wait * 2, self.LONGEST_RETRY)
                    self._retry[seat.number] = (now + wait, wait)
            faults = self.faults()
            changed, self._faults = faults != self._faults, faults
        if changed and self.when_changed is not None:
            try:
                self.when_changed()
            except Exception:  # the listener's bug must not stop the watch
                log.exception("seat watch: telling the table failed")
        return faults

    def next_due(self) -> float | None:
        """When the next screen retry falls due (None: no screen is down)."""
        with self._lock:
            return min((due for due, _ in self._retry.values()), default=None)

    def start(self) -> None:
        """Run rounds on a thread of its own until ``close()`` (idempotent)."""
        if self._thread is None and not self._stop.is_set():
            self._thread = threading.Thread(target=self._run, name="seat-watch",
                                            daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self.check()
            except Exception:  # a bug here must not end the watching
                log.exception("seat watch: a round failed")
            due = self.next_due()
            wait = self.POLL_SECONDS if due is None else due - self._clock()
            self._wake.wait(max(0.0, min(wait, self.POLL_SECONDS)))

    def close(self) -> None:
        """Stop the thread (idempotent)."""
        self._stop.set()
        self._wake.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(5)
