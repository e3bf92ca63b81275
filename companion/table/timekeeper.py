"""The table's timekeeper: the step timer a host may set on a game (docs/table.md, "Timers").

The game declares which steps may be timed and what the end of the time does
(``Timed`` on a ``Step``); the match says which timer is due now (``Match.timer``). This
module counts the seconds on a clock (:mod:`companion.clocks`): it holds them while the
host has paused the match, wakes the table once a second so the seats' screens can show
the time and their lights blink in the last seconds, and tells the table when the time
is up. What is left is written down now and then (``TableNotes``), so a restart resumes
the timer where it was, to within :data:`NOTE_EVERY` seconds.

Everything here is public: a timer runs for the whole table and every screen shows it.
"""
from __future__ import annotations

import math
import threading
from typing import Any, Callable

from companion.clocks import Clock
from companion.table.notes import TableNotes

#: Seconds before the end in which acting seats' lights blink.
BLINK_FROM = 10
#: How often, in seconds of a running timer, what is left is written down.
NOTE_EVERY = 5


def clock_face(seconds: float) -> str:
    """Seconds left as a screen shows them: ``1:05``, ``0:09``, ``0:00``."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


#: What a timer is, all of it: what :meth:`Timekeeper.saved` keeps.
_KEPT = ("_match", "_key", "_seconds", "_ends", "_left", "_since", "_running", "_held",
         "_told", "_noted")


class Timekeeper:
    """Runs the step timer of the match being played.

    The table calls :meth:`follow` under its lock after every change, with the timer
    the match says is due and whether the match is paused. ``tick(at_zero)`` is called
    (from the clock's thread) at each whole second of a running timer, ``at_zero`` True
    when it has just run out (what :meth:`shown` says changes then); ``ran_out(key)``
    once when timer ``key`` reaches zero and its step has an ending move."""

    def __init__(self, clock: Clock, tick: Callable[[bool], None],
                 ran_out: Callable[[str], None], notes: TableNotes | None = None):
        self.clock = clock
        self._tick_table = tick
        self._ran_out = ran_out
        self.notes = notes
        self._lock = threading.RLock()
        self._match: str | None = None
        self._key: str | None = None
        self._seconds = 0
        self._ends: str | None = None
        self._left = 0.0       # what was left at ``_since`` (clock time)
        self._since = 0.0
        self._running = False
        self._held = False     # the match is paused
        self._told = False     # ``ran_out`` was called for this run
        self._noted = 0.0      # ``_left`` when it was last written down
        self._wake: Any = None

    # -- asking -------------------------------------------------------------------------
    def left(self) -> float | None:
        """Seconds left on the timer now (None when no timer runs)."""
        with self._lock:
            if self._key is None:
                return None
            return max(0.0, self._left - (self.clock.now() - self._since if self._running
                                          else 0.0))

    def shown(self) -> dict[str, Any] | None:
        """The timer as payloads carry it: ``seconds`` (its length), ``left`` (seconds
        left at ``since``, the clock's time in milliseconds when it last started or
        resumed; None while it stands), ``running`` and ``ends`` (True when the end of
        the time moves the match on). It changes only when the timer starts, stops,
        holds or reaches zero, never with the seconds going by, so a payload is pushed
        for what the table does and not for the time: a page counts the seconds itself,
        against the clock's time from ``/api/clock``."""
        with self._lock:
            if self._key is None:
                return None
            return {"seconds": self._seconds, "left": round(self._left, 1),
                    "since": round(self._since * 1000) if self._running else None,
                    "running": self._running, "ends": self._ends is not None}

    def face(self) -> str:
        """The timer as a seat's screen shows it, or "" when none runs."""
        left = self.left()
        return "" if left is None else clock_face(left)

    def blinking(self) -> bool:
        """True in the last :data:`BLINK_FROM` seconds of a running timer."""
        left = self.left()
        return left is not None and self._running and 0 < left <= BLINK_FROM

    # -- following the match --------------------------------------------------------------
    def follow(self, match_id: str | None, due: dict[str, Any] | None, paused: bool) -> None:
        """Start, hold, resume or stop the timer to match ``due`` (``Match.timer()``)."""
        with self._lock:
            self._held = paused
            if due is None or match_id is None:
                self._stop()
                return
            if (match_id, due["key"]) != (self._match, self._key):
                self._begin(match_id, due)
            if paused and self._running:
                self._left, self._running = self.left() or 0.0, False
                self._note()
                self._cancel()
            elif not paused and not self._running and self._left > 0:
                self._since, self._running = self.clock.now(), True
                self._schedule()
            if not paused and self._left <= 0 and not self._running:
                self._time_up()  # a timer resumed at zero (its step's end was due)

    def _begin(self, match_id: str, due: dict[str, Any]) -> None:
        self._cancel()
        self._match, self._key = match_id, due["key"]
        self._seconds, self._ends = due["seconds"], due["ends"]
        noted = self.notes.timer(match_id) if self.notes is not None else None
        self._left = noted[1] if noted and noted[0] == due["key"] else float(due["seconds"])
        self._since, self._running, self._told = self.clock.now(), False, False
        self._note()

    def _stop(self) -> None:
        self._cancel()
        if self._match is not None and self.notes is not None:
            self.notes.forget_timers()
        self._match = self._key = None
        self._running = False

    def add(self, seconds: float) -> None:
        """The host gives the running timer ``seconds`` more (fewer, if negative; never
        below zero: taking all the time left ends it now, as running out would)."""
        with self._lock:
            if self._key is None:
                return
            left = max(0.0, (self.left() or 0.0) + seconds)
            self._left, self._since = left, self.clock.now()
            if self._running:
                if left > 0:
                    self._schedule()
                else:
                    self._running = False
                    self._cancel()
            self._note()
            if left > 0:
                self._told = False
            elif not self._held:
                self._time_up()  # (a held timer ends when the match resumes)

    # -- the clock's side -------------------------------------------------------------------
    def _schedule(self) -> None:
        """Wake at the next whole second left (``0:42`` turns ``0:41`` then)."""
        self._cancel()
        left = self.left() or 0.0
        delay = left - math.floor(left - 1e-6) if left > 0 else 0.0
        key = self._key
        self._wake = self.clock.call_later(delay, lambda: self._woken(key))

    def _woken(self, key: str | None) -> None:
        with self._lock:
            if key != self._key or not self._running:
                return
            left = self.left() or 0.0
            if left <= 1e-6:
                self._left, self._running = 0.0, False
                self._note()
            else:
                if self._noted - left >= NOTE_EVERY:
                    self._note()
                self._schedule()
        self._tick_table(left <= 1e-6)
        if left <= 1e-6:
            with self._lock:
                if key == self._key:
                    self._time_up()

    def _time_up(self) -> None:
        if self._told or self._ends is None or self._key is None:
            return
        self._told = True
        key = self._key
        # Not from inside ``follow`` (the table holds its lock and is mid-refresh):
        # the clock's thread makes the ending move, as any seat's would be made.
        self._wake = self.clock.call_later(0, lambda: self._end(key))

    def _end(self, key: str) -> None:
        with self._lock:
            if key != self._key:  # stopped, moved on or closed meanwhile
                return
        self._ran_out(key)

    def _note(self) -> None:
        if self.notes is not None and self._match is not None and self._key is not None:
            left = self.left() or 0.0
            self.notes.note_timer(self._match, self._key, left)
            self._noted = left

    def _cancel(self) -> None:
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None

    def copy(self) -> "Timekeeper":
        """A still copy for a twin table (``Table.twin``): the same timer, shown the
        same, on the same clock, but it never wakes, calls back or writes notes."""
        with self._lock:
            twin = Timekeeper(self.clock, lambda at_zero: None, lambda key: None, None)
            twin.restore(self.saved(), still=True)
            return twin

    def saved(self) -> tuple[Any, ...]:
        """The timer as it stands, for :meth:`restore`."""
        with self._lock:
            return tuple(getattr(self, name) for name in _KEPT)

    def restore(self, saved: tuple[Any, ...], still: bool = False) -> None:
        """Put the timer back as :meth:`saved` found it (the table built a change the
        journal then could not write). ``still``: never wake or call back (a twin)."""
        with self._lock:
            self._cancel()
            for name, value in zip(_KEPT, saved, strict=True):
                setattr(self, name, value)
            if still:
                self._told = True
                return
            if self._key is not None:
                self._note()
                if self._running:
                    self._schedule()

    def close(self) -> None:
        """Stop the timer for good: no call is made after this (idempotent)."""
        with self._lock:
            self._cancel()
            self._match = self._key = None
            self._running = False
            self.notes = None  # the table closes them
