"""The doctor's checks of what the service will meet: its unit, the web port, access to
the I2C and GPIO devices, a writable working directory, the journal in the service's
own data folder, the Wi-Fi hotspot, and the boot config (no kernel driver may own a
part the companion drives itself).

``ServiceChecks`` is a part of ``Doctor`` (``companion.doctor.checks``): its methods
use the doctor's injected ``unit``, ``devices``, ``chips`` and ``connections``.
"""
from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from companion.seats.overlays import BOOT_CONFIG

from .report import FAIL, OK

HOTSPOT = "mutiny-hotspot"
UNIT = Path("/etc/systemd/system/mutiny.service")
#: Overlays that hand a part of the table to a kernel driver, which then owns its
#: address: i2c-dev refuses it with errno 16 and ``i2cdetect`` shows ``UU``. The
#: companion switches the TCA9548A's channels and draws the panels itself.
KERNEL_OVERLAYS = {
    "i2c-mux": "gives the TCA9548A to the kernel's i2c-mux driver, so the companion "
               "cannot switch its channels",
    "ssd1306": "gives a panel to the kernel's framebuffer driver",
}


def active_connections() -> tuple[list[str], list[str]] | None:
    """NetworkManager's ``(profiles, active)`` connection names (None without it)."""
    if shutil.which("nmcli") is None:
        return None
    names = []
    for extra in ([], ["--active"]):
        done = subprocess.run(["nmcli", "-t", "-f", "NAME", "connection", "show", *extra],
                              capture_output=True, text=True, timeout=10)
        if done.returncode != 0:
            return None
        names.append(done.stdout.split())
    return names[0], names[1]


def read_unit(path: Path = UNIT) -> dict[str, str] | None:
    """The ``Key=value`` lines of the installed systemd unit (None when not installed).
    A key given twice keeps its last value, except ``Environment``, whose assignments
    are all kept (joined by spaces, as systemd reads them)."""
    try:
        text = path.read_text()
    except OSError:
        return None
    keys: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if not sep or line.lstrip().startswith("#"):
            continue
        key, value = key.strip(), value.strip()
        if key == "Environment" and keys.get(key):
            value = f"{keys[key]} {value}"
        keys[key] = value
    return keys


def unit_data_dir(unit: dict[str, str] | None) -> Path | None:
    """The data folder the installed service runs with: ``MUTINY_DATA_DIR`` from its
    environment, else the ``--data-dir`` of its ``ExecStart`` (None without either)."""
    if not unit:
        return None
    for assignment in shlex.split(unit.get("Environment", "")):
        name, _, value = assignment.partition("=")
        if name == "MUTINY_DATA_DIR" and value:
            return Path(value)
    words = shlex.split(unit.get("ExecStart", ""))
    for word, following in zip(words, words[1:], strict=False):  # each word and the next
        if word == "--data-dir":
            return Path(following)
    return None


def doctor_data_dir(option: str | None, backend: str,
                    unit: dict[str, str] | None) -> tuple[Path, str]:
    """``(folder, where it comes from)``: the data folder whose journal the doctor
    checks. ``--data-dir`` first; on a Pi the installed service's own (its unit),
    not the folder of whoever runs the doctor; else the one ``mutiny serve`` uses."""
    from companion.serve import default_data_dir  # serve pulls in the web app: late
    if option:
        return Path(option), "--data-dir"
    found = unit_data_dir(unit) if backend == "pi" else None
    if found is not None:
        return found, f"the service's, from {UNIT}"
    return default_data_dir(), "as mutiny serve finds it"


def kernel_overlay_lines(text: str) -> list[tuple[int, str, str]]:
    """``(line number, line, what it does)`` for each active ``dtoverlay=`` line of a
    config.txt that hands a part of the table to a kernel driver."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        key, sep, value = line.strip().partition("=")
        if sep and key.strip() == "dtoverlay":
            overlay = value.split(",")[0].strip()
            if overlay in KERNEL_OVERLAYS:
                found.append((number, line.strip(), KERNEL_OVERLAYS[overlay]))
    return found


def gpio_chips() -> list[str]:
    """The GPIO character devices, ``/dev/gpiochip*``."""
    return sorted(str(path) for path in Path("/dev").glob("gpiochip*"))


def unprivileged_port_start() -> int:
    """The lowest port a process without CAP_NET_BIND_SERVICE may bind (Linux: 1024)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_unprivileged_port_start").read_text())
    except (OSError, ValueError):
        return 1024


