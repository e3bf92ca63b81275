"""luma serial interfaces for the seat screens, beside luma's own I2C one.

A luma serial interface is three methods: ``command(*cmd)``, ``data(data)``,
``cleanup()``; the device (:class:`~companion.seats.ssd1306.PageDiffSSD1306`) writes its
init table and its frames through one.

- :class:`CountingInterface` sends nothing: it counts bytes and models the panel's display
  RAM, so tests (and the simulated table) can read back what the panel would show. Its
  power can be cut and restored (``lose_power()``, ``restore_power()``): unpowered it
  answers no transfer, and powered again it has forgotten its init, as a real panel
  that browned out or was re-plugged has.
- :class:`MuxChannel` wraps an interface so that its transfers first select its channel
  on a TCA9548A multiplexer (once for a whole frame inside ``session()``);
  :class:`MuxBus` is the I2C bus those multiplexers share.
"""
from __future__ import annotations

import errno
import random
import threading
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Protocol, Sequence

from PIL import Image

# -- the counting interface -------------------------------------------------------------

#: How many argument bytes follow each SSD1306 command that takes any.
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1,
         0x8D: 1, 0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class CountingInterface:
    """A luma serial interface that sends nothing, counts bytes and models the panel.

    It parses the SSD1306 command stream (addressing mode, column/page windows, page
    start, contrast, charge pump, display on/off) and writes data into a 1-bit display
    RAM the way the controller does, so ``image()`` is the frame the panel holds and
    ``shown()`` what its glass shows (nothing until it is initialised and switched on).

    ``lose_power()`` cuts the panel's power: every transfer then fails as a panel that
    does not acknowledge (``OSError`` EREMOTEIO, as smbus2 raises it), and
    ``restore_power()`` brings it back in its power-on state: display off, charge pump
    off, page addressing, RAM full of noise. Only the whole init sequence lights it
    again.
    """

    def __init__(self, width: int = 128, height: int = 64, *, keep_log: bool = False):
        self.width, self.height = width, height
        self.pages = height // 8
        self.ram = bytearray(width * self.pages)
        self.command_bytes = 0
        self.data_bytes = 0
        self.transfers = 0
        #: ("command", bytes) / ("data", bytes) per transfer, when ``keep_log``.
        self.log: list[tuple[str, bytes]] | None = [] if keep_log else None
        self.is_closed = False
        #: False while the panel has no power: it answers no transfer.
        self.powered = True
        self.power_cycles = 0
        self._power_on_reset()

    def _power_on_reset(self) -> None:
        """The controller's state at power-up (its reset values)."""
        self.contrast = 0x7F
        self.is_on = False
        self.charge_pump = False
        self._pending: list[int] = []  # a command still waiting for argument bytes
        self._mode = 2  # page addressing
        self._cols = (0, self.width - 1)
        self._page_window = (0, self.pages - 1)
        self._col = 0
        self._page = 0

    # power
    def lose_power(self) -> None:
        """Cut the panel's power (a brown-out, a pulled cable): transfers fail."""
        self.powered = False

    def restore_power(self) -> None:
        """Power the panel again: it starts from its reset state, display RAM noise."""
        if self.powered:
            return
        self.powered = True
        self.power_cycles += 1
        self._power_on_reset()
        self.ram[:] = random.Random(self.power_cycles).randbytes(len(self.ram))

    def _answer(self) -> None:
        if not self.powered:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    # luma's three methods
    def command(self, *cmd: int) -> None:
        self._answer()
        self.command_bytes += len(cmd)
        self.transfers += 1
        if self.log is not None:
            self.log.append(("command", bytes(cmd)))
        for byte in cmd:
            self._feed(byte)

    def data(self, data: Iterable[int]) -> None:
        self._answer()
        data = bytes(data)
        self.data_bytes += len(data)
        self.transfers += 1
        if self.log is not None:
            self.log.append(("data", data))
        if self._mode == 0:
            self._write_horizontal(data)
            return
        for byte in data:
            self._write(byte)

    def cleanup(self) -> None:
        self.is_closed = True

    def reset_counts(self) -> None:
        """Zero the byte counters (and the log); the modelled RAM is kept."""
        self.command_bytes = self.data_bytes = self.transfers = 0
        if self.log is not None:
            self.log.clear()

    def image(self) -> Image.Image:
        """The display RAM as a mode "1" image, in the panel's own orientation."""
        # The inverse of pack_pages: lay the page bytes out as the rows of the
        # flipped, transposed image, then turn it back.
        raw = bytearray(len(self.ram))
        for page in range(self.pages):
            raw[self.pages - 1 - page::self.pages] = self.ram[page * self.width:
                                                              (page + 1) * self.width]
        turned = Image.frombytes("1", (self.height, self.width), bytes(raw))
        return turned.transpose(Image.Transpose.TRANSPOSE).transpose(
            Image.Transpose.FLIP_TOP_BOTTOM)

    def shown(self) -> Image.Image:
        """What the glass shows: the display RAM once the panel is powered, its charge
        pump on and its display switched on; else nothing lit."""
        if self.powered and self.is_on and self.charge_pump:
            return self.image()
        return Image.new("1", (self.width, self.height), 0)

    # the controller model
    def _feed(self, byte: int) -> None:
        pending = self._pending
        pending.append(byte)
        if len(pending) - 1 < _ARGS.get(pending[0], 0):
            return
        self._pending = []
        self._execute(pending[0], pending[1:])

    def _execute(self, op: int, args: list[int]) -> None:
        if op == 0x20:
            self._mode = args[0] & 0x03
        elif op == 0x21:
            self._cols = (args[0] & 0x7F, args[1] & 0x7F)
            self._col = self._cols[0]
        elif op == 0x22:
            self._page_window = (args[0] & 0x07, args[1] & 0x07)
            self._page = self._page_window[0]
        elif op == 0x81:
            self.contrast = args[0]
        elif op == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif op in (0xAE, 0xAF):
            self.is_on = op == 0xAF
        elif 0xB0 <= op <= 0xB7:
            self._page = op & 0x07
        elif op <= 0x0F:
            self._col = (self._col & 0xF0) | op
        elif op <= 0x1F:
            self._col = (self._col & 0x0F) | ((op & 0x0F) << 4)

    def _write_horizontal(self, data: bytes) -> None:
        """Horizontal addressing (the driver's mode) a row run at a time: the same
        result as ``_write`` byte by byte, without a Python call per byte."""
        first_col, last_col = self._cols
        first_page, last_page = self._page_window
        done = 0
        while done < len(data):
            run = min(len(data) - done, last_col - self._col + 1)
            if run <= 0:  # the cursor sits outside its window: let the slow path cope
                for byte in data[done:]:
                    self._write(byte)
                return
            if self._page < self.pages:
                start = self._page * self.width + self._col
                visible = max(0, min(run, self.width - self._col))
                self.ram[start:start + visible] = data[done:done + visible]
            done += run
            self._col += run
            if self._col > last_col:
                self._col = first_col
                self._page = first_page if self._page >= last_page else self._page + 1

    def _write(self, byte: int) -> None:
        if self._page < self.pages and self._col < self.width:
            self.ram[self._page * self.width + self._col] = byte
        first_col, last_col = self._cols
        first_page, last_page = self._page_window
        if self._mode == 2:  # page mode: the column stops at the end of the page
            self._col = min(self._col + 1, self.width - 1)
        elif self._mode == 1:  # vertical: down the pages first
            if self._page >= last_page:
                self._page = first_page
                self._col = first_col if self._col >= last_col else self._col + 1
            else:
                self._page += 1
        else:  # horizontal: across the window, then the next page
            if self._col >= last_col:
                self._col = first_col
                self._page = first_page if self._page >= last_page else self._page + 1
            else:
                self._col += 1


