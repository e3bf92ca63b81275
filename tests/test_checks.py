"""The companion's static checks, run by `./dev test` (and `--fast`) so CI fails with them:
ruff (pyflakes' errors, import order, bugbear) and mypy, both configured in pyproject.toml."""
from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    """The tool's command in the test venv (the test extra installs both)."""
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert found, f"{name} is in the test extra of pyproject.toml: ./dev test installs it"
    return found


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing_in_the_companion():
    done = _run(_tool("ruff"), "check", "--no-cache", "companion")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_the_companion():
    # Its cache lives under .pytest_cache (ignored by git), so a second run takes seconds.
    cache = ROOT / ".pytest_cache" / "mypy"
    done = _run(_tool("mypy"), "--cache-dir", str(cache))
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_checks_select_what_ci_promises():
    """The rule families and the Python version are part of the contract with CI: a
    narrower selection here would pass code the README says is checked."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    tool = pyproject["tool"]
    test_extra = {need.split(">")[0].split("=")[0].strip()
                  for need in pyproject["project"]["optional-dependencies"]["test"]}
    assert {"ruff", "mypy"} <= test_extra
    assert {"F", "I", "B"} <= set(tool["ruff"]["lint"]["select"])
    assert tool["ruff"]["target-version"] == "py311"
    assert tool["mypy"]["python_version"] == "3.11"
    assert tool["mypy"]["packages"] == ["companion"]
    # Missing type information is forgiven per library, never for every import.
    assert "ignore_missing_imports" not in tool["mypy"]
