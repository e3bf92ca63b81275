"""The doctor's I2C checks: each bus, each TCA9548A, each seat's screen.

A data line held low (SDA on a ground core, a pair swapped at one end of a Cat5e run)
makes every address seem to answer: the controller reads the low line as an
acknowledge. So each bus, with every mux channel off, and then each seat's channel is
first asked for ``NOBODY``, an address no device may acknowledge: an answer there
means SDA is held. A channel that holds it also keeps the mux from hearing the
command to switch away, so the seats after it cannot be checked.

A screen that does not answer where configured is looked for on its channel at the
other address (0x3C/0x3D), on the free channels at its address, then at the other
address on every other channel (where it shares another seat's channel, or sits on a
free one). ``BusChecks`` is a part of ``Doctor`` (``companion.doctor.checks``).
"""
from __future__ import annotations

import errno
from typing import Any, Protocol, cast

from PIL import Image, ImageDraw

from companion.seats import MuxBus, PageDiffSSD1306
from companion.seats.config import ScreenConfig, SeatConfig
from companion.seats.overlays import BOOT_CONFIG, enabling_line

from .report import FAIL, GROUP_FIX, OK, SKIP, bus_timeout_fix, describe_error

#: An SSD1306 command write of one NOP (control byte 0x00, command 0xE3): any panel
#: acknowledges it, and it changes nothing on the screen.
NOP = (0x00, 0xE3)

#: 0x04-0x07 are the I2C Hs-mode master codes, which no device may acknowledge: an
#: acknowledge at 0x04 is SDA held low, not a device.
NOBODY = 0x04
#: Full frames drawn to each screen after it answers: one that stops answering
#: (a loose wire, a lead too long for the bus speed) fails here.
CHECK_FRAMES = 4
PANEL_ADDRESSES = (0x3C, 0x3D)
#: errnos that are about the bus, not the device asked: raised, not read as a NACK.
BUS_ERRORS = (errno.ETIMEDOUT, errno.EBUSY, errno.EACCES, errno.EPERM)


class _ProbeBus(Protocol):
    """The doctor's buses (smbus2's, or the simulated table's ``ModelBus``) also write
    a register, which the multiplexer's bus (``SMBusLike``) never needs."""

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None: ...


def _held_fix(where: str) -> str:
    return (f"SDA is held low {where}: every address seems to answer (the low line reads "
            "as an acknowledge). Look for SDA on a ground core (a pair swapped at one end "
            "of a Cat5e run), a short between SDA and GND, a panel or mux with SDA and GND "
            "crossed")


