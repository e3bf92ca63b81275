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
from typing import AbstractSet, Any, Callable

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.seats import CountingInterface
from companion.seats.buttons import ROLES
from companion.seats.config import ScreenConfig, SeatConfig, TableConfig

from .checks import Doctor


def _screen(seat: SeatConfig) -> ScreenConfig:
    """The screen of a seat on a modelled bus (the seats listed there all have one)."""
    if seat.screen is None:
        raise ValueError(f"seat {seat.number} has no screen")
    return seat.screen


class ModelBus:
    """An I2C bus of the simulated table: the multiplexers and panels of a config answer
    where they are wired. ``moved`` puts a seat's panel at another ``(channel,
    address)``, ``missing`` leaves out seats' panels, ``dead_muxes`` multiplexers;
    ``stuck`` makes every transfer time out; ``held`` lists the ``(mux, channel)``
    whose SDA is held low (mux None: the bus itself), where every address acknowledges
    (the low line reads as one) and the mux no longer hears a command; a mux in
    ``kernel_muxes`` is claimed by a kernel driver (errno 16)."""

    def __init__(self, bus: int, config: TableConfig, *,
                 moved: dict[int, tuple[int | None, int]] | None = None,
                 missing: AbstractSet[int] = frozenset(),
                 dead_muxes: AbstractSet[int | None] = frozenset(), stuck: bool = False,
                 held: AbstractSet[tuple[int | None, int | None]] = frozenset(),
                 kernel_muxes: AbstractSet[int | None] = frozenset()):
        self.bus, self.stuck, self.held = bus, stuck, set(held)
        self.kernel_muxes = set(kernel_muxes)
        self.muxes: set[int] = set()
        self.panels: set[tuple[int | None, int | None, int]] = set()
        for seat in config.seats:
            screen = seat.screen
            if screen is None or screen.bus != bus:
                continue
            if screen.mux is not None and screen.mux not in dead_muxes:
                self.muxes.add(screen.mux)
            if seat.number not in missing:
                channel, address = (moved or {}).get(seat.number,
                                                     (screen.channel, screen.address))
                self.panels.add((screen.mux, channel, address))
        self._open: dict[int, int] = {}  # mux -> mask of open channels

    def sda_held(self) -> bool:
        """Whether SDA is low now: held on the bus, or on an open channel."""
        return any(mux is None or self.is_open(mux, channel) for mux, channel in self.held)

    def _check(self, address: int) -> None:
        if self.stuck:
            raise OSError(errno.ETIMEDOUT, "Connection timed out")
        if address in self.kernel_muxes:
            raise OSError(errno.EBUSY, "Device or resource busy")
        if self.sda_held():
            return
        answering = address in self.muxes or any(
            a == address and (m is None or c is not None and self._open.get(m, 0) & (1 << c))
            for m, c, a in self.panels if m is None or m in self.muxes)
        if not answering:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_byte(self, address: int, value: int) -> None:
        held = self.sda_held()  # a held line garbles the command: no mux hears it
        self._check(address)
        if address in self.muxes and not held:
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


class ShortedLedPin(MockPWMPin):
    """An LED's pin shorted to ground: it reads low while driven high."""

    def _set_state(self, value: float) -> None:
        super()._set_state(0 if self._function == "output" else value)


