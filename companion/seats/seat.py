"""One seat's hardware: three buttons, a screen and an optional LED, driven by a Display.

How the buttons work (docs/seats.md):

* The display's choices form a menu (``engine.display.menu``): a line is a choice, a
  group of choices, or, at every level below the top, a last line "< Back".
* previous / next move the highlight through the lines of the current level (wrapping)
  and start *browsing*: for ``browse_timeout`` seconds after the last press the
  highlighted line shows even when it is secret, with its position ("< 2/5 >").
* select, pressed and released before ``hold_time``, on a choice confirms it:
  ``when_action(action)`` gets the choice's action dict. On a group it opens the group,
  on "< Back" it goes one level up: both are browsing, nothing reaches the runtime.
  When the line is not on screen (a secret choice, masked at rest) that press only
  reveals it.
* at rest (browsing over) the seat is back at the top level, whose group names are
  public: what shows at rest never depends on a secret deeper in the menu.
* select held for ``hold_time`` shows the seat's ``private`` lines until released; a hold
  never confirms.
* after ``dim_after`` seconds without a press or a new display the screen dims; the
  next press only wakes it (its hold and release are ignored too).
* while the join QR code shows (an unclaimed seat) a press calls ``when_claimed()``.
* a screen that fails a transfer is *down*: the seat stops writing to it (its state goes
  on; its phone plays it) until ``revive_screen()``, called by the seat watch on a thread
  of its own, finds it answering and draws it from scratch. A button down at start, or
  held ``stuck_after`` (30 s), is *stuck*: ignored, release included.
  ``when_health_changed()`` says either changed (docs/seats.md, "When a part fails").

Button callbacks arrive on gpiozero's and the clock's threads, ``show()`` from the
runtime's: one re-entrant lock guards the state, and the ``when_*`` callbacks are called
after it is released, so they may call ``show()`` or take the runtime's own locks.
"""
from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from PIL import Image

from companion.clocks import Clock, MonotonicClock
from companion.engine.display import Choice, Display, MenuItem

from .buttons import ROLES, Buttons
from .screen import (
    BACK,
    ScreenState,
    follow_highlight,
    line_of_choice,
    line_of_group,
    menu_lines,
    render,
    same_pixels,
)

log = logging.getLogger(__name__)

#: Contrast levels: luma's default for a lit seat, the lowest for a dimmed one.
CONTRAST = 0xCF
DIM_CONTRAST = 0x00
LED_STATES = ("on", "blink", "off")
#: Timers compare times computed two ways (``now + delay`` against ``due - start``),
#: which differ in the last bits; a millisecond of slack keeps a timer that fires on
#: time from finding itself a hair early and never firing again.
SLACK = 0.001
#: A button held this long is stuck (a jammed key, a lead shorted to ground): far longer
#: than any real hold, even a player reading their secrets. Ignored until it comes up.
STUCK_AFTER = 30.0


