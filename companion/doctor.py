"""``mutiny doctor``: check the table before a game night.

Each check prints one numbered line, ``ok``, ``FAIL`` or ``skip``, with what it found
and, on a failure, what to do. The exit status is 0 only when nothing failed. The
checks run on the sim backend too (buttons are then pressed by the test or the /sim
page), so the doctor itself is tested.
"""
from __future__ import annotations

import shutil
import socket
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.engine import Display
from companion.seats.config import TableConfig
from companion.seats.wiring import PHYSICAL

ROLES = ("previous", "select", "next")
OK, FAIL, SKIP = "ok", "FAIL", "skip"
HOTSPOT = "mutiny-hotspot"


@dataclass
class Check:
    """One line of the doctor's report."""

    name: str
    status: str
    detail: str


def i2c_answers(bus: int, address: int, mux: int | None = None,
                channel: int | None = None) -> bool:
    """True when a device acknowledges ``address`` on ``bus`` (behind ``mux``)."""
    from smbus2 import SMBus
    try:
        with SMBus(bus) as smbus:
            if mux is not None:
                smbus.write_byte(mux, 1 << channel)
            smbus.read_byte(address)
            return True
    except OSError:
        return False


def active_connections() -> list[str] | None:
    """Names of NetworkManager's active connections (None without NetworkManager)."""
    if shutil.which("nmcli") is None:
        return None
    done = subprocess.run(["nmcli", "-t", "-f", "NAME", "connection", "show", "--active"],
                          capture_output=True, text=True, timeout=10)
    return done.stdout.split() if done.returncode == 0 else None


