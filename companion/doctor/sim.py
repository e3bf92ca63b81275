"""The simulated parts the doctor checks on the sim backend, and the faults that can be
put into them (``mutiny doctor --sim-fault KIND[:SEAT[:ROLE]]``): gpiozero's MockFactory
pins, a modelled I2C bus with its TCA9548A multiplexers and panels, and a finger that
presses each button the doctor asks for. Every failure the doctor claims to find can be
shown (and is tested) here.
"""
from __future__ import annotations

import errno
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.seats import CountingInterface
from companion.seats.buttons import ROLES
from companion.seats.config import TableConfig

from .checks import Doctor


class ModelBus:
    """An I2C bus of the simulated table: the multiplexers and panels of a config answer
    where they are wired. ``moved`` puts a seat's panel on another channel, ``missing``
    leaves out seats' panels, ``dead_muxes`` multiplexers; ``stuck`` makes every
    transfer time out (SDA held low)."""

    def __init__(self, bus: int, config: TableConfig, *, moved: dict[int, int] | None = None,
                 missing: set[int] = frozenset(), dead_muxes: set[int] = frozenset(),
                 stuck: bool = False):
        self.bus, self.stuck = bus, stuck
        self.muxes: set[int] = set()
        self.panels: set[tuple[int | None, int | None, int]] = set()
        for seat in config.seats:
            screen = seat.screen
            if screen is None or screen.bus != bus:
                continue
            if screen.mux is not None and screen.mux not in dead_muxes:
                self.muxes.add(screen.mux)
            if seat.number not in missing:
                channel = (moved or {}).get(seat.number, screen.channel)
                self.panels.add((screen.mux, channel, screen.address))
        self._open: dict[int, int] = {}  # mux -> mask of open channels

    def _check(self, address: int) -> None:
        if self.stuck:
            raise OSError(errno.ETIMEDOUT, "Connection timed out")
        answering = address in self.muxes or any(
            a == address and (m is None or self._open.get(m, 0) & (1 << c))
            for m, c, a in self.panels if m is None or m in self.muxes)
        if not answering:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_byte(self, address: int, value: int) -> None:
        self._check(address)
        if address in self.muxes:
            self._open[address] = value

    def write_byte_data(self, address: int, register: int, value: int) -> None:
        self._check(address)

    def is_open(self, mux: int, channel: int | None) -> bool:
        return channel is not None and bool(self._open.get(mux, 0) & (1 << channel))

    def close(self) -> None:
        pass


class ShortedPin(MockPWMPin):
    """A button input shorted to ground: it reads low whatever the pull-up does."""

    def drive_high(self) -> None:  # the short wins over the pull-up
        pass


@dataclass
class SimFaults:
    """Faults put into the simulated table, ``KIND[:SEAT[:ROLE]]`` as on the command
    line (seat 1 and select when left out). See ``KINDS``."""

    KINDS = {
        "bus-missing": "bus 1 does not exist (no dtparam=i2c_arm=on)",
        "bus-stuck": "every transfer on the seat's bus times out",
        "mux-missing": "the seat's TCA9548A does not answer",
        "screen-missing": "the seat's screen does not answer",
        "wrong-channel": "the seat's screen is wired to another mux channel",
        "screen-stops": "the seat's screen answers, then stops after the first frame",
        "screen-flaky": "one write in 50 to the seat's screen fails (see --stress)",
        "button-stuck": "the button is shorted to ground (held from the start)",
        "button-unreleased": "the button is pressed and never let go",
        "button-silent": "the button is never pressed (a broken wire)",
        "led-busy": "the LED's pin is already in use",
    }
    faults: list[tuple[str, int, str]] = field(default_factory=list)

    @classmethod
    def parse(cls, specs: list[str]) -> "SimFaults":
        faults = []
        for spec in specs:
            kind, _, rest = spec.partition(":")
            seat, _, role = rest.partition(":")
            if kind not in cls.KINDS or (seat and not seat.isdigit()) or \
                    (role and role not in ROLES):
                raise ValueError(f"unknown fault {spec!r}: use KIND[:SEAT[:ROLE]], KIND one "
                                 f"of {', '.join(cls.KINDS)}")
            faults.append((kind, int(seat or 1), role or "select"))
        return cls(faults)

    def has(self, kind: str, seat: int | None = None, role: str | None = None) -> bool:
        return any(k == kind and seat in (None, s) and role in (None, r)
                   for k, s, r in self.faults)

    def seats(self, kind: str) -> set[int]:
        return {s for k, s, _ in self.faults if k == kind}


