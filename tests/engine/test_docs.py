"""The runnable example in docs/engine.md stays runnable."""
from __future__ import annotations

import os
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_the_engine_example_runs(tmp_path, capsys):
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(code, str(DOC), "exec"), {})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and out[0].split()[-1].isdigit()
    assert (tmp_path / "example.sqlite3").exists()