class Doctor:
    """The checks, over a table's opened seat hardware."""

    def __init__(self, config: TableConfig, hardware: Any, backend: str, data_dir: Path,
                 host: str, port: int, button_timeout: float = 20.0, buttons: bool = True,
                 say: Callable[[str], None] = print,
                 prompt: Callable[[int, str], None] | None = None,
                 probe: Callable[..., bool] = i2c_answers,
                 connections: Callable[[], list[str] | None] = active_connections,
                 pods: Callable[[], list[dict[str, Any]]] | None = None):
        self.config, self.hardware, self.backend = config, hardware, backend
        self.data_dir, self.host, self.port = Path(data_dir), host, port
        self.button_timeout, self.test_buttons = button_timeout, buttons
        self.say = say
        self.prompt = prompt or (lambda seat, role: say(f"    seat {seat + 1}: press {role}"))
        self.probe, self.connections, self.pods = probe, connections, pods
        self.checks: list[Check] = []

    def run(self) -> bool:
        """Run every check in order, printing as it goes; True when none failed."""
        self.say(f"Mutiny Table doctor: {len(self.config.seats)} seats, {self.backend}"
                 f" backend, config {self.config.source}")
        for check in (self.check_config, self.check_i2c, self.check_pods,
                      self.check_screens, self.check_buttons, self.check_journal,
                      self.check_port, self.check_hotspot):
            self._report(*check())
        failed = [c for c in self.checks if c.status == FAIL]
        total = len(self.checks)
        self.say(f"{total - len(failed)} of {total} checks passed." if failed
                 else f"All {total} checks passed.")
        return not failed

    def _report(self, name: str, status: str, detail: str) -> None:
        self.checks.append(Check(name, status, detail))
        number = len(self.checks)
        self.say(f"{number:2}. {name:.<24} {status:<4} {detail}")

    # -- the checks ---------------------------------------------------------------------
    def check_config(self) -> tuple[str, str, str]:
        muxes = {(s.screen.bus, s.screen.mux) for s in self.config.seats
                 if s.screen and s.screen.mux is not None}
        pods = sum(1 for s in self.config.seats if s.pod)
        return ("Table config", OK, f"{len(self.config.seats)} seats, {len(muxes)} "
                f"multiplexer(s), {pods} pod(s)")

    def check_i2c(self) -> tuple[str, str, str]:
        screens = [s for s in self.config.seats if s.screen]
        if not screens:
            return "I2C screens", SKIP, "no screen is wired to the Pi"
        if self.backend == "sim":
            return "I2C screens", OK, f"{len(screens)} simulated screens answer"
        silent = [s for s in screens if not self.probe(s.screen.bus, s.screen.address,
                                                       s.screen.mux, s.screen.channel)]
        if silent:
            where = "; ".join(f"seat {s.number} ({s.screen.describe()})" for s in silent)
            return ("I2C screens", FAIL, f"no answer from {where}: check its four wires "
                    f"and `i2cdetect -y {silent[0].screen.bus}`")
        return "I2C screens", OK, f"{len(screens)} screens answer"

    def check_pods(self) -> tuple[str, str, str]:
        wanted = [s for s in self.config.seats if s.pod]
        if not wanted:
            return "Seat pods", SKIP, "no pods in this config"
        found = {p["id"]: p for p in (self.pods() if self.pods else [])}
        missing = [s for s in wanted if not found.get(s.pod, {}).get("connected")]
        if missing:
            names = ", ".join(f"seat {s.number} ({s.pod})" for s in missing)
            return "Seat pods", FAIL, f"not connected: {names}: check the USB cable"
        return "Seat pods", OK, f"{len(wanted)} pods answer"

    def check_screens(self) -> tuple[str, str, str]:
        broken = []
        for index, seat in enumerate(self.hardware):
            try:
                seat.show(Display(title=f"SEAT {index + 1}", lines=("Mutiny doctor",
                                                                   "Is this lit?")))
            except Exception as exc:  # a screen that cannot draw is what we look for
                broken.append(f"seat {index + 1}: {exc}")
        if broken:
            return "Screens", FAIL, "; ".join(broken)
        return "Screens", OK, "each shows its seat number: look round the table"

    def check_buttons(self) -> tuple[str, str, str]:
        if not self.test_buttons:
            return "Buttons", SKIP, "not asked for (--no-buttons)"
        silent = []
        for index, seat in enumerate(self.hardware):
            config = self.config.seats[index]
            if config.buttons is None:
                continue
            for role in ROLES:
                if not self._pressed(index, seat, role):
                    gpio = getattr(config.buttons, role)
                    silent.append(f"seat {index + 1} {role} (GPIO{gpio}, pin "
                                  f"{PHYSICAL.get(gpio, '?')})")
        if silent:
            return ("Buttons", FAIL, f"never pressed within {self.button_timeout:.0f} s: "
                    + "; ".join(silent) + ": check the button's two wires")
        return "Buttons", OK, "every button answered"

    def _pressed(self, index: int, seat: Any, role: str) -> bool:
        seat.show(Display(title=f"SEAT {index + 1}", lines=(f"Press {role.upper()}",)))
        button = seat.buttons[role]
        self.prompt(index, role)
        if not button.wait_for_press(self.button_timeout):
            return False
        button.wait_for_release(self.button_timeout)
        return True

    def check_journal(self) -> tuple[str, str, str]:
        path = self.data_dir / "journal.sqlite3"
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            with sqlite3.connect(path, timeout=2) as db:
                db.execute("BEGIN IMMEDIATE")  # takes the write lock: proves we may write
                db.execute("ROLLBACK")
        except (OSError, sqlite3.Error) as exc:
            return ("Journal", FAIL, f"cannot write {path}: {exc}; check the folder's owner"
                    " (sudo chown mutiny: /var/lib/mutiny)")
        return "Journal", OK, f"{path} is writable"

    def check_port(self) -> tuple[str, str, str]:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
                probe.bind((self.host, self.port))
        except OSError as exc:
            return ("Web port", FAIL, f"{self.host}:{self.port} is taken ({exc.strerror});"
                    " is the service running? stop it first: sudo systemctl stop mutiny")
        return "Web port", OK, f"{self.host}:{self.port} is free"

    def check_hotspot(self) -> tuple[str, str, str]:
        if self.backend == "sim":
            return "Wi-Fi hotspot", SKIP, "not on the simulated table"
        active = self.connections()
        if active is None:
            return "Wi-Fi hotspot", FAIL, "NetworkManager (nmcli) is not there"
        if HOTSPOT not in active:
            return ("Wi-Fi hotspot", FAIL, f"'{HOTSPOT}' is not up: sudo nmcli connection "
                    f"up {HOTSPOT} (or run hardware/install.sh --hotspot NAME)")
        return "Wi-Fi hotspot", OK, f"'{HOTSPOT}' is up"
