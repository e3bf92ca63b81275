"""A second pair of hands while the disk flushes.

SQLite lets go of the interpreter while its ``COMMIT`` waits for ``fsync`` (a few
tenths of a millisecond on a laptop's disk, tens of milliseconds on an SD card), so a
thread that holds it can do the Python work meanwhile. The journal runs a commit here
while the sidekick's thread builds what the table will show once the commit is done
(:meth:`companion.engine.journal.Journal.append`, ``alongside``): the two overlap instead
of adding up, and nothing built leaves before the commit returns.
"""
from __future__ import annotations

import queue
import threading
from typing import Callable, TypeVar

__all__ = ["Sidekick"]

T = TypeVar("T")


class Sidekick:
    """One daemon thread that runs a job while its caller waits on something that lets
    go of the interpreter. Started on first use; :meth:`close` ends it (idempotent)."""

    def __init__(self, name: str = "sidekick") -> None:
        self._name = name
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False

    def during(self, wait: Callable[[], T], job: Callable[[], None]) -> T:
        """Run ``job`` on the sidekick's thread while ``wait`` runs on this one; return
        what ``wait`` returned once both are done. An error of ``wait`` is raised first
        (the job has finished by then); else an error of ``job``."""
        if self._closed:
            raise RuntimeError("the sidekick has stopped")
        finished = threading.Lock()
        finished.acquire()
        failed: list[BaseException] = []

        def run() -> None:
            try:
                job()
            except BaseException as exc:  # handed back to the caller, raised there
                failed.append(exc)
            finally:
                finished.release()

        self._start()
        self._jobs.put(run)
        try:
            result = wait()
        finally:
            finished.acquire()  # the job never outlives the call: its work is the caller's
        if failed:
            raise failed[0]
        return result

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            job()

    def close(self) -> None:
        """End the thread once any job under way is done. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._thread is not None:
            self._jobs.put(None)
            if self._thread is not threading.current_thread():
                self._thread.join(5)
