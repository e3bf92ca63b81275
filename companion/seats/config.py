"""The table config: which pins and screens each seat uses (TOML, read with tomllib).

    [table]                      # optional; these are the defaults
    hold_time = 0.6              # seconds select must be held to show private lines
    bounce_ms = 30               # a level counts once stable this long (ms)
    dim_after = 300              # seconds without activity before a screen dims (0: never)
    browse_timeout = 4           # seconds a secret label stays visible after a press
    contrast = 0xCF              # lit contrast, 0-255
    dim_contrast = 0x00          # dimmed contrast, 0-255

    [[seat]]                     # one block per seat, in seat order
    name = "Bow"                 # optional
    buttons = { previous = 17, select = 27, next = 22 }     # BCM GPIO numbers
    screen = { bus = 1, mux = 0x70, channel = 0, address = 0x3C, rotation = 0 }
    led = 5                      # optional BCM pin; led_pwm = true for a PWMLED

    [[seat]]
    pod = "e6614103e7123456"     # a seat pod (its unique id) instead of pins and screen

Everything wrong is refused at load with a ``ConfigError`` reading
``<file>:<line>: <what is wrong>. Fix: <what to do>``. tomllib keeps no positions, so
the line is found again by scanning the text for the key inside its table.
"""
from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from companion.errors import ConfigError

from .overlays import BOOT_CONFIG, enabling_line

DEFAULT_ADDRESS = 0x3C
MUX_ADDRESSES = range(0x70, 0x78)  # a TCA9548A's A0-A2 jumpers pick one of these
GPIO_PINS = range(0, 28)  # BCM numbers on the 40-pin header
#: The header pins each hardware I2C bus takes, when a screen uses that bus: bus 1 is
#: the header's I2C (pins 3 and 5), bus 0 the one on the HAT ID pins (27 and 28,
#: ``dtparam=i2c_vc=on``), which a table without a HAT may use for more screens.
I2C_PINS = {1: {2: "SDA", 3: "SCL"}, 0: {0: "SDA", 1: "SCL"}}
ROLES = ("previous", "select", "next")
MAX_SIM_SEATS = 8

TOP_KEYS = ("table", "seat")
TABLE_KEYS = ("name", "hold_time", "bounce_ms", "dim_after", "browse_timeout",
              "contrast", "dim_contrast")
SEAT_KEYS = ("name", "buttons", "screen", "led", "led_pwm", "pod")
SCREEN_KEYS = ("bus", "address", "mux", "channel", "rotation")

Path_ = tuple[Any, ...]  # a key path such as ("seat", 2, "screen", "bus")


@dataclass(frozen=True)
class ButtonPins:
    """BCM pin numbers of a seat's three buttons."""

    previous: int
    select: int
    next: int


@dataclass(frozen=True)
class ScreenConfig:
    """Where a seat's SSD1306 sits: bus, optional TCA9548A mux + channel, address."""

    bus: int
    address: int = DEFAULT_ADDRESS
    mux: int | None = None
    channel: int | None = None
    rotation: int = 0
    line: int = field(default=0, compare=False)  #: line of ``bus`` in the file (0: none)

    def describe(self) -> str:
        where = f"bus {self.bus}"
        if self.mux is not None:
            where += f", mux 0x{self.mux:02X} channel {self.channel}"
        return f"{where}, address 0x{self.address:02X}"


@dataclass(frozen=True)
class SeatConfig:
    """One seat: pins and screen, or a pod id (a seat pod brings both)."""

    number: int  #: 1-based, as players count seats
    name: str = ""
    buttons: ButtonPins | None = None
    screen: ScreenConfig | None = None
    led: int | None = None
    led_pwm: bool = False
    pod: str | None = None


@dataclass(frozen=True)
class TableConfig:
    """The whole table: seats in order, plus timing and contrast settings."""

    seats: tuple[SeatConfig, ...]
    name: str = ""
    hold_time: float = 0.6
    bounce_ms: float = 30.0
    dim_after: float = 300.0
    browse_timeout: float = 4.0
    contrast: int = 0xCF
    dim_contrast: int = 0x00
    source: str = field(default="<built-in>", compare=False)


def i2c_bus_exists(bus: int) -> bool:
    """Whether ``/dev/i2c-<bus>`` exists (the real check; tests inject their own)."""
    return os.path.exists(f"/dev/i2c-{bus}")


