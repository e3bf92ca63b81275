"""open_seats on both backends: the pi path runs here on injected doubles."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.errors import SeatError
from companion.seats import (
    CountingInterface,
    ManualClock,
    RecordingBus,
    SimTable,
    TableHardware,
    default_backend,
    i2c_root_bus,
    load_table_config,
    open_seats,
    parse_table_config,
    sim_table_config,
)

from .conftest import vote_display

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


class FakeI2C:
    """Stands in for luma's i2c(port=bus, address=addr): a counting panel per screen."""

    def __init__(self, fail: tuple[int, int] | None = None):
        self.panels: dict[tuple[int, int], list[CountingInterface]] = {}
        self.buses: dict[int, RecordingBus] = {}
        self.fail = fail

    def i2c(self, bus: int, address: int) -> CountingInterface:
        if (bus, address) == self.fail:
            raise OSError(121, "Remote I/O error")
        panel = CountingInterface()
        self.panels.setdefault((bus, address), []).append(panel)
        return panel

    def smbus(self, bus: int) -> RecordingBus:
        self.buses[bus] = RecordingBus()
        return self.buses[bus]


def open_pi(config, fake, factory, clock):
    return open_seats(config, "pi", clock=clock, pin_factory=factory, i2c=fake.i2c,
                      smbus=fake.smbus, bus_exists=lambda bus: True)


def test_the_pi_backend_wires_muxes_as_configured(factory, clock):
    config = load_table_config(HARDWARE / "table-8.toml", "pi", bus_exists=lambda b: True)
    fake = FakeI2C()
    with open_pi(config, fake, factory, clock) as table:
        assert type(table) is TableHardware and len(table) == 8
        assert [seat.i2c_bus for seat in table] == [1] * 4 + [0] * 4
        panels = fake.panels[(1, 0x3C)] + fake.panels[(0, 0x3C)]
        writes = {bus: fake.buses[bus].writes for bus in (0, 1)}
        for found in writes.values():
            found.clear()
        table[5].show(vote_display(title="Seat six"))  # bus 0, mux 0x70, channel 1
        assert writes == {0: [(0x70, 1 << 1)], 1: []}  # once for the whole frame
        writes[0].clear()
        table[0].show(vote_display(title="Seat one"))  # bus 1, mux 0x70, channel 0
        assert writes == {0: [], 1: [(0x70, 1)]}  # the buses are separate wires
        assert panels[5].image().tobytes() == table.frame(5).tobytes()
        assert panels[4].image().getbbox() is None  # nothing leaked to the neighbour
    assert all(p.is_closed for p in panels)
    assert fake.buses[0].closed and fake.buses[1].closed


def test_sim_seats_report_their_configured_bus(clock):
    config = load_table_config(HARDWARE / "table-4.toml", "sim")
    with open_seats(config, "sim", clock=clock) as table:
        assert [seat.i2c_bus for seat in table] == [1, 1, 1, 1]  # one mux on bus 1


def test_a_kernel_mux_channel_bus_is_drawn_on_its_parent_bus(tmp_path):
    # Sysfs as the i2c-mux overlay lays it out: channel buses under the mux under i2c-1.
    devices = tmp_path / "devices" / "platform" / "soc"
    parent = devices / "fe804000.i2c" / "i2c-1"
    (parent / "1-0070" / "i2c-22").mkdir(parents=True)
    (devices / "i2c0mux" / "i2c-0").mkdir(parents=True)
    links = tmp_path / "bus" / "i2c" / "devices"
    links.mkdir(parents=True)
    for bus, target in ((1, parent), (22, parent / "1-0070" / "i2c-22"),
                        (0, devices / "i2c0mux" / "i2c-0")):
        (links / f"i2c-{bus}").symlink_to(target)
    assert [i2c_root_bus(bus, tmp_path) for bus in (1, 22, 0, 5)] == [1, 1, 0, 5]


def test_two_muxes_on_one_bus_take_turns(factory, clock):
    text = """\
[[seat]]
buttons = { previous = 4, select = 5, next = 6 }
screen = { bus = 1, mux = 0x70, channel = 0 }

[[seat]]
buttons = { previous = 7, select = 8, next = 9 }
screen = { bus = 1, mux = 0x71, channel = 1 }
"""
    config = parse_table_config(text, bus_exists=lambda b: True)
    fake = FakeI2C()
    with open_pi(config, fake, factory, clock) as table:
        writes = fake.buses[1].writes
        writes.clear()
        table[1].show(vote_display(title="Seat two"))
        assert writes == [(0x71, 1 << 1)]
        writes.clear()
        table[0].show(vote_display(title="Seat one"))
        assert writes == [(0x71, 0), (0x70, 1)]  # the other mux switched off first


