"""The doctor's I2C lines (companion/doctor/buses.py): buses, multiplexers, screens."""
from __future__ import annotations

from companion.doctor.buses import NOBODY
from companion.seats import CountingInterface, parse_table_config

from .parts import DIRECT, PANEL, FakeSMBus, StoppingPanel, failures, run


def test_with_nothing_wrong_every_line_is_ok_and_numbered(tmp_path, factory):
    passed, checks, lines = run(tmp_path, factory)
    assert passed and set(s for s, _ in checks.values()) == {"ok"}
    numbered = lines[1:-1]
    assert [line[:3] for line in numbered] == [f"{n:2}." for n in range(1, len(numbered) + 1)]
    assert lines[-1] == f"All {len(numbered)} checks passed."
    # every seat, screen, LED and button on a line of its own
    for seat in (1, 2, 3):
        for part in ("screen", "LED", "previous", "select", "next"):
            assert f"Seat {seat} {part}" in checks
    assert "pressed and released" in checks["Seat 2 next"][1]
    assert "SDA is free (0x04 does not answer)" in checks["I2C bus 1"][1]


def test_a_missing_bus_names_the_line_to_add(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, bus_exists=lambda number: False)
    assert not passed
    assert "add the line dtparam=i2c_arm=on at the end of /boot/firmware/config.txt" in \
        failures(checks)["I2C bus 1"]
    assert checks["Seat 1 screen"][0] == "skip"
    assert checks["Seat 1 select"][0] == "ok"  # the buttons are still checked


def test_a_mux_that_nacks(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, smbus=FakeSMBus(mux=False))
    assert not passed
    detail = failures(checks)["TCA9548A 0x70 bus 1"]
    assert "does not answer at 0x70" in detail and "errno 121" in detail
    assert "A0-A2 are open" in detail
    assert [checks[f"Seat {n} screen"][0] for n in (1, 2, 3)] == ["skip"] * 3


def test_a_mux_the_kernel_owns_is_errno_16_not_a_missing_mux(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, buttons=False,
                            smbus=FakeSMBus(kernel_mux=True))
    assert list(failures(checks)) == ["TCA9548A 0x70 bus 1"]
    detail = checks["TCA9548A 0x70 bus 1"][1]
    assert "errno 16" in detail and "i2cdetect shows UU" in detail
    assert "dtoverlay=i2c-mux" in detail and "should show 70" not in detail
    assert checks["Seat 2 screen"] == ("skip", "not checked: the kernel owns the mux at 0x70")


def test_a_bus_that_times_out(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, smbus=FakeSMBus(timeout=True))
    assert not passed
    detail = failures(checks)["TCA9548A 0x70 bus 1"]
    assert "errno 110" in detail and "held low" in detail
    assert checks["I2C bus 1"] == ("ok", "/dev/i2c-1 exists")  # the probe could not tell


def test_sda_held_low_on_the_bus_is_not_every_part_answering(tmp_path, factory):
    # Held low, every address acknowledges: before this check, "All ... passed".
    passed, checks, _ = run(tmp_path, factory, buttons=False, smbus=FakeSMBus(held=True))
    assert not passed
    assert list(failures(checks)) == ["I2C bus 1"]
    detail = checks["I2C bus 1"][1]
    assert f"0x{NOBODY:02X}, which no device may answer, answers with every mux channel " \
           "off" in detail
    assert "SDA is held low on bus 1 itself" in detail and "the mux at 0x70" in detail
    assert checks["TCA9548A 0x70 bus 1"][0] == "skip"
    assert {checks[f"Seat {n} screen"][0] for n in (1, 2, 3)} == {"skip"}


def test_sda_held_low_on_a_bus_with_a_screen_straight_on_it_names_the_seat(tmp_path,
                                                                          factory):
    config = parse_table_config(DIRECT, "t.toml", backend="sim")
    passed, checks, _ = run(tmp_path, factory, config=config, buttons=False,
                            smbus=FakeSMBus(held=True))
    assert "(seat 1's screen)" in failures(checks)["I2C bus 1"]


