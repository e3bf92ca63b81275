"""The luma interfaces beside luma's I2C one: the counting panel model and TCA9548A
channel selection."""
from __future__ import annotations

import threading

import pytest

from companion.seats import CountingInterface, MuxBus, PageDiffSSD1306, RecordingBus

from .test_ssd1306 import FULL_FRAME, FlakyInterface, random_image


@pytest.fixture
def panel():
    return CountingInterface()


def test_counting_interface_follows_page_addressing_and_skips_arguments(panel):
    panel.command(0x26, 0, 0, 0, 0, 0, 0)  # a scroll set-up: six argument bytes, ignored
    panel.command(0x20, 0x02)  # page addressing mode
    panel.command(0xB3, 0x05, 0x10)  # page 3, column 5
    panel.data([0xFF, 0x01])
    image = panel.image()
    assert all(image.getpixel((5, y)) for y in range(24, 32))
    assert image.getpixel((6, 24)) and not image.getpixel((6, 25))
    assert image.getbbox() == (5, 24, 7, 32)


# -- multiplexers ---------------------------------------------------------------------

def test_the_channel_is_selected_once_a_frame_and_before_each_lone_command():
    log: list = []
    bus = MuxBus(RecordingBus(log))
    panel = CountingInterface(keep_log=True)
    panel.log = log  # one log for mux writes and panel transfers, in order
    device = PageDiffSSD1306(bus.channel(panel, 0x70, 5))
    log.clear()
    image = random_image(1)
    image.paste(0, (0, 8, 128, 40))  # pages 1-4 blank: two windows, four writes
    device.display(image)
    device.contrast(10)
    kinds = [kind for kind, _ in log]
    # The clear left the pointer at page 0 over all columns, where page 0's window
    # starts: no command for it; pages 5-7 then need a page range.
    assert kinds == ["mux", "data", "command", "data", "mux", "command"]
    assert log[2] == ("command", bytes([0x22, 5, 7]))
    assert {payload for kind, payload in log if kind == "mux"} == {(0x70, 1 << 5)}


def test_a_session_selects_again_after_a_failed_transfer_or_another_select():
    recorder = RecordingBus()
    bus = MuxBus(recorder)
    panel = FlakyInterface(fail_at=2)
    channel = bus.channel(panel, 0x70, 2)
    other = bus.channel(CountingInterface(), 0x70, 6)
    with channel.session():
        channel.command(0xAF)
        channel.data([1])
        assert recorder.writes == [(0x70, 4)]
        with pytest.raises(OSError):
            channel.data([2])  # the panel did not answer: the mux may have been reset
        channel.data([3])
        assert recorder.writes == [(0x70, 4)] * 2
        other.command(0xAF)  # the same thread uses another channel of the bus
        channel.data([4])
        assert recorder.writes == [(0x70, 4)] * 2 + [(0x70, 64), (0x70, 4)]
    channel.data([5])  # outside a session: a select for every transfer
    channel.data([6])
    assert recorder.writes[4:] == [(0x70, 4)] * 2


def test_two_channels_interleaved_each_select_their_own():
    recorder = RecordingBus()
    bus = MuxBus(recorder)
    a, b = CountingInterface(), CountingInterface()
    left = PageDiffSSD1306(bus.channel(a, 0x70, 0))
    right = PageDiffSSD1306(bus.channel(b, 0x70, 3))
    recorder.writes.clear()
    left.display(random_image(1))
    right.display(random_image(2))
    left.display(random_image(3))
    assert recorder.writes == [(0x70, 1), (0x70, 8), (0x70, 1)]  # one select a frame
    assert a.image().tobytes() == random_image(3).tobytes()
    assert b.image().tobytes() == random_image(2).tobytes()


def test_a_second_mux_on_the_bus_is_switched_off_first():
    recorder = RecordingBus()
    bus = MuxBus(recorder)
    bus.add_mux(0x70)
    bus.add_mux(0x71)
    bus.select(0x70, 2)
    assert recorder.writes == [(0x71, 0), (0x70, 4)]
    bus.select(0x71, 1)
    assert recorder.writes[2:] == [(0x70, 0), (0x71, 2)]
    bus.select(0x71, 1)  # the other mux is known to be off: not written again
    assert recorder.writes[4:] == [(0x71, 2)]


class ChannelChecker(CountingInterface):
    """Fails if, at transfer time, the bus has someone else's channel selected."""

    def __init__(self, recorder: RecordingBus, mask: int):
        super().__init__()
        self.recorder, self.mask, self.wrong = recorder, mask, 0

    def data(self, data):
        if self.recorder.writes[-1] != (0x70, self.mask):
            self.wrong += 1
        super().data(data)


def test_screens_on_one_bus_share_its_lock_across_threads():
    recorder = RecordingBus()
    bus = MuxBus(recorder)
    checkers = [ChannelChecker(recorder, 1 << ch) for ch in range(4)]
    devices = [PageDiffSSD1306(bus.channel(c, 0x70, ch)) for ch, c in enumerate(checkers)]
    assert len({ch.mux_bus.lock for ch in (d._serial_interface for d in devices)}) == 1

    def draw(device, seed):
        for n in range(60):
            device.display(random_image(seed * 100 + n))

    threads = [threading.Thread(target=draw, args=(d, i)) for i, d in enumerate(devices)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [c.wrong for c in checkers] == [0, 0, 0, 0]
    assert all(c.data_bytes == 61 * FULL_FRAME for c in checkers)  # random frames: all pages


def test_a_failed_select_leaves_every_mux_unknown():
    class Flaky(RecordingBus):
        fail = False

        def write_byte(self, addr, value):
            if self.fail:
                raise OSError(121, "Remote I/O error")
            super().write_byte(addr, value)

    recorder = Flaky()
    bus = MuxBus(recorder)
    bus.add_mux(0x71)
    bus.select(0x70, 0)
    recorder.fail = True
    with pytest.raises(OSError):
        bus.select(0x70, 1)
    recorder.fail = False
    recorder.writes.clear()
    bus.select(0x70, 1)
    assert recorder.writes == [(0x71, 0), (0x70, 2)]  # 0x71 switched off again, to be sure


def test_mux_bus_close_closes_only_a_bus_it_owns():
    owned, borrowed = RecordingBus(), RecordingBus()
    MuxBus(owned, owns_bus=True).close()
    MuxBus(borrowed).close()
    assert owned.closed and not borrowed.closed
