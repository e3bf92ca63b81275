"""``mutiny doctor`` run as the command (companion/cli.py over companion/doctor/sim.py):
every fault the sim backend can put in is printed, names its seat and part, and fails
the run; with no fault every line says ok."""
from __future__ import annotations

import pytest

from companion.cli import main
from companion.doctor import SimFaults

from .parts import DIRECT

#: A press takes the simulated finger well under a second; the timeout is generous so a
#: loaded machine cannot fail a press that happens. Tests that wait for a timeout on
#: purpose give a short one, on one seat (--seat), so no other button waits with it.
SIM = ["doctor", "--backend", "sim", "--port", "0", "--button-timeout", "5"]


def doctor(tmp_path, capsys, *args):
    """Run the command; (exit status, printed lines, the FAIL lines)."""
    status = main(SIM + ["--data-dir", str(tmp_path / "data"), *args])
    out = capsys.readouterr().out.splitlines()
    return status, out, [line for line in out if " FAIL " in line]


def test_the_command_with_nothing_wrong_says_ok_on_every_line(tmp_path, capsys):
    status, out, failed = doctor(tmp_path, capsys)
    assert status == 0, failed
    numbered = [line for line in out if line[:3].strip().rstrip(".").isdigit()]
    assert numbered and all(" ok " in line for line in numbered)
    assert out[-1] == f"All {len(numbered)} checks passed."


@pytest.mark.parametrize("fault,name,says", [
    ("bus-missing", "I2C bus 1", "dtparam=i2c_arm=on"),
    ("bus-stuck:2", "TCA9548A 0x70 bus 1", "errno 110"),
    ("mux-missing", "TCA9548A 0x70 bus 1", "does not answer at 0x70"),
    ("kernel-mux", "TCA9548A 0x70 bus 1", "claimed by a kernel driver (errno 16, EBUSY; "
                                          "i2cdetect shows UU)"),
    ("screen-missing:2", "Seat 2 screen", "does not answer at bus 1"),
    ("wrong-channel:3", "Seat 3 screen", "answers on mux channel 4, not 2"),
    ("shared-channel:3", "Seat 3 screen", "a panel answers at 0x3D on mux channel 1, which "
                                          "seat 2's screen uses: two panels share channel 1"),
    ("address-elsewhere:2", "Seat 2 screen", "it answers at 0x3D on mux channel 4"),
    ("screen-stops:4", "Seat 4 screen", "stopped answering"),
    ("sda-low:2", "Seat 2 screen", "answers on mux 0x70 channel 1: SDA is held low on this "
                                   "seat's lead"),
    ("led-busy:2", "Seat 2 LED", "cannot drive GPIO"),
    ("led-shorted:4", "Seat 4 LED", "GPIO19 (pin 35) reads low while driven high"),
])
def test_each_injected_part_fault_is_printed_and_fails(tmp_path, capsys, fault, name, says):
    status, _, failed = doctor(tmp_path, capsys, "--no-buttons", "--sim-fault", fault)
    assert status == 1
    assert len(failed) == 1 and name in failed[0] and says in failed[0]


@pytest.mark.parametrize("fault,failing,says,timeout", [
    ("button-stuck:1:next", ["Seat 1 next"], "reads pressed before anyone touched it", "5"),
    ("button-unreleased:2:previous", ["Seat 2 previous"], "pressed but not released", "1"),
    ("button-silent:3", ["Seat 3 select"], "never pressed", "1"),
    ("buttons-swapped:2", ["Seat 2 previous", "Seat 2 next"],
     "moved, which is configured as seat 2's", "5"),
    ("button-wrong-pin:2", ["Seat 2 select"],
     "you pressed seat 2's select but GPIO11 (pin 23) moved, which is configured as seat "
     "3's select: this button's wire is on the wrong pin; move it to GPIO8 (pin 24)", "5"),
])
def test_each_injected_button_fault_is_printed_and_fails(tmp_path, capsys, fault, failing,
                                                         says, timeout):
    seat = fault.split(":")[1]
    status, _, failed = doctor(tmp_path, capsys, "--sim-fault", fault, "--seat", seat,
                               "--button-timeout", timeout)
    assert status == 1
    assert [line.split(".", 1)[1].split("..")[0].strip() for line in failed] == failing, \
        failed
    assert all(says in line for line in failed)


def test_swapped_buttons_say_so_in_the_builders_words(tmp_path, capsys):
    _, _, failed = doctor(tmp_path, capsys, "--sim-fault", "buttons-swapped:2")
    assert "you pressed seat 2's previous but GPIO9 (pin 21) moved, which is configured " \
           "as seat 2's next: the two wires are swapped" in failed[0]


