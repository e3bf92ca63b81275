"""hardware/install.sh on what a first install meets: stale package lists, an archive
without python3-lgpio, the hotspot's WPA2 settings, its password in no process's
arguments and never shown, a hotspot renamed or given a new password, pods that install
from the service's venv, and the Python the system has (Bookworm's 3.11, Trixie's 3.13,
an older one refused). Same scratch root and stubs as test_install.py."""
from __future__ import annotations

import os
import subprocess
import uuid

from tests.hardware.test_install import INSTALL, STUBS, changes_logged, install, machine  # noqa: F401 (machine is a fixture)

PASSWORD = "aye aye cap"


def logged(state) -> list[str]:
    return (state / "log").read_text().splitlines()


def stub(machine, name: str, body: str) -> None:
    """Replace one of the machine's stand-in commands (the fixture's bin folder)."""
    _root, _state, env = machine
    bin_folder = env["PATH"].split(":")[0]
    path = f"{bin_folder}/{name}"
    with open(path, "w") as script:
        script.write(f'#!/bin/bash\necho "{name} $*" >> "$STATE/log"\n{body}\n')


def python_reporting(version: str) -> str:
    """A python3 stand-in that reports VERSION, else does what the fixture's does."""
    return f'case "$2" in *version_info*) echo {version}; exit 0 ;; esac\n' + STUBS["python3"]


def python_with_lgpio(importable: bool) -> str:
    """A python3 stand-in whose `import lgpio` works or not, else the fixture's."""
    return f'[ "$2" = "import lgpio" ] && exit {0 if importable else 1}\n' + STUBS["python3"]


def test_the_package_lists_are_read_before_anything_is_installed(machine):
    _root, state, _env = machine
    install(machine)
    apt = [line for line in logged(state) if line.startswith("apt-get")]
    assert apt[0] == "apt-get update -q"
    assert apt[1].startswith("apt-get install -y -q python3-venv")


def test_nothing_missing_means_no_package_list_update(machine):
    _root, state, _env = machine
    install(machine)
    before = [line for line in logged(state) if line.startswith("apt-get")]
    install(machine)
    assert [line for line in logged(state) if line.startswith("apt-get")] == before


KEYFILE = "etc/NetworkManager/system-connections/mutiny-hotspot.nmconnection"


def keyfile(text: str) -> dict[str, dict[str, str]]:
    """A NetworkManager keyfile's groups and keys (GLib key file syntax)."""
    groups: dict[str, dict[str, str]] = {}
    group = ""
    for line in text.splitlines():
        if line.startswith("["):
            group = line.strip("[]")
            groups[group] = {}
        elif "=" in line:
            key, _, value = line.partition("=")
            groups[group][key] = value
    return groups


def loaded(state) -> list[dict[str, dict[str, str]]]:
    """Every keyfile the stand-in nmcli was asked to load, in order."""
    files = sorted(state.glob("loaded-*.conf"), key=lambda f: int(f.stem.split("-")[1]))
    return [keyfile(f.read_text()) for f in files]


def test_the_hotspot_gets_networkmanagers_own_wpa2_settings(machine):
    root, state, _env = machine
    install(machine, "--hotspot", "Mutiny", password=PASSWORD)
    [load] = [line for line in logged(state) if line.startswith("nmcli connection load")]
    assert load == f"nmcli connection load {root}/{KEYFILE}"
    [conf] = loaded(state)
    assert conf["connection"]["id"] == "mutiny-hotspot"
    assert conf["connection"]["autoconnect-priority"] == "100"
    assert conf["wifi"] == {"band": "bg", "mode": "ap", "ssid": "Mutiny"}
    assert conf["wifi-security"] == {"group": "ccmp;", "key-mgmt": "wpa-psk",
                                     "pairwise": "ccmp;", "pmf": "1", "proto": "rsn;",
                                     "psk": PASSWORD.replace(" ", "\\s")}
    assert conf["ipv4"] == {"address1": "10.42.0.1/24", "method": "shared"}
    assert (state / "loaded-0.mode").read_text().strip() == "600"
    assert oct((root / KEYFILE).stat().st_mode & 0o777) == "0o600"