class Seat:
    """A seat at the table. ``open_seats()`` builds them; the runtime talks to them.

    ``device`` is anything with luma's ``display(image)``, ``contrast(level)``, ``size``
    and ``cleanup()`` (a ``PageDiffSSD1306`` on a Pi and in the simulator); ``led`` a
    gpiozero ``LED`` / ``PWMLED`` or None. ``number`` counts from 1. ``i2c_bus`` is the
    I2C bus whose wires carry the screen's transfers (None: not on I2C, e.g. a pod).
    """

    def __init__(self, number: int, buttons: Buttons, device: Any, led: Any = None, *,
                 clock: Clock | None = None, dim_after: float = 300.0,
                 browse_timeout: float = 4.0, contrast: int = CONTRAST,
                 dim_contrast: int = DIM_CONTRAST, name: str = "",
                 i2c_bus: int | None = None, stuck_after: float = STUCK_AFTER):
        self.number = number
        self.name = name or f"Seat {number}"
        self.buttons = buttons
        self.device = device
        self.led = led
        #: The I2C bus the screen's transfers go over, or None. Screens on one bus take
        #: turns; screens on different buses can be drawn at the same time.
        self.i2c_bus = i2c_bus
        #: ``when_action(action)``: select confirmed a choice; gets its action dict.
        self.when_action: Callable[[dict[str, Any]], Any] | None = None
        #: ``when_claimed()``: a button was pressed while the join QR code showed.
        self.when_claimed: Callable[[], Any] | None = None
        #: ``when_changed()``: the screen image or the LED state changed (for /sim).
        self.when_changed: Callable[[], Any] | None = None
        #: ``when_health_changed()``: the screen went down or came back, or a button
        #: stuck or came up (see ``screen_error``, ``stuck_buttons``).
        self.when_health_changed: Callable[[], Any] | None = None
        self.stuck_after = stuck_after
        self.dim_after = dim_after
        self.browse_timeout = browse_timeout
        self._contrast = contrast
        self._dim_contrast = dim_contrast
        self._clock = clock or MonotonicClock()
        self._owns_clock = clock is None
        self._lock = threading.RLock()
        self._depth = 0  # nesting of _guard() in the thread holding the lock
        self._pending: list[Callable[[], Any]] = []  # callbacks to run after unlocking
        self._display: Display | None = None
        self._qr_url: str | None = None
        self._path: tuple[str, ...] = ()  # the menu level shown: group names from the top
        self._highlight = 0  # the highlighted line of that level
        self._restart = False  # a secret was chosen: the next display starts at the top
        self._browse_until = 0.0
        self._last_activity = self._clock.now()
        self._dimmed = False
        self._private = False
        self._swallow: set[str] = set()  # buttons whose current press only woke us
        self._reveal_only = False  # select's current press only revealed a label
        self._image: Image.Image | None = None
        self._led_state = "off"
        self._timers: dict[str, Any] = {}
        self._screen_error: Exception | None = None  # set while the screen is down
        self._stuck: set[str] = set()  # buttons held far too long: ignored until up
        self._closed = False
        self._wire()
        with self._guard():
            for role in ROLES:
                if self.buttons[role].is_pressed:  # down before anyone could press it
                    self._stick(role)
            self._schedule_dim()
            self._redraw()

    # -- what the runtime calls -------------------------------------------------------
    def show(self, display: Display) -> None:
        """Show a new display model; the screen is redrawn only if its image changed.

        The highlight stays on the same action if it is still offered (while browsing,
        in whatever group now holds it), else on the same line of the same menu level if
        that level still exists, else it goes to the first line of the top level. A
        display that differs from the last one counts as activity (wakes a dim screen).
        """
        with self._guard():
            if self._closed:
                return
            previous, self._display = self._display, display
            if self._restart:
                self._path, self._highlight, self._restart = (), 0, False
            else:
                self._path, self._highlight = follow_highlight(
                    previous, self._path, self._highlight, display,
                    inside=self.is_browsing or self._private)
            if display != previous or self._qr_url is not None:
                self._activity()
            self._qr_url = None
            self._apply_led(display.led)
            self._redraw()

    def show_qr(self, url: str) -> None:
        """Show the join QR code of an unclaimed seat, until the next ``show()``.

        URLs up to 53 characters (77 in upper case) fit a 29x29 code at 2 pixels a
        module; see ``screen.qr_matrix``.
        """
        with self._guard():
            if self._closed:
                return
            if url != self._qr_url:
                self._activity()
            self._qr_url = url
            self._private = False
            self._browse_until = 0.0
            self._apply_led("off")
            self._redraw()

    def tick(self) -> None:
        """Re-check dimming and browsing (a screen that is down waits for the seat watch).

        The seat's timers run on the clock by themselves; calling this too is harmless.
        """
        with self._guard():
            if self._closed:
                return
            self._check_timers()

    @property
    def display(self) -> Display | None:
        """The display model last given to ``show()`` (None before the first)."""
        return self._display

    @property
    def highlight(self) -> int:
        """Index of the highlighted line in the current menu level (0 when there are
        none). For a display without groups that is the highlighted choice's index."""
        with self._lock:
            self._settle()
            return self._highlight

    @property
    def menu_path(self) -> tuple[str, ...]:
        """The menu level the seat is in: the group names from the top (``()`` at the
        top level, always so at rest)."""
        with self._lock:
            self._settle()
            return self._path

    @property
    def menu_lines(self) -> list[MenuItem]:
        """The lines of the current menu level; the last is ``screen.BACK`` below the top."""
        with self._lock:
            self._settle()
            return menu_lines(self._display, self._path)

    def presses_to_choose(self, index: int) -> list[str]:
        """The buttons ("previous", "select", "next"), in order, that confirm choice
        ``index`` of the display from where the seat is now: up through "< Back" out of
        any group not on its way, down through its groups, onto it, select. Only "next"
        moves; a secret line masked at rest gets a select that shows it first (a line
        moved onto shows while browsing). For scripts and tests that drive seats with
        buttons alone, and for counting a decision's presses."""
        with self._lock:
            self._settle()
            display, path, at = self._display, self._path, self._highlight
            browsing = self.is_browsing
        if display is None or not 0 <= index < len(display.choices):
            raise IndexError(f"seat {self.number} offers no choice {index}")
        group = display.choices[index].group
        presses: list[str] = []

        def walk_to(line: int, lines: list[MenuItem]) -> None:
            nonlocal browsing
            steps = (line - at) % len(lines)
            if not browsing and steps == 0 and lines[line].secret:
                presses.append("select")  # a masked line: this select only shows it
            presses.extend(["next"] * steps + ["select"])
            browsing = True

        while group[:len(path)] != path:  # out of a group not on the choice's way
            lines = menu_lines(display, path)
            walk_to(len(lines) - 1, lines)
            path, at = path[:-1], line_of_group(display, path[:-1], path[-1])
        while True:
            lines = menu_lines(display, path)
            walk_to(line_of_choice(display, path, index), lines)
            if len(path) == len(group):
                return presses
            path, at = group[:len(path) + 1], 0
    @property
    def mode(self) -> str:
        """What the screen shows: rest, browse, private, qr, dim or blank."""
        with self._lock:
            return self._state().mode

    @property
    def is_dimmed(self) -> bool:
        return self._dimmed

    @property
    def is_browsing(self) -> bool:
        return self._browse_until - self._clock.now() > SLACK

    @property
    def is_showing_private(self) -> bool:
        return self._private

    @property
    def is_showing_secret(self) -> bool:
        """Does the screen show what only this seat may read: its private lines (select
        held) or a secret choice it is browsing over? A picture of the whole table
        (``/sim``) hides such a screen from anyone but the host."""
        with self._lock:
            if self._private:
                return True
            line = self._highlighted_line() if self.is_browsing else None
            return line is not None and line.secret

    @property
    def screen_error(self) -> Exception | None:
        """Why the screen is down (the failed transfer's error), or None: it answers."""
        return self._screen_error

    @property
    def stuck_buttons(self) -> tuple[str, ...]:
        """The buttons held down far too long (or since the start), ignored until up."""
        return tuple(role for role in ROLES if role in self._stuck)

    def revive_screen(self) -> bool:
        """Ask a screen that is down whether it answers again and, if so, draw it from
        scratch (the driver sends its whole init sequence, then the whole frame). True
        when the screen is up. The question is one short write made outside the seat's
        lock (``device.probe()``), so a button on this seat never waits for it; the seat
        watch calls this on a thread of its own, never on a press."""
        if self._screen_error is None:
            return True
        probe = getattr(self.device, "probe", None)
        try:
            if probe is not None:
                probe()
        except Exception:
            return False
        with self._guard():
            if self._closed or self._screen_error is None:
                return self._screen_error is None
            error, self._screen_error = self._screen_error, None
            invalidate = getattr(self.device, "invalidate", None)
            if invalidate:
                invalidate()
            self._image = None  # whatever it showed before is gone
            self._redraw()
            if self._screen_error is None:
                log.info("seat %s: its screen answers again (after: %s)", self.number, error)
                self._later("when_health_changed")
            return self._screen_error is None

    @property
    def led_state(self) -> str:
        """The LED as the display asks for it (on, blink, off), with or without an LED."""
        return self._led_state

    @property
    def is_closed(self) -> bool:
        return self._closed

    def frame(self) -> Image.Image:
        """A copy of the image last sent to this seat's screen."""
        with self._lock:
            if self._image is None:
                return Image.new("1", self.device.size, 0)
            return self._image.copy()

    def close(self) -> None:
        """Release buttons, LED and screen. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()
            self._pending.clear()
        # Outside our lock: a button callback in flight holds its button's lock and
        # may be waiting for ours.
        self.buttons.close()
        if self.led is not None:
            self.led.close()
        try:
            self.device.cleanup()
        except Exception:  # a screen already gone must not stop the rest closing
            log.warning("seat %s: screen cleanup failed", self.number, exc_info=True)
        if self._owns_clock:
            close = getattr(self._clock, "close", None)
            if close:
                close()

    def __enter__(self) -> "Seat":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Seat {self.number} {'closed' if self._closed else self.mode}>"

    # -- locking and callbacks ----------------------------------------------------------
    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Hold the lock; on the way out, run queued callbacks with the lock released."""
        calls: list[Callable[[], Any]] = []
        with self._lock:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0:
                    calls, self._pending = self._pending, []
        for call in calls:
            try:
                call()
            except Exception:  # the runtime's bug must not kill a button thread
                log.exception("seat %s: callback failed", self.number)

    def _later(self, name: str, *args: Any) -> None:
        """Queue ``self.<name>(*args)``, looked up when it runs, if it is set."""
        def call() -> None:
            fn = getattr(self, name)
            if fn is not None:
                fn(*args)
        if name == "when_changed" and any(getattr(c, "changed", False) for c in self._pending):
            return  # one notice per batch is enough
        call.changed = name == "when_changed"  # type: ignore[attr-defined]
        self._pending.append(call)

    def _redraw_now(self) -> None:
        """Redraw under the lock (queued behind a confirmed choice's ``when_action``)."""
        with self._guard():
            if not self._closed:
                self._redraw()

    # -- buttons ----------------------------------------------------------------------
    def _wire(self) -> None:
        b = self.buttons
        b.previous.when_pressed = lambda: self._on_move(-1, "previous")
        b.next.when_pressed = lambda: self._on_move(+1, "next")
        b.previous.when_released = lambda: self._on_release_other("previous")
        b.next.when_released = lambda: self._on_release_other("next")
        b.select.when_pressed = self._on_select_pressed
        b.select.when_held = self._on_select_held
        b.select.when_released = self._on_select_released

    def _woke(self, role: str) -> bool:
        """Count a press as activity. Pressed on a dim screen (which it wakes) or on the
        join QR code (where it claims the seat), the press is eaten, release included."""
        was_dim = self._dimmed
        self._activity()
        if not was_dim and self._qr_url is not None:
            # The runtime will likely show() the seat's display at once: this press's
            # release must not then confirm whatever happens to be highlighted.
            self._later("when_claimed")
        if was_dim or self._qr_url is not None:
            self._swallow.add(role)
            return True
        return False

    def _on_move(self, step: int, role: str) -> None:
        with self._guard():
            if self._closed:
                return
            self._watch_stuck(role)
            if self._private:  # while select is held the others wait
                return
            if not self._woke(role):
                self._restart = False  # the player moves on from where the seat is
                count = len(menu_lines(self._display, self._path))
                if count:
                    self._highlight = (self._highlight + step) % count
                self._browse()
            self._redraw()

    def _on_release_other(self, role: str) -> None:
        with self._guard():
            if not self._closed:
                self._unstick(role)
                self._swallow.discard(role)
                self._activity()

    def _on_select_pressed(self) -> None:
        with self._guard():
            self._reveal_only = False
            if self._closed:
                return
            self._watch_stuck("select")
            if not self._woke("select"):
                line = self._highlighted_line()
                # A masked label: the player cannot see what this press would confirm.
                self._reveal_only = (line is not None and line.secret
                                     and not self.is_browsing)
                self._browse()
            self._redraw()

    def _on_select_held(self) -> None:
        with self._guard():
            if self._closed or "select" in self._swallow or self._qr_url is not None:
                return
            self._private = True
            self._redraw()

    def _on_select_released(self) -> None:
        with self._guard():
            if self._closed:
                return
            self._unstick("select")
            confirmed = False
            if "select" in self._swallow:
                self._swallow.discard("select")
            elif self._private or self.buttons.select.was_held:
                self._private = False
                self._browse()
            elif not self._reveal_only and self._qr_url is None:
                confirmed = self._use(self._highlighted_line())
            self._reveal_only = False
            self._activity()
            if confirmed:
                # A confirmed choice goes to the runtime first: the frame it brings is
                # the one the player waits for, and this one (the old screen at rest)
                # would only hold it up. Drawn after it (often: nothing left to draw).
                self._later("_redraw_now")
            else:
                self._redraw()

    # -- stuck buttons ------------------------------------------------------------------
    def _watch_stuck(self, role: str) -> None:
        """A press began: if ``role`` is still down ``stuck_after`` from now, it is stuck."""
        if self.stuck_after > 0:
            self._schedule(f"stuck {role}", self.stuck_after,
                           lambda: self._check_stuck(role))

    def _check_stuck(self, role: str) -> None:
        with self._guard():
            if not self._closed and self.buttons[role].is_pressed:
                self._stick(role)
                self._redraw()

    def _stick(self, role: str) -> None:
        """Ignore ``role`` until it comes up: its release does nothing, and a stuck
        select no longer holds the private lines (or anything secret) on screen."""
        if role in self._stuck:
            return
        self._stuck.add(role)
        self._swallow.add(role)
        if role == "select":
            self._private = False
            self._browse_until = 0.0
        log.warning("seat %s: its %s button is stuck down; ignored until it comes up",
                    self.number, role)
        self._later("when_health_changed")

    def _unstick(self, role: str) -> None:
        timer = self._timers.pop(f"stuck {role}", None)
        if timer is not None:
            timer.cancel()
        if role in self._stuck:
            self._stuck.discard(role)
            log.info("seat %s: its %s button came up", self.number, role)
            self._later("when_health_changed")

    # -- the menu -----------------------------------------------------------------------
    def _highlighted_line(self) -> MenuItem | None:
        lines = menu_lines(self._display, self._path)
        return lines[self._highlight % len(lines)] if lines else None

    def _use(self, line: MenuItem | None) -> bool:
        """A short select on ``line``: confirm a choice, open a group or go back up.
        True when it confirmed a choice (``when_action`` is queued)."""
        if line is None or self._display is None:  # no display: no lines either
            return False
        if line is BACK:
            left = self._path[-1]
            self._path = self._path[:-1]
            self._highlight = line_of_group(self._display, self._path, left)
            self._browse()
        elif line.is_group:
            self._path += (line.label,)
            self._highlight = 0
            self._browse()
        else:
            choice: Choice = self._display.chosen(line)
            self._later("when_action", dict(choice.action))
            self._browse_until = 0.0  # back to rest: a secret label hides again
            if choice.secret:
                # Where the highlight lands next must not depend on the secret chosen
                # (a second ballot's menu would show "? 3/4" for one pick, "? 1/4"
                # for another): start again at the top, whatever comes next.
                self._path, self._highlight, self._restart = (), 0, True
            self._settle()
            return True
        return False

    def _settle(self) -> None:
        """Browsing over: back to the top level, on the group the player was in."""
        if self._path and not self._private and not self.is_browsing:
            first = self._path[0]
            self._path = ()
            self._highlight = line_of_group(self._display, (), first)

    # -- state ------------------------------------------------------------------------

    def _browse(self) -> None:
        self._browse_until = self._clock.now() + self.browse_timeout
        self._schedule("browse", self.browse_timeout)

    def _activity(self) -> None:
        self._last_activity = self._clock.now()
        if self._dimmed:
            self._dimmed = False
            self._set_contrast(self._contrast)
        self._schedule_dim()

    def _schedule_dim(self) -> None:
        if self.dim_after > 0:
            self._schedule("dim", self.dim_after)

    def _schedule(self, name: str, delay: float,
                  then: Callable[[], Any] | None = None) -> None:
        old = self._timers.pop(name, None)
        if old is not None:
            old.cancel()
        self._timers[name] = self._clock.call_later(delay, then or self._on_timer)

    def _on_timer(self) -> None:
        with self._guard():
            if not self._closed:
                self._check_timers()

    def _check_timers(self) -> None:
        now = self._clock.now()
        if (self.dim_after > 0 and not self._dimmed and not self._private
                and not any(self.buttons[r].is_pressed for r in ROLES if r not in self._stuck)
                and now - self._last_activity >= self.dim_after - SLACK):
            self._dimmed = True
            self._browse_until = 0.0
            self._set_contrast(self._dim_contrast)
        self._redraw()

    def _state(self) -> ScreenState:
        if self._qr_url is not None:
            return ScreenState("qr", None, 0, self.number, self._qr_url)
        if self._display is None:
            return ScreenState("blank", None, 0, self.number)
        if self._dimmed:
            mode = "dim"
        elif self._private:
            mode = "private"
        elif self.is_browsing:
            mode = "browse"
        else:
            mode = "rest"
        return ScreenState(mode, self._display, self._highlight, self.number,
                           path=self._path)

    # -- output -----------------------------------------------------------------------
    def _redraw(self) -> None:
        self._settle()
        if self._screen_error is not None:
            return  # down: nothing is sent until revive_screen() draws it from scratch
        image = render(self._state(), self.device.size)
        if (self._image is not None
                and (image is self._image or same_pixels(image, self._image))):
            return
        try:
            self.device.display(image)
        except Exception as exc:  # a loose cable must not take the runtime down
            self._screen_lost(exc)
            return
        self._image = image
        self._later("when_changed")

    def _set_contrast(self, level: int) -> None:
        try:
            self.device.contrast(level)  # (a driver whose panel needs its init keeps it)
        except Exception as exc:
            self._screen_lost(exc)

    def _screen_lost(self, error: Exception) -> None:
        """A transfer failed: the screen is down until ``revive_screen()``."""
        if self._screen_error is None:
            log.warning("seat %s: its screen does not answer (%s); the seat is played from "
                        "its phone until it does", self.number, error)
            self._later("when_health_changed")
        self._screen_error = error

    def _apply_led(self, state: str) -> None:
        state = state if state in LED_STATES else "off"
        if state == self._led_state:
            return
        self._led_state = state
        self._later("when_changed")
        if self.led is None:
            return
        if state == "on":
            self.led.on()
        elif state == "blink":
            self.led.blink(on_time=0.5, off_time=0.5)
        else:
            self.led.off()

