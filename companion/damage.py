"""The table's SQLite files, checked before anything opens them: damage is said out loud.

The table keeps four SQLite files in its data folder: the journal (every match and
action), the night's standings, the table's notes (the host's switches and the step
timer) and the seat access file (join links, phones, the cookie key). Each opener
checks its file here (:meth:`StoredFile.check`) before any SQLite connection touches
it, because SQLite mends quietly what it can: it replays a WAL up to its first bad frame
and drops the rest, deletes the WAL of a database file that is empty, and takes an
empty or missing file for a new database. Right after a crash; wrong after damage,
where it loses committed data without a word.

What is damage here (docs/security.md, "Damage"):

- the file missing while its ``-wal`` or its note still is there, or cut to 0 bytes
  while its WAL holds frames or its note counts something;
- a file SQLite cannot read, or whose own check (``PRAGMA quick_check``) fails;
- fewer of what the file counts than its note, ``<file>.commits``, says were committed:
  a WAL cut or lost, or a file cut, that SQLite would open without a word. The note is
  written after the commit it counts, with one ``pwrite`` and no fsync: after a killed
  process it is exact, after a power cut it can only lag (the commit was flushed first),
  so neither is ever taken for damage;
- whatever the file's owner checks besides (the journal's checksum of each entry).

Damage is refused with one message naming the file, what was found and what to do,
and the file and its side files are *moved*, as found, into a folder beside them,
``<file>.damaged-<UTC time of the last change>`` (``-2``, ``-3``... when that name is
taken: nothing is ever overwritten), with a ``WHY.txt``. The next start finds the file
gone and begins a new one; it says in the log and on the host page where the damage is
kept (:func:`kept_damage`) for as long as that folder is there.
"""
from __future__ import annotations

import datetime
import logging
import os
import sqlite3
import struct
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NoReturn

from companion.errors import MutinyError

log = logging.getLogger(__name__)

#: The side files SQLite and the table keep beside a database file.
SIDE_FILES = ("-wal", "-shm", "-journal", ".commits")
#: A WAL's header, before its first frame.
WAL_HEADER = 32
#: What a kept folder's name holds after the file's name.
KEPT = ".damaged-"

#: An owner's own check of a readable file: a problem found, or None.
Check = Callable[[sqlite3.Connection], "str | None"]


class StoredFileError(MutinyError, RuntimeError):
    """One of the table's files is damaged (moved aside: the message says where), or
    cannot be opened at all (a folder the companion may not write; nothing moved)."""


# -- the commit note ------------------------------------------------------------------
def read_note(path: Path) -> int | None:
    """The count in a commit note, or None (no note, or a torn one)."""
    try:
        return int(path.read_text().strip() or 0)
    except (OSError, ValueError):
        return None


class CommitNote:
    """``<file>.commits``: what the file counted after its last commit. One write of a
    fixed width, no fsync (see the module's docstring)."""

    def __init__(self, path: Path):
        self.path = path
        self._fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)

    def write(self, count: int) -> None:
        if self._fd is not None:
            os.pwrite(self._fd, f"{count:020d}\n".encode(), 0)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


# -- counting -------------------------------------------------------------------------
def count_rows(*tables: str) -> Callable[[sqlite3.Connection], int]:
    """Counts the rows of ``tables`` (a table not made yet counts 0): for files that
    only ever add rows."""
    def count(db: sqlite3.Connection) -> int:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        return sum(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                   for t in tables if t in names)
    return count


def read_counter(table: str, name: str) -> Callable[[sqlite3.Connection], int]:
    """Reads counter ``name`` of a ``(name, value)`` table (0 before it exists): for
    files whose rows change in place, counted by a number only ever raised."""
    def count(db: sqlite3.Connection) -> int:
        if db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                      (table,)).fetchone() is None:
            return 0
        row = db.execute(f"SELECT value FROM {table} WHERE name = ?", (name,)).fetchone()
        return int(row[0]) if row else 0
    return count


