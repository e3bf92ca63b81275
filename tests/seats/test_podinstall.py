"""``mutiny pod install``."""
from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.cli import main as cli_main
from companion.seats import podinstall
from tests.firmware.fakepod import UID_HEX


def test_pod_install_dry_run_prints_the_plan(capsys):
    assert cli_main(["pod", "install", "/dev/ttyACM0", "--seat", "3", "--pin", "led=none",
                     "--pin", "select=GP20", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("would run: ") and "mpremote connect /dev/ttyACM0 exec" in out[0]
    assert out[1] == 'would write pod_config.json: {"seat": 3, "led": null, "select": 20}'
    assert "cp " in out[2] and out[2].endswith(" : + cp '<pod_config.json>' "
                                               ":pod_config.json + reset")
    assert out[2].index("podlink.py") < out[2].index("main.py")  # main.py goes last
    assert out[3] == ('then add to the table config, in seat 3\'s [[seat]] block: '
                      'pod = "<the id it reads>"')


def test_pod_install_runs_mpremote_and_writes_the_seat(capsys):
    plan = podinstall.plan("/dev/ttyACM1", seat=2, flip=True)
    runs: list[list[str]] = []
    written: list[dict] = []

    def run(command, capture_output, text, check):
        runs.append(command)
        if "exec" in command:
            return SimpleNamespace(returncode=0, stdout="POD-ID E6614103E7000001\n", stderr="")
        config = command[command.index(":pod_config.json") - 1]
        written.append(json.loads(Path(config).read_text()))
        return SimpleNamespace(returncode=0, stdout="", stderr="")
    import sys
    assert podinstall.install(plan, sys.stdout, run) == UID_HEX
    assert written == [{"seat": 2, "flip": True}]
    assert [c[c.index("connect") + 2] for c in runs] == ["exec", "cp"]
    out = capsys.readouterr().out
    assert f'pod = "{UID_HEX}"' in out and "seat 2's [[seat]] block" in out


@pytest.mark.parametrize("args, message", [
    (["--pin", "select"], "is not NAME=GPIO"),
    (["--pin", "bogus=3"], "is not NAME=GPIO"),
    (["--pin", "led=40"], "is not a Pico GPIO"),
    (["--seat", "0"], "out of range"),
    (["--firmware", "/nonexistent"], "no pod firmware in /nonexistent"),
])
def test_pod_install_refuses_bad_arguments(args, message, capsys):
    assert cli_main(["pod", "install", "/dev/ttyACM0", "--dry-run", *args]) == 1
    assert message in capsys.readouterr().err


def test_pod_install_explains_a_board_that_says_no_id():
    plan = podinstall.plan("/dev/ttyACM0")
    assert plan.config is None  # no seat, no pins: the pod keeps its config

    def run(command, capture_output, text, check):
        return SimpleNamespace(returncode=0, stdout=">>> ", stderr="")
    with pytest.raises(podinstall.InstallError, match="did not say its id.*Hold select"):
        podinstall.install(plan, open(os.devnull, "w"), run)

    def fail(command, capture_output, text, check):
        return SimpleNamespace(returncode=1, stdout="", stderr="could not enter raw repl")
    with pytest.raises(podinstall.InstallError, match="failed \\(exit 1\\): could not enter"):
        podinstall.install(plan, open(os.devnull, "w"), fail)


def test_pod_install_needs_mpremote(monkeypatch):
    import importlib.util
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(podinstall.InstallError, match=r"pip install 'mutiny-table\[pod\]'"):
        podinstall.require_mpremote()