class ServiceChecks:
    """The service's side of ``Doctor``: each method returns one line."""

    backend: str
    host: str
    port: int
    data_dir: Path
    data_source: str
    boot_config: Path | None
    unit: Any
    devices: Any
    chips: Any
    connections: Any

    def check_unit(self) -> tuple[str, str, str]:
        if self.backend == "sim":
            return "Service unit", OK, "none needed on the simulated table"
        unit = self.unit()
        if unit is None:
            return ("Service unit", FAIL, f"{UNIT} is not installed: run sudo "
                    "hardware/install.sh")
        return "Service unit", OK, f"{UNIT} runs as {unit.get('User', 'root')}"

    def check_boot_config(self) -> tuple[str, str, str]:
        """No ``dtoverlay=`` line may give a part the companion drives to the kernel."""
        name = "Boot config"
        if self.boot_config is None:
            return name, OK, "not read on the simulated table (--boot-config PATH reads one)"
        try:
            text = self.boot_config.read_text(errors="replace")
        except OSError as exc:
            return name, OK, f"{self.boot_config} not read ({exc.strerror}): not checked"
        found = kernel_overlay_lines(text)
        if found:
            number, line, does = found[0]
            return (name, FAIL, f"line {number} of {self.boot_config}, {line}, {does} (the "
                    f"address is then taken: errno 16, i2cdetect shows UU): delete the line "
                    f"(sudo nano {self.boot_config}) and reboot; the companion switches the "
                    "channels and draws the screens itself")
        return name, OK, f"{self.boot_config}: no kernel driver claims the mux or the panels"

    def check_port(self) -> tuple[str, str, str]:
        """Whether the service could listen, as it will: something already listening
        is found by connecting; a port below 1024 needs the unit's capability."""
        where = f"{self.host}:{self.port}"
        if self.port and self._listening():
            return ("Web port", FAIL, f"{where} is taken: is the service running? stop it "
                    "first (sudo systemctl stop mutiny), then run the doctor again")
        if 0 < self.port < unprivileged_port_start():
            unit = self.unit() if self.backend == "pi" else None
            caps = (unit or {}).get("AmbientCapabilities", "")
            if "CAP_NET_BIND_SERVICE" in caps:
                return ("Web port", OK, f"{where} is free; the service gets "
                        "CAP_NET_BIND_SERVICE from its unit to bind it")
            return ("Web port", FAIL, f"port {self.port} needs CAP_NET_BIND_SERVICE, which "
                    "only the installed service has: run hardware/install.sh, or use "
                    "--port 8000")
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
                probe.bind((self.host, self.port))
        except OSError as exc:
            return ("Web port", FAIL, f"{where} cannot be bound ({exc.strerror}): is the "
                    "service running? sudo systemctl stop mutiny")
        return "Web port", OK, f"{where} is free"

    def _listening(self) -> bool:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        try:
            with socket.create_connection((host, self.port), timeout=1):
                return True
        except OSError:
            return False

    def check_devices(self) -> tuple[str, str, str]:
        """The I2C and GPIO devices, read and written as this user (the service user
        when run as documented: sudo -u mutiny ...)."""
        if self.backend == "sim":
            return "Device access", OK, "simulated buses and pins"
        paths = [f"/dev/i2c-{bus}" for bus in self.used_buses()  # type: ignore[attr-defined]
                 if self.bus_exists(bus)]  # type: ignore[attr-defined]
        chips = self.chips()
        if not chips:
            return ("Device access", FAIL, "no GPIO chip (/dev/gpiochip*): is this a "
                    "Raspberry Pi? (--backend sim simulates one)")
        paths += chips[:1]
        denied = [p for p in paths if not self.devices(p)]
        if denied:
            groups = sorted({"i2c" if "i2c" in p else "gpio" for p in denied})
            user = (self.unit() or {}).get("User", "mutiny")
            commands = "; ".join(f"sudo adduser {user} {group}" for group in groups)
            return ("Device access", FAIL, f"cannot open {', '.join(denied)}: add the user "
                    f"to {' and '.join(groups)} ({commands}), then reboot")
        return "Device access", OK, f"{', '.join(paths)} readable and writable"

    def check_working_directory(self) -> tuple[str, str, str]:
        """lgpio makes its notification FIFO in the working directory (or $LG_WD)."""
        unit = self.unit() if self.backend == "pi" else None
        folder = Path((unit or {}).get("WorkingDirectory") or os.environ.get("LG_WD")
                      or self.data_dir)
        if not (folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)):
            return ("Working directory", FAIL, f"{folder} is not writable, and lgpio makes "
                    f"its notification FIFO there: sudo install -d -o mutiny {folder}")
        return "Working directory", OK, f"{folder} is writable (lgpio's FIFO)"

    def check_journal(self) -> tuple[str, str, str]:
        """The journal in the data folder the service uses (``doctor_data_dir``)."""
        path = self.data_dir / "journal.sqlite3"
        source = f" ({self.data_source})" if self.data_source else ""
        # The journal itself is never opened here: SQLite mends what it can at open (it
        # deletes the WAL of an emptied file), and `mutiny serve` must find any damage
        # as it is (companion/damage.py). Writing a file beside it proves the folder.
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.data_dir, prefix=".doctor-"):
                pass
            if path.exists() and not os.access(path, os.W_OK):
                raise PermissionError(f"{path.name} is not writable by this user")
        except OSError as exc:
            return ("Journal", FAIL, f"cannot write {path}{source}: {exc}; check the "
                    f"folder's owner (sudo chown -R mutiny: {self.data_dir})")
        return "Journal", OK, f"{path} is writable{source}"

    def check_hotspot(self) -> tuple[str, str, str]:
        known = self.connections()
        if known is None:
            return "Wi-Fi hotspot", OK, "not installed (no NetworkManager)"
        profiles, active = known
        if HOTSPOT not in profiles:
            return ("Wi-Fi hotspot", OK, "not installed (hardware/install.sh --hotspot NAME "
                    "adds one)")
        if HOTSPOT not in active:
            return ("Wi-Fi hotspot", FAIL, f"'{HOTSPOT}' is installed but not up: sudo "
                    f"nmcli connection up {HOTSPOT}")
        return "Wi-Fi hotspot", OK, f"'{HOTSPOT}' is up"


#: Where the Pi's boot config lives (Bookworm and later; older: /boot/config.txt).
DEFAULT_BOOT_CONFIG = Path(BOOT_CONFIG)
