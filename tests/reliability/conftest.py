"""Fixtures of the reliability suite, and the figures it reports.

Every test records what it exercised (kills survived, requests tried, leak checks...)
with the ``figures`` fixture; at the end of the run the figures are printed under
"reliability figures" and written to ``.pytest_cache/d/reliability/figures.json``
(git-ignored), which is where docs/reliability.md takes its numbers from.
"""
from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from companion.web import create_app
from tests.conftest import PIN, join, login

__all__ = ["PIN", "join", "login"]

SEATS = 8

_FIGURES: dict[str, dict[str, Any]] = {}
_FIGURES_LOCK = threading.Lock()


@pytest.fixture
def figures():
    """``figures("crash", kills=6, ...)``: record what a test exercised."""
    def record(section: str, **values: Any) -> None:
        with _FIGURES_LOCK:
            _FIGURES.setdefault(section, {}).update(values)
    return record


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not _FIGURES:
        return
    report = {"full": bool(getattr(config, "full_run", False)), **_FIGURES}
    text = json.dumps(report, indent=1, sort_keys=True)
    terminalreporter.write_sep("-", "reliability figures")
    terminalreporter.write_line(text)
    cache = getattr(config, "cache", None)
    if cache is not None:
        path = cache.mkdir("reliability") / "figures.json"
        path.write_text(text + "\n")
        terminalreporter.write_line(f"(written to {path})")


# -- an in-process table and its app, as phones and the host see it ------------------------
@pytest.fixture
def seat_count() -> int:
    return SEATS


@pytest.fixture
def app(table, hub, hardware):
    """The app as it runs for real: an unexpected exception is a 500, not a raise."""
    app = create_app(table, hub, sim=hardware)
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)
    return app
