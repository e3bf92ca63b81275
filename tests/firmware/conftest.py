"""Runs firmware code under real MicroPython: the WebAssembly port from the npm registry.

The package is installed the first time into tests/firmware/node_modules (git-ignored)
with ``npm ci`` from package-lock.json, and kept there for the next runs. Without Node
and npm these tests fail, never skip: the firmware must be tested on MicroPython.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "firmware"
PACKAGE = "@micropython/micropython-webassembly-pyscript"
#: What MicroPython's /lib gets: the firmware, and the tests' stand-ins and checks.
LIB = [*sorted(FIRMWARE.glob("*.py")), HERE / "machine.py", HERE / "linksim.py",
       HERE / "checks.py"]


def _installed_version() -> str | None:
    manifest = HERE / "node_modules" / PACKAGE / "package.json"
    if not manifest.is_file():
        return None
    return json.loads(manifest.read_text())["version"]


def _install() -> None:
    wanted = json.loads((HERE / "package.json").read_text())["dependencies"][PACKAGE]
    if _installed_version() == wanted:
        return  # cached from an earlier run
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.fail("the firmware tests run MicroPython's WebAssembly port in Node.js: "
                    "install Node.js 18 or later and npm (apt-get install nodejs npm)")
    result = subprocess.run([npm, "ci", "--prefix", str(HERE), "--no-audit", "--no-fund"],
                            capture_output=True, text=True, timeout=600)
    if result.returncode != 0 or _installed_version() != wanted:
        pytest.fail(f"npm ci in {HERE} failed:\n{result.stdout}\n{result.stderr}")


@pytest.fixture(scope="session")
def micropython(tmp_path_factory: pytest.TempPathFactory) -> Callable[[dict], dict]:
    """``run(spec)``: ``checks.main(spec)`` under MicroPython, as plain data."""
    _install()
    folder = tmp_path_factory.mktemp("micropython")

    def run(spec: dict[str, Any]) -> dict[str, Any]:
        spec_file = folder / "input.json"
        spec_file.write_text(json.dumps(spec))
        result = subprocess.run(["node", str(HERE / "run_micropython.mjs"),
                                 str(HERE / "run_checks.py"), str(spec_file),
                                 *map(str, LIB)],
                                capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            pytest.fail(f"MicroPython failed:\n{result.stderr[-4000:]}")
        return json.loads(result.stdout.strip().splitlines()[-1])
    return run
