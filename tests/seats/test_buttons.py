"""Debounced buttons on gpiozero's MockFactory pins, timed by a manual clock.

The rule under test: a level counts once it has lasted the debounce time (30 ms here)
with no other edge; glitches and contact bounce shorter than that never make a click.
"""
from __future__ import annotations

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.errors import SeatError
from companion.seats import ManualClock, MonotonicClock, SeatButton, SeatButtons

PIN = 17
MS = 0.001


@pytest.fixture
def button(factory, clock):
    with SeatButton(PIN, name="select", pin_factory=factory, clock=clock,
                    bounce_ms=30, hold_time=0.6) as b:
        yield b


@pytest.fixture
def events(button):
    seen: list[tuple[str, float]] = []
    button.when_pressed = lambda: seen.append(("pressed", button._clock.now()))
    button.when_held = lambda: seen.append(("held", button._clock.now()))
    button.when_released = lambda: seen.append(("released", button._clock.now()))
    return seen


def names(events):
    return [name for name, _ in events]


BOUNCE = 30 * MS


def press(pin, clock, hold=100 * MS):
    """A real press: contacts chattering for 3 ms each way, held ``hold`` between."""
    for level in (0, 1, 0, 1, 0):
        (pin.drive_low if level == 0 else pin.drive_high)()
        clock.advance(0.6 * MS)
    clock.advance(hold)
    for level in (1, 0, 1, 0, 1):
        (pin.drive_low if level == 0 else pin.drive_high)()
        clock.advance(0.6 * MS)
    clock.advance(100 * MS)


def test_press_and_release(factory, clock, button, events):
    pin = factory.pin(PIN)
    assert not button.is_pressed
    pin.drive_low()
    assert not button.is_pressed and events == []  # not yet stable for 30 ms
    clock.advance(BOUNCE)
    assert button.is_pressed and names(events) == ["pressed"]
    clock.advance(0.1)
    pin.drive_high()
    clock.advance(BOUNCE)
    assert not button.is_pressed and names(events) == ["pressed", "released"]
    assert not button.was_held


def test_a_press_counts_from_its_edge(factory, clock, button, events):
    pin = factory.pin(PIN)
    start = clock.now()
    pin.drive_low()
    clock.advance(BOUNCE)
    assert events == [("pressed", start + BOUNCE)] and button.pressed_at == start


@pytest.mark.parametrize("width", [10e-6, 100e-6, 1 * MS, 5 * MS, 29 * MS])
def test_a_glitch_is_never_a_press(factory, clock, button, events, width):
    pin = factory.pin(PIN)
    for _ in range(5):
        pin.drive_low()
        clock.advance(width)
        pin.drive_high()
        clock.advance(200 * MS)
    assert events == [] and not button.is_pressed
    # nor a release of a held button: a spike high while the button is down
    pin.drive_low()
    clock.advance(100 * MS)
    pin.drive_high()
    clock.advance(width)
    pin.drive_low()
    clock.advance(200 * MS)
    assert names(events) == ["pressed"] and button.is_pressed


def test_one_press_per_real_press_and_none_per_glitch(factory, clock, button, events):
    pin = factory.pin(PIN)
    for width in (10e-6, 50e-6, 0.5 * MS, 2 * MS, 5 * MS):
        press(pin, clock)
        pin.drive_low()  # a spike on the lead between presses
        clock.advance(width)
        pin.drive_high()
        clock.advance(100 * MS)
    assert names(events) == ["pressed", "released"] * 5


def test_bouncy_edges_within_the_window_make_one_press(factory, clock, button, events):
    pin = factory.pin(PIN)
    for _ in range(5):  # contacts chattering for ~10 ms, ending closed
        pin.drive_low()
        clock.advance(1 * MS)
        pin.drive_high()
        clock.advance(1 * MS)
    pin.drive_low()
    clock.advance(100 * MS)
    assert names(events) == ["pressed"]
    assert button.is_pressed
    for _ in range(3):  # and chattering on the way up, ending open
        pin.drive_high()
        clock.advance(2 * MS)
        pin.drive_low()
        clock.advance(2 * MS)
    pin.drive_high()
    clock.advance(100 * MS)
    assert names(events) == ["pressed", "released"]


def test_a_tap_shorter_than_the_window_is_a_glitch(factory, clock, button, events):
    pin = factory.pin(PIN)
    pin.drive_low()
    clock.advance(10 * MS)
    pin.drive_high()
    clock.advance(100 * MS)
    assert events == []


