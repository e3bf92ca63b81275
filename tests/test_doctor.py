"""`mutiny doctor`: one test per fault it claims to find, each put in by injection.

The I2C side is a fake ``smbus2.SMBus`` written here (a TCA9548A at 0x70 and panels on
the channels it is given) that acknowledges, NACKs (errno 121) or times out (errno
110); pins are gpiozero's MockFactory; panels are the counting interface the simulated
table draws on.
"""
from __future__ import annotations

import errno
import socket
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.cli import main
from companion.doctor import Doctor, SimFaults
from companion.seats import CountingInterface, parse_table_config, sim_table_config

MUX, PANEL = 0x70, 0x3C
#: One seat with its screen straight on bus 1 (no multiplexer).
DIRECT = """
[[seat]]
buttons = { previous = 17, select = 27, next = 22 }
screen = { bus = 1 }
"""


class FakeSMBus:
    """smbus2.SMBus's two writes the doctor uses, on a bus with a TCA9548A at 0x70
    (``mux=False``: it does not answer), panels behind it at ``(channel, address)`` and
    panels straight on the bus at ``direct`` addresses."""

    def __init__(self, panels=((0, PANEL), (1, PANEL), (2, PANEL)), mux=True,
                 timeout=False, direct=()):
        self.panels, self.mux, self.timeout = set(panels), mux, timeout
        self.direct = set(direct)
        self.mask = 0

    def _ack(self, address):
        if self.timeout:
            raise OSError(errno.ETIMEDOUT, "Connection timed out")
        if (address == MUX and self.mux) or address in self.direct:
            return
        if any(self.mask & (1 << c) and a == address for c, a in self.panels):
            return
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_byte(self, address, value):
        self._ack(address)
        if address == MUX:
            self.mask = value

    def write_byte_data(self, address, register, value):
        self._ack(address)

    def close(self):
        pass


class StoppingPanel(CountingInterface):
    """A panel that takes its setup and first frame, then NACKs."""

    def data(self, data):
        if self.data_bytes >= 1024:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        super().data(data)


class FlakyPanel(CountingInterface):
    """A panel on a marginal lead: every tenth data write NACKs."""

    writes = 0

    def data(self, data):
        self.writes += 1
        if self.writes % 10 == 0:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        super().data(data)


@pytest.fixture
def factory():
    pins = MockFactory(pin_class=MockPWMPin)
    yield pins
    pins.reset()


def finger(factory, config, skip=(), keep_down=()):
    """Answers each "press" prompt as a person would, from another thread."""
    def prompt(seat, role, gpio):
        if (seat, role) in skip:
            return

        def press():
            factory.pin(gpio).drive_low()
            if (seat, role) not in keep_down:
                time.sleep(config.bounce_ms / 1000 * 3)
                factory.pin(gpio).drive_high()
        threading.Thread(target=press, daemon=True).start()
    return prompt


def run(tmp_path, factory, backend="sim", seats=3, smbus=None, panels=None, config=None,
        **kwargs):
    """Run a doctor over injected parts; returns (passed, {check name: (status, detail)},
    printed lines)."""
    config = config or sim_table_config(seats)
    lines: list[str] = []
    bus = smbus or FakeSMBus()
    made = iter(panels or [])
    kwargs.setdefault("prompt", finger(factory, config))
    kwargs.setdefault("connections", lambda: None)
    kwargs.setdefault("bus_exists", lambda number: True)
    kwargs.setdefault("button_timeout", 2.0)
    kwargs.setdefault("port", 0)
    kwargs.setdefault("chips", lambda: ["/dev/gpiochip0"])
    doctor = Doctor(config, backend, tmp_path / "data", "127.0.0.1", kwargs.pop("port"),
                    smbus=lambda number: bus, pin_factory=factory, say=lines.append,
                    i2c=lambda number, address: next(made, None) or CountingInterface(),
                    **kwargs)
    passed = doctor.run()
    return passed, {c.name: (c.status, c.detail) for c in doctor.checks}, lines


def failures(checks):
    return {name: detail for name, (status, detail) in checks.items() if status == "FAIL"}


# -- nothing wrong -------------------------------------------------------------------------

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


# -- the I2C side --------------------------------------------------------------------------

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


def test_a_bus_that_times_out(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, smbus=FakeSMBus(timeout=True))
    assert not passed
    detail = failures(checks)["TCA9548A 0x70 bus 1"]
    assert "errno 110" in detail and "held low" in detail


def test_a_screen_that_nacks_is_one_failure_among_the_seats(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory,
                            smbus=FakeSMBus(panels=((0, PANEL), (2, PANEL))))
    assert not passed
    assert list(failures(checks)) == ["Seat 2 screen"]
    assert "does not answer at bus 1, mux 0x70 channel 1" in checks["Seat 2 screen"][1]
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
            raise PermissionError(errno.EACCES, "Permission denied")

    passed, checks, _ = run(tmp_path, factory, buttons=False, smbus=DeniedSMBus())
    assert "cannot open /dev/i2c-1 (Permission denied): add the user to the i2c group" in \
        failures(checks)["TCA9548A 0x70 bus 1"]