@dataclass
class SimFaults:
    """Faults put into the simulated table, ``KIND[:SEAT[:ROLE]]`` as on the command
    line (seat 1 and select when left out). See ``KINDS``."""

    KINDS = {
        "bus-missing": "bus 1 does not exist (no dtparam=i2c_arm=on)",
        "bus-stuck": "every transfer on the seat's bus times out",
        "sda-low": "SDA is held low on the seat's mux channel (a pair swapped at one end "
                   "of its Cat5e run): every address acknowledges; a seat straight on "
                   "the bus holds the whole bus",
        "mux-missing": "the seat's TCA9548A does not answer",
        "kernel-mux": "the seat's TCA9548A is claimed by the kernel's i2c-mux driver "
                      "(errno 16, a dtoverlay=i2c-mux line)",
        "screen-missing": "the seat's screen does not answer",
        "wrong-channel": "the seat's screen is wired to another mux channel",
        "shared-channel": "the seat's screen, jumpered to the other address, is wired to "
                          "its neighbour's mux channel",
        "address-elsewhere": "the seat's screen answers at the other address on a free "
                             "mux channel",
        "screen-stops": "the seat's screen answers, then stops after the first frame",
        "screen-flaky": "one write in 50 to the seat's screen fails (see --stress)",
        "screen-garbled": "one write in 50 to the seat's screen arrives wrong without an "
                          "error (see --stress: the sim's panels are read back)",
        "button-stuck": "the button is shorted to ground (held from the start)",
        "button-unreleased": "the button is pressed and never let go",
        "button-silent": "the button is never pressed (a broken wire)",
        "buttons-swapped": "the seat's previous and next wires are swapped",
        "button-wrong-pin": "the button's wire is on the next seat's pin of the same role "
                            "(on a one-seat table, on a pin no seat uses)",
        "led-busy": "the LED's pin is already in use",
        "led-shorted": "the LED's pin is shorted to ground: it reads low while driven high",
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
            if seat.led is not None and self.faults.has("led-shorted", seat.number):
                self.pin_factory.pin(seat.led, pin_class=ShortedLedPin)

    def bus_exists(self, bus: int) -> bool:
        return not (bus == 1 and self.faults.has("bus-missing"))

    def smbus(self, bus: int) -> ModelBus:
        seats = [s for s in self.config.seats if s.screen and s.screen.bus == bus]
        moved = {s.number: place for s in seats
                 if (place := self.moved_panel(s, seats)) is not None}
        dead = {_screen(s).mux for s in seats if self.faults.has("mux-missing", s.number)}
        kernel = {_screen(s).mux for s in seats if self.faults.has("kernel-mux", s.number)}
        held = {(_screen(s).mux, _screen(s).channel) for s in seats
                if self.faults.has("sda-low", s.number)}
        stuck = any(self.faults.has("bus-stuck", s.number) for s in seats)
        self.models[bus] = ModelBus(bus, self.config, moved=moved, dead_muxes=dead,
                                    missing=self.faults.seats("screen-missing"), stuck=stuck,
                                    held=held, kernel_muxes=kernel)
        return self.models[bus]

    def moved_panel(self, seat: SeatConfig, seats: list[SeatConfig]
                    ) -> tuple[int | None, int] | None:
        """Where a fault puts ``seat``'s panel (``(channel, address)``), if one does."""
        screen = _screen(seat)
        other = 0x3D if screen.address == 0x3C else 0x3C
        if screen.mux is None:
            kinds = ("shared-channel", "address-elsewhere")
            return ((None, other) if any(self.faults.has(k, seat.number) for k in kinds)
                    else None)
        same_mux = [s for s in seats if _screen(s).mux == screen.mux]
        free = sorted(set(range(8)) - {_screen(s).channel for s in same_mux})
        if self.faults.has("wrong-channel", seat.number) and free:
            return free[0], screen.address
        if self.faults.has("address-elsewhere", seat.number) and free:
            return free[0], other
        neighbours = [s for s in same_mux if s.number != seat.number]
        if self.faults.has("shared-channel", seat.number) and neighbours:
            before = [s for s in neighbours if s.number < seat.number]
            neighbour = before[-1] if before else neighbours[0]
            return _screen(neighbour).channel, other
        return None

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
        wired = self.wired_pin(seat, role, pin)
        if wired is None:
            return
        release = not self.faults.has("button-unreleased", seat, role)
        hold = self.config.bounce_ms / 1000 * 2 + 0.01  # held well past the debounce

        def press() -> None:
            mock = self.pin_factory.pin(wired)
            mock.drive_low()
            if release:
                time.sleep(hold)
                mock.drive_high()

        threading.Thread(target=press, daemon=True).start()

    def wired_pin(self, seat: int, role: str, pin: int) -> int | None:
        """The pin a press of ``seat``'s ``role`` really pulls low, with the faults put
        in (None: a pin the doctor cannot watch)."""
        buttons = {s.number: s.buttons for s in self.config.seats if s.buttons}
        if self.faults.has("buttons-swapped", seat) and role != "select":
            return getattr(buttons[seat], "next" if role == "previous" else "previous")
        if not self.faults.has("button-wrong-pin", seat, role):
            return pin
        others = sorted(n for n in buttons if n != seat)
        if others:
            after = [n for n in others if n > seat]
            return getattr(buttons[(after or others)[0]], role)
        used = {p for b in buttons.values() for p in (b.previous, b.select, b.next)}
        used |= {s.led for s in self.config.seats if s.led is not None}
        free = sorted(set(range(4, 28)) - used)
        return free[0] if free else None


#: Faults of a panel that answers: it stops after its first frame, or one write in
#: ``FLAKY_EVERY`` fails (a marginal lead, which ``--stress`` counts).
PANEL_FAULTS = ("screen-stops", "screen-flaky", "screen-garbled")
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
        if fault == "screen-garbled" and self._writes % FLAKY_EVERY == 0:
            data = bytes(data)
            data = bytes([data[0] ^ 0x01]) + data[1:]  # one bit flipped, nothing said
        super().data(data)


def sim_doctor(config: TableConfig, data_dir: Path, host: str, port: int,
               faults: SimFaults | None = None, **kwargs: Any) -> Doctor:
    """A doctor over the simulated parts of ``config``, with ``faults`` put in; the sim's
    finger presses each button asked for (unless a fault says otherwise)."""
    seats = {s.number for s in config.seats}
    for kind, seat, _ in (faults.faults if faults else []):
        if seat not in seats:
            raise ValueError(f"fault {kind}:{seat}: there is no seat {seat} (seats "
                             f"{', '.join(str(n) for n in sorted(seats))})")
    parts = SimParts(config, faults)
    kwargs.setdefault("prompt", parts.finger)
    kwargs.setdefault("connections", lambda: None)
    doctor = Doctor(config, "sim", data_dir, host, port, smbus=parts.smbus, i2c=parts.i2c,
                    pin_factory=parts.pin_factory, bus_exists=parts.bus_exists, **kwargs)
    doctor.parts = parts  # type: ignore[attr-defined]
    return doctor