def test_a_late_callback_keeps_the_edge_time(factory):
    """The edge is stamped by the pin factory: a callback held up (here by another
    thread holding the button, as a frame going out on the I2C bus would) still counts
    the press from the edge, before the hold-up ended."""
    holding, ended = threading.Event(), []

    def busy(button):
        with button._lock:
            holding.set()
            time.sleep(0.05)
            ended.append(time.monotonic())

    with SeatButton(PIN, pin_factory=factory, bounce_ms=30) as button:  # real time
        thread = threading.Thread(target=busy, args=(button,))
        thread.start()
        holding.wait(5)
        factory.pin(PIN).drive_low()  # stamped now; its callback waits for the lock
        thread.join()
        assert button.wait_for_press(5)
        assert button.pressed_at < ended[0]  # the callback ran after that


class StalledClock:
    """A seat clock whose timer thread is stuck (a busy machine): calls wait until
    ``run_due()``, while time moves on with ``t``."""

    def __init__(self):
        self.t = 1000.0
        self.calls = []

    def now(self):
        return self.t

    def call_later(self, delay, fn):
        entry = ManualClock(start=self.t).call_later(delay, fn)  # a cancellable entry
        self.calls.append(entry)
        return entry

    def run_due(self):
        for entry in self.calls:
            if not entry.cancelled and entry.due <= self.t:
                entry.fn()


def test_a_late_debounce_timer_does_not_lose_a_press(factory):
    clock = StalledClock()
    seen = []
    with SeatButton(PIN, pin_factory=factory, clock=clock, bounce_ms=30) as b:
        b.when_pressed = lambda: seen.append("pressed")
        b.when_released = lambda: seen.append("released")
        pin = factory.pin(PIN)
        pin.drive_low()
        clock.t += 0.07  # held 70 ms, but the timer never got to run
        pin.drive_high()
        assert seen == ["pressed"] and b.pressed_at == pytest.approx(1000.0, abs=1 * MS)
        clock.t += 0.1
        clock.run_due()
        assert seen == ["pressed", "released"]
        pin.drive_low()
        clock.t += 0.01  # but a 10 ms glitch stays a glitch, late timer or not
        pin.drive_high()
        clock.t += 0.1
        clock.run_due()
        assert seen == ["pressed", "released"]


def test_a_factory_with_its_own_debounce_gets_the_time_and_edges_count_at_once(clock):
    class LGPIOFactory(MockFactory):
        """MockFactory under lgpio's factory's name: offers a debounce of its own."""

    pins = LGPIOFactory()
    try:
        with SeatButton(PIN, pin_factory=pins, clock=clock, bounce_ms=30) as b:
            assert b.factory_debounce and pins.pin(PIN).bounce == pytest.approx(0.03)
            pins.pin(PIN).drive_low()  # lgpio reports an edge only once it is stable
            assert b.is_pressed
    finally:
        pins.reset()


def test_edges_further_apart_than_the_window_all_count(factory, clock, button, events):
    pin = factory.pin(PIN)
    for _ in range(3):
        pin.drive_low()
        clock.advance(31 * MS)
        pin.drive_high()
        clock.advance(31 * MS)
    assert names(events) == ["pressed", "released"] * 3
    assert not SeatButton(5, pin_factory=factory, clock=clock).factory_debounce


def test_the_window_is_configurable(factory, clock):
    seen = []
    with SeatButton(5, pin_factory=factory, clock=clock, bounce_ms=0) as b:
        b.when_pressed = lambda: seen.append("p")
        pin = factory.pin(5)
        for _ in range(3):
            pin.drive_low()
            pin.drive_high()
    assert seen == ["p", "p", "p"]


def test_hold_fires_once_after_hold_time(factory, clock, button, events):
    pin = factory.pin(PIN)
    pin.drive_low()
    clock.advance(0.59)
    assert names(events) == ["pressed"] and not button.is_held
    clock.advance(0.02)
    assert names(events) == ["pressed", "held"] and button.is_held
    assert events[1][1] == pytest.approx(events[0][1] - BOUNCE + 0.6)  # from the edge
    clock.advance(5)
    assert names(events) == ["pressed", "held"]  # no repeats
    pin.drive_high()
    clock.advance(BOUNCE)
    assert names(events) == ["pressed", "held", "released"]
    assert button.was_held and not button.is_held


