"""A page-diffing SSD1306 driver, a counting test interface and a TCA9548A channel.

luma.oled's ``ssd1306.display()`` sends the column/page window (6 command bytes) and all
1,024 data bytes on every call, even for an identical frame: about 23 ms of I2C time at
400 kHz, per seat, per redraw. ``PageDiffSSD1306`` keeps the 8 pages (128 bytes each) it
last sent and sends only what changed: an address window per run of changed columns
(runs a few bytes apart share one), neighbouring pages sharing a window when cheaper,
and only the address command the controller's write pointer needs; an identical frame
costs nothing.

A luma serial interface is three methods: ``command(*cmd)``, ``data(data)``, ``cleanup()``.
``CountingInterface`` is one that counts bytes and models the panel's display RAM, so tests
(and the simulated table) can read back what the panel would show. ``MuxChannel`` wraps
an interface so that its transfers first select its channel on a TCA9548A (once for a
whole frame inside ``session()``).
"""
from __future__ import annotations

import functools
import re
import threading
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, fields
from typing import Any, ContextManager, Iterable, Iterator, Protocol, Sequence

import luma.oled.device
from PIL import Image

#: Bits on the wire per byte on I2C: 8 data bits and the ACK.
I2C_BITS_PER_BYTE = 9


@dataclass
class DriverStats:
    """What the driver handed to its interface since construction (or ``reset()``).

    ``transfers`` counts ``command()`` and ``data()`` calls: on I2C each is one write
    with its own address byte and control byte on the wire.
    """

    command_bytes: int = 0
    data_bytes: int = 0
    transfers: int = 0
    frames: int = 0  #: ``display()`` calls that sent at least one page
    unchanged_frames: int = 0  #: ``display()`` calls that sent nothing
    pages: int = 0  #: 128-byte pages sent

    def reset(self) -> None:
        for f in fields(self):
            setattr(self, f.name, 0)

    def copy(self) -> "DriverStats":
        return DriverStats(**{f.name: getattr(self, f.name) for f in fields(self)})

    def __sub__(self, other: "DriverStats") -> "DriverStats":
        return DriverStats(**{f.name: getattr(self, f.name) - getattr(other, f.name)
                              for f in fields(self)})

    @property
    def wire_bytes(self) -> int:
        """Bytes on the I2C wire: payload plus an address and a control byte per write."""
        return self.command_bytes + self.data_bytes + 2 * self.transfers

    def bus_seconds(self, hz: int = 400_000) -> float:
        """Time these bytes take on an I2C bus clocked at ``hz`` (start/stop ignored)."""
        return self.wire_bytes * I2C_BITS_PER_BYTE / hz


def pack_pages(image: Image.Image, pages: int) -> list[bytes]:
    """Pack a mode "1" image into SSD1306 pages: byte x of page p holds pixels
    (x, 8p) .. (x, 8p + 7), least significant bit on top.
    """
    # Flipping then transposing turns each pixel column into a row of bytes whose
    # most significant bit is the lowest pixel: exactly a page byte, and PIL packs
    # it in C, which is far quicker than a Python loop over 8,192 pixels.
    raw = image.transpose(Image.Transpose.FLIP_TOP_BOTTOM).transpose(
        Image.Transpose.TRANSPOSE).tobytes()
    return [raw[pages - 1 - p::pages] for p in range(pages)]


#: Bytes an I2C write costs besides its payload: the address byte and the control byte.
WRITE_OVERHEAD = 2
#: Bytes of one address command: COLUMNADDR or PAGEADDR and its two arguments.
ADDRESS_COMMAND = 3
#: What one more address window costs at worst: both address commands (one command
#: write) and a data write of its own.
WINDOW_COST = 2 * ADDRESS_COMMAND + 2 * WRITE_OVERHEAD
#: What a window on the page after the previous window costs: the controller's page
#: pointer moves there by itself, so only the column range is set.
NEXT_PAGE_COST = ADDRESS_COMMAND + 2 * WRITE_OVERHEAD

#: ``(first page, last page, first column, last column)``: one address window.
Window = tuple[int, int, int, int]
#: The controller's write pointer between windows: ``(first column, last column, first
#: page, last page, page)`` (the column pointer is then always at the first column).
_Cursor = tuple[int, int, int, int, int]
_UNKNOWN: _Cursor = (-1, -1, -1, -1, -1)