# -- pins ----------------------------------------------------------------------------------

def test_a_button_shorted_to_ground_from_the_start(tmp_path, factory):
    class ShortedPin(MockPWMPin):
        def drive_high(self):  # the short to ground wins over the pull-up
            pass

    config = sim_table_config(3)
    factory.pin(config.seats[0].buttons.next, pin_class=ShortedPin).drive_low()
    passed, checks, _ = run(tmp_path, factory)
    assert not passed
    assert "reads pressed before anyone touched it" in failures(checks)["Seat 1 next"]


def test_a_button_never_released(tmp_path, factory):
    config = sim_table_config(3)
    passed, checks, _ = run(tmp_path, factory, button_timeout=0.5,
                            prompt=finger(factory, config, keep_down={(2, "previous")}))
    assert not passed
    assert "pressed but not released within 0.5 s" in failures(checks)["Seat 2 previous"]


def test_a_button_never_pressed_is_named_with_its_pin(tmp_path, factory):
    config = sim_table_config(3)
    passed, checks, lines = run(tmp_path, factory, button_timeout=0.3,
                                prompt=finger(factory, config, skip={(2, "select")}))
    assert not passed
    assert list(failures(checks)) == ["Seat 2 select"]
    assert "GPIO8 (pin 24) never pressed within 0.3 s" in checks["Seat 2 select"][1]
    assert lines[-1] == f"{len(checks) - 1} of {len(checks)} checks passed."


def test_without_presses_a_stuck_button_is_still_found(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, buttons=False)
    assert passed and "not stuck" in checks["Seat 1 select"][1]


def test_an_led_pin_in_use(tmp_path, factory):
    from gpiozero import LED
    config = sim_table_config(3)
    with LED(config.seats[2].led, pin_factory=factory):  # another program has it
        passed, checks, _ = run(tmp_path, factory, buttons=False)
    assert not passed
    assert "cannot drive GPIO" in failures(checks)["Seat 3 LED"]


# -- the service ---------------------------------------------------------------------------

UNIT = {"User": "mutiny", "AmbientCapabilities": "CAP_NET_BIND_SERVICE",
        "WorkingDirectory": "/"}


def test_a_port_something_listens_on(tmp_path, factory):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        passed, checks, _ = run(tmp_path, factory, buttons=False,
                                port=busy.getsockname()[1])
    assert not passed
    assert "is taken" in failures(checks)["Web port"]
    assert "systemctl stop mutiny" in failures(checks)["Web port"]


def test_port_80_is_judged_by_the_units_capability_without_binding(tmp_path, factory):
    pi = dict(backend="pi", buttons=False, port=80, devices=lambda path: True)
    passed, checks, _ = run(tmp_path, factory, unit=lambda: UNIT, **pi)
    assert passed, failures(checks)
    assert "gets CAP_NET_BIND_SERVICE from its unit" in checks["Web port"][1]
    passed, checks, _ = run(tmp_path, factory, unit=lambda: {"User": "mutiny"}, **pi)
    assert "needs CAP_NET_BIND_SERVICE" in failures(checks)["Web port"]


def test_a_missing_service_unit(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, backend="pi", buttons=False,
                            unit=lambda: None, devices=lambda path: True)
    assert "is not installed: run sudo hardware/install.sh" in failures(checks)["Service unit"]


def test_devices_the_user_cannot_open(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, backend="pi", buttons=False,
                            unit=lambda: UNIT, devices=lambda path: False)
    assert not passed
    detail = failures(checks)["Device access"]
    assert "cannot open /dev/i2c-1, /dev/gpiochip0" in detail
    assert "sudo adduser mutiny gpio; sudo adduser mutiny i2c" in detail
    passed, checks, _ = run(tmp_path, factory, backend="pi", buttons=False,
                            unit=lambda: UNIT, devices=lambda path: True, chips=lambda: [])
    assert "no GPIO chip" in failures(checks)["Device access"]


def test_a_working_directory_lgpio_cannot_write(tmp_path, factory):
    unit = dict(UNIT, WorkingDirectory=str(tmp_path / "missing"))
    passed, checks, _ = run(tmp_path, factory, backend="pi", buttons=False,
                            unit=lambda: unit, devices=lambda path: True)
    assert "notification FIFO" in failures(checks)["Working directory"]


def test_an_unwritable_journal(tmp_path, factory):
    (tmp_path / "data").write_text("a file where the folder should be")
    passed, checks, _ = run(tmp_path, factory, buttons=False)
    assert "cannot write" in failures(checks)["Journal"]