def test_a_short_press_is_not_a_hold(factory, clock, button, events):
    pin = factory.pin(PIN)
    pin.drive_low()
    clock.advance(0.3)
    pin.drive_high()
    clock.advance(2)  # the cancelled hold timer must not fire later
    assert names(events) == ["pressed", "released"]
    assert not button.was_held


def test_a_new_press_does_not_inherit_an_old_hold_timer(factory, clock, button, events):
    pin = factory.pin(PIN)
    pin.drive_low()
    clock.advance(0.5)
    pin.drive_high()
    clock.advance(0.05)
    pin.drive_low()  # pressed again; the first press's timer would be due in 0.05 s
    clock.advance(0.3)
    assert "held" not in names(events)
    clock.advance(0.31)
    assert names(events)[-1] == "held"


def test_callbacks_may_take_the_button_gpiozero_style(factory, clock, button):
    got = []
    button.when_pressed = got.append
    factory.pin(PIN).drive_low()
    clock.advance(BOUNCE)
    assert got == [button]


def test_a_failing_callback_does_not_wedge_the_button(factory, clock, button, events):
    button.when_pressed = lambda: 1 / 0
    pin = factory.pin(PIN)
    pin.drive_low()
    clock.advance(0.1)
    pin.drive_high()
    clock.advance(BOUNCE)
    assert names(events) == ["released"] and not button.is_pressed


def test_wait_for_press_and_release(factory, clock, button):
    assert button.wait_for_press(timeout=0) is False
    factory.pin(PIN).drive_low()
    clock.advance(BOUNCE)
    assert button.wait_for_press(timeout=0) is True
    assert button.wait_for_release(timeout=0) is False


def test_close_is_idempotent_and_frees_the_pin(factory, clock):
    b = SeatButton(PIN, pin_factory=factory, clock=clock)
    b.close()
    b.close()
    assert b.is_closed
    with SeatButton(PIN, pin_factory=factory, clock=clock) as again:  # pin is free again
        assert not again.is_pressed


def test_no_events_after_close(factory, clock):
    seen = []
    b = SeatButton(PIN, pin_factory=factory, clock=clock)
    b.when_pressed = lambda: seen.append("p")
    pin = factory.pin(PIN)
    b.close()
    pin.drive_low()
    clock.advance(1)
    assert seen == []


def test_a_pin_in_use_is_a_seat_error(factory, clock):
    with SeatButton(PIN, pin_factory=factory, clock=clock):
        with pytest.raises(SeatError, match="GPIO17"):
            SeatButton(PIN, pin_factory=factory, clock=clock)


def test_seat_buttons_open_all_or_nothing(factory, clock):
    with SeatButton(6, pin_factory=factory, clock=clock):
        with pytest.raises(SeatError):
            SeatButtons(5, 6, 13, pin_factory=factory, clock=clock)
    with SeatButtons(5, 6, 13, pin_factory=factory, clock=clock) as trio:  # 5 was freed
        assert [b.name for b in trio] == ["previous", "select", "next"]
        assert trio["next"].pin == 13
        with pytest.raises(KeyError):
            trio["back"]


# -- clocks -----------------------------------------------------------------------------

def test_manual_clock_runs_calls_in_time_order_at_their_time():
    clock = ManualClock(start=0)
    seen = []
    clock.call_later(2, lambda: seen.append(("b", clock.now())))
    clock.call_later(1, lambda: seen.append(("a", clock.now())))
    clock.call_later(3, lambda: seen.append(("c", clock.now()))).cancel()
    clock.advance(5)
    assert seen == [("a", 1), ("b", 2)] and clock.now() == 5


def test_monotonic_clock_runs_calls_on_its_thread_and_skips_cancelled_ones():
    clock = MonotonicClock()
    done = threading.Event()
    seen = []
    try:
        clock.call_later(0.01, lambda: seen.append("cancelled")).cancel()
        clock.call_later(0.02, lambda: (seen.append(threading.current_thread().name),
                                        done.set()))
        assert done.wait(5)
        assert seen == ["seat-clock"]
    finally:
        clock.close()
        clock.close()


def test_real_clock_buttons_without_an_injected_clock():
    # Each button then owns a MonotonicClock; closing the button stops it.
    factory = MockFactory()
    held = threading.Event()
    with SeatButton(PIN, pin_factory=factory, hold_time=0.05) as b:
        b.when_held = held.set
        factory.pin(PIN).drive_low()
        assert held.wait(5)
        assert b.is_held