def test_sda_held_low_on_one_channel_names_the_seat_and_stops_the_rest(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, buttons=False,
                            smbus=FakeSMBus(held_channel=1))
    assert not passed
    assert list(failures(checks)) == ["Seat 2 screen"]
    detail = checks["Seat 2 screen"][1]
    assert "answers on mux 0x70 channel 1" in detail and "SDA is held low" in detail
    assert "a pair swapped at one end of a Cat5e run" in detail
    assert "the mux cannot switch away from channel 1" in detail
    assert checks["Seat 1 screen"][0] == "ok"
    # seat 3 would have "answered": the held line acknowledges its address too
    assert checks["Seat 3 screen"] == ("skip", "not checked: bus 1 is held low through "
                                       "seat 2's channel 1 (the mux cannot switch away "
                                       "from it)")


def test_a_screen_that_nacks_is_one_failure_among_the_seats(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory,
                            smbus=FakeSMBus(panels=((0, PANEL), (2, PANEL))))
    assert not passed
    assert list(failures(checks)) == ["Seat 2 screen"]
    detail = checks["Seat 2 screen"][1]
    assert "does not answer at bus 1, mux 0x70 channel 1" in detail
    # two panels at one address on one channel answer as one: the eye is asked
    assert "if this seat's screen shows another seat's number" in detail
    assert checks["Seat 3 screen"][0] == "ok"


def test_a_screen_on_another_channel_is_found_there(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory,
                            smbus=FakeSMBus(panels=((0, PANEL), (5, PANEL), (2, PANEL))))
    assert not passed
    assert "it answers on mux channel 5, not 1: move its SDA/SCL to SD1/SC1, or set " \
           "channel = 5" in failures(checks)["Seat 2 screen"]


def test_a_screen_at_the_other_address_is_found_there(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory,
                            smbus=FakeSMBus(panels=((0, PANEL), (1, 0x3D), (2, PANEL))))
    assert not passed
    assert "it answers at 0x3D instead: set address = 0x3D" in \
        failures(checks)["Seat 2 screen"]


def test_two_panels_on_one_channel_are_found_sharing_it(tmp_path, factory):
    panels = ((0, PANEL), (0, 0x3D), (2, PANEL))  # seat 2's, jumpered 0x3D, on channel 0
    passed, checks, _ = run(tmp_path, factory, buttons=False, smbus=FakeSMBus(panels=panels))
    assert list(failures(checks)) == ["Seat 2 screen"]
    assert "a panel answers at 0x3D on mux channel 0, which seat 1's screen uses: two " \
           "panels share channel 0; move this one's SDA/SCL to SD1/SC1" in \
           checks["Seat 2 screen"][1]


def test_a_panel_at_the_other_address_on_a_free_channel_is_found(tmp_path, factory):
    panels = ((0, PANEL), (6, 0x3D), (2, PANEL))
    passed, checks, _ = run(tmp_path, factory, buttons=False, smbus=FakeSMBus(panels=panels))
    assert "it answers at 0x3D on mux channel 6 (both differ)" in \
        failures(checks)["Seat 2 screen"]
    assert "set channel = 6, address = 0x3D" in checks["Seat 2 screen"][1]


def test_a_screen_that_stops_answering(tmp_path, factory):
    panels = [CountingInterface(), StoppingPanel()]  # seat 2's stops after one frame
    passed, checks, _ = run(tmp_path, factory, panels=panels)
    assert not passed
    detail = failures(checks)["Seat 2 screen"]
    assert "then stopped answering at frame 1 of 4" in detail and "--stress" in detail


def test_a_screen_straight_on_a_bus_that_times_out(tmp_path, factory):
    config = parse_table_config(DIRECT, "t.toml", backend="sim")
    passed, checks, _ = run(tmp_path, factory, config=config, buttons=False,
                            smbus=FakeSMBus(timeout=True))
    assert "errno 110" in failures(checks)["Seat 1 screen"]


def test_a_bus_the_user_may_not_open(tmp_path, factory):
    class DeniedSMBus(FakeSMBus):
        def _ack(self, address):
            raise PermissionError(13, "Permission denied")

    passed, checks, _ = run(tmp_path, factory, buttons=False, smbus=DeniedSMBus())
    assert "cannot open /dev/i2c-1 (Permission denied): add the user to the i2c group" in \
        failures(checks)["TCA9548A 0x70 bus 1"]
