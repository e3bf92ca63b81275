"""The sidekick: a job on another thread while this one waits on something that lets go
of the interpreter (the journal's COMMIT)."""
from __future__ import annotations

import threading
import time

import pytest

from companion.engine.sidekick import Sidekick


@pytest.fixture
def sidekick():
    helper = Sidekick("test-sidekick")
    yield helper
    helper.close()


def test_the_job_runs_on_another_thread_while_the_caller_waits(sidekick):
    started = threading.Event()
    seen: list[str] = []

    def wait():
        # The job runs meanwhile: this thread sleeps (no interpreter held) until it has.
        assert started.wait(5)
        return "committed"

    def job():
        seen.append(threading.current_thread().name)
        started.set()

    assert sidekick.during(wait, job) == "committed"
    assert seen == ["test-sidekick"]


def test_the_job_is_done_when_the_call_returns(sidekick):
    done: list[bool] = []
    sidekick.during(lambda: None, lambda: (time.sleep(0.05), done.append(True)))
    assert done == [True]


def test_the_waits_error_comes_first_and_the_job_still_finishes(sidekick):
    done: list[bool] = []

    def wait():
        raise OSError("disk gone")

    def job():
        time.sleep(0.02)
        done.append(True)
        raise ValueError("second")

    with pytest.raises(OSError, match="disk gone"):
        sidekick.during(wait, job)
    assert done == [True]


def test_the_jobs_error_is_raised_to_the_caller(sidekick):
    def job():
        raise ValueError("bad display")

    with pytest.raises(ValueError, match="bad display"):
        sidekick.during(lambda: None, job)
    assert sidekick.during(lambda: 7, lambda: None) == 7  # the thread lives on


def test_close_is_idempotent_and_ends_the_thread():
    helper = Sidekick("closing")
    helper.during(lambda: None, lambda: None)
    helper.close()
    helper.close()
    assert not any(t.name == "closing" for t in threading.enumerate())
    with pytest.raises(RuntimeError):
        helper.during(lambda: None, lambda: None)
