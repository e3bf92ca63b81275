"""The doctor's service lines (companion/doctor/service.py): the unit, the port, the
devices, the working directory, the journal in the service's data folder, the hotspot,
the boot config."""
from __future__ import annotations

import socket
from pathlib import Path

from companion.doctor import doctor_data_dir, read_unit
from companion.doctor.service import kernel_overlay_lines, unit_data_dir
from companion.seats import parse_table_config

from .parts import DIRECT, PANEL, FakeSMBus, failures, run

UNIT = {"User": "mutiny", "AmbientCapabilities": "CAP_NET_BIND_SERVICE",
        "WorkingDirectory": "/"}
UNIT_IN = Path(__file__).parents[2] / "hardware" / "mutiny.service.in"


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
    detail = failures(checks)["Journal"]
    assert "cannot write" in detail and f"sudo chown -R mutiny: {tmp_path / 'data'}" in detail


def test_the_journal_check_leaves_a_damaged_journal_as_it_found_it(tmp_path, factory):
    # An emptied journal beside its WAL: SQLite would delete that WAL at open, and then
    # `mutiny serve` could no longer keep the evidence (companion/damage.py).
    data = tmp_path / "data"
    data.mkdir()
    (data / "journal.sqlite3").write_bytes(b"")
    wal = b"\x37\x7f\x06\x82" + bytes(4096)
    (data / "journal.sqlite3-wal").write_bytes(wal)
    passed, checks, _ = run(tmp_path, factory, buttons=False)
    assert "Journal" not in failures(checks)
    assert (data / "journal.sqlite3-wal").read_bytes() == wal
    assert (data / "journal.sqlite3").read_bytes() == b""
    assert sorted(p.name for p in data.iterdir()) == ["journal.sqlite3",
                                                     "journal.sqlite3-wal"]


def test_the_journal_is_looked_for_where_the_installed_service_keeps_it(tmp_path,
                                                                         monkeypatch):
    # The unit the installer writes, filled in as it fills it in.
    text = UNIT_IN.read_text().replace("@DATA@", "/var/lib/mutiny").replace(
        "@VENV@", "/opt/mutiny/venv").replace("@CONFIG@", "/etc/mutiny/table.toml")
    (tmp_path / "mutiny.service").write_text(text)
    unit = read_unit(tmp_path / "mutiny.service")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # whoever runs the doctor
    monkeypatch.delenv("MUTINY_DATA_DIR", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    folder, source = doctor_data_dir(None, "pi", unit)
    assert folder == Path("/var/lib/mutiny") and "the service's" in source
    # without MUTINY_DATA_DIR in its environment, its ExecStart's --data-dir
    bare = dict(unit, Environment="PYTHONUNBUFFERED=1")
    assert unit_data_dir(bare) == Path("/var/lib/mutiny")
    # --data-dir wins; the sim backend uses what `mutiny serve` would
    assert doctor_data_dir(str(tmp_path / "x"), "pi", unit)[0] == tmp_path / "x"
    assert doctor_data_dir(None, "sim", unit)[0] == \
        tmp_path / "home" / ".local" / "share" / "mutiny"
    monkeypatch.setenv("MUTINY_DATA_DIR", str(tmp_path / "served"))
    assert doctor_data_dir(None, "pi", None)[0] == tmp_path / "served"


def test_a_hotspot_not_asked_for_is_not_installed_not_a_failure(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, buttons=False,
                            connections=lambda: (["Wired connection 1"], []))
    assert passed and checks["Wi-Fi hotspot"] == ("ok", "not installed (hardware/install.sh "
                                                         "--hotspot NAME adds one)")


def test_an_installed_hotspot_that_is_down(tmp_path, factory):
    passed, checks, _ = run(tmp_path, factory, buttons=False,
                            connections=lambda: (["mutiny-hotspot"], ["Wired connection 1"]))
    assert "sudo nmcli connection up mutiny-hotspot" in failures(checks)["Wi-Fi hotspot"]


def test_a_kernel_mux_overlay_in_the_boot_config(tmp_path, factory):
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=i2c_arm=on\n#dtoverlay=i2c-mux,pca9548\n[all]\n"
                    "dtoverlay=i2c-mux,pca9548,addr=0x70\n")
    passed, checks, _ = run(tmp_path, factory, buttons=False, boot_config=boot)
    assert list(failures(checks)) == ["Boot config"]
    detail = checks["Boot config"][1]
    assert detail.startswith(f"line 4 of {boot}, dtoverlay=i2c-mux,pca9548,addr=0x70, "
                             "gives the TCA9548A to the kernel's i2c-mux driver")
    assert "delete the line" in detail
    boot.write_text("dtparam=i2c_arm=on\n# dtoverlay=i2c-mux\ndtoverlay=vc4-kms-v3d\n")
    passed, checks, _ = run(tmp_path, factory, buttons=False, boot_config=boot)
    assert passed and "no kernel driver claims" in checks["Boot config"][1]


def test_kernel_overlay_lines_reads_only_active_overlay_lines():
    text = "dtoverlay=ssd1306,inverted\n# dtoverlay=i2c-mux\ndtoverlay = i2c-mux\n" \
           "dtparam=i2c-mux\ndtoverlay=i2c-gpio\n"
    assert [n for n, _, _ in kernel_overlay_lines(text)] == [1, 3]


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