def test_the_password_is_in_no_processs_arguments(machine):
    """The stand-in nmcli records every process's arguments at the moment it loads the
    keyfile (install.sh's own among them) and every stand-in logs its own: the
    password is in none, whether it came on standard input or from a file."""
    root, state, _env = machine
    secret = "sea " + uuid.uuid4().hex[:12]  # no other process here can hold it
    install(machine, "--hotspot", "Mutiny", password=secret)
    password_file = root.parent / "hotspot-password"
    password_file.write_text("new " + secret + "\n")
    install(machine, "--hotspot", "Mutiny", "--hotspot-password-file", str(password_file))
    argv = (state / "argv").read_text()
    assert argv.count("install.sh --root") >= 2  # install.sh itself, both times
    assert "--hotspot Mutiny" in argv
    assert secret not in argv and secret.replace(" ", "\\s") not in argv
    assert secret not in (state / "log").read_text()
    first, second = loaded(state)
    assert first["wifi-security"]["psk"] == secret.replace(" ", "\\s")
    assert second["wifi-security"]["psk"] == ("new " + secret).replace(" ", "\\s")


def test_a_new_name_or_password_changes_the_hotspot(machine):
    root, state, _env = machine
    install(machine, "--hotspot", "Mutiny", password=PASSWORD)
    same = install(machine, "--hotspot", "Mutiny", password=PASSWORD)
    assert same.strip().endswith("Nothing to change: Mutiny Table is installed.")
    renamed = install(machine, "--hotspot", "Mutiny Deck", password=PASSWORD)
    assert "change: change the hotspot (its name or password)" in renamed
    repassed = install(machine, "--hotspot", "Mutiny Deck", password="walk the plank")
    assert "change: change the hotspot (its name or password)" in repassed
    assert "sudo nmcli connection up mutiny-hotspot" in repassed
    first, second, third = loaded(state)
    assert second["wifi"]["ssid"] == "Mutiny Deck"
    assert third["wifi-security"]["psk"] == "walk\\sthe\\splank"
    uuids = {conf["connection"]["uuid"] for conf in (first, second, third)}
    assert len(uuids) == 1  # the same connection, changed
    assert keyfile((root / KEYFILE).read_text()) == third


def test_a_hotspot_an_earlier_installer_made_keeps_its_connection(machine):
    """`nmcli connection add` made it, so NetworkManager knows it: the keyfile takes
    its UUID, and NetworkManager changes that connection rather than adding one."""
    _root, state, _env = machine
    (state / "nm").write_text("mutiny-hotspot\n")
    (state / "nm-uuid").write_text("6f1c0e52-3c2a-4d55-9d0e-2b1f2c7d9a11\n")
    out = install(machine, "--hotspot", "Mutiny", password=PASSWORD)
    assert "change: change the hotspot (its name or password)" in out
    [conf] = loaded(state)
    assert conf["connection"]["uuid"] == "6f1c0e52-3c2a-4d55-9d0e-2b1f2c7d9a11"


def test_a_dry_run_never_shows_the_wifi_password(machine):
    root, state, _env = machine
    out = install(machine, "--dry-run", "--hotspot", "Mutiny", password=PASSWORD)
    assert "would: create the hotspot: NetworkManager loads" in out
    assert f"would: write /{KEYFILE} (mode 600)" in out
    assert PASSWORD not in out and PASSWORD.replace(" ", "\\s") not in out
    assert not (root / KEYFILE).exists() and not (state / "argv").exists()