class BusChecks:
    """The I2C side of ``Doctor``: each method returns one line."""

    config: Any
    smbus: Any
    i2c: Any
    bus_exists: Any
    screens: dict[int, PageDiffSSD1306]
    _buses: dict[int, MuxBus]
    _bad_buses: dict[int, str]
    _bad_muxes: dict[tuple[int, int | None], str]  # (bus, mux): a seat's mux may be None

    def bus(self, number: int) -> MuxBus:
        if number not in self._buses:
            self._buses[number] = MuxBus(self.smbus(number), owns_bus=True)
        return self._buses[number]

    def check_bus(self, bus: int) -> tuple[str, str, str]:
        name = f"I2C bus {bus}"
        if not self.bus_exists(bus):
            line = enabling_line(bus)
            fix = (f"add the line {line} at the end of {BOOT_CONFIG} and reboot "
                   "(sudo hardware/install.sh does both)" if line else
                   "put these screens on bus 1 behind the TCA9548A")
            self._bad_buses[bus] = f"bus {bus} is missing"
            return name, FAIL, f"/dev/i2c-{bus} does not exist: {fix}"
        held = self._nobody_answers_with_channels_off(bus)
        if held:
            self._bad_buses[bus] = f"SDA of bus {bus} is held low"
            muxes = self._muxes_on(bus)
            parts = [f"the mux at 0x{m:02X}" for m in muxes] + [
                f"seat {s.number}'s screen" for s in self.config.seats
                if s.screen and s.screen.bus == bus and s.screen.mux is None]
            return (name, FAIL, f"0x{NOBODY:02X}, which no device may answer, answers"
                    f"{' with every mux channel off' if muxes else ''}: " +
                    _held_fix(f"on bus {bus} itself, at the Pi's SDA pin or a part on it "
                              f"({', '.join(parts)})") + "; unplug them one at a time "
                    "until it stops")
        if held is None:
            return name, OK, f"/dev/i2c-{bus} exists"
        return name, OK, f"/dev/i2c-{bus} exists; SDA is free (0x{NOBODY:02X} does not answer)"

    def _muxes_on(self, bus: int) -> list[int]:
        """Every mux of the whole config on ``bus`` (also those of seats not checked)."""
        return list(dict.fromkeys(s.screen.mux for s in self.config.seats if s.screen and
                                  s.screen.bus == bus and s.screen.mux is not None))

    def _nobody_answers_with_channels_off(self, bus: int) -> bool | None:
        """Whether ``NOBODY`` acknowledges with every channel of every mux off; None
        when the bus cannot tell (it times out, cannot be opened: later lines say)."""
        try:
            mux_bus = self.bus(bus)
        except OSError:
            return None
        with mux_bus.lock:
            for mux in self._muxes_on(bus):
                try:
                    mux_bus.bus.write_byte(mux, 0)
                except OSError:  # the mux's own line says why
                    pass
            try:
                mux_bus.bus.write_byte(NOBODY, 0)
            except OSError as exc:
                return None if exc.errno in BUS_ERRORS else False
        return True

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
            if exc.errno == errno.EBUSY:
                self._bad_muxes[(bus, mux)] = f"the kernel owns the mux at 0x{mux:02X}"
                return (name, FAIL, f"0x{mux:02X} is {describe_error(exc)}: a dtoverlay="
                        f"i2c-mux line in {BOOT_CONFIG} gave it to the kernel (see the Boot "
                        "config line, or look for it there): delete that line and reboot; "
                        "the companion switches the channels itself")
            return (name, FAIL, f"does not answer at 0x{mux:02X} ({describe_error(exc)}): "
                    "check its VIN (3V3), GND, SDA and SCL wires and that A0-A2 are open "
                    f"(0x70); `i2cdetect -y {bus}` should show {mux:02x}")
        return name, OK, f"answers on bus {bus}"

    def answers(self, bus: int, mux: int | None, channel: int | None, address: int) -> bool:
        """Whether a device acknowledges ``address`` (behind ``mux`` ``channel``).
        Raises OSError for a bus that times out, is refused, or whose address a kernel
        driver has claimed."""
        mux_bus = self.bus(bus)
        with mux_bus.lock:
            try:
                if mux is not None and channel is not None:
                    mux_bus.select(mux, channel)
                cast(_ProbeBus, mux_bus.bus).write_byte_data(address, *NOP)
                return True
            except OSError as exc:
                if exc.errno in BUS_ERRORS:
                    raise
                return False

    def find_screen(self, screen: ScreenConfig) -> str | None:
        """Where a screen that does not answer where configured does answer, and what
        to do about it; None when it answers nowhere another seat does not use."""
        owners = {(s.screen.channel, s.screen.address): s.number for s in self.config.seats
                  if s.screen and (s.screen.bus, s.screen.mux) == (screen.bus, screen.mux)}
        other = [a for a in PANEL_ADDRESSES if a != screen.address]
        places = [(screen.channel, a) for a in other]
        if screen.mux is not None:
            channels = [c for c in range(8) if c != screen.channel]
            places += [(c, screen.address) for c in channels]
            places += [(c, a) for c in channels for a in other]
        for channel, address in places:
            if (channel, address) in owners:
                continue  # another seat's screen answers there, as it should
            if self.answers(screen.bus, screen.mux, channel, address):
                sharing = {n for (c, _), n in owners.items() if c == channel}
                return self._found_verdict(screen, channel, address, sharing)
        return None

    def _found_verdict(self, screen: ScreenConfig, channel: int | None, address: int,
                       sharing: set[int]) -> str:
        line = f" (line {screen.line})" if screen.line else ""
        want = f"SD{screen.channel}/SC{screen.channel}"
        if channel == screen.channel:
            return (f"it answers at 0x{address:02X} instead: set address = "
                    f"0x{address:02X}{line}, or move the jumper on the back of the panel")
        if address == screen.address:
            return (f"it answers on mux channel {channel}, not {screen.channel}: move its "
                    f"SDA/SCL to {want}, or set channel = {channel}{line}")
        if sharing:
            seats = " and ".join(f"seat {n}" for n in sorted(sharing))
            return (f"a panel answers at 0x{address:02X} on mux channel {channel}, which "
                    f"{seats}'s screen uses: two panels share channel {channel}; move this "
                    f"one's SDA/SCL to {want} and set its jumper to 0x{screen.address:02X}")
        return (f"it answers at 0x{address:02X} on mux channel {channel} (both differ): "
                f"move its SDA/SCL to {want} and its jumper to 0x{screen.address:02X}, or "
                f"set channel = {channel}, address = 0x{address:02X}{line}")

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
            if screen.mux is not None and self.answers(screen.bus, screen.mux,
                                                       screen.channel, NOBODY):
                return name, FAIL, self._held_channel(seat)
            if not self.answers(screen.bus, screen.mux, screen.channel, screen.address):
                found = self.find_screen(screen)
                if found:
                    return name, FAIL, f"nothing at {where}; {found}"
                return name, FAIL, self._nothing_at(seat)
        except OSError as exc:
            if exc.errno == errno.ETIMEDOUT:
                self._bad_buses[screen.bus] = f"bus {screen.bus} times out"
                return name, FAIL, f"{describe_error(exc)}: {bus_timeout_fix(screen.bus)}"
            if exc.errno == errno.EBUSY:
                return (name, FAIL, f"{where} is {describe_error(exc)}: a dtoverlay= line "
                        f"in {BOOT_CONFIG} gave it to the kernel (see the Boot config line): "
                        "delete it and reboot")
            return name, FAIL, f"cannot reach {where} ({describe_error(exc)}): {GROUP_FIX}"
        return self._draw_frames(seat, name, where)

    def _nothing_at(self, seat: SeatConfig) -> str:
        screen = seat.screen
        assert screen is not None
        text = (f"does not answer at {screen.describe()} (no acknowledge), nor anywhere "
                "free: check its four wires (VCC, GND, SDA, SCL) and that it gets 3V3")
        if screen.mux is None:
            return text
        # Two panels at one address on one channel answer as one: only the eye tells.
        return (f"{text}; if this seat's screen shows another seat's number, it is wired "
                "to that seat's channel: move its SDA/SCL to "
                f"SD{screen.channel}/SC{screen.channel}")

    def _held_channel(self, seat: SeatConfig) -> str:
        """The verdict on a seat whose mux channel holds SDA low; when the mux cannot
        switch away from it, the rest of the bus is marked unusable."""
        screen = seat.screen
        assert screen is not None and screen.mux is not None
        text = (f"0x{NOBODY:02X}, which no device may answer, answers on mux 0x{screen.mux:02X}"
                f" channel {screen.channel}: " + _held_fix(f"on this seat's lead (channel "
                                                          f"{screen.channel})"))
        if self._nobody_answers_with_channels_off(screen.bus):
            self._bad_buses[screen.bus] = (
                f"bus {screen.bus} is held low through seat {seat.number}'s channel "
                f"{screen.channel} (the mux cannot switch away from it)")
            text += (f"; the mux cannot switch away from channel {screen.channel} while "
                     "it is held, so the seats after it cannot be checked: unplug this "
                     "seat's lead from the mux and run again")
        return text

    def _draw_frames(self, seat: SeatConfig, name: str, where: str) -> tuple[str, str, str]:
        """Open the panel and draw full frames: one that stops answering fails here."""
        frames = 0
        try:
            device = self.open_screen(seat)
            for frames in range(1, CHECK_FRAMES + 1):
                device.invalidate()
                device.display(label(device, f"SEAT {seat.number}",
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


def label(device: Any, title: str, text: str) -> Image.Image:
    """A frame with ``title`` in a white bar and ``text`` under it."""
    image = Image.new(device.mode, device.size)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, device.width - 1, 15), fill="white")
    draw.text((4, 2), title, fill="black")
    draw.text((4, 30), text, fill="white")
    return image
