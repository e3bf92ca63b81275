"""The journal: every match and every accepted action, append-only, in SQLite.

An action counts once its row is on disk: the database runs in WAL mode with
``synchronous=FULL``, and a match writes its entries (the action and the chance steps it
set off) in one transaction, and puts its state back if that fails. Nothing is ever updated
or deleted; host undo is itself an entry. Loading a match replays its entries.

Damage is never silent. SQLite recovers a WAL up to its last frame with a good checksum
and drops the rest without a word, which is right after a crash (only the transaction
being written is lost, and it was never acknowledged) and wrong after damage (a WAL cut
or bit-flipped further back loses committed actions). So after every commit the journal
notes how many rows it holds in a small side file, ``<journal>.commits``, with a plain
``write`` and no ``fsync``: it costs no disk flush, survives a killed process, and after
a power cut it can only lag behind the journal (it is written after the commit's own
flush), never run ahead. At open, a journal holding fewer rows than that note, or one
SQLite cannot read, is refused with what was found and what to do, and its files are
first copied aside under a dated name (:func:`keep_aside`), before anything could
checkpoint or delete its WAL. See docs/security.md, "Damage".
"""
from __future__ import annotations

import datetime
import json
import os
import shutil
import sqlite3
import struct
import threading
import time
from pathlib import Path
from typing import Any, Callable

