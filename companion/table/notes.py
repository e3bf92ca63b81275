"""The table's own notes: the host's switches and the running step timer, kept in a small
SQLite file beside the journal (``table.sqlite3``), so a restart keeps both.

Nothing here is part of a match (the journal holds those): losing the last second of a
note costs a second on a timer, so the file is written without waiting for the disk
(``synchronous=NORMAL``), unlike the journal.

Damage is still said (:mod:`companion.damage`): the file is checked at open like the
journal. Its rows change in place, so what its commit note counts is the file's starts:
each open raises a counter in a transaction flushed to disk, then notes it. A file cut,
or its WAL lost, back past the last start is refused and moved aside; what was written
since the last start is not watched (a power cut may take it anyway, by design).

The notes also carry what damage earlier starts found and moved aside
(:attr:`TableNotes.damage`), for the log and the host page.
"""
from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from companion.damage import StoredFile, log_kept_damage, read_counter

#: The file's name, in the journal's folder.
FILE_NAME = "table.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS timer (match TEXT PRIMARY KEY, key TEXT NOT NULL,
                                  left REAL NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""
#: What the commit note counts: the file's starts.
_count_starts = read_counter("counters", "starts")


class TableNotes:
    """The host's table settings and what is left of the step timer. Thread-safe."""

    def __init__(self, path: str | Path):
        """Raises :class:`~companion.damage.StoredFileError` for a damaged file (moved aside)."""
        self.path = path
        self._lock = threading.Lock()
        stored = StoredFile(Path(path), "the table's notes",
                            "the host's switches and the step timer start from their defaults",
                            counted="starts", count=_count_starts)
        #: Damage earlier starts moved aside beside this file (:func:`kept_damage`).
        self.damage = [] if stored.in_memory else log_kept_damage(Path(path).parent)
        self._db = stored.open(self._set_up)
        stored.note(_count_starts(self._db))

    def _set_up(self, db: sqlite3.Connection) -> None:
        if str(self.path) != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
        db.executescript(SCHEMA)
        # This start, counted in a commit flushed to disk (and all before it with it),
        # then noted: after a power cut the note can only lag behind the file.
        db.execute("PRAGMA synchronous=FULL")
        db.execute("INSERT INTO counters VALUES ('starts', 1) ON CONFLICT (name)"
                   " DO UPDATE SET value = value + 1")
        db.execute("PRAGMA synchronous=NORMAL")

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
