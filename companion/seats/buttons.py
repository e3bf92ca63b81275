"""Debounced seat buttons on gpiozero, with press, hold and release events.

The rule, the same on every pin factory: a change of level counts only once the new
level has lasted ``bounce_ms`` without another edge. A spike on a long lead (10 us to
a few ms) is then never a click, and contact bounce (edges a millisecond apart) ends in
one press when the contacts settle.

Where the pin factory offers a debounce of its own that follows that rule, it is used:
gpiozero's ``LGPIOFactory`` passes ``pin.bounce`` to ``lgpio.gpio_set_debounce_micros``,
and lgpio then reports an edge only when the level has been stable for that long
(timed by lgpio's own thread, not by the Python thread that also draws the screens).
Edges from it are taken as they come. Other factories (``MockFactory``, RPi.GPIO's)
either ignore ``bounce_time`` or drop edges after an accepted one, which lets a spike
through, so there the rule runs here: each edge (re)starts a ``bounce_ms`` timer, and the
level is accepted when the timer runs out.

Times are the edge's own: gpiozero hands every pin callback the factory's ticks of the
edge, and the lag between that and the callback (a busy thread, a slow frame) is taken
off the clock's ``now()``. A hold is ``hold_time`` after the press edge, not after the
callback.

The pin itself is a gpiozero ``DigitalInputDevice`` (pull-up, so active low): that is
gpiozero's ``Button`` without its hold thread, which polls every 0.1 s per button and
makes each ``close()`` wait for it; holds are timed here instead.

Hold detection and the debounce timers run on a ``Clock`` (:mod:`companion.clocks`):
``MonotonicClock`` (one scheduler thread) in production, ``ManualClock`` in tests and
scripted simulations, where ``advance(seconds)`` runs whatever falls due, so no test
needs to sleep.
"""
from __future__ import annotations

import inspect
import logging
import threading
from typing import Any, Callable, Iterator, Protocol

from gpiozero import DigitalInputDevice

from companion.clocks import Clock, MonotonicClock, Timer
from companion.errors import SeatError

log = logging.getLogger(__name__)

ROLES = ("previous", "select", "next")


# -- one button ---------------------------------------------------------------------------

def wrap_callback(fn: Callable[..., Any] | None, device: Any) -> Callable[[], None] | None:
    """gpiozero style: a callback takes no argument, or the device that fired."""
    if fn is None:
        return None
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.default is p.empty
                  and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):  # builtins without a signature
        params = []
    if params:
        return lambda: fn(device)
    return lambda: fn()


