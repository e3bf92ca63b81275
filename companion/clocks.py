"""Clocks: time as the table's parts need it, with calls scheduled for later.

A ``Clock`` gives ``now()`` in seconds and ``call_later(delay, fn)``. The seats' button
debounce and holds run on one, and so does the table's timekeeper (step timers).
``MonotonicClock`` (one scheduler thread) runs in production; ``ManualClock`` moves
only when a test or a scripted simulation calls ``advance(seconds)``, so no test sleeps.
"""
from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from typing import Callable, Protocol

log = logging.getLogger(__name__)

__all__ = ["Clock", "ManualClock", "MonotonicClock", "Timer"]

class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Time for the seats and the timekeeper: ``now()`` in seconds and ``call_later(delay, fn)``. A clock
    whose ``real_time`` is true runs on ``time.monotonic``, the pin factories' ticks:
    an edge's lag before its callback is then taken off ``now()``."""

    def now(self) -> float: ...

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer: ...


class _Entry:
    """One scheduled call; cancelling marks it so the scheduler skips it."""

    __slots__ = ("due", "seq", "fn", "cancelled")

    def __init__(self, due: float, seq: int, fn: Callable[[], None]):
        self.due, self.seq, self.fn, self.cancelled = due, seq, fn, False

    def __lt__(self, other: "_Entry") -> bool:
        return (self.due, self.seq) < (other.due, other.seq)

    def cancel(self) -> None:
        self.cancelled = True


def _run(entry: _Entry) -> None:
    try:
        entry.fn()
    except Exception:  # a failing callback must not stop the other seats' timers
        log.exception("scheduled call failed")


class ManualClock:
    """A clock that moves only when told: ``advance()`` runs due calls in time order."""

    real_time = False  # its time is not the pins' ticks

    def __init__(self, start: float = 1000.0):
        self._now = start
        self._heap: list[_Entry] = []
        self._seq = itertools.count()
        self._lock = threading.RLock()

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        with self._lock:
            entry = _Entry(self._now + max(0.0, delay), next(self._seq), fn)
            heapq.heappush(self._heap, entry)
            return entry

    def advance(self, seconds: float) -> None:
        """Move time forward, running each due call at its own due time."""
        with self._lock:
            end = self._now + seconds
        while True:
            with self._lock:
                if not self._heap or self._heap[0].due > end:
                    self._now = max(self._now, end)
                    return
                entry = heapq.heappop(self._heap)
                if entry.cancelled:
                    continue
                self._now = max(self._now, entry.due)
            # Unlocked: a callback takes a seat's lock, and the thread holding that
            # lock may be waiting here to schedule a call.
            _run(entry)

    def close(self) -> None:
        with self._lock:
            self._heap.clear()


class MonotonicClock:
    """``time.monotonic`` plus one daemon thread that runs the scheduled calls."""

    real_time = True

    def __init__(self, name: str = "seat-clock") -> None:
        """``name``: its thread's (the seats' clock, or the table's step timers)."""
        self._name = name
        self._heap: list[_Entry] = []
        self._seq = itertools.count()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._compact_at = 256

    def now(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        with self._cond:
            entry = _Entry(self.now() + max(0.0, delay), next(self._seq), fn)
            if self._closed:
                entry.cancelled = True
                return entry
            if len(self._heap) >= self._compact_at:
                # Every redraw cancels a seat's dim timer and sets a new one: drop the
                # cancelled ones now and then, or they pile up until their due time.
                self._heap = [e for e in self._heap if not e.cancelled]
                heapq.heapify(self._heap)
                self._compact_at = max(256, 2 * len(self._heap))
            heapq.heappush(self._heap, entry)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name=self._name,
                                                daemon=True)
                self._thread.start()
            if self._heap[0] is entry:
                # Only a call due sooner than all the others changes how long the clock
                # thread sleeps; waking it for every rescheduled dim timer (each redraw)
                # cost a thread switch per seat per action.
                self._cond.notify()
            return entry

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._closed:
                    if self._heap and self._heap[0].cancelled:
                        heapq.heappop(self._heap)
                        continue
                    wait = self._heap[0].due - self.now() if self._heap else None
                    if wait is not None and wait <= 0:
                        break
                    self._cond.wait(wait)
                if self._closed:
                    return
                entry = heapq.heappop(self._heap)
            _run(entry)  # outside the lock: callbacks may schedule more calls

    def close(self) -> None:
        """Stop the scheduler thread; pending calls are dropped. Idempotent."""
        with self._cond:
            self._closed = True
            self._heap.clear()
            self._cond.notify()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2)