def test_the_password_can_come_from_a_file_or_standard_input_never_an_argument(machine):
    root, state, env = machine
    secret_file = root.parent / "secret"
    secret_file.write_text(PASSWORD + "\r\n")  # a file saved on Windows
    install(machine, "--hotspot", "Mutiny", "--hotspot-password-file", str(secret_file))
    install(machine, "--hotspot", "Mutiny", "--hotspot-password-file", "-", password="pieces of 8")
    assert [conf["wifi-security"]["psk"] for conf in loaded(state)] == [
        PASSWORD.replace(" ", "\\s"), "pieces\\sof\\s8"]
    refused = subprocess.run(["bash", str(INSTALL), "--root", str(root), "--hotspot", "Mutiny",
                              "--password", PASSWORD], env=env, capture_output=True, text=True)
    assert refused.returncode == 2 and "not taken as an argument" in refused.stderr


def test_pods_install_from_the_service_venv_and_mutiny_is_on_the_path(machine):
    root, state, _env = machine
    dry = install(machine, "--dry-run")
    assert "would: put mutiny on the PATH (/usr/local/bin/mutiny)" in dry
    install(machine)
    pip = [line for line in logged(state) if line.startswith("pip ")][0]
    assert pip.endswith(f"install --quiet --editable {root}/opt/mutiny/src[pod]")
    link = root / "usr/local/bin/mutiny"
    assert link.is_symlink() and str(link.readlink()) == "/opt/mutiny/venv/bin/mutiny"
    count = len(changes_logged(state))
    assert install(machine).strip().endswith("Nothing to change: Mutiny Table is installed.")
    assert len(changes_logged(state)) == count


def test_an_archive_without_python3_lgpio_gets_lgpio_from_pypi(machine):
    """Plain Debian (not Raspberry Pi OS) has no python3-lgpio: the rest still installs,
    and the venv gets lgpio from PyPI (the system python3 cannot import it)."""
    root, state, _env = machine
    stub(machine, "apt-get", 'case " $* " in *" python3-lgpio "*) exit 100 ;; esac;'
                             ' for p in "$@"; do touch "$STATE/pkg-$p"; done')
    stub(machine, "python3", python_with_lgpio(False))
    out = install(machine)
    assert "python3-lgpio is not in this system's package archive" in out
    assert "apt-get install -y -q python3-venv i2c-tools avahi-daemon" in logged(state)
    pips = [line for line in logged(state) if line.startswith("pip ")]
    assert pips[0].endswith("/opt/mutiny/src[pod]") and pips[1].endswith("install --quiet lgpio")
    # What pip would have put in the venv: the next run asks apt for nothing.
    site = root / "opt/mutiny/venv/lib/python3.11/site-packages"
    site.mkdir(parents=True)
    (site / "lgpio.py").write_text("")
    count = len(changes_logged(state))
    assert install(machine).strip().endswith("Nothing to change: Mutiny Table is installed.")
    assert len(changes_logged(state)) == count


def test_a_system_with_lgpio_keeps_its_own(machine):
    _root, state, _env = machine
    stub(machine, "python3", python_with_lgpio(True))
    install(machine)
    [pip] = [line for line in logged(state) if line.startswith("pip ")]
    assert pip.endswith("[pod]")


def test_no_lgpio_to_be_had_is_said_once_and_not_fatal(machine):
    """Debian trixie: no python3-lgpio in the archive, and PyPI's lgpio has no wheel for
    Python 3.13 (it needs swig to build): the companion still installs, the builder is
    told, and the next run asks for nothing again."""
    root, state, _env = machine
    stub(machine, "apt-get", 'case " $* " in *" python3-lgpio "*) exit 100 ;; esac;'
                             ' for p in "$@"; do touch "$STATE/pkg-$p"; done')
    stub(machine, "python3", python_with_lgpio(False))
    venv_python = root / "opt/mutiny/venv/bin/python"  # made here: pip fails on lgpio
    venv_python.parent.mkdir(parents=True)
    venv_python.write_text(f'#!/bin/sh\necho "pip $*" >> {state}/log\n'
                           'case "$*" in *" lgpio") exit 1 ;; esac\n')
    venv_python.chmod(0o755)
    out = install(machine)
    assert "warning: no lgpio for this Python" in out and "changes made" in out
    assert (root / "etc/systemd/system/mutiny.service").exists()
    count = len(changes_logged(state))
    assert install(machine).strip().endswith("Nothing to change: Mutiny Table is installed.")
    assert len(changes_logged(state)) == count


