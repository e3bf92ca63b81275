"""The doctor's checks: find what is wrong with a table before a game night.

The doctor runs instead of the table, before any seat is opened, and checks one part
at a time, so a missing screen or multiplexer is one numbered line among the others,
not the end of the run. Every line is ``ok``, ``FAIL`` or ``skip`` (a part that could
not be checked because an earlier line failed), with what was found and, on a failure,
what to do. The exit status is 0 only when nothing failed.

In order: the config; each I2C bus (does ``/dev/i2c-N`` exist?); what the service will
meet (its unit, the port and the capability to bind it, access to the I2C and GPIO
devices, a writable working directory, the journal, the hotspot); each TCA9548A; then
seat by seat its screen (answers where configured? if not, the mux channels and the
other address are scanned to say where it does answer; then frames are drawn to catch
one that stops answering), its LED and each button (not held from the start, then
pressed and released when asked). ``stress()`` draws full frames to every screen for a
while and counts errors per seat (``mutiny doctor --stress``).

On the sim backend the same checks run on simulated parts: gpiozero's MockFactory pins
(a simulated finger presses each button asked for), modelled panels, and a modelled
I2C bus (``companion.doctor.sim``, where ``SimFaults`` puts a fault into them:
``mutiny doctor --sim-fault``), so every failure the doctor claims to find can be shown,
and tested.
"""
from __future__ import annotations

import errno
import os
import shutil
import socket
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from PIL import Image, ImageDraw

from companion.seats import MonotonicClock, MuxBus, PageDiffSSD1306
from companion.seats.buttons import ROLES, SeatButton
from companion.seats.config import ScreenConfig, SeatConfig, TableConfig, i2c_bus_exists
from companion.seats.overlays import BOOT_CONFIG, enabling_line
from companion.seats.wiring import PHYSICAL

OK, FAIL, SKIP = "ok", "FAIL", "skip"
HOTSPOT = "mutiny-hotspot"
UNIT = Path("/etc/systemd/system/mutiny.service")
#: An SSD1306 command write of one NOP (control byte 0x00, command 0xE3): any panel
#: acknowledges it, and it changes nothing on the screen.
NOP = (0x00, 0xE3)
GROUP_FIX = "add the user to the i2c group (sudo adduser mutiny i2c), then reboot"
#: Full frames drawn to each screen after it answers: one that stops answering
#: (a loose wire, a lead too long for the bus speed) fails here.
CHECK_FRAMES = 4


@dataclass
class Check:
    """One numbered line of the doctor's report."""

    name: str
    status: str
    detail: str


def describe_error(exc: BaseException) -> str:
    """What an I2C error means at the table."""
    code = getattr(exc, "errno", None)
    if code == errno.EREMOTEIO:
        return "no acknowledge (errno 121)"
    if code == errno.ETIMEDOUT:
        return "the bus timed out (errno 110)"
    return str(exc) or type(exc).__name__


def bus_timeout_fix(bus: int) -> str:
    return (f"SDA or SCL of bus {bus} is held low: look for a short between SDA, SCL and "
            "GND, a panel or mux without power, a missing pull-up; unplug the seats one at "
            "a time until the bus answers")


def active_connections() -> tuple[list[str], list[str]] | None:
    """NetworkManager's ``(profiles, active)`` connection names (None without it)."""
    if shutil.which("nmcli") is None:
        return None
    names = []
    for extra in ([], ["--active"]):
        done = subprocess.run(["nmcli", "-t", "-f", "NAME", "connection", "show", *extra],
                              capture_output=True, text=True, timeout=10)
        if done.returncode != 0:
            return None
        names.append(done.stdout.split())
    return names[0], names[1]


def read_unit(path: Path = UNIT) -> dict[str, str] | None:
    """The ``Key=value`` lines of the installed systemd unit (None when not installed)."""
    try:
        text = path.read_text()
    except OSError:
        return None
    keys: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and not line.lstrip().startswith("#"):
            keys[key.strip()] = value.strip()
    return keys


