"""Table config: the examples load, and every refusal names file, line and fix."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from companion.errors import ConfigError
from companion.seats import (
    CountingInterface,
    RecordingBus,
    check_buses,
    load_table_config,
    open_seats,
    overlays,
    parse_table_config,
    sim_table_config,
)

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
EXAMPLES = sorted(HARDWARE.glob("table-*.toml"))

GOOD = """\
[table]
hold_time = 0.5

[[seat]]
name = "Bow"
buttons = { previous = 17, select = 27, next = 22 }
screen = { bus = 1, mux = 0x70, channel = 0 }
led = 4

[[seat]]
buttons = { previous = 5, select = 6, next = 13 }
screen = { bus = 1, mux = 0x70, channel = 1 }
"""


def any_bus(bus: int) -> bool:
    return True


def refusal(text: str, **kwargs) -> str:
    """The message a config is refused with (it must be refused)."""
    kwargs.setdefault("bus_exists", any_bus)
    with pytest.raises(ConfigError) as caught:
        parse_table_config(textwrap.dedent(text), "tables/test.toml", **kwargs)
    return str(caught.value)


def line_of(text: str, snippet: str, occurrence: int = 1) -> int:
    """1-based line of the ``occurrence``-th line containing ``snippet``."""
    hits = [n for n, line in enumerate(textwrap.dedent(text).splitlines(), 1) if snippet in line]
    return hits[occurrence - 1]


def assert_located(message: str, text: str, snippet: str, occurrence: int = 1) -> None:
    assert message.startswith(f"tables/test.toml:{line_of(text, snippet, occurrence)}: "), message
    assert "Fix: " in message


# -- accepted ---------------------------------------------------------------------------

def test_the_examples_are_there():
    assert [p.name for p in EXAMPLES] == ["table-4.toml", "table-6.toml", "table-8.toml"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("backend", ["pi", "sim"])
def test_every_example_loads(path, backend):
    config = load_table_config(path, backend, bus_exists=any_bus)
    assert len(config.seats) == int(path.stem.split("-")[1])
    assert [s.number for s in config.seats] == list(range(1, len(config.seats) + 1))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_opens_on_the_simulator(path, clock):
    config = load_table_config(path, "sim")
    with open_seats(config, "sim", clock=clock) as table:
        assert len(table) == len(config.seats)


def test_every_example_uses_the_tca9548a_selected_by_the_companion():
    four = load_table_config(HARDWARE / "table-4.toml", "sim")
    six = load_table_config(HARDWARE / "table-6.toml", "sim")
    eight = load_table_config(HARDWARE / "table-8.toml", "sim")
    # No kernel-numbered channel buses: a mux at 0x70 on bus 1 (and on bus 0 for the
    # bigger tables, drawn at the same time), each screen on a channel of its own.
    muxes = [(s.screen.bus, s.screen.mux, s.screen.channel) for s in four.seats]
    assert muxes == [(1, 0x70, c) for c in range(4)]
    muxes = [(s.screen.bus, s.screen.mux, s.screen.channel) for s in six.seats]
    assert muxes == [(1, 0x70, c) for c in range(3)] + [(0, 0x70, c) for c in range(3)]
    muxes = [(s.screen.bus, s.screen.mux, s.screen.channel) for s in eight.seats]
    assert muxes == [(1, 0x70, c) for c in range(4)] + [(0, 0x70, c) for c in range(4)]
    assert six.seats[3].screen.rotation == 2  # the [seat.screen] sub-table form
    assert six.seats[2].led_pwm is True


def test_values_and_defaults_are_kept():
    config = parse_table_config(GOOD, "t.toml", bus_exists=any_bus)
    bow, second = config.seats
    assert config.hold_time == 0.5 and config.bounce_ms == 30 and config.dim_after == 300
    assert bow.name == "Bow" and bow.led == 4 and bow.buttons.select == 27
    assert bow.screen.address == 0x3C and bow.screen.rotation == 0
    assert second.led is None and second.screen.channel == 1
    assert config.source == "t.toml"


def test_a_pod_seat_is_kept_without_pins_or_screen():
    config = parse_table_config(GOOD + '\n[[seat]]\npod = "pod-3"\nname = "Stern"\n',
                                bus_exists=any_bus)
    pod = config.seats[2]
    assert (pod.pod, pod.name, pod.buttons, pod.screen, pod.led) == ("pod-3", "Stern",
                                                                      None, None, None)


def test_buses_are_not_checked_on_the_simulator():
    config = parse_table_config(GOOD, backend="sim", bus_exists=lambda bus: False)
    assert len(config.seats) == 2


@pytest.mark.parametrize("seats", range(1, 9))
def test_sim_configs_are_consistent(seats):
    config = sim_table_config(seats)
    pins = [p for s in config.seats for p in (s.buttons.previous, s.buttons.select,
                                               s.buttons.next, s.led) if p is not None]
    assert len(pins) == len(set(pins)) and all(4 <= p <= 27 for p in pins)
    screens = {(s.screen.bus, s.screen.mux, s.screen.channel) for s in config.seats}
    assert len(screens) == seats
    assert all(s.led is not None for s in config.seats) == (seats <= 6)


@pytest.mark.parametrize("seats", [0, 9, "4", True])
def test_sim_config_refuses_impossible_tables(seats):
    with pytest.raises(ConfigError, match="Fix: "):
        sim_table_config(seats)


# -- refused ----------------------------------------------------------------------------

def test_pin_used_twice_names_both_seats_and_roles():
    text = GOOD.replace("previous = 5", "previous = 17")
    message = refusal(text)
    assert_located(message, text, "previous = 17", occurrence=2)
    assert "GPIO17 is used twice" in message
    assert f"seat 1 previous (line {line_of(text, 'previous = 17')})" in message
    assert "seat 2 previous" in message
    assert "Fix: give seat 2 previous its own pin, e.g. GPIO" in message


def test_led_on_a_button_pin_is_a_pin_used_twice():
    text = GOOD.replace("led = 4", "led = 22")
    message = refusal(text)
    assert_located(message, text, "led = 22")
    assert "seat 1 next" in message and "seat 1 led" in message


def test_missing_bus_names_the_device_file_and_the_fix():
    text = GOOD.replace("bus = 1, mux = 0x70, channel = 1", "bus = 5, mux = 0x70, channel = 1")
    message = refusal(text, bus_exists=lambda bus: bus == 1)
    assert_located(message, text, "bus = 5")
    assert "/dev/i2c-5 does not exist" in message and "\n" not in message
    assert "bus = 1 behind the TCA9548A" in message and "/boot/firmware/config.txt" in message


def test_a_missing_bus_1_names_the_line_to_add_and_where():
    message = refusal(GOOD, bus_exists=lambda bus: False)
    assert_located(message, GOOD, "bus = 1, mux = 0x70, channel = 0")
    assert "\n" not in message
    assert ("add the line dtparam=i2c_arm=on at the end of /boot/firmware/config.txt "
            "(under [all]; sudo hardware/install.sh adds it) and reboot") in message


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_starts_with_the_lines_the_installer_writes(path, factory, clock):
    lines, warnings = overlays.config_lines(str(path))
    assert warnings == [] and "dtparam=i2c_arm=on" in lines
    exists = overlays.buses_enabled(lines).__contains__
    config = load_table_config(path, "pi", bus_exists=exists)
    with open_seats(config, "pi", clock=clock, pin_factory=factory, bus_exists=exists,
                    i2c=lambda bus, address: CountingInterface(),
                    smbus=lambda bus: RecordingBus()) as table:
        assert len(table) == len(config.seats)
    # and without them it is refused, naming the first line it lacks
    with pytest.raises(ConfigError, match="add the line dtparam=i2c_arm=on"):
        load_table_config(path, "pi", bus_exists=overlays.buses_enabled([]).__contains__)


def test_bus_0_gets_its_lines_only_when_a_screen_is_on_it():
    assert overlays.lines_for_buses({1}) == ["dtparam=i2c_arm=on",
                                             "dtparam=i2c_arm_baudrate=400000"]
    assert overlays.lines_for_buses({0})[2:] == ["dtparam=i2c_vc=on",
                                                 "dtparam=i2c_vc_baudrate=400000"]
    assert overlays.buses_enabled(overlays.lines_for_buses({0, 1})) == {0, 1}


def test_the_overlays_command_prints_the_lines(capsys):
    from companion.cli import main
    assert main(["overlays", str(HARDWARE / "table-8.toml")]) == 0
    assert capsys.readouterr().out.split() == overlays.lines_for_buses({0, 1})


def test_missing_bus_is_also_refused_when_the_pi_backend_opens():
    config = parse_table_config(GOOD, "t.toml", backend="sim")
    with pytest.raises(ConfigError, match=r"^t\.toml:7: .*/dev/i2c-1 does not exist"):
        check_buses(config, lambda bus: False)
    with pytest.raises(ConfigError, match="does not exist"):
        open_seats(config, "pi", bus_exists=lambda bus: False)


def test_unknown_key_suggests_the_nearest():
    text = GOOD.replace("mux = 0x70, channel = 1", "mux = 0x70, chanel = 1")
    message = refusal(text)
    assert_located(message, text, "chanel")
    assert "unknown key 'chanel' in seat 2 screen" in message
    assert "did you mean 'channel'?" in message


def test_unknown_key_in_the_table_block():
    text = GOOD.replace("hold_time = 0.5", "hold_tme = 0.5")
    message = refusal(text)
    assert_located(message, text, "hold_tme")
    assert "did you mean 'hold_time'?" in message


def test_unknown_top_level_table():
    text = GOOD.replace("[[seat]]", "[[seats]]", 1)
    message = refusal(text)
    assert_located(message, text, "[[seats]]")
    assert "did you mean 'seat'?" in message


def test_unknown_key_without_a_near_match_lists_the_valid_ones():
    text = GOOD.replace('name = "Bow"', 'colour = "red"')
    message = refusal(text)
    assert_located(message, text, "colour")
    assert "Fix: remove it (valid keys: name, buttons, screen, led, led_pwm, pod)" in message


def test_unknown_key_in_a_screen_sub_table():
    text = textwrap.dedent("""\
        [[seat]]
        buttons = { previous = 17, select = 27, next = 22 }

        [seat.screen]
        bus = 1
        rotaton = 2
        """)
    message = refusal(text)
    assert_located(message, text, "rotaton")
    assert "did you mean 'rotation'?" in message


@pytest.mark.parametrize("old, new, snippet, expect", [
    ("select = 27", 'select = "27"', 'select = "27"', "must be a whole number, not text '27'"),
    ("select = 27", "select = true", "select = true", "must be a whole number, not true/false"),
    ("select = 27", "select = 40", "select = 40", "pin 40 is out of range"),
    ("hold_time = 0.5", 'hold_time = "long"', "hold_time", "hold_time must be a number"),
    ("hold_time = 0.5", "hold_time = 0", "hold_time", "hold_time 0 is out of range"),
    ('name = "Bow"', "name = 7", "name = 7", "name must be a string"),
    ("led = 4", "led = 4.5", "led = 4.5", "must be a whole number, not a decimal number"),
    ("mux = 0x70, channel = 0", "mux = 0x70, channel = 9", "channel = 9",
     "channel 9 is out of range"),
    ("screen = { bus = 1, mux = 0x70, channel = 0 }", "screen = 1", "screen = 1",
     "screen must be a table"),
])
def test_wrong_types_and_ranges(old, new, snippet, expect):
    text = GOOD.replace(old, new, 1)
    message = refusal(text)
    assert_located(message, text, snippet)
    assert expect in message


def test_two_screens_at_the_same_place():
    text = GOOD.replace("mux = 0x70, channel = 1", "mux = 0x70, channel = 0")
    message = refusal(text)
    assert_located(message, text, "channel = 0", occurrence=2)
    assert "seats 1 and 2 both have their screen at bus 1, mux 0x70 channel 0, address 0x3C" \
        in message
    assert "set address = 0x3D" in message


def test_same_address_on_the_bus_and_behind_its_mux():
    text = GOOD.replace("screen = { bus = 1, mux = 0x70, channel = 1 }", "screen = { bus = 1 }")
    message = refusal(text)
    assert_located(message, text, "screen = { bus = 1 }")
    assert "sits directly on bus 1 at 0x3C" in message and "behind the mux too" in message


def test_channel_needs_a_mux_and_mux_needs_a_channel():
    text = GOOD.replace("mux = 0x70, channel = 1", "channel = 1")
    message = refusal(text)
    assert_located(message, text, "screen = { bus = 1, channel = 1 }")
    assert "add mux = 0x70" in message
    text = GOOD.replace("mux = 0x70, channel = 1", "mux = 0x70")
    assert "add channel = <0-7>" in refusal(text)


def test_mux_address_must_be_a_tca9548a_address():
    text = GOOD.replace("mux = 0x70, channel = 1", "mux = 0x20, channel = 1")
    message = refusal(text)
    assert_located(message, text, "mux = 0x20")
    assert "use 0x70 to 0x77" in message


def test_buttons_on_the_i2c_pins_are_refused():
    text = GOOD.replace("previous = 5", "previous = 2")
    message = refusal(text)
    assert_located(message, text, "previous = 2")
    assert "GPIO2, the SDA line of I2C bus 1" in message


@pytest.mark.parametrize("pin,line", [(0, "SDA"), (1, "SCL")])
def test_buttons_on_bus_0_are_refused_when_screens_use_it(pin, line):
    text = GOOD.replace("screen = { bus = 1, mux = 0x70, channel = 1 }",
                        "screen = { bus = 0, mux = 0x70, channel = 1 }")
    text = text.replace("next = 22", f"next = {pin}")
    message = refusal(text)
    assert_located(message, text, f"next = {pin}")
    assert f"seat 1 next is on GPIO{pin}, the {line} line of I2C bus 0" in message
    assert "Fix: move it to a free pin, e.g. GPIO" in message
    # Without screens on bus 0, GPIO0 and GPIO1 are buttons like any other.
    config = parse_table_config(GOOD.replace("next = 22", f"next = {pin}"), bus_exists=any_bus)
    assert config.seats[0].buttons.next == pin


def test_a_missing_bus_0_says_how_to_enable_it():
    text = GOOD.replace("bus = 1, mux = 0x70, channel = 1", "bus = 0, mux = 0x70, channel = 1")
    message = refusal(text, bus_exists=lambda bus: bus == 1)
    assert_located(message, text, "bus = 0")
    assert "/dev/i2c-0 does not exist" in message and "dtparam=i2c_vc=on" in message


def test_a_missing_button():
    text = GOOD.replace("select = 6, ", "")
    message = refusal(text)
    assert_located(message, text, "buttons = { previous = 5, next = 13 }")
    assert "seat 2 has no select button" in message and "add select = <BCM pin>" in message


def test_a_seat_without_screen():
    text = GOOD + "\n[[seat]]\nbuttons = { previous = 23, select = 24, next = 25 }\n"
    message = refusal(text)
    assert_located(message, text, "[[seat]]", occurrence=3)
    assert "seat 3 has no screen" in message


def test_a_pod_seat_with_pins_is_refused():
    text = GOOD.replace('name = "Bow"', 'pod = "pod-1"')
    message = refusal(text)
    assert_located(message, text, "buttons = { previous = 17")
    assert "seat 1 has a pod and buttons" in message


def test_two_seats_with_one_pod():
    text = GOOD + '\n[[seat]]\npod = "p"\n\n[[seat]]\npod = "p"\n'
    message = refusal(text)
    assert_located(message, text, 'pod = "p"', occurrence=2)
    assert "pod 'p' is used by seats 3 and 4" in message


def test_no_seats():
    message = refusal("[table]\nhold_time = 1\n")
    assert message.startswith("tables/test.toml:0: the config has no seats")
    assert "Fix: add a [[seat]] block" in message


def test_seat_written_as_a_single_table():
    text = "[seat]\nbuttons = { previous = 5, select = 6, next = 13 }\n"
    message = refusal(text)
    assert_located(message, text, "[seat]")
    assert "double brackets" in message


def test_toml_syntax_error_keeps_the_parser_line():
    text = GOOD.replace('name = "Bow"', "name = Bow")
    message = refusal(text)
    assert_located(message, text, "name = Bow")
    assert "not valid TOML" in message


def test_unreadable_file(tmp_path):
    with pytest.raises(ConfigError, match=r"nope\.toml:0: cannot read .* Fix: "):
        load_table_config(tmp_path / "nope.toml")