# -- TCA9548A multiplexers ----------------------------------------------------------------

class MuxNotAnswering(OSError):
    """The TCA9548A in front of a screen did not take its channel select: the fault is
    the multiplexer's (its power, its wires to the Pi), not the screen's. An ``OSError``
    like the bus error it carries (``__cause__``)."""


class SMBusLike(Protocol):
    """The one smbus2 call the multiplexer needs."""

    def write_byte(self, i2c_addr: int, value: int) -> None: ...


class MuxBus:
    """One I2C bus carrying one or more TCA9548A multiplexers.

    Every screen behind a multiplexer on this bus shares ``lock``: a transfer is the
    channel select plus the transfer, and nothing else may reach the bus in between
    (button callbacks redraw from gpiozero's threads). When a bus has several
    multiplexers, selecting a channel on one first switches the others off, or two
    panels at the same address would both listen.
    """

    def __init__(self, bus: SMBusLike, *, owns_bus: bool = False):
        self.bus = bus
        self.lock = threading.RLock()
        self.select_bytes = 0  #: bytes written to multiplexers (one per select)
        self._owns_bus = owns_bus
        self._masks: dict[int, int | None] = {}  # mux address -> last mask, None unknown
        self._closed = False

    def add_mux(self, address: int) -> None:
        with self.lock:
            self._masks.setdefault(address, None)

    def select(self, address: int, channel: int) -> None:
        """Connect ``channel`` of the multiplexer at ``address`` (others off)."""
        if not 0 <= channel <= 7:
            raise ValueError(f"TCA9548A channel must be 0-7, not {channel}")
        with self.lock:
            self.add_mux(address)
            try:
                for other, mask in self._masks.items():
                    if other != address and mask != 0:
                        self._write(other, 0)
                self._write(address, 1 << channel)
            except Exception:
                for other in self._masks:  # a failed write leaves every mux unknown
                    self._masks[other] = None
                raise

    def _write(self, address: int, mask: int) -> None:
        self.bus.write_byte(address, mask)
        self.select_bytes += 1
        self._masks[address] = mask

    def channel(self, interface: Any, address: int, channel: int) -> "MuxChannel":
        """Wrap a luma interface so its transfers go through ``channel`` of mux ``address``."""
        self.add_mux(address)
        return MuxChannel(interface, self, address, channel)

    def close(self) -> None:
        """Close the bus handle if this object opened it. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._owns_bus and hasattr(self.bus, "close"):
            self.bus.close()


class MuxChannel:
    """A luma serial interface behind one TCA9548A channel.

    Each ``command()`` / ``data()`` holds the bus lock across the channel select and
    the transfer. Inside ``session()`` the lock is held throughout and the channel is
    selected once, before the first transfer: a frame of several writes costs one
    select rather than one per write.
    """

    def __init__(self, interface: Any, mux_bus: MuxBus, mux_address: int, channel: int):
        self.interface = interface
        self.mux_bus = mux_bus
        self.mux_address = mux_address
        self.channel = channel
        self._sessions = 0  # nesting depth of session(); only changed under the lock
        #: The bus's select count just after this channel's select in the current
        #: session; None outside a session or when a transfer failed.
        self._selected_at: int | None = None

    @contextmanager
    def session(self) -> Iterator[None]:
        """Keep the bus, and this channel selected, across several transfers."""
        with self.mux_bus.lock:
            self._sessions += 1
            try:
                yield
            finally:
                self._sessions -= 1
                if not self._sessions:
                    self._selected_at = None

    def command(self, *cmd: int) -> None:
        with self.mux_bus.lock:
            self._transfer(self.interface.command, *cmd)

    def data(self, data: Sequence[int]) -> None:
        with self.mux_bus.lock:
            self._transfer(self.interface.data, data)

    def _transfer(self, send: Any, *args: Any) -> None:
        # Outside a session another screen may have taken the bus since our last
        # transfer, so select every time; inside one, only if a select was written
        # since ours (another channel on this thread).
        if self._selected_at != self.mux_bus.select_bytes:
            try:
                self.mux_bus.select(self.mux_address, self.channel)
            except OSError as exc:
                raise MuxNotAnswering(exc.errno, f"mux 0x{self.mux_address:02X} does not "
                                      f"answer: {exc.strerror or exc}") from exc
            self._selected_at = self.mux_bus.select_bytes if self._sessions else None
        try:
            send(*args)
        except Exception:
            # A panel that does not answer may sit behind a mux that was reset (a
            # brown-out switches every channel off): select again next time.
            self._selected_at = None
            raise

    def cleanup(self) -> None:
        self.interface.cleanup()