def test_a_wrong_pin_on_a_one_seat_table_is_a_pin_no_seat_uses(tmp_path, capsys):
    status, _, failed = doctor(tmp_path, capsys, "--seats", "1", "--button-timeout", "1",
                               "--sim-fault", "button-wrong-pin:1:next")
    assert status == 1 and len(failed) == 1
    assert "Seat 1 next" in failed[0] and "no other button pin moved" in failed[0]


def test_sda_held_low_on_the_first_channel_stops_every_seat_after_it(tmp_path, capsys):
    status, out, failed = doctor(tmp_path, capsys, "--no-buttons", "--sim-fault", "sda-low")
    assert status == 1 and len(failed) == 1 and "Seat 1 screen" in failed[0]
    skipped = [line for line in out if " skip " in line]
    assert [line.split(".", 1)[1].split("..")[0].strip() for line in skipped] == \
        ["Seat 2 screen", "Seat 3 screen", "Seat 4 screen"]
    assert all("held low through seat 1's channel 0" in line for line in skipped)


def test_sda_held_low_on_a_bus_with_a_screen_straight_on_it(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text(DIRECT)
    status, _, failed = doctor(tmp_path, capsys, "--no-buttons", "--config", str(config),
                               "--sim-fault", "sda-low")
    assert status == 1 and len(failed) == 1
    assert "I2C bus 1" in failed[0] and "(seat 1's screen)" in failed[0]


def test_the_kernel_mux_overlay_is_found_in_the_boot_config(tmp_path, capsys):
    boot = tmp_path / "config.txt"
    boot.write_text("[all]\ndtparam=i2c_arm=on\ndtoverlay=i2c-mux,pca9548,addr=0x70\n")
    status, _, failed = doctor(tmp_path, capsys, "--no-buttons", "--boot-config", str(boot))
    assert status == 1 and len(failed) == 1
    assert "Boot config" in failed[0] and f"line 3 of {boot}" in failed[0]


def test_one_seat_is_checked_with_the_bus_and_mux_it_needs(tmp_path, capsys):
    status, out, failed = doctor(tmp_path, capsys, "--seat", "3")
    assert status == 0, failed
    assert out[0] == "Mutiny Table doctor: seat 3 only, sim backend, config <sim>"
    names = [line.split(".", 1)[1].split("..")[0].strip() for line in out[1:-1]]
    assert names == ["Table config", "I2C bus 1", "Boot config", "Device access",
                     "TCA9548A 0x70 bus 1", "Seat 3 screen", "Seat 3 LED",
                     "Seat 3 previous", "Seat 3 select", "Seat 3 next"]
    status, out, failed = doctor(tmp_path, capsys, "--seat", "3", "--no-buttons",
                                 "--sim-fault", "screen-missing:3")
    assert status == 1 and len(failed) == 1 and "Seat 3 screen" in failed[0]


def test_a_seat_or_fault_seat_the_table_does_not_have_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit, match="there is no seat 9"):
        main(SIM + ["--data-dir", str(tmp_path), "--seat", "9"])
    with pytest.raises(SystemExit, match="fault sda-low:7: there is no seat 7"):
        main(SIM + ["--data-dir", str(tmp_path), "--sim-fault", "sda-low:7"])


def test_every_sim_fault_is_tested_here():
    tested = {"bus-missing", "bus-stuck", "mux-missing", "kernel-mux", "screen-missing",
              "wrong-channel", "shared-channel", "address-elsewhere", "screen-stops",
              "sda-low", "led-busy", "led-shorted", "button-stuck", "button-unreleased",
              "button-silent", "buttons-swapped", "button-wrong-pin", "screen-flaky",
              "screen-garbled"}
    assert set(SimFaults.KINDS) == tested


def test_sim_fault_help_lists_every_fault(capsys):
    assert main(["doctor", "--sim-fault", "help"]) == 0
    out = capsys.readouterr().out
    assert all(f"\n{kind} " in out for kind in SimFaults.KINDS)


def test_the_command_stress_prints_a_table_and_fails_on_errors(tmp_path, capsys):
    args = ["doctor", "--backend", "sim", "--data-dir", str(tmp_path), "--stress", "0.3"]
    assert main(args) == 0
    assert main(args + ["--sim-fault", "screen-flaky:2"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-3].startswith("2 ") and "no acknowledge (errno 121) x" in out[-3]
    assert out[-2].startswith("3 ") and " 0.00%" in out[-2]


def test_the_command_stress_counts_a_frame_read_back_wrong(tmp_path, capsys):
    args = ["doctor", "--backend", "sim", "--data-dir", str(tmp_path), "--stress", "0.3",
            "--sim-fault", "screen-garbled:3"]
    assert main(args) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "Seats 1, 2, 3, 4: every frame is read back and compared."
    assert out[-2].startswith("3 ") and "read back differs from the frame sent x" in out[-2]
    assert out[-1].startswith("4 ") and " 0.00%" in out[-1]