def test_a_hotspot_not_asked_for_is_not_installed_not_a_failure(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, buttons=False,
                            connections=lambda: (["Wired connection 1"], []))
    assert passed and checks["Wi-Fi hotspot"] == ("ok", "not installed (hardware/install.sh "
                                                         "--hotspot NAME adds one)")


def test_an_installed_hotspot_that_is_down(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, buttons=False,
                            connections=lambda: (["mutiny-hotspot"], ["Wired connection 1"]))
    assert "sudo nmcli connection up mutiny-hotspot" in failures(checks)["Wi-Fi hotspot"]


def test_a_pod_that_is_not_connected(tmp_path, factory):
    config = parse_table_config(DIRECT + '\n[[seat]]\npod = "e661"\n', "t.toml",
                                backend="sim")
    passed, checks, _ = run(tmp_path, factory, config=config, buttons=False,
                            pods=lambda: [{"id": "e661", "connected": False}])
    assert "pod e661 is not connected" in failures(checks)["Seat 2 pod"]
    passed, checks, _ = run(tmp_path, factory, config=config, buttons=False,
                            smbus=FakeSMBus(direct=(PANEL,)),
                            pods=lambda: [{"id": "e661", "connected": True}])
    assert passed, failures(checks)


# -- stress --------------------------------------------------------------------------------

def test_stress_counts_errors_per_seat(tmp_path, factory):
    config = sim_table_config(3)
    lines: list[str] = []
    made = iter([CountingInterface(), FlakyPanel(), CountingInterface()])
    doctor = Doctor(config, "sim", tmp_path, "127.0.0.1", 0, smbus=lambda n: FakeSMBus(),
                    i2c=lambda n, a: next(made), pin_factory=factory,
                    bus_exists=lambda n: True, say=lines.append)
    assert doctor.stress(0.3) is False
    errors = {row.seat: row.errors for row in doctor.stress_rows}
    assert errors[1] == 0 and errors[3] == 0 and errors[2] > 0
    assert all(row.frames > 0 for row in doctor.stress_rows)
    assert lines[1].split() == ["seat", "screen", "frames", "errors", "rate", "last", "error"]
    assert lines[3].startswith("2 ") and lines[3].endswith("no acknowledge (errno 121)")


# -- the command ---------------------------------------------------------------------------

SIM = ["doctor", "--backend", "sim", "--port", "0", "--button-timeout", "1"]


def test_the_command_with_nothing_wrong_says_ok_on_every_line(tmp_path, capsys):
    assert main(SIM + ["--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    numbered = [line for line in out if line[:3].strip().rstrip(".").isdigit()]
    assert numbered and all(" ok " in line for line in numbered)
    assert out[-1] == f"All {len(numbered)} checks passed."


@pytest.mark.parametrize("fault,name,says", [
    ("bus-missing", "I2C bus 1", "dtparam=i2c_arm=on"),
    ("bus-stuck:2", "TCA9548A 0x70 bus 1", "errno 110"),
    ("mux-missing", "TCA9548A 0x70 bus 1", "does not answer at 0x70"),
    ("screen-missing:2", "Seat 2 screen", "does not answer at bus 1"),
    ("wrong-channel:3", "Seat 3 screen", "answers on mux channel 4, not 2"),
    ("screen-stops:4", "Seat 4 screen", "stopped answering"),
    ("button-stuck:1:next", "Seat 1 next", "reads pressed before anyone touched it"),
    ("button-unreleased:2:previous", "Seat 2 previous", "pressed but not released"),
    ("button-silent:3", "Seat 3 select", "never pressed"),
    ("led-busy:2", "Seat 2 LED", "cannot drive GPIO"),
])
def test_the_command_prints_each_injected_fault_and_fails(tmp_path, capsys, fault, name, says):
    presses = [] if fault.startswith("button-") else ["--no-buttons"]  # (quicker)
    assert main(SIM + presses + ["--data-dir", str(tmp_path), "--sim-fault", fault]) == 1
    failed = [line for line in capsys.readouterr().out.splitlines() if " FAIL " in line]
    assert len(failed) == 1 and name in failed[0] and says in failed[0]


def test_every_sim_fault_is_tested_here():
    tested = {"bus-missing", "bus-stuck", "mux-missing", "screen-missing", "wrong-channel",
              "screen-stops", "button-stuck", "button-unreleased", "button-silent",
              "led-busy", "screen-flaky"}
    assert set(SimFaults.KINDS) == tested


def test_the_command_stress_prints_a_table_and_fails_on_errors(tmp_path, capsys):
    args = ["doctor", "--backend", "sim", "--data-dir", str(tmp_path), "--stress", "0.3"]
    assert main(args) == 0
    assert main(args + ["--sim-fault", "screen-flaky:2"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-3].startswith("2 ") and out[-3].endswith("no acknowledge (errno 121)")
    assert out[-2].startswith("3 ") and " 0.00%" in out[-2]
