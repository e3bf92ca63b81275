"""Options shared by the whole suite."""
from __future__ import annotations


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="run the heavy tests at their full count (CI runs fewer)")


def pytest_configure(config):
    config.full_run = config.getoption("--full")
