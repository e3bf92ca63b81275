"""hardware/arm-root-check.sh, the slow check (`./dev arm-check`, docs/raspberry-pi.md):
its pure parts, run by sourcing the script. Building a root takes a quarter of an hour
under qemu, so the full run is not a test; what it relies on is: the binfmt registration
line read from Debian's file, the stand-ins it writes into the root (which must keep
their state, so a second install changes nothing), and the clean environment."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.hardware.test_install import INSTALL, changes_logged, machine  # noqa: F401

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "hardware" / "arm-root-check.sh"

#: Debian's /usr/lib/binfmt.d/qemu-aarch64.conf (qemu-user-static 7.2), as the kernel reads it.
AARCH64 = (r":qemu-aarch64:M::\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00"
           r"\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff"
           r"\xff\xff\xff\xfe\xff\xff\xff:/usr/libexec/qemu-binfmt/aarch64-binfmt-P:OPF")


def sourced(script: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run SCRIPT in bash with the check's functions defined (and nothing run)."""
    return subprocess.run(["bash", "-c", f'source "{CHECK}"\n{script}'], env=env,
                          capture_output=True, text=True, timeout=60)


def test_the_check_passes_shellcheck():
    shellcheck = shutil.which("shellcheck", path=str(Path(sys.executable).parent)) or \
        shutil.which("shellcheck")
    done = subprocess.run([shellcheck, "--severity=style", str(CHECK)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout


def test_sourcing_the_check_runs_nothing():
    done = sourced("echo sourced")
    assert done.returncode == 0 and done.stdout == "sourced\n"


def test_the_registration_line_is_the_first_that_is_not_a_comment(tmp_path):
    conf = tmp_path / "qemu-aarch64.conf"
    conf.write_text(f"# qemu-user-static\n\n{AARCH64}\n")
    done = sourced(f'line=$(binfmt_line "{conf}"); printf "%s\\n" "$line"; binfmt_name "$line"')
    assert done.stdout.splitlines() == [AARCH64, "qemu-aarch64"]


def test_a_registration_line_may_use_another_separator():
    done = sourced("binfmt_name '|my-arm|M::x:y:/usr/bin/q:F'")
    assert done.stdout == "my-arm\n"


def test_a_file_without_a_registration_line_is_refused(tmp_path):
    conf = tmp_path / "empty.conf"
    conf.write_text("# nothing here\n")
    done = sourced(f'binfmt_line "{conf}"')
    assert done.returncode == 1 and "no registration line" in done.stderr


def test_the_qemu_name_of_each_architecture(tmp_path):
    """On an amd64 host (a stand-in dpkg says so): arm64 runs under qemu-aarch64, amd64
    needs no emulation."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "dpkg").write_text("#!/bin/sh\necho amd64\n")
    (bin_folder / "dpkg").chmod(0o755)
    env = {"PATH": f"{bin_folder}:/usr/bin:/bin"}
    done = sourced('for a in arm64 armhf amd64; do echo "$a=$(qemu_arch $a)"; done', env)
    assert done.stdout.splitlines() == ["arm64=aarch64", "armhf=arm", "amd64="]
    refused = sourced("qemu_arch sparc64", env)
    assert refused.returncode == 1 and "no qemu name known for sparc64" in refused.stderr


def test_the_stand_ins_keep_their_state_so_a_second_install_changes_nothing(machine, tmp_path):
    """The stand-ins the check writes into the root, run in front of the installer on a
    scratch root (apt-get, useradd and the rest stay the fixture's)."""
    root, state, env = machine
    bin_folder = Path(env["PATH"].split(":")[0])
    stub_state = tmp_path / "stub-state"
    made = sourced(f'STUB_STATE="{stub_state}"\n'
                   f'for name in "${{STUBBED[@]}}"; do stub_body "$name" > "{bin_folder}/$name";'
                   f' chmod 0755 "{bin_folder}/$name"; done')
    assert made.returncode == 0, made.stderr
    args = ["bash", str(INSTALL), "--root", str(root), "--hotspot", "Mutiny",
            "--hostname", "mutiny"]  # the password on standard input
    first = subprocess.run(args, env=env, input="aye aye cap\n", capture_output=True,
                           text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert "change: create the hotspot" in first.stdout
    calls = (stub_state / "log").read_text().splitlines()
    assert "raspi-config nonint do_i2c 0" in calls
    assert "systemctl enable mutiny.service" in calls
    assert "hostnamectl set-hostname mutiny" in calls
    assert (stub_state / "hostname").read_text() == "mutiny\n"
    count = len(changes_logged(state))
    second = subprocess.run(args, env=env, input="aye aye cap\n", capture_output=True,
                            text=True, timeout=120)
    assert second.stdout.strip().endswith("Nothing to change: Mutiny Table is installed.")
    assert len(changes_logged(state)) == count
    assert len((stub_state / "log").read_text().splitlines()) > len(calls)  # asked, not changed


def test_there_is_a_stand_in_only_for_what_needs_a_running_pi():
    done = sourced('printf "%s\\n" "${STUBBED[@]}"; stub_body apt-get')
    assert done.stdout.split("#!")[0].split() == [
        "systemctl", "nmcli", "raspi-config", "hostnamectl", "hostname"]
    assert done.returncode == 1 and "no stub for apt-get" in done.stderr


def test_no_daemon_starts_in_the_root(tmp_path):
    policy = tmp_path / "policy-rc.d"
    policy.write_text(sourced("policy_rc_d").stdout)
    policy.chmod(0o755)
    assert subprocess.run([str(policy), "avahi-daemon", "start"]).returncode == 101


def test_commands_in_the_root_see_a_clean_environment_with_the_ca_bundle():
    lines = sourced("chroot_env").stdout.splitlines()
    names = [line.split("=")[0] for line in lines]
    assert names == ["PATH", "HOME", "LANG", "DEBIAN_FRONTEND", "PIP_CERT",
                     "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "PIP_DISABLE_PIP_VERSION_CHECK",
                     "PIP_DEFAULT_TIMEOUT"]
    assert lines[0].startswith("PATH=/usr/local/lib/mutiny-check/stubs:")
    assert "PIP_CERT=/usr/local/share/mutiny-check/ca.crt" in lines


def test_help_and_a_wrong_option():
    done = subprocess.run(["bash", str(CHECK), "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "--suite NAME" in done.stdout
    assert "debootstrap --foreign" in done.stdout
    wrong = subprocess.run(["bash", str(CHECK), "--frobnicate"], capture_output=True,
                           text=True)
    assert wrong.returncode == 2 and "unknown option --frobnicate" in wrong.stderr


def test_a_root_with_anything_mounted_in_it_is_never_removed(tmp_path):
    """A bind mount of /dev inside the root would take the host's /dev with it."""
    root = tmp_path / "bookworm-arm64.work"
    (root / "dev").mkdir(parents=True)
    (root / "etc").mkdir()
    mounts = tmp_path / "mounts"
    mounts.write_text(f"proc /proc proc rw 0 0\nudev {root}/dev devtmpfs rw 0 0\n")
    kept = sourced(f'MOUNTS="{mounts}"; remove_root "{root}"')
    assert kept.returncode == 1 and "still mounted below" in kept.stderr
    assert (root / "etc").is_dir()
    # A mount of a sibling whose name starts the same is not inside it.
    mounts.write_text(f"udev {root}-other/dev devtmpfs rw 0 0\n")
    removed = sourced(f'MOUNTS="{mounts}"; remove_root "{root}"')
    assert removed.returncode == 0 and not root.exists()


def test_a_stage_that_hits_its_time_limit_is_told_apart_from_a_failure():
    done = sourced("fails() { return 3; }; slow() { return 124; }; passes() { return 0; }\n"
                   "stage one passes; stage two slow; stage three fails || true\n"
                   'printf "%s\\n" "${SUMMARY[@]}"; echo "failed=$FAILED"')
    summary = done.stdout.splitlines()[-4:]
    assert [line.split()[0] for line in summary[:3]] == ["one", "two", "three"]
    assert "ok" in summary[0] and "time limit (passes stand)" in summary[1]
    assert "FAILED (exit 3)" in summary[2] and summary[3] == "failed=1"
