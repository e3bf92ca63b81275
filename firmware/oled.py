"""A small SSD1306 driver on framebuf, for a 128x64 panel on I2C.

The frame lives in a 1,024-byte buffer in framebuf's MONO_VLSB layout, which is the
panel's own page layout (byte x of page p holds pixels (x, 8p)..(x, 8p+7), lowest bit
on top): a page from the table is copied in as it comes. Nothing is sent while a page
is written; ``flush()`` sends at most one changed page (about 3 ms at 400 kHz) per call
of the main loop, so the link is never kept waiting by the screen. A transfer that
fails (a loose wire, a panel without power) is counted, never raised; the panel is
initialised again a second later and every page is sent again.
"""
import framebuf

WIDTH, HEIGHT = 128, 64
PAGES = HEIGHT // 8
ALL_PAGES = (1 << PAGES) - 1
RETRY_MS = 1000

# Commands, from the SSD1306 datasheet.
CONTRAST = 0x81
DISPLAY_RAM = 0xA4
NORMAL = 0xA6
OFF, ON = 0xAE, 0xAF
MEMORY_MODE = 0x20
COLUMNS = 0x21
PAGE_RANGE = 0x22
START_LINE = 0x40
SEGMENTS_NORMAL, SEGMENTS_REMAPPED = 0xA0, 0xA1
MULTIPLEX = 0xA8
SCAN_UP, SCAN_DOWN = 0xC0, 0xC8
OFFSET = 0xD3
COM_PINS = 0xDA
CLOCK = 0xD5
PRECHARGE = 0xD9
VCOM = 0xDB
CHARGE_PUMP = 0x8D

#: Control bytes: what follows is commands, or display data.
COMMANDS, DATA = b"\x00", b"\x40"


class SSD1306:
    """``i2c``: a ``machine.I2C``; ``flip``: the panel is mounted upside down."""

    def __init__(self, i2c, address: int = 0x3C, flip: bool = False, contrast: int = 0xCF):
        self.i2c = i2c
        self.address = address
        self.flip = flip
        self.buffer = bytearray(WIDTH * PAGES)
        self.view = memoryview(self.buffer)
        self.fb = framebuf.FrameBuffer(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.dirty = ALL_PAGES
        self.level = contrast
        self.contrast_due = False  # the init sequence sets the level itself
        self.ready = False
        self.retry_at = 0
        self.errors = 0

    # what the pod application calls
    def page(self, index: int, data, column: int = 0) -> None:
        """Put part of a page from the table into the frame, from ``column`` on."""
        start = index * WIDTH + column
        self.buffer[start:start + len(data)] = data
        self.dirty |= 1 << index

    def contrast(self, level: int) -> None:
        if level != self.level:
            self.level = level
            self.contrast_due = True

    def text(self, lines) -> None:
        """Clear the frame and write up to 8 lines of 16 characters (framebuf's font)."""
        self.fb.fill(0)
        for row in range(min(len(lines), PAGES)):
            self.fb.text(lines[row][:WIDTH // 8], 0, row * 8, 1)
        self.dirty = ALL_PAGES

    def flush(self, now: int) -> None:
        """Send what changed, one page per call at most; errors are counted."""
        if not self.dirty and not self.contrast_due:
            return
        if not self.ready and now < self.retry_at:
            return
        try:
            if not self.ready:
                self._init()
            elif self.contrast_due:
                self._command(CONTRAST, self.level)
                self.contrast_due = False
            if self.dirty:
                self._send_page(_lowest(self.dirty))
        except OSError:
            self.errors += 1
            self.ready = False
            self.dirty = ALL_PAGES
            self.retry_at = now + RETRY_MS

    def busy(self) -> bool:
        """Whether pages are still waiting to go out."""
        return bool(self.dirty)

    # the panel
    def _init(self) -> None:
        segments = SEGMENTS_NORMAL if self.flip else SEGMENTS_REMAPPED
        scan = SCAN_UP if self.flip else SCAN_DOWN
        self._command(OFF, CLOCK, 0x80, MULTIPLEX, HEIGHT - 1, OFFSET, 0, START_LINE,
                      CHARGE_PUMP, 0x14, MEMORY_MODE, 0x00, segments, scan, COM_PINS, 0x12,
                      CONTRAST, self.level, PRECHARGE, 0xF1, VCOM, 0x40, DISPLAY_RAM,
                      NORMAL, ON)
        self.contrast_due = False
        self.ready = True
        self.dirty = ALL_PAGES  # the panel's RAM is noise after power-up

    def _send_page(self, index: int) -> None:
        self._command(COLUMNS, 0, WIDTH - 1, PAGE_RANGE, index, index)
        start = index * WIDTH
        self.i2c.writevto(self.address, (DATA, self.view[start:start + WIDTH]))
        self.dirty &= ~(1 << index)

    def _command(self, *command) -> None:
        self.i2c.writeto(self.address, COMMANDS + bytes(command))


def _lowest(mask: int) -> int:
    index = 0
    while not mask & (1 << index):
        index += 1
    return index
