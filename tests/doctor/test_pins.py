"""The doctor's pin lines (companion/doctor/pins.py): each seat's LED and buttons."""
from __future__ import annotations

from gpiozero import LED
from gpiozero.pins.mock import MockPWMPin

from companion.doctor.report import pin_name
from companion.seats import sim_table_config

from .parts import failures, finger, run


class ShortedPin(MockPWMPin):
    """An input shorted to ground: the short wins over the pull-up."""

    def drive_high(self):
        pass


class GroundedOutput(MockPWMPin):
    """An output shorted to ground: driven high, it reads low."""

    def _set_state(self, value):
        super()._set_state(0)


def test_a_button_shorted_to_ground_from_the_start(tmp_path, factory):
    config = sim_table_config(3)
    factory.pin(config.seats[0].buttons.next, pin_class=ShortedPin).drive_low()
    passed, checks, _ = run(tmp_path, factory)
    assert not passed
    assert "reads pressed before anyone touched it" in failures(checks)["Seat 1 next"]


def test_a_button_never_released(tmp_path, factory):
    config = sim_table_config(3)
    passed, checks, _ = run(tmp_path, factory, button_timeout=0.5, only_seat=2,
                            prompt=finger(factory, config, keep_down={(2, "previous")}))
    assert not passed
    assert "pressed but not released within 0.5 s" in failures(checks)["Seat 2 previous"]


def test_a_button_never_pressed_is_named_with_its_pin(tmp_path, factory):
    config = sim_table_config(3)
    passed, checks, lines = run(tmp_path, factory, button_timeout=0.3, only_seat=2,
                                prompt=finger(factory, config, skip={(2, "select")}))
    assert not passed
    assert list(failures(checks)) == ["Seat 2 select"]
    detail = checks["Seat 2 select"][1]
    assert "GPIO8 (pin 24) never pressed within 0.3 s, and no other button pin moved" in \
        detail
    assert lines[-1] == f"{len(checks) - 1} of {len(checks)} checks passed."


def test_swapped_wires_are_named_at_each_press(tmp_path, factory):
    config = sim_table_config(3)
    previous, nxt = config.seats[1].buttons.previous, config.seats[1].buttons.next
    wired = {(2, "previous"): nxt, (2, "next"): previous}
    passed, checks, _ = run(tmp_path, factory, config=config,
                            prompt=finger(factory, config, wired=wired))
    assert list(failures(checks)) == ["Seat 2 previous", "Seat 2 next"]
    assert checks["Seat 2 previous"][1].startswith(
        "you pressed seat 2's previous but GPIO9 (pin 21) moved, which is configured as "
        "seat 2's next: the two wires are swapped")
    assert "you pressed seat 2's next but GPIO7 (pin 26) moved" in checks["Seat 2 next"][1]
    assert checks["Seat 2 select"][0] == "ok"  # the moved pin was let go first


def test_a_wire_on_another_seats_pin_is_named(tmp_path, factory):
    config = sim_table_config(3)
    wired = {(1, "select"): config.seats[2].buttons.select}
    passed, checks, _ = run(tmp_path, factory, config=config,
                            prompt=finger(factory, config, wired=wired))
    assert list(failures(checks)) == ["Seat 1 select"]
    assert checks["Seat 1 select"][1] == (
        "you pressed seat 1's select but GPIO11 (pin 23) moved, which is configured as "
        "seat 3's select: this button's wire is on the wrong pin; move it to GPIO5 (pin 29)")


def test_without_presses_a_stuck_button_is_still_found(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, buttons=False)
    assert passed and "not stuck" in checks["Seat 1 select"][1]


def test_an_led_pin_in_use(tmp_path, factory):
    config = sim_table_config(3)
    with LED(config.seats[2].led, pin_factory=factory):  # another program has it
        passed, checks, _ = run(tmp_path, factory, buttons=False)
    assert not passed
    assert "cannot drive GPIO" in failures(checks)["Seat 3 LED"]


def test_an_led_pin_that_reads_low_while_driven_high(tmp_path, factory):
    config = sim_table_config(3)
    factory.pin(config.seats[1].led, pin_class=GroundedOutput)
    passed, checks, _ = run(tmp_path, factory, buttons=False)
    assert list(failures(checks)) == ["Seat 2 LED"]
    detail = checks["Seat 2 LED"][1]
    assert f"{pin_name(config.seats[1].led)} reads low while driven high" in detail
    assert "no resistor" in detail
    assert "reads back high" in checks["Seat 1 LED"][1]
