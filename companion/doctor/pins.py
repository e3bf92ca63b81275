"""The doctor's pin checks: each seat's LED and its three buttons.

An LED is lit and its pin read back (the pad's own level): a pin that reads low while
driven high is shorted to ground, or feeds an LED without its resistor that pulls it
down. A button must not read pressed before anyone touches it; then, while the doctor
waits for its press, every other configured button pin is watched too, so a press
that lands on another pin is named: two wires swapped, or one on the wrong pin.
``PinChecks`` is a part of ``Doctor`` (``companion.doctor.checks``).
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable, Iterator

from companion.seats import MonotonicClock
from companion.seats.buttons import ROLES, SeatButton
from companion.seats.config import SeatConfig
from companion.seats.wiring import PHYSICAL

from .report import FAIL, OK, pin_name

#: How often the wait for a press looks at the other pins (seconds).
WATCH_STEP = 0.01


class PinWatch:
    """Every configured button pin but the one asked for, opened as a seat button
    (debounced, so a spike is not a press): ``moved`` is the first ``(seat, role,
    gpio)`` pressed since it opened, ``button`` its button. A pin that cannot be
    opened (in use) is not watched."""

    def __init__(self, pins: list[tuple[int, str, int]], open_button: Callable[[int, str],
                                                                                SeatButton]):
        self.moved: tuple[int, str, int] | None = None
        self.button: SeatButton | None = None
        self._buttons: list[SeatButton] = []
        self._lock = threading.Lock()
        for seat, role, gpio in pins:
            try:
                button = open_button(gpio, role)
            except Exception:  # another program has it: not watched
                continue
            button.when_pressed = self._pressed_hook(seat, role, gpio, button)
            self._buttons.append(button)

    def _pressed_hook(self, seat: int, role: str, gpio: int,
                      button: SeatButton) -> Callable[[], None]:
        def pressed() -> None:
            with self._lock:
                if self.moved is None:
                    self.moved, self.button = (seat, role, gpio), button
        return pressed

    def close(self) -> None:
        for button in self._buttons:
            button.close()

    def __enter__(self) -> "PinWatch":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def button_pins(seats: Iterator[SeatConfig] | tuple[SeatConfig, ...]
                ) -> list[tuple[int, str, int]]:
    """``(seat, role, gpio)`` of every button of ``seats``."""
    return [(s.number, role, getattr(s.buttons, role)) for s in seats if s.buttons
            for role in ROLES]


class PinChecks:
    """The GPIO side of ``Doctor``: each method returns one line."""

    config: Any
    backend: str
    pin_factory: Any
    button_timeout: float
    test_buttons: bool
    prompt: Callable[[int, str, int], None]
    _clock: MonotonicClock | None
    _show: Callable[[SeatConfig, str], None]

    def check_led(self, seat: SeatConfig) -> tuple[str, str, str]:
        """Light the LED and read its pin back. A plain output even for a PWM LED: a
        pin under PWM reads back its duty cycle, not its level."""
        from gpiozero import LED
        assert seat.led is not None
        name = f"Seat {seat.number} LED"
        pin = pin_name(seat.led)
        try:
            led = LED(seat.led, pin_factory=self.pin_factory)
        except Exception as exc:  # gpiozero raises many kinds
            return (name, FAIL, f"cannot drive {pin} ({exc}): is the service or another "
                    "program using it? sudo systemctl stop mutiny")
        try:
            led.on()
            time.sleep(0.2 if self.backend == "pi" else 0)
            level = bool(led.pin.state)  # the pad's own level, not what was asked
        finally:
            led.close()
        if not level:
            return (name, FAIL, f"{pin} reads low while driven high: its wire is shorted "
                    "to GND (a bare wire, a solder bridge), or the LED has no resistor and "
                    "pulls the pin down; put a 330 ohm resistor in series with the LED")
        return name, OK, f"{pin} drives it and reads back high (it flashed: look)"

    def clock(self) -> MonotonicClock:
        if self._clock is None:
            self._clock = MonotonicClock()
        return self._clock

    def _open_button(self, gpio: int, role: str) -> SeatButton:
        return SeatButton(gpio, name=role, pin_factory=self.pin_factory,
                          bounce_ms=self.config.bounce_ms, hold_time=self.config.hold_time,
                          clock=self.clock())

    def check_button(self, seat: SeatConfig, role: str) -> tuple[str, str, str]:
        assert seat.buttons is not None
        gpio = getattr(seat.buttons, role)
        name = f"Seat {seat.number} {role}"
        pin = pin_name(gpio)
        try:
            button = self._open_button(gpio, role)
        except Exception as exc:
            return (name, FAIL, f"cannot open {pin} ({exc}): is the service running? sudo "
                    "systemctl stop mutiny")
        with button:
            time.sleep(button.bounce + 0.005)  # a level must be stable to count
            if button.is_pressed:
                return (name, FAIL, f"{pin} reads pressed before anyone touched it: a short "
                        "to GND (a pinched or bare wire, solder bridge) or a stuck button")
            if not self.test_buttons:
                return name, OK, f"{pin} not stuck (presses not asked for: --no-buttons)"
            self._show(seat, f"Press {role.upper()}")
            others = [p for p in button_pins(self.config.seats) if p[2] != gpio]
            with PinWatch(others, self._open_button) as watch:
                self.prompt(seat.number, role, gpio)
                pressed = self._wait_for_press(button, watch)
                if not pressed and watch.moved is not None:
                    return name, FAIL, self._moved_verdict(seat, role, watch)
            if not pressed:
                return (name, FAIL, f"{pin} never pressed within {self.button_timeout:g} s, "
                        "and no other button pin moved: check the button's two wires (GPIO "
                        "and GND), or it is on a pin no seat uses")
            if not button.wait_for_release(self.button_timeout):
                return (name, FAIL, f"{pin} pressed but not released within "
                        f"{self.button_timeout:g} s: a stuck button or a short to GND")
        return name, OK, f"{pin} pressed and released"

    def _wait_for_press(self, button: SeatButton, watch: PinWatch) -> bool:
        """True when ``button`` is pressed within the timeout; False when it is not,
        or another watched pin moved first."""
        end = time.monotonic() + self.button_timeout
        while time.monotonic() < end:
            if button.wait_for_press(min(WATCH_STEP, max(0.0, end - time.monotonic()))):
                return True
            if watch.moved is not None:
                return False
        return button.is_pressed

    def _moved_verdict(self, seat: SeatConfig, role: str, watch: PinWatch) -> str:
        """What a press that moved another pin means. The verdict waits for that pin's
        release, so the next button's check does not find it held."""
        assert watch.moved is not None and watch.button is not None and seat.buttons
        watch.button.wait_for_release(self.button_timeout)
        other_seat, other_role, gpio = watch.moved
        said = (f"you pressed seat {seat.number}'s {role} but {pin_name(gpio)} moved, which "
                f"is configured as seat {other_seat}'s {other_role}")
        mine = getattr(seat.buttons, role)
        if other_seat == seat.number:
            return (f"{said}: the two wires are swapped; {role}'s goes on pin "
                    f"{PHYSICAL.get(mine, '?')}, {other_role}'s on pin "
                    f"{PHYSICAL.get(gpio, '?')}")
        return (f"{said}: this button's wire is on the wrong pin; move it to "
                f"{pin_name(mine)}")
