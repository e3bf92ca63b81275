"""The page-diffing driver (the interfaces it writes through: test_interfaces.py)."""
from __future__ import annotations

import random

import luma.oled.device
import pytest
from PIL import Image, ImageDraw

from companion.seats import (
    CountingInterface,
    DriverStats,
    PageDiffSSD1306,
    ScreenState,
    font,
    render,
)
from companion.seats.ssd1306 import WINDOW_COST, changed_spans, changed_windows, pack_pages

from .conftest import vote_display

FULL_FRAME = 1024

# luma's stock driver (the reference here) reads pixels with a call Pillow 13 deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


def random_image(seed: int, size=(128, 64)) -> Image.Image:
    rng = random.Random(seed)
    noise = bytes(rng.getrandbits(8) for _ in range(size[0] * size[1] // 8))
    return Image.frombytes("1", size, noise)


@pytest.fixture
def panel():
    return CountingInterface()


@pytest.fixture
def device(panel):
    return PageDiffSSD1306(panel)


def sent_by(device, draw) -> DriverStats:
    """What ``draw()`` made the driver send."""
    before = device.stats.copy()
    draw()
    return device.stats - before


def test_the_first_frame_sends_every_page(device, panel):
    # Construction clears the panel: the one frame that must be sent whole, since
    # the panel's RAM holds noise at power-up.
    assert device.stats.data_bytes == FULL_FRAME
    assert device.stats.pages == 8 and device.stats.frames == 1
    assert panel.data_bytes == FULL_FRAME
    assert panel.image().getbbox() is None  # blank
    assert panel.is_on


def test_an_unchanged_frame_sends_nothing(device, panel):
    image = render(ScreenState("rest", vote_display()))
    device.display(image)
    panel.reset_counts()
    sent = sent_by(device, lambda: device.display(image.copy()))
    assert (sent.command_bytes, sent.data_bytes, sent.transfers) == (0, 0, 0)
    assert (panel.command_bytes, panel.data_bytes) == (0, 0)
    assert sent.unchanged_frames == 1 and sent.frames == 0


def test_a_one_line_change_sends_one_page(device, panel):
    before = vote_display()
    after = vote_display(lines=("Round 3 - night", "Captain: seat 4", "Rum: 4 barrels"))
    device.display(render(ScreenState("rest", before)))
    new = render(ScreenState("rest", after))
    sent = sent_by(device, lambda: device.display(new))
    # One page, narrowed to the columns of the digit that changed.
    assert sent.pages == 1 and sent.command_bytes == 6 and 0 < sent.data_bytes < 128
    assert sent.command_bytes + sent.data_bytes < FULL_FRAME / 3
    assert panel.image().tobytes() == new.tobytes()


def test_browsing_to_the_next_choice_sends_two_pages(device):
    display = vote_display()
    device.display(render(ScreenState("browse", display, 0)))
    sent = sent_by(device, lambda: device.display(render(ScreenState("browse", display, 1))))
    assert sent.pages == 2 and 0 < sent.data_bytes <= 256
    assert sent.command_bytes <= 12  # pages 6 and 7: one or two narrowed windows


def test_separate_runs_get_separate_windows(device, panel):
    panel.log = []
    image = Image.new("1", (128, 64))
    image.putpixel((5, 1), 1)  # page 0
    image.putpixel((7, 40), 1)  # page 5
    device.display(image)
    commands = [payload for kind, payload in panel.log if kind == "command"]
    # The first frame goes out whole; the next changes two lone pixels far apart.
    panel.log = []
    moved = image.copy()
    moved.putpixel((5, 1), 0)
    moved.putpixel((9, 1), 1)
    moved.putpixel((70, 40), 1)
    device.display(moved)
    commands = [payload for kind, payload in panel.log if kind == "command"]
    # Each window leaves the page range open to the last page; the second window's
    # page is not the one the pointer moved on to, so it sets both ranges again.
    assert commands == [bytes([0x21, 5, 9, 0x22, 0, 7]), bytes([0x21, 70, 70, 0x22, 5, 7])]
    assert panel.image().tobytes() == moved.tobytes()


def test_changed_windows_merge_neighbours_only_when_cheaper():
    blank = [bytes(128)] * 8
    wide = [bytes(128)] * 8
    wide[2] = bytes([1] * 128)
    wide[3] = bytes([1] * 128)
    assert changed_windows(blank, wide) == [(2, 3, 0, 127)]
    far = list(blank)
    far[2] = bytes([1]) + bytes(127)
    far[3] = bytes(127) + bytes([1])
    assert changed_windows(blank, far) == [(2, 2, 0, 0), (3, 3, 127, 127)]
    assert changed_windows(None, blank) == [(0, 7, 0, 127)]
    assert changed_windows(blank, blank) == []


def test_a_page_changed_at_both_ends_sends_two_windows_and_fewer_bytes(device, panel):
    image = render(ScreenState("rest", vote_display()))
    device.display(image)
    changed = image.copy()
    changed.putpixel((2, 20), 1)  # page 2, both ends of the row
    changed.putpixel((120, 20), 1)
    panel.log = []
    sent = sent_by(device, lambda: device.display(changed))
    data = [payload for kind, payload in panel.log if kind == "data"]
    assert [len(payload) for payload in data] == [1, 1]
    # One window from column 2 to 120 would have cost 6 + 119 bytes and two writes.
    assert sent.wire_bytes < 6 + 119 + 2 * 2
    assert panel.image().tobytes() == changed.tobytes()


def test_changed_spans_split_only_gaps_a_window_costs_less_than():
    before = bytes(128)
    after = bytearray(128)
    after[0] = after[WINDOW_COST + 1] = 1  # WINDOW_COST unchanged bytes between them
    assert changed_spans(before, bytes(after)) == [(0, WINDOW_COST + 1)]
    after[WINDOW_COST + 1], after[WINDOW_COST + 2] = 0, 1  # one more: two windows
    assert changed_spans(before, bytes(after)) == [(0, 0), (WINDOW_COST + 2,) * 2]
    assert changed_spans(before, before) == []


def test_changed_spans_match_a_column_by_column_reference():
    def reference(before, after, gap):
        spans = []
        for column in (c for c in range(len(after)) if before[c] != after[c]):
            if spans and column - spans[-1][1] - 1 <= gap:
                spans[-1] = (spans[-1][0], column)
            else:
                spans.append((column, column))
        return spans

    rng = random.Random(5)
    for _ in range(500):
        before, after = (bytes(rng.choice((0, 0, 0, 0x41, 0x80)) for _ in range(128))
                         for _ in range(2))
        gap = rng.randint(0, 14)
        assert changed_spans(before, after, gap) == reference(before, after, gap)


def test_windows_set_only_the_address_range_the_pointer_does_not_match(device, panel):
    device.display(Image.new("1", (128, 64)))
    image = Image.new("1", (128, 64))
    image.paste(1, (10, 16, 21, 17))  # page 2, columns 10-20
    image.paste(1, (100, 24, 111, 25))  # page 3, columns 100-110
    image.paste(1, (0, 40, 4, 41))  # page 5, columns 0-3 ...
    image.paste(1, (100, 40, 104, 41))  # ... and 100-103
    panel.log = []
    device.display(image)
    commands = [payload for kind, payload in panel.log if kind == "command"]
    assert commands == [
        bytes([0x21, 10, 20, 0x22, 2, 7]),  # the pointer then moves on to page 3 ...
        bytes([0x21, 100, 110]),  # ... so page 3 needs only its columns
        bytes([0x21, 0, 3, 0x22, 5, 5]),  # page 5 twice: the pointer wraps back to 5 ...
        bytes([0x21, 100, 103]),  # ... for the second window
    ]
    assert panel.image().tobytes() == image.tobytes()


def edited(image: Image.Image, rng: random.Random) -> Image.Image:
    """``image`` with a few random edits: text-like strokes, boxes, lone pixels."""
    out = image.copy()
    draw = ImageDraw.Draw(out)
    width, height = out.size
    for _ in range(rng.randint(0, 4)):
        x, y = rng.randrange(width), rng.randrange(height)
        kind = rng.random()
        if kind < 0.4:
            font.draw_text(draw, (x - 20, y - 3), "".join(
                rng.choice("ab1 :/>?") for _ in range(rng.randint(1, 12))),
                fill=rng.randint(0, 1))
        elif kind < 0.8:
            draw.rectangle((x, y, x + rng.randint(0, 40), y + rng.randint(0, 12)),
                           fill=rng.randint(0, 1))
        else:
            out.putpixel((x, y), 1 - out.getpixel((x, y)))
    return out


class RandomlyFlaky(CountingInterface):
    """Fails a transfer now and then, like a loose cable."""

    def __init__(self, rng: random.Random):
        super().__init__()
        self.rng = rng
        self.armed = False

    def command(self, *cmd):
        if self.armed and self.rng.random() < 0.03:
            raise OSError(121, "Remote I/O error")
        super().command(*cmd)

    def data(self, data):
        if self.armed and self.rng.random() < 0.03:
            raise OSError(121, "Remote I/O error")
        super().data(data)


@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
@pytest.mark.slow
def test_frames_sent_in_windows_equal_whole_frames_on_the_panel(rotate):
    # Many frames of small random edits (the case windows are made for), with a
    # transfer failing now and then: after every frame that went out, the panel holds
    # exactly what luma's stock driver, sending the whole frame, puts there.
    rng = random.Random(rotate)
    ours, theirs = RandomlyFlaky(rng), CountingInterface()
    fast = PageDiffSSD1306(ours, rotate=rotate)
    stock = luma.oled.device.ssd1306(theirs, rotate=rotate)
    ours.armed = True
    image = Image.new("1", fast.size)
    failures = 0
    for _ in range(400):
        image = edited(image, rng)
        try:
            fast.display(image)
        except OSError:
            failures += 1
            ours.armed = False
            fast.display(image)  # what Seat does next: the whole frame again
            ours.armed = True
        stock.display(image)
        assert ours.ram == theirs.ram
    assert failures > 3  # the recovery path was exercised
    assert fast.stats.data_bytes < 400 * FULL_FRAME / 4  # and windows really were small


@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
def test_the_panel_holds_what_lumas_own_driver_would_put_there(rotate):
    ours, theirs = CountingInterface(), CountingInterface()
    fast = PageDiffSSD1306(ours, rotate=rotate)
    stock = luma.oled.device.ssd1306(theirs, rotate=rotate)
    for seed in range(4):
        image = random_image(seed, fast.size)
        if seed == 3:  # a small change on top of the last frame
            image = random_image(2, fast.size)
            image.putpixel((3, 3), 1 - image.getpixel((3, 3)))
        fast.display(image)
        stock.display(image)
        assert ours.ram == theirs.ram


def test_luma_sends_the_whole_frame_every_time(panel):
    # The baseline the page diffing beats (and the figures docs/seats.md quotes).
    stock = luma.oled.device.ssd1306(panel)
    image = render(ScreenState("rest", vote_display()))
    stock.display(image)
    panel.reset_counts()
    stock.display(image)
    assert (panel.command_bytes, panel.data_bytes, panel.transfers) == (6, 1024, 2)


def test_invalidate_makes_the_next_frame_whole(device):
    image = random_image(7)
    device.display(image)
    device.invalidate()
    assert sent_by(device, lambda: device.display(image)).data_bytes == FULL_FRAME


class FlakyInterface(CountingInterface):
    """Fails the n-th data transfer, like a loose cable would."""

    def __init__(self, fail_at: int):
        super().__init__()
        self.calls = 0
        self.fail_at = fail_at

    def data(self, data):
        self.calls += 1
        if self.calls == self.fail_at:
            raise OSError(121, "Remote I/O error")
        super().data(data)


def test_a_failed_transfer_makes_the_next_frame_whole():
    panel = FlakyInterface(fail_at=3)  # 1: the init clear; 2: page 0 below; 3: page 5
    device = PageDiffSSD1306(panel)
    image = Image.new("1", (128, 64))
    image.putpixel((5, 1), 1)
    image.putpixel((7, 40), 1)
    with pytest.raises(OSError):
        device.display(image)
    sent = sent_by(device, lambda: device.display(image))
    assert sent.data_bytes == FULL_FRAME
    assert panel.image().tobytes() == image.tobytes()


def test_contrast_reaches_the_panel(device, panel):
    device.contrast(0)
    assert panel.contrast == 0
    device.contrast(0xCF)
    assert panel.contrast == 0xCF


def test_bus_time_arithmetic():
    # luma's full frame: one 6-byte command write and one 1,024-byte data write,
    # each with an address and a control byte: 1,034 bytes of 9 bits at 400 kHz.
    full = DriverStats(command_bytes=6, data_bytes=1024, transfers=2)
    assert full.wire_bytes == 1034
    assert full.bus_seconds() == pytest.approx(0.023265)


def test_pack_pages_bit_order():
    image = Image.new("1", (128, 64))
    image.putpixel((0, 0), 1)  # page 0, column 0, bit 0
    image.putpixel((127, 63), 1)  # page 7, column 127, bit 7
    image.putpixel((3, 9), 1)  # page 1, column 3, bit 1
    pages = pack_pages(image, 8)
    assert pages[0][0] == 0x01 and pages[7][127] == 0x80 and pages[1][3] == 0x02
    assert sum(map(sum, pages)) == 0x01 + 0x80 + 0x02