# -- the WAL, read by its own format --------------------------------------------------
def _wal_checksum(data: bytes, big_endian: bool, seed: tuple[int, int]) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continued from
    ``seed`` (https://www.sqlite.org/fileformat.html#checksum_algorithm)."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    s0, s1 = seed
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def _wal_header(data: bytes) -> tuple[int, int, int, int] | None:
    """(magic, page size, salt 1, salt 2) of a WAL's bytes, or None without a header."""
    if len(data) < WAL_HEADER:
        return None
    magic, _version, page_size, _seq, salt1, salt2 = struct.unpack(">6I", data[:24])
    if magic not in (0x377F0682, 0x377F0683) or page_size < 512:
        return None
    return magic, page_size, salt1, salt2


def wal_damage(wal: Path) -> str | None:
    """What is wrong with a WAL file, read by its own checksums, or None.

    SQLite replays a WAL up to the first frame whose checksum fails and drops the rest.
    After a crash that is the one transaction being written. If instead frames past the
    failing one still chain on from it (each checks out against the checksum stored in
    the frame before) and hold two or more commits, whole transactions written and
    flushed after it would be dropped: that is damage, not a crash. (Used when the
    journal has no commit note; reading a large WAL in Python takes a while.)"""
    try:
        data = wal.read_bytes()
    except OSError:
        return None
    header = _wal_header(data)
    if header is None:
        return None
    magic, page_size, salt1, salt2 = header
    big = magic & 1 == 1
    c0, c1 = struct.unpack(">2I", data[24:32])
    if _wal_checksum(data[:24], big, (0, 0)) != (c0, c1):
        return None  # a header SQLite would ignore as well: nothing to reason from
    seed, size, broken, commits_after = (c0, c1), 24 + page_size, None, 0
    for number, at in enumerate(range(WAL_HEADER, len(data) - size + 1, size), start=1):
        _page, commit, s1, s2, k0, k1 = struct.unpack(">6I", data[at:at + 24])
        if (s1, s2) != (salt1, salt2):
            break  # a frame of an earlier pass over the file: the end of this one
        body = data[at:at + 8] + data[at + 24:at + size]
        if _wal_checksum(body, big, seed) == (k0, k1):
            commits_after += broken is not None and commit != 0
        elif broken is None:
            broken = number
        seed = (k0, k1)  # past a break, each frame must chain on from the one before
    if broken is not None and commits_after >= 2:
        return (f"frame {broken} of its WAL fails its checksum and {commits_after} committed"
                f" transactions follow it")
    return None


def wal_in_use(wal: Path) -> int:
    """How many bytes at the front of a WAL file its current pass fills: the header
    and the frames written since SQLite last started the file again (0 without a valid
    header). A laid-out WAL (the journal's) is longer: past this end lie frames of an
    earlier pass, which SQLite ignores (their salts are not the header's)."""
    try:
        data = wal.read_bytes()
    except OSError:
        return 0
    header = _wal_header(data)
    if header is None:
        return 0
    _magic, page_size, salt1, salt2 = header
    size, end = 24 + page_size, WAL_HEADER
    for at in range(WAL_HEADER, len(data) - size + 1, size):
        if struct.unpack(">2I", data[at + 8:at + 16]) != (salt1, salt2):
            break
        end = at + size
    return end


# -- keeping damage aside -------------------------------------------------------------
def keep_aside(path: Path, why: str) -> Path:
    """Move ``path`` and its side files into a new folder beside it, named after the
    damaged file's last change (UTC), with ``why`` in its ``WHY.txt``; return the
    folder. A name already taken (other damage) gets ``-2``, ``-3``...: nothing is
    ever overwritten. The database file moves first: were the move cut short, what
    is left (a WAL or a note without its file) is itself refused at the next start."""
    present = [p for p in (path, *(Path(f"{path}{s}") for s in SIDE_FILES)) if p.exists()]
    # (-shm is left out: it is SQLite's index of the WAL, rewritten by any reader)
    changed = max((p.stat().st_mtime for p in present if not p.name.endswith("-shm")),
                  default=time.time())
    stamp = datetime.datetime.fromtimestamp(changed, datetime.timezone.utc)
    base = path.with_name(f"{path.name}{KEPT}{stamp:%Y%m%d-%H%M%S}")
    folder, number = base, 1
    while True:
        try:
            folder.mkdir()
            break
        except FileExistsError:
            number += 1
            folder = base.with_name(f"{base.name}-{number}")
    (folder / "WHY.txt").write_text(why + "\n")
    for file in present:
        os.rename(file, folder / file.name)  # (a new, empty folder: nothing to overwrite)
    return folder


def kept_damage(data_dir: Path) -> list[dict[str, str]]:
    """Every folder of damaged files kept in ``data_dir``, oldest name first: the file
    it was, the folder and the first line of its ``WHY.txt``."""
    kept = []
    for folder in sorted(data_dir.glob(f"*{KEPT}*")):
        if not folder.is_dir():
            continue
        try:
            why = (folder / "WHY.txt").read_text().strip().splitlines()[0]
        except (OSError, IndexError):
            why = "(no WHY.txt)"
        kept.append({"file": folder.name.split(KEPT)[0], "folder": str(folder), "why": why})
    return kept


def log_kept_damage(data_dir: Path) -> list[dict[str, str]]:
    """:func:`kept_damage`, each one also said in the log (at every start, for as long
    as its folder is there)."""
    kept = kept_damage(data_dir)
    for item in kept:
        log.warning("damage found at an earlier start: %s was moved aside into %s (%s);"
                    " this start began without it. Delete that folder once dealt with.",
                    item["file"], item["folder"], item["why"])
    return kept


# -- one file -------------------------------------------------------------------------
@dataclass(frozen=True)
class StoredFile:
    """One of the table's SQLite files, as its opener checks it.

    ``counted``: what ``count`` counts ("rows", "starts"), for the messages; ``count``
    the number its commit note keeps (None: no note). ``holds``: what starting without
    the file costs. ``also``: the owner's own check of a readable file (a problem or
    None). ``wal_checksums``: with no note, read the WAL's checksums (:func:`wal_damage`).
    ``error``: the exception raised (a :class:`MutinyError`)."""

    path: Path
    title: str
    holds: str
    counted: str = "rows"
    count: Callable[[sqlite3.Connection], int] | None = None
    also: Check | None = None
    wal_checksums: bool = False
    error: type[MutinyError] = StoredFileError

    @property
    def note_path(self) -> Path:
        return Path(f"{self.path}.commits")

    @property
    def wal_path(self) -> Path:
        return Path(f"{self.path}-wal")

    @property
    def in_memory(self) -> bool:
        return str(self.path) == ":memory:"

    def open(self, setup: Callable[[sqlite3.Connection], None]) -> sqlite3.Connection:
        """Check the file (:meth:`check`), then open it for writing and run ``setup``
        on the connection (its pragmas, its schema): damage SQLite finds there is
        refused as well (:meth:`damaged`). A file in memory (``:memory:``, for tests)
        is only opened. The connection may be used from any thread (its owner holds
        its own lock) and makes no transaction of its own."""
        if not self.in_memory:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.check()
        db = None
        try:
            db = sqlite3.connect(str(self.path), check_same_thread=False,
                                 isolation_level=None)
            setup(db)
        except sqlite3.DatabaseError as exc:
            if db is not None:
                db.close()
            if self.in_memory:
                raise self.error(f"{self.title} in memory: {exc}") from exc
            raise self.damaged(exc) from exc
        return db

    def note(self, count: int, keep: bool = False) -> CommitNote | None:
        """Note ``count`` once the commit it counts is flushed to disk; return the note
        to write again after later commits (``keep``), or None (closed; a file in
        memory has none)."""
        if self.in_memory:
            return None
        note = CommitNote(self.note_path)
        note.write(count)
        if not keep:
            note.close()
            return None
        return note

    def check(self) -> None:
        """Refuse the file (moving it aside) if it is damaged; return if it is whole or
        new. Runs before any SQLite connection opens it, and reads it through a
        read-only one, whose close never checkpoints or deletes the WAL."""
        noted = read_note(self.note_path) if self.count is not None else None
        found = self._found_beside(noted)
        if found is None and self.path.exists():
            found = self._found_inside(noted)
        if found is not None:
            self.refuse(found)

    def _found_beside(self, noted: int | None) -> str | None:
        """Damage seen from the files' sizes alone, before SQLite could mend it."""
        wal = self.wal_path
        if not self.path.exists():
            if wal.exists():
                return f"the file is missing while its WAL, {wal.name}, is still there"
            if noted:
                return (f"the file is missing while its note, {self.note_path.name}, says"
                        f" it held {noted} {self.counted}")
            return None  # a new file (or one moved aside with all its files)
        if self.path.stat().st_size == 0:
            if wal_in_use(wal) > WAL_HEADER:
                # (SQLite would delete that WAL: a database file in WAL mode is never
                # empty once its WAL holds a frame)
                return (f"the file is cut to 0 bytes while its WAL holds"
                        f" {wal_in_use(wal)} bytes of frames")
            if noted:
                return (f"the file is cut to 0 bytes while its note, {self.note_path.name},"
                        f" says it held {noted} {self.counted}")
        if noted is None and self.wal_checksums:
            return wal_damage(wal)
        return None

    def _found_inside(self, noted: int | None) -> str | None:
        """Damage SQLite itself sees, or the count or the owner's check does."""
        # Read-only, unless a rollback journal was left hot by a kill in the middle of a
        # write (a file without a WAL: the seat access file). A read-only connection
        # cannot roll it back and refuses to read; a writer rolls it back as SQLite
        # does at any open after a crash, and with no WAL its close changes nothing.
        hot = (Path(f"{self.path}-journal").exists() and not self.wal_path.exists())
        uri = f"file:{urllib.parse.quote(str(self.path))}?mode={'rw' if hot else 'ro'}"
        try:
            probe = sqlite3.connect(uri, uri=True)
            try:
                verdict = [r[0] for r in probe.execute("PRAGMA quick_check").fetchall()]
                if verdict != ["ok"]:
                    return f"SQLite's own check finds it damaged ({verdict[0]})"
                problem = self.also(probe) if self.also is not None else None
                if problem is not None:
                    return problem
                count = self.count(probe) if self.count is not None else None
            finally:
                probe.close()
        except sqlite3.OperationalError as exc:
            # Not damage: a folder it may not write, a lock... Said, nothing moved.
            raise self.error(
                f"cannot read {self.title} {self.path}: {exc}. Check that the folder and"
                f" its files belong to the user the companion runs as.") from exc
        except sqlite3.DatabaseError as exc:
            return f"SQLite cannot read it ({exc})"
        if noted is not None and count is not None and count < noted:
            return (f"it holds {count} {self.counted} where {noted} were committed: its WAL"
                    f" or the file itself was cut or lost after they were written, and"
                    f" SQLite would open it without a word")
        return None

    def refuse(self, found: str) -> NoReturn:
        """Move the file and its side files aside and raise the one message."""
        raise self.refused(found)

    def refused(self, found: str) -> MutinyError:
        """Move the file and its side files aside; the one message, to raise."""
        folder = keep_aside(self.path, f"{self.title} {self.path}: {found}")
        return self.error(
            f"{self.title} {self.path} is damaged: {found}. Its files were moved aside, as"
            f" found, into {folder} (WHY.txt says why), so the next start begins without it:"
            f" {self.holds}. `sqlite3 {self.path.name} .recover` in that folder gets back"
            f" what can be read.")

    def damaged(self, exc: sqlite3.DatabaseError) -> MutinyError:
        """What opening the file for writing raised, after it passed :meth:`check`:
        damage (the file moved aside, the message raised) or, for an
        ``OperationalError`` (a lock, a folder it may not write), only said."""
        if isinstance(exc, sqlite3.OperationalError):
            return self.error(f"cannot open {self.title} {self.path}: {exc}. Check that the"
                              f" folder and its files belong to the user the companion"
                              f" runs as.")
        return self.refused(f"SQLite cannot read it ({exc})")
