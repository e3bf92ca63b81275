"""`mutiny doctor` on the simulated table: the test presses the buttons it asks for."""
from __future__ import annotations

import socket
import threading

import pytest

from companion.cli import main
from companion.doctor import Doctor
from companion.seats import open_seats, sim_table_config


@pytest.fixture
def table():
    config = sim_table_config(3)
    with open_seats(config, "sim") as hardware:
        yield config, hardware


def doctor(table, tmp_path, lines, backend="sim", **kwargs):
    config, hardware = table
    kwargs.setdefault("port", 0)
    return Doctor(config, hardware, backend, tmp_path / "data", "127.0.0.1",
                  button_timeout=kwargs.pop("button_timeout", 5.0), say=lines.append,
                  **kwargs)


def presser(hardware, skip=()):
    """Answers each prompt by pressing that button (from another thread, as a finger)."""
    def prompt(seat, role):
        if (seat, role) in skip:
            return
        def press():
            hardware.press(seat, role)
            hardware.release(seat, role)
        threading.Thread(target=press).start()
    return prompt


def test_every_check_passes_when_every_button_is_pressed(table, tmp_path):
    lines: list[str] = []
    doc = doctor(table, tmp_path, lines, prompt=presser(table[1]))
    assert doc.run() is True
    assert lines[-1] == "All 8 checks passed."
    assert [line[:3] for line in lines[1:9]] == [f"{n:2}." for n in range(1, 9)]
    assert "every button answered" in lines[5]
    assert table[1].frame(0) != table[1].frame(1)  # each screen shows its own number


def test_a_button_that_never_answers_is_named(table, tmp_path):
    lines: list[str] = []
    doc = doctor(table, tmp_path, lines, button_timeout=0.3,
                 prompt=presser(table[1], skip={(1, "select")}))
    assert doc.run() is False
    buttons = next(c for c in doc.checks if c.name == "Buttons")
    assert buttons.status == "FAIL"
    assert "seat 2 select (GPIO8, pin 24)" in buttons.detail
    assert lines[-1] == "7 of 8 checks passed."


def test_a_taken_port_and_an_unwritable_journal_fail_with_what_to_do(table, tmp_path):
    (tmp_path / "data").write_text("a file where the folder should be")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        lines: list[str] = []
        doc = doctor(table, tmp_path, lines, buttons=False, port=busy.getsockname()[1])
        assert doc.run() is False
    status = {c.name: (c.status, c.detail) for c in doc.checks}
    assert status["Web port"][0] == "FAIL" and "systemctl stop mutiny" in status["Web port"][1]
    assert status["Journal"][0] == "FAIL"
    assert status["Buttons"][0] == "skip"


def test_on_a_pi_silent_screens_and_a_missing_hotspot_fail(table, tmp_path):
    silent_bus_answers = lambda bus, address, mux, channel: channel != 2  # noqa: E731
    lines: list[str] = []
    doc = doctor(table, tmp_path, lines, backend="pi", buttons=False,
                 probe=silent_bus_answers, connections=lambda: ["Wired connection 1"])
    assert doc.run() is False
    status = {c.name: (c.status, c.detail) for c in doc.checks}
    assert status["I2C screens"][0] == "FAIL" and "seat 3" in status["I2C screens"][1]
    assert status["Wi-Fi hotspot"][0] == "FAIL"
    assert "nmcli connection up mutiny-hotspot" in status["Wi-Fi hotspot"][1]


def test_on_a_pi_with_everything_up_the_pi_checks_pass(table, tmp_path):
    lines: list[str] = []
    doc = doctor(table, tmp_path, lines, backend="pi", buttons=False,
                 probe=lambda *a: True, connections=lambda: ["mutiny-hotspot"])
    assert doc.run() is True


def test_the_command_exits_zero_only_when_everything_passed(tmp_path, capsys):
    args = ["doctor", "--backend", "sim", "--no-buttons", "--data-dir", str(tmp_path),
            "--host", "127.0.0.1", "--port", "0"]
    assert main(args) == 0
    assert "All 8 checks passed." in capsys.readouterr().out
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        args[-1] = str(busy.getsockname()[1])
        assert main(args) == 1