def kernel_bus_config():
    """hardware/table-4.toml with each screen on a bus of its own (channel N of an
    i2c-mux overlay as bus 22 + N), the style some builders choose."""
    text = re.sub(r"bus = 1, mux = 0x70, channel = (\d)",
                  lambda m: f"bus = {22 + int(m.group(1))}",
                  (HARDWARE / "table-4.toml").read_text())
    return parse_table_config(text, "table-4.toml", bus_exists=lambda b: True)


def test_the_pi_backend_with_kernel_buses_needs_no_mux(factory, clock):
    config = kernel_bus_config()
    fake = FakeI2C()
    with open_pi(config, fake, factory, clock) as table:
        assert sorted(fake.panels) == [(22, 0x3C), (23, 0x3C), (24, 0x3C), (25, 0x3C)]
        assert fake.buses == {}
        table[2].show(vote_display())
        # seat 3's panel is mounted upside down: its RAM holds the frame turned 180 degrees
        upright = fake.panels[(24, 0x3C)][0].image().rotate(180)
        assert upright.tobytes() == table.frame(2).tobytes()


def test_a_screen_that_does_not_acknowledge_opens_down_on_the_pi_backend(factory, clock):
    # A panel that does not answer no longer stops the table (docs/seats.md, "When a
    # part fails"): its seat opens with the screen down, the others as ever.
    config = kernel_bus_config()
    fake = FakeI2C()
    real = fake.i2c

    def unpowered(bus, address):
        panel = real(bus, address)
        if bus == 24:
            panel.lose_power()
        return panel
    fake.i2c = unpowered
    with open_pi(config, fake, factory, clock) as table:
        assert [seat.screen_error is not None for seat in table] == [False, False, True,
                                                                     False]
        assert table.faults()[0]["words"] == (
            "Seat 3's screen does not answer: check its cable to the Pi (I2C bus 24); "
            "play seat 3 on its phone")
        fake.panels[(24, 0x3C)][0].restore_power()
        table.watch.check(now=0.0)
        assert table.watch.check(now=1.0) == [] and table[2].screen_error is None


def test_a_screen_whose_interface_cannot_be_opened_is_a_seat_error(factory, clock):
    config = kernel_bus_config()
    fake = FakeI2C(fail=(24, 0x3C))
    with pytest.raises(SeatError, match=r"seat 3's screen \(bus 24, address 0x3C\) does not "
                                        r"answer .*Fix: .*i2cdetect -y 24"):
        open_pi(config, fake, factory, clock)
    opened = [p for panels in fake.panels.values() for p in panels]
    assert len(opened) == 2 and all(p.is_closed for p in opened)  # the first two, closed
    # and their pins were released: the same pins open again
    with open_seats(config, "sim", clock=clock, pin_factory=factory):
        pass


def test_pod_seats_are_refused_for_now(clock):
    text = '[[seat]]\npod = "pod-1"\n'
    config = parse_table_config(text, backend="sim")
    with pytest.raises(SeatError, match="seat 1 uses pod 'pod-1'"):
        open_seats(config, "sim", clock=clock)


def test_unknown_backend(clock):
    with pytest.raises(SeatError, match="unknown seat backend"):
        open_seats(sim_table_config(1), "arduino", clock=clock)


def test_default_backend_off_a_pi():
    model = Path("/proc/device-tree/model")
    on_pi = model.exists() and "Raspberry Pi" in model.read_text(errors="replace")
    assert default_backend() == ("pi" if on_pi else "sim")


def test_the_sim_table_api(clock):
    with open_seats(sim_table_config(3), "sim", clock=clock) as table:
        assert isinstance(table, SimTable) and table.seat_count == 3
        assert table.pin(2, "next").info.name == "GPIO12"  # GPIO 4 + 3 * 2 + 2
        seat = table[2]
        seat.show(vote_display(led="blink"))
        assert table.led(2) == "blink"
        table.press(2, "next")
        assert table.pin(2, "next").state == 0 and seat.highlight == 1
        table.release(2, "next")
        assert table.frame(2).size == (128, 64)
        with pytest.raises(ValueError):
            table.pin(0, "back")
    assert table.is_closed
    table.close()  # idempotent


def test_advance_needs_a_manual_clock():
    with open_seats(sim_table_config(1), "sim") as table:
        with pytest.raises(SeatError, match="ManualClock"):
            table.advance(1)


def test_a_real_clock_sim_click_completes_by_itself():
    # The web /sim page sends press and release as they come; a release inside the
    # debounce window is picked up when the window closes (on the clock's thread).
    import threading
    released = threading.Event()
    with open_seats(sim_table_config(1), "sim") as table:
        table[0].buttons.next.when_released = released.set
        table.press(0, "next")
        table.release(0, "next")
        assert released.wait(5)


def test_two_sim_tables_do_not_share_pins():
    clock = ManualClock()
    with open_seats(sim_table_config(2), "sim", clock=clock) as one, \
            open_seats(sim_table_config(2), "sim", clock=clock) as two:
        one[0].show(vote_display())
        two[0].show(vote_display())
        one.click(0, "next")
        assert one[0].highlight == 1 and two[0].highlight == 0