def gpio_chips() -> list[str]:
    """The GPIO character devices, ``/dev/gpiochip*``."""
    return sorted(str(path) for path in Path("/dev").glob("gpiochip*"))


def unprivileged_port_start() -> int:
    """The lowest port a process without CAP_NET_BIND_SERVICE may bind (Linux: 1024)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_unprivileged_port_start").read_text())
    except (OSError, ValueError):
        return 1024


# -- the doctor --------------------------------------------------------------------------------

class Doctor:
    """The checks of one table config, over injectable parts.

    ``smbus(bus)`` opens a bus for the probes (``write_byte``, ``write_byte_data``);
    ``i2c(bus, address)`` a luma interface for drawing; ``pin_factory`` is gpiozero's;
    ``bus_exists``, ``connections``, ``unit``, ``pods``, ``devices`` (may this user
    open a path?) and ``chips`` (the GPIO chips) stand in for the system.
    ``prompt(seat, role, gpio)`` asks for a press (a person, or the sim's finger).
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
                 chips: Callable[[], list[str]] = lambda: gpio_chips()):
        self.config, self.backend = config, backend
        self.data_dir, self.host, self.port = Path(data_dir), host, port
        self.smbus, self.i2c, self.pin_factory = smbus, i2c, pin_factory
        self.bus_exists = bus_exists
        self.button_timeout, self.test_buttons = button_timeout, buttons
        self.say = say
        self.prompt = prompt or (lambda seat, role, gpio: say(
            f"    seat {seat}: press and release {role} (GPIO{gpio})"))
        self.connections, self.unit, self.pods = connections, unit, pods
        self.devices = devices or (lambda path: os.access(path, os.R_OK | os.W_OK))
        self.chips = chips
        self.checks: list[Check] = []
        self.screens: dict[int, PageDiffSSD1306] = {}  # seat -> a screen that works
        self._buses: dict[int, MuxBus] = {}
        self._bad_buses: dict[int, str] = {}  # bus -> why it cannot be used
        self._bad_muxes: dict[tuple[int, int], str] = {}
        self._clock: MonotonicClock | None = None
        self.stress_rows: list[StressRow] = []  #: the last ``stress()``'s table

    # -- running -------------------------------------------------------------------------
    def run(self) -> bool:
        """Run every check in order, printing as it goes; True when none failed."""
        self.say(f"Mutiny Table doctor: {len(self.config.seats)} seats, {self.backend}"
                 f" backend, config {self.config.source}")
        try:
            self.report(*self.check_config())
            for bus in self.used_buses():
                self.report(*self.check_bus(bus))
            for check in (self.check_unit, self.check_port, self.check_devices,
                          self.check_journal, self.check_working_directory,
                          self.check_hotspot):
                self.report(*check())
            for bus, mux in self.used_muxes():
                self.report(*self.check_mux(bus, mux))
            for seat in self.config.seats:
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

    def used_buses(self) -> list[int]:
        return sorted({s.screen.bus for s in self.config.seats if s.screen}, reverse=True)

    def used_muxes(self) -> list[tuple[int, int]]:
        return list(dict.fromkeys((s.screen.bus, s.screen.mux) for s in self.config.seats
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

    # -- the table and the system ------------------------------------------------------------
    def check_config(self) -> tuple[str, str, str]:
        pods = sum(1 for s in self.config.seats if s.pod)
        return ("Table config", OK, f"{len(self.config.seats)} seats, "
                f"{len(self.used_muxes())} multiplexer(s), {pods} pod(s)")

    def check_bus(self, bus: int) -> tuple[str, str, str]:
        name = f"I2C bus {bus}"
        if not self.bus_exists(bus):
            line = enabling_line(bus)
            fix = (f"add the line {line} at the end of {BOOT_CONFIG} and reboot "
                   "(sudo hardware/install.sh does both)" if line else
                   "put these screens on bus 1 behind the TCA9548A")
            self._bad_buses[bus] = f"bus {bus} is missing"
            return name, FAIL, f"/dev/i2c-{bus} does not exist: {fix}"
        return name, OK, f"/dev/i2c-{bus} exists"

    def check_unit(self) -> tuple[str, str, str]:
        if self.backend == "sim":
            return "Service unit", OK, "none needed on the simulated table"
        unit = self.unit()
        if unit is None:
            return ("Service unit", FAIL, f"{UNIT} is not installed: run sudo "
                    "hardware/install.sh")
        return "Service unit", OK, f"{UNIT} runs as {unit.get('User', 'root')}"

    def check_port(self) -> tuple[str, str, str]:
        """Whether the service could listen, as it will: something already listening
        is found by connecting; a port below 1024 needs the unit's capability."""
        where = f"{self.host}:{self.port}"
        if self.port and self._listening():
            return ("Web port", FAIL, f"{where} is taken: is the service running? stop it "
                    "first (sudo systemctl stop mutiny), then run the doctor again")
        if 0 < self.port < unprivileged_port_start():
            unit = self.unit() if self.backend == "pi" else None
            caps = (unit or {}).get("AmbientCapabilities", "")
            if "CAP_NET_BIND_SERVICE" in caps:
                return ("Web port", OK, f"{where} is free; the service gets "
                        "CAP_NET_BIND_SERVICE from its unit to bind it")
            return ("Web port", FAIL, f"port {self.port} needs CAP_NET_BIND_SERVICE, which "
                    "only the installed service has: run hardware/install.sh, or use "
                    "--port 8000")
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
                probe.bind((self.host, self.port))
        except OSError as exc:
            return ("Web port", FAIL, f"{where} cannot be bound ({exc.strerror}): is the "
                    "service running? sudo systemctl stop mutiny")
        return "Web port", OK, f"{where} is free"

    def _listening(self) -> bool:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        try:
            with socket.create_connection((host, self.port), timeout=1):
                return True
        except OSError:
            return False

    def check_devices(self) -> tuple[str, str, str]:
        """The I2C and GPIO devices, read and written as this user (the service user
        when run as documented: sudo -u mutiny ...)."""
        if self.backend == "sim":
            return "Device access", OK, "simulated buses and pins"
        paths = [f"/dev/i2c-{bus}" for bus in self.used_buses() if self.bus_exists(bus)]
        chips = self.chips()
        if not chips:
            return ("Device access", FAIL, "no GPIO chip (/dev/gpiochip*): is this a "
                    "Raspberry Pi? (--backend sim simulates one)")
        paths += chips[:1]
        denied = [p for p in paths if not self.devices(p)]
        if denied:
            groups = sorted({"i2c" if "i2c" in p else "gpio" for p in denied})
            user = (self.unit() or {}).get("User", "mutiny")
            commands = "; ".join(f"sudo adduser {user} {group}" for group in groups)
            return ("Device access", FAIL, f"cannot open {', '.join(denied)}: add the user "
                    f"to {' and '.join(groups)} ({commands}), then reboot")
        return "Device access", OK, f"{', '.join(paths)} readable and writable"

    def check_working_directory(self) -> tuple[str, str, str]:
        """lgpio makes its notification FIFO in the working directory (or $LG_WD)."""
        unit = self.unit() if self.backend == "pi" else None
        folder = Path((unit or {}).get("WorkingDirectory") or os.environ.get("LG_WD")
                      or self.data_dir)
        if not (folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)):
            return ("Working directory", FAIL, f"{folder} is not writable, and lgpio makes "
                    f"its notification FIFO there: sudo install -d -o mutiny {folder}")
        return "Working directory", OK, f"{folder} is writable (lgpio's FIFO)"

    def check_journal(self) -> tuple[str, str, str]:
        path = self.data_dir / "journal.sqlite3"
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            with sqlite3.connect(path, timeout=2) as db:
                db.execute("BEGIN IMMEDIATE")  # takes the write lock: proves we may write
                db.execute("ROLLBACK")
        except (OSError, sqlite3.Error) as exc:
            return ("Journal", FAIL, f"cannot write {path}: {exc}; check the folder's owner"
                    " (sudo chown mutiny: /var/lib/mutiny)")
        return "Journal", OK, f"{path} is writable"

    def check_hotspot(self) -> tuple[str, str, str]:
        known = self.connections()
        if known is None:
            return "Wi-Fi hotspot", OK, "not installed (no NetworkManager)"
        profiles, active = known
        if HOTSPOT not in profiles:
            return ("Wi-Fi hotspot", OK, "not installed (hardware/install.sh --hotspot NAME "
                    "adds one)")
        if HOTSPOT not in active:
            return ("Wi-Fi hotspot", FAIL, f"'{HOTSPOT}' is installed but not up: sudo "
                    f"nmcli connection up {HOTSPOT}")
        return "Wi-Fi hotspot", OK, f"'{HOTSPOT}' is up"

    # -- the I2C side ------------------------------------------------------------------------
    def bus(self, number: int) -> MuxBus:
        if number not in self._buses:
            self._buses[number] = MuxBus(self.smbus(number), owns_bus=True)
        return self._buses[number]

    def check_mux(self, bus: int, mux: int) -> tuple[str, str, str]:
        name = f"TCA9548A 0x{mux:02X} bus {bus}"
        if bus in self._bad_buses:
            self._bad_muxes[(bus, mux)] = self._bad_buses[bus]
            return name, SKIP, f"not checked: {self._bad_buses[bus]}"
        try:
            with self.bus(bus).lock:
                self.bus(bus).bus.write_byte(mux, 0)  # every channel off
        except OSError as exc:
            self._bad_muxes[(bus, mux)] = f"the mux on bus {bus} does not answer"
            if exc.errno in (errno.EACCES, errno.EPERM):
                self._bad_buses[bus] = f"/dev/i2c-{bus} cannot be opened"
                return name, FAIL, f"cannot open /dev/i2c-{bus} ({exc.strerror}): {GROUP_FIX}"
            if exc.errno == errno.ETIMEDOUT:
                self._bad_buses[bus] = f"bus {bus} times out"
                return name, FAIL, f"{describe_error(exc)}: {bus_timeout_fix(bus)}"
            return (name, FAIL, f"does not answer at 0x{mux:02X} ({describe_error(exc)}): "
                    "check its VIN (3V3), GND, SDA and SCL wires and that A0-A2 are open "
                    f"(0x70); `i2cdetect -y {bus}` should show {mux:02x}")
        return name, OK, f"answers on bus {bus}"

    def answers(self, bus: int, mux: int | None, channel: int | None, address: int) -> bool:
        """Whether a device acknowledges ``address`` (behind ``mux`` ``channel``).
        Raises OSError for a bus that times out."""
        mux_bus = self.bus(bus)
        with mux_bus.lock:
            try:
                if mux is not None and channel is not None:
                    mux_bus.select(mux, channel)
                mux_bus.bus.write_byte_data(address, *NOP)
                return True
            except OSError as exc:
                if exc.errno == errno.ETIMEDOUT:
                    raise
                return False

    def find_screen(self, screen: ScreenConfig) -> str | None:
        """Where a screen that does not answer where configured does answer: the other
        address on its channel, or its address on a channel no other screen uses."""
        taken = {(s.screen.channel, s.screen.address) for s in self.config.seats
                 if s.screen and (s.screen.bus, s.screen.mux) == (screen.bus, screen.mux)}
        others = [(screen.channel, a) for a in (0x3C, 0x3D) if a != screen.address]
        if screen.mux is not None:
            others += [(c, screen.address) for c in range(8) if c != screen.channel]
        line = f" (line {screen.line})" if screen.line else ""
        for channel, address in others:
            if (channel, address) in taken:
                continue  # another seat's screen answers there, as it should
            if not self.answers(screen.bus, screen.mux, channel, address):
                continue
            if address != screen.address:
                return (f"it answers at 0x{address:02X} instead: set address = "
                        f"0x{address:02X}{line}, or move the jumper on the back of the panel")
            return (f"it answers on mux channel {channel}, not {screen.channel}: move its "
                    f"SDA/SCL to SD{screen.channel}/SC{screen.channel}, or set channel = "
                    f"{channel}{line}")
        return None

    def check_screen(self, seat: SeatConfig) -> tuple[str, str, str]:
        screen = seat.screen
        assert screen is not None
        name = f"Seat {seat.number} screen"
        blocked = self._bad_buses.get(screen.bus) or self._bad_muxes.get((screen.bus,
                                                                          screen.mux))
        if blocked:
            return name, SKIP, f"not checked: {blocked}"
        where = screen.describe()
        try:
            if not self.answers(screen.bus, screen.mux, screen.channel, screen.address):
                found = self.find_screen(screen)
                if found:
                    return name, FAIL, f"nothing at {where}; {found}"
                return (name, FAIL, f"does not answer at {where} (no acknowledge): check "
                        "its four wires (VCC, GND, SDA, SCL) and that it gets 3V3")
        except OSError as exc:
            if exc.errno != errno.ETIMEDOUT:
                return name, FAIL, f"cannot reach {where} ({describe_error(exc)}): {GROUP_FIX}"
            self._bad_buses[screen.bus] = f"bus {screen.bus} times out"
            return name, FAIL, f"{describe_error(exc)}: {bus_timeout_fix(screen.bus)}"
        return self._draw_frames(seat, name, where)

    def _draw_frames(self, seat: SeatConfig, name: str, where: str) -> tuple[str, str, str]:
        """Open the panel and draw full frames: one that stops answering fails here."""
        frames = 0
        try:
            device = self.open_screen(seat)
            for frames in range(1, CHECK_FRAMES + 1):
                device.invalidate()
                device.display(_label(device, f"SEAT {seat.number}",
                                      "Mutiny doctor" if frames % 2 else "Is this lit?"))
        except Exception as exc:  # luma and smbus2 raise OSError and errors of their own
            when = f"at frame {frames} of {CHECK_FRAMES}" if frames else "while being set up"
            return (name, FAIL, f"answers at {where}, then stopped answering {when} "
                    f"({describe_error(exc)}): a loose wire or a lead too long for the bus "
                    "speed; see `mutiny doctor --stress`")
        self.screens[seat.number] = device
        return name, OK, f"answers at {where}; shows SEAT {seat.number}"

    def open_screen(self, seat: SeatConfig) -> PageDiffSSD1306:
        screen = seat.screen
        assert screen is not None
        interface = self.i2c(screen.bus, screen.address)
        if screen.mux is not None and screen.channel is not None:
            interface = self.bus(screen.bus).channel(interface, screen.mux, screen.channel)
        return PageDiffSSD1306(interface, rotate=screen.rotation)

    # -- seats -------------------------------------------------------------------------------
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

    def check_led(self, seat: SeatConfig) -> tuple[str, str, str]:
        from gpiozero import LED, PWMLED
        name = f"Seat {seat.number} LED"
        pin = f"GPIO{seat.led} (pin {PHYSICAL.get(seat.led, '?')})"
        try:
            led = (PWMLED if seat.led_pwm else LED)(seat.led, pin_factory=self.pin_factory)
        except Exception as exc:  # gpiozero raises many kinds
            return (name, FAIL, f"cannot drive {pin} ({exc}): is the service or another "
                    "program using it? sudo systemctl stop mutiny")
        try:
            led.on()
            time.sleep(0.2 if self.backend == "pi" else 0)
        finally:
            led.close()
        return name, OK, f"{pin} drives it (it flashed: look)"

    def check_button(self, seat: SeatConfig, role: str) -> tuple[str, str, str]:
        assert seat.buttons is not None
        gpio = getattr(seat.buttons, role)
        name = f"Seat {seat.number} {role}"
        pin = f"GPIO{gpio} (pin {PHYSICAL.get(gpio, '?')})"
        try:
            button = SeatButton(gpio, name=role, pin_factory=self.pin_factory,
                                bounce_ms=self.config.bounce_ms,
                                hold_time=self.config.hold_time, clock=self.clock())
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
            self.prompt(seat.number, role, gpio)
            if not button.wait_for_press(self.button_timeout):
                return (name, FAIL, f"{pin} never pressed within {self.button_timeout:g} s: "
                        "check the button's two wires (GPIO and GND)")
            if not button.wait_for_release(self.button_timeout):
                return (name, FAIL, f"{pin} pressed but not released within "
                        f"{self.button_timeout:g} s: a stuck button or a short to GND")
        return name, OK, f"{pin} pressed and released"

    def clock(self) -> MonotonicClock:
        if self._clock is None:
            self._clock = MonotonicClock()
        return self._clock

    def _show(self, seat: SeatConfig, text: str) -> None:
        device = self.screens.get(seat.number)
        if device is None:
            return
        try:
            device.display(_label(device, f"SEAT {seat.number}", text))
        except Exception:  # the screen line already told; the button check goes on
            self.screens.pop(seat.number, None)

    # -- stress ------------------------------------------------------------------------------
    def stress(self, seconds: float) -> bool:
        """Draw full frames to every screen that answers for ``seconds``, counting the
        errors per seat; print a table. True when no frame failed."""
        self.say(f"Stress: full frames to every screen for {seconds:g} s")
        try:
            for bus in self.used_buses():
                if not self.bus_exists(bus):
                    self._bad_buses[bus] = f"bus {bus} is missing"
            seats = [s for s in self.config.seats if s.screen is not None]
            for seat in seats:
                self.check_screen(seat)  # opens the screens that answer
            self.stress_rows = self._stress_loop(seats, seconds)
        finally:
            self.close()
        self._print_stress(self.stress_rows)
        return all(row.frames and not row.errors for row in self.stress_rows)

    def _stress_loop(self, seats: list[SeatConfig], seconds: float) -> list["StressRow"]:
        rows = {s.number: StressRow(s.number, s.screen.describe()) for s in seats
                if s.screen is not None}
        patterns = {n: (_pattern(d, 0), _pattern(d, 1)) for n, d in self.screens.items()}
        end = time.monotonic() + seconds
        frame = 0
        while time.monotonic() < end and self.screens:
            for number, device in self.screens.items():
                row = rows[number]
                row.frames += 1
                try:
                    device.invalidate()  # a full frame each time: 1,024 data bytes
                    device.display(patterns[number][frame % 2])
                except Exception as exc:  # counted, not fatal: that is the measurement
                    row.errors += 1
                    row.last_error = describe_error(exc)
            frame += 1
        for number, row in rows.items():
            if number not in self.screens:
                row.last_error = "not drawn: see the doctor's screen line"
        return list(rows.values())

    def _print_stress(self, rows: list["StressRow"]) -> None:
        wide = max([len("screen")] + [len(row.where) for row in rows])
        self.say(f"{'seat':<5} {'screen':<{wide}} {'frames':>7} {'errors':>7} {'rate':>7}  "
                 "last error")
        for row in rows:
            rate = f"{row.errors / row.frames:.2%}" if row.frames else "-"
            self.say(f"{row.seat:<5} {row.where:<{wide}} {row.frames:>7} {row.errors:>7} "
                     f"{rate:>7}  {row.last_error}".rstrip())


@dataclass
class StressRow:
    """One seat's line of ``mutiny doctor --stress``."""

    seat: int
    where: str
    frames: int = 0  #: full frames tried
    errors: int = 0  #: frames that failed
    last_error: str = ""


def _label(device: Any, title: str, text: str) -> Image.Image:
    image = Image.new(device.mode, device.size)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, device.width - 1, 15), fill="white")
    draw.text((4, 2), title, fill="black")
    draw.text((4, 30), text, fill="white")
    return image


def _pattern(device: Any, phase: int) -> Image.Image:
    """A checkerboard (every bit changes between the two phases)."""
    image = Image.new(device.mode, device.size)
    draw = ImageDraw.Draw(image)
    for y in range(0, device.height, 8):
        for x in range(0, device.width, 8):
            if (x // 8 + y // 8 + phase) % 2:
                draw.rectangle((x, y, x + 7, y + 7), fill="white")
    return image
