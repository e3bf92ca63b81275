"""``mutiny pod install PORT``: put the pod firmware on a Pico and set its seat.

It runs mpremote (the ``pod`` extra, which hardware/install.sh installs) twice: once to read the Pico's
unique id, once to copy firmware/*.py and pod_config.json and reset the board. The id
is what the table config names the pod by (``pod = "<id>"``). A pod already running the
firmware hands its port to mpremote by itself (firmware/podhw.py); stop ``mutiny
serve`` first, or it keeps talking on the same port.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence, TextIO

from companion.errors import MutinyError

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
#: Settings of pod_config.json the installer may write (firmware/podconfig.py has the
#: defaults): the seat, GPIO numbers, and the panel's orientation.
PIN_NAMES = ("previous", "select", "next", "led", "sda", "scl")
UID_MARK = "POD-ID"
READ_UID = ("import machine, binascii; "
            f'print("{UID_MARK}", binascii.hexlify(machine.unique_id()).decode())')

Runner = Callable[..., subprocess.CompletedProcess]


class InstallError(MutinyError):
    """The pod could not be installed; the message says what to do."""


@dataclass
class InstallPlan:
    """What ``install`` does, in order; ``describe()`` is the dry run's output."""

    port: str
    files: list[Path]
    config: dict[str, object] | None
    seat: int | None
    mpremote: list[str] = field(default_factory=lambda: [sys.executable, "-m", "mpremote"])

    def read_uid(self) -> list[str]:
        return [*self.mpremote, "connect", self.port, "exec", READ_UID]

    def copy(self, config_path: str) -> list[str]:
        command = [*self.mpremote, "connect", self.port, "cp", *map(str, self.files), ":"]
        if self.config is not None:
            command += ["+", "cp", config_path, ":pod_config.json"]
        return command + ["+", "reset"]

    def describe(self) -> list[str]:
        lines = [f"would run: {_shell(self.read_uid())}"]
        if self.config is not None:
            lines.append(f"would write pod_config.json: {json.dumps(self.config)}")
        lines.append(f"would run: {_shell(self.copy('<pod_config.json>'))}")
        lines.append(table_hint(self.seat, "<the id it reads>"))
        return lines


def plan(port: str, seat: int | None = None, pins: Sequence[str] = (), flip: bool = False,
         firmware: Path | None = None) -> InstallPlan:
    """Check the arguments and the firmware folder; build the plan."""
    folder = Path(firmware) if firmware else FIRMWARE_DIR
    # main.py last: a copy cut short leaves a board that still starts its REPL.
    files = sorted(folder.glob("*.py"), key=lambda path: (path.name == "main.py", path.name))
    if not (folder / "main.py").is_file() or not (folder / "podlink.py").is_file():
        raise InstallError(f"no pod firmware in {folder}. Fix: pass --firmware DIR, the "
                           "firmware/ folder of a Mutiny Table checkout")
    if seat is not None and not 1 <= seat <= 255:
        raise InstallError(f"--seat {seat} is out of range. Fix: give the seat number, 1-255")
    config: dict[str, object] = {}
    if seat is not None:
        config["seat"] = seat
    config.update(_pins(pins))
    if flip:
        config["flip"] = True
    return InstallPlan(port, files, config or None, seat)


def _pins(pins: Sequence[str]) -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    for item in pins:
        name, sep, value = item.partition("=")
        name, value = name.strip().lower(), value.strip().upper().removeprefix("GP")
        if not sep or name not in PIN_NAMES:
            raise InstallError(f"--pin {item!r} is not NAME=GPIO. Fix: NAME is one of "
                               f"{', '.join(PIN_NAMES)}, e.g. --pin select=11")
        if name == "led" and value == "NONE":
            out[name] = None
        elif value.isdigit() and int(value) <= 29:
            out[name] = int(value)
        else:
            raise InstallError(f"--pin {item!r}: {value!r} is not a Pico GPIO. Fix: use "
                               "0-29 (GP10 is 10), or led=none")
    return out


def require_mpremote() -> None:
    """Refuse early, with the fix, when mpremote is not installed."""
    import importlib.util
    if importlib.util.find_spec("mpremote") is None:
        # On Raspberry Pi OS the system Python refuses pip (externally managed): the fix
        # names this very interpreter, the installed service's venv.
        raise InstallError(
            f"mpremote is not installed in {sys.executable}. Fix: run hardware/install.sh "
            f"again (it installs the pod extra), or {sys.executable} -m "
            "pip install 'mutiny-table[pod]' (or pip install mpremote)")


def install(install_plan: InstallPlan, out: TextIO, run: Runner = subprocess.run) -> str:
    """Carry the plan out; returns the pod's unique id."""
    uid = _read_uid(install_plan, run)
    print(f"pod id: {uid}", file=out)
    with tempfile.TemporaryDirectory() as folder:
        config_path = str(Path(folder) / "pod_config.json")
        if install_plan.config is not None:
            Path(config_path).write_text(json.dumps(install_plan.config) + "\n")
        _run(run, install_plan.copy(config_path), capture=False)
    print(f"firmware copied to {install_plan.port}; the pod restarts.", file=out)
    print(table_hint(install_plan.seat, uid), file=out)
    return uid


def _read_uid(install_plan: InstallPlan, run: Runner) -> str:
    result = _run(run, install_plan.read_uid(), capture=True)
    for line in (result.stdout or "").splitlines():
        if line.startswith(UID_MARK + " "):
            return line.split()[1].lower()
    raise InstallError(f"the board on {install_plan.port} did not say its id (it printed "
                       f"{(result.stdout or '').strip()[:200]!r}). Fix: is it a Pico running "
                       "MicroPython? Hold select while plugging it in to keep the pod "
                       "firmware from starting, then try again")


def _run(run: Runner, command: list[str], capture: bool) -> subprocess.CompletedProcess:
    try:
        result = run(command, capture_output=capture, text=True, check=False)
    except FileNotFoundError as exc:
        raise InstallError(f"cannot run {command[0]}: {exc}") from exc
    if result.returncode != 0:
        detail = ((result.stderr or "") if capture else "").strip()
        raise InstallError(f"{_shell(command)} failed (exit {result.returncode})"
                           + (f": {detail[-300:]}" if detail else ""))
    return result


def table_hint(seat: int | None, uid: str) -> str:
    """What to put in the table config so the table finds this pod."""
    where = f"seat {seat}'s [[seat]] block" if seat else "the [[seat]] block of its seat"
    return f'then add to the table config, in {where}: pod = "{uid}"'


def _shell(command: Sequence[str]) -> str:
    import shlex
    return " ".join(shlex.quote(part) for part in command)