class SimParts:
    """The parts the doctor checks on the sim backend, with ``faults`` put in."""

    def __init__(self, config: TableConfig, faults: SimFaults | None = None):
        self.config, self.faults = config, faults or SimFaults()
        self.pin_factory = MockFactory(pin_class=MockPWMPin)
        self.models: dict[int, ModelBus] = {}
        for seat in config.seats:
            if seat.buttons is None:
                continue
            for role in ROLES:
                if self.faults.has("button-stuck", seat.number, role):
                    self.pin_factory.pin(getattr(seat.buttons, role),
                                         pin_class=ShortedPin).drive_low()
            if seat.led is not None and self.faults.has("led-busy", seat.number):
                self.pin_factory.reserve_pins(self, seat.led)

    def bus_exists(self, bus: int) -> bool:
        return not (bus == 1 and self.faults.has("bus-missing"))

    def smbus(self, bus: int) -> ModelBus:
        seats = [s for s in self.config.seats if s.screen and s.screen.bus == bus]
        moved = {}
        for seat in seats:
            screen = seat.screen
            if self.faults.has("wrong-channel", seat.number) and screen.mux is not None:
                used = {s.screen.channel for s in seats if s.screen.mux == screen.mux}
                moved[seat.number] = min(set(range(8)) - used)
        dead = {s.screen.mux for s in seats if self.faults.has("mux-missing", s.number)}
        stuck = any(self.faults.has("bus-stuck", s.number) for s in seats)
        self.models[bus] = ModelBus(bus, self.config, moved=moved, dead_muxes=dead,
                                    missing=self.faults.seats("screen-missing"), stuck=stuck)
        return self.models[bus]

    def i2c(self, bus: int, address: int) -> "SimPanel":
        return SimPanel(lambda: self.panel_fault(bus, address))

    def panel_fault(self, bus: int, address: int) -> str | None:
        """The fault of the panel the bus reaches now at ``address`` (its mux channel
        is the open one), if it has one."""
        model = self.models.get(bus)
        for seat in self.config.seats:
            screen = seat.screen
            if screen is None or (screen.bus, screen.address) != (bus, address):
                continue
            if screen.mux is not None and not (model and model.is_open(screen.mux,
                                                                       screen.channel)):
                continue
            for kind in PANEL_FAULTS:
                if self.faults.has(kind, seat.number):
                    return kind
        return None

    def __repr__(self) -> str:  # named in gpiozero's "pin in use by ..." message
        return "another program"

    def finger(self, seat: int, role: str, pin: int) -> None:
        """Answer the doctor's "press ROLE" as a person would, from another thread."""
        if self.faults.has("button-silent", seat, role) or \
                self.faults.has("button-stuck", seat, role):
            return
        release = not self.faults.has("button-unreleased", seat, role)
        hold = self.config.bounce_ms / 1000 * 2 + 0.01  # held well past the debounce

        def press() -> None:
            mock = self.pin_factory.pin(pin)
            mock.drive_low()
            if release:
                time.sleep(hold)
                mock.drive_high()

        threading.Thread(target=press, daemon=True).start()


#: Faults of a panel that answers: it stops after its first frame, or one write in
#: ``FLAKY_EVERY`` fails (a marginal lead, which ``--stress`` counts).
PANEL_FAULTS = ("screen-stops", "screen-flaky")
FLAKY_EVERY = 50


class SimPanel(CountingInterface):
    """A simulated panel that misbehaves as ``fault()`` says (see ``PANEL_FAULTS``)."""

    def __init__(self, fault: Callable[[], str | None]):
        super().__init__()
        self._fault = fault
        self._writes = 0  # data writes tried

    def data(self, data: Any) -> None:
        fault = self._fault()
        self._writes += 1
        if (fault == "screen-stops" and self.data_bytes >= 1024) or \
                (fault == "screen-flaky" and self._writes % FLAKY_EVERY == 0):
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        super().data(data)


def sim_doctor(config: TableConfig, data_dir: Path, host: str, port: int,
               faults: SimFaults | None = None, **kwargs: Any) -> Doctor:
    """A doctor over the simulated parts of ``config``, with ``faults`` put in; the sim's
    finger presses each button asked for (unless a fault says otherwise)."""
    parts = SimParts(config, faults)
    kwargs.setdefault("prompt", parts.finger)
    kwargs.setdefault("connections", lambda: None)
    doctor = Doctor(config, "sim", data_dir, host, port, smbus=parts.smbus, i2c=parts.i2c,
                    pin_factory=parts.pin_factory, bus_exists=parts.bus_exists, **kwargs)
    doctor.parts = parts  # type: ignore[attr-defined]
    return doctor