def test_trixie_with_python_3_13_installs(machine):
    root, state, _env = machine
    (root / "etc").mkdir()
    (root / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\n'
                                         'VERSION_CODENAME=trixie\n')
    stub(machine, "python3", python_reporting("3.13"))
    out = install(machine, "--seats", "6", "--hotspot", "Mutiny", password=PASSWORD)
    assert "System: Debian GNU/Linux 13 (trixie), Python 3.13" in out
    assert "changes made" in out


def test_bookworm_is_named_in_the_plan(machine):
    root, _state, _env = machine
    (root / "etc").mkdir()
    (root / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n')
    stub(machine, "python3", python_reporting("3.11"))
    out = install(machine, "--dry-run")
    assert out.splitlines()[1] == "System: Debian GNU/Linux 12 (bookworm), Python 3.11"


def test_a_system_older_than_bookworm_is_refused_before_any_change(machine):
    root, state, env = machine
    (root / "etc").mkdir()
    (root / "etc/os-release").write_text('PRETTY_NAME="Raspbian GNU/Linux 11 (bullseye)"\n')
    stub(machine, "python3", python_reporting("3.9"))
    done = subprocess.run(["bash", str(INSTALL), "--root", str(root)], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "needs Python 3.11 or later" in done.stderr
    assert "(Raspbian GNU/Linux 11 (bullseye)) has Python 3.9" in done.stderr
    assert changes_logged(state) == []



def test_a_pip_that_failed_is_run_again_next_time(machine):
    """A pip that fails (no network, a full card) leaves the source copied and the venv
    made: the next run must still install the companion, not take it for done."""
    root, state, env = machine
    venv_python = root / "opt/mutiny/venv/bin/python"
    venv_python.parent.mkdir(parents=True)
    venv_python.write_text(f'#!/bin/sh\necho "pip $*" >> {state}/log\nexit 1\n')
    venv_python.chmod(0o755)
    failed = subprocess.run(["bash", str(INSTALL), "--root", str(root)], env=env,
                            capture_output=True, text=True, timeout=120)
    assert failed.returncode != 0
    venv_python.write_text(f'#!/bin/sh\necho "pip $*" >> {state}/log\n')
    out = install(machine)
    assert "change: install the companion" in out
    assert len([line for line in logged(state) if "--editable" in line]) == 2
    assert install(machine).strip().endswith("Nothing to change: Mutiny Table is installed.")


def test_on_a_terminal_the_password_is_asked_for_twice(machine):
    """Standard input a terminal (a pty here): asked twice, not echoed; two that
    differ are refused before anything changes."""
    root, state, env = machine

    def asked(first: str, second: str) -> subprocess.CompletedProcess:
        controller, terminal = os.openpty()
        os.write(controller, f"{first}\n{second}\n".encode())
        try:
            return subprocess.run(["bash", str(INSTALL), "--root", str(root), "--hotspot",
                                   "Mutiny"], env=env, stdin=terminal, capture_output=True,
                                  text=True, timeout=120)
        finally:
            os.close(terminal)
            os.close(controller)

    refused = asked(PASSWORD, "aye aye sir")
    assert refused.returncode == 2 and "the two passwords differ" in refused.stderr
    assert "Password for the Wi-Fi 'Mutiny'" in refused.stderr
    assert changes_logged(state) == []
    done = asked(PASSWORD, PASSWORD)
    assert done.returncode == 0, done.stderr
    assert PASSWORD not in done.stdout + done.stderr
    assert [conf["wifi-security"]["psk"] for conf in loaded(state)] == [
        PASSWORD.replace(" ", "\\s")]