class ButtonState:
    """What every button tells of itself (``is_*``) and lets a caller wait for
    (``wait_for_*``), as gpiozero's buttons do. A button keeps ``_pressed``, ``_held``,
    ``_was_held`` and ``_closed`` and notifies ``_changed`` (a Condition) on a change."""

    _pressed = _held = _was_held = _closed = False
    _changed: threading.Condition

    @property
    def is_pressed(self) -> bool:
        """True while the (debounced) button is down."""
        return self._pressed

    @property
    def is_held(self) -> bool:
        """True once the current press has lasted ``hold_time``."""
        return self._held

    @property
    def was_held(self) -> bool:
        """Whether the last completed press had become a hold (read it on release)."""
        return self._was_held

    @property
    def is_closed(self) -> bool:
        return self._closed

    def wait_for_press(self, timeout: float | None = None) -> bool:
        """Block until the button is pressed (True) or ``timeout`` passes (False)."""
        with self._changed:
            return self._changed.wait_for(lambda: self._pressed or self._closed, timeout)

    def wait_for_release(self, timeout: float | None = None) -> bool:
        """Block until the button is released (True) or ``timeout`` passes (False)."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._pressed or self._closed, timeout)


#: Pin factories whose ``pin.bounce`` reports only edges stable for that long.
KERNEL_DEBOUNCE_FACTORIES = frozenset({"LGPIOFactory"})
#: A callback later than this after its edge's ticks means the ticks are on another
#: clock (some kernels stamp edges with the wall clock): the callback's time is used.
MAX_EDGE_LAG = 1.0


class _EdgeInput(DigitalInputDevice):
    """gpiozero's ``DigitalInputDevice`` handing each edge, with its ticks, to
    ``_on_edge(ticks, is_active)`` (gpiozero's own events carry no time)."""

    _on_edge: Callable[[float, bool], None] | None = None

    def _pin_changed(self, ticks: float, state: int) -> None:
        hook = self._on_edge
        if hook is not None:
            hook(ticks, bool(self._state_to_value(state)))


def offers_debounce(pin_factory: Any) -> bool:
    """Whether ``pin_factory`` debounces edges itself by the stable-level rule."""
    return any(cls.__name__ in KERNEL_DEBOUNCE_FACTORIES
               for cls in type(pin_factory).__mro__)


class SeatButton(ButtonState):
    """One push button wired between a GPIO pin and ground (pull-up, active low).

    ``when_pressed``, ``when_held`` (once, ``hold_time`` after an accepted press while
    still pressed) and ``when_released`` take no argument or this button. During
    ``when_released``, ``was_held`` tells whether the press had become a hold.
    Callbacks run on the thread that saw the edge (gpiozero's, with the factory's own
    debounce) or on the clock's thread (the debounce timer, holds), one at a time per
    button. ``pressed_at`` is the clock time of the last accepted press's edge.
    """

    def __init__(self, pin: int, *, name: str = "", pin_factory: Any = None,
                 bounce_ms: float = 30, hold_time: float = 0.6, clock: Clock | None = None):
        if bounce_ms < 0 or hold_time <= 0:
            raise ValueError("bounce_ms must be >= 0 and hold_time > 0")
        self.pin = pin
        self.name = name or f"GPIO{pin}"
        self.bounce = bounce_ms / 1000
        self.hold_time = hold_time
        self.when_pressed: Callable[..., Any] | None = None
        self.when_held: Callable[..., Any] | None = None
        self.when_released: Callable[..., Any] | None = None
        self.pressed_at: float | None = None
        self._clock = clock or MonotonicClock()
        self._owns_clock = clock is None
        self._lock = threading.RLock()
        self._pressed = False
        self._held = False
        self._was_held = False
        self._edges = 0  # edges seen: a debounce timer acts only if none came after it
        self._settle: Timer | None = None
        self._pending: tuple[bool, float] | None = None  # level waiting to be stable, since
        self._hold_timer: Timer | None = None
        self._press_count = 0
        self._changed = threading.Condition(self._lock)
        self._closed = False
        try:
            self._device = _EdgeInput(pin, pull_up=True, bounce_time=None,
                                      pin_factory=pin_factory)
        except Exception as exc:  # gpiozero raises many kinds; callers want one
            raise SeatError(f"cannot open button {self.name} on GPIO{pin}: {exc}") from exc
        self._factory = self._device.pin_factory
        #: True when the pin factory debounces (lgpio): edges are then taken as they come.
        self.factory_debounce = self.bounce > 0 and offers_debounce(self._factory)
        try:
            if self.factory_debounce:
                self._device.pin.bounce = self.bounce
        except Exception as exc:
            self._device.close()
            raise SeatError(f"cannot debounce button {self.name} on GPIO{pin}: {exc}") from exc
        self._pressed = bool(self._device.is_active)
        self._device._on_edge = self._edge

    # edges
    def _edge(self, ticks: float, pressed: bool) -> None:
        with self._lock:
            if self._closed:
                return
            at = self._edge_time(ticks)
            self._edges += 1
            if self._settle is not None:
                self._settle.cancel()
                self._settle = None
            pending, self._pending = self._pending, None
            if pending is not None and at - pending[1] >= self.bounce:
                # The level before this edge did last long enough; its timer was only
                # late (a busy clock thread): it counts, from its own edge.
                self._accept(*pending)
            if self.bounce == 0 or self.factory_debounce:
                self._accept(pressed, at)
                return
            self._wait_for_stable(pressed, at)

    def _edge_time(self, ticks: float) -> float:
        """The clock time of an edge the pin factory stamped ``ticks``."""
        now = self._clock.now()
        if not getattr(self._clock, "real_time", False):
            return now  # a scripted clock: the edge happens at its now
        try:
            lag = self._factory.ticks_diff(self._factory.ticks(), ticks)
        except Exception:  # a factory without ticks: the callback's time it is
            return now
        return now - lag if 0 <= lag <= MAX_EDGE_LAG else now

    def _wait_for_stable(self, pressed: bool, since: float) -> None:
        """Accept ``pressed`` once no edge has come for ``bounce`` after ``since``."""
        edges = self._edges
        self._pending = (pressed, since)
        delay = since + self.bounce - self._clock.now()
        self._settle = self._clock.call_later(
            delay, lambda: self._settled(pressed, since, edges))

    def _settled(self, pressed: bool, since: float, edges: int) -> None:
        with self._lock:
            if self._closed or edges != self._edges:
                return  # another edge came: its own timer decides
            self._settle = self._pending = None
            if bool(self._device.is_active) != pressed:
                # The pin moved without an edge reaching us (a factory that drops
                # edges): stable only from now.
                self._wait_for_stable(not pressed, self._clock.now())
                return
            self._accept(pressed, since)

    def _accept(self, pressed: bool, at: float) -> None:
        if pressed == self._pressed:
            return
        self._pressed = pressed
        self._changed.notify_all()
        if pressed:
            self._held = False
            self._press_count += 1
            self.pressed_at = at
            count = self._press_count
            self._hold_timer = self._clock.call_later(
                at + self.hold_time - self._clock.now(), lambda: self._do_hold(count))
            self._fire(self.when_pressed)
        else:
            if self._hold_timer is not None:
                self._hold_timer.cancel()
                self._hold_timer = None
            self._was_held, self._held = self._held, False
            self._fire(self.when_released)

    def _do_hold(self, count: int) -> None:
        with self._lock:
            if self._closed or count != self._press_count or not self._pressed:
                return
            self._hold_timer = None
            self._held = True
            self._fire(self.when_held)

    def _fire(self, fn: Callable[..., Any] | None) -> None:
        call = wrap_callback(fn, self)
        if call is None:
            return
        try:
            call()
        except Exception:  # one bad handler must not wedge the button
            log.exception("button %s callback failed", self.name)

    # life cycle
    def close(self) -> None:
        """Release the pin and cancel timers. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for timer in (self._settle, self._hold_timer):
                if timer is not None:
                    timer.cancel()
            self._changed.notify_all()
        self._device.close()
        if self._owns_clock:
            close = getattr(self._clock, "close", None)
            if close:
                close()

    def __enter__(self) -> "SeatButton":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("held" if self._held else
                                               "pressed" if self._pressed else "released")
        return f"<SeatButton {self.name} GPIO{self.pin} {state}>"


class Buttons(Protocol):
    """The three buttons a ``Seat`` drives: ``SeatButtons`` on GPIO pins, or a pod's
    ``PodButtons``. Each sets ``when_pressed``, ``when_held`` and ``when_released``."""

    previous: Any
    select: Any
    next: Any

    def __getitem__(self, role: str) -> ButtonState: ...

    def __iter__(self) -> Iterator[Any]: ...

    def close(self) -> None: ...


class SeatButtons:
    """A seat's three buttons: ``previous``, ``select`` and ``next``."""

    def __init__(self, previous: int, select: int, next: int, *, pin_factory: Any = None,
                 bounce_ms: float = 30, hold_time: float = 0.6, clock: Clock | None = None):
        opened: list[SeatButton] = []
        try:
            for role, pin in zip(ROLES, (previous, select, next), strict=True):
                opened.append(SeatButton(pin, name=role, pin_factory=pin_factory,
                                         bounce_ms=bounce_ms, hold_time=hold_time,
                                         clock=clock))
        except Exception:
            for button in opened:
                button.close()
            raise
        self.previous, self.select, self.next = opened

    def __iter__(self):
        return iter((self.previous, self.select, self.next))

    def __getitem__(self, role: str) -> SeatButton:
        if role not in ROLES:
            raise KeyError(f"no button {role!r}; buttons are {', '.join(ROLES)}")
        return getattr(self, role)

    def close(self) -> None:
        """Close all three buttons. Idempotent."""
        for button in self:
            button.close()

    def __enter__(self) -> "SeatButtons":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