def i2c_root_bus(bus: int, sysfs: str | os.PathLike[str] = "/sys") -> int:
    """The bus whose wires carry ``/dev/i2c-<bus>``'s transfers: ``bus`` itself, or for
    a channel bus the kernel's ``i2c-mux`` overlay made, the bus its multiplexer is on.

    Screens on one root bus take turns on the same two wires, so only screens on
    different root buses gain from being drawn at the same time. Sysfs nests a channel
    bus under its parent (``devices/.../i2c-1/1-0070/i2c-22``): the outermost ``i2c-N``
    of the bus's real path is the root. A bus sysfs does not know is its own root.
    """
    base = os.path.realpath(sysfs)
    real = os.path.realpath(os.path.join(base, "bus", "i2c", "devices", f"i2c-{bus}"))
    for part in Path(os.path.relpath(real, base)).parts:
        match = re.fullmatch(r"i2c-(\d+)", part)
        if match:
            return int(match.group(1))
    return bus


def load_table_config(path: str | os.PathLike[str], backend: str = "pi", *,
                      bus_exists: Callable[[int], bool] | None = None) -> TableConfig:
    """Read and check a table config file.

    On ``backend="pi"`` every screen's I2C bus must exist (``bus_exists``, default
    ``i2c_bus_exists``); on ``"sim"`` buses are not checked.
    """
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{source}:0: cannot read the table config ({exc.strerror}). "
                          "Fix: check the path, or copy one of hardware/table-*.toml") from exc
    return parse_table_config(text, source, backend=backend, bus_exists=bus_exists)


