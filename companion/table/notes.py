"""The table's own notes: the host's switches and the running step timer, kept in a small
SQLite file beside the journal (``table.sqlite3``), so a restart keeps both.

Nothing here is part of a match (the journal holds those): losing the last second of a
note costs a second on a timer, so the file is written without waiting for the disk
(``synchronous=NORMAL``), unlike the journal.
"""
from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

#: The file's name, in the journal's folder.
FILE_NAME = "table.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS timer (match TEXT PRIMARY KEY, key TEXT NOT NULL,
                                  left REAL NOT NULL);
"""


class TableNotes:
    """The host's table settings and what is left of the step timer. Thread-safe."""

    def __init__(self, path: str | Path):
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        if str(path) != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    @classmethod
    def beside(cls, journal_path: str | Path) -> "TableNotes":
        """The notes next to a journal file (in memory for a journal in memory)."""
        if str(journal_path) == ":memory:":
            return cls(":memory:")
        return cls(Path(journal_path).parent / FILE_NAME)

    # -- the host's switches ------------------------------------------------------------
    def setting(self, name: str, default: Any) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE name = ?",
                                   (name,)).fetchone()
        return json.loads(row[0]) if row else default

    def set(self, name: str, value: Any) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)",
                             (name, json.dumps(value)))

    # -- the step timer -----------------------------------------------------------------
    def note_timer(self, match_id: str, key: str, left: float) -> None:
        """Timer ``key`` of match ``match_id`` has ``left`` seconds left."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO timer VALUES (?, ?, ?)",
                             (match_id, key, left))

    def timer(self, match_id: str) -> tuple[str, float] | None:
        """(key, seconds left) of the last timer noted for ``match_id``, if any."""
        with self._lock:
            row = self._db.execute("SELECT key, left FROM timer WHERE match = ?",
                                   (match_id,)).fetchone()
        return (row[0], row[1]) if row else None

    def forget_timers(self) -> None:
        with self._lock:
            self._db.execute("DELETE FROM timer")

    def close(self) -> None:
        """Close the file (idempotent)."""
        with self._lock:
            self._db.close()