from companion.engine.chance import Clock
from companion.engine.match import Entry, Match, canonical
from companion.engine.rules import Game
from companion.engine.sidekick import Sidekick
from companion.errors import ActionRejected, JournalError

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    seats    INTEGER NOT NULL,
    names    TEXT NOT NULL,
    options  TEXT NOT NULL,
    seed     TEXT NOT NULL,
    created  REAL NOT NULL,
    rules    INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS entries (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seq      INTEGER NOT NULL,
    actor    TEXT NOT NULL,
    action   TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE IF NOT EXISTS finished (
    match_id TEXT PRIMARY KEY REFERENCES matches(id),
    at       REAL NOT NULL
);
"""


#: The tables whose rows the commit note counts.
TABLES = ("matches", "entries", "finished")
#: Pages the WAL holds before SQLite checkpoints it back to its start (SQLite's
#: default is 1,000: 4 MB, a stall of a few hundred ms on an SD card every few
#: hundred actions, and 30 ms to lay out at each open). At 256 (1 MB) a checkpoint
#: comes every hundred actions or so and costs a quarter as much.
WAL_PAGES = 256
#: The side files SQLite and the journal keep beside a database file.
SIDE_FILES = ("-wal", "-shm", "-journal", ".commits")


def keep_aside(path: Path, why: str) -> Path:
    """Copy ``path`` and its side files into a folder named after the damaged file's
    last change (UTC), beside it, and return that folder. Nothing is ever overwritten:
    the same damage found at the next start is already kept there, and other damage
    gets a folder of its own."""
    present = [p for p in (path, *(Path(f"{path}{s}") for s in SIDE_FILES)) if p.exists()]
    # (-shm is left out: it is SQLite's index of the WAL, rewritten by any reader)
    changed = max((p.stat().st_mtime for p in present if not p.name.endswith("-shm")),
                  default=time.time())
    stamp = datetime.datetime.fromtimestamp(changed, datetime.timezone.utc)
    folder = path.with_name(f"{path.name}.damaged-{stamp:%Y%m%d-%H%M%S}")
    try:
        folder.mkdir()
    except FileExistsError:
        return folder  # kept at an earlier start already, untouched since
    for file in present:
        shutil.copy2(file, folder / file.name)
    (folder / "WHY.txt").write_text(why + "\n")
    return folder


def _wal_checksum(data: bytes, big_endian: bool, seed: tuple[int, int]) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continued from
    ``seed`` (https://www.sqlite.org/fileformat.html#checksum_algorithm)."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    s0, s1 = seed
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


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
    if len(data) < 32:
        return None
    magic, _version, page_size, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:32])
    if magic not in (0x377F0682, 0x377F0683) or page_size < 512:
        return None
    big = magic & 1 == 1
    if _wal_checksum(data[:24], big, (0, 0)) != (c0, c1):
        return None  # a header SQLite would ignore as well: nothing to reason from
    seed, size, broken, commits_after = (c0, c1), 24 + page_size, None, 0
    for number, at in enumerate(range(32, len(data) - size + 1, size), start=1):
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
    header). A laid-out WAL (:meth:`Journal._lay_out_wal`) is longer: past this end lie
    frames of an earlier pass, which SQLite ignores (their salts are not the header's)."""
    try:
        data = wal.read_bytes()
    except OSError:
        return 0
    if len(data) < 32:
        return 0
    magic, _version, page_size, _seq, salt1, salt2 = struct.unpack(">6I", data[:24])
    if magic not in (0x377F0682, 0x377F0683) or page_size < 512:
        return 0
    size, end = 24 + page_size, 32
    for at in range(32, len(data) - size + 1, size):
        if struct.unpack(">2I", data[at + 8:at + 16]) != (salt1, salt2):
            break
        end = at + size
    return end


def _count_rows(db: sqlite3.Connection) -> int:
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    return sum(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
               for t in TABLES if t in names)


class Journal:
    """An append-only journal of matches in one SQLite file. Thread-safe.

    Use as a context manager, or call :meth:`close` (idempotent).
    """

    def __init__(self, path: str | Path, wal_pages: int = WAL_PAGES):
        """``wal_pages``: see :data:`WAL_PAGES` (a test that reads the WAL's bytes may
        want every commit in one pass over it)."""
        self.path = Path(path)
        self._wal_pages = wal_pages
        self._lock = threading.Lock()
        self._note: int | None = None  # the commit note's file descriptor
        self._rows = 0
        self._sidekick = Sidekick("journal-sidekick")
        in_memory = str(path) == ":memory:"  # an in-memory journal, for tests
        if not in_memory:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._check_before_open()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            self._add_rules_column()
            if not in_memory:
                self._rows = _count_rows(self._db)
                self._lay_out_wal()
        except sqlite3.DatabaseError as exc:
            if getattr(self, "_db", None) is not None:
                self._db.close()
            raise JournalError(
                f"cannot open the journal {self.path}: {exc}. If the file is damaged,"
                f" move it aside (the companion starts a new one) and keep it for"
                f" `sqlite3 {self.path.name} .recover`.") from exc
        if not in_memory:
            self._note = os.open(self._note_path, os.O_RDWR | os.O_CREAT, 0o600)
            self._write_note()
        self._closed = False

    # -- damage -------------------------------------------------------------------------
    @property
    def _note_path(self) -> Path:
        return Path(f"{self.path}.commits")

    def _check_before_open(self) -> None:
        """Refuse a journal that does not hold every committed row, or that SQLite
        cannot read, keeping its files aside first. Reads through a read-only
        connection: unlike a writer's, its close never checkpoints or deletes the WAL,
        so the evidence is copied as it was found."""
        if not self.path.exists():
            return  # a new journal (or one moved aside): the old note means nothing
        try:
            noted = int(self._note_path.read_text().strip() or 0)
        except (OSError, ValueError):
            noted = None  # a journal from before the note, or a torn note
        broken = wal_damage(Path(f"{self.path}-wal")) if noted is None else None
        if broken is not None:
            self._refuse(broken)
        try:
            probe = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                rows = _count_rows(probe)
            finally:
                probe.close()
        except sqlite3.DatabaseError as exc:
            found = f"SQLite cannot read it ({exc})"
        else:
            if noted is None or rows >= noted:
                return
            found = (f"it holds {rows} rows where {noted} were committed: the WAL or the"
                     f" database file beside it was cut or damaged after they were"
                     f" written, and SQLite would drop the rest without a word")
        self._refuse(found)

    def _refuse(self, found: str) -> None:
        folder = keep_aside(self.path, f"{self.path}: {found}")
        raise JournalError(
            f"the journal {self.path} does not replay to its last committed action:"
            f" {found}. Its files, as found, are kept in {folder}. To play on, move it"
            f" aside ({self.path.name} and its -wal, -shm and .commits files; the companion"
            f" then starts a new journal); `sqlite3 {self.path.name} .recover` in {folder}"
            f" gets back what can be read.")

    def _write_note(self) -> None:
        # One write of a fixed width, no fsync: see the module docstring.
        os.pwrite(self._note, f"{self._rows:020d}\n".encode(), 0)

    def _lay_out_wal(self) -> None:
        """Write the WAL out to its full size once, at open, so that no commit grows it.

        SQLite deletes the WAL when the journal closes, and while a WAL grows, each
        commit's fsync must also flush the file's new size through the file system's
        own journal: 0.17 to 0.25 ms a commit on this project's test machine, against
        0.10 ms for a commit that overwrites frames in place (on an SD card it is one
        more flash write each time). SQLite checkpoints the WAL back to its start once
        it holds ``wal_pages`` pages, so that size is all it ever needs: one
        throwaway transaction of that size is written, and the checkpoint that follows
        sends the next commit to the front (its pages land on the database's free list,
        which the next open's layout reuses)."""
        pages = self._wal_pages
        self._db.execute(f"PRAGMA wal_autocheckpoint={pages:d}")
        page = self._db.execute("PRAGMA page_size").fetchone()[0]
        wal = Path(f"{self.path}-wal")
        if wal.exists() and wal.stat().st_size >= page * pages:
            return
        self._db.execute("BEGIN IMMEDIATE")
        self._db.execute("CREATE TABLE wal_layout (filler BLOB)")
        self._db.execute("INSERT INTO wal_layout VALUES (zeroblob(?))", (page * pages,))
        self._db.execute("DROP TABLE wal_layout")
        self._db.execute("COMMIT")
        self._db.execute("PRAGMA wal_checkpoint(RESTART)")
        self._db.execute("PRAGMA shrink_memory")  # the filler's pages out of the cache

    def _add_rules_column(self) -> None:
        """Journals written before games had rules versions: every match in them was
        recorded under version 1 of its game's rules."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(matches)")}
        if "rules" not in columns:
            self._db.execute(
                "ALTER TABLE matches ADD COLUMN rules INTEGER NOT NULL DEFAULT 1")

    # -- writing ----------------------------------------------------------------------
    def begin(self, match: Match, entries: list[Entry] = ()) -> None:
        """Record a new match's header (its seats, options and seed) and its first
        entries (the deal) in one transaction: a match is never on disk without them."""
        header = ("INSERT INTO matches (id, game, seats, names, options, seed, created,"
                  " rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  [(match.id, match.game.spec.id, match.seats, json.dumps(match.names),
                    canonical(match.options), match.seed, time.time(),
                    match.game.spec.rules)])
        self._execute(header, self._entry_rows(match.id, entries))

    def append(self, match_id: str, entries: list[Entry], finished: bool = False,
               alongside: Callable[[], None] | None = None) -> None:
        """Write ``entries`` in one transaction; returns once they are on disk.
        ``finished``: they end the match, which is marked over in the same transaction
        (as :meth:`finish` would). ``alongside``: work to do on another thread while the
        commit waits for the disk (:mod:`companion.engine.sidekick`); it is done when
        this returns or raises, and it runs only once the entries are staged, so a
        refused write never starts it."""
        self._execute(self._entry_rows(match_id, entries),
                      self._finished_rows(match_id) if finished else ("", []),
                      alongside=alongside)

    @staticmethod
    def _entry_rows(match_id: str, entries: list[Entry]) -> tuple[str, list[tuple[Any, ...]]]:
        now = time.time()
        return ("INSERT INTO entries (match_id, seq, actor, action, at) VALUES (?, ?, ?, ?, ?)",
                [(match_id, e.seq, json.dumps(e.actor), canonical(e.action), now)
                 for e in entries])

    def finish(self, match_id: str) -> None:
        """Mark a match as over, so a restart does not offer to resume it."""
        self._execute(self._finished_rows(match_id))

    @staticmethod
    def _finished_rows(match_id: str) -> tuple[str, list[tuple[Any, ...]]]:
        return ("INSERT OR IGNORE INTO finished (match_id, at) VALUES (?, ?)",
                [(match_id, time.time())])

    def _execute(self, *statements: tuple[str, list[tuple[Any, ...]]],
                 alongside: Callable[[], None] | None = None) -> None:
        """Run each ``(sql, rows)`` in one transaction (``alongside``: see :meth:`append`)."""
        with self._lock:
            if self._closed:
                raise JournalError("the journal is closed")
            try:
                self._db.execute("BEGIN IMMEDIATE")
                added = 0
                for sql, rows in statements:
                    if rows:
                        added += self._db.executemany(sql, rows).rowcount
                failed = self._commit(alongside)
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise JournalError(f"could not write the journal: {exc}") from exc
            self._rows += added
            if self._note is not None:
                self._write_note()
        if failed:
            raise failed[0]  # the entries are on disk: the work alongside failed, not them

    def _commit(self, alongside: Callable[[], None] | None) -> list[BaseException]:
        """``COMMIT``, with ``alongside`` on the sidekick meanwhile; its error, if any,
        is returned (to be raised once the commit is counted), never taken for the
        commit's."""
        if alongside is None:
            self._db.execute("COMMIT")
            return []
        failed: list[BaseException] = []

        def job() -> None:
            try:
                alongside()
            except Exception as exc:
                failed.append(exc)

        self._sidekick.during(lambda: self._db.execute("COMMIT"), job)
        return failed

    # -- reading ----------------------------------------------------------------------
    def match_ids(self) -> list[str]:
        """Every match in the journal, oldest first."""
        rows = self._query("SELECT id FROM matches ORDER BY created, rowid")
        return [r[0] for r in rows]

    def unfinished_ids(self) -> list[str]:
        """Matches not marked finished, oldest first."""
        rows = self._query("SELECT id FROM matches WHERE id NOT IN"
                           " (SELECT match_id FROM finished) ORDER BY created, rowid")
        return [r[0] for r in rows]

    def finished_since(self, since: float) -> list[tuple[str, float]]:
        """(match id, when it was marked over) of every match marked over at or after
        ``since`` (a ``time.time()``), in that order."""
        return [(r[0], r[1]) for r in self._query(
            "SELECT match_id, at FROM finished WHERE at >= ? ORDER BY at, rowid", (since,))]

    def header(self, match_id: str) -> dict[str, Any]:
        rows = self._query(
            "SELECT game, seats, names, options, seed, created, rules FROM matches"
            " WHERE id = ?", (match_id,))
        if not rows:
            raise JournalError(f"no match {match_id!r} in {self.path}")
        game, seats, names, options, seed, created, rules = rows[0]
        try:
            return {"id": match_id, "game": game, "seats": seats, "names": json.loads(names),
                    "options": json.loads(options), "seed": seed, "created": created,
                    "rules": rules}
        except (TypeError, ValueError) as exc:
            raise self._damaged(exc) from exc

    def entries(self, match_id: str) -> list[Entry]:
        rows = self._query(
            "SELECT seq, actor, action FROM entries WHERE match_id = ? ORDER BY seq",
            (match_id,))
        try:
            entries = [Entry(seq, json.loads(actor), json.loads(action))
                       for seq, actor, action in rows]
        except (TypeError, ValueError) as exc:  # a row the journal never wrote
            raise self._damaged(exc) from exc
        for entry in entries:
            if (type(entry.seq) is not int or not isinstance(entry.action, dict)
                    or not isinstance(entry.actor, (int, str))):
                raise self._damaged(f"entry {entry.seq!r} of match {match_id} is garbled")
        return entries

    def load(self, match_id: str, games: Callable[[str], Game],
             clock: Clock | None = None,
             each: Callable[[Match], None] | None = None) -> Match:
        """The match replayed from its entries, attached to this journal.

        ``games`` maps a game id to its rules (``companion.games.get``).
        """
        head = self.header(match_id)
        game = games(head["game"])
        if head["rules"] != game.spec.rules:
            raise JournalError(
                f"match {match_id} in {self.path} was recorded under version"
                f" {head['rules']} of the {game.spec.title} rules, and this companion"
                f" plays version {game.spec.rules}, which records play differently; it"
                f" cannot be resumed. Start a new match (the old one stays in the"
                f" journal, untouched).")
        try:
            match = Match.replay(game, head["seats"], head["options"],
                                 head["seed"], head["names"], match_id,
                                 self.entries(match_id), clock=clock, each=each)
        except ActionRejected as exc:
            if exc.code == "journal_cut":
                raise JournalError(
                    f"match {match_id} in {self.path} was cut off before a chance step"
                    f" (a roll, a deal) was written, so it cannot be resumed; start a new"
                    f" match (this one stays in the journal)") from exc
            raise JournalError(
                f"match {match_id} in {self.path} does not replay ({exc.message});"
                f" the journal was written by another version of its rules") from exc
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            # A recorded outcome the rules cannot even apply: refused, never loaded wrong.
            raise JournalError(
                f"match {match_id} in {self.path} does not replay ({exc!r});"
                f" the journal was written by another version of its rules") from exc
        match.journal = self
        return match

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            if self._closed:
                raise JournalError("the journal is closed")
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.DatabaseError as exc:
                raise self._damaged(exc) from exc

    def _damaged(self, why: object) -> JournalError:
        return JournalError(
            f"the journal {self.path} is damaged ({why}). Move it aside (the companion"
            f" starts a new one) and keep it for `sqlite3 {self.path.name} .recover`.")

    # -- closing ----------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._sidekick.close()
                self._db.close()
                if self._note is not None:
                    os.close(self._note)
                    self._note = None

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