def changed_spans(before: bytes, after: bytes, gap: int = WINDOW_COST) -> list[tuple[int, int]]:
    """Column ranges ``(first, last)`` of one page that cover every byte that differs.

    Runs of changed columns separated by at most ``gap`` unchanged ones share a range:
    re-sending those unchanged bytes is cheaper than opening another window.
    """
    # XOR the pages as integers: the changed columns are the non-zero bytes, and a
    # regular expression finds their runs in C (a Python loop over the columns of
    # every changed page was most of a frame's CPU time).
    diff = (int.from_bytes(before, "big") ^ int.from_bytes(after, "big")).to_bytes(
        len(after), "big")
    return [(m.start(), m.end() - 1) for m in _span_pattern(gap).finditer(diff)]


@functools.lru_cache(maxsize=8)
def _span_pattern(gap: int) -> re.Pattern[bytes]:
    """Runs of non-zero bytes, joined across at most ``gap`` zero bytes."""
    if gap < 1:
        return re.compile(rb"[^\x00]+")
    return re.compile(rb"[^\x00]+(?:\x00{1,%d}[^\x00]+)*" % gap)


def changed_windows(old: Sequence[bytes] | None, new: Sequence[bytes]) -> list[Window]:
    """Windows ``(first page, last page, first column, last column)`` that cover every
    byte that differs (everything if ``old`` is None), in the order they are sent.

    A page gets one window per run of changes, runs closer than a window's cost
    sharing one. A page with a single window shares its neighbour's window when that
    sends fewer bytes than a window each.
    """
    width = len(new[0]) if new else 0
    windows: list[Window] = []
    for page, data in enumerate(new):
        if old is None:
            spans = [(0, width - 1)]
        elif old[page] == data:
            continue
        else:
            spans = changed_spans(old[page], data)
        if len(spans) == 1 and windows and _joins(windows[-1], page, spans[0]):
            first, _, lo, hi = windows[-1]
            windows[-1] = (first, page, min(lo, spans[0][0]), max(hi, spans[0][1]))
        else:
            windows += [(page, page, lo, hi) for lo, hi in spans]
    return windows


def _joins(window: Window, page: int, span: tuple[int, int]) -> bool:
    """Whether growing ``window`` down over ``span`` of ``page`` sends fewer bytes."""
    first, last, lo, hi = window
    if last != page - 1:
        return False
    joined = (page - first + 1) * (max(hi, span[1]) - min(lo, span[0]) + 1)
    apart = (last - first + 1) * (hi - lo + 1) + span[1] - span[0] + 1 + NEXT_PAGE_COST
    return joined <= apart