def parse_table_config(text: str, source: str = "<string>", *, backend: str = "pi",
                       bus_exists: Callable[[int], bool] | None = None) -> TableConfig:
    """Like ``load_table_config`` for text already read; ``source`` names it in errors."""
    if backend not in ("pi", "sim"):
        raise ValueError(f"backend must be 'pi' or 'sim', not {backend!r}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        line = match.group(1) if match else "0"
        raise ConfigError(f"{source}:{line}: not valid TOML ({exc}). Fix: correct the "
                          "syntax there (strings need quotes, tables need [brackets])") from exc
    check = (bus_exists or i2c_bus_exists) if backend == "pi" else None
    return _Checker(text, source).table(data, check)


def check_buses(config: TableConfig, bus_exists: Callable[[int], bool] = i2c_bus_exists) -> None:
    """Refuse a config whose screens sit on I2C buses that do not exist (for ``pi``)."""
    for seat in config.seats:
        screen = seat.screen
        if screen is not None and not bus_exists(screen.bus):
            raise ConfigError(_missing_bus_message(config.source, screen.line, seat, screen.bus))


def sim_table_config(seats: int) -> TableConfig:
    """A config for the simulated table: like hardware/table-8.toml, cut to ``seats``.

    Buttons on GPIO 4-27 (three per seat, in order), screens behind a TCA9548A at 0x70
    on bus 1 (channel = seat - 1), an LED per seat while pins last (up to 6 seats).
    """
    if not isinstance(seats, int) or isinstance(seats, bool) or not 1 <= seats <= MAX_SIM_SEATS:
        raise ConfigError(f"<sim>:0: a simulated table has 1 to {MAX_SIM_SEATS} seats, not "
                          f"{seats!r}. Fix: ask for between 1 and {MAX_SIM_SEATS} seats")
    leds = seats * 4 <= len(range(4, 28))
    out = []
    for i in range(seats):
        pins = ButtonPins(4 + 3 * i, 5 + 3 * i, 6 + 3 * i)
        out.append(SeatConfig(
            number=i + 1, name=f"Seat {i + 1}", buttons=pins,
            screen=ScreenConfig(bus=1, mux=0x70, channel=i),
            led=4 + 3 * seats + i if leds else None))
    return TableConfig(seats=tuple(out), name="simulated table", source="<sim>")


def _missing_bus_message(source: str, line: int, seat: SeatConfig, bus: int) -> str:
    where = f"{source}:{line}: seat {seat.number}'s screen is on I2C bus {bus}, but " \
            f"/dev/i2c-{bus} does not exist."
    enable = enabling_line(bus)
    if enable is None:
        return (f"{where} Fix: no config.txt setting makes bus {bus}: put the screen on "
                f"bus = 1 behind the TCA9548A (mux = 0x70, channel = <0-7>), or add the "
                f"dtoverlay that creates it to the end of {BOOT_CONFIG} and reboot")
    return (f"{where} Fix: add the line {enable} at the end of {BOOT_CONFIG} (under "
            f"[all]; sudo hardware/install.sh adds it) and reboot, or correct bus = {bus}")


# -- finding lines ------------------------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?")


def _strip_comment(line: str) -> str:
    """The line without a trailing # comment (a # inside quotes is kept)."""
    quote = None
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#":
            return line[:i]
    return line


def _header_name(raw: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in raw.split("."))


class _Lines:
    """Finds the line of a key path in the TOML text (tomllib keeps no positions)."""

    def __init__(self, text: str):
        self.lines = [_strip_comment(line) for line in text.splitlines()]
        # (index, is_array, name) for every [table] / [[array]] header
        self.headers: list[tuple[int, bool, str]] = []
        for index, line in enumerate(self.lines):
            match = _HEADER.match(line)
            if match and "=" not in line.split("]")[0]:
                self.headers.append((index, match.group(1) == "[[", _header_name(match.group(2))))

    def _block(self, name: str, occurrence: int | None) -> tuple[int, int] | None:
        """Line range of the ``occurrence``-th ``[[name]]`` block, or of ``[name]``."""
        count = -1
        for pos, (index, is_array, header) in enumerate(self.headers):
            if header != name or is_array != (occurrence is not None):
                continue
            count += 1
            if occurrence is not None and count != occurrence:
                continue
            end = len(self.lines)
            for later, _, other in self.headers[pos + 1:]:
                if not other.startswith(name + "."):  # [seat.screen] stays in the seat
                    end = later
                    break
            return index, end
        return None

    def _find_key(self, key: str, start: int, end: int) -> int | None:
        key_re = re.compile(r"(?:^|[\s{,.])[\"']?" + re.escape(str(key)) + r"[\"']?\s*=")
        head_re = re.compile(r"^\s*\[\[?[^\]]*?[\s.\[][\"']?" + re.escape(str(key))
                             + r"[\"']?\s*\]")
        for index in range(start, end):
            line = self.lines[index]
            if key_re.search(line) or head_re.search(line):
                return index
        return None

    def find(self, path: Path_) -> int:
        """1-based line of the deepest part of ``path`` found (0 if none)."""
        first_header = self.headers[0][0] if self.headers else len(self.lines)
        rest: Path_
        if len(path) >= 2 and path[0] == "seat" and isinstance(path[1], int):
            block, rest = self._block("seat", path[1]), path[2:]
        elif path and path[0] == "table":
            block, rest = self._block("table", None), path[1:]
            if block is None:  # an inline table = {...} before any header
                block, rest = (0, first_header), path
        else:
            block, rest = None, path
        if block is None:
            hit = self._top_level(path[0], first_header) if path else None
            return hit + 1 if hit is not None else 0
        position, end = block
        for key in rest:
            hit = self._find_key(key, position, end)
            if hit is None:
                break
            position = hit
        return position + 1

    def _top_level(self, key: str, first_header: int) -> int | None:
        for index, _, name in self.headers:
            if name == key or name.startswith(f"{key}."):
                return index
        return self._find_key(key, 0, first_header)


# -- checking -----------------------------------------------------------------------------

class _Checker:
    """Turns parsed TOML into a TableConfig, or raises the first problem with its line."""

    def __init__(self, text: str, source: str):
        self.lines = _Lines(text)
        self.source = source

    def fail(self, path: Path_, problem: str, fix: str) -> ConfigError:
        return ConfigError(f"{self.source}:{self.lines.find(path)}: {problem}. Fix: {fix}")

    def line(self, path: Path_) -> int:
        return self.lines.find(path)

    # generic checks
    def known_keys(self, data: dict[str, Any], valid: Iterable[str], path: Path_,
                   where: str) -> None:
        valid = tuple(valid)
        for key in data:
            if key in valid:
                continue
            close = difflib.get_close_matches(key, valid, n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else "remove it"
            raise self.fail(path + (key,), f"unknown key '{key}' in {where}",
                            f"{hint} (valid keys: {', '.join(valid)})")

    def integer(self, value: Any, path: Path_, what: str, allowed: range) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"{what} must be a whole number, not {_show(value)}",
                            f"write a number from {allowed.start} to {allowed.stop - 1}")
        if value not in allowed:
            raise self.fail(path, f"{what} {value} is out of range",
                            f"use a number from {allowed.start} to {allowed.stop - 1}")
        return value

    def number(self, value: Any, path: Path_, what: str, minimum: float,
               above: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(path, f"{what} must be a number, not {_show(value)}",
                            f"write a number such as {max(minimum, 1)}")
        if value < minimum or (above and value == minimum):
            bound = f"above {minimum}" if above else f"{minimum} or more"
            raise self.fail(path, f"{what} {value} is out of range", f"use a number {bound}")
        return float(value)

    def string(self, value: Any, path: Path_, what: str) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"{what} must be a string, not {_show(value)}",
                            'put it in double quotes, e.g. "Bow"')
        return value

    def table_of(self, value: Any, path: Path_, what: str, example: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"{what} must be a table, not {_show(value)}",
                            f"write it as {example}")
        return value

    # the file
    def table(self, data: dict[str, Any], bus_exists: Callable[[int], bool] | None) -> TableConfig:
        self.known_keys(data, TOP_KEYS, (), "the file")
        settings = self.settings(data.get("table", {}))
        seats_raw = data.get("seat")
        if seats_raw is None:
            raise self.fail(("seat",), "the config has no seats",
                            "add a [[seat]] block per seat (see hardware/table-4.toml)")
        if not isinstance(seats_raw, list) or not all(isinstance(s, dict) for s in seats_raw):
            raise self.fail(("seat",), "seats must be [[seat]] blocks",
                            "write each seat as a [[seat]] block, double brackets")
        seats = tuple(self.seat(raw, i) for i, raw in enumerate(seats_raw))
        if not seats:
            raise self.fail(("seat",), "the config has no seats", "add [[seat]] blocks")
        self.check_pins(seats)
        self.check_screens(seats)
        self.check_pods(seats)
        if bus_exists is not None:
            for i, seat in enumerate(seats):
                if seat.screen is not None and not bus_exists(seat.screen.bus):
                    raise ConfigError(_missing_bus_message(
                        self.source, self.line(("seat", i, "screen", "bus")), seat,
                        seat.screen.bus))
        return TableConfig(seats=seats, source=self.source, **settings)

    def settings(self, raw: Any) -> dict[str, Any]:
        raw = self.table_of(raw, ("table",), "[table]", "a [table] block")
        self.known_keys(raw, TABLE_KEYS, ("table",), "[table]")
        out: dict[str, Any] = {}
        p = ("table",)
        if "name" in raw:
            out["name"] = self.string(raw["name"], p + ("name",), "table name")
        if "hold_time" in raw:
            out["hold_time"] = self.number(raw["hold_time"], p + ("hold_time",), "hold_time",
                                           0, above=True)
        if "bounce_ms" in raw:
            out["bounce_ms"] = self.number(raw["bounce_ms"], p + ("bounce_ms",), "bounce_ms", 0)
        if "dim_after" in raw:
            out["dim_after"] = self.number(raw["dim_after"], p + ("dim_after",), "dim_after", 0)
        if "browse_timeout" in raw:
            out["browse_timeout"] = self.number(raw["browse_timeout"],
                                                p + ("browse_timeout",), "browse_timeout",
                                                0, above=True)
        for key in ("contrast", "dim_contrast"):
            if key in raw:
                out[key] = self.integer(raw[key], p + (key,), key, range(256))
        return out

    def seat(self, raw: dict[str, Any], index: int) -> SeatConfig:
        path: Path_ = ("seat", index)
        number = index + 1
        self.known_keys(raw, SEAT_KEYS, path, f"seat {number}")
        name = self.string(raw["name"], path + ("name",), "name") if "name" in raw else ""
        if "pod" in raw:
            return self.pod_seat(raw, index, name)
        if "buttons" not in raw:
            raise self.fail(path, f"seat {number} has no buttons",
                            "add buttons = { previous = <pin>, select = <pin>, next = <pin> } "
                            "(BCM numbers), or pod = \"<id>\" for a seat pod")
        if "screen" not in raw:
            raise self.fail(path, f"seat {number} has no screen",
                            "add screen = { bus = 1 } (plus mux = 0x70, channel = <0-7> "
                            "when it sits behind a TCA9548A)")
        led = None
        if "led" in raw:
            led = self.integer(raw["led"], path + ("led",), f"seat {number} led pin", GPIO_PINS)
        led_pwm = False
        if "led_pwm" in raw:
            if not isinstance(raw["led_pwm"], bool):
                raise self.fail(path + ("led_pwm",), "led_pwm must be true or false, not "
                                f"{_show(raw['led_pwm'])}", "write led_pwm = true or false")
            led_pwm = raw["led_pwm"]
        return SeatConfig(number=number, name=name, buttons=self.buttons(raw["buttons"], index),
                          screen=self.screen(raw["screen"], index), led=led, led_pwm=led_pwm)

    def pod_seat(self, raw: dict[str, Any], index: int, name: str) -> SeatConfig:
        path: Path_ = ("seat", index)
        # Pod ids are hex digits: compared (and reported) in lower case.
        pod = self.string(raw["pod"], path + ("pod",), "pod").strip().lower()
        if not pod:
            raise self.fail(path + ("pod",), "pod is empty",
                            "give the id `mutiny pod install` printed, e.g. "
                            'pod = "e6614103e7123456"')
        for key in ("buttons", "screen", "led", "led_pwm"):
            if key in raw:
                raise self.fail(path + (key,), f"seat {index + 1} has a pod and {key}",
                                f"remove {key}: a pod brings its own buttons, screen and LED")
        return SeatConfig(number=index + 1, name=name, pod=pod)

    def buttons(self, raw: Any, index: int) -> ButtonPins:
        path: Path_ = ("seat", index, "buttons")
        raw = self.table_of(raw, path, "buttons",
                            "buttons = { previous = 17, select = 27, next = 22 }")
        self.known_keys(raw, ROLES, path, f"seat {index + 1} buttons")
        pins = []
        for role in ROLES:
            if role not in raw:
                raise self.fail(path, f"seat {index + 1} has no {role} button",
                                f"add {role} = <BCM pin> to its buttons")
            pins.append(self.integer(raw[role], path + (role,),
                                     f"seat {index + 1} {role} pin", GPIO_PINS))
        return ButtonPins(*pins)

    def screen(self, raw: Any, index: int) -> ScreenConfig:
        path: Path_ = ("seat", index, "screen")
        number = index + 1
        raw = self.table_of(raw, path, "screen", "screen = { bus = 1, address = 0x3C }")
        self.known_keys(raw, SCREEN_KEYS, path, f"seat {number} screen")
        if "bus" not in raw:
            raise self.fail(path, f"seat {number}'s screen has no bus",
                            "add bus = 1 (the header's I2C pins) or the bus number it is on")
        bus = self.integer(raw["bus"], path + ("bus",), "bus", range(0, 256))
        address = self.integer(raw.get("address", DEFAULT_ADDRESS), path + ("address",),
                               "address", range(0x03, 0x78))
        rotation = self.integer(raw.get("rotation", 0), path + ("rotation",), "rotation",
                                range(4))
        mux = channel = None
        if "mux" in raw:
            mux = self.integer(raw["mux"], path + ("mux",), "mux address", range(0, 0x80))
            if mux not in MUX_ADDRESSES:
                raise self.fail(path + ("mux",), f"mux 0x{mux:02X} is not a TCA9548A address",
                                "use 0x70 to 0x77 (0x70 with no address jumpers set)")
            if "channel" not in raw:
                raise self.fail(path + ("mux",), f"seat {number}'s screen has a mux but "
                                "no channel", "add channel = <0-7>, the mux port it is wired to")
        if "channel" in raw:
            if mux is None:
                raise self.fail(path + ("channel",), f"seat {number}'s screen has a channel "
                                "but no mux", "add mux = 0x70 (the TCA9548A's address), "
                                "or remove channel")
            channel = self.integer(raw["channel"], path + ("channel",), "channel", range(8))
        return ScreenConfig(bus=bus, address=address, mux=mux, channel=channel,
                            rotation=rotation, line=self.line(path + ("bus",)))

    # cross-seat checks
    def check_pins(self, seats: tuple[SeatConfig, ...]) -> None:
        used: dict[int, tuple[SeatConfig, str]] = {}
        all_pins = {pin for seat in seats for _, pin in _pins_of(seat)}
        buses = {s.screen.bus for s in seats if s.screen is not None}
        # pin -> (bus, line) for the I2C pins of every bus the screens use
        i2c_pins = {pin: (bus, line) for bus, lines in I2C_PINS.items() if bus in buses
                    for pin, line in lines.items()}
        for seat in seats:
            for role, pin in _pins_of(seat):
                path = _pin_path(seat, role)
                if pin in i2c_pins:
                    bus, line = i2c_pins[pin]
                    raise self.fail(path, f"seat {seat.number} {role} is on GPIO{pin}, the "
                                    f"{line} line of I2C bus {bus} that the screens use",
                                    f"move it to a free pin, {_free_pin(all_pins)}")
                if pin in used:
                    other, other_role = used[pin]
                    raise self.fail(path, f"GPIO{pin} is used twice: seat {other.number} "
                                    f"{other_role} (line {self.line(_pin_path(other, other_role))}"
                                    f") and seat {seat.number} {role}",
                                    f"give seat {seat.number} {role} its own pin, "
                                    f"{_free_pin(all_pins)}")
                used[pin] = (seat, role)

    def check_screens(self, seats: tuple[SeatConfig, ...]) -> None:
        at: dict[tuple[int, int | None, int | None, int], SeatConfig] = {}
        muxes = {(s.screen.bus, s.screen.mux) for s in seats
                 if s.screen is not None and s.screen.mux is not None}
        for seat in seats:
            screen = seat.screen
            if screen is None:
                continue
            path = ("seat", seat.number - 1, "screen")
            key = (screen.bus, screen.mux, screen.channel, screen.address)
            if key in at:
                raise self.fail(path, f"seats {at[key].number} and {seat.number} both have "
                                f"their screen at {screen.describe()}",
                                f"move seat {seat.number}'s screen to a free "
                                f"{'mux channel' if screen.mux is not None else 'bus'}, or "
                                f"set address = 0x{_other_address(screen.address):02X} "
                                "(the jumper on the back of the panel)")
            at[key] = seat
            if (screen.bus, screen.address) in muxes:
                raise self.fail(path + ("address",), f"seat {seat.number}'s screen address "
                                f"0x{screen.address:02X} is the address of a TCA9548A on bus "
                                f"{screen.bus}", "set the panel's address to 0x3C or 0x3D")
        for key, seat in at.items():
            bus, mux, _, address = key
            if mux is not None:
                continue
            behind = [s for (b, m, _, a), s in at.items()
                      if b == bus and m is not None and a == address]
            if behind:
                raise self.fail(("seat", seat.number - 1, "screen"),
                                f"seat {seat.number}'s screen sits directly on bus {bus} at "
                                f"0x{address:02X}, and seat {behind[0].number}'s screen "
                                f"answers at the same address whenever its mux channel is open",
                                f"put seat {seat.number}'s screen behind the mux too, or set "
                                f"its address = 0x{_other_address(address):02X}")

    def check_pods(self, seats: tuple[SeatConfig, ...]) -> None:
        seen: dict[str, SeatConfig] = {}
        for seat in seats:
            if seat.pod is None:
                continue
            if seat.pod in seen:
                raise self.fail(("seat", seat.number - 1, "pod"), f"pod '{seat.pod}' is used "
                                f"by seats {seen[seat.pod].number} and {seat.number}",
                                "give each seat its own pod id")
            seen[seat.pod] = seat


def _pins_of(seat: SeatConfig) -> list[tuple[str, int]]:
    pins: list[tuple[str, int]] = []
    if seat.buttons is not None:
        pins += [(role, getattr(seat.buttons, role)) for role in ROLES]
    if seat.led is not None:
        pins.append(("led", seat.led))
    return pins


def _pin_path(seat: SeatConfig, role: str) -> Path_:
    if role == "led":
        return ("seat", seat.number - 1, "led")
    return ("seat", seat.number - 1, "buttons", role)


def _free_pin(used: set[int]) -> str:
    """A suggestion for a pin nobody uses yet (the header's I2C pins left out)."""
    for pin in range(4, 28):
        if pin not in used:
            return f"e.g. GPIO{pin}"
    return "if none is left, move a seat to a pod"


def _other_address(address: int) -> int:
    return 0x3D if address == 0x3C else 0x3C


def _show(value: Any) -> str:
    kind = {str: "text", bool: "true/false", dict: "a table", list: "a list",
            float: "a decimal number"}.get(type(value), type(value).__name__)
    return f"{kind} {value!r}" if not isinstance(value, (dict, list)) else kind
