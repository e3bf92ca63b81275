"""A page-diffing SSD1306 driver.

luma.oled's ``ssd1306.display()`` sends the column/page window (6 command bytes) and all
1,024 data bytes on every call, even for an identical frame: about 23 ms of I2C time at
400 kHz, per seat, per redraw. ``PageDiffSSD1306`` keeps the 8 pages (128 bytes each) it
last sent and sends only what changed: an address window per run of changed columns
(runs a few bytes apart share one), neighbouring pages sharing a window when cheaper,
and only the address command the controller's write pointer needs; an identical frame
costs nothing.

The driver is luma's device (its init table, then ``display()``) over a luma serial
interface, three methods: ``command(*cmd)``, ``data(data)``, ``cleanup()``. The
interfaces the seats use besides luma's own I2C one (a modelled panel, a TCA9548A
channel) live in :mod:`companion.seats.interfaces`.
"""
from __future__ import annotations

import functools
import re
import threading
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, fields
from typing import Any, ContextManager, Iterator, Sequence

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
    what the panel holds, so the next frame is sent whole. ``stats`` counts what went to
    the interface.

    **Screens that recover.** luma's init sequence (what its constructor sends: display
    off, clock, multiplex, charge pump, addressing mode... then the contrast, the clear
    frame and display on) is written down once and sent again before the next frame
    after *any* failed transfer: a panel that browned out or was re-plugged has forgotten
    all of it (display off, charge pump off, page addressing), and pages alone would
    leave it dark. ``needs_init`` says the next frame goes out that way. With
    ``missing_ok`` a panel that does not answer at construction is no error: the driver
    is built all the same, ``needs_init``, and ``error`` holds why.
    """

    #: The SSD1306's no-operation command: ``probe()`` sends it.
    NOP = 0xE3

    def __init__(self, serial_interface: Any = None, width: int = 128, height: int = 64,
                 rotate: int = 0, *, missing_ok: bool = False, **kwargs: Any):
        self.stats = DriverStats()
        self._sent: list[bytes] | None = None
        #: Where the controller's write pointer stands; None when unknown.
        self._cursor: _Cursor | None = None
        self.lock = threading.RLock()  #: held while a frame goes out
        #: The next frame is preceded by the whole init sequence (set after any error).
        self.needs_init = True
        #: The last failed transfer's error (None since a frame went out after it).
        self.error: Exception | None = None
        self._level = 0xCF  # the contrast the panel should have (init restores it)
        # While luma's constructor runs, its commands are written down, not sent (None
        # until then): its init sequence, to send now and after every error.
        self._init_script: list[tuple[int, ...]] | None = None
        self._written: list[tuple[int, ...]] = []
        super().__init__(serial_interface, width=width, height=height, rotate=rotate,
                         **kwargs)
        self._init_script = self._written
        try:
            self.display(Image.new(self.mode, self.size))  # luma's clear, with its init
        except Exception:
            if not missing_ok:
                raise

    def command(self, *cmd: int) -> None:
        if self._init_script is None:
            self._written.append(cmd)
            return
        self.stats.command_bytes += len(cmd)
        self.stats.transfers += 1
        with self._noting_errors():
            super().command(*cmd)

    def data(self, data: Sequence[int]) -> None:
        self.stats.data_bytes += len(data)
        self.stats.transfers += 1
        with self._noting_errors():
            super().data(data)

    @contextmanager
    def _noting_errors(self) -> Iterator[None]:
        """Any failed transfer: the panel may have lost power, so what it holds, where
        its pointer is and even its init are unknown from then on."""
        try:
            yield
        except Exception as exc:
            self.error = exc
            self.needs_init = True
            self._sent = None
            self._cursor = None
            raise

    def contrast(self, level: int) -> None:
        """Set the contrast; on a panel that needs its init, the init will send it."""
        assert 0 <= level <= 255
        self._level = level
        if self.needs_init and self._init_script is not None:
            return  # (not on the bus of a panel that stopped answering)
        super().contrast(level)

    def probe(self) -> None:
        """One no-operation command: raises if the panel does not answer (one short
        write, so a seat watch can ask a missing screen cheaply)."""
        with self.lock, self._session():
            self.command(self.NOP)

    def cleanup(self) -> None:
        # A panel that does not answer is not switched off and cleared first: those
        # writes would only fail (and luma would then never close the interface).
        if self.needs_init:
            self.persist = True
        super().cleanup()

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
        if self._init_script is None:
            return  # luma's clear while its init is written down: sent with the init
        pages = pack_pages(self.preprocess(image), self._pages)
        with self.lock:
            if self.needs_init:
                self._send_init(pages)
                return
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

    def _send_init(self, pages: Sequence[bytes]) -> None:
        """luma's init sequence as its constructor sent it, the contrast the panel
        should have now, and ``pages`` whole where luma sent its clear (before display
        on). Callers hold ``lock``."""
        const = self._const
        self._sent = self._cursor = None
        with self._session():
            for cmd in self._init_script or ():
                if cmd == (const.DISPLAYON,):
                    self._send_whole(pages)
                if cmd[:1] == (const.SETCONTRAST,):
                    cmd = (const.SETCONTRAST, self._level)
                self.command(*cmd)
            if (const.DISPLAYON,) not in (self._init_script or ()):
                self._send_whole(pages)
        self.needs_init = False
        self.error = None

    def _send_whole(self, pages: Sequence[bytes]) -> None:
        """Every page, both address commands first (nothing is known of the panel)."""
        cursor: _Cursor | None = None
        windows = changed_windows(None, pages)
        for n, window in enumerate(windows):
            following = windows[n + 1] if n + 1 < len(windows) else None
            cursor = self._send_window(window, following, cursor, pages)
        self._cursor, self._sent = cursor, list(pages)
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
