"""hardware/install.sh on what a first install meets: stale package lists, an archive
without python3-lgpio, the hotspot's WPA2 settings, a password kept out of the dry run,
pods that install from the service's venv, and the Python the system has (Bookworm's
3.11, Trixie's 3.13, an older one refused). Same scratch root and stubs as
test_install.py."""
from __future__ import annotations

import subprocess

from tests.hardware.test_install import (  # noqa: F401 (machine is a fixture)
    INSTALL, STUBS, changes_logged, install, machine)

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


def test_the_hotspot_gets_networkmanagers_own_wpa2_settings(machine):
    _root, state, _env = machine
    install(machine, "--hotspot", "Mutiny", "--password", PASSWORD)
    [add] = [line for line in logged(state) if line.startswith("nmcli connection add")]
    for setting in ("wifi-sec.key-mgmt wpa-psk", "wifi-sec.proto rsn",
                    "wifi-sec.pairwise ccmp", "wifi-sec.group ccmp", "wifi-sec.pmf disable",
                    "802-11-wireless.mode ap", "ipv4.method shared",
                    f"wifi-sec.psk {PASSWORD}"):
        assert f" {setting}" in add, setting


def test_a_dry_run_never_shows_the_wifi_password(machine):
    out = install(machine, "--dry-run", "--hotspot", "Mutiny", "--password", PASSWORD)
    [hotspot] = [line for line in out.splitlines() if line.startswith("would: create the hotspot")]
    assert PASSWORD not in out
    assert "wifi-sec.psk ********" in hotspot and "ssid Mutiny" in hotspot


def test_a_password_that_is_also_an_ordinary_word_is_still_hidden(machine):
    out = install(machine, "--dry-run", "--hotspot", "Mutiny", "--password", "mutiny-hotspot")
    assert "mutiny-hotspot" not in out.replace("con-name ********", "")
    assert "wifi-sec.psk ********" in out


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
    out = install(machine, "--seats", "6", "--hotspot", "Mutiny", "--password", PASSWORD)
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