class PageDiffSSD1306(luma.oled.device.ssd1306):
    """luma's SSD1306 driver, sending only the 128-byte pages that changed.

    Same constructor as ``luma.oled.device.ssd1306``. The clear frame sent during
    construction is the first frame and sends every page (the panel's RAM is unknown at
    power-up); after that an identical frame sends nothing. ``invalidate()`` forgets
    what the panel holds, so the next frame is sent whole (after a bus error, a panel
    power cycle). ``stats`` counts what went to the interface.
    """

    def __init__(self, serial_interface: Any = None, width: int = 128, height: int = 64,
                 rotate: int = 0, **kwargs: Any):
        self.stats = DriverStats()
        self._sent: list[bytes] | None = None
        #: Where the controller's write pointer stands; None when unknown.
        self._cursor: _Cursor | None = None
        self.lock = threading.RLock()  #: held while a frame goes out
        super().__init__(serial_interface, width=width, height=height, rotate=rotate, **kwargs)

    def command(self, *cmd: int) -> None:
        self.stats.command_bytes += len(cmd)
        self.stats.transfers += 1
        super().command(*cmd)

    def data(self, data: Sequence[int]) -> None:
        self.stats.data_bytes += len(data)
        self.stats.transfers += 1
        super().data(data)

    @property
    def interface(self) -> Any:
        """The luma serial interface the driver writes to."""
        return self._serial_interface

    def _session(self) -> ContextManager[Any]:
        """The interface's ``session()`` (one mux channel select for a whole frame),
        or nothing for an interface without one."""
        session = getattr(self._serial_interface, "session", None)
        return session() if session is not None else nullcontext()

    def invalidate(self) -> None:
        """Forget the panel's contents: the next ``display()`` sends every page."""
        with self.lock:
            self._sent = None
            self._cursor = None

    def display(self, image: Image.Image) -> None:
        """Show a 1-bit image of the device's ``size``, sending only what changed: the
        changed pages, each narrowed to its runs of changed columns."""
        assert image.mode == self.mode
        assert image.size == self.size
        pages = pack_pages(self.preprocess(image), self._pages)
        with self.lock:
            windows = changed_windows(self._sent, pages)
            if not windows:
                self.stats.unchanged_frames += 1
                return
            # Unknown until every window went out: if a transfer fails midway the panel
            # holds a mix of frames (and its pointer is anywhere), and the next frame
            # must be sent whole.
            self._sent = None
            cursor, self._cursor = self._cursor, None
            with self._session():
                for n, window in enumerate(windows):
                    following = windows[n + 1] if n + 1 < len(windows) else None
                    cursor = self._send_window(window, following, cursor, pages)
            self._cursor = cursor
            self._sent = pages
            self.stats.frames += 1

    def _send_window(self, window: Window, following: Window | None,
                     cursor: _Cursor | None,
                     pages: Sequence[bytes]) -> _Cursor:
        """Send one window, setting only the address ranges the controller's pointer
        does not already match; return where the pointer stands afterwards."""
        first, last, lo, hi = window
        const = self._const
        col_lo, col_hi, page_start, page_end, page = cursor or _UNKNOWN
        cmd: list[int] = []
        if (col_lo, col_hi) != (lo, hi):
            cmd += [const.COLUMNADDR, self._colstart + lo, self._colstart + hi]
        if page != first or page_end < last:
            # After its last row the pointer moves on to the next page, or wraps back
            # to the range's first page: pick whichever the following window wants.
            same_page = following is not None and following[0] == first == last
            page_start, page_end = first, last if same_page else self._pages - 1
            cmd += [const.PAGEADDR, page_start, page_end]
        if cmd:
            self.command(*cmd)
        self.data(list(b"".join(p[lo:hi + 1] for p in pages[first:last + 1])))
        self.stats.pages += last - first + 1
        page = last + 1 if last < page_end else page_start
        return lo, hi, page_start, page_end, page


# -- the counting interface -------------------------------------------------------------

#: How many argument bytes follow each SSD1306 command that takes any.
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1,
         0x8D: 1, 0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class CountingInterface:
    """A luma serial interface that sends nothing, counts bytes and models the panel.

    It parses the SSD1306 command stream (addressing mode, column/page windows, page
    start, contrast, display on/off) and writes data into a 1-bit display RAM the way
    the controller does, so ``image()`` is the frame the panel would show.
    """

    def __init__(self, width: int = 128, height: int = 64, *, keep_log: bool = False):
        self.width, self.height = width, height
        self.pages = height // 8
        self.ram = bytearray(width * self.pages)
        self.command_bytes = 0
        self.data_bytes = 0
        self.transfers = 0
        self.contrast = 0x7F  # the SSD1306's reset value
        self.is_on = False
        #: ("command", bytes) / ("data", bytes) per transfer, when ``keep_log``.
        self.log: list[tuple[str, bytes]] | None = [] if keep_log else None
        self.is_closed = False
        self._pending: list[int] = []  # a command still waiting for argument bytes
        self._mode = 2  # page addressing, the controller's reset mode
        self._cols = (0, width - 1)
        self._page_window = (0, self.pages - 1)
        self._col = 0
        self._page = 0

    # luma's three methods
    def command(self, *cmd: int) -> None:
        self.command_bytes += len(cmd)
        self.transfers += 1
        if self.log is not None:
            self.log.append(("command", bytes(cmd)))
        for byte in cmd:
            self._feed(byte)

    def data(self, data: Iterable[int]) -> None:
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
            self.mux_bus.select(self.mux_address, self.channel)
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
