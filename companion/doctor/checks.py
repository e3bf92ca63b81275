"""The doctor: find what is wrong with a table before a game night.

The doctor runs instead of the table, before any seat is opened, and checks one part
at a time, so a missing screen or multiplexer is one numbered line among the others,
not the end of the run. Every line is ``ok``, ``FAIL`` or ``skip`` (a part that could
not be checked because an earlier line failed), with what was found and, on a failure,
what to do. The exit status is 0 only when nothing failed.

In order: the config; each I2C bus (does ``/dev/i2c-N`` exist? is SDA free?); the boot
config (no kernel driver owns the mux or the panels); what the service will meet (its
unit, the port and the capability to bind it, access to the I2C and GPIO devices, a
writable working directory, the journal in the service's data folder, the hotspot);
each TCA9548A; then seat by seat its screen, its LED and each button. With
``only_seat`` (``mutiny doctor --seat N``) just that seat is checked, with the bus and
mux it needs. ``stress()`` draws full frames to every screen for a while and counts
errors per seat (``mutiny doctor --stress``).

The checks live by job: ``buses`` (I2C: buses, muxes, screens), ``pins`` (LEDs,
buttons), ``service`` (the service and the system), ``stress``; ``Doctor`` puts them
together over injectable parts. On the sim backend the same checks run on simulated
parts (``companion.doctor.sim``, where ``SimFaults`` puts a fault into them:
``mutiny doctor --sim-fault``), so every failure the doctor claims to find can be
shown, and tested.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

from companion.seats import MonotonicClock, MuxBus, PageDiffSSD1306
from companion.seats.buttons import ROLES
from companion.seats.config import SeatConfig, TableConfig, i2c_bus_exists

from .buses import BusChecks, label
from .pins import PinChecks
from .report import FAIL, OK, Check
from .service import ServiceChecks, active_connections, gpio_chips, read_unit
from .stress import StressRow, StressRun


class Doctor(BusChecks, PinChecks, ServiceChecks, StressRun):
    """The checks of one table config, over injectable parts.

    ``smbus(bus)`` opens a bus for the probes (``write_byte``, ``write_byte_data``);
    ``i2c(bus, address)`` a luma interface for drawing; ``pin_factory`` is gpiozero's;
    ``bus_exists``, ``connections``, ``unit``, ``pods``, ``devices`` (may this user
    open a path?) and ``chips`` (the GPIO chips) stand in for the system.
    ``prompt(seat, role, gpio)`` asks for a press (a person, or the sim's finger).
    ``boot_config`` is the config.txt to read (None: not read); ``data_source`` says
    where ``data_dir`` came from; ``only_seat`` checks that seat alone.
    """

    def __init__(self, config: TableConfig, backend: str, data_dir: Path, host: str,
                 port: int, *, smbus: Callable[[int], Any], i2c: Callable[[int, int], Any],
                 pin_factory: Any, bus_exists: Callable[[int], bool] = i2c_bus_exists,
                 button_timeout: float = 20.0, buttons: bool = True,
                 say: Callable[[str], None] = print,
                 prompt: Callable[[int, str, int], None] | None = None,
                 connections: Callable[[], tuple[list[str], list[str]] | None] =
                 active_connections,
                 unit: Callable[[], dict[str, str] | None] = read_unit,
                 pods: Callable[[], list[dict[str, Any]]] | None = None,
                 devices: Callable[[str], bool] | None = None,
                 chips: Callable[[], list[str]] = lambda: gpio_chips(),
                 boot_config: Path | None = None, data_source: str = "",
                 only_seat: int | None = None):
        self.config, self.backend = config, backend
        self.data_dir, self.host, self.port = Path(data_dir), host, port
        self.data_source, self.boot_config = data_source, boot_config
        self.smbus, self.i2c, self.pin_factory = smbus, i2c, pin_factory
        self.bus_exists = bus_exists
        self.button_timeout, self.test_buttons = button_timeout, buttons
        self.say = say
        self.prompt = prompt or (lambda seat, role, gpio: say(
            f"    seat {seat}: press and release {role} (GPIO{gpio})"))
        self.connections, self.unit, self.pods = connections, unit, pods
        self.devices = devices or (lambda path: os.access(path, os.R_OK | os.W_OK))
        self.chips = chips
        if only_seat is not None and only_seat not in {s.number for s in config.seats}:
            raise ValueError(f"there is no seat {only_seat} in {config.source} (seats "
                             f"{', '.join(str(s.number) for s in config.seats)})")
        self.only_seat = only_seat
        self.checks: list[Check] = []
        self.screens: dict[int, PageDiffSSD1306] = {}  # seat -> a screen that works
        self._buses: dict[int, MuxBus] = {}
        self._bad_buses: dict[int, str] = {}  # bus -> why it cannot be used
        self._bad_muxes: dict[tuple[int, int | None], str] = {}
        self._clock: MonotonicClock | None = None
        self.stress_rows: list[StressRow] = []  #: the last ``stress()``'s table

    # -- running -------------------------------------------------------------------------
    def run(self) -> bool:
        """Run every check in order, printing as it goes; True when none failed."""
        what = (f"seat {self.only_seat} only" if self.only_seat is not None
                else f"{len(self.config.seats)} seats")
        self.say(f"Mutiny Table doctor: {what}, {self.backend} backend, config "
                 f"{self.config.source}")
        try:
            self.report(*self.check_config())
            for bus in self.used_buses():
                self.report(*self.check_bus(bus))
            self.report(*self.check_boot_config())
            # Checking one seat at a bring-up: the service is not what is being built.
            service = ((self.check_devices,) if self.only_seat is not None else (
                self.check_unit, self.check_port, self.check_devices, self.check_journal,
                self.check_working_directory, self.check_hotspot))
            for check in service:
                self.report(*check())
            for bus, mux in self.used_muxes():
                self.report(*self.check_mux(bus, mux))
            for seat in self.checked_seats():
                self.check_seat(seat)
        finally:
            self.close()
        return self.summary()

    def summary(self) -> bool:
        failed = [c for c in self.checks if c.status == FAIL]
        total = len(self.checks)
        self.say(f"{total - len(failed)} of {total} checks passed." if failed
                 else f"All {total} checks passed.")
        return not failed

    def report(self, name: str, status: str, detail: str) -> None:
        self.checks.append(Check(name, status, detail))
        self.say(f"{len(self.checks):2}. {name:.<26} {status:<4} {detail}")

    def checked_seats(self) -> list[SeatConfig]:
        """The seats this run checks: every seat, or ``only_seat``."""
        return [s for s in self.config.seats
                if self.only_seat is None or s.number == self.only_seat]

    def used_buses(self) -> list[int]:
        return sorted({s.screen.bus for s in self.checked_seats() if s.screen}, reverse=True)

    def used_muxes(self) -> list[tuple[int, int]]:
        return list(dict.fromkeys((s.screen.bus, s.screen.mux) for s in self.checked_seats()
                                  if s.screen and s.screen.mux is not None))

    def close(self) -> None:
        """Close every screen and bus the checks opened. Idempotent."""
        for device in self.screens.values():
            try:
                device.cleanup()
            except Exception:  # a screen that stopped answering cannot be switched off
                pass
        self.screens.clear()
        for bus in self._buses.values():
            bus.close()
        self._buses.clear()
        if self._clock is not None:
            self._clock.close()

    # -- the table -------------------------------------------------------------------------
    def check_config(self) -> tuple[str, str, str]:
        pods = sum(1 for s in self.config.seats if s.pod)
        return ("Table config", OK, f"{len(self.config.seats)} seats, "
                f"{len(self.used_muxes())} multiplexer(s), {pods} pod(s)")

    def check_seat(self, seat: SeatConfig) -> None:
        if seat.pod is not None:
            self.report(*self.check_pod(seat))
            return
        self.report(*self.check_screen(seat))
        if seat.led is not None:
            self.report(*self.check_led(seat))
        for role in ROLES:
            self.report(*self.check_button(seat, role))

    def check_pod(self, seat: SeatConfig) -> tuple[str, str, str]:
        found = {p["id"]: p for p in (self.pods() if self.pods else [])}
        if not found.get(seat.pod, {}).get("connected"):
            return (f"Seat {seat.number} pod", FAIL, f"pod {seat.pod} is not connected: "
                    "check its USB cable (a Zero 2 W needs a powered OTG hub)")
        return f"Seat {seat.number} pod", OK, f"pod {seat.pod} answers"

    def _show(self, seat: SeatConfig, text: str) -> None:
        device = self.screens.get(seat.number)
        if device is None:
            return
        try:
            device.display(label(device, f"SEAT {seat.number}", text))
        except Exception:  # the screen line already told; the button check goes on
            self.screens.pop(seat.number, None)
